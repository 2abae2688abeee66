"""Tactics study speed (``stich tactic``): deals studied per second for each game.

One worker (one engine), the game's built-in tactics (not the double-dummy readings),
objective score, fixed seeded deals: each deal's optimal line, its decisions scored, and the
runs that follow each tactic (four policies per seat it applied to).  Schafkopf2 deals are
those with a bare ten."""

from __future__ import annotations

import time

import pytest

from stich.deals.constraints import parse_constraint
from stich.deals.dealing import generate_deals
from stich.search.solve import new_engine
from stich.study.study import StudySettings, study_item
from stich.study.walk import WalkSettings, walk_deal
from stich.tactics import builtin

CASES = {"scharwenzel": (40, None), "schafkopf2": (6, "some seat holds a bare ten"), "elfern": (3, None)}


def _deals(game: str, count: int, where: str | None):
    accept = parse_constraint(where, game) if where else None
    return [d.deal for d in generate_deals(game, 77, count, accept=accept)]


def _report(bench, game: str, stats: dict, what: str) -> None:
    bench.extra_info.update(stats, deals_per_second=stats["deals"] / stats["seconds"],
                            decisions_per_second=stats["decisions"] / stats["seconds"])
    print(f"\n{game}{what}: {stats['deals']} deals ({stats['decisions']} decisions, {stats['runs']} runs) "
          f"in {stats['seconds']:.1f} s = {stats['deals'] / stats['seconds']:.2f} deals/s")


@pytest.mark.parametrize("game", list(CASES))
def test_tactic_deals_per_second(bench, game):
    deals = _deals(game, *CASES[game])
    tactics = [t for t in builtin(game) if not t.sees_all]
    engine = new_engine(64)
    stats = {}

    def go():
        started = time.perf_counter()
        records = [walk_deal(deal, tactics, WalkSettings("score"), engine) for deal in deals]
        stats.update(seconds=time.perf_counter() - started, deals=len(deals),
                     decisions=sum(len(r.decisions) for r in records), runs=sum(len(r.runs) for r in records))

    bench.group = "tactic"
    bench.pedantic(go, rounds=1, iterations=1)
    _report(bench, game, stats, "")
    assert stats["decisions"] > 0


VIEW_CASES = {"scharwenzel": (10, None), "schafkopf2": (1, "some seat holds a bare ten"), "elfern": (1, None)}


@pytest.mark.parametrize("game", list(VIEW_CASES))
def test_tactic_player_view_deals_per_second(bench, game):
    """``stich tactic --view player --samples 20 --first``: each decision and each choice of
    the advice and random-card runs also solved on 20 layouts of the mover's information set."""
    deals = _deals(game, *VIEW_CASES[game])
    names = tuple(t.name for t in builtin(game) if not t.sees_all)
    settings = StudySettings(names, "score", first=True, view="player", samples=20)
    stats = {}

    def go():
        started = time.perf_counter()
        records = [study_item(str(k), deal.dump(), settings)[1] for k, deal in enumerate(deals)]
        stats.update(seconds=time.perf_counter() - started, deals=len(deals),
                     decisions=sum(len(r["decisions"]) for r in records), runs=sum(len(r["runs"]) for r in records))

    bench.group = "tactic-view"
    bench.pedantic(go, rounds=1, iterations=1)
    _report(bench, game, stats, " --view player")
    assert stats["decisions"] > 0

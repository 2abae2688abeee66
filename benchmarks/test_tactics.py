"""Tactics study speed: scored decisions per second for each game (``stich tactic``).

One worker (one engine), the game's built-in tactics, objective score, fixed seeded deals:
the figure is decisions scored per second of wall time, walking the optimal line included.
Schafkopf2 deals are those with a bare ten (as in the README's study)."""

from __future__ import annotations

import time

import pytest

from solver.deals.constraints import parse_constraint
from solver.deals.dealing import generate_deals
from solver.search.solve import new_engine
from solver.study.tactic import study_deal
from solver.tactics import builtin

CASES = {"scharwenzel": (40, None), "schafkopf2": (6, "some seat holds a bare ten"), "elfern": (3, None)}


@pytest.mark.parametrize("game", list(CASES))
def test_tactic_decisions_per_second(bench, game):
    count, where = CASES[game]
    accept = parse_constraint(where, game) if where else None
    deals = [d.deal for d in generate_deals(game, 77, count, accept=accept)]
    tactics = builtin(game)
    engine = new_engine(64)
    stats = {}

    def go():
        started = time.perf_counter()
        decisions = sum(len(study_deal(deal, tactics, "score", False, engine)["decisions"]) for deal in deals)
        seconds = time.perf_counter() - started
        stats.update(decisions=decisions, seconds=seconds, deals=len(deals))

    bench.group = "tactic"
    bench.pedantic(go, rounds=1, iterations=1)
    bench.extra_info.update(stats, decisions_per_second=stats["decisions"] / stats["seconds"],
                            deals_per_second=stats["deals"] / stats["seconds"])
    print(f"\n{game}: {stats['decisions']} decisions in {stats['seconds']:.1f} s = "
          f"{stats['decisions'] / stats['seconds']:.1f} decisions/s, "
          f"{stats['deals'] / stats['seconds']:.2f} deals/s")
    assert stats["decisions"] > 0


VIEW_CASES = {"scharwenzel": (10, None), "schafkopf2": (1, "some seat holds a bare ten"), "elfern": (1, None)}


@pytest.mark.parametrize("game", list(VIEW_CASES))
def test_tactic_player_view_decisions_per_second(bench, game):
    """``stich tactic --view player --samples 20``: each decision also solved on 20 layouts of
    the mover's information set (one worker)."""
    from solver.study.tactic import StudySettings, study_item
    count, where = VIEW_CASES[game]
    accept = parse_constraint(where, game) if where else None
    deals = [d.deal for d in generate_deals(game, 77, count, accept=accept)]
    names = tuple(t.name for t in builtin(game))
    settings = StudySettings(names, "score", view="player", samples=20)
    stats = {}

    def go():
        started = time.perf_counter()
        decisions = sum(len(study_item(str(k), deal.dump(), settings)[1]["decisions"])
                        for k, deal in enumerate(deals))
        seconds = time.perf_counter() - started
        stats.update(decisions=decisions, seconds=seconds, deals=len(deals))

    bench.group = "tactic-view"
    bench.pedantic(go, rounds=1, iterations=1)
    bench.extra_info.update(stats, decisions_per_second=stats["decisions"] / stats["seconds"])
    print(f"\n{game} --view player: {stats['decisions']} decisions in {stats['seconds']:.1f} s = "
          f"{stats['decisions'] / stats['seconds']:.2f} decisions/s")
    assert stats["decisions"] > 0

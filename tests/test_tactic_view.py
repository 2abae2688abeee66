"""`stich tactic --view player`: every choice of the study judged from the
mover's chair, against exact enumeration and where the mover sees everything."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_view import SEES_ALL, brute_force, small_cases

from stich.cli.main import main
from stich.deals.deal import loads
from stich.model.cards import parse_card
from stich.run.results import BatchItem
from stich.study.judge import expected_loss
from stich.study.study import StudySettings, records_of, run_study, study_items_of

TACTICS = textwrap.dedent('''
    """Tactics for the tests: the first legal card, the last one."""

    def first_card(view):
        return [view.legal[0]]

    def last_card(view):
        return [view.legal[-1]]

    TACTICS = {"first_card": first_card, "last_card": last_card}
''')
NAMES = ("first_card", "last_card")


@pytest.fixture(scope="module")
def tactic_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("tactic-view") / "simple.py"
    path.write_text(TACTICS)
    return str(path)


def study(texts: list[str], tactic_file: str, objective: str, samples: int = 20, first: bool = False):
    settings = StudySettings(NAMES, objective, first, tactic_file, tt_megabytes=4, view="player",
                             samples=samples)
    items = study_items_of([BatchItem(f"deal-{k}", t, loads(t, "x").game, loads(t, "x").game)
                            for k, t in enumerate(texts)], settings)
    return records_of(run_study(items, settings, jobs=1).used_lines())


@pytest.mark.parametrize("objective", ["score", "total"])
def test_where_the_mover_sees_everything_both_frames_agree(tactic_file, objective):
    records = study([t for t, _ in SEES_ALL], tactic_file, objective)
    decisions = [d for _, _, r in records for d in r.decisions]
    assert len(decisions) >= 4
    for d in decisions:
        assert d.player.exact and d.player.layouts == 1
        assert d.player.totals == d.totals
        if objective == "score":
            assert d.player.ranks == d.ranks
    runs = [(r, run) for _, _, r in records for run in r.runs if run.policy in ("uniform", "random")]
    assert runs
    for record, run in runs:
        assert run.player_cost == record.perfect[run.seat].total - run.result.total


def test_the_player_view_agrees_with_exact_enumeration_in_every_game(tactic_file):
    """Small positions of every game: each judged decision solved again by brute force over
    every layout the mover cannot tell apart (tests/reference.py)."""
    judged: dict[str, int] = {}
    for case in small_cases(per_mode=3):
        deal, _ = case.values
        judged[deal.game] = judged.get(deal.game, 0) + check_exact(tactic_file, deal)
    assert judged and all(judged.values()), judged


def check_exact(tactic_file, deal) -> int:
    _, _, record = study([deal.dump()], tactic_file, "total", samples=10_000)[0]
    for d in record.decisions[:2]:
        here = deal.after([parse_card(t, deal.notation) for t in record.line[:d.ply]])
        count, means, _ = brute_force(here, d.seat - 1)
        assert d.player.exact and d.player.layouts == d.player.consistent == count
        by_text = {c.text(deal.notation): float(m) for c, m in means.items()}
        assert d.player.totals == pytest.approx([by_text[c] for c in d.cards], abs=1e-9)
        top = max(by_text.values())
        for i, card in enumerate(d.cards):
            assert expected_loss(d.player, i) == pytest.approx(top - by_text[card], abs=1e-9)
    return len(record.decisions[:2])


def test_sampled_decisions_use_the_requested_layouts(tactic_file):
    text = Path("examples/schafkopf2-deal.toml").read_text(encoding="utf-8")
    _, _, record = study([text], tactic_file, "score", samples=3, first=True)[0]
    assert record.decisions and all(d.player.layouts == 3 and not d.player.exact
                                    and d.player.consistent > 3 for d in record.decisions)
    assert all(run.player_cost is not None for run in record.runs if run.policy in ("uniform", "random"))


STUDY = ("tactic", "scharwenzel.no_overtake_partner", "scharwenzel.return_partner_suit", "--game",
         "scharwenzel", "--deals", "6", "--seed", "3", "--objective", "total", "--view", "player",
         "--samples", "3", "--json", "--quiet")


def run_cli(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_player_view_same_with_one_or_two_jobs_and_after_a_kill(tmp_path):
    code, one, err = run_cli(*STUDY, "--jobs", "1", "--out", str(tmp_path / "a.jsonl"))
    assert code == 0, err
    summary = json.loads(one)
    assert any("player" in t["policy"] for t in summary["tactics"])
    assert any("player" in row for t in summary["tactics"] for row in t["oneoff"])
    code, two, err = run_cli(*STUDY, "--jobs", "2")
    assert code == 0, err
    assert json.loads(two) == summary
    lines = (tmp_path / "a.jsonl").read_bytes().split(b"\n")
    (tmp_path / "b.jsonl").write_bytes(b"\n".join(lines[:2]) + b"\n" + lines[2][:40])
    code, resumed, err = run_cli(*STUDY, "--jobs", "2", "--out", str(tmp_path / "b.jsonl"))
    assert code == 0, err
    assert json.loads(resumed) == summary
    # a double-dummy results file is not resumed from by a player's-view study
    at = STUDY.index("--view")
    dd = STUDY[:at] + STUDY[at + 4:]
    code, _, err = run_cli(*dd, "--jobs", "1", "--out", str(tmp_path / "c.jsonl"))
    assert code == 0, err
    code, again, err = run_cli(*STUDY, "--jobs", "1", "--out", str(tmp_path / "c.jsonl"))
    assert code == 0 and json.loads(again) == summary

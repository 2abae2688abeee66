"""`stich tactic --view player` (issue 10, part 5): the tactics study judged from the mover's
view, and the double-dummy bias."""

from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner
from test_view import SEES_ALL, brute_force, small_cases

from cli.main import main
from solver.deals.deal import loads
from solver.model.cards import parse_card
from solver.run.results import BatchItem
from solver.study.tactic import StudySettings, run_study, scored_decisions, study_items_of, summarise
from solver.study.tactic_view import verdicts
from solver.tactics.base import play_to
from solver.tactics.loader import load_file

TACTICS = textwrap.dedent('''
    """Tactics for the tests: the first legal card, every card."""

    def first_card(view):
        return [view.legal[0]]

    def last_card(view):
        return [view.legal[-1]]

    def every_card(view):
        return list(view.legal)

    TACTICS = {"first_card": first_card, "last_card": last_card, "every_card": every_card}
''')
NAMES = ("first_card", "last_card", "every_card")


@pytest.fixture(scope="module")
def tactic_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("tactic-view") / "simple.py"
    path.write_text(TACTICS)
    return str(path)


def study(texts: list[str], tactic_file: str, objective: str, samples: int = 20, first: bool = False,
          seed: int = 0):
    settings = StudySettings(NAMES, objective, first, tactic_file, tt_megabytes=4, view="player",
                             samples=samples, view_seed=seed)
    items = study_items_of([BatchItem(f"deal-{k}", t, loads(t, "x").game, loads(t, "x").game)
                            for k, t in enumerate(texts)], settings)
    records = run_study(items, settings, jobs=1).used_records()
    tactics = [load_file(tactic_file)[n] for n in NAMES]
    return records, tactics, summarise(records, tactics, seed, objective)


@pytest.mark.parametrize("objective", ["score", "total"])
def test_a_seat_that_sees_everything_has_no_double_dummy_bias(tactic_file, objective):
    records, tactics, summary = study([t for t, _ in SEES_ALL], tactic_file, objective)
    decisions = [d for r in records for d in r["result"]["decisions"]]
    assert len(decisions) >= 4
    for d in decisions:
        view = d["player"]
        assert view["exact"] and view["layouts"] == 1
        assert view["totals"] == d["totals"]
        if objective == "score":
            assert view["ranks"] == d["ranks"]
    for tactic, row in zip(tactics, summary["tactics"]):
        scored = scored_decisions(records, tactic.name)
        assert row["player"]["decisions"] == len(scored) > 0
        for part in ("bias_regret", "bias_optimal"):
            bias = row["player"][part]
            assert bias["mean"] == 0 and bias["interval"] == [0, 0] and bias["equal"] == bias["n"]
        assert row["player"]["regret"]["mean"] == row["advice"]["regret"]["mean"]
        assert row["player"]["optimal"]["k"] == row["advice"]["optimal"]["k"]


def test_player_view_agrees_with_exact_enumeration_in_every_game(tactic_file):
    """Small positions of every game (tests/test_view.small_cases): each has a decision to judge
    somewhere in the study, checked by ``check_exact``."""
    judged = {}
    for case in small_cases(per_mode=3):
        deal, _ = case.values
        judged.setdefault(deal.game, 0)
        judged[deal.game] += check_exact(tactic_file, deal)
    assert judged and all(judged.values()), judged


def check_exact(tactic_file, deal) -> int:
    """Every decision the study judges (up to two), solved again by brute force over every layout
    the mover cannot tell apart (tests/reference.py): the same expected totals, and the
    verdicts and the bias follow.  Returns the number of decisions checked."""
    records, tactics, summary = study([deal.dump()], tactic_file, "total", samples=10_000)
    record = records[0]
    if not record["result"]["decisions"]:
        return 0
    line = [parse_card(t, deal.notation) for t in record["result"]["line"]]
    for d in record["result"]["decisions"][:2]:
        here = deal.with_play(play_to(deal, line[:d["ply"]]))
        count, means, _ = brute_force(here, d["seat"] - 1)
        view = d["player"]
        assert view["exact"] and view["layouts"] == view["consistent"] == count
        by_text = {c.text(deal.notation): float(m) for c, m in means.items()}
        assert view["totals"] == pytest.approx([by_text[c] for c in d["cards"]], abs=1e-9)
        top = max(by_text.values())
        for name, advised in d["advice"].items():
            regret, optimal = verdicts(d, advised)
            assert regret == pytest.approx(sum(top - by_text[d["cards"][i]] for i in advised) / len(advised))
            assert optimal == all(by_text[d["cards"][i]] >= top - 1e-9 for i in advised)
    # paired: the bias is the mean of per-decision differences of the same decisions
    for tactic, row in zip(tactics, summary["tactics"]):
        scored = scored_decisions(records, tactic.name)
        if not scored:
            continue
        decisions = {d["ply"]: d for d in record["result"]["decisions"]}
        diffs = [s.regret - verdicts(decisions[s.ply], list(s.advised))[0] for s in scored]
        assert row["player"]["bias_regret"]["mean"] == pytest.approx(sum(diffs) / len(diffs))
    return len(record["result"]["decisions"][:2])


def test_sampled_decisions_use_the_requested_layouts(tactic_file):
    text = open("examples/schafkopf2-deal.toml", encoding="utf-8").read()
    records, _, summary = study([text], tactic_file, "score", samples=3, first=True)
    decisions = records[0]["result"]["decisions"]
    assert decisions and all(d["player"]["layouts"] == 3 and not d["player"]["exact"]
                             and d["player"]["consistent"] > 3 for d in decisions)


STUDY = ("tactic", "scharwenzel.*", "--game", "scharwenzel", "--deals", "6", "--seed", "3",
         "--objective", "total", "--view", "player", "--samples", "3", "--json", "--quiet")


def run_cli(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output, result.stderr if hasattr(result, "stderr") else ""


def test_player_view_same_with_one_or_two_jobs_and_after_a_kill(tmp_path):
    code, one, err = run_cli(*STUDY, "--jobs", "1", "--out", str(tmp_path / "a.jsonl"))
    assert code == 0, err
    summary = json.loads(one)
    assert all("player" in t for t in summary["tactics"])
    assert sum(t["player"]["decisions"] for t in summary["tactics"]) > 0
    code, two, err = run_cli(*STUDY, "--jobs", "2")
    assert code == 0, err
    assert json.loads(two) == summary
    # a killed run: two whole lines and a torn one; the rerun completes it to the same report
    lines = (tmp_path / "a.jsonl").read_bytes().split(b"\n")
    (tmp_path / "b.jsonl").write_bytes(b"\n".join(lines[:2]) + b"\n" + lines[2][:40])
    code, resumed, err = run_cli(*STUDY, "--jobs", "2", "--out", str(tmp_path / "b.jsonl"))
    assert code == 0, err
    assert json.loads(resumed) == summary
    # a double-dummy results file is not resumed from by a player's-view study
    code, _, err = run_cli(*STUDY[:-6], "--json", "--quiet", "--jobs", "1", "--out", str(tmp_path / "c.jsonl"))
    assert code == 0, err
    code, again, err = run_cli(*STUDY, "--jobs", "1", "--out", str(tmp_path / "c.jsonl"))
    assert code != 0 or json.loads(again) == summary


def test_plot_shows_the_player_view_and_its_bias(tmp_path):
    """With --view player the plot gets a third panel per tactic: the advice's regret
    double-dummy, from the player's view, and the bias between them."""
    matplotlib = pytest.importorskip("matplotlib")
    args = [a for a in STUDY if a != "--json"]
    with matplotlib.rc_context({"svg.fonttype": "none"}):      # text as text, to be read back
        code, _, err = run_cli(*args, "--jobs", "1", "--plot", str(tmp_path / "pv.svg"))
        assert code == 0, err
        code, _, err = run_cli(*args[:args.index("--view")], *args[args.index("--samples") + 2:],
                               "--jobs", "1", "--plot", str(tmp_path / "dd.svg"))
        assert code == 0, err
    viewed, plain = (tmp_path / "pv.svg").read_text(), (tmp_path / "dd.svg").read_text()
    assert "bias (dd − pv)" in viewed and "player's view" in viewed
    assert "bias (dd − pv)" not in plain and "share optimal" in plain

"""The tactics study: runs that follow the advice, the one-off statistics, the
report, reproducibility and bad input."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import reference
from click.testing import CliRunner
from clirun import one_line_error, read_terminal_to_end, read_terminal_until, start, start_on_a_terminal
from clirun import run as cli_run

from stich.cli.main import main
from stich.deals.deal import loads
from stich.deals.dealing import generate_deals
from stich.model.cards import parse_card
from stich.search.solve import new_engine, solve
from stich.study.records import DealRecord, Decision, Result, Run
from stich.study.study import StudySettings, generated_study_items, records_of, run_study
from stich.study.summary import summarise
from stich.study.walk import WalkSettings, walk_deal
from stich.tactics import REGISTRY, TacticError, builtin
from stich.tactics.loader import load_file

ROOT = Path(__file__).resolve().parent.parent

ORACLES = textwrap.dedent('''
    """Tactics that know the answer (they read every card, so their names say so)."""
    from stich.search.solve import solve
    from stich.tactics import tactic

    def _moves(view):
        result = solve(view.deal, objective="total")
        return [(m.card, m.totals[view.side]) for m in result.moves]

    @tactic("double_dummy.every_card")
    def every_card(view):
        return list(view.legal)

    @tactic("double_dummy.optimal_cards")
    def optimal_cards(view):
        moves = _moves(view)
        best = max(t for _, t in moves)
        return [c for c, t in moves if t == best]

    @tactic("double_dummy.worst_cards")
    def worst_cards(view):
        moves = _moves(view)
        worst = min(t for _, t in moves)
        return [c for c, t in moves if t == worst]
''')
ORACLE_NAMES = ("double_dummy.every_card", "double_dummy.optimal_cards", "double_dummy.worst_cards",
                "scharwenzel.no_overtake_partner")


@pytest.fixture(scope="module")
def oracle_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("tactics") / "oracles.py"
    path.write_text(ORACLES)
    return str(path)


@pytest.fixture(scope="module")
def oracle_study(oracle_file):
    settings = StudySettings(ORACLE_NAMES, "total", False, oracle_file)
    items = generated_study_items("scharwenzel", 5, 4, settings, players=8)
    records = records_of(run_study(items, settings, jobs=1).used_lines())
    tactics = [load_file(oracle_file).tactics[n] for n in ORACLE_NAMES[:3]] + [REGISTRY[ORACLE_NAMES[3]]]
    return records, tactics, summarise(records, tactics, 5, "total", "tricks").as_json()


def test_advice_naming_every_card_counts_as_not_applying(oracle_study):
    row = oracle_study[2]["tactics"][0]
    assert row["policy"]["deals"] == 0 and row["oneoff"][1]["decisions"] == 0


def test_following_optimal_cards_costs_nothing_whatever_the_policy(oracle_study):
    records, _, summary = oracle_study
    runs = [run for _, _, r in records for run in r.runs if run.tactic == ORACLE_NAMES[1]]
    assert runs and all(run.result is not None for run in runs)
    for _, _, r in records:
        for run in r.runs:
            if run.tactic == ORACLE_NAMES[1] and run.policy != "random":
                assert run.result.total == r.perfect[run.seat].total
    row = summary["tactics"][1]
    assert all(row["policy"]["cost"][p]["mean"] == 0 for p in ("uniform", "best", "worst"))
    every = row["oneoff"][1]
    assert every["keeps_outcome"]["advised"]["mean"] == 1 and every["regret"]["advised"]["mean"] == 0
    assert every["vs_random"]["higher"] == 0


def test_worst_cards_give_away_the_most_at_every_decision(oracle_study):
    records, _, summary = oracle_study
    for _, _, r in records:
        for d in r.decisions:
            if ORACLE_NAMES[2] in d.advice:
                assert {d.totals[i] for i in d.advice[ORACLE_NAMES[2]]} == {min(d.totals)}
    worst = summary["tactics"][2]["oneoff"][1]["regret"]
    assert worst["advised"]["mean"] > worst["random"]["mean"] > 0


def brute_force_run_check(deal, record: DealRecord, run: Run, ref) -> None:
    """Replay a run with the independent brute force (tests/reference.py): every card it did
    not choose by its policy is optimal, and its final total is perfect play's minus what its
    own choices gave away (perfect moves keep the value)."""
    rules, state = reference.initial(deal)
    state, base = reference.replay(rules, state, deal.play, tuple(deal.taken))
    side = (run.seat - 1) % 2
    given_away, points = 0, list(base)
    for ply, text in enumerate(run.line):
        card = parse_card(text, deal.notation)
        mover = state.to_move(rules.players) % 2
        values = {}
        for c in reference.legal_moves(rules, state):
            child, gain = reference.play(rules, state, c)
            rest = ref.future(child)
            values[c] = (gain[0] + rest[0], gain[1] + rest[1])[mover]
        if ply in run.applied:
            given_away += max(values.values()) - values[card]
        else:
            assert values[card] == max(values.values()), (ply, text)
        state, gain = reference.play(rules, state, card)
        points = [points[0] + gain[0], points[1] + gain[1]]
    assert points[side] == run.result.total
    assert run.result.total == record.perfect[run.seat].total - given_away


@pytest.mark.parametrize("mode", ["scharwenzel-4", "schafkopf2-schellen", "elfern", "elfern-must_head"])
def test_runs_agree_with_the_brute_force(mode):
    from randompositions import generate_case
    engine = new_engine(4)
    checked = deals = 0
    for seed in range(60):
        deal = loads(generate_case(mode, seed, "large").toml, mode)
        if deal.play:
            continue
        record = walk_deal(deal, builtin(deal.game), WalkSettings("total"), engine)
        ref = reference.Reference(reference.rules_from_deal(deal))
        for run in record.runs:
            brute_force_run_check(deal, record, run, ref)
            checked += 1
        deals += bool(record.runs)
        if deals == 6:
            break
    assert checked >= 8, checked


def test_a_study_scores_its_decisions_like_solve():
    """Every scored card of a study (score objective) against stich.solve of the position."""
    engine = new_engine(16)
    checked = 0
    for game, count in (("scharwenzel", 3), ("schafkopf2", 1)):
        for dealt in generate_deals(game, 9, count):
            deal = dealt.deal
            record = walk_deal(deal, builtin(game), WalkSettings("score"), engine)
            middle = next(r.rank for r in deal.game_spec.ladder(deal.position(), deal) if r.winner is None)
            for d in record.decisions[:6]:
                line = [parse_card(t, deal.notation) for t in record.line[:d.ply]]
                solved = solve(deal.after(line), objective="score")
                side = (solved.to_move - 1) % 2
                by_card = {m.card.text(deal.notation): m for m in solved.moves}
                assert sorted(by_card) == sorted(d.cards)
                for text, total, rank in zip(d.cards, d.totals, d.ranks):
                    assert total == by_card[text].totals[side]
                    # a second-side seat counts from its worst outcome: the ladder mirrored
                    # around its undecided rung
                    assert rank == (by_card[text].rank if side == 0 else 2 * middle - by_card[text].rank)
                    checked += 1
    assert checked > 10


def test_the_first_visible_bare_ten_decision_is_trick_1():
    """With --first --objective total, a study records the visible bare
    ten's first decision at trick 1 in every deal where seat 1's bare ten is not trump."""
    from stich.deals.constraints import parse_constraint
    name = "schafkopf2.bare_ten.lead_at_once"
    accept = parse_constraint("seat 1 up holds a bare ten", "schafkopf2")
    engine = new_engine(16)
    for dealt in generate_deals("schafkopf2", 7, 8, accept=accept):
        record = walk_deal(dealt.deal, [REGISTRY[name]], WalkSettings("total", first=True), engine)
        view_advised = REGISTRY[name](__import__("stich.tactics.view", fromlist=["x"]).player_view(dealt.deal))
        if view_advised:
            assert record.decisions[0].ply == 0 and record.decisions[0].seat == 1


# --- the statistics against a hand-computed case ---------------------------------------------------

def hand_records() -> list[tuple[str, str, DealRecord]]:
    """Two deals, tactic "t": deal a with two decisions and one seat's runs, deal b with one
    decision and two seats' runs."""
    level = [(1, "win", 0), (0, "tie", None), (-1, "win", 1)]
    words = {1: "own win", 0: "tie", -1: "other side's win"}

    def run(seat, policy, total, rank):
        return Run("t", seat, policy, Result(total, rank, words[rank]), [0], [2], ["x"], [], {"trick": 1})

    a = DealRecord([5, 3], [], {1: Result(5, 1, "own win")},
                   [Decision(0, 1, ["A", "B", "C"], [5, 3, 4], None, {"t": [1]}, {"trick": 1}),
                    Decision(4, 1, ["A", "B"], [5, 5], None, {"t": [0]}, {"trick": 2})],
                   [run(1, "uniform", 3, 0), run(1, "best", 4, 1), run(1, "worst", 3, 0),
                    run(1, "random", 5, 1)], level)
    b = DealRecord([2, 6], [], {1: Result(2, -1, "other side's win"), 2: Result(6, 1, "own win")},
                   [Decision(1, 2, ["A", "B", "C", "D"], [6, 6, 2, 4], None, {"t": [0, 2]}, {"trick": 1})],
                   [run(1, "uniform", 2, -1), run(1, "best", 2, -1), run(1, "worst", 2, -1),
                    run(1, "random", 1, -1), run(2, "uniform", 4, -1), run(2, "best", 6, 1),
                    run(2, "worst", 4, 0), run(2, "random", 6, 1)], level)
    return [("a", "", a), ("b", "", b)]


def test_summary_of_a_hand_computed_case():
    from stich.tactics import Tactic
    t = Tactic("t", None, lambda view: None, "A test tactic.")
    row = summarise(hand_records(), [t], 0, "total", "tricks").as_json()["tactics"][0]
    policy = row["policy"]
    # deal a: seat 1 costs 5-3 = 2 (random 0); deal b: seats 1 (0; random 1) and 2 (2; random 0)
    assert policy["deals"] == 2 and policy["runs"] == 3
    assert policy["cost"]["uniform"]["mean"] == pytest.approx((2 + (0 + 2) / 2) / 2)
    assert policy["cost"]["random"]["mean"] == pytest.approx((0 + (1 + 0) / 2) / 2)
    assert policy["cost"]["best"]["mean"] == pytest.approx((1 + 0) / 2)
    assert policy["vs_random"]["mean"] == pytest.approx((2 + 0.5) / 2)
    assert (policy["vs_random"]["lower"], policy["vs_random"]["higher"]) == (0, 2)
    # worse outcome: a seat 1 (rank 1 -> 0) yes; b seat 1 no, seat 2 (1 -> -1) yes: (1 + 0.5) / 2;
    # by change, each deal the mean over its seats: won -> tie (1 + 0) / 2, won -> lost (0 + 0.5) / 2
    assert policy["worse_outcome"]["uniform"]["mean"] == pytest.approx(0.75)
    assert policy["worse_outcomes"]["uniform"] == {"own win → tie": pytest.approx(0.5),
                                                   "own win → other side's win": pytest.approx(0.25)}
    first, every = row["oneoff"]
    # decisions: a1 [5,3,4] advised B (regret 2, random 1, hindsight 0); a2 [5,5] advised A
    # (0, 0, 0); b [6,6,2,4] advised A,C (regret 2, random 1.5, hindsight min(0, 2) = 0)
    assert first["decisions"] == 2 and every["decisions"] == 3
    assert first["regret"]["advised"]["mean"] == pytest.approx((2 + 2) / 2)
    assert every["regret"]["advised"]["mean"] == pytest.approx((1 + 2) / 2)
    assert every["regret"]["random"]["mean"] == pytest.approx((0.5 + 1.5) / 2)
    assert every["regret"]["hindsight"]["mean"] == 0
    # optimal (best by points): a1 advised 0 of 1, random 1/3; a2 1, random 1; b: 1/2, random 2/4
    assert every["keeps_outcome"]["advised"]["mean"] == pytest.approx(((0 + 1) / 2 + 0.5) / 2)
    assert every["keeps_outcome"]["random"]["mean"] == pytest.approx(((1 / 3 + 1) / 2 + 0.5) / 2)
    assert every["keeps_outcome"]["every_advised"]["mean"] == pytest.approx(((0 + 1) / 2 + 0) / 2)
    # random subset of 2 of 4 with 2 optimal: 1/6; of 1 of 3 with 1 optimal: 1/3; 1 of 2, 2 opt: 1
    assert every["keeps_outcome"]["random_subset"]["mean"] == pytest.approx(((1 / 3 + 1) / 2 + 1 / 6) / 2)


def test_breakdown_by_a_feature_splits_the_hand_computed_case():
    from stich.tactics import Tactic
    t = Tactic("t", None, lambda view: None, "A test tactic.")
    row = summarise(hand_records(), [t], 0, "total", "tricks", by="trick").as_json()["tactics"][0]
    groups = {g["value"]: g for g in row["by"]["groups"]}
    assert set(groups) == {1, 2}
    assert groups[2]["oneoff"][1]["decisions"] == 1 and groups[2]["policy"]["runs"] == 0
    assert groups[1]["oneoff"][1]["decisions"] == 2 and groups[1]["policy"]["runs"] == 3


# --- the command ----------------------------------------------------------------------------------------

def run_cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


STUDY = ("tactic", "scharwenzel.*", "--game", "scharwenzel", "--deals", "12", "--seed", "3",
         "--objective", "total", "--json", "--quiet", "--by", "trick")


def test_same_report_with_one_or_two_jobs_and_after_a_kill(tmp_path):
    code1, one, err = run_cli(*STUDY, "--jobs", "1", "--out", str(tmp_path / "a.jsonl"))
    assert code1 == 0, err
    summary = json.loads(one)
    row = summary["tactics"][0]
    assert {"policy", "oneoff", "by", "conditional"} <= set(row)
    assert {"uniform", "best", "worst", "random"} == set(row["policy"]["cost"])
    code2, two, err = run_cli(*STUDY, "--jobs", "2")
    assert code2 == 0, err
    assert json.loads(two) == summary
    lines = (tmp_path / "a.jsonl").read_bytes().split(b"\n")
    (tmp_path / "b.jsonl").write_bytes(b"\n".join(lines[:5]) + b"\n" + lines[5][:40])
    code3, resumed, err = run_cli(*STUDY, "--jobs", "2", "--out", str(tmp_path / "b.jsonl"))
    assert code3 == 0, err
    assert json.loads(resumed) == summary
    assert len((tmp_path / "b.jsonl").read_bytes().splitlines()) == 12


def test_fewer_deals_on_a_longer_studys_file_leave_its_lines_in_place(tmp_path):
    """Found running the README's studies: a report of the first 5 deals of a 12-deal file
    moved the other 7 to OUT.dropped, and the next 12-deal run solved them again."""
    out = tmp_path / "a.jsonl"
    code, full, err = run_cli(*STUDY, "--jobs", "1", "--out", str(out))
    assert code == 0, err
    fewer = [a if a != "12" else "5" for a in STUDY]
    code, part, err = run_cli(*fewer, "--jobs", "1", "--out", str(out))
    assert code == 0, err
    assert json.loads(part) == json.loads(run_cli(*fewer, "--jobs", "1")[1])
    assert len(out.read_bytes().splitlines()) == 12 and not (tmp_path / "a.jsonl.dropped").exists()
    before = out.read_bytes()
    code, again, err = run_cli(*STUDY, "--jobs", "1", "--out", str(out))
    assert code == 0, err
    assert json.loads(again) == json.loads(full) and out.read_bytes() == before     # nothing solved again
    other = [a if a != "scharwenzel.*" else "scharwenzel.no_overtake_partner" for a in fewer]
    code, _, err = run_cli(*other, "--jobs", "1", "--out", str(out))                  # another study
    assert code == 0, err
    assert len((tmp_path / "a.jsonl.dropped").read_bytes().splitlines()) == 12    # its lines are not kept
    out2 = tmp_path / "b.jsonl"                      # the same tactics, other settings: another study
    out2.write_bytes(before)
    code, _, err = run_cli(*fewer, "--jobs", "1", "--seed", "4", "--out", str(out2))
    assert code == 0, err
    assert len((tmp_path / "b.jsonl.dropped").read_bytes().splitlines()) == 12


def test_the_text_report_reads_as_sentences_within_120_columns():
    code, out, err = run_cli(*[a for a in STUDY if a != "--json"], "--jobs", "1")
    assert code == 0, err
    assert max(map(len, out.splitlines())) <= 120
    assert "following it for a whole deal costs" in out and "random card at the same moments" in out
    for words in ("estimand", "hindsight", "By trick"):
        assert words in out


def test_examples_resolve_to_what_they_say(tmp_path):
    code, out, err = run_cli(*STUDY, "--jobs", "1", "--examples", str(tmp_path), "--cx-count", "2")
    assert code == 0, err
    files = sorted(tmp_path.glob("*.toml"))
    kinds = {f.name.split("-")[1] for f in files}
    assert {"worst", "right", "wrong"} <= kinds
    for path in files[:6]:
        header = [line[2:] for line in path.read_text().splitlines() if line.startswith("# ")]
        advised = next(h for h in header if h.startswith("advised:"))[len("advised: "):].split("; ")
        code, out, err = run_cli("analyze", str(path), "--json", "--expand", "--objective", "total")
        assert code == 0, err
        loss = {m["cards"][0]: m["loss"] for m in json.loads(out)["seats"][0]["moves"]}
        for item in advised:
            card, words = item.split(" ", 1)
            assert ("best by points" in words) == (loss[card] == 0)
            if loss[card]:
                assert f"gives away {loss[card]} " in words


@pytest.mark.slow
def test_kill_and_resume_a_real_process(tmp_path):
    out = tmp_path / "k.jsonl"
    args = [sys.executable, "-m", "stich.cli.main", "tactic", "schafkopf2.pull_trumps.*", "--game", "schafkopf2",
            "--deals", "6", "--seed", "2", "--jobs", "1", "--json", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    import time
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 2):
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    assert out.read_bytes().count(b"\n") >= 2
    resumed = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True)
    fresh = subprocess.run(args[:-1] + [str(tmp_path / "fresh.jsonl")], cwd=ROOT, capture_output=True,
                           text=True, check=True)
    assert json.loads(resumed.stdout) == json.loads(fresh.stdout)
    assert out.read_bytes().count(b"\n") == 6


BAD_FILES = {
    "raises_on_load.py": "raise RuntimeError('broken')\n",
    "raises.py": "def bad(view):\n    return 1 / 0\nTACTICS = {'bad': bad}\n",
    "illegal.py": ("from stich.model.cards import Card\n"
                   "def bad(view):\n    return [c for c in view.rules.deck if c not in view.legal][:1]\n"
                   "TACTICS = {'bad': bad}\n"),
    "peeks.py": "def bad(view):\n    return view.held(view.partners()[0])[:1]\nTACTICS = {'bad': bad}\n",
    "deal.py": "def bad(view):\n    return view.deal and None\nTACTICS = {'bad': bad}\n",
    "taken.py": ("def mine(view):\n    return None\n"
                 "TACTICS = {'scharwenzel.no_overtake_partner': mine}\n"),
    "taken_by_decorator.py": ("from stich.tactics import tactic\n"
                              "@tactic('scharwenzel.no_overtake_partner', game='scharwenzel')\n"
                              "def mine(view):\n    return None\n"),
}


@pytest.mark.parametrize("args,words", [
    (("no.such.tactic",), "unknown tactic"),
    (("scharwenzel.no_overtake_partner", "--where", "seat 9 holds gold"), "--where"),
    (("scharwenzel.no_overtake_partner", "--by", "weather"), "--by 'weather': no such feature"),
    (("elfern.take_honour",), "written for another game"),
    (("bad", "--tactic-file", "raises_on_load.py"), "RuntimeError"),
    (("bad", "--tactic-file", "raises.py"), "ZeroDivisionError"),
    (("bad", "--tactic-file", "illegal.py"), "not legal"),
    (("bad", "--tactic-file", "peeks.py"), "cannot see"),
    (("bad", "--tactic-file", "deal.py"), "cannot see"),
    (("scharwenzel.no_overtake_partner", "--learned-file", "x.py"), "go with --learn"),
    (("scharwenzel.no_overtake_partner", "--holdout", "5"), "go with --learn"),
    (("scharwenzel.no_overtake_partner", "--samples", "5"), "--samples goes with --view player"),
    (("scharwenzel.no_overtake_partner", "--paired"), "name two or more"),
    (("scharwenzel.no_overtake_partner", "--tactic-file", "taken.py"), "name of a built-in tactic"),
    (("scharwenzel.no_overtake_partner", "--tactic-file", "taken_by_decorator.py"),
     "name of a built-in tactic"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, args, words):
    for name, text in BAD_FILES.items():
        (tmp_path / name).write_text(text)
    args = tuple(str(tmp_path / a) if a.endswith(".py") else a for a in args)
    code, out, err = run_cli("tactic", *args, "--game", "scharwenzel", "--deals", "2", "--jobs", "1", "--quiet")
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err


def test_a_tactic_file_cannot_replace_a_built_in_tactic(tmp_path):
    """A file naming one of its tactics like a built-in one is refused, and the built-in one
    stays what it was, also where the file registered its own with the decorator."""
    built_in = REGISTRY["scharwenzel.no_overtake_partner"]
    for name, text in BAD_FILES.items():
        (tmp_path / name).write_text(text)
    for name in ("taken.py", "taken_by_decorator.py"):
        with pytest.raises(TacticError, match="name of a built-in tactic"):
            load_file(tmp_path / name)
        assert REGISTRY["scharwenzel.no_overtake_partner"] is built_in


def test_an_undocumented_tactic_is_called_by_its_name(tmp_path):
    """The reports quote a tactic's advice from its docstring; without one, its name."""
    path = tmp_path / "nodoc.py"
    path.write_text("def lead_first(view):\n    return [view.legal[0]] if view.is_lead else None\n"
                    "TACTICS = {'lead_first': lead_first}\n")
    assert load_file(path).tactics["lead_first"].summary == "lead_first"


def test_a_tactic_meets_the_same_situations_whatever_is_studied_beside_it():
    """The features of the advised cards (what the opponents show against them, whether they
    win) are each tactic's own: a tactic that advises one card never meets "mixed" because
    another tactic of the same run advised other cards at that decision."""
    args = ("--game", "scharwenzel", "--deals", "20", "--seed", "1", "--jobs", "1", "--quiet", "--json",
            "--by", "opponent_shows")
    name = "scharwenzel.matadors_lead_high_trump"

    def groups(*names):
        code, out, err = run_cli("tactic", *names, *args)
        assert code == 0, err
        row = next(t for t in json.loads(out)["tactics"] if t["tactic"] == name)
        return [(g["value"], [r["decisions"] for r in g["oneoff"]]) for g in row["by"]["groups"]]

    alone = groups(name)
    assert alone and all(value != "mixed" for value, _ in alone)
    assert groups(name, "scharwenzel.matadors_lead_trumps") == alone


def test_with_first_the_every_rows_say_they_are_of_first_decisions():
    """--first records only each deal's first decision: the "every" estimand is then of those,
    and the report and the JSON say so rather than let the rows read as every decision."""
    args = ("tactic", "scharwenzel.no_overtake_partner", "--game", "scharwenzel", "--deals", "12",
            "--seed", "1", "--first", "--jobs", "1", "--quiet")
    code, out, err = run_cli(*args)
    assert code == 0, err
    assert "With --first only each deal's first decision was recorded" in " ".join(out.split())
    code, out, err = run_cli(*args, "--json")
    assert json.loads(out)["first_only"] is True
    code, out, err = run_cli(*[a for a in args if a != "--first"], "--json")
    assert "first_only" not in json.loads(out)


def test_tactic_error_is_a_value_error():
    assert issubclass(TacticError, ValueError)


def test_until_width_stops_at_a_checkpoint_reproducibly():
    args = ("tactic", "scharwenzel.no_overtake_partner", "--game", "scharwenzel", "--deals", "60",
            "--seed", "4", "--objective", "total", "--json", "--quiet", "--until-width", "5")
    code, out, err = run_cli(*args, "--jobs", "1")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["deals"] == 50 and summary["stopped_early"]
    code, out2, err = run_cli(*args, "--jobs", "2")
    assert json.loads(out2) == summary
    code, out3, err = run_cli(*args[:-1], "0.0001", "--jobs", "1")
    assert json.loads(out3)["deals"] == 60 and not json.loads(out3)["stopped_early"]


def test_forest_plot_or_one_line_without_matplotlib(tmp_path, monkeypatch):
    matplotlib = pytest.importorskip("matplotlib")
    args = ("tactic", "scharwenzel.no_overtake_partner", "scharwenzel.return_partner_suit", "--game",
            "scharwenzel", "--deals", "8", "--objective", "total", "--jobs", "1", "--quiet")
    with matplotlib.rc_context({"svg.fonttype": "none"}):       # text as text, to be read back
        code, out, err = run_cli(*args, "--plot", str(tmp_path / "p.svg"))
    assert code == 0, err
    svg = (tmp_path / "p.svg").read_text()
    for words in ("scharwenzel: 8 deals, objective total", "random card (whole deal)",
                  "no_overtake_partner", "return_partner_suit", "cost in tricks"):
        assert words in svg
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        code, out, err = run_cli(*args, "--view", "player", "--samples", "2", "--plot", str(tmp_path / "v.svg"))
    assert code == 0, err
    svg = (tmp_path / "v.svg").read_text()
    for words in ("objective total, player's view", "advice, player's view", "random card, player's view",
                  "random card (whole deal)"):
        assert words in svg
    assert "player's view" not in (tmp_path / "p.svg").read_text()
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # as if it were not installed
    code, out, err = run_cli(*args, "--plot", str(tmp_path / "q.png"))
    assert code == 2 and "matplotlib" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "q.png").exists()


def test_a_plot_format_that_cannot_be_drawn_is_refused_before_the_study(tmp_path):
    """The plot's format is its name's ending: one that cannot be drawn is refused at once,
    not after a study of hours whose report would then be lost."""
    code, out, err = run_cli("tactic", "scharwenzel.no_overtake_partner", "--game", "scharwenzel",
                             "--deals", "100000", "--plot", str(tmp_path / "study.txt"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "study.txt" in err and ".png" in err and "Traceback" not in err


def test_the_list_of_tactics_as_json():
    code, out, err = run_cli("tactic", "--list", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert {row["name"] for row in rows} == set(REGISTRY)
    assert all(row["summary"] == REGISTRY[row["name"]].summary for row in rows)


def test_dask_local_cluster_gives_the_same_report():
    pytest.importorskip("distributed")
    from distributed import LocalCluster
    code, local, err = run_cli(*STUDY, "--jobs", "1")
    assert code == 0, err
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        code, remote, err = run_cli(*STUDY, "--dask", cluster.scheduler_address)
    assert code == 0, err
    assert json.loads(remote) == json.loads(local)


def test_conditional_report_of_a_hand_computed_case():
    """Ten deals, one decision each: at trick 1 the advised card gives away nothing where a
    random card gives away 1 or 1.5 (advice better), at trick 2 the advice gives away 3 or 4
    where a random card gives away 1.5 or 2 (advice worse); lead/follow never varies, so it is
    no condition.  (A group whose deals all differ alike has no interval, so no verdict.)"""
    from stich.study.summary import conditional
    records = []
    for k in range(10):
        trick = 1 if k < 5 else 2
        totals = ([4, 2] if k % 2 else [4, 1]) if trick == 1 else ([1, 4] if k % 2 else [1, 5])   # advised: A
        d = Decision(0, 1, ["A", "B"], totals, None, {"t": [0]}, {"trick": trick, "lead": "lead"})
        records.append((f"d{k}", "", DealRecord([0, 0], [], {}, [d], [], [])))
    found = {(c.feature, c.value): c.as_json() for c in conditional(records, "t", ["trick", "lead"], "s")}
    assert set(found) == {("trick", 1), ("trick", 2)}
    assert found["trick", 1]["verdict"] == "advice better" and found["trick", 1]["deals"] == 5
    assert found["trick", 1]["advice_minus_random"]["mean"] == pytest.approx(-(1.5 * 3 + 1 * 2) / 5)
    assert found["trick", 2]["verdict"] == "advice worse"
    assert found["trick", 2]["advice_minus_random"]["mean"] == pytest.approx((1.5 * 3 + 2 * 2) / 5)


EXAMPLES = ROOT / "examples"


ENDING = EXAMPLES / "elfern-ending.toml"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


RAISING = '''
from stich.tactics import tactic

@tactic("stops")
def stops(view):
    """Raise {what}."""
    raise {what}
'''


SLOW = '''
import time
from stich.tactics import tactic

@tactic("slow")
def slow(view):
    """Sleep at each decision: time to press Ctrl-C."""
    time.sleep(0.2)
    return None
'''


SLEEPY = '''
import time
from stich.tactics import tactic

@tactic("sleepy")
def sleepy(view):
    """Think for a long time at every decision: a deal of minutes, like Elfern's from the
    player's view."""
    time.sleep(30)
    return None
'''


def test_tactic_from_a_directory_names_the_bad_file_and_its_problem(tmp_path):
    write(tmp_path, "bad.toml", 'game = "elfern"\nstock = "♣7"\n[hands]\n1 = "♣A"\n2 = "♣K"\n')
    solved = one_line_error(cli_run("solve", tmp_path / "bad.toml"), "bad.toml", "stock")
    for jobs in ("1", "2"):
        line = one_line_error(cli_run("tactic", "elfern.take_honour", "--from", tmp_path, "--jobs", jobs))
        assert solved.split("stich: ", 1)[1] in line, (solved, line)


def test_tactic_deals_is_capped_and_a_tactic_of_another_game_is_refused():
    one_line_error(cli_run("tactic", "elfern.take_honour", "--game", "elfern", "--deals", "100001"), "--deals")
    one_line_error(cli_run("tactic", "schafkopf2.bare_ten.asap", "--game", "scharwenzel", "--deals", "1"),
                   "schafkopf2.bare_ten.asap", "another game")
    one_line_error(cli_run("tactic", "schafkopf2.bare_ten.asap", "--from", ENDING),
                   "schafkopf2.bare_ten.asap", "elfern")


@pytest.mark.parametrize("what", ["KeyboardInterrupt", "SystemExit(3)"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tactic_raising_keyboard_interrupt_is_the_files_fault(tmp_path, what, jobs):
    path = write(tmp_path, "t.py", RAISING.format(what=what))
    result = cli_run("tactic", "stops", "--tactic-file", path, "--from", ENDING, "--jobs", jobs)
    one_line_error(result, "t.py", "stops", what.split("(")[0])


def test_a_predicate_or_tactic_file_raising_keyboard_interrupt_when_loaded(tmp_path):
    path = write(tmp_path, "p.py", "raise KeyboardInterrupt\n")
    one_line_error(cli_run("deal", "--game", "elfern", "--predicate", path), "p.py", "KeyboardInterrupt")
    one_line_error(cli_run("tactic", "x", "--tactic-file", path, "--from", ENDING), "p.py", "KeyboardInterrupt")
    accept = write(tmp_path, "a.py", "def accept(deal):\n    raise KeyboardInterrupt\n")
    one_line_error(cli_run("deal", "--game", "elfern", "--predicate", accept), "a.py", "KeyboardInterrupt")


def test_a_real_ctrl_c_in_a_tactic_study_still_exits_130(tmp_path):
    path = write(tmp_path, "slow.py", SLOW)
    proc = start("tactic", "slow", "--tactic-file", path, "--game", "scharwenzel", "--deals", 50,
                 "--jobs", 1, "--out", tmp_path / "r.jsonl")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (tmp_path / "r.jsonl").exists():
        time.sleep(0.1)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err


def test_ctrl_c_does_not_wait_for_the_deals_the_workers_are_on(tmp_path):
    """Found running the README's studies: Ctrl-C waited for the running deals to finish (minutes
    each), because the pool was shut down with wait=True.  The workers are stopped instead; what
    finished is kept either way."""
    path = write(tmp_path, "sleepy.py", SLEEPY)
    proc, terminal = start_on_a_terminal("tactic", "sleepy", "--tactic-file", path, "--game", "scharwenzel",
                                         "--deals", 4, "--jobs", 2, "--out", tmp_path / "r.jsonl",
                                         stdout=subprocess.DEVNULL)
    read_terminal_until(terminal, "tactic:")    # its progress bar: it has started, however busy the machine
    time.sleep(2)                               # and its workers with it, inside a decision
    pressed = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    err = read_terminal_to_end(terminal)
    assert proc.returncode == 130, err
    assert time.monotonic() - pressed < 15, "Ctrl-C waited for the running deals"
    assert "Traceback" not in err


@pytest.mark.parametrize("body", ["return (1 / 0 for _ in [0])", "raise Boom()", "return [Weird()]"])
def test_a_tactic_raising_anything_is_the_files_fault(tmp_path, body):
    text = ("from stich.tactics import tactic\n\nclass Boom(BaseException):\n    pass\n\n"
            "class Weird:\n    def __repr__(self):\n        raise ValueError\n\n"
            f"@tactic('t')\ndef t(view):\n    {body}\n")
    path = write(tmp_path, "t.py", text)
    one_line_error(cli_run("tactic", "t", "--tactic-file", path, "--from", ENDING, "--jobs", "1"), "t.py", "tactic t")

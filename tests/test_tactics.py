"""The tactics validator: built-in tactics, the study's baselines, counterexamples,
reproducibility and bad input (issue 8, "Done when")."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from solver.deals.dealing import generate_deals
from solver.study.tactic import StudySettings, generated_study_items, run_study, scored_decisions, summarise
from solver.tactics import REGISTRY, TacticError, builtin, make_view
from solver.tactics.loader import load_file

ROOT = Path(__file__).resolve().parent.parent

ORACLES = textwrap.dedent('''
    """Tactics that know the answer: every card, the solver's optimal cards, the worst cards."""
    from solver.search.solve import solve
    from solver.tactics.base import deal_here

    def _moves(view):
        result = solve(deal_here(view), objective="total")
        own = view.side
        return [(m.card, m.totals[own]) for m in result.moves]

    def every_card(view):
        return list(view.legal)

    def optimal_cards(view):
        moves = _moves(view)
        best = max(t for _, t in moves)
        return [c for c, t in moves if t == best]

    def worst_cards(view):
        moves = _moves(view)
        worst = min(t for _, t in moves)
        return [c for c, t in moves if t == worst]

    TACTICS = {"every_card": every_card, "optimal_cards": optimal_cards, "worst_cards": worst_cards}
''')


@pytest.fixture(scope="module")
def oracle_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("tactics") / "oracles.py"
    path.write_text(ORACLES)
    return str(path)


@pytest.fixture(scope="module")
def oracle_study(oracle_file):
    names = ("every_card", "optimal_cards", "worst_cards", "scharwenzel.no_overtake_partner")
    settings = StudySettings(names, "total", False, oracle_file)
    items = generated_study_items("scharwenzel", 5, 4, settings, players=8)
    run = run_study(items, settings, jobs=1)
    records = run.used_records()
    tactics = [load_file(oracle_file)[n] for n in names[:3]] + [REGISTRY[names[3]]]
    return records, tactics, summarise(records, tactics, 5, "total")


def test_every_card_is_exactly_the_random_baseline(oracle_study):
    records, tactics, summary = oracle_study
    row = summary["tactics"][0]
    assert row["decisions"] == sum(len(r["result"]["decisions"]) for r in records) > 20
    assert row["advice"]["regret"] == row["random"]["regret"]
    assert row["advice"]["optimal"] == row["random"]["optimal"]
    assert row["vs_random"]["mean"] == 0 and row["vs_random"]["equal"] == row["decisions"]
    assert row["all_advised"] == row["decisions"]           # no opposite advice exists


def test_optimal_cards_are_always_optimal_with_zero_regret(oracle_study):
    row = oracle_study[2]["tactics"][1]
    assert row["advice"]["optimal"]["share"] == 1.0
    assert row["advice"]["regret"]["mean"] == 0 and row["advice"]["regret"]["interval"] == [0.0, 0.0]
    assert row["vs_opposite"]["higher"] == 0                # never worse than the opposite advice


def test_worst_cards_have_the_largest_regret(oracle_study):
    records, tactics, summary = oracle_study
    worst = scored_decisions(records, "worst_cards")
    for s, decision in zip(worst, (d for r in records for d in r["result"]["decisions"])):
        assert s.regret == max(decision["totals"]) - min(decision["totals"])
    means = [row["advice"]["regret"]["mean"] for row in summary["tactics"]]
    assert means[2] == max(means) and means[2] > summary["tactics"][2]["random"]["regret"]["mean"] > 0


def test_builtin_tactics_advise_legal_cards_on_random_play():
    """Every built-in tactic, at every position of random legal play: legal advice or None
    (the Tactic wrapper raises TacticError otherwise), and each applies somewhere."""
    applied = set()
    rng = random.Random(4)
    from solver.deals.constraints import parse_constraint
    bare = parse_constraint("some seat holds a bare ten", "schafkopf2")
    for game, count, accept in (("scharwenzel", 6, None), ("schafkopf2", 3, None), ("schafkopf2", 6, bare),
                                ("elfern", 6, None)):
        tactics = builtin(game)
        for dealt in generate_deals(game, 11, count, accept=accept):
            deal = dealt.deal
            position = deal.position()
            while not position.is_over():
                view = make_view(position, deal)
                for t in tactics:
                    advice = t(view)
                    if advice:
                        assert set(advice) <= set(view.legal)
                        applied.add(t.name)
                position.play(rng.choice(view.legal))
    missing = {t.name for t in builtin()} - applied - {"elfern.follow_sequence", "elfern.singleton_ten",
                                                       "schafkopf2.bare_ten.first_winning_trick"}
    assert not missing


def test_bare_ten_lead_at_once_on_a_hand_made_position():
    from solver.deals.deal import loads
    deal = loads(textwrap.dedent('''
        game = "schafkopf2"
        [piles]
        1 = "R10/EO GO/EU GU/SA S10/SK S9/EA E10/EK E9/GA G10/GK"
        2 = "RA/RO SO/RU SU/RK R9/R8 R7/S8 S7/E8 E7/G9 G8/G7"
    '''), "hand")
    view = make_view(deal.position(), deal)
    rot = [c for c in view.held() if view.suit(c) == 2]
    assert len(rot) == 1 and rot[0].rank == 10
    assert REGISTRY["schafkopf2.bare_ten.lead_at_once"](view) == tuple(rot)
    assert REGISTRY["schafkopf2.bare_ten.first_winning_trick"](view) is None
    # seat 2 leads Rot 9 after that: seat 1's bare ten wins it, so the second reading applies
    from dataclasses import replace

    from solver.model.cards import Card
    second = loads(replace(deal, leader=2).dump(), "hand")
    nine, ace = Card(2, 9), Card(2, 14)
    after_nine = make_view(second.with_play(((nine,),)).position(), second)
    assert REGISTRY["schafkopf2.bare_ten.first_winning_trick"](after_nine) == tuple(rot)
    assert REGISTRY["schafkopf2.bare_ten.lead_at_once"](after_nine) is None
    after_ace = make_view(second.with_play(((ace,),)).position(), second)
    assert REGISTRY["schafkopf2.bare_ten.first_winning_trick"](after_ace) is None


def run_cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


STUDY = ("tactic", "scharwenzel.*", "--game", "scharwenzel", "--deals", "12", "--seed", "3",
         "--objective", "total", "--json", "--quiet")


def test_counterexamples_resolve_to_the_reported_regret(tmp_path):
    code, out, err = run_cli(*STUDY, "--jobs", "1", "--counterexamples", str(tmp_path), "--cx-count", "3")
    assert code == 0, err
    files = sorted(tmp_path.glob("*.toml"))
    assert files
    for path in files:
        header = [l[2:] for l in path.read_text().splitlines() if l.startswith("# ")]
        advised = next(l for l in header if l.startswith("advised:")).split()[1:]
        regret = float(next(l for l in header if l.startswith("regret:")).split()[1])
        code, out, err = run_cli("analyze", str(path), "--json", "--expand", "--objective", "total")
        assert code == 0, err
        loss = {m["cards"][0]: m["loss"] for m in json.loads(out)["seats"][0]["moves"]}
        assert sum(loss[c] for c in advised) / len(advised) == pytest.approx(regret, abs=1e-9)
        assert regret > 0


def test_same_report_with_one_or_two_jobs_and_after_a_kill(tmp_path):
    code1, one, err = run_cli(*STUDY, "--jobs", "1", "--out", str(tmp_path / "a.jsonl"))
    assert code1 == 0, err
    code2, two, err = run_cli(*STUDY, "--jobs", "2")
    assert code2 == 0, err
    assert json.loads(one) == json.loads(two)
    # a killed run: a few whole lines and a torn one; the rerun completes it to the same report
    lines = (tmp_path / "a.jsonl").read_bytes().split(b"\n")
    (tmp_path / "b.jsonl").write_bytes(b"\n".join(lines[:5]) + b"\n" + lines[5][:40])
    code3, resumed, err = run_cli(*STUDY, "--jobs", "2", "--out", str(tmp_path / "b.jsonl"))
    assert code3 == 0, err
    assert json.loads(resumed) == json.loads(one)
    assert len((tmp_path / "b.jsonl").read_bytes().splitlines()) == 12


@pytest.mark.slow
def test_kill_and_resume_a_real_process(tmp_path):
    out = tmp_path / "k.jsonl"
    args = [sys.executable, "-m", "cli.main", "tactic", "schafkopf2.pull_trumps.*", "--game", "schafkopf2",
            "--deals", "6", "--seed", "2", "--jobs", "1", "--json", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    import time
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 2):
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    done = out.read_bytes().count(b"\n")
    assert 2 <= done
    resumed = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True)
    fresh = subprocess.run(args[:-1] + [str(tmp_path / "fresh.jsonl")], cwd=ROOT, capture_output=True,
                           text=True, check=True)
    assert json.loads(resumed.stdout) == json.loads(fresh.stdout)
    assert out.read_bytes().count(b"\n") == 6


BAD_FILES = {
    "raises_on_load.py": "raise RuntimeError('broken')\n",
    "raises.py": "def bad(view):\n    return 1 / 0\nTACTICS = {'bad': bad}\n",
    "illegal.py": ("from solver.model.cards import Card\n"
                   "def bad(view):\n    return [c for c in view.position.rules.deck if c not in view.legal][:1]\n"
                   "TACTICS = {'bad': bad}\n"),
}


@pytest.mark.parametrize("args,words", [
    (("no.such.tactic",), "unknown tactic"),
    (("scharwenzel.no_overtake_partner", "--where", "seat 9 holds gold"), "--where"),
    (("bad", "--tactic-file", "raises_on_load.py"), "RuntimeError"),
    (("bad", "--tactic-file", "raises.py"), "ZeroDivisionError"),
    (("bad", "--tactic-file", "illegal.py"), "not legal"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, args, words):
    for name, text in BAD_FILES.items():
        (tmp_path / name).write_text(text)
    args = tuple(str(tmp_path / a) if a.endswith(".py") else a for a in args)
    code, out, err = run_cli("tactic", *args, "--game", "scharwenzel", "--deals", "2", "--jobs", "1", "--quiet")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and words in err and "Traceback" not in err


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


def test_plot_file_or_text_histogram(tmp_path, monkeypatch):
    args = ("tactic", "scharwenzel.no_overtake_partner", "--game", "scharwenzel", "--deals", "8",
            "--objective", "total", "--jobs", "1", "--quiet")
    pytest.importorskip("matplotlib")
    code, out, err = run_cli(*args, "--plot", str(tmp_path / "p.svg"))
    assert code == 0, err
    assert (tmp_path / "p.svg").read_text().lstrip().startswith("<?xml")
    monkeypatch.setitem(sys.modules, "matplotlib", None)      # as if it were not installed
    code, out, err = run_cli(*args, "--plot", str(tmp_path / "q.png"))
    assert code == 0, err
    assert "text histograms" in out and "no_overtake_partner: regret (tricks)" in out
    assert not (tmp_path / "q.png").exists()


@pytest.mark.parametrize("game,count", [("scharwenzel", 3), ("schafkopf2", 1)])
def test_decision_scores_agree_with_solve(game, count):
    """Every scored card of a study (score objective) against solver.solve of the position:
    the mover's final total, the outcome rank, and which cards are optimal."""
    from solver.model.cards import parse_card
    from solver.search.solve import new_engine, solve
    from solver.study.tactic import study_deal
    from solver.tactics.base import play_to
    engine = new_engine(16)
    tactics = builtin(game)
    checked = 0
    for dealt in generate_deals(game, 9, count):
        deal = dealt.deal
        result = study_deal(deal, tactics, "score", False, engine)
        for decision in result["decisions"][:6]:
            line = [parse_card(t, deal.notation) for t in result["line"][:decision["ply"]]]
            solved = solve(deal.with_play(play_to(deal, line)), objective="score")
            side = (solved.to_move - 1) % 2
            by_card = {m.card.text(deal.notation): m for m in solved.moves}
            assert sorted(by_card) == sorted(decision["cards"])
            for text, total, rank in zip(decision["cards"], decision["totals"], decision["ranks"]):
                move = by_card[text]
                assert total == move.totals[side]
                assert rank == (move.rank if side == 0 else -move.rank)
                assert (rank == max(decision["ranks"])) == move.optimal
                checked += 1
    assert checked > 10


def test_dask_local_cluster_gives_the_same_report():
    pytest.importorskip("distributed")
    from distributed import LocalCluster
    code, local, err = run_cli(*STUDY, "--jobs", "1")
    assert code == 0, err
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        code, remote, err = run_cli(*STUDY, "--dask", cluster.scheduler_address)
    assert code == 0, err
    assert json.loads(remote) == json.loads(local)

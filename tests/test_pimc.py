"""The player's game of a tactics study (--opponent player, --mover player): the other side,
and the mover where the advice is silent, play by PIMC; each such card is the one `stich
suggest` names for the same information set, and the study is the same with one or two jobs
and after a kill."""

from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner
from test_view import small_cases

from stich.cli.main import main
from stich.deals.deal import loads
from stich.model.cards import parse_card
from stich.run.results import BatchItem
from stich.study.decisions import decision_seed
from stich.study.pimc import game_costs
from stich.study.study import StudySettings, records_of, run_study, study_items_of
from stich.view import count_layouts, information
from stich.view.suggest import suggest

TACTICS = textwrap.dedent('''
    """Tactics for the tests: the first legal card at a lead."""

    def first_lead(view):
        return [view.legal[0]] if view.is_lead else None

    TACTICS = {"first_lead": first_lead}
''')
K = 4


@pytest.fixture(scope="module")
def tactic_file(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("pimc") / "simple.py"
    path.write_text(TACTICS)
    return str(path)


def endings() -> list[str]:
    texts = [case.values[0].dump() for case in small_cases(per_mode=2)]
    return [t for t in texts if loads(t, "x").game in ("schafkopf2", "elfern")]


def study(texts, tactic_file, opponent="player", mover="player"):
    settings = StudySettings(("first_lead",), "total", tactic_file=tactic_file, tt_megabytes=4,
                             opponent=opponent, mover=mover, pimc_samples=K)
    items = study_items_of([BatchItem(f"deal-{k}", t, loads(t, "x").game, loads(t, "x").game)
                            for k, t in enumerate(texts)], settings)
    return records_of(run_study(items, settings, jobs=1).used_lines())


def test_pimc_cards_are_what_suggest_names_for_the_same_information(tactic_file):
    texts = endings()
    assert len(texts) >= 3
    checked = by_sample = 0
    for _, text, record in study(texts, tactic_file):
        deal = loads(text, "x")
        assert {r.policy for r in record.player_game} >= {"own", "uniform", "random"} or not record.runs
        for run in record.player_game:
            for ply, card in enumerate(run.line):
                if ply in run.applied:
                    continue                     # the advice's card (or the random one), not PIMC
                here = deal.after([parse_card(c, deal.notation) for c in run.line[:ply]])
                seat = here.position().to_move + 1
                if len(here.position().legal_moves()) < 2:
                    continue
                info = information(here, seat)
                many = count_layouts(info) > K
                advice = suggest(info, samples=K if many else None, exact=not many, objective="total",
                                 seed=decision_seed(0, text, tuple(run.line[:ply])), jobs=1,
                                 tt_megabytes=4).advice
                assert card == advice.best, (text, run.line[:ply])
                checked += 1
                by_sample += many
    assert checked >= 10


def test_the_opponent_alone_plays_by_pimc_and_the_cost_is_own_minus_advice(tactic_file):
    records = study(endings(), tactic_file, mover="perfect")
    costs = game_costs(records, "first_lead")
    expected = []
    for _, _, record in records:
        own = {r.seat: r.result.total for r in record.player_game if r.policy == "own"}
        advised = [own[r.seat] - r.result.total for r in record.player_game if r.policy == "uniform"]
        if advised:
            expected.append(sum(advised) / len(advised))
    assert costs["uniform"] == expected and expected


def run_cli(*args):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_same_with_one_or_two_jobs_and_after_a_kill(tmp_path, tactic_file):
    folder = tmp_path / "deals"
    folder.mkdir()
    for k, text in enumerate(endings()):
        (folder / f"d{k}.toml").write_text(text)
    args = ("tactic", "first_lead", "--tactic-file", tactic_file, "--from", str(folder), "--objective",
            "total", "--opponent", "player", "--mover", "player", "--pimc-samples", str(K), "--json",
            "--quiet")
    code, one, err = run_cli(*args, "--jobs", "1", "--out", str(tmp_path / "a.jsonl"))
    assert code == 0, err
    summary = json.loads(one)
    assert summary["player_game"]["tactics"][0]["deals"] >= 1
    code, two, err = run_cli(*args, "--jobs", "2")
    assert code == 0, err
    assert json.loads(two) == summary
    lines = (tmp_path / "a.jsonl").read_bytes().split(b"\n")
    (tmp_path / "b.jsonl").write_bytes(b"\n".join(lines[:2]) + b"\n" + lines[2][:40])
    code, resumed, err = run_cli(*args, "--jobs", "2", "--out", str(tmp_path / "b.jsonl"))
    assert code == 0, err
    assert json.loads(resumed) == summary


def test_the_cost_table_on_a_hand_computed_case():
    """Two deals: on the first the advice loses 10 and a random card 20 against the seat's own
    play; on the second, two seats (costs 4 and 0 → 2; random 6 and 2 → 4)."""
    from stich.study.pimc import player_game_table
    from stich.study.records import DealRecord, Result, Run

    def run(name, seat, policy, total):
        return Run(name, seat, policy, Result(total, 0, "x"), [], [], [], [])

    one = DealRecord(None, [], {}, [], [], [], player_game=[
        run("", 1, "own", 70), run("t", 1, "uniform", 60), run("t", 1, "random", 50)])
    two = DealRecord(None, [], {}, [], [], [], player_game=[
        run("", 1, "own", 40), run("", 2, "own", 80), run("t", 1, "uniform", 36), run("t", 1, "random", 34),
        run("t", 2, "uniform", 80), run("t", 2, "random", 78)])
    three = DealRecord(None, [], {}, [], [], [], player_game=[run("", 1, "own", 40)])   # not advised
    records = [("a", "", one), ("b", "", two), ("c", "", three)]
    assert game_costs(records, "t") == {"uniform": [10.0, 2.0], "random": [20.0, 4.0]}
    row = player_game_table(records, ["t"], 0, "player", "perfect", 20)["tactics"][0]
    assert row["deals"] == 2 and row["uniform"]["mean"] == 6.0 and row["random"]["mean"] == 12.0
    assert row["random_minus_advice"]["mean"] == 6.0
    assert DealRecord.from_json(json.loads(json.dumps(two.as_json()))).player_game == two.player_game


def test_the_report_signs_the_comparison_as_the_double_dummy_table_does():
    """The text report's player's game: advice and random card as computed, and the paired
    comparison as advice − random (below 0: the advice is better), its interval turned round."""
    from types import SimpleNamespace

    from stich.report.tactic import player_game_text
    est = {"uniform": {"mean": 6.0, "interval": [2.0, 9.5]}, "random": {"mean": 12.0, "interval": [8.0, 16.0]},
           "random_minus_advice": {"mean": 6.0, "interval": [1.25, 11.0]}}
    table = {"opponent": "player", "mover": "perfect", "layouts": 20, "estimand": "own minus advised",
             "tactics": [{"tactic": "g.t", "deals": 2, **est}]}
    text = player_game_text(SimpleNamespace(player_game=table, unit="points"), "g")
    row = text.splitlines()[-1].split("  ")
    cells = [c.strip() for c in row if c.strip()]
    assert cells == ["t", "2", "6.0 [2.0, 9.5]", "12.0 [8.0, 16.0]", "-6.0 [-11.0, -1.2]"]
    assert "the other side plays by PIMC" in text and "own minus advised" in text
    assert player_game_text(SimpleNamespace(player_game=None, unit="points"), "g") is None
    from stich.report.tactic import _player_game_words
    said = _player_game_words(SimpleNamespace(tactic="g.t"), table, 1, "card points")
    assert said == (" Where the other side plays by PIMC (it sees what a player sees), on 2 deals: following it "
                    "costs 6.0 (2.0 to 9.5) card points a deal against the seat's own double-dummy play, a "
                    "random card 12.0; advice − random -6.0 (-11.0 to -1.2).")
    assert _player_game_words(SimpleNamespace(tactic="g.other"), table, 1, "card points") == ""

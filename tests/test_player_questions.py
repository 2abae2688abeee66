"""The player's questions of `stich tactic`: the features a player sees, paired comparisons,
rules learned from exact play and played on held-out deals, and the answer each report opens
with.  Each figure against a hand-computed small case."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from stich.cli.main import main
from stich.deals.deal import loads
from stich.model.cards import parse_card
from stich.study.learn import Rule, examples, held_out_rows, learn, sentence, tactic_file_text
from stich.study.records import DealRecord, Decision, Result, Run
from stich.study.summary import paired_row, paired_rows, summarise
from stich.tactics import Tactic
from stich.tactics.features import describe, opponent_shows
from stich.tactics.learned import follows, learned_tactic
from stich.tactics.loader import load_file
from stich.tactics.view import player_view

PACK = [s + r for s in "EGRS" for r in ("A", "10", "K", "O", "U", "9", "8", "7")]
UP1 = "RO SK S9 GU RK G10 S8 GO"          # seat 1: the Grün ten bare; trumps: O, U and Schellen


def schafkopf2(up1: str, up2: str, play: str = "") -> str:
    """A two-handed deal with these face-up cards; the rest face down in pack order."""
    ups = [up1.split(), up2.split()]
    down = [c for c in PACK if c not in ups[0] + ups[1]]
    piles = [" ".join(f"{u}/{d}" for u, d in zip(ups[k], down[8 * k:8 * k + 8])) for k in range(2)]
    text = f'game = "schafkopf2"\nleader = 1\n\n[piles]\n1 = "{piles[0]}"\n2 = "{piles[1]}"\n'
    return text + (f'\nplay = "{play}"\n' if play else "")


def view_of(text: str):
    return player_view(loads(text, "t"))


@pytest.mark.parametrize("up2, shows", [
    ("GA G8 E8 EK R8 R9 E9 R7", "holds the Ace"),          # the Ace of Grün in sight
    ("G8 G9 E8 EK R8 R9 E9 R7", "must follow under"),      # only lower Grün cards: he must follow
    ("SA E8 EK R8 R9 E9 R7 E10", "void with a trump"),     # no Grün, the Schellen Ace (a trump)
    ("EA E8 EK R8 R9 E9 R7 E10", "nothing seen"),          # no Grün, no trump: he discards
])
def test_what_the_opponent_shows_against_the_bare_ten(up2, shows):
    view = view_of(schafkopf2(UP1, up2))
    ten = next(c for c in view.legal if str(c) == "G10")
    assert opponent_shows(view, (ten,)) == shows


def test_a_higher_card_that_is_not_the_ace_can_beat_it():
    view = view_of(schafkopf2("RO SK S9 GU RK GK S8 GO", "G10 G8 E8 EK R8 R9 E9 R7"))
    king = next(c for c in view.legal if str(c) == "GK")
    assert opponent_shows(view, (king,)) == "can beat it"


def test_features_of_a_lead_and_a_follow():
    text = schafkopf2(UP1, "GA G8 E8 EK R8 R9 E9 R7")
    lead = view_of(text)
    ten = tuple(c for c in lead.legal if str(c) == "G10")
    f = describe(lead, ten)
    # 14 trumps (4 Ober, 4 Unter, 6 Schellen): seat 1 sees its own 6 face-up ones, none of seat 2's
    assert (f["trumps_seen"], f["trumps_unseen"], f["points_on_table"]) == (6, 8, 0)
    assert f["card_wins"] is None and f["partner_winning"] is None
    follow = player_view(loads(text, "t").after([parse_card("G10", "german")]))
    ace = tuple(c for c in follow.legal if str(c) == "GA")
    eight = tuple(c for c in follow.legal if str(c) == "G8")
    assert describe(follow, ace)["card_wins"] == "yes" and describe(follow, eight)["card_wins"] == "no"
    assert describe(follow, ace)["points_on_table"] == 10 and describe(follow, ace)["opponent_shows"] is None
    # seat 2 sees seat 1's face-up trumps (6) and none of its own: 6 seen, 8 unseen
    assert (describe(follow, ace)["trumps_seen"], describe(follow, ace)["trumps_unseen"]) == (6, 8)


# --- paired comparisons -------------------------------------------------------------------------------

def run(tactic: str, seat: int, total: int, policy: str = "uniform", applied=(0,)) -> Run:
    return Run(tactic, seat, policy, Result(total, 0, "x"), list(applied), [1], ["x"], [], {})


def paired_records():
    """Deal a: one seat, a costs 10 - 4 = 6, b costs 10 - 10 = 0; deal b: seat 1 a 2, b 4, seat 2
    a 0, b 0 (b silent there: the optimal line); deal c: a and b both 3."""
    perfect = {1: Result(10, 0, "x"), 2: Result(10, 0, "x")}
    a = DealRecord([0, 0], [], perfect, [], [run("a", 1, 4), run("b", 1, 10)], [])
    b = DealRecord([0, 0], [], perfect, [], [run("a", 1, 8), run("b", 1, 6), run("a", 2, 10),
                                              run("b", 2, 10, applied=())], [])
    c = DealRecord([0, 0], [], perfect, [], [run("a", 1, 7), run("b", 1, 7)], [])
    return [("a", "", a), ("b", "", b), ("c", "", c)]


def test_paired_difference_of_a_hand_computed_case():
    row = paired_row(paired_records(), "a", "b", "s")
    # per deal (mean over seats) a - b: deal a 6 - 0 = 6, deal b ((2 - 4) + (0 - 0)) / 2 = -1, deal c 0
    assert (row.deals, row.seats) == (3, 4)
    assert row.difference.estimate.mean == pytest.approx((6 - 1 + 0) / 3)
    assert (row.difference.lower, row.difference.equal, row.difference.higher) == (1, 1, 1)
    assert row.cost_a.mean == pytest.approx((6 + 1 + 3) / 3)
    assert row.cost_b.mean == pytest.approx((0 + 2 + 3) / 3)
    low, high = row.difference.estimate.low, row.difference.estimate.high
    assert low <= row.difference.estimate.mean <= high
    rows = paired_rows(paired_records(), ["a", "b", "c"], 0)
    assert [(r.a, r.b) for r in rows] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert rows[0].p_holm >= rows[0].difference.p


def test_paired_runs_count_only_seats_where_the_advice_applied_in_its_own_table():
    t = Tactic("b", None, lambda view: None, "B.")
    records = [(i, x, DealRecord(r.totals, r.line, r.perfect, r.decisions,
                                 r.runs + [Run(q.tactic, q.seat, "random", q.result, q.applied, q.advised,
                                               q.chosen, q.line, {}) for q in r.runs], r.levels))
               for i, x, r in paired_records()]
    policy = summarise(records, [t], 0, "total", "points").as_json()["tactics"][0]["policy"]
    assert policy["runs"] == 3                         # deal b's seat 2 never followed b
    assert policy["cost"]["uniform"]["mean"] == pytest.approx((0 + 4 + 3) / 3)


# --- learning -------------------------------------------------------------------------------------------

def decision(shows: str, totals: list[int], advised: int = 0, trick: int = 1) -> Decision:
    return Decision(0, 1, ["A", "B", "C"][:len(totals)], totals, None, {"t": [advised]},
                    {"opponent_shows": shows, "trick": trick})


def learning_records(n: int = 12):
    """Where the opponent must follow under, the advised card is best (regret 0; the others 6
    and 2: 4 on average); where he holds the Ace it gives away 8 against 0 and 4 (2)."""
    out = []
    for k in range(n):
        shows = "must follow under" if k % 2 == 0 else "holds the Ace"
        totals = [10, 4, 8] if shows == "must follow under" else [2, 10, 6]
        out.append((f"d{k}", "", DealRecord([0, 0], [], {}, [decision(shows, totals, trick=1 + k % 3)], [], [])))
    return out


def others(text, record, d):
    """The fallback of the hand-computed cases: every other card."""
    return [i for i in range(len(d.cards)) if i not in d.advice["t"]]


def test_examples_label_and_weight_each_decision():
    data = examples(learning_records(2), "t", others)
    assert [(e.right, e.weight) for e in data] == [(True, pytest.approx(4.0)), (False, pytest.approx(6.0))]


def test_a_tree_finds_the_rule_that_separates_the_cases():
    rules = learn(learning_records(), "t", 0, others)
    assert rules and rules[0].depth == 1
    # two words only: "is must follow under" and "is not holds the Ace" are the same split
    assert rules[0].paths in (((("opponent_shows", "==", "must follow under"),),),
                              ((("opponent_shows", "!=", "holds the Ace"),),))
    assert rules[0].sentence.split("; otherwise")[0] in ("follow t when the opponent must follow under it",
                                                         "follow t when the opponent does not show the suit's Ace")
    assert len(rules) == 1                          # deeper trees say the same: one rule
    assert follows({"opponent_shows": "must follow under"}, rules[0].paths)
    assert not follows({"opponent_shows": "holds the Ace"}, rules[0].paths)


def test_sentences_of_numbers_and_of_no_condition():
    assert sentence("schafkopf2.bare_ten.lead_at_once", ((("trumps_unseen", "<=", 3),),)).startswith(
        "lead the bare ten when at most 3 trumps are still unseen; otherwise lead a card nothing in sight can beat")
    assert sentence("x", ((),)).startswith("always follow x")
    assert sentence("x", ()).startswith("never follow x")


def test_a_learned_rule_plays_the_advice_or_a_card_nothing_in_sight_beats():
    rule = learned_tactic("r", "schafkopf2.bare_ten.lead_at_once",
                          [[["opponent_shows", "==", "must follow under"]]])
    under = view_of(schafkopf2(UP1, "G8 G9 E8 EK R8 R9 E9 R7"))
    ace = view_of(schafkopf2(UP1, "GA G8 E8 EK R8 R9 E9 RA"))
    assert [str(c) for c in rule(under)] == ["G10"]
    # the opponent shows no trump, so every trump of seat 1 is safe; his Rot Ace beats the Rot King
    assert [str(c) for c in rule(ace)] == ["RO", "SK", "S9", "GU", "S8", "GO"]


def test_a_learned_rule_file_loads_as_tactics(tmp_path):
    rule = Rule("learned.x.depth1", "schafkopf2.bare_ten.lead_at_once", 1,
                ((("opponent_shows", "==", "must follow under"),),), "a sentence", 3, 2)
    path = tmp_path / "learned.py"
    path.write_text(tactic_file_text([rule], "schafkopf2", None))
    loaded = load_file(path).tactics
    assert set(loaded) == {"learned.x.depth1"} and loaded["learned.x.depth1"].doc == "a sentence"


def test_held_out_rows_of_a_hand_computed_case():
    rule = Rule("r", "t", 1, ((),), "s", 0, 0)
    perfect = {1: Result(10, 0, "x")}
    records = [("h1", "", DealRecord([0, 0], [], perfect, [], [run("r", 1, 9), run("t", 1, 5),
                                                                 run("t", 1, 1, "random")], [])),
               ("h2", "", DealRecord([0, 0], [], perfect, [], [run("r", 1, 10), run("t", 1, 8),
                                                                 run("t", 1, 4, "random")], []))]
    row = held_out_rows(records, [rule], 0, {"seed": 1})[0]
    assert row.policy.mean == pytest.approx((1 + 0) / 2)
    assert row.baseline.mean == pytest.approx((5 + 2) / 2)
    assert row.random.mean == pytest.approx((9 + 6) / 2)
    assert row.vs_baseline.estimate.mean == pytest.approx(((1 - 5) + (0 - 2)) / 2)
    data = row.as_json()
    assert {"rule", "policy", "baseline", "random", "vs_baseline", "held_out"} <= set(data)


# --- the command -----------------------------------------------------------------------------------------

WHERE = ("--game", "schafkopf2", "--where", "seat 1 up holds a bare ten", "--quiet", "--jobs", "1")


def cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_the_answer_opens_the_report_and_its_figures_are_the_studys():
    args = ("tactic", "schafkopf2.bare_ten.lead_at_once", *WHERE, "--deals", "6", "--seed", "5")
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    row = json.loads(out)["tactics"][0]
    code, text, err = cli(*args)
    assert code == 0, err
    first = " ".join(text.split("\n\n")[1].split())
    assert first.startswith("You hold a bare ten among your face-up cards and are to lead: leading it at once costs")
    cost = row["policy"]["cost"]
    low, high = cost["uniform"]["interval"]
    assert f"costs {cost['uniform']['mean']:.1f} ({low:.1f}–{high:.1f}) card points a deal" in first
    assert f"a random card costs {cost['random']['mean']:.1f}" in first
    best = row["oneoff"][0]["best_by_points"]["advised"]["mean"]
    assert f"the best card {100 * best:.0f}% of the time" in first
    for group in row["situations"]:
        assert f"{group['value']}: {group['cost']['mean']:.1f}" in first
    assert "simple" not in text.lower().split("levels lost")[-1].split("\n")[2]


def test_paired_and_learned_from_the_command_line(tmp_path):
    learned = tmp_path / "rules.py"
    code, out, err = cli("tactic", "schafkopf2.bare_ten.lead_at_once", *WHERE, "--deals", "8", "--learn",
                         "--holdout", "5", "--holdout-seed", "9", "--learned-file", str(learned), "--json")
    assert code == 0, err
    rows = json.loads(out)["learned"]
    assert rows
    for row in rows:
        assert row["rule"] and row["policy"]["deals"] == row["baseline"]["deals"] == 5
        assert set(row["policy"]) >= {"mean", "interval"} and row["held_out"]["seed"] == 9
    # the rule file reruns: the same held-out deals, seed and pairing give the same cost
    name = rows[0]["name"]
    code, out, err = cli("tactic", "schafkopf2.bare_ten.lead_at_once", name, "--tactic-file", str(learned),
                         *WHERE, "--deals", "5", "--seed", "9", "--paired", "--json")
    assert code == 0, err
    paired = json.loads(out)["paired"][0]
    assert paired["cost_b"]["mean"] == pytest.approx(rows[0]["policy"]["mean"])
    assert paired["cost_a"]["mean"] == pytest.approx(rows[0]["baseline"]["mean"])
    code, text, err = cli("tactic", "schafkopf2.bare_ten.lead_at_once", name, "--tactic-file", str(learned),
                          *WHERE, "--deals", "5", "--seed", "9", "--paired")
    assert code == 0 and re.search(r"Paired: every tactic played on the same deals", text)


def test_learn_needs_exactly_one_players_tactic():
    code, out, err = cli("tactic", "schafkopf2.bare_ten.*", *WHERE, "--deals", "2", "--learn")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--learn" in err


def test_a_worse_outcome_is_said_from_what_to_what_in_the_games_words():
    """Each change of outcome with its share, the shares adding up to the worse-outcome share
    (the hand-computed case of test_tactics: 75% of the deals, 50% from won to the draw and
    25% from won to lost), the level "simple" said as the game, never "simple"."""
    from test_tactics import hand_records

    from stich.report.tactic import tactic_report

    records = [(i, t, DealRecord(r.totals, r.line, r.perfect, r.decisions, r.runs,
                                 [(rank, "simple" if words == "win" else words, side)
                                  for rank, words, side in r.levels]))
               for i, t, r in hand_records()]
    t = Tactic("t", None, lambda view: None, "A test tactic.")
    text = " ".join(tactic_report(summarise(records, [t], 0, "total", "tricks")).split())
    assert ("the outcome is worse in 75% of the deals: won → the draw in 50%, won → lost in 25%." in text
            and "won → the draw 50%, …" in text)                    # the table: the most frequent
    assert "simple" not in text


def test_tactics_on_different_deals_come_with_a_warning():
    """Two tactics, one applied to both deals of the hand-computed case and one to deal a
    only: the report says their figures are on different deals and points to --paired; one
    tactic alone gets no such words."""
    from test_tactics import hand_records

    from stich.report.tactic import tactic_report
    (a_id, a_text, a), b = hand_records()
    both = DealRecord(a.totals, a.line, a.perfect, a.decisions,
                      a.runs + [Run(**{**vars(run), "tactic": "u"}) for run in a.runs], a.levels)
    t, u = (Tactic(name, None, lambda view: None, "A test tactic.") for name in ("t", "u"))
    text = " ".join(tactic_report(summarise([(a_id, a_text, both), b], [t, u], 0, "total", "tricks")).split())
    assert "These tactics applied to different deals (t 2, u 1)" in text and "--paired plays them" in text
    alone = " ".join(tactic_report(summarise(hand_records(), [t], 0, "total", "tricks")).split())
    assert "different deals" not in alone


def test_the_changes_of_outcome_add_up_to_the_worse_share_as_printed():
    """Shares split into parts print to a tenth of a percent with the parts adding up to the
    total as printed (17% once read as 5+5+4+2+2+0.3+0.3 = 18.6%)."""
    import random

    from stich.report.common import parts_texts
    rng = random.Random(7)

    def tenths(text: str) -> int:
        return round(float(text.rstrip("%")) * 10)
    for _ in range(500):
        deals = rng.randint(1, 3000)
        parts = [rng.randint(1, 40) / deals for _ in range(rng.randint(1, 7))]
        if sum(parts) >= 1:
            continue
        total, shown = parts_texts(sum(parts), parts)
        assert "<" in "".join(shown) or sum(map(tenths, shown)) == tenths(total), (parts, total, shown)
        assert total not in ("0%", "100%")


def test_a_difference_the_same_on_every_deal_is_said_so_not_as_an_interval_with_0():
    """Three deals where following the advice costs 0 and a random card 1 trick: the sentence
    says the advice costs 1 less on every one of them (no interval to resample, never "the
    interval includes 0"), and the sound verdict says why these deals cannot tell."""
    from stich.report.tactic import tactic_report

    def run(seat, policy, total):
        return Run("t", seat, policy, Result(total, 1, "own win"), [0], [2], ["x"], [], {"trick": 1})
    records = [(f"d{k}", "", DealRecord([5, 3], [], {1: Result(5, 1, "own win")},
                                        [Decision(0, 1, ["A", "B"], [5, 4], None, {"t": [0]}, {"trick": 1})],
                                        [run(1, "uniform", 5), run(1, "best", 5), run(1, "worst", 5),
                                         run(1, "random", 4)], [(1, "win", 0)]))
               for k in range(3)]
    t = Tactic("t", None, lambda view: None, "A test tactic.")
    text = " ".join(tactic_report(summarise(records, [t], 0, "total", "tricks")).split())
    assert "so the advice costs 1.00 less on every one of its 3 deals (no interval" in text
    assert "interval includes 0" not in text
    assert "a whole deal cost 0.00 on every one of them, which gives no interval" in text


def test_a_tactic_that_did_what_another_did_shows_that_ones_figures():
    """Twins (the same advice at every decision, the same cards in every run) show one set of
    figures: resampled under each name they differed in the last digit, and a p at the floor
    in one but not the other."""
    from dataclasses import replace as copy

    from test_tactics import hand_records
    records = []
    for i, text, r in hand_records():
        decisions = [copy(d, advice={**d.advice, "u": d.advice["t"]}) for d in r.decisions]
        runs = r.runs + [Run(**{**vars(run), "tactic": "u"}) for run in r.runs]
        records.append((i, text, DealRecord(r.totals, r.line, r.perfect, decisions, runs, r.levels)))
    t, u = (Tactic(name, None, lambda view: None, "A test tactic.") for name in ("t", "u"))
    rows = summarise(records, [t, u], 0, "total", "tricks").as_json()["tactics"]
    assert rows[1]["same_as"] == "t"
    assert {k: v for k, v in rows[1].items() if k not in ("tactic", "same_as")} == \
        {k: v for k, v in rows[0].items() if k != "tactic"}


def test_outcome_words_as_a_player_says_them():
    from stich.report.tactic import change_words
    assert change_words("own schneider → own simple") == "won with Schneider → won"
    assert change_words("tie → other side's schwarz") == "the draw → lost with Schwarz"
    assert change_words("staender → other side's win (1)") == "a Ständer (10–10) → lost (1)"
    assert change_words("own schneider (2) → own win (1)") == "won with Schneider (2) → won (1)"
    assert change_words("own tout → own win for the first") == "won with tout (every trick) → won for the first"
    assert change_words("own win → other side's win for the first") == "won → lost to a win for the first"


def test_paired_runs_play_every_tactic_by_every_seat_any_of_them_advised():
    from stich.study.walk import _common_starts
    applied = {"a": {1: 4}, "b": {1: 2, 2: 7}}
    assert _common_starts(applied, ["a", "b", "c"]) == {"a": {1: 2, 2: 7}, "b": {1: 2, 2: 7}, "c": {1: 2, 2: 7}}


def test_level_words_with_their_score():
    from stich.report.tactic import level_words
    assert [level_words(w) for w in ("simple", "schneider (2)", "simple (1)", "tie")] == [
        "the game", "Schneider (2)", "the game (1)", "the draw"]


def test_an_interval_end_near_zero_shows_its_side_of_zero():
    """A difference's interval [-0.04, 0.3] printed to one place read "[-0.0, 0.3]": a negative
    zero that hides whether the interval leaves 0 out.  Such an end gets the places it needs."""
    from stich.report.tactic import _x
    assert [_x(v, 1) for v in (-0.04, 0.04, -0.004, 0.0, -0.0, -0.00004, 1.26)] == \
        ["-0.04", "0.04", "-0.004", "0.0", "0.0", "0.0", "1.3"]
    assert _x(float("nan")) == "–"

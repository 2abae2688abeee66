"""The Mariage variant as the source has it (rules.md §2): a marriage is announced by the player
on lead, once he has won a trick, with ANY lead card; scored for points or for strokes.

Each position is worked out by hand in its comment.  Trumps with Rot trump (the 17th card):
EO R7 GO EU GU RU SU RA R10 RK RO R9 R8; with Eichel trump: EO E7 GO EU GU RU SU EA E10 EK E9
E8.  Rot and Schellen outside trump: A 10 K O 9 8 7.  Eichel-Ober and Grün-Ober are Wenzels,
so only Rot and Schellen marry.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import stich
from stich.analysis.replay import replay
from stich.model.cards import parse_card
from stich.report.replay import replay_report
from stich.report.solve import solve_json, solve_report
from stich.search.solve import new_engine

ENGINE = new_engine(8)


def solve_text(text: str, **kwargs):
    return stich.solve(stich.loads(text, "<test_mariage>"), engine=ENGINE, **kwargs)


def card(text: str):
    return parse_card(text, "german")


def suit_of(result, move):
    return None if move.pair is None else result.deal.rule_set.pairs[move.pair][0].suit


ROT, SCHELLEN = 2, 3


# --- announcing with a low lead -------------------------------------------------------------
#
# Rot trump, taken [96, 0] (seat 1 has won tricks, seat 2 none); points in play 24, + 10.
#   1: RK RO SK          2: EU G8 RA        (all face up)
# - SK led WITH the marriage in trump announced (40): seat 2 cannot follow Schellen and must
#   trump (EU or RA) and wins; seat 1 keeps RK RO.  Seat 2 then gets at most 30:
#     EU (4 + 2), then RA (seat 1 follows RO: + 14) and G8 (seat 1 trumps with RK): 20;
#     EU, then G8 (seat 1 trumps with RK) and RA over the RO seat 1 must lead: 6 + 24 = 30;
#     RA (4 + 11), then EU (RO follows: + 5) and G8 (trumped): 20;
#     RA, then G8 (trumped with RK) and EU over RO: 15 + 2 + 3 + 10 = 30.
#   Seat 1: 96 + 40 + (34 - 30) = 140 against 30: Schneider (30 <= 32), 2 strokes.
# - RK or RO led (the old reading's only way to announce), with the marriage (40): seat 2
#   follows trump higher (EU or RA) and wins, leads his other trump (seat 1 follows lower) and
#   G8 (seat 1 has only SK): seat 2 takes all 34; seat 1 96 + 40 = 136: simple, 1 stroke.
# So for the difference (110 against 102) and for the score (Schneider against simple) the
# low lead with the announcement is best, and leading the King or Ober loses.
LOW_LEAD = """
game = "schafkopf2"
trump = "rot"
taken = [96, 0]
leader = 1
[piles]
1 = "RK RO SK"
2 = "EU G8 RA"
[rules]
mariage = true
{extra}
"""


def test_announcing_with_a_low_lead_wins_points():
    total = solve_text(LOW_LEAD.format(extra=""), objective="total")
    assert total.totals == (140, 30)
    assert total.line[0] == card("SK") and total.line_pairs[0] is not None
    by_card = {m.card: m for m in total.moves}
    assert all(suit_of(total, m) == ROT for m in total.moves)      # announcing is forced
    assert by_card[card("SK")].totals == (140, 30) and by_card[card("SK")].optimal
    for king_or_ober in ("RK", "RO"):
        move = by_card[card(king_or_ober)]
        assert move.totals == (136, 34) and not move.optimal
    score = solve_text(LOW_LEAD.format(extra=""))
    assert (score.outcome.winner, score.outcome.level, score.outcome.score) == (1, "schneider", 2)
    assert score.line[0] == card("SK")
    levels = {m.card: m.level for m in score.moves}
    assert levels[card("SK")] == "schneider"
    assert levels[card("RK")] == levels[card("RO")] == "simple"


def test_announcing_with_a_low_lead_wins_strokes():
    # For strokes the marriage is 2 strokes (in trump) and counts no points: SK first, seat 1
    # 100 card points against 30, Schneider 2 + marriage 2 = 4 strokes to 0; RK or RO first,
    # 96 against 34, simple 1 + 2 = 3 to 0.
    result = solve_text(LOW_LEAD.format(extra='mariage_score = "strokes"'))
    assert result.totals == (100, 30)
    assert result.outcome.rank == 4 and result.outcome.level == "schneider"
    assert result.outcome.bonuses["strokes"] == [4, 0]
    ranks = {m.card: m.rank for m in result.moves}
    assert ranks == {card("SK"): 4, card("RK"): 3, card("RO"): 3}
    assert [m.card for m in result.moves if m.optimal] == [card("SK")]


# --- two marriages open: which one first is a choice ------------------------------------------
#
# Rot trump, taken [60, 36].  1: SK SO RK RO   2: EO GO EU GU (the four top trumps).  Whatever
# seat 1 leads, seat 2 wins (Schellen: he must trump; Rot: he follows higher) and keeps the lead
# with his trumps: seat 1 leads once and can announce one marriage.  Seat 2 takes all 24 + 10
# and, the four tricks being the last four, the Wäsche (20): 36 + 34 + 20 = 90.  Seat 1:
# 60 + 40 = 100 announcing Rot (trump), 80 announcing Schellen.
TWO_OPEN = """
game = "schafkopf2"
trump = "rot"
taken = [60, 36]
leader = 1
[piles]
1 = "SK SO RK RO"
2 = "EO GO EU GU"
[rules]
mariage = true
"""


def test_two_marriages_which_first_is_searched():
    result = solve_text(TWO_OPEN, objective="total")
    assert result.totals == (100, 90)
    moves = {(suit_of(result, m), m.card): m for m in result.moves}
    assert len(moves) == len(result.moves) == 8           # 4 cards x 2 marriages
    for text in ("SK", "SO", "RK", "RO"):
        assert moves[ROT, card(text)].totals == (100, 90) and moves[ROT, card(text)].optimal
        assert moves[SCHELLEN, card(text)].totals == (80, 90) and not moves[SCHELLEN, card(text)].optimal
    assert result.announcements[0][2] == 40


# --- play with announcements: replay and round trip ----------------------------------------------
#
# Eichel trump, taken [50, 40].  1: GA R9 RK RO   2: G7 R7 S8 S9.  GA wins G7 (+11); seat 1
# announces the Rot marriage with R9 (+20), R9 wins R7.  Left: RK RO against S8 S9: seat 1
# wins both (4 + 3 + 10) and, having won all four (the last four) tricks, the Wäsche (20):
# 50 + 11 + 20 + 17 + 20 = 118 against 40.
PLAYED = """
game = "schafkopf2"
trump = "eichel"
taken = [50, 40]
leader = 1
play = [{play}]
{extra}
[piles]
1 = "GA R9 RK RO"
2 = "G7 R7 S8 S9"
[rules]
mariage = true
"""


def played(play: str, extra: str = "") -> str:
    return PLAYED.format(play=play, extra=extra)


def test_play_records_an_announcement():
    deal = stich.loads(played('"GA G7", "(marriage R) R9 R7"'))
    assert deal.shows == ((1, 0, ROT),)
    position = deal.position()
    assert position.points == [81, 40] and position.shown == {0}
    text = deal.dump()
    assert '"(marriage R) R9 R7"' in text
    assert stich.loads(text) == deal
    result = stich.solve(deal, engine=ENGINE)
    assert result.totals == (118, 40)
    assert all(m.pair is None for m in result.moves)      # announced already: never again
    assert "(marriage R) R9" not in solve_report(result)  # the line starts after it


def test_a_lead_without_announcing_keeps_the_marriage():
    # The same, but R9 led without announcing: the marriage stays intact and is announced
    # with the next lead: the same 118 in the end, 61 after the play.
    deal = stich.loads(played('"GA G7", "R9 R7"'))
    assert deal.position().points == [61, 40]
    result = stich.solve(deal, engine=ENGINE)
    assert result.totals == (118, 40)
    assert result.announcements and result.announcements[0][2] == 20
    assert "(marriage R) R" in solve_report(result)
    assert solve_json(result)["line"][0].startswith("(marriage R) ")


def test_replay_shows_the_announcement():
    deal = stich.loads(played('"GA G7", "(marriage R) R9 R7", "RK S8", "RO S9"'))
    analysis = replay(deal, tt_megabytes=4)
    step = analysis.steps[2]
    assert step.card == card("R9") and step.pair == 0
    assert analysis.final == (118, 40)
    assert "(marriage R) R9" in replay_report(analysis)


def test_announced_and_won_trick_keys_round_trip():
    # `announced` keeps the Rot marriage from being announced again; `won_trick` lets seat 1
    # announce although its `taken` is 0 (it won a trick without points).
    text = """
game = "schafkopf2"
trump = "eichel"
taken = [0, 40]
won_trick = [true, true]
announced = ["R"]
leader = 1
play = ["(marriage S) GA G7"]
[piles]
1 = "GA SK SO RK RO"
2 = "G7 R7 S8 S9 R8"
[rules]
mariage = true
"""
    deal = stich.loads(text)
    assert deal.announced == (ROT,) and deal.won_trick == (True, True)
    assert deal.position().points == [31, 40]
    assert stich.loads(deal.dump()) == deal
    result = stich.solve(deal, engine=ENGINE)
    assert all(m.pair is None for m in result.moves)       # Rot announced before, Schellen now
    with pytest.raises(stich.DealError, match="only after winning a trick"):
        stich.loads(text.replace("won_trick = [true, true]", "won_trick = [false, true]"))


def test_taken_may_exceed_130_with_marriages():
    # 110 + 40 taken and 28 in play: more than 130, possible with marriages (and the Wäsche)
    deal = stich.loads(played('"GA G7"', 'announced = ["R"]').replace("taken = [50, 40]", "taken = [110, 40]"))
    assert deal.taken == (110, 40)


# --- illegal announcements: one clear line ----------------------------------------------------------

ILLEGAL = [
    ('"GA (marriage R) G7"', "", "announced only by the player on lead"),
    ('"(marriage R) R9 R7"', "", "only after winning a trick"),
    ('"GA G7", "RK R7", "(marriage R) RO S8"', "", "no intact marriage"),
    ('"GA G7", "(marriage R) R9 R7"', 'announced = ["R"]', "already announced"),
    ('"GA G7", "(marriage E) R9 R7"', "", "Wenzel"),
    ('"GA G7", "(marriage R) (marriage S) R9 R7"', "", "one marriage per turn"),
    ('"GA G7", "R9 (marriage R)"', "", "before the card"),
    ('"GA G7", "(mariage R) R9 R7"', "", "write (marriage SUIT)"),
]


@pytest.mark.parametrize("play,extra,words", ILLEGAL)
def test_illegal_announcement_is_one_line(play, extra, words):
    text = played(play, extra)
    if "only after winning" in words:
        text = text.replace("taken = [50, 40]", "taken = [0, 40]")
    with pytest.raises(stich.DealError) as info:
        stich.loads(text, "deal.toml")
    message = str(info.value)
    assert words in message and "\n" not in message and message.startswith("deal.toml: play")


def test_illegal_announcement_exits_2(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(played('"GA G7", "(marriage E) R9 R7"'), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "stich.cli.main", "solve", str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Wenzel" in done.stderr


def test_announcement_outside_mariage_is_rejected():
    text = played('"GA G7", "(marriage R) R9 R7"').replace("mariage = true", 'trump_mode = "card17"')
    with pytest.raises(stich.DealError) as info:
        stich.loads(text)
    assert "nothing" in str(info.value) or "no " in str(info.value)


def test_strokes_outcome_reports_the_grosse_waesche():
    # Strokes: the play above to the end: seat 1 wins all four tricks: 11 + 17 card points
    # + 50 taken = 78 (the marriage and the Wäsche count strokes, not points): simple (seat 2
    # has won tricks before: 40 > 32), 1 stroke + marriage 1 + Wäsche 1 = 3; the last three
    # tricks make the große Wäsche, reported as a bonus of 9 strokes.
    deal = stich.loads(played('"GA G7", "(marriage R) R9 R7", "RK S8", "RO S9"')
                        .replace("mariage = true", 'mariage = true\nmariage_score = "strokes"'))
    result = stich.solve(deal, engine=ENGINE)
    assert result.outcome.bonuses["strokes"] == [3, 0]
    assert result.outcome.bonuses["grosse_wasche"] == {"seat": 1, "strokes": 9}


@pytest.mark.parametrize("extra,words", [
    ('announced = ["E"]', "no marriage in Eichel"),
    ('won_trick = [false, true]', "has won a trick"),
    ('won_trick = [true]', "two booleans"),
    ('announced = "R"', "list of suits"),
])
def test_bad_history_keys_are_one_line(extra, words):
    with pytest.raises(stich.DealError) as info:
        stich.loads(played('"GA G7"', extra), "deal.toml")
    assert words in str(info.value) and "\n" not in str(info.value)

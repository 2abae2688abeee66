"""Elfern: two players, no trumps, trick-and-draw from a stock, honours count.

Each suit runs A K Q J 10 9 8 7; the honours A K Q J 10 are worth one each (20 in the pack).
While the stock lasts a player may play any card; the winner of a trick draws first.  Once the
stock is empty a player must follow suit (``must_head``: and beat the card led if he can).
"""

from __future__ import annotations

from stich.model.cards import ACE, EIGHT, FRENCH, JACK, KING, NINE, QUEEN, SEVEN, SUITS, TEN, Card
from stich.model.outcome import ALWAYS, AtLeast, Outcome, Rung
from stich.model.position import Position
from stich.model.protocols import DealFacts
from stich.model.rules import FREE, FollowRule, RuleSet

from .base import SCHNEIDER, WIN, Game, GoalWord, Option, View
from .layouts import Stock

# a new option: also a row of the README's option table and its effect in tests/reference.py,
# both by hand (README "How to add an option")
OPTIONS = (
    Option("must_head", False,
           "once the stock is empty a follower must also beat the card led if he can",
           "rules.md §3 (Meyers Konversations-Lexikon 1905)"),
    Option("scoring", "lines",
           "lines: 11+ honours 1, 15+ 2, 20 3; graded: 11-13 1, 14-15 2, 16-17 3, 18-19 4, 20 5",
           "rules.md §3 (Pierer 1857; Meyers 1905)", ("lines", "graded")),
)

ORDER = (ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN)
HONOURS = (ACE, KING, QUEEN, JACK, TEN)
ALL_HONOURS = len(HONOURS) * len(SUITS)
LAYOUT = Stock(hand=6)      # six cards each, a stock of twenty
PACK = tuple(Card(s, r) for s in SUITS for r in ORDER)


def build(trump: int | None, options: dict, players: int = 2) -> RuleSet:
    return RuleSet(
        game="elfern", unit="honours", seats=2, layout=LAYOUT, deck=PACK,
        trump=None, trumps=(), plain={s: tuple(Card(s, r) for r in ORDER) for s in SUITS},
        values={c: 1 if c.rank in HONOURS else 0 for c in PACK},
        follow=FollowRule(follow_suit=True, must_trump=False, must_beat=options["must_head"]),
        stock_follow=FREE, options=dict(options))


# --- scoring -----------------------------------------------------------------------------------

SEAT_NAMES = ("forehand (seat 1)", "dealer (seat 2)")


def score_steps(scoring: str) -> tuple[tuple[int, int], ...]:
    """(honours needed, score), highest first: lines 11/15/20 -> 1/2/3; graded 11-13 1,
    14-15 2, 16-17 3, 18-19 4, 20 5."""
    if scoring == "graded":
        return ((20, 5), (18, 4), (16, 3), (14, 2), (11, 1))
    return ((20, 3), (15, 2), (11, 1))


def level_name(honours: int) -> str:
    """The level in the lines sense whatever the scoring: 11+ simple, 15+ Schneider, 20 Schwarz."""
    return "schwarz" if honours >= 20 else "schneider" if honours >= 15 else "simple"


def no_winner_level(honours: int) -> str:
    """The level where neither side reaches 11: a Ständer (10–10) when the deal's ``honours``
    are all 20, else (an ending whose `taken` counts fewer) only no score."""
    return "staender" if honours == ALL_HONOURS else "no_score"


def outcome(final: Position, deal: DealFacts):
    p = final.points
    steps = score_steps(deal.options["scoring"])
    winner = 0 if p[0] >= 11 else 1 if p[1] >= 11 else None
    if winner is None:
        text = ("Ständer (10–10): no score, the next game counts double" if p[0] == p[1] == 10
                else f"{p[0]}–{p[1]}: neither side reached 11 honours, no score")
        return Outcome(None, no_winner_level(p[0] + p[1]), 0, text, rank=len(steps))
    won = p[winner]
    score = next(points for need, points in steps if won >= need)
    place = next(i for i, (need, _) in enumerate(steps) if won >= need)
    level = level_name(won)
    rank = len(steps) + 1 + (len(steps) - 1 - place) if winner == 0 else place
    words = {"simple": "a simple game", "schneider": "Schneider", "schwarz": "Schwarz"}[level]
    return Outcome(winner + 1, level, score, f"{SEAT_NAMES[winner].capitalize()} wins {words} with "
                                             f"{won}–{p[1 - winner]} honours: {score}", rank=rank)


def ladder(position: Position, deal: DealFacts):
    """Seat 1's side, best first: each score step it can reach, no score, then each step of
    the other side (a threshold on seat 1's honours, as the total is fixed)."""
    steps = score_steps(deal.options["scoring"])
    total = sum(position.points) + sum(position.rules.values[c] for c in position.in_play())
    rungs = [Rung(2 * len(steps) - i, level_name(need), 0, AtLeast(need), f"{level_name(need)} ({score})")
             for i, (need, score) in enumerate(steps)]
    rungs.append(Rung(len(steps), no_winner_level(total), None, AtLeast(total - 10)))  # the other < 11
    asc = list(reversed(steps))
    for i, (need, score) in enumerate(asc):
        label = f"{level_name(need)} ({score})"
        if i + 1 < len(asc):       # the other side wins, but below the next step
            rungs.append(Rung(len(steps) - 1 - i, level_name(need), 1,
                              AtLeast(total - asc[i + 1][0] + 1), label))
        else:
            rungs.append(Rung(0, level_name(need), 1, ALWAYS, label))
    return rungs


VIEW = View(other_hands=False, face_down=False, stock=False,
            why="each player holds his six cards in hand and draws from the stock, face down in "
                "our reading, so he "
                "sees his own hand and every card he draws, never the other hand or the stock "
                "(rules.md §3); following is free while the stock lasts, so a void shows only "
                "in the last six tricks")


GOALS = {"win": WIN, "schneider": SCHNEIDER, "schwarz": GoalWord("total", target=20)}   # all 20 honours

# the value search starts 3 honours above the greedy play-out, which mostly falls short: 0.3%
# to 5.8% fewer nodes summed over each of five seed ranges (medians 0.6% to 12%); 2 and 4
# above were worse on some range (docs/explanation/performance.md)
GAME = Game(name="elfern", title="Elfern", default_notation=FRENCH, layout=LAYOUT,
            options=OPTIONS, build=build, outcome=outcome, ladder=ladder,
            search={"driver": "step", "first": "greedy+3"}, view=VIEW, goals=GOALS)

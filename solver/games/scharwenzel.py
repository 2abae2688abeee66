"""Scharwenzel (Fehmarn): 4, 6 or 8 players in two sides, tricks count.

Trumps, high to low: ♣Q (Spadille), T7 (Manille), ♠Q (Basta), the four Jacks, then TA TK
(TQ if T is red) T10 T9 T8 (T6 with 36 cards).  Plain suits: A K Q 10 9 8 7 (6) without the
Jacks, and ♣/♠ without their Queen; option ``plain_order`` = A10KQ puts the ten under the Ace.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING

from stich.model.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    EIGHT,
    FRENCH,
    HEARTS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SEVEN,
    SIX,
    SPADES,
    SUITS,
    TEN,
    Card,
    suit_name,
)
from stich.model.outcome import ALWAYS, AtLeast, Outcome, Rung, Streak, tricks_of
from stich.model.protocols import DealFacts
from stich.model.rules import FollowRule, RuleSet

from .base import EVERY_TRICK, NAMED, WIN, Game, GoalWord, Option, View
from .layouts import Hands

if TYPE_CHECKING:
    from stich.model.position import Position

# a new option: also a row of the README's option table and its effect in tests/reference.py,
# both by hand (README "How to add an option")
OPTIONS = (
    Option("first_leader", "forehand",
           "who leads to the first trick when the deal file names no leader: forehand (seat 1) "
           "or declarer (the seat in the deal file's `declarer` key)",
           "rules.md §1 (seed rules; Wikipedia 'Scharwenzel')", ("forehand", "declarer")),
    Option("plain_order", "AKQ10",
           "order of the plain suits: AKQ10 (A K Q 10 9 8 7) or A10KQ (A 10 K Q 9 8 7)",
           "rules.md §1 (inferred from the trump order and the related Sjavs)", ("AKQ10", "A10KQ")),
    Option("must_trump", False,
           "a player who cannot follow suit must play a trump if he has one",
           "rules.md §1 (no duty to trump in the sources)"),
)

PLAYERS = (4, 6, 8)
LAYOUT = Hands()


def pack(players: int) -> tuple[Card, ...]:
    """32 cards (7-A) for 4 and 8 players, 36 cards (6-A) for 6."""
    ranks = [ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN] + ([SIX] if players == 6 else [])
    return tuple(Card(s, r) for s in SUITS for r in ranks)


def trump_order(trump: int, deck: tuple[Card, ...]) -> tuple[Card, ...]:
    order = [Card(CLUBS, QUEEN), Card(trump, SEVEN), Card(SPADES, QUEEN),
             Card(CLUBS, JACK), Card(SPADES, JACK), Card(HEARTS, JACK), Card(DIAMONDS, JACK),
             Card(trump, ACE), Card(trump, KING)]
    if trump in (HEARTS, DIAMONDS):
        order.append(Card(trump, QUEEN))
    order += [Card(trump, TEN), Card(trump, NINE), Card(trump, EIGHT)]
    if Card(trump, SIX) in deck:
        order.append(Card(trump, SIX))
    return tuple(order)


def _trump(rules: RuleSet) -> int:
    trump = rules.trump
    if trump is None:
        raise ValueError("a Scharwenzel deal always has a trump")
    return trump


def build(trump: int | None, options: dict, players: int = 4) -> RuleSet:
    if trump is None:
        raise ValueError("a Scharwenzel deal always has a trump")
    deck = pack(players)
    trumps = trump_order(trump, deck)
    plain_ranks = ([ACE, KING, QUEEN, TEN] if options["plain_order"] == "AKQ10"
                   else [ACE, TEN, KING, QUEEN]) + [NINE, EIGHT, SEVEN, SIX]
    plain = {}
    for suit in SUITS:
        if suit != trump:
            plain[suit] = tuple(Card(suit, r) for r in plain_ranks
                                if Card(suit, r) in deck and Card(suit, r) not in trumps)
    return RuleSet(
        game="scharwenzel", unit="tricks", seats=players, layout=LAYOUT, deck=deck,
        trump=trump, trumps=trumps, plain=plain, values={c: 0 for c in deck},
        follow=FollowRule(follow_suit=True, must_trump=options["must_trump"]),
        trick_bonus=1, options=dict(options))




# --- scoring -----------------------------------------------------------------------------------

def matador_order(trump: int) -> tuple[Card, ...]:
    """♣Q, T7, ♠Q, then the Jacks: the top of the trump suit, in order."""
    return (Card(CLUBS, QUEEN), Card(trump, SEVEN), Card(SPADES, QUEEN), Card(CLUBS, JACK),
            Card(SPADES, JACK), Card(HEARTS, JACK), Card(DIAMONDS, JACK))


def matadors(hands: Mapping[int, tuple[Card, ...]], trump: int) -> tuple[int | None, int, tuple[Card, ...]]:
    """(side, count, cards): the side holding ♣Q, T7 and ♠Q between its players counts 3, plus
    one for each further trump in unbroken order from the top (♣J ♠J ♥J ♦J), at most 7.
    ``hands`` are the hands as dealt (seat numbers from 1); (None, 0, ()) if nobody has them."""
    holder = {card: RuleSet.side_of(seat) for seat, cards in hands.items() for card in cards}
    order = matador_order(trump)
    sides = {holder.get(card) for card in order[:3]}
    if len(sides) != 1 or None in sides:
        return (None, 0, ())
    side = sides.pop()
    count = 3
    for card in order[3:]:
        if holder.get(card) != side:
            break
        count += 1
    return (side, count, order[:count])


def win_points(trump: int | None, all_passed: bool) -> int:
    """A win scores 4 with clubs trump (2 when clubs came from all passing), 2 otherwise."""
    return 4 if trump == CLUBS and not all_passed else 2


def first_run(position: Position, side: int, majority: int) -> tuple[str, int]:
    """Has ``side`` reached ``majority`` tricks before the other side took any?

    Returns ("achieved", 0), ("alive", tricks still needed in a row) or ("dead", 0).  Tricks
    in ``taken`` come first in an unknown order: if both sides have some, the run is dead."""
    other = 1 - side
    prior = position.prior_tricks
    if prior[other] > 0:
        return ("dead", 0)
    run = prior[side]
    for record in position.history:
        if position.rules.side(record.winner) == side:
            run += 1
        else:
            return ("achieved", 0) if run >= majority else ("dead", 0)
    if run >= majority:
        return ("achieved", 0)
    return ("alive", majority - run)


def _sides_text(side: int, players: int) -> str:
    return "seats " + "+".join(str(s) for s in range(1, players + 1) if RuleSet.side_of(s) == side)


def outcome(final: Position, deal: DealFacts):
    players = deal.players
    t = [tricks_of(final, 0), tricks_of(final, 1)]
    majority = (t[0] + t[1]) // 2 + 1
    base = win_points(final.rules.trump, deal.all_passed)
    if t[0] == t[1]:
        return Outcome(None, "bock", 0, f"Bock at {t[0]}–{t[1]}: no score now, the next deal's "
                                        f"winner also gets {base}", rank=3)
    w = 0 if t[0] > t[1] else 1
    who = _sides_text(w, players)
    if t[1 - w] == 0:
        return Outcome(w + 1, "tout", base, f"{who.capitalize()} take every trick: tout, {base} "
                                            f"points and a hook (two hooks if announced)",
                       rank=6 if w == 0 else 0, hooks=1,
                       bonuses={"win": base, "tout": True, "announced_tout_hooks": 2})
    first = first_run(final, w, majority)[0] == "achieved"
    mat_side, mat_count, _ = matadors(deal.hands, _trump(final.rules))
    mats = mat_count if mat_side == w else 0
    score = base + (2 if first else 0) + mats
    parts = [f"{base} for the win" + (" (clubs)" if base == 4 else "")]
    if first:
        parts.append("2 for the first")
    if mats:
        parts.append(f"{mats} matadors")
    return Outcome(w + 1, "win", score, f"{who.capitalize()} win {t[w]}–{t[1 - w]}: "
                                        f"{' + '.join(parts)} = {score}",
                   rank=(5 if first else 4) if w == 0 else (1 if first else 2),
                   bonuses={"win": base, "clubs_double": base == 4, "for_the_first": 2 if first else 0,
                            "matadors": mats, "matadors_held": mat_count if mat_side == w else 0})


def ladder(position: Position, deal: DealFacts):
    """Seat 1's side, best first: tout, win for the first, win, Bock, then the other side's
    plain win, win for the first and tout.  The majority is of the tricks this deal has:
    `taken` plus the tricks still to play (8, 6 or 4 in a whole deal)."""
    left = position.tricks_left()
    t0, t1 = tricks_of(position, 0), tricks_of(position, 1)
    majority = (t0 + t1 + left) // 2 + 1
    return list(_ladder(left, t0, t1, first_run(position, 0, majority),
                        first_run(position, 1, majority)))


@lru_cache(maxsize=4096)
def _ladder(left: int, t0: int, t1: int, run0: tuple[str, int], run1: tuple[str, int]) -> tuple[Rung, ...]:
    """``ladder`` from what it depends on (asked for every card of every solve: the rungs are
    values, made once)."""
    whole = t0 + t1 + left        # the tricks of this deal: a whole deal, or `taken` plus an ending
    majority = whole // 2 + 1
    rungs = []
    if t1 == 0:
        rungs.append(Rung(6, "tout", 0, Streak(0, left, needs=(whole, whole))))
    status, need = run0
    if status == "achieved":
        rungs.append(Rung(5, "win", 0, ALWAYS, "win for the first"))
    elif status == "alive":
        rungs.append(Rung(5, "win", 0, Streak(0, need, needs=(majority, whole)), "win for the first"))
    rungs.append(Rung(4, "win", 0, AtLeast(majority)))
    rungs.append(Rung(3, "bock", None, AtLeast(whole - majority + 1)))
    status, need = run1
    if status == "alive":
        rungs.append(Rung(2, "win", 1, Streak(1, need, negate=True, needs=(0, whole - majority))))
    elif status == "dead":
        rungs.append(Rung(2, "win", 1, ALWAYS))
    rungs.append(Rung(1, "win", 1, Streak(1, left, negate=True, needs=(0, 0)) if t0 == 0 else ALWAYS,
                      "win for the first"))
    rungs.append(Rung(0, "tout", 1, ALWAYS))
    return tuple(rungs)


VIEW = View(other_hands=False, face_down=False, stock=False,
            why="each player sees only his own hand, not even his partner's (our reading: "
                "rules.md §1 has no open hand); "
                "a failure to follow shows a void in the suit led (and with must_trump, "
                "no trump)")


def matadors_rows(deal: DealFacts) -> list[list]:
    """Who holds matadors under each possible trump (a property of the deal): one row per suit."""
    rows = []
    for suit in SUITS:
        side, count, cards = matadors(deal.hands, suit)
        rows.append([suit_name(suit, deal.notation), "-" if side is None else _sides_text(side, deal.players),
                     count or "-", " ".join(c.text(deal.notation) for c in cards)])
    return rows


def report_sections(deal: DealFacts) -> list[tuple[str, list[str], list[list]]]:
    return [("Matadors (the deal as given, for each trump)", ["trump", "held by", "matadors", "cards"],
             matadors_rows(deal))]


GOALS = {"win": WIN, "first": GoalWord("level", levels=("tout",), texts=("win for the first",)),
         "tout": EVERY_TRICK, "schwarz": EVERY_TRICK}

GAME = Game(name="scharwenzel", title="Scharwenzel", default_notation=FRENCH, layout=LAYOUT,
            options=OPTIONS, build=build, seat_counts=PLAYERS, outcome=outcome, ladder=ladder,
            search={"driver": "mtdf", "first": "greedy"}, view=VIEW,
            trump_rule=NAMED, declarer=True, all_pass_trump=CLUBS, goals=GOALS,
            report_sections=report_sections)

"""Scharwenzel (Fehmarn): 4, 6 or 8 players in two sides, tricks count.

Trumps, high to low: ♣Q (Spadille), T7 (Manille), ♠Q (Basta), the four Jacks, then TA TK
(TQ if T is red) T10 T9 T8 (T6 with 36 cards).  Plain suits: A K Q 10 9 8 7 (6) without the
Jacks, and ♣/♠ without their Queen; option ``plain_order`` = A10KQ puts the ten under the Ace.
"""

from __future__ import annotations

from ..cards import (ACE, CLUBS, DIAMONDS, EIGHT, HEARTS, JACK, KING, NINE, QUEEN, SEVEN, SIX,
                     SPADES, SUITS, TEN, Card, FRENCH)
from .base import FollowRule, Game, Option, RuleSet

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


def build(trump: int, options: dict, players: int = 4) -> RuleSet:
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
        game="scharwenzel", unit="tricks", seats=players, layout="hands", deck=deck,
        trump=trump, trumps=trumps, plain=plain, values={c: 0 for c in deck},
        follow=FollowRule(follow_suit=True, must_trump=options["must_trump"]),
        trick_bonus=1, options=dict(options))


GAME = Game(name="scharwenzel", title="Scharwenzel", default_notation=FRENCH, layout="hands",
            options=OPTIONS, build=build, seat_counts=PLAYERS)

"""Two-handed Wendish Schafkopf: two players, eight piles each, card points count.

``trump_mode = schellen``: EO GO RO SO EU GU RU SU, then Schellen A 10 K 9 8 7 (14 trumps);
Eichel, Grün, Rot: A 10 K 9 8 7.  ``trump_mode = card17``: the suit T of the 17th card dealt
(forehand's first face-up card): EO, T7, GO, the four Unter, TA T10 TK (TO if T is Rot or
Schellen) T9 T8; plain suits A 10 K O 9 8 7 without their trumps.
"""

from __future__ import annotations

from ..cards import (ACE, CLUBS, DIAMONDS, EIGHT, GERMAN, HEARTS, JACK, KING, NINE, QUEEN,
                     SEVEN, SPADES, SUITS, TEN, Card)
from .base import FollowRule, Game, Option, RuleSet

OPTIONS = (
    Option("trump_mode", "schellen",
           "schellen: Ober, Unter and Schellen are trump; card17: the suit of the 17th card "
           "dealt (forehand's first face-up card) is trump, with der Alte, Spitze and Baste",
           "rules.md §2 (old German rule text; Wikipedia 'Wendish Schafkopf', 'Officers' Schafkopf')",
           ("schellen", "card17")),
    Option("must_beat", False,
           "a follower must beat the card led if he can (after following suit or trumping)",
           "rules.md §2 (no duty to beat in the old rule text)"),
    Option("schneider_at", 30,
           "the loser is Schneider with this many card points or fewer: 30 or 29",
           "rules.md §2 (30 in the old rule text; 29 as in Skat)", (30, 29)),
    Option("mariage", False,
           "Mariage variant: trump by the 17th card, 66 wins, last trick 10, marriages 20/40, "
           "Wäsche 20", "rules.md §2"),
)

VALUES = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2}
PACK = tuple(Card(s, r) for s in SUITS for r in (ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN))


def trump_order(mode: str, trump: int) -> tuple[Card, ...]:
    if mode == "schellen":
        return tuple([Card(s, QUEEN) for s in SUITS] + [Card(s, JACK) for s in SUITS]
                     + [Card(DIAMONDS, r) for r in (ACE, TEN, KING, NINE, EIGHT, SEVEN)])
    order = [Card(CLUBS, QUEEN), Card(trump, SEVEN), Card(SPADES, QUEEN)]
    order += [Card(s, JACK) for s in SUITS]
    order += [Card(trump, ACE), Card(trump, TEN), Card(trump, KING)]
    if trump in (HEARTS, DIAMONDS):
        order.append(Card(trump, QUEEN))
    order += [Card(trump, NINE), Card(trump, EIGHT)]
    return tuple(order)


def build(trump: int | None, options: dict, players: int = 2) -> RuleSet:
    mode = "card17" if options["mariage"] else options["trump_mode"]
    trump_suit = DIAMONDS if mode == "schellen" else trump
    trumps = trump_order(mode, trump_suit)
    plain = {}
    for suit in SUITS:
        if suit != trump_suit:
            plain[suit] = tuple(Card(suit, r) for r in (ACE, TEN, KING, QUEEN, NINE, EIGHT, SEVEN)
                                if Card(suit, r) not in trumps)
    return RuleSet(
        game="schafkopf2", unit="points", seats=2, layout="piles", deck=PACK,
        trump=trump_suit, trumps=trumps, plain=plain,
        values={c: VALUES.get(c.rank, 0) for c in PACK},
        follow=FollowRule(follow_suit=True, must_trump=True, must_beat=options["must_beat"]),
        last_trick_bonus=10 if options["mariage"] else 0, options=dict(options))


GAME = Game(name="schafkopf2", title="Two-handed Wendish Schafkopf", default_notation=GERMAN,
            layout="piles", options=OPTIONS, build=build)

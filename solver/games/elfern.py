"""Elfern: two players, no trumps, trick-and-draw from a stock, honours count.

Each suit runs A K Q J 10 9 8 7; the honours A K Q J 10 are worth one each (20 in the pack).
While the stock lasts a player may play any card; the winner of a trick draws first.  Once the
stock is empty a player must follow suit (``must_head``: and beat the card led if he can).
"""

from __future__ import annotations

from ..cards import ACE, EIGHT, FRENCH, JACK, KING, NINE, QUEEN, SEVEN, SUITS, TEN, Card
from .base import FREE, FollowRule, Game, Option, RuleSet

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
PACK = tuple(Card(s, r) for s in SUITS for r in ORDER)


def build(trump: int | None, options: dict, players: int = 2) -> RuleSet:
    return RuleSet(
        game="elfern", unit="honours", seats=2, layout="stock", deck=PACK,
        trump=None, trumps=(), plain={s: tuple(Card(s, r) for r in ORDER) for s in SUITS},
        values={c: 1 if c.rank in HONOURS else 0 for c in PACK},
        follow=FollowRule(follow_suit=True, must_trump=False, must_beat=options["must_head"]),
        stock_follow=FREE, options=dict(options))


GAME = Game(name="elfern", title="Elfern", default_notation=FRENCH, layout="stock",
            options=OPTIONS, build=build)

"""Random deals, seeded and reproducible: the same (game, seed, options) always gives the same deal.

Dealing follows the games: Scharwenzel deals the whole pack round the table; two-handed
Schafkopf deals 16 face-down cards first (8 per player), then 16 face-up ones, so the 17th
card dealt lies face up on forehand's first pile; Elfern gives six cards each and leaves a
stock of twenty.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from .cards import FRENCH, SUITS
from .deal import Deal, Pile, loads
from .games import GAMES


def random_deal(game: str, seed: int, *, players: int = 4, trump: int | None = None,
                rules: dict[str, Any] | None = None, notation: str | None = None) -> Deal:
    """A whole deal of ``game`` from ``seed``.  ``trump`` None picks one at random where the
    game needs one (Scharwenzel; Schafkopf2 in card17 mode takes the 17th card)."""
    rng = random.Random(f"{game}:{seed}:{players}")
    spec = GAMES[game]
    rules = dict(rules or {})
    options = spec.resolve_options(rules)
    notation = notation or spec.default_notation
    if game == "scharwenzel":
        trump = rng.choice(SUITS) if trump is None else trump
        deck = list(spec.build(trump, options, players).deck)
        rng.shuffle(deck)
        size = len(deck) // players
        hands = {s + 1: tuple(deck[s * size:(s + 1) * size]) for s in range(players)}
        deal = Deal(game=game, notation=notation, players=players, leader=1, hands=hands,
                    trump=trump, rules=rules)
    elif game == "schafkopf2":
        deck = list(spec.build(3, options).deck)
        rng.shuffle(deck)
        piles = {1: tuple(Pile(deck[16 + i], deck[i]) for i in range(8)),
                 2: tuple(Pile(deck[24 + i], deck[8 + i]) for i in range(8))}
        deal = Deal(game=game, notation=notation, players=2, leader=1, piles=piles,
                    trump=trump, rules=rules)
    elif game == "elfern":
        deck = list(spec.build(None, options).deck)
        rng.shuffle(deck)
        deal = Deal(game=game, notation=notation or FRENCH, players=2, leader=1,
                    hands={1: tuple(deck[:6]), 2: tuple(deck[6:12])}, stock=tuple(deck[12:]),
                    rules=rules)
    else:
        raise ValueError(f"unknown game {game!r}")
    return loads(deal.dump(), f"<{game} seed {seed}>")


def with_source(deal: Deal, source: str) -> Deal:
    return replace(deal, source=source)

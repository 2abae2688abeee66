"""The move ordering's rule for piles: within what a follow does to the trick, a card lying on a
face-down pile card is tried before one that does not (playing it turns that card up).

The order is read from the engine as the search would try the moves with a cleared history
and no stored card (``Engine.fixed_order``, ``classes(ordered=True)``); what a follow does to
the trick is found by playing it (does its seat lead the next trick?), not by the ordering's
own tables.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from stich.core.tables import compile_position
from stich.deals.dealing import random_deal
from stich.search.session import Session
from stich.search.solve import new_engine

SEEDS = 200


@cache                      # read by both tests below
def follows_in_order(seed: int):
    """A Schafkopf2 deal played at random to a follow: each legal follow's class in search
    order, with (its value, whether it takes the trick, whether it lies on a pile card)."""
    deal = random_deal("schafkopf2", seed, players=2)
    position = deal.position()
    tables = compile_position(position)
    engine = new_engine(1)
    Session(deal, position, engine)
    engine.fixed_order = True
    rng = random.Random(seed)
    for _ in range(2 * rng.randrange(6)):            # whole tricks, then one lead
        engine.push(rng.choice(engine.legal()))
    engine.push(rng.choice(engine.legal()))
    follower = engine.to_move
    rows = []
    for group in engine.classes(ordered=True):
        card = group[0]
        engine.push(card)
        takes = engine.to_move == follower
        engine.pop()
        rows.append((tables.value[card], takes, tables.under[card] >= 0))
    return rows


@pytest.mark.parametrize("seed", range(SEEDS))
def test_a_follow_on_a_pile_card_comes_before_its_like(seed):
    rows = follows_in_order(seed)
    for i, (value, takes, on_pile) in enumerate(rows):
        for later_value, later_takes, later_on_pile in rows[i + 1:]:
            if (value, takes) == (later_value, later_takes):
                assert on_pile or not later_on_pile, rows


def test_the_rule_is_exercised():
    """Enough of the seeds above compare a follow on a pile card with its like in hand."""
    compared = 0
    for seed in range(SEEDS):
        rows = follows_in_order(seed)
        kinds = {(v, t): set() for v, t, _ in rows}
        for v, t, p in rows:
            kinds[(v, t)].add(p)
        compared += sum(1 for piles in kinds.values() if piles == {True, False})
    assert compared >= 20

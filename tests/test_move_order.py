"""Two rules of the move ordering.  Piles: within what a follow does to the trick, a card lying
on a face-down pile card is tried before one that does not (playing it turns that card up).
Forcing: of two leads that lose the trick alike, the one the other side must win with the
higher card of a plain suit is tried first.

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


def played_to_a_lead(game: str, seed: int):
    """A two-handed deal played at random through whole tricks: its tables and an engine at
    the next lead, ordering as from a cleared history with no stored card."""
    deal = random_deal(game, seed, players=2)
    position = deal.position()
    tables = compile_position(position)
    engine = new_engine(1)
    Session(deal, position, engine)
    engine.fixed_order = True
    rng = random.Random(seed)
    for _ in range(2 * rng.randrange(6)):
        engine.push(rng.choice(engine.legal()))
    return tables, engine, rng


@cache                      # read by both tests below
def follows_in_order(seed: int):
    """A Schafkopf2 deal played at random to a follow: each legal follow's class in search
    order, with (its value, whether it takes the trick, whether it lies on a pile card)."""
    tables, engine, rng = played_to_a_lead("schafkopf2", seed)
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


def rank_in_suit(tables, card: int) -> int:
    """The card's place in its suit, lowest 0 (the tables number a suit's cards low to high)."""
    mask = tables.suit_mask[tables.suit[card]]
    return card - ((mask & -mask).bit_length() - 1)


@cache
def leads_in_order(game: str, seed: int):
    """A two-handed deal played at random to a lead: each legal lead's class in search order,
    with (its value, whether it lies on a pile card, and if the other hand can take the trick
    with a plain card as its cheapest: the points of the trick and that card's rank)."""
    tables, engine, _ = played_to_a_lead(game, seed)
    leader = engine.to_move
    rows = []
    for group in engine.classes(ordered=True):
        card = group[0]
        engine.push(card)
        takers = []
        for reply in engine.legal():
            engine.push(reply)
            if engine.to_move != leader:
                takers.append((tables.value[reply], rank_in_suit(tables, reply), reply))
            engine.pop()
        engine.pop()
        on_pile = bool(tables.under) and tables.under[card] >= 0
        cheapest = min(takers) if takers else None
        if cheapest is not None and not (tables.trump_mask >> cheapest[2]) & 1:
            value, rank, _ = cheapest
            rows.append((tables.value[card], on_pile, tables.value[card] + value, rank))
        else:
            rows.append((tables.value[card], on_pile, None, None))
    return rows


LEAD_SEEDS = 2000           # a Schafkopf2 hand's cheapest card that takes a lead is mostly a trump


def forcing_violations(game: str) -> tuple[list, int]:
    """The pairs of losing leads alike (value, pile, points) whose plain winners come in the
    wrong order, and how many pairs with different winners' ranks were compared."""
    wrong, compared = [], 0
    for seed in range(LEAD_SEEDS):
        rows = leads_in_order(game, seed)
        for i, (value, on_pile, points, rank) in enumerate(rows):
            for later_value, later_on_pile, later_points, later_rank in rows[i + 1:]:
                if points is not None and (value, on_pile, points) == (later_value, later_on_pile,
                                                                        later_points):
                    compared += rank != later_rank
                    if rank < later_rank:
                        wrong.append((seed, rows))
    return wrong, compared


@pytest.mark.parametrize("game", ["schafkopf2", "elfern"])
def test_a_lead_that_draws_a_higher_plain_card_comes_first(game):
    wrong, compared = forcing_violations(game)
    assert not wrong, wrong[:3]
    assert compared >= 20, "too few leads compared for the rule to be tested"


def order_after_a_search(game: str, players: int, seed: int) -> tuple[list, list]:
    """At a follow after a value search from the trick's start: the order the search would try
    the follows in (``classes(ordered=True)``), and the order from a cleared history.  No card
    is stored for a follow, so the two differ only by the history of cut-offs."""
    deal = random_deal(game, seed, players=players)
    engine = new_engine(1)
    Session(deal, deal.position(), engine)
    engine.push(engine.legal()[0])
    engine.value()
    learnt = engine.classes(ordered=True)
    engine.fixed_order = True
    return learnt, engine.classes(ordered=True)


def test_with_two_seats_no_history_of_cut_offs_orders_the_moves():
    for game in ("schafkopf2", "elfern"):
        for seed in range(20):
            learnt, fixed = order_after_a_search(game, 2, seed)
            assert learnt == fixed, (game, seed)


def test_with_four_seats_the_history_of_cut_offs_orders_the_moves():
    """The comparison above can tell: with four seats a search's history reorders some follows."""
    assert any(learnt != fixed for learnt, fixed in
               (order_after_a_search("scharwenzel", 4, seed) for seed in range(20)))

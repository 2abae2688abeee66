"""Rules of the move ordering.  Piles: within what a follow does to the trick, a card lying
on a face-down pile card is tried before one that does not (playing it turns that card up).
Forcing: of two leads that lose the trick alike, the one the other side must win with the
higher card of a plain suit is tried first.  Sure winners last: with two seats, of two cards
that win the trick alike, the one some card still out could beat is tried first, and while a
stock lasts one a card could beat before the next trick before one only cards deeper in the
stock could.  With partners: the last seat throws to its partner's trick, lowest first.

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

SEEDS = 300
TAKE_SEEDS = 1500


def played_to_a_lead(game: str, seed: int, players: int = 2):
    """A deal played at random through whole tricks: its tables and an engine at the next
    lead, ordering as from a cleared history with no stored card, and the cards played."""
    deal = random_deal(game, seed, players=players)
    position = deal.position()
    tables = compile_position(position)
    engine = new_engine(1)
    Session(deal, position, engine)
    engine.fixed_order = True
    rng = random.Random(seed)
    played = []
    for _ in range(players * rng.randrange(6)):
        played.append(rng.choice(engine.legal()))
        engine.push(played[-1])
    return tables, engine, rng, played


def beats(tables, y: int, x: int) -> bool:
    """Whether ``y`` beats ``x`` winning a trick: higher in its suit, or a trump on a plain
    card (the tables number a suit's cards low to high)."""
    if tables.suit[y] == tables.suit[x]:
        return y > x
    return tables.trump >= 0 and tables.suit[y] == tables.trump


def beaten_by_a_card_out(tables, card: int, out: set) -> bool:
    """Whether some card still out (not played, not the mover's) could beat ``card``."""
    return any(beats(tables, y, card) for y in out)


def cards_of(mask: int) -> set:
    return {x for x in range(mask.bit_length()) if mask >> x & 1}


def cards_in_play(tables, played) -> set:
    dealt = set().union(*(cards_of(hand) for hand in tables.hand)) | set(tables.stock)
    return dealt - set(played)


@cache                      # read by both tests below
def follows_in_order(seed: int):
    """A Schafkopf2 deal played at random to a follow: each legal follow's class in search
    order, with (its value, whether it takes the trick, whether it takes it with a card no card
    still out could beat, whether it lies on a pile card, its rank in its suit)."""
    tables, engine, rng, played = played_to_a_lead("schafkopf2", seed)
    played.append(rng.choice(engine.legal()))
    engine.push(played[-1])
    follower = engine.to_move
    out = cards_in_play(tables, played) - cards_of(tables.hand[follower])
    rows = []
    for group in engine.classes(ordered=True):
        card = group[0]
        engine.push(card)
        takes = engine.to_move == follower
        engine.pop()
        sure = takes and not beaten_by_a_card_out(tables, card, out)
        rows.append((tables.value[card], takes, sure, tables.under[card] >= 0,
                     rank_in_suit(tables, card)))
    return rows


@pytest.mark.parametrize("seed", range(SEEDS))
def test_a_follow_on_a_pile_card_comes_before_its_like(seed):
    rows = follows_in_order(seed)
    for i, (*kind, on_pile, _) in enumerate(rows):
        for *later_kind, later_on_pile, _ in rows[i + 1:]:
            if kind == later_kind:
                assert on_pile or not later_on_pile, rows


def test_the_rule_is_exercised():
    """Enough of the seeds above compare a follow on a pile card with its like in hand."""
    compared = 0
    for seed in range(SEEDS):
        rows = follows_in_order(seed)
        kinds = {(v, t, u): set() for v, t, u, _, _ in rows}
        for v, t, u, p, _ in rows:
            kinds[(v, t, u)].add(p)
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
    tables, engine, _, _ = played_to_a_lead(game, seed)
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


def winning_leads(tables, engine):
    """Each legal lead's class in search order that no reply takes (the leader leads the next
    trick whatever the other hand plays), with the other hand's cheapest reply."""
    leader = engine.to_move
    for group in engine.classes(ordered=True):
        card = group[0]
        engine.push(card)
        replies = engine.legal()
        takes = False
        for reply in replies:
            engine.push(reply)
            takes |= engine.to_move != leader
            engine.pop()
        engine.pop()
        if not takes:
            yield card, min(replies, key=lambda y: (tables.value[y], rank_in_suit(tables, y)))


@cache
def winning_leads_in_order(game: str, seed: int):
    """A two-handed deal played at random to a lead: each legal lead that no reply takes, in
    search order, with (its value, whether it lies on a pile card, the points of the trick
    with the other hand's cheapest reply, whether some card still out could beat it, its rank
    in its suit)."""
    tables, engine, _, played = played_to_a_lead(game, seed)
    leader = engine.to_move
    leads = engine.legal()      # at a lead every card held and not face down
    hand = cards_of(tables.hand[leader]) - set(played) | set(leads)
    out = cards_in_play(tables, played) - hand
    rows = []
    for card, cheapest in winning_leads(tables, engine):
        on_pile = bool(tables.under) and tables.under[card] >= 0
        rows.append((tables.value[card], on_pile, tables.value[card] + tables.value[cheapest],
                     beaten_by_a_card_out(tables, card, out), rank_in_suit(tables, card)))
    return rows


def test_a_winning_lead_some_card_out_could_beat_comes_before_a_sure_winner():
    """Elfern: of two winning leads alike, the sure one of lower rank is tried last.  (In
    Schafkopf2 two winning leads alike are all but never ordered otherwise by rank alone.)"""
    wrong, compared = [], 0
    for seed in range(LEAD_SEEDS):
        rows = winning_leads_in_order("elfern", seed)
        for i, (*kind, beatable, rank) in enumerate(rows):
            for *later_kind, later_beatable, later_rank in rows[i + 1:]:
                # only pairs the lower-card-first tie-break alone would order the other way
                if kind != later_kind or beatable == later_beatable:
                    continue
                sure_rank, beatable_rank = (later_rank, rank) if beatable else (rank, later_rank)
                if sure_rank < beatable_rank:
                    compared += 1
                    if later_beatable:
                        wrong.append((seed, rows))
    assert not wrong, wrong[:3]
    assert compared >= 20, "too few winning leads compared for the rule to be tested"


def test_a_take_some_card_out_could_beat_comes_before_a_sure_one():
    """Schafkopf2: a take with a card no card still out could beat counts 8 points less, so of
    two takes the one that could be beaten comes first unless it is worth 7 points less."""
    wrong, compared = [], 0
    for seed in range(TAKE_SEEDS):     # a Schafkopf2 follow seldom has two takes alike
        rows = follows_in_order(seed)
        for i, (value, takes, sure, on_pile, rank) in enumerate(rows):
            for later_value, later_takes, later_sure, later_on_pile, later_rank in rows[i + 1:]:
                if not (takes and later_takes and sure != later_sure and on_pile == later_on_pile):
                    continue
                sure_card, beatable_card = ((value, -rank), (later_value, -later_rank)) if sure else (
                    (later_value, -later_rank), (value, -rank))
                # pairs the value then the lower card alone would order the other way
                if beatable_card < sure_card and sure_card[0] - beatable_card[0] <= 6:
                    compared += 1
                    if sure:
                        wrong.append((seed, rows))
    assert not wrong, wrong[:3]
    assert compared >= 20, "too few takes compared for the rule to be tested"


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


def last_seats_over_a_partner(seed: int):
    """A four-hand Scharwenzel deal played at random to the last card of a trick its partner
    wins so far: the first legal card tried, and for each legal card (whether a card the
    other side holds could beat it, its rank in its suit, whether it overtakes the partner)."""
    tables, engine, rng, played = played_to_a_lead("scharwenzel", seed, players=4)
    for _ in range(3):
        played.append(rng.choice(engine.legal()))
        engine.push(played[-1])
    trick = played[-3:]
    winner = 0
    for k in (1, 2):
        if beats(tables, trick[k], trick[winner]):
            winner = k
    if winner != 1:                     # the last seat's partner played the trick's second card
        return None
    seat = engine.to_move
    other = set().union(*(cards_of(tables.hand[s]) for s in range(4) if s % 2 != seat % 2))
    other -= set(played)
    rows = {x: (beaten_by_a_card_out(tables, x, other) is False, rank_in_suit(tables, x),
                beats(tables, x, trick[winner])) for x in engine.legal()}
    return engine.classes(ordered=True)[0][0], rows


def test_the_last_seat_throws_to_its_partners_trick():
    """Four-hand Scharwenzel, the last card of a trick the partner wins so far: the trick is
    the side's whatever is played, so the card tried first is the lowest (a card no card of
    the other side could beat kept for last), whether it overtakes the partner or not."""
    deal = random_deal("scharwenzel", 1, players=4)
    assert not any(compile_position(deal.position()).value)     # counted in tricks alone
    wrong, overtakes = [], 0
    for seed in range(SEEDS):
        found = last_seats_over_a_partner(seed)
        if found is None:
            continue
        first, rows = found
        best = min(row[:2] for row in rows.values())
        overtakes += any(row[2] for row in rows.values()) and len(rows) > 1
        if rows[first][:2] != best:
            wrong.append((seed, first, rows))
    assert overtakes > 20, "too few positions where the last seat could overtake its partner"
    assert not wrong, wrong[:3]


@cache
def elfern_winning_leads_by_draw(seed: int):
    """An Elfern deal played at random through whole tricks to a lead while the stock lasts:
    each legal lead no reply takes, in search order, with (its value, the points of the
    trick with the other hand's cheapest reply, whether a card could beat it before the
    next trick, whether only cards deeper in the stock could, its rank in its suit).  Each
    trick draws two stock cards; a lead that wins leaves the second to the other hand."""
    tables, engine, _, played = played_to_a_lead("elfern", seed)
    drawn = len(played)                 # two a trick, one for each hand
    if drawn + 2 > len(tables.stock):
        return []
    hand = set(engine.legal())          # at a lead every card held
    deep = set(tables.stock[drawn:]) - {tables.stock[drawn + 1]}
    out = cards_in_play(tables, played) - hand
    rows = []
    for card, cheapest in winning_leads(tables, engine):
        near = beaten_by_a_card_out(tables, card, out - deep)
        rows.append((tables.value[card], tables.value[card] + tables.value[cheapest], near,
                     not near and beaten_by_a_card_out(tables, card, out),
                     rank_in_suit(tables, card)))
    return rows


def test_a_winning_lead_beaten_before_the_next_trick_comes_before_one_beaten_only_later():
    """Elfern while the stock lasts: of two winning leads alike, the one a card could beat
    before the next trick (in the other hand or its next draw) is tried before the one only
    cards deeper in the stock could beat, even where the latter is the lower card."""
    wrong, compared = [], 0
    for seed in range(SEEDS):
        rows = elfern_winning_leads_by_draw(seed)
        for i, early in enumerate(rows):
            for later in rows[i + 1:]:
                if early[:2] != later[:2] or early[4] == later[4]:
                    continue
                # only pairs the lower card first would put the other way
                if later[2] and early[3] and early[4] < later[4]:
                    wrong.append((seed, early, later))
                elif early[2] and later[3] and early[4] > later[4]:
                    compared += 1
    assert compared + len(wrong) >= 5, "too few pairs of such leads"
    assert not wrong, wrong[:3]


def _searched(game: str, players: int, seed: int, killer: bool) -> tuple[list[int], int]:
    """The value of a whole deal and after each legal first card, with the killer lead on or
    off; and the nodes all of that took."""
    deal = random_deal(game, seed, players=players)
    engine = new_engine(4)
    engine.switches(killer=killer)
    Session(deal, deal.position(), engine)
    values = [engine.value()]
    for move in engine.legal():
        gain = engine.push(move)
        values.append(gain + engine.value())
        engine.pop()
    return values, engine.nodes


@pytest.mark.parametrize("players", [4, 6])
def test_the_killer_lead_changes_the_nodes_not_the_values(players):
    """With partners, where tricks alone count, the lead that last cut with as many tricks
    left is tried first: another order, so other nodes, and the same values."""
    differ = 0
    for seed in range(12):
        on, nodes_on = _searched("scharwenzel", players, seed, True)
        off, nodes_off = _searched("scharwenzel", players, seed, False)
        assert on == off, seed
        differ += nodes_on != nodes_off
    assert differ > 0


@pytest.mark.parametrize("game,players", [("schafkopf2", 2), ("elfern", 2), ("einwerfen", 4)])
def test_no_killer_lead_with_two_seats_or_card_points(game, players):
    """With two seats, or where cards are worth points, the look-ahead's lead comes first (a
    killer took more nodes there): the same search with the killer switched on or off."""
    for seed in range(3):
        assert _searched(game, players, seed, True) == _searched(game, players, seed, False), seed

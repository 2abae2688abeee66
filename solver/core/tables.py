"""A rule set and a position compiled into the flat arrays the search core reads.

Card indices are chosen so that every effective suit is one contiguous run of bits in rank
order, lowest first.  Then "higher in the same suit" is a bit comparison, the cards between two
cards are a mask, and the core needs no notion of games, suits by name or notations.  This
module is the only place that knows both the card objects and the bit numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import NamedTuple

from stich.model.cards import Card
from stich.model.position import Position
from stich.model.rules import NEXT_HIGHER, FollowRule, RuleSet

MAX_CARDS = 64


@dataclass
class Tables:
    """Static game data plus the dynamic state of one position, as plain ints and lists."""

    cards: list[Card]                     # bit index -> card
    index: dict[Card, int]                # card -> bit index
    seats: int
    side: list[int]
    suit: list[int]                       # effective suit 0..3 per index
    value: list[int]
    under: list[int]                      # card beneath in its pile (-1: none)
    suit_mask: list[int]
    trump: int                            # effective suit of trumps, -1: none
    trump_mask: int
    rule_main: tuple[int, int, int]       # follow_suit, must_trump, must_beat
    rule_stock: tuple[int, int, int]
    trick_bonus: int
    last_bonus: int
    stock_layout: bool
    # dynamic state
    hand: list[int] = field(default_factory=list)
    playable: list[int] = field(default_factory=list)
    stock: list[int] = field(default_factory=list)
    leader: int = 0
    trick: list[int] = field(default_factory=list)
    nomerge: int = 0
    beat_by: list[int] = field(default_factory=list)   # per card, its beaters (RuleSet.beat)
    pairs: list[tuple[int, int, int]] = field(default_factory=list)   # the pair bonus
    run: tuple[int, int] = (0, 0)                                       # the run bonus
    goal: list[list[int]] | None = None    # final payoff to side 0 (objective.pxi)
    goal_points: int = 0                   # side 0's trick points so far, for the goal
    tag: int = 0

    def as_dict(self) -> dict:
        """What ``Engine.setup`` reads: every field but the cards."""
        return dict(zip(_CORE_FIELDS, _core_values(self)))


_CORE_FIELDS = ("seats", "side", "suit", "value", "under", "suit_mask", "trump", "trump_mask",
                "rule_main", "rule_stock", "trick_bonus", "last_bonus", "stock_layout", "hand",
                "playable", "stock", "leader", "trick", "nomerge", "beat_by", "pairs", "run", "goal",
                "goal_points", "tag")
_core_values = attrgetter(*_CORE_FIELDS)


def _rule(rule: FollowRule) -> tuple[int, int, int]:
    return (int(rule.follow_suit), int(rule.must_trump), int(rule.must_beat))


def card_order(rules: RuleSet) -> list[Card]:
    """Every card of the pack, suit by effective suit, each suit from its lowest card up."""
    order: list[Card] = []
    for suit in range(4):
        run = rules.trumps if suit == rules.trump else rules.plain.get(suit, ())
        order += list(reversed(run))
    if len(order) > MAX_CARDS:  # a game module bug
        raise AssertionError("too many cards for 64-bit masks")
    return order


class _Pack(NamedTuple):
    """What the rules alone decide: the card order and the per-card arrays."""

    cards: tuple[Card, ...]               # ``card_order``
    bit_index: dict[Card, int]            # card -> its index
    bit: dict[Card, int]                  # card -> 1 << its index
    suit: list[int]
    value: list[int]
    suit_mask: list[int]
    beat_by: list[int]
    nomerge: int


_PACKS: dict[tuple, _Pack] = {}
_MAX_PACKS = 256


def _pack(rules: RuleSet) -> _Pack:
    """The rules' ``_Pack``, made once for every deal with the same pack, suits, values
    and beat rule (each deal builds its own ``RuleSet``, so they are looked up by what
    they hold); the caller copies the lists it hands on."""
    key = (rules.trump, rules.trumps, tuple(rules.plain.items()), tuple(rules.values.items()),
           rules.beat)
    pack = _PACKS.get(key)
    if pack is None:
        if len(_PACKS) >= _MAX_PACKS:
            _PACKS.clear()
        pack = _PACKS[key] = _make_pack(rules)
    return pack


def _make_pack(rules: RuleSet) -> _Pack:
    cards = card_order(rules)
    index = {card: i for i, card in enumerate(cards)}
    suit = [0] * MAX_CARDS
    value = [0] * MAX_CARDS
    suit_mask = [0, 0, 0, 0]
    for card, i in index.items():
        s = rules.effective_suit[card]
        suit[i] = s
        value[i] = rules.values[card]
        suit_mask[s] |= 1 << i
    beat_by = [0] * MAX_CARDS
    if rules.beat == NEXT_HIGHER:       # each card is beaten only by the next higher of its suit
        for card, i in index.items():
            higher = cards[i + 1] if i + 1 < len(cards) else None
            if higher is not None and rules.effective_suit[higher] == rules.effective_suit[card]:
                beat_by[i] = 1 << (i + 1)
    # with a beat table neighbours are not equivalent: no merging, no canonical keys
    nomerge = (1 << len(cards)) - 1 if rules.beat == NEXT_HIGHER else 0
    return _Pack(tuple(cards), index, {card: 1 << i for card, i in index.items()}, suit, value,
                 suit_mask, beat_by if rules.beat == NEXT_HIGHER else [], nomerge)


def compile_position(position: Position) -> Tables:
    """Flatten ``position`` (any point of play, mid-trick included) for the core."""
    rules = position.rules
    pack = _pack(rules)
    index, bit = pack.bit_index, pack.bit.__getitem__
    n = rules.seats
    under = [-1] * MAX_CARDS
    hand, playable = [], []
    for seat in range(n):
        hand.append(sum(map(bit, position.held(seat))))
        playable.append(sum(map(bit, position.playable(seat))))
        for pile in position.piles[seat]:           # empty unless the layout has piles
            for below, above in zip(pile, pile[1:]):
                under[index[above]] = index[below]
    trump = rules.trump if rules.trump is not None else -1
    suit_mask = list(pack.suit_mask)
    tables = Tables(
        cards=list(pack.cards), index=dict(index), seats=n, side=[rules.side(s) for s in range(n)],
        suit=list(pack.suit), value=list(pack.value), under=under, suit_mask=suit_mask, trump=trump,
        trump_mask=suit_mask[trump] if trump >= 0 else 0,
        rule_main=_rule(rules.follow), rule_stock=_rule(rules.stock_follow),
        trick_bonus=rules.trick_bonus, last_bonus=rules.last_trick_bonus,
        stock_layout=rules.layout.draws,
        hand=hand, playable=playable, stock=[index[c] for c in position.stock],
        leader=position.leader, trick=[index[c] for c in position.trick],
        pairs=[(index[a], index[b], worth) for a, b, worth in rules.pairs],
        run=rules.run_bonus, goal=goal_table(position), goal_points=position.points[0],
        beat_by=list(pack.beat_by), nomerge=pack.nomerge, tag=position.history_tag())
    return tables


GOAL_POINTS = 256      # the core's table runs over side 0's final points 0..255


def goal_table(position: Position) -> list[list[int]] | None:
    """``rules.final_payoff`` as the core's table: row w (bit 0: side 0 won a trick, bit 1:
    side 1 did), column side 0's final trick points; side 1 has the rest of the total."""
    payoff = position.rules.final_payoff
    if payoff is None or position.rules.bonus_in_points:
        return None
    rules = position.rules
    total = sum(position.points) + sum(rules.values[c] for c in position.in_play()) \
        + rules.trick_bonus * position.tricks_left() + (rules.last_trick_bonus if position.tricks_left() else 0)
    return [[payoff(p0, total - p0, bool(w & 1), bool(w & 2)) for p0 in range(GOAL_POINTS)]
            for w in range(4)]

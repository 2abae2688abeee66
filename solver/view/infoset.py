"""A seat's information set: what it sees, what play revealed, and the hidden layouts left.

The hidden cards are those of the position (after ``play``) that the seat cannot see by its
game's ``View``: the other hands, face-down pile cards, the stock.  Each hidden card sits in
a *slot* of the deal's start layout (a hand place, the face-down card of a pile, a stock
place) and ends, after the play, in a *region* of the position: a hand (a set), one
face-down pile card, one stock place.  A hidden layout gives every region its cards.

What play revealed is read from the follow rules, never from the game's name: when a seat
played a card while a hidden slot lay in its hand, every hidden card that would have made
that card illegal there is ruled out of that slot (a void, no trump, nothing that beats).
A follow rule's allowed set decides pairwise (a card is illegal in a hand exactly when it is
illegal beside one of the hand's cards), so these single-card exclusions are exact; every
layout built is also replayed through the referee as a check.  Cards a seat drew are in its
hand, so it sees them; a face-down card that turned up is face up, so both see it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import factorial

from stich.deals.deal import Deal, DealError, loads
from stich.games.layouts import Region, Slot
from stich.model.cards import Card
from stich.model.position import Position


@dataclass(frozen=True)
class InfoSet:
    """The information of ``seat`` (1-based) at the position of ``deal``.

    ``deal`` is one filling of the hidden slots (any; it need not be consistent with play),
    ``pool`` the hidden cards, ``regions`` each region with its start slots, ``allowed`` the
    pool cards each region may hold, ``classes`` regions with equal ``allowed`` grouped."""

    deal: Deal
    seat: int
    pool: tuple[Card, ...]
    regions: tuple[tuple[Region, tuple[Slot, ...]], ...]
    allowed: tuple[frozenset, ...]          # per region
    classes: tuple[tuple[int, ...], ...]    # region indices with the same allowed set

    @property
    def to_move(self) -> int | None:
        position = relaxed_replay(self.deal)[0]
        return None if position.is_over() else position.to_move + 1

    def fill(self, layout: dict[int, tuple[Card, ...]]) -> Deal:
        """The deal with region ``i`` holding ``layout[i]`` (checked by replaying its play)."""
        deal = self.deal
        where = deal.game_spec.layout
        hands = {s: list(c) for s, c in deal.hands.items()}
        piles = {s: list(p) for s, p in deal.piles.items()}
        stock = list(deal.stock)
        for i, (_, slots) in enumerate(self.regions):
            for slot, card in zip(slots, sorted(layout[i])):
                where.place(piles if where.stacked else hands, stock, slot, card)
        filled = replace(deal, hands={s: tuple(c) for s, c in hands.items()},
                         piles={s: tuple(p) for s, p in piles.items()}, stock=tuple(stock))
        return loads(filled.dump(), deal.source)


# --- reading the information off a deal ----------------------------------------------------------

def relaxed_replay(deal: Deal, pool: frozenset = frozenset(), watch=None) -> tuple[Position, list]:
    """Replay ``play`` checking only that each card is at hand (face up, held) and legal
    beside the seat's cards outside ``pool``; ``watch(position, card)`` sees each card first.
    Returns the position and the piles (seat, index) played from in its unfinished trick:
    their lower cards are turned up only after the trick, so they are still face down."""
    position = deal.start()
    n = deal.players
    pending: list[tuple[int, int]] = []
    for t, trick in enumerate(deal.play):
        if t + 1 < len(deal.play) and len(trick) != n:
            raise DealError(f"trick {t + 1} has {len(trick)} cards; only the last trick may be "
                            f"unfinished ({n} cards per trick)", "play", deal.source)
        if len(trick) > n:
            raise DealError(f"trick {t + 1} has {len(trick)} cards ({n} cards per trick)", "play",
                            deal.source)
        for k, card in enumerate(trick):
            seat = position.to_move
            where = f"trick {t + 1}, card {k + 1} ({card.text(deal.notation)} by seat {seat + 1})"
            if position.is_over() or card not in position.playable(seat):
                reason = position.why_illegal(card) or "not at hand"
                raise DealError(f"{where}: {reason}", "play", deal.source)
            known = _known_only(position, seat, pool)
            why = known.why_illegal(card)
            if why is not None:
                raise DealError(f"{where}: illegal whatever the hidden cards: {why}", "play",
                                deal.source)
            if watch is not None:
                watch(position, card)
            if not position.trick:
                pending = []
            # piles played from in this trick (position.piles is empty without piles)
            pending += [(seat, j) for j, pile in enumerate(position.piles[seat])
                        if len(pile) == 2 and pile[-1] == card]
            position.play(card, check=False)
    return position, (pending if position.trick else [])


def _known_only(position: Position, seat: int, pool: frozenset) -> Position:
    trial = position.copy()
    trial.hands[seat] = [c for c in trial.hands[seat] if c not in pool]   # empty with piles
    return trial


def start_slots(deal: Deal) -> dict[Card, Slot]:
    """Where every card of the start layout lies that a seat might not see."""
    return deal.game_spec.layout.start_slots(deal)


def hidden_regions(position: Position, seat: int, view, pending=()) -> dict[Card, Region]:
    """The cards of ``position`` that ``seat`` (0-based) cannot see, with their regions;
    ``pending``: piles played from in the unfinished trick (not yet turned up)."""
    return position.rules.layout.hidden_cards(position, seat, view, pending)


def information(deal: Deal, seat: int, must_hide: frozenset = frozenset()) -> InfoSet:
    """The information set of ``seat`` (1-based) at the position of ``deal``.

    ``must_hide``: start slots that the file left unknown (``?``); each must still be hidden
    from ``seat``, else the file is contradictory."""
    if not 1 <= seat <= deal.players:
        raise DealError(f"no seat {seat} in a {deal.players}-seat deal", "--seat", deal.source)
    view = deal.game_spec.view
    # first pass: where the hidden cards end up (the pool is what the seat cannot see)
    position, pending = relaxed_replay(deal, _unknown_pool(deal, must_hide))
    hidden = hidden_regions(position, seat - 1, view, pending)
    slots_of = start_slots(deal)
    by_slot = {slot: card for card, slot in slots_of.items()}
    for slot in sorted(must_hide):
        card = by_slot[slot]
        if card not in hidden:
            raise DealError(f"{deal.game_spec.layout.slot_text(slot)} is `?`, but seat {seat} sees that "
                            f"card in the position (drawn, turned up, played or in its own hand): name it",
                            slot.key(), deal.source)
    pool = frozenset(hidden)
    # second pass: what each play reveals about the slots then in the player's hand
    banned: dict[Slot, set] = {slots_of[c]: set() for c in pool}

    def watch(pos: Position, card: Card) -> None:
        s = pos.to_move
        if not pos.trick or not pos.rules.layout.reveals_voids():
            return
        rule = pos.rules.stock_follow if pos.stock_phase() else pos.rules.follow
        if not (rule.follow_suit or rule.must_trump or rule.must_beat):
            return
        in_hand = [c for c in pos.hands[s] if c in pool]
        if not in_hand:
            return
        known = _known_only(pos, s, pool)
        for candidate in pool:
            known.hands[s].append(candidate)
            illegal = known.why_illegal(card) is not None
            known.hands[s].pop()
            if illegal:
                for c in in_hand:
                    banned[slots_of[c]].add(candidate)

    relaxed_replay(deal, pool, watch)
    groups: dict[Region, list[Slot]] = {}
    for card in sorted(pool, key=lambda c: (hidden[c], slots_of[c])):
        groups.setdefault(hidden[card], []).append(slots_of[card])
    regions = tuple((region, tuple(slots)) for region, slots in groups.items())
    allowed = []
    for region, slots in regions:
        sets = {frozenset(pool - banned[slot]) for slot in slots}
        if len(sets) != 1:    # never with these games' rules: a hand's hidden cards are banned alike
            raise DealError(f"the hidden cards of {region} are constrained unequally; "
                            f"not supported", "play", deal.source)
        allowed.append(sets.pop())
    classes: dict[frozenset, list[int]] = {}
    for i, a in enumerate(allowed):
        classes.setdefault(a, []).append(i)
    return InfoSet(deal, seat, tuple(sorted(pool)), regions, tuple(allowed),
                   tuple(tuple(v) for v in classes.values()))


def _unknown_pool(deal: Deal, must_hide: frozenset) -> frozenset:
    by_slot = {slot: card for card, slot in start_slots(deal).items()}
    return frozenset(by_slot[s] for s in must_hide)


def layouts_per_assignment(info: InfoSet) -> list[int]:
    """Per class: distinct ways to spread a given card set over its regions (hands are sets)."""
    out = []
    for members in info.classes:
        sizes = [len(info.regions[i][1]) for i in members]
        ways = factorial(sum(sizes))
        for i, size in zip(members, sizes):
            if info.regions[i][0].unordered:
                ways //= factorial(size)
        out.append(ways)
    return out

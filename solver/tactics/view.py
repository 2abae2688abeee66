"""What a tactic sees: the mover's information at a decision, never the deal.

A player at the table knows his own cards that he can see, every face-up card, the cards
played and what play has revealed (a failure to follow shows a void).  ``PlayerView`` holds
exactly that, taken from the mover's information set (``stich.view``, the same one ``stich
suggest`` solves over): it keeps no deal, no position and no hidden card, so a tactic built
on it gives the same advice on every layout the mover cannot tell apart (a property test
checks this for every built-in tactic).  Asking it for a card the mover cannot see raises
``HiddenCardError`` with a sentence that says what to ask instead.

The guard is structural: a ``PlayerView`` is built from a ``Sight``, a plain value that
carries only what the mover sees (his visible cards, the face-up cards, the course of play,
the unseen cards and where play allows each to lie), so no attribute path from the view
reaches the deal, a position, an engine or where an unseen card lies (a test walks every
attribute).  What Python cannot fence off is out of its scope: a tactic that inspects the
interpreter's stack frames (``sys._getframe``, ``inspect``) or the garbage collector
(``gc.get_objects``) can still find the deal the study holds.  A study of a tactic file is
only as honest as that file.

``FullView`` is the double-dummy view the old studies used (every card, the deal); only
tactics registered as seeing everything get it, and their names start with ``double_dummy.``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from stich.deals.deal import Deal
from stich.games.layouts import Region, Slot
from stich.model.cards import Card
from stich.model.position import Position
from stich.model.rules import RuleSet
from stich.view import InfoSet, count_layouts, information


class HiddenCardError(LookupError):
    """A tactic asked for cards the mover cannot see."""


@dataclass(frozen=True)
class Trick:
    """A finished trick as everybody saw it: who led, the cards in play order, who won."""

    leader: int
    cards: tuple[Card, ...]
    winner: int


@dataclass(frozen=True, eq=False)
class _Reading:
    """What every view offers: the rules and the public course of play (seats 0-based).  A
    view sets its other attributes itself (a subclass may: only these fields are frozen)."""

    seat: int
    rules: RuleSet
    legal: tuple[Card, ...]
    trick: tuple[Card, ...]
    leader: int
    history: tuple[Trick, ...]
    stock_size: int

    @property
    def is_lead(self) -> bool:
        return not self.trick

    @property
    def side(self) -> int:
        return self.rules.side(self.seat)

    def opponents(self) -> list[int]:
        return [s for s in range(self.rules.seats) if self.rules.side(s) != self.side]

    def partners(self) -> list[int]:
        return [s for s in range(self.rules.seats) if s != self.seat and self.rules.side(s) == self.side]

    def suit(self, card: Card) -> int:
        """The effective suit (every trump belongs to the trump suit)."""
        return self.rules.effective_suit[card]

    def same_suit(self, card: Card, cards: Iterable[Card]) -> list[Card]:
        suit = self.suit(card)
        return [c for c in cards if self.suit(c) == suit]

    def is_trump(self, card: Card) -> bool:
        return self.rules.is_trump(card)

    def value(self, card: Card) -> int:
        """The card's value in the game (points, honours; 0 where tricks count)."""
        return self.rules.values[card]

    def beats(self, card: Card, other: Card) -> bool:
        return self.rules.beats(card, other)

    def winning(self) -> Card | None:
        """The card now winning the trick in progress (None at a lead)."""
        return self.trick[self.rules.trick_winner(list(self.trick))] if self.trick else None

    def winning_seat(self) -> int | None:
        if not self.trick:
            return None
        return (self.leader + self.rules.trick_winner(list(self.trick))) % self.rules.seats

    def would_win(self, card: Card) -> bool:
        """Does ``card`` beat the card now winning the trick (False at a lead)?"""
        best = self.winning()
        return best is not None and self.rules.beats(card, best)

    def played(self) -> list[Card]:
        """Every card of the finished tricks."""
        return [c for t in self.history for c in t.cards]

    def played_by(self, seat: int) -> list[Card]:
        """The cards ``seat`` has played, the trick in progress included."""
        out = [c for t in self.history for k, c in enumerate(t.cards) if (t.leader + k) % self.rules.seats == seat]
        return out + [c for k, c in enumerate(self.trick) if (self.leader + k) % self.rules.seats == seat]

    def gone(self) -> set[Card]:
        """Cards out of play: the finished tricks and the trick in progress."""
        return set(self.played()) | set(self.trick)


@dataclass(frozen=True)
class Sight(_Reading):
    """What the mover sees at a decision, as plain values: the information set without the
    deal it was read from.  ``seen[s]``/``playable[s]``: the cards (playable cards) of seat
    ``s`` the mover can see; ``unseen``: every card in play he cannot see; ``regions``: where
    unseen cards may lie (a hand, a face-down pile card, a stock place; with their start
    slots, which name places, not cards), ``allowed``: the unseen cards each region may hold
    by what play revealed, ``classes``: regions with equal ``allowed``."""

    stock_phase: bool
    unseen: frozenset
    seen: tuple[tuple[Card, ...], ...]
    playable: tuple[tuple[Card, ...], ...]
    regions: tuple[tuple[Region, tuple[Slot, ...]], ...]
    allowed: tuple[frozenset, ...]
    classes: tuple[tuple[int, ...], ...]


def public_history(position: Position) -> tuple[Trick, ...]:
    """The finished tricks as everybody saw them."""
    return tuple(Trick(r.leader, tuple(r.cards), r.winner) for r in position.history)


def sight(info: InfoSet, position: Position, legal: tuple[Card, ...]) -> Sight:
    """The mover's ``Sight``, read off his information set and the position; neither is kept."""
    pool = frozenset(info.pool)
    seats = range(position.seats)
    return Sight(info.seat - 1, position.rules, tuple(legal), tuple(position.trick), position.leader,
                 public_history(position), len(position.stock), position.stock_phase(), pool,
                 tuple(tuple(c for c in position.held(s) if c not in pool) for s in seats),
                 tuple(tuple(c for c in position.playable(s) if c not in pool) for s in seats),
                 info.regions, info.allowed, info.classes)


class PlayerView(_Reading):
    """The mover's information at a decision (seats 0-based; ``seat + 1`` is the deal file's).

    ``own()``: the mover's cards he can see (his hand; of piles, the face-up cards);
    ``seen(seat)``: the cards ``seat`` holds that the mover can see; ``unseen``: every card
    still in play the mover cannot see; ``may_hold(seat)``: what ``seat`` may hold (seen, or
    unseen and not ruled out by play); ``surely_holds(seat)``: what it holds on every layout
    the mover cannot tell apart.  Built from a ``Sight`` alone: no attribute leads to the
    deal, a position or where an unseen card lies."""

    def __init__(self, seen: Sight):
        super().__init__(seen.seat, seen.rules, seen.legal, seen.trick, seen.leader, seen.history,
                         seen.stock_size)
        self.unseen = seen.unseen
        self._sight = seen
        self._answers: dict[tuple, bool] = {}

    def own(self) -> list[Card]:
        """The mover's cards he can see."""
        return list(self._sight.seen[self.seat])

    def held(self, seat: int | None = None) -> list[Card]:
        """The cards of a seat the mover can see, for the mover himself only: another seat's
        cards are not the mover's to see (use ``seen``, ``may_hold`` or ``surely_holds``)."""
        if seat is None or seat == self.seat:
            return self.own()
        raise HiddenCardError(f"seat {seat + 1}'s cards are hidden from seat {self.seat + 1}: use "
                              f"view.seen({seat}), view.may_hold({seat}) or view.surely_holds({seat})")

    def seen(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds that the mover can see (face-up cards, his own hand)."""
        return list(self._sight.seen[seat])

    def may_hold(self, seat: int) -> list[Card]:
        """The cards ``seat`` may hold: seen there, or unseen and allowed there by play."""
        regions = self._regions_of(seat)
        possible = {c for i in regions for c in self._sight.allowed[i]}
        return self.seen(seat) + sorted(possible)

    def surely_holds(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds on every layout the mover cannot tell apart."""
        regions = self._regions_of(seat)
        possible = sorted({c for i in regions for c in self._sight.allowed[i]})
        return self.seen(seat) + [c for c in possible if self._certain(c, regions)]

    def may_beat(self, seat: int, card: Card) -> bool:
        """Might ``seat`` beat ``card`` if it were led now?  Yes when one of its playable cards
        the mover sees beats it and the follow rule lets ``seat`` play it, or when ``seat``
        may hold an unseen card in hand that beats it."""
        allowed, _ = self.rules.allowed(list(self._sight.playable[seat]), [card], self._sight.stock_phase)
        if any(self.beats(c, card) for c in allowed):
            return True
        hand = [i for i in self._regions_of(seat) if self._sight.regions[i][0].unordered]
        return any(self.beats(c, card) for i in hand for c in self._sight.allowed[i])

    def answers(self, seat: int, card: Card) -> list[Card]:
        """The cards the mover sees ``seat`` could play if ``card`` were led now: its visible
        playable cards the follow rule allows (a feature's accessor: nothing hidden)."""
        return self.rules.allowed(list(self._sight.playable[seat]), [card], self._sight.stock_phase)[0]

    def _regions_of(self, seat: int) -> list[int]:
        return [i for i, (region, _) in enumerate(self._sight.regions) if region.holder == seat + 1]

    def _certain(self, card: Card, regions: list[int]) -> bool:
        """Is the unseen ``card`` in ``regions`` on every consistent layout?  Yes when no
        layout puts it elsewhere (counted; remembered per question)."""
        key = (card, tuple(regions))
        if key not in self._answers:
            self._answers[key] = _count_elsewhere(self._sight, card, set(regions)) == 0
        return self._answers[key]

    def __getattr__(self, name: str):
        if name in ("deal", "position"):
            raise HiddenCardError(f"view.{name} would show every card; a tactic sees what the mover "
                                  f"sees: view.own(), view.seen(seat), view.may_hold(seat), "
                                  f"view.surely_holds(seat), view.unseen, view.played()")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def _count_elsewhere(seen: Sight, card: Card, regions: set[int]) -> int:
    """The layouts of the mover's information with ``card`` outside ``regions``."""
    allowed = tuple(a - {card} if i in regions else a for i, a in enumerate(seen.allowed))
    classes: dict[frozenset, list[int]] = {}
    for i, a in enumerate(allowed):
        classes.setdefault(a, []).append(i)
    # counting reads the pool, the regions and their allowed cards only: no deal is needed
    counted = InfoSet(None, seen.seat + 1, tuple(sorted(seen.unseen)), seen.regions,  # type: ignore[arg-type]
                      allowed, tuple(tuple(v) for v in classes.values()))
    return count_layouts(counted)


class FullView(_Reading):
    """Every card (double dummy): what the ``double_dummy.*`` tactics read.  ``held(seat)``
    gives any seat's cards, face-down ones included; ``deal`` and ``position`` are there."""

    def __init__(self, position: Position, deal: Deal, legal: tuple[Card, ...]):
        super().__init__(position.to_move, position.rules, tuple(legal), tuple(position.trick),
                         position.leader, public_history(position), len(position.stock))
        self.position = position
        self.deal = deal

    def held(self, seat: int | None = None) -> list[Card]:
        return self.position.held(self.seat if seat is None else seat)

    def own(self) -> list[Card]:
        return self.held()


def player_view(deal_here: Deal) -> PlayerView:
    """The view of the seat to move at the position of ``deal_here`` (its ``play``)."""
    position = deal_here.position()
    return PlayerView(sight(information(deal_here, position.to_move + 1), position,
                            tuple(position.legal_moves())))


def full_view(deal_here: Deal) -> FullView:
    position = deal_here.position()
    return FullView(position, deal_here, tuple(position.legal_moves()))


class Views:
    """The views of one deal's positions, made once each: the study asks for the same
    position again and again (every policy walk starts on the same line)."""

    def __init__(self, deal: Deal):
        self.deal = deal
        self._made: dict[tuple, object] = {}

    def at(self, moves: tuple, sees_all: bool = False):
        """The view after ``moves`` (cards, or (card, pair) moves) are played on from the
        deal's own ``play``."""
        key = (tuple(moves), sees_all)
        if key not in self._made:
            here = self.deal.after(moves)
            self._made[key] = full_view(here) if sees_all else player_view(here)
        return self._made[key]

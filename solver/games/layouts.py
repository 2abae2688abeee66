"""Where the cards lie: one class per layout, each owning its part of the deal file and of play.

``Hands``: every seat holds its cards in hand.  ``Piles``: every seat has piles of a face-up
card on a face-down one, and only the top card can be played.  ``Stock``: hands plus a stock
that refills them after each trick.  The sizes (cards per hand, piles per seat, the stock) are
data on the object, so a game with five piles of two or a twelve-card stock needs no code.

A layout answers, for its kind of deal file section: how it is read and written (with
hidden cards ``?`` too), how a shuffled pack is dealt into it, how the report shows a seat,
what a seat's held and playable cards are, which cards of it a seat cannot see (the slots
and regions of the player's view), and which ``--where`` words it offers.  Nothing outside
``solver/games`` spells a layout's kind: a new kind (a talon, a blind) is one class here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from stich.model.cards import Card
from stich.model.position import Position
from stich.model.protocols import DealFacts, DealReading, SeatSight

HANDS, PILES, STOCK = "hands", "piles", "stock"     # the deal file's keys (and slot kinds)
HIDDEN = "?"                                        # a card the viewing seat does not know
HAND, PILE = "hand", "pile"                         # region kinds (STOCK: a stock place)


class Slot(NamedTuple):
    """Where a card lies in a deal's start layout: the part of the deal file (a seats'
    section or the stock), the seat (1-based; 0 for the stock) and its place there."""

    part: str
    seat: int
    index: int  # type: ignore[assignment]  # a field named index hides tuple.index, never called

    def key(self) -> str:
        """The deal file key of the slot (for messages)."""
        return self.part if self.seat == 0 else f"{self.part}.{self.seat}"


class Region(NamedTuple):
    """Where a hidden card lies in a position: a seat's hand (its cards a set: ``index`` -1),
    one face-down pile card, or one place of the stock (``seat`` 0)."""

    kind: str
    seat: int
    index: int  # type: ignore[assignment]  # a field named index hides tuple.index, never called

    @property
    def unordered(self) -> bool:
        """A hand: which cards it holds matters, not in which order."""
        return self.index < 0

    @property
    def holder(self) -> int | None:
        """The seat (1-based) whose cards these are; None for the stock."""
        return self.seat or None


class Pile(NamedTuple):
    """A face-up card on a face-down one; ``down`` is None once the face-down card is gone."""

    up: Card
    down: Card | None = None

    def text(self, notation: str) -> str:
        up = self.up.text(notation)
        return up if self.down is None else f"{up}/{self.down.text(notation)}"


@dataclass(frozen=True)
class Hands:
    """Every seat holds its cards in hand; the whole pack is dealt out evenly."""

    name: str = HANDS
    section: str = HANDS            # the deal file's table of the seats' cards
    stacked: bool = False           # cards lie in piles, one on another
    draws: bool = False             # a stock refills the hands after each trick
    column: str = "hand"            # the report's heading for a seat's cards

    def __str__(self) -> str:
        return self.name

    @property
    def keys(self) -> tuple[str, ...]:
        """The deal file keys this layout uses."""
        return (self.section,)

    # --- deal files -------------------------------------------------------------------------

    def read_seat(self, reader: DealReading, key: str, value: Any, notation: str) -> tuple:
        return tuple(reader._cards(key, value, notation))

    def read_stock(self, reader: DealReading, data: dict, notation: str) -> tuple:
        """The stock of the deal file (a layout without one has none)."""
        return ()

    def seat_text(self, deal: DealFacts, seat: int, hidden: frozenset = frozenset()) -> str:
        """A seat's cards as the file writes them; the ``hidden`` slots as ``?``."""
        return " ".join(HIDDEN if Slot(self.section, seat, i) in hidden else c.text(deal.notation)
                        for i, c in enumerate(deal.hands[seat]))

    def seats_of(self, deal: DealFacts) -> Mapping[int, tuple[Any, ...]]:
        """The deal's table of this layout's seats."""
        return deal.hands

    def head_lines(self, deal: DealFacts, hidden: frozenset = frozenset()) -> list[str]:
        """The deal file lines of this layout above the tables (the stock)."""
        return []

    def write(self, deal: DealFacts, hidden: frozenset = frozenset()) -> list[str]:
        """The deal file lines of the seats' table; the ``hidden`` slots as ``?``."""
        return [f"[{self.section}]"] + [f'{seat} = "{self.seat_text(deal, seat, hidden)}"'
                                        for seat in sorted(self.seats_of(deal))]

    def card_places(self, deal: DealFacts) -> list[tuple[str, Card]]:
        """Every card of the deal's layout with the deal file key it is written under."""
        return [(f"{self.section}.{seat}", c) for seat, cards in deal.hands.items() for c in cards]

    # --- hidden cards in a deal file (its TOML table, before it is read) ---------------------

    def marked(self, data: dict, fail: Callable[[str, str], Exception]) -> list[tuple[str, tuple]]:
        """Every ``?`` of the file as (key, path), in file order; ``fail(key, message)`` makes
        the error for a ``?`` where no card can be hidden."""
        places = []
        for seat_key, text in self._section_texts(data):
            for i, token in enumerate(text.split()):
                if token == HIDDEN:
                    places.append((f"{self.section}.{seat_key}", (self.section, seat_key, i)))
        return places

    def reveal(self, data: dict, path: tuple, text: str) -> None:
        """Write the card ``text`` where ``path`` (from ``marked``) has a ``?``."""
        _, seat_key, i = path
        tokens = data[self.section][seat_key].split()
        tokens[i] = text
        data[self.section][seat_key] = " ".join(tokens)

    def texts(self, data: dict) -> list[tuple[str, str]]:
        """(key, text) of every card string of the file's layout."""
        return [(f"{self.section}.{k}", v) for k, v in self._section_texts(data)]

    def _section_texts(self, data: dict) -> list[tuple[str, str]]:
        table = data.get(self.section)
        if not isinstance(table, dict):
            return []
        return [(k, v) for k, v in table.items() if isinstance(v, str)]

    def full_hand(self, pack: int, players: int) -> int:
        """The most cards a seat holds at the start of a trick."""
        return pack // players

    def check(self, reader: DealReading, deal: DealFacts, size: int) -> None:
        """Layout rules the deal must keep beyond the card counts (raises reader.fail)."""

    # --- dealing ----------------------------------------------------------------------------

    def deal(self, deck: list[Card], players: int) -> dict[str, Any]:
        """The Deal fields of a shuffled pack dealt into this layout."""
        size = len(deck) // players
        return {"hands": {s + 1: tuple(deck[s * size:(s + 1) * size]) for s in range(players)}}

    # --- play -------------------------------------------------------------------------------

    def held(self, position: Position, seat: int) -> list[Card]:
        return list(position.hands[seat])

    def playable(self, position: Position, seat: int) -> list[Card]:
        return list(position.hands[seat])

    def take(self, position: Position, seat: int, card: Card) -> None:
        """Take ``card`` from ``seat``'s cards to play it."""
        position.hands[seat].remove(card)

    def cards_left(self, position: Position) -> int:
        return sum(map(len, position.hands)) + len(position.stock)

    def seat_cards_text(self, position: Position, seat: int, notation: str) -> str:
        """A seat's cards in the report's position table."""
        return " ".join(c.text(notation) for c in position.held(seat))

    def extra_text(self, position: Position, notation: str) -> str | None:
        """A line below the position table (the stock), or None."""
        return None

    def seat_json(self, position: Position, seat: int, card: Callable[[Card], dict[str, Any]]) -> dict:
        """A seat's cards as they lie, for a page (``card(c)``: a card's JSON)."""
        return {HAND: [card(c) for c in position.hands[seat]]}

    def table_json(self, position: Position, card: Callable[[Card], dict[str, Any]]) -> dict:
        """The layout's cards that belong to no seat (the stock), for a page."""
        return {}

    def as_ending(self, position: Position) -> dict[str, Any]:
        """The Deal fields of ``position``'s cards as a new start (an ending)."""
        return {"hands": {s + 1: tuple(position.hands[s]) for s in range(position.seats)},
                "stock": tuple(position.stock)}

    # --- the player's view ------------------------------------------------------------------

    def start_slots(self, deal: DealFacts) -> dict[Card, Slot]:
        """Where every card of the start layout lies that a seat might not see."""
        return {card: Slot(self.section, seat, i) for seat, cards in deal.hands.items()
                for i, card in enumerate(cards)}

    def place(self, seats: dict[int, list], stock: list, slot: Slot, card: Card) -> None:
        """Put ``card`` in ``slot`` of a deal's seats' table (lists) and stock (a list)."""
        seats[slot.seat][slot.index] = card

    def slot_text(self, slot: Slot) -> str:
        return f"card {slot.index + 1} of seat {slot.seat}'s hand"

    def hidden_cards(self, position: Position, seat: int, view: SeatSight,
                     pending: Collection[tuple[int, int]] = ()) -> dict[Card, Region]:
        """The cards of the layout that ``seat`` cannot see, with their regions."""
        hidden = {}
        if not view.other_hands:
            for s, hand in enumerate(position.hands):
                if s != seat:
                    for card in hand:
                        hidden[card] = Region(HAND, s + 1, -1)
        return hidden

    def reveals_voids(self) -> bool:
        """Can a failure to follow tell about cards held out of sight?"""
        return True

    # --- ``--where`` ----------------------------------------------------------------------------

    where_parts: tuple[str, ...] = ()        # words for a part of a seat's cards ("up")
    where_subject: str | None = None         # a subject of the layout's own ("stock")

    def holding(self, deal: DealFacts, seat: int, part: str | None = None) -> tuple[Card, ...]:
        """The cards ``seat`` (1-based) holds as dealt (``part``: one of ``where_parts``)."""
        return tuple(deal.hands.get(seat, ()))

    def subject_cards(self, deal: DealFacts) -> tuple[Card, ...]:
        """The cards of ``where_subject``."""
        return ()


@dataclass(frozen=True)
class Stock(Hands):
    """Hands of ``hand`` cards plus a stock of the rest; the trick's winner draws first."""

    name: str = STOCK
    draws: bool = True
    hand: int = 6                   # cards in each hand while the stock lasts

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.section, STOCK)

    def full_hand(self, pack: int, players: int) -> int:
        return self.hand

    def check(self, reader: DealReading, deal: DealFacts, size: int) -> None:
        n = deal.players
        if len(deal.stock) % n:
            what = "an even number" if n == 2 else f"a multiple of {n}"
            raise reader.fail(STOCK, f"must hold {what} of cards, not {len(deal.stock)}")
        if deal.stock and size == 0:
            raise reader.fail(HANDS, "the hands are empty but the stock is not")

    def deal(self, deck: list[Card], players: int) -> dict[str, Any]:
        h = self.hand
        return {"hands": {s + 1: tuple(deck[s * h:(s + 1) * h]) for s in range(players)},
                "stock": tuple(deck[players * h:])}

    def extra_text(self, position: Position, notation: str) -> str | None:
        cards = " ".join(c.text(notation) for c in position.stock)
        return f"stock ({len(position.stock)}, top first): {cards or '-'}"

    def read_stock(self, reader: DealReading, data: dict, notation: str) -> tuple:
        return tuple(reader._cards(STOCK, data[STOCK], notation)) if STOCK in data else ()

    def table_json(self, position: Position, card: Callable[[Card], dict[str, Any]]) -> dict:
        return {STOCK: [card(c) for c in position.stock]}

    def head_lines(self, deal: DealFacts, hidden: frozenset = frozenset()) -> list[str]:
        if not deal.stock:
            return []
        text = " ".join(HIDDEN if Slot(STOCK, 0, k) in hidden else c.text(deal.notation)
                        for k, c in enumerate(deal.stock))
        return [f'{STOCK} = "{text}"']

    def card_places(self, deal: DealFacts) -> list[tuple[str, Card]]:
        return super().card_places(deal) + [(STOCK, c) for c in deal.stock]

    def marked(self, data: dict, fail: Callable[[str, str], Exception]) -> list[tuple[str, tuple]]:
        places = super().marked(data, fail)
        stock = data.get(STOCK)
        if isinstance(stock, str):
            places += [(STOCK, (STOCK, None, i)) for i, token in enumerate(stock.split()) if token == HIDDEN]
        return places

    def reveal(self, data: dict, path: tuple, text: str) -> None:
        if path[0] != STOCK:
            return super().reveal(data, path, text)
        tokens = data[STOCK].split()
        tokens[path[2]] = text
        data[STOCK] = " ".join(tokens)

    def texts(self, data: dict) -> list[tuple[str, str]]:
        stock = data.get(STOCK, "")
        return super().texts(data) + ([(STOCK, stock)] if isinstance(stock, str) else [])

    def start_slots(self, deal: DealFacts) -> dict[Card, Slot]:
        return {**super().start_slots(deal), **{c: Slot(STOCK, 0, k) for k, c in enumerate(deal.stock)}}

    def place(self, seats: dict[int, list], stock: list, slot: Slot, card: Card) -> None:
        if slot.part == STOCK:
            stock[slot.index] = card
        else:
            super().place(seats, stock, slot, card)

    def slot_text(self, slot: Slot) -> str:
        return f"stock card {slot.index + 1}" if slot.part == STOCK else super().slot_text(slot)

    def hidden_cards(self, position: Position, seat: int, view: SeatSight,
                     pending: Collection[tuple[int, int]] = ()) -> dict[Card, Region]:
        hidden = super().hidden_cards(position, seat, view, pending)
        if not view.stock:
            hidden.update({card: Region(STOCK, 0, k) for k, card in enumerate(position.stock)})
        return hidden

    where_subject: str | None = STOCK

    def subject_cards(self, deal: DealFacts) -> tuple[Card, ...]:
        return tuple(deal.stock)


@dataclass(frozen=True)
class Piles(Hands):
    """``count`` piles per seat, each a face-up card on a face-down one; only tops play."""

    name: str = PILES
    section: str = PILES
    stacked: bool = True
    column: str = "piles (UP/down)"
    count: int = 8                  # piles per seat

    def read_seat(self, reader: DealReading, key: str, value: Any, notation: str) -> tuple:
        return reader._piles(key, value, notation)

    def full_hand(self, pack: int, players: int) -> int:
        return 2 * self.count             # every pile a face-up card on a face-down one

    def seat_json(self, position: Position, seat: int, card: Callable[[Card], dict[str, Any]]) -> dict:
        """Piles of a face-up card on a face-down one (``None`` where a pile is gone), so a
        pile keeps its place as it is played."""
        return {PILES: [None if not pile else {"up": card(pile[-1]),
                                               "down": card(pile[0]) if len(pile) == 2 else None}
                        for pile in position.piles[seat]]}

    def seat_text(self, deal: DealFacts, seat: int, hidden: frozenset = frozenset()) -> str:
        return " ".join(f"{p.up.text(deal.notation)}/{HIDDEN}" if Slot(PILES, seat, j) in hidden
                        else p.text(deal.notation) for j, p in enumerate(deal.piles[seat]))

    def seats_of(self, deal: DealFacts) -> Mapping[int, tuple[Any, ...]]:
        return deal.piles

    def card_places(self, deal: DealFacts) -> list[tuple[str, Card]]:
        return [(f"{PILES}.{seat}", c) for seat, piles in deal.piles.items() for pile in piles
                for c in (pile.up, pile.down) if c is not None]

    def marked(self, data: dict, fail: Callable[[str, str], Exception]) -> list[tuple[str, tuple]]:
        places = []
        for seat_key, text in self._section_texts(data):
            for i, token in enumerate(text.split()):
                up, _, down = token.partition("/")
                if up == HIDDEN:
                    raise fail(f"{PILES}.{seat_key}", "a face-up card cannot be `?`: both players see it")
                if down == HIDDEN:
                    places.append((f"{PILES}.{seat_key}", (PILES, seat_key, i)))
        return places

    def reveal(self, data: dict, path: tuple, text: str) -> None:
        _, seat_key, i = path
        tokens = data[PILES][seat_key].split()
        tokens[i] = tokens[i].partition("/")[0] + "/" + text
        data[PILES][seat_key] = " ".join(tokens)

    def texts(self, data: dict) -> list[tuple[str, str]]:
        return [(f"{PILES}.{k}", v.replace("/", " ")) for k, v in self._section_texts(data)]

    def check(self, reader: DealReading, deal: DealFacts, size: int) -> None:
        for seat, piles in deal.piles.items():
            if len(piles) > self.count:
                raise reader.fail(f"{PILES}.{seat}", f"{len(piles)} piles; each player has at most "
                                                     f"{self.count}")

    def deal(self, deck: list[Card], players: int) -> dict[str, Any]:
        """The face-down cards first, then the face-up ones on them, seat after seat."""
        k, down = self.count, self.count * players
        return {"piles": {s + 1: tuple(Pile(deck[down + s * k + i], deck[s * k + i]) for i in range(k))
                          for s in range(players)}}

    def held(self, position: Position, seat: int) -> list[Card]:
        return [card for pile in position.piles[seat] for card in pile]

    def playable(self, position: Position, seat: int) -> list[Card]:
        return [pile[-1] for pile in position.piles[seat] if pile]

    def take(self, position: Position, seat: int, card: Card) -> None:
        for pile in position.piles[seat]:
            if pile and pile[-1] == card:
                pile.pop()
                return

    def cards_left(self, position: Position) -> int:
        return sum(sum(map(len, piles)) for piles in position.piles) + len(position.stock)

    def seat_cards_text(self, position: Position, seat: int, notation: str) -> str:
        return " ".join("/".join(c.text(notation) for c in reversed(pile))
                        for pile in position.piles[seat] if pile)

    def as_ending(self, position: Position) -> dict[str, Any]:
        return {"piles": {s + 1: tuple(Pile(p[-1], p[0] if len(p) == 2 else None)
                                       for p in position.piles[s] if p)
                          for s in range(position.seats)}}

    def start_slots(self, deal: DealFacts) -> dict[Card, Slot]:
        return {pile.down: Slot(PILES, seat, j) for seat, piles in deal.piles.items()
                for j, pile in enumerate(piles) if pile.down is not None}

    def place(self, seats: dict[int, list], stock: list, slot: Slot, card: Card) -> None:
        seats[slot.seat][slot.index] = Pile(seats[slot.seat][slot.index].up, card)

    def slot_text(self, slot: Slot) -> str:
        return f"the face-down card of pile {slot.index + 1} of seat {slot.seat}"

    def hidden_cards(self, position: Position, seat: int, view: SeatSight,
                     pending: Collection[tuple[int, int]] = ()) -> dict[Card, Region]:
        hidden = {}
        if not view.face_down:
            for s, piles in enumerate(position.piles):
                for j, pile in enumerate(piles):
                    if len(pile) == 2 or (pile and (s, j) in pending):
                        hidden[pile[0]] = Region(PILE, s + 1, j)
        return hidden

    def reveals_voids(self) -> bool:
        return False       # only face-up cards can be played: a failure to follow shows nothing hidden

    where_parts: tuple[str, ...] = ("up", "down")

    def holding(self, deal: DealFacts, seat: int, part: str | None = None) -> tuple[Card, ...]:
        piles = deal.piles.get(seat, ())
        if part == "up":
            return tuple(p.up for p in piles)
        if part == "down":
            return tuple(p.down for p in piles if p.down is not None)
        return tuple(c for p in piles for c in (p.up, p.down) if c is not None)


LAYOUTS = (Hands(), Piles(), Stock())      # one of each kind: what a deal file may hold

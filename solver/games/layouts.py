"""Where the cards lie: one class per layout, each owning its part of the deal file and of play.

``Hands``: every seat holds its cards in hand.  ``Piles``: every seat has piles of a face-up
card on a face-down one, and only the top card can be played.  ``Stock``: hands plus a stock
that refills them after each trick.  The sizes (cards per hand, piles per seat, the stock) are
data on the object, so a game with five piles of two or a twelve-card stock needs no code.

A layout answers, for its kind of deal file section: how it is read and written, how a
shuffled pack is dealt into it, how the report shows a seat, what a seat's held and playable
cards are, and which cards of it a seat cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from solver.model.cards import Card, format_cards

HANDS, PILES, STOCK = "hands", "piles", "stock"     # the deal file's keys (and slot kinds)


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

    def read_seat(self, reader, key: str, value: Any, notation: str) -> tuple:
        return tuple(reader._cards(key, value, notation))

    def seat_text(self, deal, seat: int) -> str:
        return format_cards(deal.hands[seat], deal.notation)

    def seats_of(self, deal) -> dict:
        """The deal's table of this layout's seats."""
        return deal.hands

    def write(self, deal) -> list[str]:
        """The deal file lines of the seats' table."""
        return [f"[{self.section}]"] + [f'{seat} = "{self.seat_text(deal, seat)}"'
                                        for seat in sorted(self.seats_of(deal))]

    def full_hand(self, pack: int, players: int) -> int:
        """The most cards a seat holds at the start of a trick."""
        return pack // players

    def check(self, reader, deal, size: int) -> None:
        """Layout rules the deal must keep beyond the card counts (raises reader.fail)."""

    # --- dealing ----------------------------------------------------------------------------

    def deal(self, deck: list[Card], players: int) -> dict[str, Any]:
        """The Deal fields of a shuffled pack dealt into this layout."""
        size = len(deck) // players
        return {"hands": {s + 1: tuple(deck[s * size:(s + 1) * size]) for s in range(players)}}

    # --- play -------------------------------------------------------------------------------

    def held(self, position, seat: int) -> list[Card]:
        return list(position.hands[seat])

    def playable(self, position, seat: int) -> list[Card]:
        return list(position.hands[seat])

    def take(self, position, seat: int, card: Card) -> None:
        """Take ``card`` from ``seat``'s cards to play it."""
        position.hands[seat].remove(card)

    def cards_left(self, position) -> int:
        return sum(map(len, position.hands)) + len(position.stock)

    def seat_cards_text(self, position, seat: int, notation: str) -> str:
        """A seat's cards in the report's position table."""
        return " ".join(c.text(notation) for c in position.held(seat))

    def extra_text(self, position, notation: str) -> str | None:
        """A line below the position table (the stock), or None."""
        return None

    def as_ending(self, position) -> dict[str, Any]:
        """The Deal fields of ``position``'s cards as a new start (an ending)."""
        return {"hands": {s + 1: tuple(position.hands[s]) for s in range(position.seats)},
                "stock": tuple(position.stock)}

    # --- the player's view ------------------------------------------------------------------

    def hidden_cards(self, position, seat: int, view, pending=()) -> dict:
        """The cards of the seats' section that ``seat`` cannot see, with their regions."""
        hidden = {}
        if not view.other_hands:
            for s, hand in enumerate(position.hands):
                if s != seat:
                    for card in hand:
                        hidden[card] = ("hand", s + 1)
        return hidden

    def reveals_voids(self) -> bool:
        """Can a failure to follow tell about cards held out of sight?"""
        return True


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

    def check(self, reader, deal, size: int) -> None:
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

    def extra_text(self, position, notation: str) -> str | None:
        cards = " ".join(c.text(notation) for c in position.stock)
        return f"stock ({len(position.stock)}, top first): {cards or '-'}"


@dataclass(frozen=True)
class Piles(Hands):
    """``count`` piles per seat, each a face-up card on a face-down one; only tops play."""

    name: str = PILES
    section: str = PILES
    stacked: bool = True
    column: str = "piles (UP/down)"
    count: int = 8                  # piles per seat

    def read_seat(self, reader, key: str, value: Any, notation: str) -> tuple:
        return reader._piles(key, value, notation)

    def full_hand(self, pack: int, players: int) -> int:
        return 2 * self.count             # every pile a face-up card on a face-down one

    def seat_text(self, deal, seat: int) -> str:
        return " ".join(p.text(deal.notation) for p in deal.piles[seat])

    def seats_of(self, deal) -> dict:
        return deal.piles

    def check(self, reader, deal, size: int) -> None:
        for seat, piles in deal.piles.items():
            if len(piles) > self.count:
                raise reader.fail(f"{PILES}.{seat}", f"{len(piles)} piles; each player has at most "
                                                     f"{self.count}")

    def deal(self, deck: list[Card], players: int) -> dict[str, Any]:
        """The face-down cards first, then the face-up ones on them, seat after seat."""
        k, down = self.count, self.count * players
        return {"piles": {s + 1: tuple(Pile(deck[down + s * k + i], deck[s * k + i]) for i in range(k))
                          for s in range(players)}}

    def held(self, position, seat: int) -> list[Card]:
        return [card for pile in position.piles[seat] for card in pile]

    def playable(self, position, seat: int) -> list[Card]:
        return [pile[-1] for pile in position.piles[seat] if pile]

    def take(self, position, seat: int, card: Card) -> None:
        for pile in position.piles[seat]:
            if pile and pile[-1] == card:
                pile.pop()
                return

    def cards_left(self, position) -> int:
        return sum(sum(map(len, piles)) for piles in position.piles) + len(position.stock)

    def seat_cards_text(self, position, seat: int, notation: str) -> str:
        return " ".join("/".join(c.text(notation) for c in reversed(pile))
                        for pile in position.piles[seat] if pile)

    def as_ending(self, position) -> dict[str, Any]:
        return {"piles": {s + 1: tuple(Pile(p[-1], p[0] if len(p) == 2 else None)
                                       for p in position.piles[s] if p)
                          for s in range(position.seats)}}

    def hidden_cards(self, position, seat: int, view, pending=()) -> dict:
        hidden = {}
        if not view.face_down:
            for s, piles in enumerate(position.piles):
                for j, pile in enumerate(piles):
                    if len(pile) == 2 or (pile and (s, j) in pending):
                        hidden[pile[0]] = ("pile", s + 1, j)
        return hidden

    def reveals_voids(self) -> bool:
        return False       # only face-up cards can be played: a failure to follow shows nothing hidden

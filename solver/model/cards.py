"""Cards, suits, ranks and the two notations (French and German).

A card is a small immutable value (suit, rank).  It is written suit first, then rank:
French ``♣Q``, ``CQ``, ``H10``, ``HT``; German ``EO``, ``GU``, ``S10``, ``RA`` (or ``RD``).
The suit symbols ``♣♠♥♦`` mean the same in both notations; the letter ``S`` is spades in
French notation and Schellen in German notation, so parsing always needs the notation.
Formatting in a notation and parsing it back gives the same card (round trip).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

CLUBS, SPADES, HEARTS, DIAMONDS = range(4)
SUITS = (CLUBS, SPADES, HEARTS, DIAMONDS)

SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = 6, 7, 8, 9, 10, 11, 12, 13, 14
RANKS = (ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN, SIX)

FRENCH, GERMAN = "french", "german"
NOTATIONS = (FRENCH, GERMAN)

SUIT_SYMBOLS = {CLUBS: "♣", SPADES: "♠", HEARTS: "♥", DIAMONDS: "♦"}
SUIT_LETTERS = {FRENCH: {CLUBS: "C", SPADES: "S", HEARTS: "H", DIAMONDS: "D"},
                GERMAN: {CLUBS: "E", SPADES: "G", HEARTS: "R", DIAMONDS: "S"}}
RANK_LETTERS = {FRENCH: {ACE: "A", KING: "K", QUEEN: "Q", JACK: "J", TEN: "10",
                         NINE: "9", EIGHT: "8", SEVEN: "7", SIX: "6"},
                GERMAN: {ACE: "A", KING: "K", QUEEN: "O", JACK: "U", TEN: "10",
                         NINE: "9", EIGHT: "8", SEVEN: "7", SIX: "6"}}
SUIT_NAMES = {FRENCH: {CLUBS: "clubs", SPADES: "spades", HEARTS: "hearts", DIAMONDS: "diamonds"},
              GERMAN: {CLUBS: "eichel", SPADES: "gruen", HEARTS: "rot", DIAMONDS: "schellen"}}

# Extra spellings accepted when reading (never written).
_EXTRA_RANKS = {FRENCH: {"T": TEN}, GERMAN: {"D": ACE, "T": TEN}}
_SUIT_WORDS = {
    "clubs": CLUBS, "spades": SPADES, "hearts": HEARTS, "diamonds": DIAMONDS,
    "eichel": CLUBS, "gruen": SPADES, "grün": SPADES, "rot": HEARTS, "schellen": DIAMONDS,
    # a few spellings a careful user might try
    "club": CLUBS, "spade": SPADES, "heart": HEARTS, "diamond": DIAMONDS,
    "laub": SPADES, "blatt": SPADES, "herz": HEARTS,
}
_SYMBOL_SUITS = {"♣": CLUBS, "♠": SPADES, "♥": HEARTS, "♦": DIAMONDS,
                 "♧": CLUBS, "♤": SPADES, "♡": HEARTS, "♢": DIAMONDS}


class CardError(ValueError):
    """A card, suit or list of cards could not be read."""


class Card(NamedTuple):
    """One playing card.  Ordered by (suit, rank) only to make sorting stable."""

    suit: int
    rank: int

    def text(self, notation: str = FRENCH) -> str:
        """The card in a notation: French uses suit symbols (unambiguous), German letters."""
        if notation == GERMAN:
            return SUIT_LETTERS[GERMAN][self.suit] + RANK_LETTERS[GERMAN][self.rank]
        return SUIT_SYMBOLS[self.suit] + RANK_LETTERS[FRENCH][self.rank]

    def __str__(self) -> str:
        return self.text(FRENCH)

    def __repr__(self) -> str:
        return f"Card({self.text(FRENCH)})"


class GermanCard(Card):
    """A card read or shown in German notation: equal to the plain ``Card`` (same tuple, same
    hash), but ``str()`` writes it as its deal does (``EO``), so text built from the cards of a
    German deal reads back into it."""

    __slots__ = ()

    def __str__(self) -> str:
        return self.text(GERMAN)

    def __repr__(self) -> str:
        return f"Card({self.text(GERMAN)})"


def in_notation(card: Card, notation: str) -> Card:
    """The same card, printed by ``str()`` in ``notation``."""
    if notation == GERMAN:
        return card if type(card) is GermanCard else GermanCard(card.suit, card.rank)
    return card if type(card) is Card else Card(card.suit, card.rank)


def parse_suit(text: str) -> int:
    """A suit from a name (English or German), a symbol, or nothing else."""
    key = text.strip().lower()
    if key in _SUIT_WORDS:
        return _SUIT_WORDS[key]
    if key in _SYMBOL_SUITS:
        return _SYMBOL_SUITS[key]
    raise CardError(f"unknown suit {text!r} (use clubs, spades, hearts, diamonds, eichel, "
                    f"gruen, rot, schellen or a symbol ♣ ♠ ♥ ♦)")


def parse_card(text: str, notation: str = FRENCH) -> Card:
    """Read one card in the given notation; suit symbols are read in either notation.  A card
    of the other notation is refused with the line that makes the file read it."""
    try:
        return _parse_card(text, notation)
    except CardError as exc:
        other = GERMAN if notation == FRENCH else FRENCH
        try:
            _parse_card(text, other)
        except CardError:
            raise exc from None
        raise CardError(f"{exc}; a {other} card? the file reads {notation} letters: write "
                        f"cards = \"{other}\" in it") from None


def _parse_card(text: str, notation: str) -> Card:
    raw = text.strip()
    if not raw:
        raise CardError("empty card")
    first, rest = raw[0], raw[1:]
    suit: int | None
    if first in _SYMBOL_SUITS:
        suit = _SYMBOL_SUITS[first]
    else:
        letters = {v: k for k, v in SUIT_LETTERS[notation].items()}
        suit = letters.get(first.upper())
        if suit is None:
            raise CardError(f"unknown card {raw!r}: {first!r} is not a suit in {notation} "
                            f"notation (suits: {' '.join(letters)} or ♣ ♠ ♥ ♦)")
    ranks = {v: k for k, v in RANK_LETTERS[notation].items()}
    ranks.update(_EXTRA_RANKS[notation])
    rank = ranks.get(rest.upper())
    if rank is None:
        raise CardError(f"unknown card {raw!r}: {rest!r} is not a rank in {notation} notation "
                        f"(ranks: {' '.join(RANK_LETTERS[notation].values())})")
    return GermanCard(suit, rank) if notation == GERMAN else Card(suit, rank)


def parse_cards(text: str, notation: str = FRENCH) -> list[Card]:
    """Read cards separated by white space."""
    return [parse_card(token, notation) for token in text.split()]


def format_cards(cards: Iterable[Card], notation: str = FRENCH) -> str:
    return " ".join(card.text(notation) for card in cards)


def suit_name(suit: int, notation: str = FRENCH) -> str:
    return SUIT_NAMES[notation][suit]


def suit_symbol(suit: int) -> str:
    return SUIT_SYMBOLS[suit]

"""Constraints on random deals: a small predicate language (``stich deal --where``) and
predicate files (``stich deal --predicate FILE.py``).

The language, in the spirit of redeal's scripts but in words.  Words are case-insensitive;
cards are written as in deal files, in the game's notation (suit symbols in either).

    constraint := or-expr
    or-expr    := and-expr ("or" and-expr)*
    and-expr   := not-expr ("and" not-expr)*
    not-expr   := "not" not-expr | "(" or-expr ")" | clause
    clause     := subject verb object
    subject    := "seat" N [part]                 one seat
                | "seats" N "+" N ["+" N ...] [part]   the cards of those seats pooled
                | "some seat" [part]              at least one seat (each seat on its own)
                | "every seat" [part]             each seat on its own
                | "no seat" [part]                not one seat
                | "stock"                         Elfern: the 20-card stock
    part       := "up" | "down"                   Schafkopf2: only the face-up / face-down cards
    verb       := "holds" | "hold" | "has" | "have"
    object     := CARD [CARD ...]                 every one of these cards
                | "any of" CARD [CARD ...]        at least one of them
                | "none of" CARD [CARD ...]       none of them (also: "no" CARD ...)
                | "a bare" (RANK | CARD) ["in" SUIT]
                                                  a card of that rank (or that card) which is
                                                  the only card of its effective suit held
                                                  ("singleton" = "bare")
                | "the top" N "trumps"            every one of the N highest trumps
                | "a" | "an" KIND                 at least one
                | "no" KIND                       none
                | COUNT KIND
    COUNT      := N | "exactly" N | "at least" N | "at most" N | "more than" N
                | "fewer than" N | "less than" N | "between" N "and" N
    KIND       := "cards" | "trumps" | SUIT | RANK-plural | "honours" | "points" | "matadors"
    N          := 0, 1, 2, ... or zero .. twelve

What the words mean, per game:

* held cards: Scharwenzel and Elfern the hand as dealt (Elfern: the first six cards, not the
  stock); Schafkopf2 all 16 cards of the seat's piles, face-up and face-down (``up``/``down``
  for one layer).
* SUIT (clubs spades hearts diamonds, eichel gruen/grün rot schellen, or ♣ ♠ ♥ ♦, singular
  or plural) is the *effective* suit (rules.md: every trump belongs to the trump suit): in
  Scharwenzel with hearts trump, "hearts" are all the trumps (♣Q, ♥7, ♠Q, the Jacks, ♥A ...)
  and no Jack is a plain heart; in Schafkopf2 (schellen mode) "schellen" are the 14 trumps
  and "eichel" are EA E10 EK E9 E8 E7.  "no hearts" = void: cannot follow a hearts lead.
* trumps: the cards of the trump suit of the deal (Scharwenzel: its `trump`; Schafkopf2:
  Ober, Unter and Schellen, or in card17 mode the trumps of the 17th card's suit).  Elfern
  has none (an error).  "the top N trumps": the N highest, e.g. "seats 1+3 hold the top 3
  trumps" = the Scharwenzel matadors ♣Q, T7, ♠Q.
* matadors: how many trumps the holder has in unbroken order from the top (0 if it lacks the
  highest).  Scharwenzel scores them only from 3 up, and at most 7.
* RANK-plural: the printed rank: aces (daus), kings, queens (obers), jacks (unters), tens,
  nines, eights, sevens, sixes.  "at least 2 jacks" counts Jacks whatever their suit.
* honours: the cards that count in a game scored in honours (Elfern's and Bohemian
  Schneider's A K Q J 10, one each: the game's card values say which); only in such games.
* points: the sum of the card values of the game (Schafkopf2 card points A 11, 10 10, K 4,
  O 3, U 2; Elfern honours); not in Scharwenzel (it counts tricks).
* "a bare ten": the holder has a ten that is the only card of its effective suit it holds
  (a plain ten alone in its suit; in Scharwenzel the trump ten only if it is the holder's one
  trump).  "a bare ♥10": that card, alone in its effective suit.  "a bare ten in hearts":
  a bare ten whose effective suit is hearts.
* seats of pooled subjects ("seats 1+3") count together: "seats 1+3 hold at least 7 trumps".

Predicate files (``--predicate FILE.py``) define ``accept(deal) -> bool``; see
``load_predicate``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from stich.files.interrupt import USER_RAISES
from stich.files.userfile import UserFileError, load_module, users_fault
from stich.games import GAMES
from stich.games.layouts import LAYOUTS
from stich.model.cards import (
    ACE,
    EIGHT,
    FRENCH,
    GERMAN,
    JACK,
    KING,
    NINE,
    QUEEN,
    SEVEN,
    SIX,
    TEN,
    Card,
    CardError,
    parse_card,
)

from .deal import Deal
from .dealing import holding

Predicate = Callable[[Deal], bool]
_Test = Callable[["_View"], bool]                    # a compiled clause, on the deal's view
_Counter = Callable[["_View", tuple[Card, ...]], int]  # (view, held) -> how many of a kind


MAX_NESTING = 50          # parentheses; deeper would only exhaust Python's stack


class ConstraintError(ValueError):
    """A constraint that cannot be read: the message, the text and the bad part in it."""

    def __init__(self, message: str, text: str = "", start: int = 0, end: int = 0):
        super().__init__(message)
        self.message, self.text, self.start, self.end = message, text, start, end

    def pointer(self) -> str:
        """The constraint with the bad part underlined (two lines), or '' without a text."""
        if not self.text:
            return ""
        width = max(1, self.end - self.start)
        return f"  {self.text}\n  {' ' * self.start}{'^' * width}"

    def __str__(self) -> str:
        return self.message


# --- words ----------------------------------------------------------------------------------------

NUMBER_WORDS = {w: i for i, w in enumerate(
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
     "eleven", "twelve"])}
SUIT_WORDS = {
    "clubs": 0, "club": 0, "eichel": 0, "♣": 0,
    "spades": 1, "spade": 1, "gruen": 1, "grün": 1, "♠": 1,
    "hearts": 2, "heart": 2, "rot": 2, "herz": 2, "♥": 2,
    "diamonds": 3, "diamond": 3, "schellen": 3, "♦": 3,
}
RANK_WORDS = {
    "ace": ACE, "aces": ACE, "daus": ACE, "ass": ACE,
    "king": KING, "kings": KING,
    "queen": QUEEN, "queens": QUEEN, "ober": QUEEN, "obers": QUEEN,
    "jack": JACK, "jacks": JACK, "unter": JACK, "unters": JACK,
    "ten": TEN, "tens": TEN, "nine": NINE, "nines": NINE, "eight": EIGHT, "eights": EIGHT,
    "seven": SEVEN, "sevens": SEVEN, "six": SIX, "sixes": SIX,
}
KIND_WORDS = {"card": "cards", "cards": "cards", "trump": "trumps", "trumps": "trumps",
              "honour": "honours", "honours": "honours", "honor": "honours", "honors": "honours",
              "point": "points", "points": "points", "matador": "matadors", "matadors": "matadors"}
VERBS = ("holds", "hold", "has", "have")
LAYOUT_SUBJECTS = {layout.where_subject for layout in LAYOUTS if layout.where_subject}   # "stock"
LAYOUT_PARTS = tuple(sorted({part for layout in LAYOUTS for part in layout.where_parts}))  # "up", "down"

_TOKEN = re.compile(r"\(|\)|\+|[^\s()+]+")


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int

    @property
    def word(self) -> str:
        return self.text.lower()


@dataclass(frozen=True)
class GameInfo:
    """What the parser checks words against: the game, its seats, pack and holdings."""

    game: str
    players: int
    notation: str
    deck: frozenset
    hand_size: int              # cards a seat holds as dealt
    layer_size: int             # piles: cards in one layer (up or down)
    words: frozenset = frozenset()   # the game's own words (Game.where_words)
    title: str = ""
    players_vary: bool = False

    @classmethod
    def of(cls, game: str, players: int, notation: str | None = None) -> GameInfo:
        spec = GAMES[game]
        options = spec.resolve_options({})
        rules = spec.build(3, options, players)
        deck = frozenset(rules.deck)
        size = spec.layout.full_hand(len(deck), players)
        return cls(game, players, notation or spec.default_notation, deck, size,
                   getattr(spec.layout, "count", size), spec.where_words(rules), spec.title,
                   spec.players_vary)

    def offers(self, word: str) -> bool:
        return word in self.words


def _games_offering(word: str, what: str = "") -> str:
    """'Elfern has' / "Schafkopf2's piles": the games whose ``--where`` offers ``word``."""
    names = []
    for spec in GAMES.values():
        rules = spec.build(3, spec.resolve_options({}), spec.default_players)
        if word in spec.where_words(rules):
            names.append(" ".join(word.capitalize() for word in spec.name.split("_")))
    text = " and ".join(names) or "no game"
    if what == "in":
        return text
    if what:
        return " and ".join(f"{name}'s {what}" for name in names) or "no game"
    return text + (" has" if len(names) == 1 else " have")


# --- parsing --------------------------------------------------------------------------------------

class _Parser:
    def __init__(self, text: str, info: GameInfo):
        self.text, self.info = text, info
        self.tokens = [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
        self.i = 0
        self.depth = 0

    # helpers
    def fail(self, message: str, token: Token | None = None) -> ConstraintError:
        if token is None:
            token = self.peek()
        if token is None:           # at the end: point just past the text
            n = len(self.text.rstrip())
            return ConstraintError(message, self.text, n, n + 1)
        return ConstraintError(message, self.text, token.start, token.end)

    def peek(self, ahead: int = 0) -> Token | None:
        k = self.i + ahead
        return self.tokens[k] if k < len(self.tokens) else None

    def next(self, wanted: str) -> Token:
        token = self.peek()
        if token is None:
            raise self.fail(f"the constraint stops too early: expected {wanted}")
        self.i += 1
        return token

    def accept(self, *words: str) -> Token | None:
        token = self.peek()
        if token is not None and token.word in words:
            self.i += 1
            return token
        return None

    def expect(self, word: str, wanted: str | None = None) -> Token:
        token = self.peek()
        if token is None or token.word != word:
            found = f"{token.text!r}" if token else "the end"
            raise self.fail(f"expected {wanted or repr(word)}, found {found}")
        self.i += 1
        return token

    # grammar
    def parse(self) -> _Test:
        if not self.tokens:
            raise ConstraintError("empty constraint (e.g. \"seat 1 holds at least 4 trumps\")",
                                  self.text, 0, 1)
        pred = self.or_expr()
        token = self.peek()
        if token is not None:
            raise self.fail(f"unexpected {token.text!r}: a clause ends here; join clauses with "
                            f"'and' / 'or'")
        return pred

    def or_expr(self) -> _Test:
        parts = [self.and_expr()]
        while self.accept("or"):
            parts.append(self.and_expr())
        return parts[0] if len(parts) == 1 else (lambda view: any(p(view) for p in parts))

    def and_expr(self) -> _Test:
        parts = [self.not_expr()]
        while self.accept("and"):
            parts.append(self.not_expr())
        return parts[0] if len(parts) == 1 else (lambda view: all(p(view) for p in parts))

    def not_expr(self) -> _Test:
        negate = False
        while self.accept("not"):          # a loop, not recursion: 'not not not ...' of any length
            negate = not negate
        inner = self.operand()
        return (lambda view: not inner(view)) if negate else inner

    def operand(self) -> _Test:
        opening = self.accept("(")
        if not opening:
            return self.clause()
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.fail(f"parentheses nested more than {MAX_NESTING} deep", opening)
        inner = self.or_expr()
        if not self.accept(")"):
            raise self.fail("expected ')' to close the '(' here", opening)
        self.depth -= 1
        return inner

    def clause(self) -> _Test:
        subject = self.subject()
        token = self.peek()
        if token is None or token.word not in VERBS:
            found = repr(token.text) if token else "the end"
            raise self.fail(f"expected 'holds' or 'has' after the subject, found {found}")
        self.i += 1
        test = self.object(subject)
        mode, seats, part = subject
        if mode == "pool":
            return lambda view: test(view, view.cards(seats, part))
        if mode == "subject":
            return lambda view: test(view, view.subject_cards())
        groups = [(s,) for s in range(1, self.info.players + 1)]
        if mode == "some":
            return lambda view: any(test(view, view.cards(g, part)) for g in groups)
        if mode == "every":
            return lambda view: all(test(view, view.cards(g, part)) for g in groups)
        return lambda view: not any(test(view, view.cards(g, part)) for g in groups)     # "no seat"

    def subject(self):
        token = self.peek()
        if token is None:
            raise self.fail("expected a subject: 'seat N', 'seats N+M', 'some seat', "
                            "'every seat', 'no seat' or 'stock'")
        word = token.word
        if word in LAYOUT_SUBJECTS:
            self.i += 1
            if not self.info.offers(word):
                raise self.fail(f"only {_games_offering(word)} a {word}, not {self.info.game}", token)
            return ("subject", (), None)
        if word in ("some", "any", "every", "each", "no"):
            self.i += 1
            self.expect_seat_word()
            mode = {"some": "some", "any": "some", "every": "every", "each": "every", "no": "none"}[word]
            return (mode, (), self.part())
        if word in ("seat", "seats"):
            self.i += 1
            seats = [self.seat()]
            while self.accept("+"):
                seats.append(self.seat())
            if len(set(seats)) != len(seats):
                raise self.fail("a seat is named twice", token)
            return ("pool", tuple(seats), self.part())
        raise self.fail(f"expected a subject ('seat N', 'seats N+M', 'some seat', 'every seat', "
                        f"'no seat' or 'stock'), found {token.text!r}", token)

    def expect_seat_word(self) -> None:
        if not self.accept("seat", "seats"):
            token = self.peek()
            raise self.fail(f"expected 'seat', found {token.text!r}" if token else "expected 'seat'")

    def seat(self) -> int:
        token = self.next("a seat number")
        n = self.number_of(token)
        if n is None:
            raise self.fail(f"expected a seat number, found {token.text!r}", token)
        if not 1 <= n <= self.info.players:
            raise self.fail(f"no seat {n}: {self.info.game} has seats 1..{self.info.players}", token)
        return n

    def part(self) -> str | None:
        token = self.accept(*LAYOUT_PARTS)
        if token is None:
            return None
        if not self.info.offers(token.word):
            raise self.fail(f"'{token.word}' (a part of a seat's cards) is only for "
                            f"{_games_offering(token.word, 'in')}", token)
        return token.word

    @staticmethod
    def number_of(token: Token) -> int | None:
        if token.text.isdigit():
            return int(token.text)
        return NUMBER_WORDS.get(token.word)

    def number(self) -> int:
        token = self.next("a number")
        n = self.number_of(token)
        if n is None:
            raise self.fail(f"expected a number, found {token.text!r}", token)
        return n

    def is_card(self, token: Token | None) -> bool:
        """Does the token read as a card (in the pack or not)?"""
        if token is None or token.word in KIND_WORDS or token.word in SUIT_WORDS \
                or token.word in RANK_WORDS or token.word in NUMBER_WORDS:
            return False
        return self.read_card(token)[0] is not None

    def read_card(self, token: Token) -> tuple[Card | None, str]:
        """The card of a token in the game's notation (a suit symbol with a rank of either
        notation also reads), or (None, why not)."""
        notation = self.info.notation
        try:
            return parse_card(token.text, notation), ""
        except CardError as exc:
            if token.text[:1] in "♣♠♥♦♧♤♡♢":
                other = GERMAN if notation == FRENCH else FRENCH
                try:
                    return parse_card(token.text, other), ""
                except CardError:
                    pass
            return None, str(exc)

    def card_of(self, token: Token) -> Card:
        card, why = self.read_card(token)
        if card is None:
            raise self.fail(why, token)
        if card not in self.info.deck:
            raise self.fail(f"{token.text} is not in the {len(self.info.deck)}-card pack of "
                            f"{self.info.game}" + (f" with {self.info.players} players"
                                                   if self.info.players_vary else ""), token)
        return card

    def cards(self) -> tuple[Card, ...]:
        token = self.peek()
        if token is None:
            raise self.fail("expected a card (e.g. ♣Q, H10, EO)")
        cards = [self.card_of(self.next("a card"))]
        while self.is_card(self.peek()):
            cards.append(self.card_of(self.next("a card")))
        return tuple(cards)

    def suit(self) -> int:
        token = self.next("a suit")
        if token.word not in SUIT_WORDS:
            raise self.fail(f"expected a suit (clubs spades hearts diamonds, eichel gruen rot "
                            f"schellen, ♣ ♠ ♥ ♦), found {token.text!r}", token)
        return SUIT_WORDS[token.word]

    def size(self, part: str | None) -> int:
        return self.info.layer_size if part else self.info.hand_size

    # objects
    def object(self, subject) -> Callable[[_View, tuple[Card, ...]], bool]:
        token = self.peek()
        if token is None:
            raise self.fail("expected what is held: cards, a count ('at least 4 trumps'), "
                            "'no hearts', 'a bare ten' or 'the top 3 trumps'")
        word = token.word
        ahead = self.peek(1)
        then = ahead.word if ahead is not None else None
        if word in ("any", "none") and then == "of":
            self.i += 2
            cards = self.cards()
            if word == "any":
                return lambda view, held: any(c in held for c in cards)
            return lambda view, held: not any(c in held for c in cards)
        if word in ("all", "every") and then == "of":
            self.i += 2
            cards = self.cards()
            return lambda view, held: all(c in held for c in cards)
        if word == "no":
            self.i += 1
            if self.is_card(self.peek()):
                cards = self.cards()
                return lambda view, held: not any(c in held for c in cards)
            count = self.kind(subject)
            return lambda view, held: count(view, held) == 0
        if word in ("a", "an", "the") and then in ("bare", "singleton"):
            self.i += 2
            return self.bare()
        if word == "the" and then == "top":
            self.i += 2
            n = self.number()
            self.expect_kind("trumps", "'trumps' (as in 'the top 3 trumps')")
            self.no_trumps_check()
            if n < 1:
                raise self.fail("'the top N trumps' needs N of 1 or more")
            return lambda view, held: all(c in held for c in view.trumps()[:n])
        if word in ("a", "an"):
            self.i += 1
            if self.is_card(self.peek()):          # "a ♣Q": that card
                cards = self.cards()
                return lambda view, held: all(c in held for c in cards)
            count = self.kind(subject)
            return lambda view, held: count(view, held) >= 1
        if self.is_card(token):
            cards = self.cards()
            return lambda view, held: all(c in held for c in cards)
        compare = self.count()
        count = self.kind(subject, compare)
        return lambda view, held: compare[0](count(view, held))

    def expect_kind(self, kind: str, wanted: str) -> None:
        token = self.next(wanted)
        if KIND_WORDS.get(token.word) != kind:
            raise self.fail(f"expected {wanted}, found {token.text!r}", token)

    def no_trumps_check(self, token: Token | None = None) -> None:
        if not self.info.offers("trumps"):
            raise self.fail(f"{self.info.title} has no trumps", token or self.tokens[self.i - 1])

    def count(self):
        token = self.peek()
        if token is None:
            raise self.fail("expected a count such as 'at least 4'")
        word = token.word
        start = token
        if word in ("at", "more", "fewer", "less") or word in ("exactly", "between"):
            self.i += 1
            if word == "at":
                how = self.next("'least' or 'most'")
                if how.word not in ("least", "most"):
                    raise self.fail(f"expected 'at least' or 'at most', found 'at {how.text}'", how)
                n = self.number()
                return ((lambda v, n=n: v >= n) if how.word == "least" else (lambda v, n=n: v <= n),
                        ("min" if how.word == "least" else "max", n), start)
            if word in ("more", "fewer", "less"):
                self.expect("than", f"'{word} than'")
                n = self.number()
                return ((lambda v, n=n: v > n) if word == "more" else (lambda v, n=n: v < n),
                        ("min", n + 1) if word == "more" else ("max", n - 1), start)
            if word == "exactly":
                n = self.number()
                return (lambda v: v == n), ("min", n), start
            low = self.number()
            self.expect("and", "'and' (as in 'between 3 and 5')")
            high = self.number()
            if low > high:
                raise self.fail(f"'between {low} and {high}': the first number must not be larger",
                                start)
            return (lambda v: low <= v <= high), ("min", low), start
        exact = self.number_of(token)
        if exact is None:
            raise self.fail(f"expected cards, a count ('at least 4 trumps', 'exactly 2 aces'), "
                            f"'no hearts', 'a bare ten' or 'the top 3 trumps'; found {token.text!r}",
                            token)
        self.i += 1
        return (lambda v: v == exact), ("min", exact), start

    def kind(self, subject, compare=None) -> _Counter:
        """A counter ``(view, held) -> int`` for the KIND word here."""
        token = self.next("what to count: cards, trumps, a suit, a rank, honours, points or matadors")
        word = token.word
        if word in SUIT_WORDS:
            suit = SUIT_WORDS[word]
            counter = lambda view, held: sum(1 for c in held if view.suit(c) == suit)
        elif word in RANK_WORDS:
            rank = RANK_WORDS[word]
            counter = lambda view, held: sum(1 for c in held if c.rank == rank)
        elif word in KIND_WORDS:
            kind = KIND_WORDS[word]
            if kind == "cards":
                counter = lambda view, held: len(held)
            elif kind == "trumps":
                self.no_trumps_check(token)
                counter = lambda view, held: sum(1 for c in held if view.is_trump(c))
            elif kind == "honours":
                if not self.info.offers("honours"):
                    raise self.fail(f"honours count only in {_games_offering('honours', 'in')} (use "
                                    "'points' for card points, or a rank such as 'aces')", token)
                counter = lambda view, held: sum(1 for c in held if view.value(c) > 0)
            elif kind == "points":
                if not self.info.offers("points"):
                    raise self.fail(f"{self.info.title} cards carry no points (it counts tricks); "
                                    "count trumps, aces, ... instead", token)
                counter = lambda view, held: sum(view.value(c) for c in held)
            else:   # matadors
                self.no_trumps_check(token)
                counter = lambda view, held: view.matadors(held)
        else:
            raise self.fail(f"cannot count {token.text!r}: count cards, trumps, a suit (hearts, "
                            f"rot, ♥ ...), a rank (aces, tens, ...), honours, points or matadors",
                            token)
        if compare is not None and word not in ("point", "points") and subject[0] != "subject":
            bound, n = compare[1]
            seats = max(1, len(subject[1]))
            most = self.size(subject[2]) * seats
            if bound == "min" and n > most:
                first, last = compare[2], self.tokens[self.i - 2]
                raise ConstraintError(
                    f"impossible: {'those seats hold' if seats > 1 else 'a seat holds'} only "
                    f"{most} cards", self.text, first.start, last.end)
        return counter

    def bare(self):
        token = self.peek()
        if token is None:
            raise self.fail("expected a rank or a card after 'bare' (e.g. 'a bare ten')")
        if token.word in RANK_WORDS:
            self.i += 1
            rank = RANK_WORDS[token.word]
            if not any(c.rank == rank for c in self.info.deck):
                raise self.fail(f"there are no {token.text}s in this pack", token)
            match = lambda c, r=rank: c.rank == r
        elif self.is_card(token):
            card = self.card_of(self.next("a card"))
            match = lambda c, k=card: c == k
        else:
            raise self.fail(f"expected a rank (ace king queen jack ten nine eight seven six, "
                            f"ober unter daus) or a card after 'bare', found {token.text!r}", token)
        suit = None
        if self.accept("in", "of"):
            suit = self.suit()

        def test(view, held, match=match, suit=suit):
            for card in held:
                if match(card):
                    s = view.suit(card)
                    if (suit is None or s == suit) and sum(1 for c in held if view.suit(c) == s) == 1:
                        return True
            return False
        return test


# --- evaluation -----------------------------------------------------------------------------------

class _View:
    """One deal as the compiled predicates see it."""

    def __init__(self, deal: Deal):
        self.deal = deal
        self.rules = deal.rule_set
        self._suits = self.rules.effective_suit

    def cards(self, seats: tuple[int, ...], part: str | None) -> tuple[Card, ...]:
        if len(seats) == 1:
            return holding(self.deal, seats[0], part)
        return tuple(c for s in seats for c in holding(self.deal, s, part))

    def subject_cards(self) -> tuple[Card, ...]:
        """The cards of the layout's own subject (the stock)."""
        return self.deal.game_spec.layout.subject_cards(self.deal)

    def suit(self, card: Card) -> int:
        return self._suits[card]

    def is_trump(self, card: Card) -> bool:
        return self.rules.is_trump(card)

    def value(self, card: Card) -> int:
        return self.rules.values[card]

    def trumps(self) -> tuple[Card, ...]:
        return self.rules.trumps

    def matadors(self, held) -> int:
        held = set(held)
        count = 0
        for card in self.rules.trumps:
            if card not in held:
                break
            count += 1
        return count


def parse_constraint(text: str, game: str, players: int | None = None,
                     notation: str | None = None) -> Predicate:
    """Compile one constraint of the language above for ``game`` into ``accept(deal)``.
    Raises ``ConstraintError`` (with the position of the bad part) if it cannot be read."""
    if game not in GAMES:
        raise ConstraintError(f"unknown game {game!r}")
    info = GameInfo.of(game, players or GAMES[game].default_players, notation)
    compiled = _Parser(text, info).parse()

    def accept(deal: Deal) -> bool:
        return bool(compiled(_View(deal)))
    accept.__doc__ = text
    return accept


def all_of(predicates) -> Predicate | None:
    """One predicate that holds when every one of ``predicates`` does (None if there are none)."""
    predicates = tuple(predicates)
    if not predicates:
        return None
    if len(predicates) == 1:
        return predicates[0]
    return lambda deal: all(p(deal) for p in predicates)


# --- predicate files ------------------------------------------------------------------------------

def load_predicate(path: str | Path) -> Predicate:
    """Load ``accept(deal) -> bool`` from a Python file.

    The deal is a ``stich.deals.deal.Deal`` (a whole deal as dealt, equal to the one written):
    ``deal.game``, ``deal.players``, ``deal.notation``; ``deal.hands`` {seat: (Card, ...)}
    (Scharwenzel, Elfern); ``deal.piles`` {seat: (Pile(up, down), ...)} (Schafkopf2);
    ``deal.stock`` (Elfern, top card first); ``deal.trump_suit`` (0 clubs .. 3 diamonds, or
    None); ``deal.rule_set`` with ``effective_suit[card]``, ``is_trump(card)``,
    ``power[card]`` (higher beats lower within an effective suit; trumps above 100),
    ``trumps`` (high to low), ``values[card]`` (card points / honours) and ``deck``.  A
    ``Card`` is ``(suit, rank)`` with the constants of ``stich.model.cards`` (CLUBS .. DIAMONDS,
    SEVEN .. ACE) and ``stich.model.cards.parse_card("♣Q")``.  ``stich.deals.dealing.holding(deal,
    seat, part=None)`` gives every card a seat holds (piles: up and down, or one layer).
    """
    path = Path(path)
    try:
        module = load_module(path, "predicate file")
    except UserFileError as exc:
        raise ConstraintError(str(exc)) from None
    accept = getattr(module, "accept", None)
    if not callable(accept):
        raise ConstraintError(f"{path}: defines no function accept(deal) -> bool")

    def checked(deal: Deal) -> bool:
        try:
            return bool(accept(deal))
        except USER_RAISES as exc:      # user code; but Ctrl-C stops the dealing
            raise ConstraintError(f"{path}: accept() raised {users_fault(exc)}") from None
    return checked

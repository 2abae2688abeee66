"""The tactic API: a named, documented rule that advises legal cards, and the registry.

A tactic is a callable ``tactic(view) -> cards | None``.  ``view`` is a read-only ``View`` of
the position where a decision is taken (the referee ``solver.model.position.Position``, the deal,
the seat to move and its legal cards).  It returns the cards it advises (a subset of
``view.legal``), or None / an empty collection when it does not apply here.  What a tactic
returns is checked: a card that is not legal raises ``TacticError`` (bad input, exit 2).

Tactics are registered under a dotted name ``game.name`` (``schafkopf2.bare_ten.lead_at_once``);
their docstring is their documentation (the source sentence and the exact formalisation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from solver.deals.deal import Deal
from solver.model.cards import Card
from solver.model.position import Position


class TacticError(ValueError):
    """A tactic that cannot be used: unknown, not loadable, raising, or advising illegal cards."""


@dataclass(frozen=True)
class View:
    """What a tactic sees: everything (double dummy), read-only.  Seats are 0-based as in
    ``Position``; ``seat + 1`` is the seat of the deal file."""

    position: Position
    deal: Deal
    seat: int
    legal: tuple[Card, ...]

    # --- convenience, all derived from the position ------------------------------------------
    @property
    def rules(self):
        return self.position.rules

    @property
    def is_lead(self) -> bool:
        return not self.position.trick

    @property
    def trick(self) -> tuple[Card, ...]:
        return tuple(self.position.trick)

    @property
    def side(self) -> int:
        return self.rules.side(self.seat)

    def held(self, seat: int | None = None) -> list[Card]:
        """Every card a seat holds (face-down pile cards included); default: the mover."""
        return self.position.held(self.seat if seat is None else seat)

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

    def winning(self) -> Card | None:
        """The card now winning the trick in progress (None at a lead)."""
        trick = self.position.trick
        return trick[self.rules.trick_winner(trick)] if trick else None

    def winning_seat(self) -> int | None:
        trick = self.position.trick
        if not trick:
            return None
        return (self.position.leader + self.rules.trick_winner(trick)) % self.rules.seats

    def beats(self, card: Card, other: Card) -> bool:
        return self.rules.beats(card, other)

    def would_win(self, card: Card) -> bool:
        """Does ``card`` beat the card now winning the trick (False at a lead)?"""
        best = self.winning()
        return best is not None and self.rules.beats(card, best)

    def played(self) -> list[Card]:
        """Every card already played in finished tricks."""
        return [c for record in self.position.history for c in record.cards]

    def value(self, card: Card) -> int:
        return self.rules.values[card]


Advice = Callable[[View], "Iterable[Card] | None"]


@dataclass(frozen=True)
class Tactic:
    """A named rule with its documentation.  ``game``: the game it is written for (None: any)."""

    name: str
    game: str | None
    advise: Advice
    doc: str = ""

    @property
    def summary(self) -> str:
        return (self.doc.strip().splitlines() or [""])[0]

    def __call__(self, view: View) -> tuple[Card, ...] | None:
        """The advised cards (sorted in the order of ``view.legal``), or None if it does not
        apply.  Raises ``TacticError`` if the tactic raises or advises a card that is not legal."""
        try:
            answer = self.advise(view)
        except TacticError:
            raise
        except Exception as exc:  # noqa: BLE001 - a user's tactic may raise anything
            raise TacticError(f"tactic {self.name} raised {type(exc).__name__}: {exc}") from None
        if answer is None:
            return None
        if isinstance(answer, Card):
            answer = [answer]
        try:
            cards = list(answer)
        except TypeError:
            raise TacticError(f"tactic {self.name} returned {answer!r}, not a list of cards") from None
        if not cards:
            return None
        for card in cards:
            if not isinstance(card, Card):
                raise TacticError(f"tactic {self.name} returned {card!r}, which is not a Card")
            if card not in view.legal:
                why = view.position.why_illegal(card) or "not among the legal cards"
                raise TacticError(f"tactic {self.name} advised {card.text(view.deal.notation)}, "
                                  f"which is not legal here ({why})")
        chosen = set(cards)
        return tuple(c for c in view.legal if c in chosen)


REGISTRY: dict[str, Tactic] = {}


def tactic(name: str, game: str | None = None) -> Callable[[Advice], Advice]:
    """Decorator: register ``function`` as tactic ``name`` (its docstring documents it)."""
    def register(function: Advice) -> Advice:
        REGISTRY[name] = Tactic(name, game, function, function.__doc__ or "")
        return function
    return register


def make_view(position: Position, deal: Deal) -> View:
    """The view of the seat to move (the position is copied, so a tactic cannot change it)."""
    copy = position.copy()
    return View(copy, deal, copy.to_move, tuple(copy.legal_moves()))


def deal_here(view: View) -> Deal:
    """The deal with its ``play`` extended to the view's position (e.g. to solve it)."""
    return view.deal.with_play(play_to(view.deal, [c for r in view.position.history for c in r.cards]
                                       + list(view.position.trick), from_start=False))


def play_to(deal: Deal, cards: list[Card], from_start: bool = True) -> tuple[tuple[Card, ...], ...]:
    """The ``play`` of ``deal`` followed by ``cards`` (``from_start``), or ``cards`` alone, cut
    into tricks of one card per seat (the last one may be unfinished)."""
    flat = ([c for trick in deal.play for c in trick] if from_start else []) + list(cards)
    n = deal.players
    return tuple(tuple(flat[i:i + n]) for i in range(0, len(flat), n))

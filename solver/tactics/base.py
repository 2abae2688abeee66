"""The tactic API: a named, documented rule that advises legal cards, and the registry.

A tactic is a callable ``tactic(view) -> cards | None``.  ``view`` is what the mover sees at
the decision (``stich.tactics.view.PlayerView``: his own visible cards, every face-up card,
the cards played and what play revealed); it never holds the deal.  The tactic returns the
cards it advises (a subset of ``view.legal``), or None / an empty collection when it does not
apply.  Advice that names every legal card says nothing, so it counts as not applying (one
rule for every tactic).  What a tactic returns is checked: a card that is not legal, a
function that raises, or one that reaches for a hidden card raises ``TacticError`` (bad
input, exit 2, one line).

Tactics are registered under a dotted name ``game.name`` (``schafkopf2.bare_ten.lead_at_once``);
their docstring is their documentation (the source sentence and the exact formalisation).  The
double-dummy readings of the old studies, which read every card, are kept only under names
starting with ``double_dummy.`` and get a ``FullView``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from stich.files.interrupt import USER_RAISES
from stich.files.userfile import shown, users_fault
from stich.model.cards import Card

from .view import HiddenCardError

DOUBLE_DUMMY = "double_dummy."        # the name prefix of the tactics that read every card


class TacticError(ValueError):
    """A tactic that cannot be used: unknown, not loadable, raising, or advising illegal cards."""


Advice = Callable[..., "Iterable[Card] | None"]


@dataclass(frozen=True)
class Tactic:
    """A named rule with its documentation.  ``game``: the game it is written for (None: any);
    ``sees_all``: it reads every card (a double-dummy reading; its name says so)."""

    name: str
    game: str | None
    advise: Advice
    doc: str = ""
    sees_all: bool = False

    @property
    def summary(self) -> str:
        """The first line of its documentation: the advice in words (its name if undocumented)."""
        return (self.doc.strip().splitlines() or [self.name])[0]

    def __call__(self, view) -> tuple[Card, ...] | None:
        """The advised cards (in the order of ``view.legal``), or None if it does not apply
        here (no card, or every legal card).  Raises ``TacticError`` if the tactic raises,
        reaches for a hidden card, or advises a card that is not legal."""
        cards = self._cards(self._ask(view))
        if cards is None:
            return None
        for card in cards:
            if card not in view.legal:
                raise TacticError(f"tactic {self.name} advised {card}, which is not legal here "
                                  f"(legal: {' '.join(map(str, view.legal))})")
        chosen = set(cards)
        if chosen >= set(view.legal):
            return None
        return tuple(c for c in view.legal if c in chosen)

    def _ask(self, view):
        try:
            return self.advise(view)
        except TacticError:
            raise
        except HiddenCardError as exc:
            raise TacticError(f"tactic {self.name} reaches for a card the mover cannot see: {exc}") from None
        except USER_RAISES as exc:      # a user's tactic may raise anything; Ctrl-C stops the run
            raise TacticError(f"tactic {self.name} raised {users_fault(exc)}") from None

    def _cards(self, answer) -> list[Card] | None:
        if answer is None:
            return None
        if isinstance(answer, Card):
            answer = [answer]
        try:
            cards = list(answer)
        except TypeError:
            raise TacticError(f"tactic {self.name} returned {shown(answer)}, not a list of cards") from None
        except USER_RAISES as exc:      # a generator of the tactic's raised while it was read
            raise TacticError(f"tactic {self.name} raised {users_fault(exc)}") from None
        for card in cards:
            if not isinstance(card, Card):
                raise TacticError(f"tactic {self.name} returned {shown(card)}, which is not a Card")
        return cards or None


REGISTRY: dict[str, Tactic] = {}


def tactic(name: str, game: str | None = None) -> Callable[[Advice], Advice]:
    """Decorator: register ``function`` as tactic ``name`` (its docstring documents it).  A
    name starting with ``double_dummy.`` registers a reading that sees every card."""
    def register(function: Advice) -> Advice:
        REGISTRY[name] = Tactic(name, game, function, function.__doc__ or "",
                                sees_all=name.startswith(DOUBLE_DUMMY))
        return function
    return register

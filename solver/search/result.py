"""What a solve answers: small value types, shared by the exact and the bounded solve."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from stich.deals.deal import Deal
from stich.model.cards import Card
from stich.model.outcome import Outcome

__all__ = ["ExactFigures", "MoveValue", "PartialAnswer", "Result", "known"]


T = TypeVar("T")


class PartialAnswer(ValueError):
    """An exact figure was read from a partial answer (a limit or Ctrl-C stopped the solve)."""


def known(value: T | None, what: str) -> T:
    """``value``, which only a partial answer leaves None."""
    if value is None:
        raise PartialAnswer(f"the {what} are not known: the answer is partial")
    return value


class ExactFigures:
    """The exact totals and outcome of an answer that leaves them None only when partial
    (a solve's ``Result``, a table's cell)."""

    totals: tuple[int, int] | None
    outcome: Outcome | None

    @property
    def exact_totals(self) -> tuple[int, int]:
        """``totals`` of an exact answer (``PartialAnswer`` for a partial one)."""
        return known(self.totals, "totals")

    @property
    def exact_outcome(self) -> Outcome:
        """``outcome`` of an exact answer (``PartialAnswer`` for a partial one)."""
        return known(self.outcome, "outcome")


@dataclass(frozen=True)
class MoveValue:
    """One legal card of the player to move: the totals it leads to with best play after it,
    and the outcome level it leads to when both sides play for the score."""

    card: Card
    totals: tuple[int, int] | None   # None only in a partial answer (see ``bounds``)
    optimal: bool | None    # optimal under the objective solved for (None: not decided)
    group: int          # cards with the same group number are equivalent (always the same value)
    level: str | None = None     # outcome it forces ("win for the first", "schneider", ...), if ranked
    winner: int | None = None    # 1, 2 or None (a draw), with ``level``
    rank: int | None = None      # position on the game's ladder (higher: better for seat 1's side)
    pair: int | None = None      # the pair shown with this lead (rules.pairs: a marriage announced)
    bounds: tuple[tuple[int, int], tuple[int, int]] | None = None   # partial answer: each
                                 # side's final total lies in its (low, high)

    @property
    def exact_totals(self) -> tuple[int, int]:
        """``totals`` of a card whose value is proven (``PartialAnswer`` otherwise)."""
        return known(self.totals, "card's totals")


@dataclass(frozen=True)
class Result(ExactFigures):
    """The double-dummy result of a position."""

    deal: Deal
    objective: str
    totals: tuple[int, int] | None   # final totals of seat 1's side and the other side
    outcome: Outcome | None          # what the line's end scores: the forced outcome
    line: tuple[Card, ...]           # one optimal continuation to the end of the deal
    line_totals: tuple[int, int] | None   # the totals at the end of that line
    moves: tuple[MoveValue, ...]     # every legal card of the player to move
    to_move: int | None              # 1-based seat to move, None when the deal is over
    nodes: int                       # search nodes, comparable run to run
    seconds: float
    start_points: tuple[int, int] = (0, 0)   # already won before the position (taken + play)
    line_tricks: tuple[tuple[int, tuple[Card, ...], int], ...] = field(default=())
    announcements: tuple[tuple[int, Card, int, int], ...] = ()   # (seat, lead card, bonus, pair)
    line_pairs: tuple[int | None, ...] = ()   # per card of ``line``: the pair shown with it
    # a partial answer (a node or time limit was hit, or the work was interrupted): only what
    # is proven is filled in; ``outcome``, ``line_totals`` and maybe ``totals`` are then None
    exact: bool = True
    stopped: str | None = None       # "nodes", "time" or "interrupt"
    bounds: tuple[tuple[int, int], tuple[int, int]] | None = None   # each side's (low, high)
    levels: tuple[tuple[str, int | None], ...] = ()   # outcome levels still possible (score
                                     # objective), best for seat 1's side first: (level, winner)

    @property
    def unit(self) -> str:
        return self.deal.rule_set.unit

    @property
    def mover(self) -> int:
        """``to_move`` of a position still in play (``ValueError`` once the deal is over)."""
        if self.to_move is None:
            raise ValueError("the deal is over: no seat is to move")
        return self.to_move

    @property
    def exact_line_totals(self) -> tuple[int, int]:
        """``line_totals`` of an exact answer (``PartialAnswer`` for a partial one)."""
        return known(self.line_totals, "line's totals")

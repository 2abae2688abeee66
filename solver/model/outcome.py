"""Outcomes in each game's own terms, and the ladder that finds the best one a side can force.

Every game module provides two functions:

* ``outcome(final, deal) -> Outcome``: what a finished deal scores (winner, level, score);
* ``ladder(position, deal) -> list[Rung]``: the game's levels from the best for seat 1's side
  down to the worst, each with the condition "the result is at least this good for seat 1's
  side".  A condition is a threshold on seat 1's final total (``AtLeast``), a run of tricks one
  side must win from now (``Streak``), a threshold on one side's own total or on the lead of
  seat 1's side where extras make the game non-constant-sum (``Own``, ``Lead``), a negation,
  or ``ALWAYS``.

The outcome both sides can force (``--objective score``) is the first rung whose condition
holds under perfect play; every condition is one null-window or streak search.  A game whose
bonuses are scored apart from the points (Mariage for strokes: ``RuleSet.bonus_in_points`` is
false) has no ladder: its outcome's ``rank`` is seat 1's score minus seat 2's, and the forced
outcome is one exact search of that difference (``objectives.score_objective``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the games import this module; positions are only passed through
    from .position import Position


@dataclass(frozen=True)
class Outcome:
    """What a deal scores.  ``winner`` is 1 (seat 1's side), 2 (the other side) or None."""

    winner: int | None
    level: str
    score: int
    text: str
    rank: int = 0                       # position on the game's ladder: higher is better for side 1
    hooks: int = 0
    bonuses: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "level": self.level, "score": self.score,
                                "text": self.text}
        if self.hooks or self.bonuses:
            data["hooks"] = self.hooks
            data["bonuses"] = dict(self.bonuses)
        return data


@dataclass(frozen=True)
class AtLeast:
    """Seat 1's side ends with at least ``total`` (tricks, points, honours)."""

    total: int

    def holds_in(self, session) -> bool:
        return session.final_points_at_least(self.total)


@dataclass(frozen=True)
class Streak:
    """``side`` wins each of the next ``tricks`` tricks (``negate``: it does not).

    ``needs`` (optional): the run can only happen if seat 1's side ends with a total in
    ``range(needs[0], needs[1] + 1)`` (a tout needs every trick, "for the first" a majority);
    when the exact total is known outside that range, no search is needed."""

    side: int
    tricks: int
    negate: bool = False
    needs: tuple[int, int] | None = None

    def holds_in(self, session) -> bool:
        return session.streak_at_least(self.side, self.tricks) != self.negate


@dataclass(frozen=True)
class Own:
    """``side``'s own final total, extras it announced included, is at least ``total``
    (``negate``: it is not).  For games with extras outside the tricks (Mariage)."""

    side: int
    total: int
    negate: bool = False

    def holds_in(self, session) -> bool:
        return session.own_at_least(self.side, self.total) != self.negate


@dataclass(frozen=True)
class Lead:
    """Seat 1's side ends at least ``margin`` points ahead (``margin`` may be 0 or negative)."""

    margin: int

    def holds_in(self, session) -> bool:
        return session.lead_at_least(self.margin)


ALWAYS = AtLeast(-10**9)


@dataclass(frozen=True)
class Rung:
    rank: int
    level: str
    winner: int | None              # 0, 1 (sides) or None
    condition: AtLeast | Streak | Own | Lead
    label: str = ""                 # how a player says it, when the level alone is too short

    @property
    def text(self) -> str:
        return self.label or self.level


def undecided_rank(ladder: list[Rung]) -> int:
    """The rank of the rung no side wins (Bock, the tie, a Ständer): the middle of the ladder,
    around which every game's ladder is its own mirror image (0 without a ladder)."""
    return next((rung.rank for rung in ladder if rung.winner is None), 0)


def rank_for(side: int, rank: int, middle: int) -> int:
    """A ladder ``rank`` (higher is better for side 0) as ``side`` counts it, higher better for
    it; ``middle`` is the ladder's ``undecided_rank``.  Side 1 counts 2 * middle - rank, so both
    sides run from 0 (their worst) to 2 * middle.  Without a ladder (middle 0) the rank is a
    difference of scores (side 0's strokes minus side 1's) and is negated.  Applied twice it
    gives ``rank`` back."""
    return rank if side == 0 else 2 * middle - rank


def tricks_of(position: Position, side: int) -> int:
    """Tricks a side has won, in ``taken`` (if counted) and in the known history."""
    return position.prior_tricks[side] + position.tricks_won[side]

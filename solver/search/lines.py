"""Lines: one optimal continuation to the end (playing a line out is ``stich.search.playout``)."""

from __future__ import annotations

from contextlib import closing
from typing import TYPE_CHECKING

from stich.model.outcome import AtLeast

from .ladder import keeps_rung
from .objectives import SolverError

if TYPE_CHECKING:
    from .session import Session


def optimal_line(session: Session, value: int, rank: int | None = None) -> list[int]:
    """One optimal continuation to the end from the session's node of value ``value``.
    Each step takes the first card (in the order the engine lists them) that keeps the total
    value and, with ``rank``, the outcome; if no card keeps both (playing for the score can
    cost totals), the first that keeps the outcome, and the value is searched again from
    there."""
    if rank is None:
        return session.engine.line(value)
    line: list[int] = []
    current = value
    # a level that is a threshold on side 0's total is kept by any card of side 0 that
    # keeps the total value (the same rank always has the same threshold in one deal)
    points_level = any(r.rank == rank and isinstance(r.condition, AtLeast) for r in session.ladder())
    try:
        while not session.over:
            card, keeps_value = _step(session, current, rank, points_level)
            gain = session.push(card)
            line.append(card)
            current = current - gain if keeps_value else session.value()
    finally:
        for _ in line:
            session.pop()
    return line


def _step(session: Session, current: int, rank: int, points_level: bool) -> tuple[int, bool]:
    """The card to play: (card, whether it keeps the value too)."""
    maximise = session.maximising()
    fallback = None
    with closing(session.moves(ordered=True)) as children:     # left early: see Session.moves
        for child in children:
            keeps_value = session.at_least(current - child.gain) if maximise \
                else not session.at_least(current - child.gain + 1)
            if keeps_value and maximise and points_level:
                keeps_rank = True
            elif keeps_value or fallback is None:
                keeps_rank = keeps_rung(session, rank, maximise,
                                        _final_total(session, current - child.gain) if keeps_value else None)
            else:
                keeps_rank = False
            if keeps_rank and keeps_value:
                return child.move, True
            if keeps_rank and fallback is None:
                fallback = child.move
    if fallback is None:
        raise SolverError("no card keeps the value: the search contradicts itself")
    return fallback, False




def _final_total(session: Session, rest: int) -> int | None:
    """Side 0's final total when ``rest`` more is what perfect play for the totals brings
    from the session's node (constant-sum games only: with extras the totals objective is
    not side 0's total)."""
    return session.side0_final(rest) if session.root.rules.constant_sum else None

"""The ladder walk: the best outcome level a side can force, one condition at a time.

A game's ladder (``stich.model.outcome``) lists its levels from the best for seat 1's side down;
the forced outcome is the first rung whose condition holds under perfect play.  What side
0's final total alone decides (``decided``) needs no search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stich.core.anytime import Stopped
from stich.model.outcome import ALWAYS, AtLeast, Rung, Streak

if TYPE_CHECKING:
    from .session import Session


def decided(condition, span: tuple[int, int] | None) -> bool | None:
    """What side 0's final total alone, known to lie in ``span`` (low, high), decides about
    a ladder condition: True or False, or None when a search must decide."""
    if condition is ALWAYS:
        return True
    if span is None:
        return None
    low, high = span
    if isinstance(condition, AtLeast):
        if low >= condition.total:
            return True
        return False if high < condition.total else None
    if isinstance(condition, Streak) and condition.needs:
        need_low, need_high = condition.needs
        if high < need_low or low > need_high:      # the run cannot happen with these totals
            return condition.negate
    return None


def forced_rung(session: Session, known_total: int | None = None) -> Rung | None:
    """The best rung for side 0 that holds under perfect play (None: the game has no
    ladder for these rules).  ``known_total``: side 0's exact final total, if known,
    answers point thresholds without searching."""
    span = None if known_total is None else (known_total, known_total)
    for rung in session.ladder():
        if _holds(session, rung.condition, span):
            return rung
    return None


def walk_from(ladder: list[Rung], start: int, holds) -> Rung | None:
    """The first rung of ``ladder`` (best first) that ``holds``, testing ``ladder[start]``
    first and then away from it, the nearest first.  The conditions nest (each says "at
    least this good for side 0"), so where one holds every worse one holds: a rung that holds
    is followed by better ones until one fails, one that fails by worse ones until one holds.
    ``start`` right, two tests decide."""
    if holds(ladder[start]):
        k = start
        while k > 0 and holds(ladder[k - 1]):
            k -= 1
        return ladder[k]
    for rung in ladder[start + 1:]:
        if holds(rung):
            return rung
    return None


def possible_rungs(session: Session, side0: tuple[int, int] | None) -> tuple[list[Rung], str | None]:
    """The rungs that may be the forced outcome, best first, side 0's final total being
    known to lie in ``side0`` (low, high), each search within the session's budget: exactly
    one when everything needed was decided.  A rung is ruled out when its condition fails,
    and the first that holds ends the list.  Also says why the budget ran out (None: it did
    not)."""
    possible, stopped = [], None
    for rung in session.ladder():
        verdict = decided(rung.condition, side0)
        if verdict is None:
            try:
                verdict = session.guarded(
                    lambda: session.holds(rung.condition))  # noqa: B023 - called at once
            except Stopped as stop:
                verdict, stopped = None, stopped or stop.reason
        if verdict is not False:
            possible.append(rung)
        if verdict:
            break
    return possible, stopped


def child_rung(session: Session, root_rank: int, maximiser_moved: bool) -> Rung:
    """The rung forced after a move (pushed), the node before it forcing ``root_rank``.  The
    side that moved cannot have done better than there, so the walk starts at that rung
    and goes away from it (``walk_from``): side 0's move tests it, then each worse rung;
    side 1's move tests each better rung upwards until one fails, the root's untested."""
    ladder = session.ladder()
    start = next((k for k, rung in enumerate(ladder) if rung.rank == root_rank), None)
    if start is None:                   # not on this ladder: walk all of it
        return forced_rung(session) or ladder[-1]
    if maximiser_moved:
        found = walk_from(ladder, start, lambda rung: rung.rank <= root_rank
                          and session.holds(rung.condition))
    else:
        found = walk_from(ladder, max(start - 1, 0), lambda rung: rung.rank <= root_rank
                          or session.holds(rung.condition))
    return found or ladder[-1]


def keeps_rung(session: Session, rank: int, maximiser_moved: bool,
               known_total: int | None = None) -> bool:
    """After a move: is the outcome still exactly ``rank`` under perfect play?  The side
    that moved can only have kept it or made it worse for itself, so one condition
    decides: side 0 kept "at least rank", side 1 kept "not better than rank".
    ``known_total``: side 0's exact final total from here, if known, decides point
    thresholds (and rules out runs it leaves no room for) without a search."""
    span = None if known_total is None else (known_total, known_total)
    ladder = session.ladder()
    if maximiser_moved:
        rung = next((r for r in ladder if r.rank == rank), None)
        return rung is not None and _holds(session, rung.condition, span)
    better = [r for r in ladder if r.rank > rank]
    return not better or not _holds(session, better[-1].condition, span)


def _holds(session: Session, condition, span: tuple[int, int] | None) -> bool:
    """Does ``condition`` hold, decided by the span of side 0's final total where it can be,
    else by a search?"""
    verdict = decided(condition, span)
    return session.holds(condition) if verdict is None else verdict

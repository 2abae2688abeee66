"""Playing a line of cards out with the referee (``Position``), to read its tricks and totals.

Apart from the line search (``stich.search.lines``) because the search session needs it too, and
the session is what the line search is built on.
"""

from __future__ import annotations

from stich.model.position import Move, Position

from .objectives import SolverError


def replay_line(position: Position, line) -> tuple[tuple, tuple, Position]:
    """Play a line (cards, or ``Move``s with the pairs shown) with the referee (it must be
    legal) to the end: the tricks as (leader, cards, winner) with 1-based seats, the pairs
    shown as (seat, lead card, bonus, pair), and the final position."""
    referee = position.copy()
    records = []
    for item in line:
        record = (referee.play(item.card, pair=item.pair) if isinstance(item, Move)
                  else referee.play(item))
        if record is not None:
            records.append(record)
    if not referee.is_over():
        raise SolverError("the line stops before the end of the deal")
    tricks = tuple((r.leader + 1, tuple(r.cards), r.winner + 1) for r in records)
    # a pair is shown with a trick's lead card; a trick begun before the line was led (and
    # its pair shown) before it
    announcements = tuple((r.leader + 1, r.cards[0], r.pair_bonus, r.pair)
                          for k, r in enumerate(records)
                          if r.pair is not None and (k > 0 or not position.trick))
    return tricks, announcements, referee

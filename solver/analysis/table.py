"""The double-dummy table: one deal solved under every trump (and every first leader).

Like the bridge solver's CalcDDtable.  Scharwenzel: every trump suit x every first leader,
with the tricks and the deal score, and the trump each seat should name as declarer.
Schafkopf2: the deal under each trump of the card17 mode.  The transposition table is kept
between cells that share a trump (only the leader changes, so every stored position is still
the same position); a new trump renumbers the cards, so the table starts afresh.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from solver.core.anytime import Limits
from solver.deals.deal import Deal, DealError, loads
from solver.model.cards import SUITS
from solver.model.outcome import Outcome
from solver.search.solve import DEFAULT_TT_MEGABYTES, new_engine, solve


@dataclass(frozen=True)
class Cell:
    trump: int
    leader: int
    totals: tuple[int, int] | None       # None only in a partial cell (see ``bounds``)
    outcome: Outcome | None              # None in a partial cell (see ``levels``)
    nodes: int
    exact: bool = True                   # False: a limit was hit in this cell
    bounds: tuple[tuple[int, int], tuple[int, int]] | None = None   # each side's (low, high)
    levels: tuple[tuple[str, int | None], ...] = ()   # outcome levels still possible


@dataclass(frozen=True)
class Table:
    deal: Deal
    cells: tuple[Cell, ...]
    best_trump: dict[int, int]          # seat (1-based) -> trump suit it should name
    ignored_play: bool                  # the deal had `play`; the table is of the deal as dealt
    planned: int = 0                    # cells the table has (fewer solved after Ctrl-C)
    stopped: str | None = None          # why a cell is partial: "nodes", "time", "interrupt"

    @property
    def exact(self) -> bool:
        return len(self.cells) == self.planned and all(c.exact for c in self.cells)

    def cell(self, trump: int, leader: int) -> Cell | None:
        """The cell, or None if it was not solved (interrupted)."""
        return next((c for c in self.cells if c.trump == trump and c.leader == leader), None)


def signed_score(outcome: Outcome, side: int) -> tuple[int, int]:
    """How good an outcome is for ``side``: hooks first, then points (a loss counts negative)."""
    if outcome.winner is None:
        return (0, 0)
    sign = 1 if outcome.winner - 1 == side else -1
    return (sign * outcome.hooks, sign * outcome.score)


def variant(deal: Deal, **changes) -> Deal:
    """The deal with other trump/leader/rules, checked again like a file."""
    return loads(replace(deal, play=(), **changes).dump(), deal.source)


def dd_table(deal: Deal, *, tt_megabytes: int = DEFAULT_TT_MEGABYTES, objective: str = "score",
             progress=None, limits: Limits | None = None) -> Table:
    """Solve every cell.  ``progress(done, total)`` is called after each cell.  ``limits``
    apply to each cell: a cell that hits them holds only what is proven (ranges and the
    outcome levels still possible).  Ctrl-C ends the table with the cells finished."""
    spec = deal.game_spec
    plan = spec.table_variations(deal)
    if plan is None:
        raise DealError(f"{spec.title} has no trump to choose, so there is no table", "game", deal.source)
    engine = new_engine(tt_megabytes)
    cells: list[Cell] = []
    stopped = None
    for k, (suit, leader, changes) in enumerate(plan):
        cell_deal = variant(deal, trump=suit, leader=leader, **changes)
        same_trump = k > 0 and plan[k - 1][0] == suit
        try:
            result = solve(cell_deal, objective=objective, engine=engine, with_moves=False,
                           keep_tt=same_trump, limits=limits)
        except KeyboardInterrupt:
            stopped = "interrupt"
            break
        cells.append(Cell(suit, leader, result.totals, result.outcome, result.nodes, result.exact,
                          result.bounds, result.levels))
        stopped = stopped or result.stopped
        if result.stopped == "interrupt":
            break
        if progress:
            progress(k + 1, len(plan))
    best: dict[int, int] = {}
    if spec.declarer:               # the trump each seat should name as declarer
        by_declarer = spec.declarer_leads(deal.options)
        for seat in range(1, deal.players + 1):
            side = (seat - 1) % 2
            leader = seat if by_declarer else deal.leader
            if not all(_find(cells, s, leader) and _find(cells, s, leader).exact for s in SUITS):
                continue                     # not decided: a cell is partial or missing
            best[seat] = max(SUITS, key=lambda s: (signed_score(_find(cells, s, leader).outcome, side),
                                                   _find(cells, s, leader).totals[side], -s))
    return Table(deal, tuple(cells), best, bool(deal.play), len(plan), stopped)


def _find(cells, trump, leader) -> Cell | None:
    return next((c for c in cells if c.trump == trump and c.leader == leader), None)

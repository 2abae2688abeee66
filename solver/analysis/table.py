"""The double-dummy table: one deal solved under every trump (and every first leader).

Like the bridge solver's CalcDDtable.  Scharwenzel: every trump suit x every first leader,
with the tricks and the deal score, and the trump each seat should name as declarer.
Schafkopf2: the deal under each trump of the card17 mode.  The transposition table is kept
between cells that share a trump (only the leader changes, so every stored position is still
the same position); a new trump renumbers the cards, so the table starts afresh.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..cards import SUITS
from ..deal import Deal, DealError, loads
from ..outcome import Outcome
from ..solve import DEFAULT_TT_MEGABYTES, new_engine, solve


@dataclass(frozen=True)
class Cell:
    trump: int
    leader: int
    totals: tuple[int, int]
    outcome: Outcome
    nodes: int


@dataclass(frozen=True)
class Table:
    deal: Deal
    cells: tuple[Cell, ...]
    best_trump: dict[int, int]          # seat (1-based) -> trump suit it should name
    ignored_play: bool                  # the deal had `play`; the table is of the deal as dealt

    def cell(self, trump: int, leader: int) -> Cell:
        return next(c for c in self.cells if c.trump == trump and c.leader == leader)


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
             progress=None) -> Table:
    """Solve every cell.  ``progress(done, total)`` is called after each cell."""
    spec = deal.game_spec
    plan = spec.table_variations(deal)
    if plan is None:
        raise DealError(f"{spec.title} has no trump to choose, so there is no table", "game", deal.source)
    engine = new_engine(tt_megabytes)
    cells: list[Cell] = []
    for k, (suit, leader, changes) in enumerate(plan):
        cell_deal = variant(deal, trump=suit, leader=leader, **changes)
        same_trump = k > 0 and plan[k - 1][0] == suit
        result = solve(cell_deal, objective=objective, engine=engine, with_moves=False,
                       keep_tt=same_trump)
        cells.append(Cell(suit, leader, result.totals, result.outcome, result.nodes))
        if progress:
            progress(k + 1, len(plan))
    best: dict[int, int] = {}
    if spec.declarer:               # the trump each seat should name as declarer
        by_declarer = spec.declarer_leads(deal.options)
        for seat in range(1, deal.players + 1):
            side = (seat - 1) % 2
            leader = seat if by_declarer else deal.leader
            best[seat] = max(SUITS, key=lambda s: (signed_score(_find(cells, s, leader).outcome, side),
                                                   _find(cells, s, leader).totals[side], -s))
    return Table(deal, tuple(cells), best, bool(deal.play))


def _find(cells, trump, leader) -> Cell:
    return next(c for c in cells if c.trump == trump and c.leader == leader)

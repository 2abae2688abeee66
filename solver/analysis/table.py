"""The double-dummy table: one deal solved under every trump (and every first leader).

Like the bridge solver's CalcDDtable.  Scharwenzel: every trump suit x every first leader,
with the tricks and the deal score, and the trump each seat should name as declarer.
Schafkopf2: the deal under each trump of the card17 mode.  The transposition table is kept
between cells that share a trump (only the leader changes, so every stored position is still
the same position); a new trump renumbers the cards, so the table starts afresh.

With ``threads`` the trumps are solved in parallel: each thread takes the next trump not yet
taken and solves its cells in order on an engine of its own, as one thread would (so every
cell, its node count included, is the same for any number of threads).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from stich.core._search import Engine
from stich.core.anytime import Limits
from stich.deals.deal import Deal, DealError, loads
from stich.model.cards import SUITS
from stich.model.outcome import Outcome
from stich.model.rules import RuleSet
from stich.search.result import ExactFigures
from stich.search.solve import DEFAULT_TT_MEGABYTES, new_engine, solve
from stich.search.threads import share_out


@dataclass(frozen=True)
class Cell(ExactFigures):
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
    rules_used: tuple[tuple[str, Any], ...] = ()   # rule options the table sets unlike the file's

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
             progress=None, limits: Limits | None = None, threads: int = 1) -> Table:
    """Solve every cell.  ``progress(done, total)`` is called after each cell.  ``limits``
    apply to each cell: a cell that hits them holds only what is proven (ranges and the
    outcome levels still possible).  Ctrl-C ends the table with the cells finished.
    ``threads``: trumps solved at once (see the module's docstring)."""
    spec = deal.game_spec
    plan = spec.table_variations(deal)
    if plan is None:
        raise DealError(f"{spec.title} has no trump to choose, so there is no table", "game", deal.source)
    runs = _trump_runs(plan)
    if threads > 1 and len(runs) > 1:
        cells, stopped = _cells_in_threads(deal, runs, len(plan), tt_megabytes, objective,
                                           progress, limits, threads)
    else:
        cells, stopped = _cells(deal, runs, len(plan), new_engine(tt_megabytes), objective,
                                progress, limits)
    best: dict[int, int] = {}
    if spec.declarer:               # the trump each seat should name as declarer
        by_declarer = spec.declarer_leads(deal.options)
        for seat in range(1, deal.players + 1):
            side = RuleSet.side_of(seat)
            leader = seat if by_declarer else deal.leader
            row = {s: _find(cells, s, leader) for s in SUITS}
            decided = {s: (c.outcome, c.totals) for s, c in row.items()
                       if c is not None and c.exact and c.outcome is not None and c.totals is not None}
            if len(decided) < len(SUITS):
                continue                     # not decided: a cell is partial or missing
            best[seat] = max(SUITS, key=lambda s: (signed_score(decided[s][0], side),
                                                   decided[s][1][side], -s))
    return Table(deal, tuple(cells), best, bool(deal.play), len(plan), stopped, _rules_used(deal, plan))


def _rules_used(deal: Deal, plan: list) -> tuple[tuple[str, Any], ...]:
    """The rule options the cells are solved under that differ from the file's (a game may
    tabulate another trump mode than the file's own): the report must say so."""
    used: dict[str, Any] = {}
    for _, _, changes in plan:
        for name, value in (changes.get("rules") or {}).items():
            if str(deal.options.get(name)) != str(value):
                used[name] = value
    return tuple(sorted(used.items()))


def _trump_runs(plan: list) -> list[list]:
    """The plan's cells (number, trump, leader, changes) in runs of one trump."""
    runs: list[list] = []
    for k, (suit, leader, changes) in enumerate(plan):
        if not runs or runs[-1][0][1] != suit:
            runs.append([])
        runs[-1].append((k, suit, leader, changes))
    return runs


def _solve_cell(deal: Deal, engine, cell: tuple, first: bool, objective: str,
                limits: Limits | None):
    """One cell on ``engine`` (its table kept from the cell before unless ``first``)."""
    k, suit, leader, changes = cell
    cell_deal = variant(deal, trump=suit, leader=leader, **changes)
    result = solve(cell_deal, objective=objective, engine=engine, with_moves=False,
                   keep_tt=not first, limits=limits)
    return Cell(suit, leader, result.totals, result.outcome, result.nodes, result.exact,
                result.bounds, result.levels), result.stopped


def _cells(deal: Deal, runs: list[list], total: int, engine, objective: str, progress,
           limits: Limits | None) -> tuple[list[Cell], str | None]:
    """Every cell in order on one engine; Ctrl-C keeps the cells finished."""
    cells: list[Cell] = []
    stopped = None
    for run in runs:
        for i, cell in enumerate(run):
            try:
                done, why = _solve_cell(deal, engine, cell, i == 0, objective, limits)
            except KeyboardInterrupt:
                return cells, "interrupt"
            cells.append(done)
            stopped = stopped or why
            if why == "interrupt":
                return cells, stopped
            if progress:
                progress(len(cells), total)
    return cells, stopped


def _cells_in_threads(deal: Deal, runs: list[list], total: int, tt_megabytes: int,
                      objective: str, progress, limits: Limits | None,
                      threads: int) -> tuple[list[Cell], str | None]:
    """Every cell, the runs of one trump shared out to ``threads`` threads (an engine
    each); the cells come back in the plan's order.  On Ctrl-C the threads' searches are
    stopped and only the cells finished before are kept."""
    engines = [new_engine(tt_megabytes) for _ in range(min(threads, len(runs)))]
    got: dict[int, Cell] = {}
    stopped = None

    def work(engine: Engine, run: list) -> Iterator[tuple[int, Cell, str | None]]:
        for i, cell in enumerate(run):
            done, why = _solve_cell(deal, engine, cell, i == 0, objective, limits)
            yield cell[0], done, why

    def take(item: tuple[int, Cell, str | None]) -> None:
        nonlocal stopped
        k, done, why = item
        got[k] = done
        stopped = stopped or why
        if progress:
            progress(len(got), total)

    # on Ctrl-C the searches under way are stopped: their cells are dropped
    if share_out(engines, runs, work, take, stop=lambda engine: engine.limit(nodes=1)):
        stopped = "interrupt"
    return [got[k] for k in sorted(got)], stopped


def _find(cells, trump, leader) -> Cell | None:
    return next((c for c in cells if c.trump == trump and c.leader == leader), None)

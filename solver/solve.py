"""Solving a deal: the double-dummy value, every legal card's value and one optimal line.

Data flows one way: Deal -> Position (replayed ``play``) -> Tables -> Engine (the core) ->
``Result``.  The engine counts what side 0 (seat 1's side) still takes; this module turns that
into the final totals of both sides, counting ``taken`` and the tricks already played.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ._search import Engine
from .cards import Card
from .deal import Deal
from .position import Position
from .tables import Tables, compile_position

DEFAULT_TT_MEGABYTES = 64


class SolverError(RuntimeError):
    """The solver contradicted itself (a bug, never bad input)."""


@dataclass(frozen=True)
class MoveValue:
    """One legal card of the player to move and the totals it leads to with best play after."""

    card: Card
    totals: tuple[int, int]
    optimal: bool
    group: int          # cards with the same group number are equivalent (same value always)


@dataclass(frozen=True)
class Result:
    """The double-dummy result of a position."""

    deal: Deal
    totals: tuple[int, int]          # final totals of seat 1's side and the other side
    line: tuple[Card, ...]           # one optimal continuation to the end of the deal
    moves: tuple[MoveValue, ...]     # every legal card of the player to move
    to_move: int | None              # 1-based seat to move, None when the deal is over
    nodes: int                       # search nodes, comparable run to run
    seconds: float
    start_points: tuple[int, int] = (0, 0)   # already won before the position (taken + play)
    line_tricks: tuple[tuple[int, tuple[Card, ...], int], ...] = field(default=())

    @property
    def unit(self) -> str:
        return self.deal.rule_set.unit


def new_engine(tt_megabytes: int = DEFAULT_TT_MEGABYTES) -> Engine:
    return Engine(tt_megabytes)


def prepare(position: Position, engine: Engine) -> Tables:
    tables = compile_position(position)
    engine.setup(tables.as_dict())
    return tables


def solve(deal: Deal, *, tt_megabytes: int = DEFAULT_TT_MEGABYTES, engine: Engine | None = None,
          with_moves: bool = True, with_line: bool = True) -> Result:
    """Solve the position of ``deal`` exactly (both sides maximise their own final total)."""
    started = time.perf_counter()
    position = deal.position()
    base = (position.points[0], position.points[1])
    if position.is_over():
        return Result(deal, base, (), (), None, 0, time.perf_counter() - started, base)
    engine = engine or new_engine(tt_megabytes)
    engine.new_search()
    tables = prepare(position, engine)
    engine.reset_nodes()
    remaining = engine.remaining
    value = engine.value()
    moves: list[MoveValue] = []
    child_values: dict[int, int] = {}
    if with_moves:
        for group_no, group in enumerate(engine.classes()):
            gain = engine.push(group[0])
            child = gain + engine.value(value - gain)
            engine.pop()
            child_values[group[0]] = child
            for index in group:
                moves.append(MoveValue(tables.cards[index], (base[0] + child, base[1] + remaining - child),
                                       child == value, group_no))
    line = optimal_line(engine, position, value, child_values) if with_line else []
    totals = (base[0] + value, base[1] + remaining - value)
    cards = tuple(tables.cards[i] for i in line)
    tricks = check_line(position, cards, totals) if with_line else ()
    return Result(deal, totals, cards, tuple(moves), position.to_move + 1, engine.nodes,
                  time.perf_counter() - started, base, tricks)


def optimal_line(engine: Engine, position: Position, value: int,
                 known: dict[int, int] | None = None) -> list[int]:
    """Follow optimal cards to the end: at each step the first card whose child keeps the
    value, checked with one null-window search (the transposition table makes these cheap).
    ``known`` gives the values of the first cards when they were already searched."""
    sides = [position.rules.side(s) for s in range(position.seats)]
    line: list[int] = []
    current = value
    try:
        while engine.tricks_left > 0:
            maximise = sides[engine.to_move] == 0
            for group in engine.classes():
                card = group[0]
                if not line and known and known.get(card) != current:
                    continue
                gain = engine.push(card)
                rest = current - gain
                if (not line and known) or (engine.test(rest) if maximise else not engine.test(rest + 1)):
                    break
                engine.pop()
            else:
                raise SolverError("no card keeps the value: the search contradicts itself")
            line.append(card)
            current = rest
    finally:
        for _ in line:
            engine.pop()
    if current != 0:
        raise SolverError(f"the line ends {current} away from the value")
    return line


def check_line(position: Position, line: tuple[Card, ...], totals: tuple[int, int]):
    """Play the line with the referee: it must be legal and end exactly at ``totals``."""
    referee = position.copy()
    tricks = []
    for card in line:
        record = referee.play(card)
        if record is not None:
            tricks.append((record.leader + 1, tuple(record.cards), record.winner + 1))
    if not referee.is_over() or tuple(referee.points) != tuple(totals):
        raise SolverError(f"the optimal line ends at {referee.points}, not {list(totals)}")
    return tuple(tricks)

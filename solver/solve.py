"""Solving a deal: the double-dummy totals, the outcome, every legal card's value, one line.

Data flows one way: Deal -> Position (``play`` replayed) -> Tables -> Engine (the core) ->
``Result``.  ``totals`` are always the final totals under perfect play for the totals (the
contract of ``stich solve``).  The objective decides the rest: with ``score`` (the default)
the outcome is the best one each side can force in the game's own terms, the line keeps it,
and the optimal cards are those that keep it; with ``total`` all three follow the totals.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ._search import Engine
from .cards import Card
from .deal import Deal
from .objectives import OBJECTIVES, Searcher, SolverError, replay_line, score_objective
from .outcome import Outcome

DEFAULT_TT_MEGABYTES = 64

__all__ = ["DEFAULT_TT_MEGABYTES", "MoveValue", "Result", "SolverError", "new_engine", "solve",
           "replay_line"]


@dataclass(frozen=True)
class MoveValue:
    """One legal card of the player to move: the totals it leads to with best play after it,
    and the outcome level it leads to when both sides play for the score."""

    card: Card
    totals: tuple[int, int]
    optimal: bool       # optimal under the objective solved for
    group: int          # cards with the same group number are equivalent (always the same value)
    level: str | None = None     # outcome it forces ("win for the first", "schneider", ...), if ranked
    winner: int | None = None    # 1, 2 or None (a draw), with ``level``
    rank: int | None = None      # position on the game's ladder (higher: better for seat 1's side)
    pair: int | None = None      # the pair shown with this lead (rules.pairs: a marriage announced)


@dataclass(frozen=True)
class Result:
    """The double-dummy result of a position."""

    deal: Deal
    objective: str
    totals: tuple[int, int]          # final totals of seat 1's side and the other side
    outcome: Outcome                 # what the line's end scores: the forced outcome
    line: tuple[Card, ...]           # one optimal continuation to the end of the deal
    line_totals: tuple[int, int]     # the totals at the end of that line
    moves: tuple[MoveValue, ...]     # every legal card of the player to move
    to_move: int | None              # 1-based seat to move, None when the deal is over
    nodes: int                       # search nodes, comparable run to run
    seconds: float
    start_points: tuple[int, int] = (0, 0)   # already won before the position (taken + play)
    line_tricks: tuple[tuple[int, tuple[Card, ...], int], ...] = field(default=())
    announcements: tuple[tuple[int, Card, int, int], ...] = ()   # (seat, lead card, bonus, pair)
    line_pairs: tuple[int | None, ...] = ()   # per card of ``line``: the pair shown with it

    @property
    def unit(self) -> str:
        return self.deal.rule_set.unit


def new_engine(tt_megabytes: int = DEFAULT_TT_MEGABYTES) -> Engine:
    return Engine(tt_megabytes)


def solve(deal: Deal, *, objective: str = "score", tt_megabytes: int = DEFAULT_TT_MEGABYTES,
          engine: Engine | None = None, with_moves: bool = True, keep_tt: bool = False) -> Result:
    """Solve the position of ``deal`` exactly.

    ``engine``: reuse an engine (its table is kept only with ``keep_tt``, for another position
    of the same deal and rules)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    started = time.perf_counter()
    position = deal.position()
    base = (position.points[0], position.points[1])
    game = deal.game_spec
    if position.is_over():
        return Result(deal, objective, base, game.outcome(position, deal), (), base, (), None, 0,
                      time.perf_counter() - started, base)
    engine = engine or new_engine(tt_megabytes)
    engine.new_search()
    searcher = Searcher.start(deal, position, engine, keep_tt)
    engine.reset_nodes()
    constant = position.rules.constant_sum
    value = searcher.value()
    # with extras the totals come from a best line; under the total objective that is the line
    # reported below, so it is played out once, there
    totals = searcher.final_totals(value) if constant else None
    rung = searcher.forced_rung(totals[0] if totals else None) if objective == "score" else None
    apart = objective == "score" and score_objective(position) is not None
    score = None
    if apart:                    # bonuses scored apart: one exact search of the score
        score = searcher.score_value()
        searcher.total_mode()
    so_far = position.bonus[0] - position.bonus[1]

    moves: list[MoveValue] = []
    if with_moves:
        for group_no, group in enumerate(searcher.classes()):
            move = group[0]
            pair = searcher.shown_by(move)
            gain = searcher.push(move)
            child = gain + searcher.value(value - gain)
            child_totals = searcher.final_totals(child - gain)
            level = winner = rank = None
            if apart:
                searcher.pop()
                child_score = searcher.score_after(move)
                optimal = child_score == score
                rank = so_far + child_score
                level = f"strokes {rank:+d} for seat 1"
            else:
                child_rung = searcher.forced_rung(child_totals[0] if constant else None)
                searcher.pop()
                optimal = child_rung.rank == rung.rank if rung is not None else child == value
                if child_rung is not None:
                    level, rank = child_rung.text, child_rung.rank
                    winner = None if child_rung.winner is None else child_rung.winner + 1
            for index in group:
                moves.append(MoveValue(searcher.tables.cards[index & 63], child_totals, optimal,
                                       group_no, level, winner, rank, pair))

    if apart:
        searcher.score_value()
        line = searcher.line(score)
        moves_line = searcher.moves_of(line)
        searcher.total_mode()
    else:
        line = searcher.line(value, rung.rank if rung is not None else None)
        moves_line = searcher.moves_of(line)
    cards = tuple(m.card for m in moves_line)
    tricks, announcements, final = replay_line(position, moves_line)
    line_totals = (final.points[0], final.points[1])
    outcome = game.outcome(final, deal)
    if totals is None:
        totals = line_totals if (rung is None and not apart) else searcher.final_totals(value)
    if rung is None and not apart and line_totals != totals:
        raise SolverError(f"the optimal line ends at {list(line_totals)}, not {list(totals)}")
    if rung is not None and outcome.rank != rung.rank:
        raise SolverError(f"the line ends {outcome.level}, not the forced {rung.level}")
    if apart and outcome.rank != so_far + score:
        raise SolverError(f"the line ends at {outcome.rank:+d} strokes, not the forced "
                          f"{so_far + score:+d}")
    return Result(deal, objective, totals, outcome, cards, line_totals, tuple(moves),
                  position.to_move + 1, engine.nodes, time.perf_counter() - started, base,
                  tricks, announcements, tuple(m.pair for m in moves_line))

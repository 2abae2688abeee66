"""Solving a deal: the double-dummy totals, the outcome, every legal card's value, one line.

Cards in the result are written by ``str()`` in the deal's notation (``EO`` in a German deal),
so a ``play`` built from them reads back.

Data flows one way: Deal -> Position (``play`` replayed) -> Tables -> Engine (the core) ->
``Result``.  ``totals`` are always the final totals under perfect play for the totals (the
contract of ``stich solve``).  The objective decides the rest: with ``score`` (the default)
the outcome is the best one each side can force in the game's own terms, the line keeps it,
and the optimal cards are those that keep it; with ``total`` all three follow the totals.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from stich.core._search import Engine, SearchInterrupted, SearchLimit
from stich.core.anytime import Limits, Stopped
from stich.deals.deal import Deal
from stich.model.cards import in_notation

from .ladder import possible_rungs
from .lines import optimal_line
from .objectives import OBJECTIVES, SolverError, score_objective
from .parallel import JoinableSearches, ParallelValue, threaded_value, value_alone_first
from .playout import replay_line
from .result import MoveValue, Result
from .session import Session
from .threads import share_out

DEFAULT_TT_MEGABYTES = 64
# the value search goes on in threads, and the cards are scored in threads, only once one
# thread has searched this many nodes (about 1 ms): below it starting the threads and their
# sessions costs more than it saves (four-hand Scharwenzel's whole solves on two threads
# 1.03x the time with 5,000, 1.00x with 10,000 and 20,000; Schafkopf2's 0.95x-0.97x with
# 10,000 against 50,000, where the second thread waited out the first 50,000 nodes)
THREADS_FROM_NODES = 10_000
# ... except the value alone, whose threads each search the whole tree from a guess of their
# own (``parallel``): one helper costs little to start (5,000 and none measured alike on the
# targets table's deals, 20,000 and 50,000 slower)
VALUE_THREADS_FROM_NODES = 5_000

__all__ = ["DEFAULT_TT_MEGABYTES", "MoveValue", "Result", "SolverError", "borrowed_engine",
           "new_engine", "solve", "replay_line"]


def new_engine(tt_megabytes: int = DEFAULT_TT_MEGABYTES) -> Engine:
    return Engine(tt_megabytes)


_idle = threading.local()      # per thread: the one idle engine, kept for the next borrower


@contextmanager
def borrowed_engine(tt_megabytes: int = DEFAULT_TT_MEGABYTES) -> Iterator[Engine]:
    """An engine for one piece of work, reused from the last one this thread finished.

    Setting up a table costs more than solving a small deal (its memory is mapped and
    faulted in page by page), so each thread keeps one idle engine and lends it out again;
    ``setup`` clears it in O(1).  A nested borrow, while the idle engine is lent out, gets a
    new engine, so two searches never share one."""
    idle = getattr(_idle, "engine", None)
    if idle is not None and idle.megabytes == tt_megabytes:
        _idle.engine = None
        engine = idle
    else:
        engine = new_engine(tt_megabytes)
    try:
        yield engine
    finally:
        _idle.engine = engine


def solve(deal: Deal, *, objective: str = "score", tt_megabytes: int = DEFAULT_TT_MEGABYTES,
          engine: Engine | None = None, with_moves: bool = True, keep_tt: bool = False,
          limits: Limits | None = None, progress: Callable[[object], None] | None = None,
          threads: int = 1) -> Result:
    """Solve the position of ``deal`` exactly.

    ``engine``: use this engine (its table is kept only with ``keep_tt``, for another position
    of the same deal and rules); by default the thread's reused engine (``borrowed_engine``).
    ``limits``: a node or time budget (``stich.core.anytime.Limits``); when it runs out, or on
    Ctrl-C, the result is partial (``exact`` False) and holds only what is proven.
    ``progress(bounds)``: called about four times a second during the value search with each
    side's (low, high) final total proven so far (None where extras make the totals depend
    on the line: Mariage).
    ``threads``: this many threads search at once, each with its own engine searching the
    one table (``Engine(share=)``): with every card wanted the legal cards are handed out to
    them, each card's value searched by one thread (joined by any thread left without a
    card) and the value the best of those; without
    (``with_moves=False``) the value is searched by all of them (``stich.search.parallel``).
    The answer is the same on every run, and for any number of threads above one; where the
    value was searched by threads the line is chosen in an order of the position alone
    (``Engine.fixed_order``), so it may be another optimal line than one thread's (node
    counts add up the threads' and vary from run to run).  With
    ``limits`` a solve is one thread's (a budget is one engine's), and so is a position
    whose value one thread finds within ``THREADS_FROM_NODES`` nodes."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    started = time.perf_counter()
    position = deal.position()
    base = (position.points[0], position.points[1])
    game = deal.game_spec
    if position.is_over():
        return Result(deal, objective, base, game.outcome(position, deal), (), base, (), None, 0,
                      time.perf_counter() - started, base)
    limits = limits or Limits()
    if engine is None:      # a borrowed table holds another deal's entries: never keep them
        with borrowed_engine(tt_megabytes) as engine:
            return _solve(deal, position, objective, engine, with_moves, False, limits, progress,
                          started, threads)
    return _solve(deal, position, objective, engine, with_moves, keep_tt, limits, progress, started,
                  threads)


def _solve(deal: Deal, position, objective: str, engine: Engine, with_moves: bool, keep_tt: bool,
           limits: Limits, progress, started: float, threads: int = 1) -> Result:
    """The steps of a solve, each within the same budget: the value, the forced outcome,
    the line, every legal card, and the checks of the exact answer.  The line comes before
    the cards, from the table the value search left, so it does not depend on how many
    threads score the cards."""
    base = (position.points[0], position.points[1])
    engine.new_search()
    engine.fixed_order = False         # a borrowed engine may come from a threaded solve
    session = Session(deal, position, engine, keep_tt)
    engine.reset_nodes()
    session.limit(limits)
    work = _Work(session, position, objective, 1 if limits.any else threads, with_moves)
    try:
        value = work.value(progress)
    except Stopped as stop:
        work.stop(stop)
        span = work.span(stop.lo, stop.hi)
        rungs = work.possible_rungs(span[0] if span else None) if work.ranked else []
        moves: list[MoveValue] = work.score_moves(None) if with_moves else []
        return work.partial(deal, moves, span, rungs, started, base)
    # with extras the totals come from a best line; under the total objective that is the line
    # reported below, so it is played out once, there
    totals = session.final_totals(value) if work.constant else None    # no search: arithmetic
    rungs = work.possible_rungs(work.point(totals)) if work.ranked else []
    work.rung = rungs[0] if len(rungs) == 1 and work.stopped is None else None
    moves = []
    try:
        if work.apart:           # bonuses scored apart: one exact search of the score
            work.score = work.guard(session.score_value)
            session.total_mode()
        if work.stopped is not None or (work.ranked and not work.apart and work.rung is None
                                        and rungs):
            raise Stopped(work.stopped or "nodes", value, value)
        line = work.guard(lambda: work.line(value))
        moves = work.score_moves(value) if with_moves else []
        if work.stopped is not None:
            raise Stopped(work.stopped, value, value)
    except Stopped:
        session.total_mode()
        if with_moves and not moves:        # what is proven of each card, within what is left
            moves = work.score_moves(value)
        sides = _sides(totals) if totals else None
        return work.partial(deal, moves, sides, rungs, started, base, totals)
    return _checked(deal, objective, work, position, value, totals, line, moves, started, base)


def _sides(totals: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    return ((totals[0], totals[0]), (totals[1], totals[1]))


def _checked(deal, objective, work, position, value, totals, line, moves, started, base):
    """The exact result: the line played out by the referee, which must end where the search
    said (the solver checks itself on every solve)."""
    session, rung = work.session, work.rung
    cards = tuple(in_notation(m.card, deal.notation) for m in line)
    tricks, announcements, final = replay_line(position, line)
    line_totals = (final.points[0], final.points[1])
    outcome = deal.game_spec.outcome(final, deal)
    if totals is None:
        totals = line_totals if (rung is None and not work.apart) else session.final_totals(value)
    if rung is None and not work.apart and line_totals != totals:
        raise SolverError(f"the optimal line ends at {list(line_totals)}, not {list(totals)}")
    if rung is not None and outcome.rank != rung.rank:
        raise SolverError(f"the line ends {outcome.level}, not the forced {rung.level}")
    if work.apart and outcome.rank != work.so_far + work.score:
        raise SolverError(f"the line ends at {outcome.rank:+d} strokes, not the forced "
                          f"{work.so_far + work.score:+d}")
    return Result(deal, objective, totals, outcome, cards, line_totals, tuple(moves),
                  position.to_move + 1, work.nodes, time.perf_counter() - started, base,
                  tricks, announcements, tuple(m.pair for m in line))


class _Work:
    """The steps of one solve, each spending the session's budget: the value, the forced
    outcome, every legal card, the line, and what to report when the budget ran out."""

    def __init__(self, session: Session, position, objective: str, threads: int = 1,
                 with_moves: bool = False):
        self.session = session
        self.constant = position.rules.constant_sum
        self.ranked = objective == "score"
        # bonuses scored apart from the points (Mariage for strokes): the score is one exact
        # search of its own, side 0's score minus side 1's
        self.apart = self.ranked and score_objective(position) is not None
        self.so_far = position.bonus[0] - position.bonus[1]
        self.score: int | None = None
        self.rung = None
        self.stopped: str | None = None
        self.threads = max(1, threads)
        self.helper_nodes = 0           # nodes the helper threads' engines searched
        self.helpers: list[Session] = []    # sessions on engines sharing the solve's table
        self.value_search: ParallelValue | None = None
        # every card is wanted: with threads the value is the best card's (``_children_first``)
        self.with_moves = with_moves
        self.children: dict[int, int] | None = None     # move -> the value after it, searched

    @property
    def nodes(self) -> int:
        return self.session.engine.nodes + self.helper_nodes

    def stop(self, stop: Stopped) -> None:
        self.stopped = self.stopped or stop.reason

    def guard(self, step, session: Session | None = None):
        """Run ``step`` (any searches) within the budget; ``Stopped`` when it runs out."""
        try:
            return (session or self.session).guarded(step)
        except Stopped as stop:
            self.stop(stop)
            raise

    def value(self, progress) -> int:
        """The position's value under the totals (``progress(bounds)`` between slices); with
        ``threads``, searched by that many threads: the cards' values first where every card
        is wanted (``_children_first``), else the value itself (``ParallelValue``)."""
        shown = None if progress is None else (lambda low, high: progress(self.span(low, high)))
        if self.threads > 1 and self.with_moves and not self.apart:
            return self._children_first(shown)
        if self.threads > 1:
            return self._value_in_threads(shown)
        return self.session.limited_value(progress=shown)

    def _children_first(self, progress) -> int:
        """The value when every card is scored anyway, by ``threads`` threads: each card's
        exact value after it, the cards handed out to the threads (each the next card not
        yet taken, the best-ordered first, searched from the best value found so far), the
        value the best of them.  A thread left without a card joins a card still under way
        (``JoinableSearches``), so that no core waits out the last card.  One thread alone for
        the first ``THREADS_FROM_NODES`` nodes, as without threads.  The cards' values are
        kept for ``score_moves``."""
        found = self._value_alone_first()
        if found is not None:
            return found
        session = self.session
        children: dict[int, int] = {}
        # those that come in: exact even after Ctrl-C; set first, so that the sessions search
        # in an order of the position alone (``_fix_order``: the same line for any threads)
        self.children = children
        sessions = [session] + self._helper_sessions(self.threads - 1)
        maximiser = session.maximising()
        lo, hi = session.engine.value_range
        best: list[int] = []
        searches = JoinableSearches()
        lock = threading.Lock()

        def work(s: Session, group: list[int]) -> Iterator[tuple[int, int, int]]:
            with s.after(group[0]) as gain:
                # ``best`` may change in another thread meanwhile: it is only a guess here
                rest = 0 if s.over else searches.value(
                    s, group[0], best[0] - gain if best else s.first_guess())
            with lock:
                if not best or (gain + rest > best[0] if maximiser else gain + rest < best[0]):
                    best[:] = [gain + rest]
            yield group[0], gain, rest

        def got(done: tuple[int, int, int]) -> None:
            move, gain, rest = done
            children[move] = rest
            if progress is not None:
                progress(*((best[0], hi) if maximiser else (lo, best[0])))

        with self._helpers_counted(sessions[1:]):
            interrupted = share_out(sessions, session.classes(ordered=True), work, got,
                                    caller_works=True, idle=searches.help)
        if interrupted:
            session.stopped = session.stopped or "interrupt"
            if best:
                lo, hi = (best[0], hi) if maximiser else (lo, best[0])
            raise Stopped("interrupt", lo, hi)
        return best[0]

    def _value_alone_first(self) -> int | None:
        """The value if one thread finds it within ``THREADS_FROM_NODES`` nodes (a small
        position: no threads started), else None; Ctrl-C: ``Stopped`` with the bounds proven."""
        if THREADS_FROM_NODES <= 0:
            return None
        try:
            return value_alone_first(self.session, THREADS_FROM_NODES)[0]
        except SearchInterrupted as stop:
            self.session.stopped = self.session.stopped or "interrupt"
            raise Stopped("interrupt", stop.lo, stop.hi) from None

    @contextmanager
    def _helpers_counted(self, helpers: list[Session]) -> Iterator[None]:
        """Add what the helpers' engines search meanwhile to ``helper_nodes``."""
        before = [h.engine.nodes for h in helpers]
        try:
            yield
        finally:
            self.helper_nodes += sum(h.engine.nodes - b for h, b in zip(helpers, before))

    def _helper_sessions(self, count: int) -> list[Session]:
        """``count`` sessions on the solve's position, each on an engine of its own that
        searches the solve's table (made once, for the value and the cards)."""
        root = self.session
        while len(self.helpers) < count:
            self.helpers.append(Session(root.deal, root.root, Engine(share=root.engine)))
        self._fix_order()
        return self.helpers[:count]

    def _fix_order(self) -> None:
        """After a value searched by several threads the table and the history differ from
        run to run: the line (and a total read off a line, with extras) is then chosen in
        an order of the position alone (``Engine.fixed_order``), the same on every run and
        for any number of threads."""
        fixed = self.value_search is not None or self.children is not None
        for session in [self.session, *self.helpers]:
            session.engine.fixed_order = fixed

    def _value_in_threads(self, progress) -> int:
        """The value by ``threads`` threads (``threaded_value``: one thread alone for the
        first ``VALUE_THREADS_FROM_NODES`` nodes).  Ctrl-C: ``Stopped`` with the bounds proven."""
        session = self.session
        helpers = self._helper_sessions(self.threads - 1)
        try:
            value, self.value_search = threaded_value(session, helpers, VALUE_THREADS_FROM_NODES, progress)
            self._fix_order()
            return value
        except SearchLimit as stop:
            reason = "interrupt" if isinstance(stop, SearchInterrupted) else "nodes"
            session.stopped = session.stopped or reason
            raise Stopped(reason, stop.lo, stop.hi) from None
        finally:
            self.helper_nodes += sum(h.engine.nodes for h in helpers)

    def span(self, low: int, high: int) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """Each side's final-total range when side 0 still takes between ``low`` and
        ``high`` (constant-sum games; with extras the value is a difference: None)."""
        if not self.constant:
            return None
        points, rest = self.session.position.points, self.session.engine.remaining
        return ((points[0] + low, points[0] + high), (points[1] + rest - high, points[1] + rest - low))

    def point(self, totals: tuple[int, int] | None) -> tuple[int, int] | None:
        """Side 0's final total as a range of one, where the totals are exact."""
        return (totals[0], totals[0]) if self.constant and totals else None

    def possible_rungs(self, side0: tuple[int, int] | None, session: Session | None = None) -> list:
        """The ladder's rungs that may be the forced outcome (``ladder.possible_rungs``)."""
        rungs, stopped = possible_rungs(session or self.session, side0)
        if stopped:
            self.stopped = self.stopped or stopped
        return rungs

    def line(self, value: int):
        """One optimal line as moves (card, pair shown): for the totals, the forced outcome,
        or (bonuses apart) the score."""
        session = self.session
        if not self.apart:
            return session.moves_of(optimal_line(session, value, self.rung.rank if self.rung else None))
        session.score_value()
        try:
            return session.moves_of(optimal_line(session, self.score))
        finally:
            session.total_mode()

    def score_moves(self, value: int | None) -> list[MoveValue]:
        """Every legal card: its totals and level, or, past the budget, the bounds proven.
        With ``threads`` the classes of cards are handed out to that many threads."""
        session = self.session
        classes = session.classes()
        if (self.threads > 1 and len(classes) > 1 and value is not None
                and self.nodes >= THREADS_FROM_NODES):
            rows = self._rows_in_threads(classes, value)
        else:
            rows = [self._row(session, group[0], value) for group in classes]
        moves: list[MoveValue] = []
        for number, (group, (pair, row)) in enumerate(zip(classes, rows)):
            for index in group:
                card = in_notation(session.tables.cards[index & 63], session.deal.notation)
                moves.append(MoveValue(card, group=number, pair=pair, **row))
        return moves

    def _row(self, session: Session, move: int, value: int | None) -> tuple:
        """(pair shown, row) for one class of cards, scored on ``session``."""
        pair = session.shown_by(move)
        maximiser = session.maximising()
        with session.after(move) as gain:
            row = self._child(value, gain, maximiser, session, move)
        if self.apart and row.get("totals") is not None:
            self._score_apart(move, row, session)
        return pair, row

    def _rows_in_threads(self, classes: list, value: int) -> list:
        """``_row`` of every class, by ``threads`` threads: this one on the solve's engine,
        the others each on an engine of its own that searches the same table.  Each takes
        the next class not yet taken; the rows come back in the classes' order."""
        root = self.session
        count = min(self.threads, len(classes))
        sessions = [root] + self._helper_sessions(count - 1)
        rows: list = [None] * len(classes)

        def work(session: Session, k: int) -> Iterator[tuple[int, Any]]:
            yield k, self._row(session, classes[k][0], value)

        def got(done: tuple[int, Any]) -> None:
            rows[done[0]] = done[1]

        with self._helpers_counted(sessions[1:]):
            interrupted = share_out(sessions, range(len(classes)), work, got, caller_works=True)
        if interrupted:
            raise KeyboardInterrupt
        return rows

    def _score_apart(self, move: int, row: dict, session: Session | None = None) -> None:
        """Bonuses scored apart: the card's score, exact or undecided."""
        session = session or self.session
        try:
            child_score = self.guard(lambda: session.score_after(move), session)
        except Stopped:
            row["optimal"] = None
            return
        row.update(optimal=child_score == self.score, rank=self.so_far + child_score,
                   level=f"strokes {self.so_far + child_score:+d} for seat 1")

    def _child(self, value: int | None, gain: int, maximiser: bool,
               session: Session | None = None, move: int | None = None) -> dict:
        """The pushed move's totals, optimality and level (or what is proven of them)."""
        session = session or self.session
        rung = self.rung
        known = None if self.children is None else self.children.get(move)
        if value is None and known is not None and self.constant:
            # stopped before the value, but this card's value was found (``_children_first``)
            return dict(totals=session.final_totals(known), optimal=None)
        try:
            if value is None:
                raise Stopped(self.stopped or "nodes", *session.engine.value_range)
            child = known if known is not None else session.limited_value(
                **Session.child_bounds(value, gain, maximiser))
        except Stopped as stop:
            self.stop(stop)
            low, high = gain + stop.lo, gain + stop.hi
            # a card worse in totals may still keep the forced outcome: only the totals
            # objective judges cards by their value alone
            worse = not self.ranked and value is not None and (
                high < value if maximiser else low > value)
            return dict(totals=None, optimal=False if worse else None,
                        bounds=self.span(stop.lo, stop.hi))
        child += gain
        try:
            child_totals = self.guard(lambda: session.final_totals(child - gain), session)
        except Stopped:
            return dict(totals=None, optimal=None if self.ranked else child == value)
        if self.apart:
            return dict(totals=child_totals, optimal=None)
        rungs = self.possible_rungs(self.point(child_totals), session)
        child_rung = rungs[0] if len(rungs) == 1 and self.stopped is None else None
        if rung is not None:
            optimal = None if child_rung is None else child_rung.rank == rung.rank
        else:
            optimal = None if (self.ranked and rungs and self.stopped) else child == value
        row = dict(totals=child_totals, optimal=optimal)
        if child_rung is not None:
            row.update(level=child_rung.text, rank=child_rung.rank,
                       winner=None if child_rung.winner is None else child_rung.winner + 1)
        return row

    def partial(self, deal, moves, span, rungs, started, base, totals=None) -> Result:
        session = self.session
        return Result(deal, "score" if self.ranked else "total", totals, None, (), None,
                      tuple(moves), session.root.to_move + 1, self.nodes,
                      time.perf_counter() - started, base, exact=False,
                      stopped=self.stopped or "nodes", bounds=span,
                      levels=tuple((r.text, None if r.winner is None else r.winner + 1)
                                   for r in rungs))

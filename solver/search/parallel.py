"""The value of a position searched by several threads at once, on engines sharing one table.

Every thread runs the one-thread galloping driver (``core/search.pxi``, ``mtd_step``):
null-window tests that gallop from a first guess and then bisect, each test one
``Engine.window`` on an engine of its own.  The threads share their table and their proven
bounds, not their work (Lazy SMP, as Stockfish searches): the caller's thread starts from the
first guess, each helper from a guess some points apart (``offset``), so that their trees
differ and each fills the table with bounds the others then read.  Every test narrows the bounds all
threads search within; a thread whose test no longer lies within them is halted
(``Engine.halt``; a halted search stores nothing, so the table keeps only proven bounds) and
goes on at a target inside them; the first thread to close the bounds answers, and the
others are halted.

Every value is fail-soft and proven, so the answer is the one-thread driver's; only the node
counts differ from run to run (each thread's are in ``nodes_by_thread``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from stich.core._search import Engine, SearchInterrupted, SearchLimit

from .session import Session

PROGRESS_SECONDS = 0.25         # at most this often ``progress(lo, hi)`` between tests
# the helpers' first guesses lie this share of the value range from the caller's, and at
# least GUESS_OFFSET_MIN (one apart, a helper searches what is mostly the caller's next test),
# alternately above and below it, the second pair twice as far: Schafkopf2 3 of its 120 card
# points (2, 3, 4 and 5 measured alike, 12 and the caller's own guess slower), Elfern 2 of
# its 20 honours (1, 3 and 4 slower)
GUESS_SPREAD = 1 / 40
GUESS_OFFSET_MIN = 2


class ParallelValue:
    """The exact value of the position of ``engines`` (each set up on the same position, all
    but the first sharing the first's table), searched by as many threads: the first engine's
    in the caller's thread, the others' in threads of their own."""

    def __init__(self, engines: Sequence[Engine]):
        self.engines = list(engines)
        self.nodes_by_thread = [0] * len(self.engines)
        self.lo, self.hi = self.engines[0].value_range     # the proven bounds
        self._lock = threading.Lock()
        self._targets: list[int | None] = [None] * len(self.engines)
        self._errors: list[BaseException] = []
        self._closing = False

    def value(self, guess: int, at_least: int | None = None, at_most: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> int:
        """The exact value, ``guess`` the caller's first guess.  ``SearchLimit``
        (``SearchInterrupted`` on Ctrl-C) with the bounds proven so far (``lo``, ``hi`` too)."""
        main = self.engines[0]
        low, high = main.value_range
        self.lo = low if at_least is None else max(low, at_least)
        self.hi = high if at_most is None else min(high, at_most)
        if main.tricks_left == 0 or main.stopped:
            return 0
        before = [engine.nodes for engine in self.engines]
        self._closing = False
        for engine in self.engines:
            engine.halt(False)
        helpers = [threading.Thread(target=self._helper, args=(k, guess + self.offset(high - low, k)),
                                    daemon=True)
                   for k in range(1, len(self.engines))]
        try:
            for thread in helpers:
                thread.start()
            self._gallop(0, guess, progress)
        except SearchLimit as stop:             # Ctrl-C (or a limit): the bounds proven by all
            raise type(stop)(self.lo, self.hi) from None
        except KeyboardInterrupt:
            raise SearchInterrupted(self.lo, self.hi) from None
        finally:
            own = len(before)           # the engines after these joined later (``join``)
            with self._lock:
                self._closing = True
                for k, engine in enumerate(self.engines):
                    if k < own or self._targets[k] is not None:
                        engine.halt()
            for thread in helpers:
                thread.join()
            for engine in self.engines[:own]:
                engine.halt(False)
            self.nodes_by_thread = [e.nodes - b for e, b in zip(self.engines, before)]
        failures = [e for e in self._errors if not isinstance(e, SearchLimit)]
        if failures:
            raise failures[0]
        return self.lo

    @property
    def closed(self) -> bool:
        """True once the value is found (or the search was stopped): nothing left to join."""
        with self._lock:
            return self._closing or self.lo >= self.hi

    def join(self, engine: Engine) -> None:
        """Search this value on ``engine`` too, until it is found: a thread with no work of
        its own left helps a search under way in another thread.  ``engine`` is set up on the
        same position and shares the table; it starts a guess apart from the owner's test
        under way (``offset``), and what it proves narrows the owner's bounds as a helper's
        does.  Returns at once when the search is over; ``SearchLimit`` (Ctrl-C) is passed
        on, the owner reports the bounds."""
        with self._lock:
            if self._closing or self.lo >= self.hi:
                return
            k = len(self.engines)
            owner = self._targets[0]
            middle = owner if owner is not None else (self.lo + self.hi + 1) // 2
            low, high = self.engines[0].value_range
            offset = self.offset(high - low, k)
            self.engines.append(engine)
            self._targets.append(None)
            engine.halt(False)          # under the lock: the owner's closing halts it after
        try:
            self._gallop(k, middle + offset, None)
        finally:
            engine.halt(False)

    @staticmethod
    def offset(span: int, k: int) -> int:
        """Helper ``k``'s (1, 2, ...) first guess from the caller's: +d, -d, +2d, -2d, ..."""
        d = max(GUESS_OFFSET_MIN, round(span * GUESS_SPREAD))
        return ((k - 1) // 2 + 1) * d * (1 if k % 2 == 1 else -1)

    def _helper(self, k: int, guess: int) -> None:
        try:
            self._gallop(k, guess, None)
        except BaseException as error:          # Ctrl-C stops every thread's search; the
            with self._lock:                    # caller's thread reports it
                self._errors.append(error)

    def _gallop(self, k: int, guess: int, progress: Callable[[int, int], None] | None) -> None:
        """``mtd_step`` on engine ``k`` within the shared bounds, until they close or it is
        halted for good; ``progress(lo, hi)`` between tests, at most every
        ``PROGRESS_SECONDS``."""
        engine, step, shown, b = self.engines[k], 1, time.monotonic(), guess
        while True:
            with self._lock:
                if self.lo >= self.hi or self._closing:
                    return
                b = min(max(b, self.lo + 1), self.hi)
                self._targets[k] = b
            r = engine.window(b)
            if r is None:                       # halted: the bounds moved past b, or closed
                with self._lock:
                    self._targets[k] = None
                    if self.lo >= self.hi or self._closing:
                        return
                    engine.halt(False)
                continue
            self._prove(k, b, r)
            b = r + step if r >= b else r - step + 1
            step *= 2
            if self.hi - self.lo <= step:
                b, step = (self.lo + self.hi + 1) // 2, 1
            if progress and self.lo < self.hi and time.monotonic() - shown >= PROGRESS_SECONDS:
                progress(self.lo, self.hi)
                shown = time.monotonic()

    def _prove(self, k: int, b: int, r: int) -> None:
        """Narrow the shared bounds by engine ``k``'s test at ``b`` (fail-soft value ``r``),
        and halt every other thread whose test the bounds now answer."""
        with self._lock:
            self._targets[k] = None
            if r >= b:
                self.lo = max(self.lo, r)
            else:
                self.hi = min(self.hi, r)
            for j, target in enumerate(self._targets):
                if target is not None and not self.lo < target <= self.hi:
                    self.engines[j].halt()


class JoinableSearches:
    """Searches under way, one per thread, that a thread left without work of its own may
    join (``ParallelValue.join``): the cards of a whole solve handed out to threads, where
    the last card would otherwise leave every other core waiting."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: list[tuple[int, ParallelValue]] = []    # (move, its search) under way

    def value(self, session: Session, move: int, guess: int) -> int:
        """The exact value after ``move`` (pushed on ``session``) from ``guess``, searched
        by this thread and by any thread that joins it (``help``)."""
        search = ParallelValue([session.engine])
        with self._lock:
            self._running.append((move, search))
        try:
            return search.value(guess)
        finally:
            with self._lock:
                self._running.remove((move, search))

    def help(self, session: Session) -> None:
        """Join the search under way that the fewest threads search, on ``session``'s
        engine (at the root the searches started from), until none is left.  On Ctrl-C
        the thread that owns the search reports it."""
        while True:
            with self._lock:
                open_ = [(len(search.engines), n, move, search)
                         for n, (move, search) in enumerate(self._running) if not search.closed]
            if not open_:
                return
            _, _, move, search = min(open_, key=lambda entry: entry[:2])
            with session.after(move):
                try:
                    search.join(session.engine)
                except SearchLimit:
                    return


def value_alone_first(session: Session, nodes: int) -> tuple[int | None, tuple[int | None, int | None]]:
    """The value of ``session``'s node if its engine alone finds it within ``nodes`` nodes (a
    small position: no threads are worth starting), else None with the bounds proven by
    then: (value, (lo, hi)).  ``SearchInterrupted`` (Ctrl-C) is passed on."""
    engine = session.engine
    engine.limit(nodes=nodes)
    try:
        return session.value(), (None, None)
    except SearchLimit as stop:
        if isinstance(stop, SearchInterrupted):
            raise
        return None, (stop.lo, stop.hi)
    finally:
        engine.limit()


def threaded_value(session: Session, helpers: Sequence[Session], alone_first: int = 0,
                   progress: Callable[[int, int], None] | None = None
                   ) -> tuple[int, ParallelValue | None]:
    """The value of ``session``'s node under the totals by ``1 + len(helpers)`` threads: the
    session's engine and the helpers' (each helper a session on the same node, its engine
    sharing the session's table).  The first ``alone_first`` nodes are searched
    by the session's engine alone, as without threads (a small position is done by then: the
    answer and no parallel search); the threads go on within the bounds proven.
    ``SearchLimit`` / ``SearchInterrupted`` as ``Engine.value``."""
    engine = session.engine
    lo = hi = None
    if alone_first > 0:
        value, (lo, hi) = value_alone_first(session, alone_first)
        if value is not None:
            return value, None
    search = ParallelValue([engine] + [h.engine for h in helpers])
    return search.value(session.first_guess(), at_least=lo, at_most=hi, progress=progress), search


__all__ = ["JoinableSearches", "ParallelValue", "threaded_value", "value_alone_first"]

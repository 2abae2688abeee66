"""The value of a position searched by several threads at once, on engines sharing one table.

The driver is the one-thread galloping one (``core/search.pxi``, ``mtd_step``): null-window
tests that gallop from the first guess and then bisect.  Each test is shared out by splitting
the first ``SPLIT_TRICKS`` tricks, young brothers wait: at a node of the chain of first moves
the first (best-ordered) move is searched first (itself split, down to the chain's end), and
only if it does not decide the test are the other moves handed to the threads at once, each
as one null-window test (``Engine.window``) on an engine of its own.  Once one of them decides the node the
others are halted (``Engine.halt``; a halted search stores nothing, so the table keeps only
proven bounds).  A test whose root fails for the side to move searches every move of the
root in parallel; one that succeeds, every reply to the first move.

A test that runs alone for ``SPLIT_AFTER_SECONDS`` while the other threads wait (the one
eldest move at the end of the chain, or the last brother of a step) is halted and searched
split: all its moves handed out at once, the best-ordered first, the others halted once one
decides; the subtrees it had finished are in the table, so little is searched twice.

Every value is fail-soft and proven, so the bounds and the answer are the one-thread
driver's; only the node counts differ (each thread's are in ``nodes_by_thread``).  The
chain's nodes are walked on an engine of the coordinator's own (``inspector``), which
searches nothing: it lists the moves in the search's order and what each earns.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from stich.core._search import Engine, SearchInterrupted, SearchLimit

from .session import Session

# the chain of first moves is split through this many tricks from the root: deeper, less is
# searched by one thread alone while the others wait (three tricks: measured on the seeded
# Schafkopf2 and Elfern sets, docs/explanation/performance.md)
SPLIT_TRICKS = 3
PROGRESS_SECONDS = 0.25         # at most this often ``progress(lo, hi)`` between tests
# a test that has run alone this long while the other threads wait is halted and split: its
# moves handed out at once (the subtrees it finished are in the table); 2 and 5 ms measured
# alike, 5 ms splits less often
SPLIT_AFTER_SECONDS = 0.005

_STOP = object()


class _Task:
    """One null-window test at ``target`` after the moves ``path`` from the root."""

    __slots__ = ("path", "target", "cancelled", "split", "whole", "worker", "ran_on", "cpu",
                 "nodes")

    def __init__(self, path: tuple[int, ...], target: int):
        self.path, self.target = path, target
        self.cancelled = False
        self.split = False                  # halted to be split (``_Workers.halt_to_split``)
        self.whole = False                  # ... but it had nothing to split
        self.worker: int | None = None      # the worker running it
        self.ran_on = -1                    # the worker that ran it last, and its CPU seconds
        self.cpu = 0.0
        self.nodes = 0


class _Workers:
    """One thread per engine, each running the tests it is handed; results come back on one
    queue to the coordinator (the caller's thread)."""

    def __init__(self, engines: Sequence[Engine]):
        self.engines = list(engines)
        self.todo: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.done: queue.SimpleQueue[tuple[_Task, Any, BaseException | None]] = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.closing = False
        self.nodes = [0] * len(self.engines)
        self.cpu = [0.0] * len(self.engines)
        self.threads = [threading.Thread(target=self._run, args=(k,), daemon=True)
                        for k in range(len(self.engines))]
        for thread in self.threads:
            thread.start()

    def _run(self, k: int) -> None:
        engine = self.engines[k]
        started = time.thread_time()
        try:
            while (task := self.todo.get()) is not _STOP:
                with self.lock:
                    if task.cancelled or self.closing:
                        self.done.put((task, None, None))
                        continue
                    task.worker = k
                    engine.halt(False)
                self.done.put(self._test(engine, k, task))
        finally:
            self.cpu[k] = time.thread_time() - started

    def _test(self, engine: Engine, k: int, task: _Task):
        before, started = engine.nodes, time.thread_time()
        depth = 0
        try:
            for move in task.path:
                engine.push(move)
                depth += 1
            return task, engine.window(task.target), None
        except BaseException as error:              # handed to the coordinator
            return task, None, error
        finally:
            for _ in range(depth):
                engine.pop()
            self.nodes[k] += engine.nodes - before
            task.ran_on, task.cpu = k, task.cpu + time.thread_time() - started
            task.nodes += engine.nodes - before
            with self.lock:
                task.worker = None

    def submit(self, task: _Task) -> None:
        self.todo.put(task)

    def cancel(self, task: _Task) -> None:
        """Halt ``task`` if it runs, skip it if it waits."""
        with self.lock:
            task.cancelled = True
            if task.worker is not None:
                self.engines[task.worker].halt()

    def halt_to_split(self, task: _Task) -> None:
        """Halt ``task`` if it still runs, to search it split (it comes back as halted)."""
        with self.lock:
            if task.worker is not None and not task.cancelled and not task.whole:
                task.split = True
                self.engines[task.worker].halt()

    def close(self) -> None:
        """Halt what runs, skip what waits, and end the threads."""
        with self.lock:
            self.closing = True
            for engine in self.engines:
                engine.halt()
        for _ in self.threads:
            self.todo.put(_STOP)
        for thread in self.threads:
            thread.join()
        for engine in self.engines:
            engine.halt(False)


class ParallelValue:
    """The exact value of the inspector's position, searched by ``engines`` (each set up on
    the same position, all but one sharing the first's table) in as many threads.
    ``maximising(engine)``: whether the side to move at the engine's node maximises."""

    def __init__(self, engines: Sequence[Engine], inspector: Engine,
                 maximising: Callable[[Engine], bool]):
        self.engines, self.inspector, self.maximising = list(engines), inspector, maximising
        self.nodes_by_thread = [0] * len(self.engines)
        self.cpu_by_thread = [0.0] * len(self.engines)
        self.lo = self.hi = 0
        # the wall time two idle cores would take, estimated from CPU times: per parallel
        # step the busiest thread's CPU seconds (its tests one after the other), summed
        self.critical_seconds = 0.0
        self.critical_nodes = 0         # ... and in nodes
        self.parallel_tests = 0         # tests handed out with others at once
        self.splits = 0                 # tests halted while alone and searched split
        self.root_tricks = inspector.tricks_left    # a trick in progress counts as the first
        self._workers: _Workers | None = None

    def value(self, guess: int, at_least: int | None = None, at_most: int | None = None,
              progress: Callable[[int, int], None] | None = None) -> int:
        """The galloping driver over parallel tests.  ``SearchLimit`` (``SearchInterrupted``
        on Ctrl-C) with the bounds proven so far (``lo``, ``hi`` too)."""
        lo, hi = self.inspector.value_range
        lo = lo if at_least is None else max(lo, at_least)
        hi = hi if at_most is None else min(hi, at_most)
        self.lo, self.hi = lo, hi
        if self.inspector.tricks_left == 0 or self.inspector.stopped:
            return 0
        self._workers = _Workers(self.engines)
        try:
            self._gallop(min(max(guess, lo), hi), progress)
        except KeyboardInterrupt:
            raise SearchInterrupted(self.lo, self.hi) from None
        finally:
            self._workers.close()
            self.nodes_by_thread = list(self._workers.nodes)
            self.cpu_by_thread = list(self._workers.cpu)
        return self.lo

    def _gallop(self, guess: int, progress: Callable[[int, int], None] | None) -> None:
        """``mtd_step`` with ``_test`` for the core's null-window search; ``progress(lo, hi)``
        between tests, at most every ``PROGRESS_SECONDS``."""
        step, shown = 1, time.monotonic()
        b = guess if guess > self.lo else self.lo + 1
        while self.lo < self.hi:
            b = min(max(b, self.lo + 1), self.hi)
            r = self._test(b)
            if r >= b:
                self.lo = r
                b = self.lo + step
            else:
                self.hi = r
                b = self.hi - step + 1
            step *= 2
            if self.lo < self.hi and self.hi - self.lo <= step:
                b = (self.lo + self.hi + 1) // 2
                step = 1
            if progress and self.lo < self.hi and time.monotonic() - shown >= PROGRESS_SECONDS:
                progress(self.lo, self.hi)
                shown = time.monotonic()

    def _test(self, b: int) -> int:
        """The root's fail-soft value for the null window at ``b`` (at least ``b``: the value
        is at least that; below: at most that)."""
        return self._split((), b)

    def _children(self, path: tuple[int, ...]) -> list[tuple[int, int, bool]]:
        """The moves at ``path`` in the search's order: (move, what it earns, whether the
        node after it is still in the first ``SPLIT_TRICKS`` tricks and not the end)."""
        inspector = self.inspector
        out = []
        for group in inspector.classes(ordered=True):
            move = group[0]
            gain = inspector.push(move)
            inside = (self.root_tricks - inspector.tricks_left < SPLIT_TRICKS
                      and inspector.tricks_left > 1 and not inspector.stopped)
            inspector.pop()
            out.append((move, gain, inside))
        return out

    def _split(self, path: tuple[int, ...], b: int) -> int:
        """The fail-soft value at the inspector's node ``path`` for the null window at ``b``:
        the first move first (split again while inside the chain), then the others in
        parallel."""
        inspector = self.inspector
        maximise = self.maximising(inspector)
        children = self._children(path)
        move, gain, inside = children[0]
        if inside:
            inspector.push(move)
            try:
                best = gain + self._split(path + (move,), b - gain)
            finally:
                inspector.pop()
        else:
            best = gain + self._parallel([(path + (move,), b - gain)])[0]
        if (best >= b) == maximise or len(children) == 1:
            return best
        return self._best(best, children[1:], path, b, maximise)

    def _split_at_once(self, task: _Task) -> int | None:
        """The fail-soft value of a halted test (its node a child of the inspector's), its
        moves handed out at once (``_split_here``).  None where there is nothing to split."""
        inspector = self.inspector
        inspector.push(task.path[-1])
        try:
            return self._split_here(task.path, task.target)
        finally:
            inspector.pop()

    def _split_here(self, path: tuple[int, ...], b: int) -> int | None:
        """The fail-soft value at the inspector's node ``path`` for the null window at ``b``,
        all its moves handed out at once, the first (best-ordered) one first; through a
        single move to the first node with several.  None where there are none."""
        inspector = self.inspector
        if inspector.tricks_left <= 1 or inspector.stopped:
            return None
        children = self._children(path)
        if len(children) == 1:
            move, gain, _ = children[0]
            inspector.push(move)
            try:
                rest = self._split_here(path + (move,), b - gain)
            finally:
                inspector.pop()
            return None if rest is None else gain + rest
        self.splits += 1
        return self._best(None, children, path, b, self.maximising(inspector))

    def _best(self, best: int | None, children: list[tuple[int, int, bool]], path: tuple[int, ...],
              b: int, maximise: bool) -> int:
        """``best`` (None: nothing yet) and the fail-soft values of ``children`` (of the
        node at ``path``, searched at once), the best of them for the side to move."""
        values = self._parallel([(path + (m,), b - g) for m, g, _ in children],
                                [g for _, g, _ in children], b, maximise)
        if best is not None:
            values.append(best)
        return max(values) if maximise else min(values)

    def _parallel(self, tests: list[tuple[tuple[int, ...], int]], gains: list[int] | None = None,
                  b: int | None = None, maximise: bool = True) -> list[int]:
        """The fail-soft values of ``tests`` (path, target), searched at once; with ``b``
        the values plus ``gains`` are returned, and once one decides the node at ``b`` for
        the side that ``maximise`` says, the others are halted and only the deciding one is
        returned.  A test left running alone for ``SPLIT_AFTER_SECONDS`` while the other
        threads wait is searched split (``_split_at_once``)."""
        workers = self._workers
        assert workers is not None
        tasks = [_Task(path, target) for path, target in tests]
        index = {id(t): k for k, t in enumerate(tasks)}
        for task in tasks:
            workers.submit(task)
        out: dict[int, int] = {}
        running, decided, error = len(tasks), None, None
        while running:
            lone = running == 1 and len(self.engines) > 1 and decided is None and error is None
            try:
                task, r, failure = workers.done.get(timeout=SPLIT_AFTER_SECONDS if lone else None)
            except queue.Empty:
                for k, waiting in enumerate(tasks):
                    if k not in out and not waiting.cancelled:
                        workers.halt_to_split(waiting)
                continue
            k = index[id(task)]
            if failure is not None:
                error = error or failure
                self._cancel_all(tasks, out)
                running -= 1
                continue
            if r is None and task.split and not task.cancelled and error is None:
                r = self._split_at_once(task)
                task.whole = r is None              # nothing to split: search it whole
            if r is None:                           # halted (or skipped)
                if task.cancelled or error is not None or decided is not None:
                    running -= 1
                else:                               # a halt meant for the task before it,
                    task.worker = None              # or to split one with nothing to split
                    task.split = False              # (searched again, it is no longer halted)
                    workers.submit(task)
                continue
            running -= 1
            v = r if gains is None else gains[k] + r
            out[k] = v
            if b is not None and decided is None and (v >= b) == maximise:
                decided = v
                self._cancel_all(tasks, out)
        self._count(tasks)
        if error is not None:
            raise error
        if decided is not None:
            return [decided]
        return [out[k] for k in range(len(tasks))]

    def _count(self, tasks: list[_Task]) -> None:
        """The critical path of tests handed out at once: the busiest thread's share."""
        seconds: dict[int, float] = {}
        nodes: dict[int, int] = {}
        for task in tasks:
            seconds[task.ran_on] = seconds.get(task.ran_on, 0.0) + task.cpu
            nodes[task.ran_on] = nodes.get(task.ran_on, 0) + task.nodes
        self.critical_seconds += max(seconds.values(), default=0.0)
        self.critical_nodes += max(nodes.values(), default=0)
        if len(tasks) > 1:
            self.parallel_tests += len(tasks)

    def _cancel_all(self, tasks: list[_Task], finished: dict[int, int]) -> None:
        workers = self._workers
        assert workers is not None
        for k, task in enumerate(tasks):
            if k not in finished:
                workers.cancel(task)


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
    """The value of ``session``'s node under the totals by ``len(helpers)`` threads: the
    session's engine and all helpers' but the first, which walks the first tricks (each
    helper a session on the same node, its engine sharing the session's table).  The first
    ``alone_first`` nodes are searched by the session's engine alone, as without threads (a
    small position is done by then: the answer and no parallel search); the threads go on
    within the bounds proven.  ``SearchLimit`` / ``SearchInterrupted`` as ``Engine.value``."""
    engine = session.engine
    lo = hi = None
    if alone_first > 0:
        value, (lo, hi) = value_alone_first(session, alone_first)
        if value is not None:
            return value, None
    rules = session.root.rules
    search = ParallelValue([engine] + [h.engine for h in helpers[1:]], helpers[0].engine,
                           lambda e: rules.side(e.to_move) == 0)
    guess = engine.first_guess(session.deal.game_spec.search.get("first", "half"))
    return search.value(guess, at_least=lo, at_most=hi, progress=progress), search


__all__ = ["ParallelValue", "threaded_value", "value_alone_first"]

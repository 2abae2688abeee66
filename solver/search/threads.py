"""N engines, one queue of work, Ctrl-C safe: the thread pool of a solve's card scoring and of
a table's trumps.  Each worker (an engine, or a session on one) takes the next piece of work
not yet taken, so a slow piece never holds up the others; the caller's thread gathers what is
finished."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Generic, TypeVar

W = TypeVar("W")        # a worker: what a piece of work is done on
T = TypeVar("T")        # a piece of work
R = TypeVar("R")        # what a piece of work gives (a piece may give several)

_END = object()
_RESULT, _ERROR, _DONE = "result", "error", "done"


def share_out(workers: Sequence[W], items: Iterable[T], work: Callable[[W, T], Iterable[R]],
              got: Callable[[R], None], *, caller_works: bool = False,
              stop: Callable[[W], None] | None = None,
              idle: Callable[[W], None] | None = None) -> bool:
    """Do every item of ``items`` on one of ``workers``: ``work(worker, item)`` gives its
    results, each handed to ``got`` in the caller's thread as it comes.  Each worker has a
    thread of its own; with ``caller_works`` the first one works in the caller's thread (its
    results are handed on after its own last item).  An error in a worker stops the others
    taking work and is raised once all have stopped.  Ctrl-C stops them too, ``stop(worker)``
    ending a search under way, and returns True: the results handed on before are kept.
    ``idle(worker)``: what a worker does once no item is left for it (help one under way)."""
    return _Pool(workers, items, work, idle).run(got, caller_works, stop)


class _Pool(Generic[W, T, R]):
    def __init__(self, workers: Sequence[W], items: Iterable[T],
                 work: Callable[[W, T], Iterable[R]], idle: Callable[[W], None] | None = None):
        self.workers, self.todo, self.work, self.idle = workers, iter(items), work, idle
        self.lock = threading.Lock()
        self.finished: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self.cancel = threading.Event()

    def _next(self) -> Any:
        with self.lock:
            return next(self.todo, _END)

    def _worker(self, worker: W) -> None:
        """Take items until none is left or the pool is cancelled; results and errors go
        to the queue, and last a note that this worker is done."""
        try:
            while not self.cancel.is_set():
                item = self._next()
                if item is _END:
                    if self.idle is not None:
                        self.idle(worker)
                    return
                for result in self.work(worker, item):
                    self.finished.put((_RESULT, result))
                    if self.cancel.is_set():
                        return
        except BaseException as error:                  # handed to the caller's thread
            self.cancel.set()
            self.finished.put((_ERROR, error))
        finally:
            self.finished.put((_DONE, None))

    def _gather(self, got: Callable[[R], None], running: int) -> BaseException | None:
        """Hand on the results until every worker is done; the first error (a Ctrl-C in a
        worker is raised here at once)."""
        error = None
        while running:
            kind, value = self.finished.get()
            if kind == _DONE:
                running -= 1
            elif kind == _ERROR:
                if isinstance(value, KeyboardInterrupt):
                    raise value
                error = error or value
            elif error is None:
                got(value)
        return error

    def run(self, got: Callable[[R], None], caller_works: bool,
            stop: Callable[[W], None] | None) -> bool:
        own = list(self.workers[:1]) if caller_works else []
        threads = [threading.Thread(target=self._worker, args=(w,), daemon=True)
                   for w in self.workers[len(own):]]
        for thread in threads:
            thread.start()
        error = None
        try:
            for worker in own:
                self._worker(worker)
            error = self._gather(got, len(own) + len(threads))
        except KeyboardInterrupt:
            self.cancel.set()
            for worker in self.workers if stop is not None else ():
                stop(worker)                            # type: ignore[misc]  # not None here
            return True
        finally:
            self.cancel.set()
            for thread in threads:
                thread.join()
        if error is not None:
            raise error
        return False

"""Worker threads for the explorer's searches, so the event loop never runs one.

The search core releases the GIL while it searches, so a thread is as fast as a process
here and needs no copying of deals.  The threads are daemons: Ctrl-C stops the server at
once instead of waiting for a long solve nobody will read.  The analysis pool takes the
newest request first (``lifo``): the page asks for the position shown last, and a position
the user clicked past can wait.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any


class WorkerPool:
    """``workers`` daemon threads running submitted calls; ``submit`` returns a Future."""

    def __init__(self, workers: int, name: str, lifo: bool = False):
        self._queue: queue.Queue = queue.PriorityQueue()
        self._order = itertools.count()
        self._lifo = lifo
        self._closed = False
        self._threads = [threading.Thread(target=self._run, name=f"{name}-{k + 1}", daemon=True)
                         for k in range(workers)]
        for thread in self._threads:
            thread.start()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        if self._closed:
            raise RuntimeError("the worker pool is closed")
        future: Future = Future()
        number = next(self._order)
        self._queue.put((-number if self._lifo else number, number, fn, args, future))
        return future

    def _run(self) -> None:
        while True:
            _, _, fn, args, future = self._queue.get()
            if fn is None:
                return
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting request
                future.set_exception(exc)

    def close(self) -> None:
        """Cancel what has not started; a search already running is left to the daemon."""
        if self._closed:
            return
        self._closed = True
        while True:
            try:
                _, _, fn, _, future = self._queue.get_nowait()
            except queue.Empty:
                break
            if fn is not None:
                future.cancel()
        for _ in self._threads:                 # one stop sign per thread, before any work
            self._queue.put((float("-inf"), next(self._order), None, (), None))

    def join(self, timeout: float) -> bool:
        """After ``close``: wait at most ``timeout`` seconds in all for the calls still running
        to end; True if every thread has ended.  A call that is stopping worker processes must
        finish before the process exits: Python frees a pool's semaphores in the thread that
        drops the pool, and a thread frozen by the exit halfway through leaves the resource
        tracker to warn of a "leaked semaphore" on the terminal."""
        ends = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, ends - time.monotonic()))
        return not any(thread.is_alive() for thread in self._threads)

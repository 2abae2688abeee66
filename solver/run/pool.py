"""The worker pool that batch, tactic and suggest run their work on: local processes or Dask.

Workers.  Each worker process (each thread of a Dask worker)
keeps ONE engine (``stich.search.solve.new_engine``) and reuses it for every deal it solves.  Local
workers are started with "spawn", so they inherit neither the results file nor its lock.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, as_completed, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from . import RunError


class MissingDask(RunError):
    """--dask without the dask extra installed."""


_local = threading.local()
WORKER_RESTARTS = 2         # a call's worker may die this often and it is tried again
WORTH_A_POOL = 1.0         # seconds of work done here before worker processes are started
_running: set[ProcessPoolExecutor] = set()         # the local pools working now (stop_every_pool)
_stops = 0                  # how many times stop_every_pool ran: work begun before may start no pool
_kept = threading.local()   # per thread, inside kept_pool(): (jobs, table size) -> its live pool


def worker_engine(tt_megabytes: int):
    """This worker's engine (one per process, or per thread of a threaded Dask worker)."""
    engine = getattr(_local, "engine", None)
    if engine is None or _local.tt_megabytes != tt_megabytes:
        from stich.search.solve import new_engine
        engine = new_engine(tt_megabytes)
        _local.engine, _local.tt_megabytes = engine, tt_megabytes
    return engine


def local_executor(workers: int, tt_megabytes: int) -> ProcessPoolExecutor:
    """Worker processes on this machine for batch, tactic and suggest: each keeps one engine
    and dies with its parent.  Started with "spawn", so they inherit none of the parent's
    descriptors: a results file and its lock stay the parent's alone."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                               initargs=(tt_megabytes, os.getpid()),
                               mp_context=multiprocessing.get_context("spawn"))


def _init_worker(tt_megabytes: int, parent: int | None = None) -> None:
    die_with_parent(parent)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})    # now ignored: see spawning()
    worker_engine(tt_megabytes)


@contextlib.contextmanager
def spawning() -> Iterator[None]:
    """Start worker processes with SIGINT blocked (a mask is inherited, a Python handler is not):
    a Ctrl-C while a new worker imports stich waits, and the worker ignores it once started,
    instead of printing an import's traceback.  This thread's own Ctrl-C is delivered when the
    block ends."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class PoolsStopped(RunError):
    """Work asked of a local pool after ``stop_every_pool``: the process is stopping."""


def stop_every_pool() -> None:
    """Stop the workers of every local pool at once; the work running on them starts no new
    pool (the explorer's Ctrl-C: a player's-view job in a thread must not keep the process
    waiting for its deals, nor take its stopped pool for dead workers and start another as the
    process exits: a worker spawned then finds its parent gone and prints an error).  Work
    begun later runs as usual."""
    global _stops
    _stops += 1
    for executor in list(_running):
        stop_at_once(executor)


def die_with_parent(parent: int | None = None) -> None:
    """A worker must not outlive a killed batch (SIGKILL leaves no time to stop it): on Linux the
    kernel sends SIGKILL when the parent dies; a thread also watches the parent's pid (given by
    the parent: it may have died while this worker was still starting)."""
    parent = os.getppid() if parent is None else parent
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the parent's to handle
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.5)
    if os.getppid() != parent:        # died before prctl took effect
        os._exit(1)
    threading.Thread(target=watch, name="stich-parent-watch", daemon=True).start()


def dask_executor(address: str):
    """(executor, client) of a Dask cluster; ``MissingDask`` if dask is not installed."""
    try:
        import distributed
    except ImportError:
        raise MissingDask("--dask needs Dask: pip install \"stich[dask]\" "
                          "(or pip install \"dask[distributed]\")") from None
    try:
        client = distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise RunError(f"--dask {address}: cannot connect: {exc}") from None
    return client.get_executor(pure=False), client


def run_everywhere(work: Callable, calls: list[tuple[Any, tuple]], *, jobs: int | None,
                   dask_address: str | None, tt_megabytes: int) -> Iterator[tuple[Any, Any]]:
    """``work(*args)`` for every ``(key, args)`` of ``calls``: in this process (``jobs`` 1), on
    local workers (``local_executor``) or on a Dask cluster.  Yields ``(key, result)``, or
    ``(key, exception)`` for a call that raised (one bad item must not stop the rest), in the
    order they finish.  Batch, tactic and suggest all run their work through here.  ``jobs``
    None: every core, but worker processes only once the work has taken ``WORTH_A_POOL``
    seconds here (a small job never pays for starting them)."""
    if not calls:
        return
    stops = _stops                          # a stop_every_pool from now on ends this work's pools
    if dask_address is None and jobs in (None, 1):
        calls = yield from _in_this_process(work, calls, WORTH_A_POOL if jobs is None else None)
        if not calls:
            return
    jobs = jobs or os.cpu_count() or 1
    if dask_address is not None:
        yield from _on_dask(work, calls, dask_address)
        return
    yield from _on_local_pools(work, dict(enumerate(calls)), jobs, tt_megabytes, stops)


class WorkerDied(RunError):
    """A call whose worker process was killed (by the OOM killer, say) on every try."""


@contextlib.contextmanager
def kept_pool() -> Iterator[None]:
    """Within the block, this thread's ``run_everywhere`` calls share their local worker pool
    (per number of jobs and table size) instead of starting one each: work done in rounds (the
    player's view: every card's rung, then the deciding cards' totals) starts its workers,
    each importing stich and faulting in its table, once.  The pool stops when the block ends."""
    outer = getattr(_kept, "pools", None)
    if outer is not None:               # nested: the outer block's pools serve
        yield
        return
    _kept.pools = {}
    try:
        yield
    finally:
        pools, _kept.pools = _kept.pools, None
        for executor in pools.values():
            _running.discard(executor)
            executor.shutdown(wait=True, cancel_futures=True)


def _pool_for(jobs: int, left: int, tt_megabytes: int) -> tuple[ProcessPoolExecutor, bool]:
    """(pool, kept): the kept pool of these ``jobs`` inside ``kept_pool``, else a new one."""
    pools = getattr(_kept, "pools", None)
    if pools is None:
        return local_executor(min(jobs, left), tt_megabytes), False
    if (jobs, tt_megabytes) not in pools:
        pools[(jobs, tt_megabytes)] = local_executor(jobs, tt_megabytes)
    return pools[(jobs, tt_megabytes)], True


def _on_local_pools(work: Callable, left: dict[int, tuple[Any, tuple]], jobs: int, tt_megabytes: int,
                    stops: int):
    """The calls of ``left`` on local pools, a new pool each time a worker dies.

    When a worker dies (the OOM killer, a crash in C), its pool breaks and every call in flight
    on it fails; only one of them killed it.  So a call is blamed only for deaths while it was in
    flight, and once blamed it runs alone, with nothing beside it: a call that did not kill the
    worker then answers, and one that did is blamed for certain.  A call is given up
    (``WorkerDied``) after ``WORKER_RESTARTS + 1`` deaths; the rest are kept.  Pools that break
    with nothing in flight (a worker dying as it starts) are given up after as many tries.
    ``stops``: ``stop_every_pool``'s count when the work began; once it has moved, no new pool
    starts (``PoolsStopped``)."""
    deaths: dict[int, int] = {}
    empty_breaks = 0
    while left and empty_breaks <= WORKER_RESTARTS:
        in_flight: set[int] = set()
        yield from _on_local_pool(work, left, jobs, tt_megabytes, deaths, in_flight, stops)
        if not in_flight:
            empty_breaks += 1
            continue
        empty_breaks = 0
        for n in in_flight:                 # the pool broke with these running
            deaths[n] = deaths.get(n, 0) + 1
            if deaths[n] > WORKER_RESTARTS:
                key, _ = left.pop(n)
                yield key, WorkerDied(f"its worker process died {deaths[n]} times (out of memory?  Or, "
                                      f"from a script, work started outside `if __name__ == "
                                      f"\"__main__\":`: each worker imports the script again)")
    for key, _ in left.values():            # every pool broke as it started: lost, the rest kept
        yield key, WorkerDied(f"worker processes died {empty_breaks} times in a row as they started")


def _on_local_pool(work: Callable, left: dict[int, tuple[Any, tuple]], jobs: int, tt_megabytes: int,
                   deaths: dict[int, int], in_flight: set[int], stops: int):
    """The calls of ``left`` on one local pool (new, or the one ``kept_pool`` keeps), each removed
    from ``left`` once answered.  At most ``jobs`` calls are in flight (so each has a worker, and
    a death is blamed on few); a call in ``deaths`` runs alone.  If a worker dies the pool breaks
    and this returns with ``in_flight`` holding the calls that were running."""
    executor, kept = _pool_for(jobs, len(left), tt_megabytes)
    _running.add(executor)
    finished = False
    futures: dict[Future, int] = {}
    try:
        if _stops != stops:         # checked once the pool is listed: a stop from now on ends it
            raise PoolsStopped("the worker pools were stopped: this process is stopping")
        waiting = sorted(left, key=lambda n: n in deaths)       # the blamed last, stable order
        broken = False
        while (waiting or futures) and not broken:
            alone = any(futures[f] in deaths for f in futures)
            with spawning():
                while waiting and not alone and len(futures) < jobs:
                    n = waiting[0]
                    if n in deaths and futures:
                        break                   # it waits until nothing else is in flight
                    try:
                        futures[executor.submit(work, *left[n][1])] = n
                    except BrokenProcessPool:   # a worker died already
                        broken = True
                        break
                    waiting.pop(0)
                    in_flight.add(n)
                    alone = n in deaths
            if broken or not futures:
                break
            done, _ = wait(futures, return_when=FIRST_COMPLETED)
            for future in done:
                n = futures.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken = True
                    continue
                except Exception as exc:  # noqa: BLE001
                    result = exc
                in_flight.discard(n)
                key, _ = left.pop(n)
                yield key, result
        finished = not broken
    finally:
        if finished and kept:
            pass                                # kept running for the block's next round
        elif finished:
            _running.discard(executor)
            executor.shutdown(wait=True, cancel_futures=True)
        else:
            _running.discard(executor)
            if kept:
                _kept.pools.pop((jobs, tt_megabytes), None)
            stop_at_once(executor)


def _on_dask(work: Callable, calls: list[tuple[Any, tuple]], dask_address: str):
    executor, client = dask_executor(dask_address)
    try:
        futures = {executor.submit(work, *args): key for key, args in calls}
        for future in as_completed(futures):
            try:
                yield futures[future], future.result()
            except Exception as exc:  # noqa: BLE001
                yield futures[future], exc
    finally:
        client.close()                      # closing the client cancels what is left


def _in_this_process(work: Callable, calls: list, seconds: float | None):
    """Run calls here, one after another, until ``seconds`` have passed (None: all of them);
    returns the calls left.  Starting worker processes costs about a second (each imports
    stich), so a small job never starts them and a long one starts them after that second."""
    started = time.monotonic()
    for n, (key, args) in enumerate(calls):
        if seconds is not None and n and time.monotonic() - started >= seconds:
            return calls[n:]
        try:
            result = work(*args)
        except Exception as exc:  # noqa: BLE001
            result = exc
        yield key, result
    return []


def stop_at_once(executor: ProcessPoolExecutor) -> None:
    """Ctrl-C (or a caller that stops early): the work still running is dropped, not waited for.
    What finished was already yielded and kept; a player's-view deal of Elfern can run for
    minutes, and Ctrl-C must not wait for it."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)      # shutdown forgets it
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)
    # Python 3.11's exit wakes each pool's manager thread through a pipe that thread closes as it
    # ends, unlocked (CPython gh-125451, fixed in 3.12): joined here, it has closed the pipe
    # first, and the exit after a Ctrl-C prints no "Exception ignored in: <module 'threading'>"
    if manager is not None and manager is not threading.current_thread():
        manager.join(timeout=5)

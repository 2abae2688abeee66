"""One explorer session: the deal it serves, its options, and every answer computed for it.

Each position is solved at most once per session: its analysis (keyed by the position's deal
file and the objective) is one Future that every request for it awaits, so two tabs, a
reload or a quick undo and redo never search it again.  The answers are those of the
commands: ``analyze`` with ``analysis_json`` (``stich analyze --json``) and ``suggest`` with
``suggest_json`` (``stich suggest --json``).  The player's view is a job the page polls for
progress and may cancel; a finished one is kept like an analysis.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from stich.analysis.analyze import analyze
from stich.deals.deal import Deal
from stich.games import GAMES
from stich.report.analysis import analysis_json
from stich.report.suggest import suggest_json
from stich.run.pool import stop_every_pool
from stich.view import EXACT_LIMIT, count_layouts, information
from stich.view.hidden import read_hidden, write_hidden
from stich.view.suggest import suggest

from .pool import WorkerPool
from .position import RequestError, check_seed, describe, file_line, known_games, position_deal, start_text

OBJECTIVES = ("score", "total")
MAX_SAMPLES = 100_000       # --samples on the command line
PAGE_SAMPLES = 2_000        # what a page (a link, anyone's) may start, unless --samples allows more
KEEP_ANSWERS = 20_000       # answers kept per session; the oldest go first beyond this
STOP_WAIT = 2.0             # seconds Ctrl-C waits for a player's-view job to let its workers go


@dataclass(frozen=True)
class Options:
    """The command line's choices: the page starts with them and may change the objective
    and the sampling."""

    objective: str = "score"
    samples: int | None = None
    seed: int = 0
    tt_megabytes: int = 64
    jobs: int = 1


class Cancelled(Exception):
    """The page cancelled a player's-view job."""


class UnknownJob(LookupError):
    """A job number this session never gave out (or has forgotten)."""


class ViewJob:
    """A ``suggest`` run for one position: its progress, its answer, and a cancel flag that
    the run checks after each layout."""

    def __init__(self, number: int, key: tuple, layouts: int):
        self.id, self.key, self.layouts = str(number), key, layouts
        self.done, self.total = 0, None
        self.state, self.result, self.error = "queued", None, None
        self._cancel = threading.Event()

    def progress(self, done: int, total: int) -> None:
        if self._cancel.is_set():
            raise Cancelled
        self.state, self.done, self.total = "running", done, total

    def cancel(self) -> None:
        self._cancel.set()
        if self.state in ("queued", "running"):
            self.state = "cancelled"

    def finish(self, future: Future) -> None:
        """Record the run's end (called in the worker thread)."""
        if future.cancelled() or self._cancel.is_set():
            self.state = "cancelled"
        elif future.exception() is not None:
            exc = future.exception()
            self.state, self.error = "error", (str(exc) if isinstance(exc, RequestError)
                                              else f"{type(exc).__name__}: {exc}")
        else:
            self.state, self.result = "done", future.result()

    def as_json(self) -> dict:
        return {"job": self.id, "state": self.state, "done": self.done, "total": self.total,
                "consistent_layouts_text": f"{self.layouts:,}", "result": self.result,
                "error": self.error}


def check_objective(objective) -> str:
    if objective not in OBJECTIVES:
        raise RequestError(f"objective: must be score or total, not {objective!r}")
    return objective


def check_sampling(samples, seed, exact, most: int = MAX_SAMPLES) -> tuple[int | None, int, bool]:
    """``--samples``, ``--seed`` and ``--exact`` as ``stich suggest`` takes them, at most
    ``most`` samples."""
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int)
                                or not 1 <= samples <= most):
        raise RequestError(f"samples: must be a whole number from 1 to {most:,}, or null"
                           + (" (start stich explore with --samples N for more)" if most < MAX_SAMPLES else ""))
    check_seed(seed)
    if not isinstance(exact, bool):
        raise RequestError("exact: must be true or false")
    if exact and samples is not None:
        raise RequestError("exact and samples exclude each other")
    return samples, seed, exact


class ExploreSession:
    """The deal served, the options, the cached answers, and the threads that compute them."""

    def __init__(self, deal: Deal, options: Options, name: str = ""):
        self.deal, self.options, self.name = deal, options, name or Path(deal.source).name
        self.start, self.line = start_text(deal), file_line(deal)
        self.games = known_games()           # what a page may name: the games known at the start
        self.solves = 0                      # positions searched (each at most once)
        self._analyses: dict[tuple, Future] = {}
        self._views: dict[tuple, ViewJob] = {}
        self._jobs: dict[str, ViewJob] = {}
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self._dd = WorkerPool(1, "stich-explore-dd", lifo=True)
        self._pv = WorkerPool(1, "stich-explore-view")

    @property
    def samples_most(self) -> int:
        """The most layouts the page may ask to draw: ``PAGE_SAMPLES``, or ``--samples`` if more."""
        return max(PAGE_SAMPLES, self.options.samples or 0)

    def session_json(self) -> dict:
        o = self.options
        return {"name": self.name, "start": self.start, "line": self.line, "ply": len(self.line),
                "objective": o.objective, "samples": o.samples, "seed": o.seed,
                "exact_limit": EXACT_LIMIT, "solves": self.solves, "samples_most": self.samples_most,
                "games": {name: list(game.seat_counts) for name, game in GAMES.items()}}

    def position(self, start, moves, view: bool = False) -> dict:
        """The table of a position; ``view``: as the seat to move sees it, with its layout
        count."""
        deal = position_deal(start, moves, self.games)
        if not view:
            return describe(deal)
        seat = _seat_to_move(deal)
        info = information(deal, seat)
        count = count_layouts(info)
        return {**describe(deal, frozenset(info.pool)),
                "file": seen_file(info),         # what the seat sees: stich suggest reads it
                "view": {"seat": seat, "hidden_cards": len(info.pool),
                         "consistent_layouts_text": f"{count:,}", "exact": count <= EXACT_LIMIT}}

    async def analysis(self, start, moves, objective) -> dict:
        """``stich analyze --json`` of the position, searched once per session."""
        deal = position_deal(start, moves, self.games)
        objective = check_objective(objective)
        _seat_to_move(deal)
        key = (deal.dump(), objective)
        future = self._analyses.get(key)
        if future is None or (future.done() and future.exception() is not None):
            while len(self._analyses) >= KEEP_ANSWERS:       # the oldest answer goes
                self._analyses.pop(next(iter(self._analyses)))
            future = self._analyses[key] = self._dd.submit(self._analyse, deal, objective)
        return await asyncio.shield(asyncio.wrap_future(future))

    def _analyse(self, deal: Deal, objective: str) -> dict:
        with self._lock:
            self.solves += 1
        analysis = analyze(deal, objective=objective, tt_megabytes=self.options.tt_megabytes)
        return {"game": deal.game, "seats": [analysis_json(analysis)]}

    def start_view(self, start, moves, objective, samples=None, seed=0, exact=False) -> ViewJob:
        """The player's view of the seat to move: a job (the same one if already asked for).
        Other jobs go on: each page cancels its own when it moves on, so a second tab does
        not stop the first one's view."""
        deal = position_deal(start, moves, self.games)
        objective = check_objective(objective)
        most = self.samples_most
        samples, seed, exact = check_sampling(samples, seed, exact, most)
        seat = _seat_to_move(deal)
        key = (deal.dump(), seat, objective, samples, seed, exact)
        with self._lock:                     # requests come in on several threads
            job = self._views.get(key)
            if job is not None and job.state not in ("cancelled", "error"):
                return job
            info = information(deal, seat)
            count = count_layouts(info)
            if exact and count > most:
                raise RequestError(f"exact: {count:,} layouts are more than the {most:,} a page may "
                                   f"start (start stich explore with --samples N for more)")
            job = self._remember(ViewJob(next(self._numbers), key, count))
        future = self._pv.submit(self._suggest, job, info, objective, samples, seed, exact)
        future.add_done_callback(job.finish)
        return job

    def _remember(self, job: ViewJob) -> ViewJob:
        """Keep a job by its position and by its id; the oldest go beyond ``KEEP_ANSWERS``."""
        while len(self._views) >= KEEP_ANSWERS:
            old = self._views.pop(next(iter(self._views)))
            self._jobs.pop(old.id, None)
        self._views[job.key] = self._jobs[job.id] = job
        return job

    def _suggest(self, job: ViewJob, info, objective, samples, seed, exact) -> dict:
        job.progress(0, None)
        result = suggest(info, samples=samples, seed=seed, exact=True if exact else None,
                         objective=objective, jobs=self.options.jobs,
                         tt_megabytes=self.options.tt_megabytes, progress=job.progress)
        return suggest_json(result)

    def search(self, fn, *args) -> Future:
        """Run ``fn(*args)`` on the search thread (the newest request first)."""
        return self._dd.submit(fn, *args)

    def job(self, job_id: str) -> ViewJob:
        if job_id not in self._jobs:
            raise UnknownJob(f"no such job: {job_id}")
        return self._jobs[job_id]

    def close(self) -> None:
        """Stop every job: the page is gone (Ctrl-C)."""
        for job in list(self._views.values()):
            job.cancel()
        self._dd.close()
        self._pv.close()
        stop_every_pool()           # a job's worker processes (--jobs 2) stop now, not at exit
        self._pv.join(STOP_WAIT)    # and the job's thread has let go of them before the exit


def seen_file(info) -> str:
    """The hidden-card deal file of what the seat sees.  Its ``unknown`` line (the cards
    under the ``?``s) is left out where the reader finds them anyway as the rest of the pack,
    so the file names no card the seat cannot see."""
    text = write_hidden(info)
    shorter = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("unknown = "))
    try:
        same = sorted(read_hidden(shorter, "view", info.seat).pool) == sorted(info.pool)
    except Exception:  # noqa: BLE001 - the reader needs the line: keep it
        same = False
    return shorter if same else text


def _seat_to_move(deal: Deal) -> int:
    position = deal.position()
    if position.is_over():
        raise RequestError("the deal is over: there is no card to play")
    return position.to_move + 1

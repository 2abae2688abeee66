"""Anytime answers: solving within a node or time limit, and reporting only what is proven.

The core stops a search when a limit is hit and stores nothing from the unfinished part, so
the table keeps only proven bounds (``core/limits.pxi``); the MTD drivers report the bounds
their finished null-window searches proved.  Here a solve spends one budget on, in order:
the value of the position, the forced outcome, every legal card, the line.  Whatever is
not finished when the budget runs out is reported as bounds ("seat 1 takes between 58 and
71"), cards as proven optimal, proven worse or undecided, and the outcome levels still
possible.  Nothing unproven is presented as exact.

Ctrl-C stops a search within a fraction of a millisecond of search, in every thread
(``core/limits.pxi``): the core raises ``SearchInterrupted``, a KeyboardInterrupt that carries
the bounds proven so far, and ``Budget`` reports them as ``Stopped("interrupt", lo, hi)``.
Searches run in slices of at most ``SLICE_SECONDS`` when a time limit or a progress
callback is given, so a caller sees progress; a slice that ends resumes within the
bounds already proven, from the same table.  With a node limit alone nothing depends on the
clock, so the same limit gives the same answer on every run.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from ._search import SearchInterrupted, SearchLimit

SLICE_SECONDS = 0.25
MAX_NODES = 10**15              # a few years of search: what the core's node counter holds with room
MAX_SECONDS = 10**6             # eleven days

__all__ = ["Budget", "Limits", "MAX_NODES", "MAX_SECONDS", "SearchInterrupted", "SearchLimit", "Stopped",
           "SLICE_SECONDS"]


@dataclass(frozen=True)
class Limits:
    """At most ``nodes`` search nodes and ``seconds`` seconds for one piece of work (None:
    no limit of that kind); at most ``MAX_NODES`` and ``MAX_SECONDS``, which the core can hold."""

    nodes: int | None = None
    seconds: float | None = None

    def __post_init__(self):
        if self.nodes is not None and (isinstance(self.nodes, bool) or not isinstance(self.nodes, int)
                                       or not 1 <= self.nodes <= MAX_NODES):
            raise ValueError(f"a node limit must be a whole number from 1 to {MAX_NODES:.0e}, "
                             f"not {self.nodes!r}")
        if self.seconds is not None and (isinstance(self.seconds, bool)
                                         or not isinstance(self.seconds, (int, float))
                                         or not math.isfinite(self.seconds)
                                         or not 0 < self.seconds <= MAX_SECONDS):
            raise ValueError(f"a time limit must be a number of seconds above 0 and at most "
                             f"{MAX_SECONDS:.0e}, not {self.seconds!r}")

    @property
    def any(self) -> bool:
        return self.nodes is not None or self.seconds is not None


class Stopped(Exception):
    """The budget ran out (``reason``: "nodes", "time" or "interrupt") during a search
    whose value is proven to lie within [lo, hi]."""

    def __init__(self, reason: str, lo: int, hi: int):
        super().__init__(f"stopped ({reason}): the value is between {lo} and {hi}")
        self.reason = reason
        self.lo = lo
        self.hi = hi


class Budget:
    """One budget of nodes and time, spent by successive searches on one engine."""

    def __init__(self, engine, limits: Limits):
        self.engine = engine
        self.limits = limits
        self.started_nodes = engine.nodes
        self.deadline = None if limits.seconds is None else time.monotonic() + limits.seconds
        self.unlimited = not limits.any

    def _nodes_left(self) -> int | None:
        if self.limits.nodes is None:
            return None
        return self.limits.nodes - (self.engine.nodes - self.started_nodes)

    def _seconds_left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def _arm(self, sliced: bool) -> None:
        """Set the engine's limit for the next search or slice of one (``Stopped`` if
        nothing is left)."""
        if self.unlimited and not sliced:       # nothing to run out: only lift any old limit
            self.engine.limit()
            return
        reason = self._why()
        if reason:
            raise Stopped(reason, *self.engine.value_range)
        nodes, seconds = self._nodes_left(), self._seconds_left()
        if sliced:
            seconds = SLICE_SECONDS if seconds is None else min(seconds, SLICE_SECONDS)
        self.engine.limit(nodes=nodes, seconds=seconds)

    def _why(self) -> str:
        """Which limit is used up ("nodes", "time"), or "" while both last."""
        nodes, seconds = self._nodes_left(), self._seconds_left()
        if nodes is not None and nodes <= 0:
            return "nodes"
        if seconds is not None and seconds <= 0:
            return "time"
        return ""

    def value(self, search: Callable[..., int], at_least: int | None = None,
              at_most: int | None = None, progress: Callable[[int, int], None] | None = None,
              **kw) -> int:
        """``search(at_least=..., at_most=..., **kw)`` (an exact value search) within the
        budget; ``Stopped`` with the proven bounds if it runs out.  With a time limit or
        ``progress`` it runs in slices, ``progress(lo, hi)`` called between them."""
        lo, hi = at_least, at_most
        sliced = self.deadline is not None or progress is not None
        try:
            while True:
                self._arm(sliced)
                try:
                    return search(at_least=lo, at_most=hi, **kw)
                except SearchLimit as limit:
                    lo = limit.lo if lo is None else max(lo, limit.lo)
                    hi = limit.hi if hi is None else min(hi, limit.hi)
                    if isinstance(limit, SearchInterrupted):
                        raise Stopped("interrupt", lo, hi) from None
                    reason = self._why()
                    if reason or not sliced:
                        raise Stopped(reason or "nodes", lo, hi) from None
                    if progress:
                        progress(lo, hi)
        except KeyboardInterrupt:
            low, high = self.engine.value_range
            raise Stopped("interrupt", low if lo is None else lo, high if hi is None else hi) from None
        finally:
            self.engine.limit()

    def run(self, step: Callable[[], object]):
        """``step()`` (any searches) within what is left of the budget, in one piece;
        ``Stopped`` with the position's whole range if it runs out."""
        try:
            self._arm(False)
            try:
                return step()
            except SearchLimit as limit:
                reason = "interrupt" if isinstance(limit, SearchInterrupted) else self._why()
                raise Stopped(reason or "nodes", *self.engine.value_range) from None
        except KeyboardInterrupt:
            raise Stopped("interrupt", *self.engine.value_range) from None
        finally:
            self.engine.limit()

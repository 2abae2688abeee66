"""--node-limit and --time-limit: anytime answers on the command line.

A command given a limit stops searching there and reports only what is proven: bounds on
each side's total, cards proven optimal or worse, the outcome levels still possible.  Its
JSON says ``"exact": false`` and its exit status is ``EXIT_PARTIAL`` (5).  On a terminal a
search that runs longer than a second shows the bounds proven so far, and Ctrl-C stops it
with them (exit 130).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import click

from stich.core.anytime import MAX_NODES, MAX_SECONDS, Limits
from stich.report.common import bounds_text

from .common import FiniteRange

EXIT_PARTIAL = 5


def limit_options(f):
    """The two options, for a command that searches."""
    f = click.option("--time-limit", "time_limit", type=FiniteRange(0, MAX_SECONDS, min_open=True), default=None,
                     metavar="SECONDS",
                     help="Stop searching after this many seconds and report what is proven "
                          f"(exit {EXIT_PARTIAL} if the answer is then partial).")(f)
    f = click.option("--node-limit", "node_limit", type=click.IntRange(1, MAX_NODES), default=None,
                     metavar="N",
                     help="Stop searching after N search nodes and report what is proven "
                          f"(exit {EXIT_PARTIAL} if the answer is then partial); the same N always "
                          "gives the same answer.")(f)
    return f


def limits_of(node_limit: int | None, time_limit: float | None) -> Limits:
    return Limits(nodes=node_limit, seconds=time_limit)


def exit_if_partial(exact: bool, stopped: str | None) -> None:
    """After a partial answer was printed: exit 130 with one line if Ctrl-C stopped it, else
    EXIT_PARTIAL."""
    if not exact and stopped == "interrupt":
        click.echo("stich: interrupted (Ctrl-C): what was finished is printed", err=True)
        raise SystemExit(130)
    if not exact:
        raise SystemExit(EXIT_PARTIAL)


def search_progress(deal, quiet: bool = False) -> Callable[[object], None] | None:
    """A callback for ``stich.solve(progress=...)`` that shows the proven bounds on standard
    error once a search has run for a second, on a terminal only."""
    if quiet or not sys.stderr.isatty():
        return None
    started = time.monotonic()

    def show(bounds) -> None:
        if bounds is None or time.monotonic() - started < 1.0:
            return
        elapsed = time.monotonic() - started
        sys.stderr.write(f"\r\x1b[Ksearching {elapsed:5.1f} s, totals between {bounds_text(deal, bounds)}")
        sys.stderr.flush()

    return show


def end_progress(callback) -> None:
    """Clear the progress line, if one was drawn."""
    if callback is not None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()

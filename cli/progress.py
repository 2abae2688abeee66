"""The progress bar of long commands: tqdm's, on standard error, and only on a terminal.

The library reports progress as ``progress(done, total)`` calls; ``Bar`` turns them into a
tqdm bar (count, rate, ETA).  A bar never reaches a pipe or a file (``--json`` output and logs
stay clean), and a message printed while it is drawn goes above it (``Bar.write``).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import click
from tqdm import tqdm


class Bar:
    """A ``progress(done, total)`` callback drawing ``label``'s bar of ``unit`` (shown only when
    ``enabled`` and standard error is a terminal)."""

    def __init__(self, label: str, unit: str = "it", enabled: bool = True):
        self.label, self.unit = label, unit
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: tqdm | None = None

    def __call__(self, done: int, total: int | None) -> None:
        if not self.enabled:
            return
        if self.bar is None or self.bar.total != total:
            self.close()
            self.bar = tqdm(total=total, initial=done, desc=self.label, unit=f" {self.unit}",
                            file=sys.stderr, dynamic_ncols=True, leave=False, mininterval=0.1)
        self.bar.update(done - self.bar.n)

    def write(self, line: str) -> None:
        """One line on standard error, above the bar."""
        if self.bar is not None:
            self.bar.write(line, file=sys.stderr)
        else:
            click.echo(line, err=True)

    def close(self) -> None:
        """Take the bar off the screen (a new call draws it again)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


@contextlib.contextmanager
def progress_bar(label: str, quiet: bool = False, unit: str = "it") -> Iterator[Bar]:
    """A ``Bar`` for the work inside the block, closed when it ends (however it ends)."""
    bar = Bar(label, unit, enabled=not quiet)
    try:
        yield bar
    finally:
        bar.close()

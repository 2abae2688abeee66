"""Ctrl-C before a command runs: while Python imports the command line and click reads the
arguments, a ``KeyboardInterrupt`` would end in a traceback from whatever module was being
imported.  Instead the command stops at once with one line and exit 130.  This module imports
nothing slow: it is the first one the console entry point loads, and it uses ``_signal`` (built
into the interpreter, always loaded) rather than ``signal``, whose import builds enums."""

from __future__ import annotations

import _signal as signal
import os

EXIT_INTERRUPTED = 130
STARTING_MESSAGE = b"stich: interrupted (Ctrl-C) before the command started: nothing was done\n"


def stop_starting(signum, frame) -> None:
    """The SIGINT handler of the start-up: one line on standard error, exit 130."""
    try:                  # noqa: SIM105 (contextlib is one import more before the handler is in place)
        os.write(2, STARTING_MESSAGE)
    except OSError:
        pass
    _flush_stdout()
    # nothing is finished before the command starts, so nothing is lost by leaving at once; a
    # SystemExit raised here could land where it is swallowed (a __del__, a callback) and the
    # command would run on after the line was printed
    os._exit(EXIT_INTERRUPTED)


def _flush_stdout() -> None:
    """What a command printed before the signal (after its work) is not lost by os._exit."""
    import sys
    try:                  # noqa: SIM105 (as above)
        sys.stdout.flush()
    except Exception:  # noqa: BLE001 - a closed pipe, or a write the signal interrupted
        pass


def ignore() -> None:
    """Ignore SIGINT from here on (the command has finished)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def install():
    """Put ``stop_starting`` in place of Python's own SIGINT handler; the handler to restore.
    A process started with SIGINT ignored (a shell's background job) keeps ignoring it."""
    current = signal.getsignal(signal.SIGINT)
    if current is not signal.default_int_handler:
        return current
    return signal.signal(signal.SIGINT, stop_starting)


def restore(previous) -> None:
    """Put back what ``install`` replaced (a handler set from C, None, cannot be put back)."""
    if previous is not None:
        signal.signal(signal.SIGINT, previous)

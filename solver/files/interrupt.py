"""Telling a real Ctrl-C from a user's Python file that raises KeyboardInterrupt itself.

A tactic, a decision feature or a predicate is the user's code: whatever it raises is bad input
(exit 2, one line naming the file), ``KeyboardInterrupt``, ``SystemExit`` and any other
``BaseException`` included.  But
Ctrl-C arrives as a ``KeyboardInterrupt`` too, and it must stop the run (exit 130) keeping what
is finished.  The command line runs under ``watching()``, whose SIGINT handler notes that the
key was pressed; a worker process ignores SIGINT (``stich.run.pool``), so any
``KeyboardInterrupt`` there is the user's code's own.  Where nobody watches (the library
called from a program), every ``KeyboardInterrupt`` counts as Ctrl-C, as before.

A Ctrl-C can also be lost: Python swallows an exception raised in a finaliser (it prints
"Exception ignored"), and code may catch one and go on.  ``watching()`` then raises
``SwallowedInterrupt`` as the block ends, so the command still stops with exit 130 and does not
pass for a clean run.  The lost interrupt is not printed as a traceback either: while the
block runs, Python's hook for such exceptions drops a ``KeyboardInterrupt`` once the key was
pressed.  A block that never ends by itself (the explorer's server) asks ``pressed()``.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator

USER_RAISES = (BaseException,)          # what a user's function may raise: anything

_pressed = False


class SwallowedInterrupt(KeyboardInterrupt):
    """Ctrl-C was pressed inside a ``watching()`` block that then ended normally: the
    interrupt was lost on its way, and what the block did after it may be incomplete."""


def _on_sigint(signum, frame) -> None:
    global _pressed
    _pressed = True
    raise KeyboardInterrupt


def pressed() -> bool:
    """Was Ctrl-C pressed inside the current ``watching()`` block (even if it was lost)?"""
    return _pressed


def _quiet_lost_ctrl_c(previous_hook):
    """``sys.unraisablehook`` that drops the Ctrl-C a finaliser or callback swallowed (the
    block reports it as it ends) and passes anything else on to ``previous_hook``."""
    def hook(unraisable) -> None:
        if _pressed and isinstance(unraisable.exc_value, KeyboardInterrupt):
            return
        previous_hook(unraisable)
    return hook


@contextlib.contextmanager
def watching() -> Iterator[None]:
    """Note every Ctrl-C while the block runs (only the main thread can set a handler);
    ``SwallowedInterrupt`` as the block ends normally if one was pressed and lost."""
    global _pressed
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _pressed = False
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _quiet_lost_ctrl_c(previous_hook)
    previous = signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = previous_hook
    if _pressed:
        raise SwallowedInterrupt


def is_ctrl_c(exc: BaseException) -> bool:
    """Is ``exc`` a real Ctrl-C (True where that cannot be told)?  False for a user's own
    ``KeyboardInterrupt`` and for every other exception."""
    if not isinstance(exc, KeyboardInterrupt):
        return False
    handler = signal.getsignal(signal.SIGINT)
    if handler is _on_sigint:
        return _pressed
    return handler is not signal.SIG_IGN

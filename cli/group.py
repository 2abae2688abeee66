"""The exit status contract and the `stich` group: what every command shares before any of
them is imported.

Exit status (``EXIT_STATUSES``, listed in ``stich --help``): 0 success; 2 bad input (one line
on stderr naming file, key and problem); 3, 4 a cooked or unreachable puzzle; 5 a partial
answer (a limit was reached); 130 interrupted (Ctrl-C); 141 the output pipe closed; 1 anything
else.  No traceback reaches the user unless STICH_DEBUG=1 is set.

A command that finds bad input itself calls ``fail`` (one line, exit 2); the reader's and
the library's errors are turned into the same line by ``StichGroup``.  The group imports a
command's module only when that command runs (``LazyGroup``): ``stich --help`` and each
command start without the others' imports.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
import threading
from typing import Any, NoReturn

import click

from stich.files.interrupt import SwallowedInterrupt, watching

from . import interrupt

EXIT_INPUT = 2
EXIT_OTHER = 1
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141            # 128 + SIGPIPE, what a shell reports for a closed pipe
# a write that failed for want of room (the output redirected to a full disk or /dev/full):
# the user's to mend, so bad input's exit status and one line, not an internal error
FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
# nothing unfinished is shown as an answer; what was finished (files written, batch lines) stays
INTERRUPTED_MESSAGE = "interrupted (Ctrl-C) before the search finished: no result"
SWALLOWED_MESSAGE = ("interrupted (Ctrl-C): the key was pressed before the command finished, "
                     "so what it printed may be incomplete")
EXIT_STATUSES = ((0, "success (puzzle: sound)"),
                 (1, "an internal error"),
                 (2, "bad input: one line naming the file, the key and the problem"),
                 (3, "puzzle: cooked (several key moves)"),
                 (4, "puzzle: the goal cannot be reached"),
                 (5, "a partial answer: a --node-limit or --time-limit was reached"),
                 (130, "interrupted by Ctrl-C (what was finished is printed or kept)"),
                 (141, "the output pipe was closed (stich ... | head)"))


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    """Stop the command: ``stich: message`` as one line on standard error, exit ``code``."""
    click.echo(f"stich: {_one_line(message)}", err=True)
    sys.exit(code)


class StichGroup(click.Group):
    """A click group that turns our exceptions into the exit statuses of the contract."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Ctrl-C while click reads the arguments (before ``invoke`` watches it) or after the
        command, as during the start-up: one line, exit 130 (click would print "Aborted!")."""
        if threading.current_thread() is not threading.main_thread():
            return super().main(*args, **kwargs)
        previous = interrupt.install()
        try:
            return super().main(*args, **kwargs)
        finally:
            interrupt.restore(previous)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with watching():                    # a real Ctrl-C is told from a user file's own
                return super().invoke(ctx)
        except click.exceptions.Exit:
            raise
        except click.exceptions.Abort:          # click's own Ctrl-C
            fail("interrupted", EXIT_INTERRUPTED)
        except click.UsageError as exc:         # one line, as every other input error
            where = f"{exc.ctx.info_name}: " if exc.ctx is not None and exc.ctx is not ctx else ""
            fail(f"{where}{exc.format_message()} (see --help)", EXIT_INPUT)
        except click.ClickException as exc:
            fail(exc.format_message(), exc.exit_code)
        except MemoryError:
            fail("out of memory (a smaller --tt-mb may help)", EXIT_INPUT)
        except RecursionError:
            fail("input nested too deeply", EXIT_INPUT)
        except _input_errors() as exc:
            fail(str(exc), EXIT_INPUT)
        except BrokenPipeError:
            # the reader went away (`stich ... | head`): stop quietly, as a shell tool does
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(EXIT_BROKEN_PIPE)
        except SwallowedInterrupt:
            fail(SWALLOWED_MESSAGE, EXIT_INTERRUPTED)
        except KeyboardInterrupt:
            # bounds proven so far come with the time and node limits
            fail(INTERRUPTED_MESSAGE, EXIT_INTERRUPTED)
        except Exception as exc:  # noqa: BLE001 - the contract: one line, exit 1
            _unexpected(exc)
            if os.environ.get("STICH_DEBUG"):
                raise
            fail(f"internal error: {type(exc).__name__}: {exc} (set STICH_DEBUG=1 for a traceback)",
                 EXIT_OTHER)


def _unexpected(exc: Exception) -> None:
    """An error no command turned into a line of its own that is still not ours: a NUL byte
    in a file name, a Ctrl-C wrapped in another error, a write that failed for want of room.
    Returns for an internal error."""
    if isinstance(exc, ValueError) and "null byte" in str(exc):    # os.stat of click.Path
        fail("a file name holds a NUL byte: no file has such a name", EXIT_INPUT)
    if _wraps_ctrl_c(exc):
        fail(INTERRUPTED_MESSAGE, EXIT_INTERRUPTED)
    if isinstance(exc, OSError) and exc.errno in FULL_ERRNOS:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # (quiet at exit)
        fail(f"cannot write the output: {exc.strerror}", EXIT_INPUT)


def _wraps_ctrl_c(exc: BaseException) -> bool:
    """Was ``exc`` raised because of a Ctrl-C?  Python wraps a KeyboardInterrupt that lands in
    some hooks in another error (``__set_name__`` while a lazily imported module defines a
    class: a RuntimeError whose cause is the KeyboardInterrupt).  A user file's own
    KeyboardInterrupt never gets here: it is bad input where the file's code is called."""
    seen: set[int] = set()
    inner: BaseException | None = exc
    while inner is not None and id(inner) not in seen:
        if isinstance(inner, KeyboardInterrupt):
            return True
        seen.add(id(inner))
        inner = inner.__cause__ or inner.__context__
    return False


_LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"     # what str.splitlines splits at, but \n


def _one_line(text: str) -> str:
    """A message as one line: newlines become spaces, other line breaks (a quoted TOML key
    may hold one) are shown escaped."""
    text = " ".join(text.split("\n"))
    return "".join(repr(ch)[1:-1] if ch in _LINE_BREAKS else ch for ch in text)




def _input_errors() -> tuple[type[Exception], ...]:
    """The library's bad-input errors (imported when an error is matched: by then the command
    has imported them anyway)."""
    from stich.deals.deal import DealError
    from stich.games import OptionError
    return (DealError, OptionError)


class LazyGroup(StichGroup):
    """A group whose commands are imported when one is run or its help is asked for.

    ``lazy`` maps each command name to (module, first paragraph of its help): the module (in
    this package) defines ``NAME_command``; the paragraph is what the group's own help lists
    (a test checks it is the command's).  Reading ``commands`` (what tools and tests that
    walk every command read) imports them all."""

    def __init__(self, *args: Any, lazy: dict[str, tuple[str, str]], **kwargs: Any):
        self.lazy = lazy
        self.loaded: dict[str, click.Command] = {}
        super().__init__(*args, **kwargs)

    @property  # type: ignore[override]
    def commands(self) -> dict[str, click.Command]:
        """Every command, each imported now."""
        ctx = click.Context(self)
        return {name: command for name in self.list_commands(ctx)
                if (command := self.get_command(ctx, name)) is not None}

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        """click's ``Group`` sets this (empty) when made; a command added goes with the rest."""
        self.loaded.update(value)

    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        """The command named on the command line is imported first, under the start-up's
        Ctrl-C handler (one line, exit 130), before click reads the arguments."""
        words = sys.argv[1:] if args is None else list(args)
        name = next((w for w in words if not w.startswith("-")), None)
        if name in self.lazy and threading.current_thread() is threading.main_thread():
            previous = interrupt.install()
            try:
                self.get_command(click.Context(self), name)
            finally:
                interrupt.restore(previous)
        return super().main(args, *rest, **kwargs)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        """A command given as it is (not from the table): listed with its own help."""
        self.loaded[name or cmd.name or ""] = cmd

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.lazy) | set(self.loaded))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.lazy:
            return self.loaded.get(name)
        if name not in self.loaded:
            try:
                module = importlib.import_module(f".{self.lazy[name][0]}", __package__)
            except ModuleNotFoundError as exc:
                import stich
                raise stich.core_not_built(exc) from None
            self.loaded[name] = getattr(module, f"{name}_command")
        return self.loaded[name]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands, from the stored paragraphs (no command is imported)."""
        listed = {name: click.Command(name, help=paragraph)
                  for name, (_, paragraph) in self.lazy.items()}
        listed.update((name, cmd) for name, cmd in self.loaded.items() if name not in self.lazy)
        width = formatter.width - 6 - max(len(name) for name in listed)
        rows = [(name, listed[name].get_short_help_str(width)) for name in sorted(listed)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

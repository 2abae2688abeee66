"""What every command shares: reading the deal, --rule, --json, and the exit status contract.

Exit status (``EXIT_STATUSES``, listed in ``stich --help``): 0 success; 2 bad input (one line
on stderr naming file, key and problem); 3, 4 a cooked or unreachable puzzle; 5 a partial
answer (a limit was reached); 130 interrupted (Ctrl-C); 141 the output pipe closed; 1 anything
else.  No traceback reaches the user unless STICH_DEBUG=1 is set.

A command that finds bad input itself calls ``fail`` (one line, exit 2); the reader's and
the library's errors are turned into the same line by ``StichGroup``.
"""

from __future__ import annotations

import json
import math
import os
import sys
import threading
from pathlib import Path
from typing import Any, NoReturn

import click

from stich.deals.deal import Deal, DealError, load
from stich.files.interrupt import watching
from stich.games import GAMES, RULES_FILES_ENV, OptionError, register

from . import interrupt

EXIT_INPUT = 2
EXIT_OTHER = 1
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141            # 128 + SIGPIPE, what a shell reports for a closed pipe
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


class InputError(click.ClickException):
    """Bad input found by a command itself (not by the deal reader)."""

    exit_code = EXIT_INPUT


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
        except (DealError, OptionError) as exc:
            fail(str(exc), EXIT_INPUT)
        except BrokenPipeError:
            # the reader went away (`stich ... | head`): stop quietly, as a shell tool does
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(EXIT_BROKEN_PIPE)
        except KeyboardInterrupt:
            # nothing unfinished is shown as an answer; what was finished (files written, batch
            # lines) stays.  Bounds proven so far come with the time and node limits.
            fail("interrupted (Ctrl-C) before the search finished: no result", EXIT_INTERRUPTED)
        except Exception as exc:  # noqa: BLE001 - the contract: one line, exit 1
            if isinstance(exc, ValueError) and "null byte" in str(exc):    # os.stat of click.Path
                fail("a file name holds a NUL byte: no file has such a name", EXIT_INPUT)
            if os.environ.get("STICH_DEBUG"):
                raise
            fail(f"internal error: {type(exc).__name__}: {exc} (set STICH_DEBUG=1 for a traceback)",
                 EXIT_OTHER)


_LINE_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"     # what str.splitlines splits at, but \n


def _one_line(text: str) -> str:
    """A message as one line: newlines become spaces, other line breaks (a quoted TOML key
    may hold one) are shown escaped."""
    text = " ".join(text.split("\n"))
    return "".join(repr(ch)[1:-1] if ch in _LINE_BREAKS else ch for ch in text)


class FiniteRange(click.FloatRange):
    """A number in a range that is also finite: ``nan`` passes every comparison of
    ``click.FloatRange``, and ``inf`` passes one without a maximum."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


def parse_rule_overrides(values: tuple[str, ...]) -> dict[str, str]:
    overrides = {}
    for item in values:
        if "=" not in item:
            raise InputError(f"--rule {item!r}: write NAME=VALUE, e.g. --rule must_head=true")
        name, value = item.split("=", 1)
        overrides[name.strip()] = value.strip()
    return overrides


def read_deal(path: str, rules: tuple[str, ...] = ()) -> Deal:
    """The deal in ``path`` with the --rule options applied before it is checked, exactly as if
    they were written in its [rules] table."""
    return load(path, parse_rule_overrides(rules))


def docs_path(name: str) -> Path:
    """Where a document of docs/ is: in the checkout, else where the install put it."""
    candidates = [Path(__file__).resolve().parent.parent / "docs" / name,
                  Path(sys.prefix) / "share" / "doc" / "stich" / name]
    return next((p for p in candidates if p.is_file()), candidates[0])


def emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))


deal_argument = click.argument("deal_file", metavar="FILE", type=str)
_rule_value_option = click.option("--rule", "rules", multiple=True, metavar="NAME=VALUE",
                                 help="Set a rule option, overriding the deal file's [rules] "
                                      "(repeatable), e.g. --rule must_head=true.")


def _load_rules_files(ctx, param, values):
    """Register each rule file's game, so a deal file's ``game = "NAME"`` finds it."""
    for path in values:
        game = register(GAMES, path)
        # worker processes (batch --jobs) import the games again: they read this variable
        known = [p for p in os.environ.get(RULES_FILES_ENV, "").split(os.pathsep) if p]
        if game.rule_file not in known:
            os.environ[RULES_FILES_ENV] = os.pathsep.join(known + [game.rule_file])
    return values


_rules_file_option = click.option(
    "--rules-file", "rules_files", multiple=True, metavar="FILE", is_eager=True, expose_value=False,
    callback=_load_rules_files,
    help="A TOML rule file whose game the deal files may name (repeatable; README \"How to add a game\").")


def rule_option(command):
    """--rule NAME=VALUE and --rules-file FILE: on every command that reads deals."""
    return _rules_file_option(_rule_value_option(command))
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the report.")
objective_option = click.option(
    "--objective", type=click.Choice(["score", "total"]), default="score", show_default=True,
    help="What perfect play maximises: the game's score (win, Schneider, tout, ...) or the raw "
         "total of tricks, points or honours.  The totals reported are always the raw ones.")
def available_megabytes() -> int | None:
    """Memory the system can still give us (Linux MemAvailable), or None where unknown."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _check_tt_mb(ctx, param, value):
    """Refuse a table the machine cannot hold now, before minutes of swapping or a MemoryError."""
    free = available_megabytes()
    if value is not None and free is not None and value > free:
        raise click.BadParameter(f"{value} MB is more than the {free} MB of memory free now", ctx=ctx,
                                 param=param)
    return value


tt_option = click.option("--tt-mb", "tt_mb", type=click.IntRange(1, 65536), default=64, show_default=True,
                         callback=_check_tt_mb,
                         help="Transposition table size in megabytes (memory stays within it; at most "
                              "the memory free now).  Bigger is not faster: the table is cleared for "
                              "every search, so a large one is much slower (4096 MB: about 20 times).")


threads_option = click.option(
    "--threads", "threads", type=click.IntRange(1, 256), default=None,
    help="Threads searching at once (default: all cores).  The answer is the same for any "
         "number (a solve may show another optimal line); node counts vary.")


def thread_count(threads: int | None) -> int:
    """``--threads``, or every core by default."""
    return threads or os.cpu_count() or 1

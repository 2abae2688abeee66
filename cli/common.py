"""What every command shares: reading the deal, --rule options, rule files and --json.

The exit status contract (``EXIT_STATUSES``, ``fail``) and the group (``StichGroup``) live in
``stich.cli.group``, which imports nothing of the solver; they are handed on from here.
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any

import click

from stich.deals.deal import Deal, load
from stich.deals.dealing import MAX_SEED
from stich.games import GAMES, RULES_FILES_ENV, register

from .group import (  # noqa: F401 - the exit contract, shared by every command
    EXIT_BROKEN_PIPE,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OTHER,
    EXIT_STATUSES,
    StichGroup,
    fail,
)

# a seed option's type: any whole number of at most 19 digits either way
SEED = click.IntRange(-MAX_SEED, MAX_SEED)


class InputError(click.ClickException):
    """Bad input found by a command itself (not by the deal reader)."""

    exit_code = EXIT_INPUT


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
        if game.rule_file is not None and game.rule_file not in known:
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
         "number (a solve whose value several threads searched may show another optimal line "
         "than one thread, the same on every run); node counts vary.")


def thread_count(threads: int | None) -> int:
    """``--threads``, or every core by default."""
    return threads or os.cpu_count() or 1

"""The `stich` command: a thin click front end over the solver package."""

from __future__ import annotations

# Ctrl-C is handled before anything slow is imported: during start-up it stops the command with
# one line and exit 130 (``stop_starting``), never an import's traceback.  In the stich command
# itself the handler stays in place until the command's own handling takes over (a moment
# with Python's handler between this module and ``run`` would print a traceback); a program
# or test importing this module gets Python's handler back at its end, and
# ``StichGroup.main`` installs the start-up one for each run.
import os  # noqa: I001 - first, before the imports below
import sys

from . import interrupt

_previous = interrupt.install()

import click  # noqa: E402

import stich  # noqa: E402

from .group import EXIT_STATUSES, LazyGroup  # noqa: E402

# Each command: the module that defines NAME_command, and the first paragraph of its help as
# `stich --help` lists it (tests/test_cli.py checks each against the command itself).  A
# command's module is imported only when it runs or its help is shown.
COMMANDS = {
    "analyze": ("analyze", "Score every legal card of the player to move in FILE."),
    "batch": ("batch", "Solve many deals: every *.toml in each DIR (or each FILE) and the "
                       "--generate'd ones."),
    "bench": ("bench", "Solve a fixed built-in set of seeded deals (a few per game) and print, per "
                       "game: the deals, the total nodes, the time, nodes per second, nanoseconds "
                       "per node and the median milliseconds per deal."),
    "deal": ("deal", "Deal random whole deals of a game, as deal files."),
    "explore": ("explore", "Play through FILE in a web page, with every legal card's value shown."),
    "puzzle": ("puzzle", "Check the puzzle in FILE: can the side reach GOAL against every defence?"),
    "replay": ("replay", "Analyse the cards actually played in FILE's `play`, like a bridge play "
                         "analysis."),
    "rules": ("rules", "List the rule options of GAME (or of every game) with their values and "
                       "defaults."),
    "solve": ("solve", "Solve the position in FILE exactly (FILE may be - for standard input)."),
    "suggest": ("suggest", "Which card to play from what a seat can see (the player's view, single "
                           "dummy)."),
    "table": ("table", "The double-dummy table of the deal in FILE (like the bridge solver's DD "
                       "table)."),
    "tactic": ("tactic", "Test playing advice (tactics) against perfect play, as a player would "
                         "follow it."),
}

MAIN_HELP = """stich: exact double-dummy analysis of Scharwenzel, two-handed Wendish Schafkopf,
Elfern and the games of rule files.

Every command reads a deal file (TOML, see the README) or - for standard input, prints a
readable report, or one JSON object with --json.

\b
Exit status:
""" + "\n".join(f"  {code:>3}  {meaning}" for code, meaning in EXIT_STATUSES)


@click.group(cls=LazyGroup, lazy=COMMANDS, help=MAIN_HELP,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(stich.__version__, prog_name="stich")
def main() -> None:
    """The group of every command (its help is ``MAIN_HELP``)."""


def is_the_stich_command() -> bool:
    """Is this process the ``stich`` command (its console script, or ``python -m``)?"""
    return __name__ == "__main__" or os.path.splitext(os.path.basename(sys.argv[0]))[0] == "stich"


if not is_the_stich_command():
    interrupt.restore(_previous)


def run() -> None:
    """The console script: the command, then Ctrl-C ignored while Python shuts down (the
    command's work is done and its exit status set; a signal then would kill the process
    without a word, as Python puts the default action back when it finalizes)."""
    try:
        main()
    finally:
        interrupt.ignore()


if __name__ == "__main__":  # pragma: no cover
    run()

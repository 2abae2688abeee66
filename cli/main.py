"""The `stich` command: a thin click front end over the solver package."""

from __future__ import annotations

# Ctrl-C is handled before anything slow is imported: during start-up it stops the command with
# one line and exit 130 (``stop_starting``), never an import's traceback.  The handler is put
# back at the end of this module; ``StichGroup.main`` installs it again for the command's run.
from . import interrupt  # noqa: I001 - first, before the imports below

_previous = interrupt.install()

import click  # noqa: E402

import stich  # noqa: E402

try:
    from .analyze import analyze_command
    from .batch import batch_command
    from .bench import bench_command
    from .common import EXIT_STATUSES, StichGroup
    from .deal import deal_command
    from .explore import explore_command
    from .puzzle import puzzle_command
    from .replay import replay_command
    from .rules import rules_command
    from .solve import solve_command
    from .suggest import suggest_command
    from .table import table_command
    from .tactic import tactic_command
except ModuleNotFoundError as _exc:
    raise stich.core_not_built(_exc) from None

MAIN_HELP = """stich: exact double-dummy analysis of Scharwenzel, two-handed Wendish Schafkopf,
Elfern and the games of rule files.

Every command reads a deal file (TOML, see the README) or - for standard input, prints a
readable report, or one JSON object with --json.

\b
Exit status:
""" + "\n".join(f"  {code:>3}  {meaning}" for code, meaning in EXIT_STATUSES)


@click.group(cls=StichGroup, help=MAIN_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(stich.__version__, prog_name="stich")
def main() -> None:
    """The group of every command (its help is ``MAIN_HELP``)."""


for command in (solve_command, analyze_command, replay_command, puzzle_command, table_command,
                rules_command, deal_command, batch_command, bench_command, suggest_command,
                tactic_command, explore_command):
    main.add_command(command)

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

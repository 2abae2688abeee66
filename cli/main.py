"""The `stich` command: a thin click front end over the solver package."""

from __future__ import annotations

import click

import solver

from .analyze import analyze_command
from .batch import batch_command
from .bench import bench_command
from .common import StichGroup
from .deal import deal_command
from .explore import explore_command
from .puzzle import puzzle_command
from .replay import replay_command
from .rules import rules_command
from .solve import solve_command
from .suggest import suggest_command
from .table import table_command
from .tactic import tactic_command


@click.group(cls=StichGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(solver.__version__, prog_name="stich")
def main() -> None:
    """stich: exact double-dummy analysis of Scharwenzel, two-handed Wendish Schafkopf and Elfern.

    Every command reads a deal file (TOML, see the README) or - for standard input, prints a
    readable report, or one JSON object with --json.  Exit status: 0 success, 2 bad input,
    1 anything else.
    """


for command in (solve_command, analyze_command, replay_command, puzzle_command, table_command,
                rules_command, deal_command, batch_command, bench_command, suggest_command,
                tactic_command, explore_command):
    main.add_command(command)

if __name__ == "__main__":  # pragma: no cover
    main()

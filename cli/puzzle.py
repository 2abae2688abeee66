"""stich puzzle FILE --goal GOAL: is the goal reachable, and is the solution unique?"""

from __future__ import annotations

import click

from solver.analysis.puzzle import GOAL_HELP, solve_puzzle
from solver.report import puzzle_json, puzzle_report

from .common import deal_argument, emit_json, json_option, read_deal, rule_option, tt_option


@click.command("puzzle")
@deal_argument
@click.option("--goal", required=True, metavar="GOAL", help=f"What the side must reach: {GOAL_HELP}.")
@click.option("--side", type=click.IntRange(1, 2), default=None,
              help="1: seat 1's side, 2: the other side (default: the side to move).")
@rule_option
@json_option
@tt_option
def puzzle_command(deal_file: str, goal: str, side: int | None, rules: tuple[str, ...], as_json: bool,
                   tt_mb: int) -> None:
    """Check the puzzle in FILE: can the side reach GOAL against every defence?

    Prints the verdict, the key move(s), the failing first moves, the main line with the
    defence's best tries, and for an unreachable goal a refutation of every first move.
    Equivalent cards count as one move.  Exit status: 0 sound (exactly one key move),
    3 cooked (several key moves), 4 goal unreachable, 2 bad input.

    \b
    Examples:
      stich puzzle examples/scharwenzel-ending.toml --goal "tricks>=6"
      stich puzzle examples/schafkopf2-ending.toml --goal "points>=90"
      stich puzzle examples/elfern-ending.toml --goal "honours>=11" --side 2
    """
    deal = read_deal(deal_file, rules)
    result = solve_puzzle(deal, goal, None if side is None else side - 1, tt_megabytes=tt_mb)
    if as_json:
        emit_json(puzzle_json(result))
    else:
        click.echo(puzzle_report(result))
    raise SystemExit(result.exit_code)

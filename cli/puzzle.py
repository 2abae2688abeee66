"""stich puzzle FILE --goal GOAL: is the goal reachable, and is the solution unique?"""

from __future__ import annotations

import click

from stich.analysis.puzzle import goal_help, solve_puzzle
from stich.report.puzzle import puzzle_json, puzzle_report

from .common import deal_argument, emit_json, json_option, read_deal, rule_option, tt_option
from .limits import exit_if_partial, limit_options, limits_of


@click.command("puzzle")
@deal_argument
@click.option("--goal", required=True, metavar="GOAL", help=f"What the side must reach: {goal_help()}.")
@click.option("--side", type=click.IntRange(1, 2), default=None,
              help="1: seat 1's side, 2: the other side (default: the side to move).")
@rule_option
@json_option
@tt_option
@limit_options
def puzzle_command(deal_file: str, goal: str, side: int | None, rules: tuple[str, ...], as_json: bool,
                   tt_mb: int, node_limit: int | None, time_limit: float | None) -> None:
    """Check the puzzle in FILE: can the side reach GOAL against every defence?

    Prints the verdict, the key move(s), the failing first moves, the main line with the
    defence's best tries, and for an unreachable goal a refutation of every first move.
    Equivalent cards count as one move.  When the defence is to move (--side names the
    other side) there is no key move: the verdict is reachable (against each of its first
    moves) or unreachable, with the defence's first moves that stop the goal and one line
    of them played out.  Exit status: 0 sound (exactly one key move) or reachable,
    3 cooked (several key moves), 4 goal unreachable, 2 bad input, 5 partial, 130 Ctrl-C.

    --node-limit / --time-limit are one budget for the whole puzzle.  Past it the answer
    holds only what is proven: the verdict (or "unknown" when the goal itself was not
    decided), the first moves proven keys or failing, those not decided listed apart, and
    "exact": false in the JSON; the exit status is then 5 (130 after Ctrl-C).

    \b
    Examples:
      stich puzzle examples/scharwenzel-ending.toml --goal "tricks>=6"
      stich puzzle examples/schafkopf2-ending.toml --goal "points>=90"
      stich puzzle examples/elfern-ending.toml --goal "honours>=11" --side 2
    """
    deal = read_deal(deal_file, rules)
    result = solve_puzzle(deal, goal, None if side is None else side - 1, tt_megabytes=tt_mb,
                          limits=limits_of(node_limit, time_limit))
    if as_json:
        emit_json(puzzle_json(result))
    else:
        click.echo(puzzle_report(result))
    exit_if_partial(result.exact, result.stopped)
    raise SystemExit(result.exit_code)

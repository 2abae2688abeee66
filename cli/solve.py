"""stich solve FILE: the double-dummy result, every legal card's value and one optimal line."""

from __future__ import annotations

import click

from solver import solve as solve_deal
from solver.report import solve_json, solve_report

from .common import (deal_argument, emit_json, json_option, objective_option, read_deal, rule_option,
                     tt_option)


@click.command("solve")
@deal_argument
@rule_option
@objective_option
@json_option
@tt_option
def solve_command(deal_file: str, rules: tuple[str, ...], objective: str, as_json: bool, tt_mb: int) -> None:
    """Solve the position in FILE exactly (FILE may be - for standard input).

    Prints the position, the final totals of both sides under perfect play (counting `taken`
    and the tricks already in `play`), the outcome in the game's terms (who wins, Schneider,
    tout, Bock, ... and what it scores), every legal card of the player to move with the totals
    and outcome it leads to (optimal cards marked *), and one optimal line trick by trick.
    With --objective score (the default) both sides play for what the game scores; with
    --objective total for the most tricks, points or honours.

    \b
    Examples:
      stich solve examples/scharwenzel-ending.toml
      stich solve examples/elfern-deal.toml --json
      stich solve examples/elfern-deal.toml --rule must_head=true
      stich solve examples/scharwenzel-deal.toml --objective total
      cat deal.toml | stich solve -
    """
    deal = read_deal(deal_file, rules)
    result = solve_deal(deal, objective=objective, tt_megabytes=tt_mb)
    if as_json:
        emit_json(solve_json(result))
    else:
        click.echo(solve_report(result))

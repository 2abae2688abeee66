"""stich analyze FILE: every legal card scored, equivalent cards grouped."""

from __future__ import annotations

import click

from solver.analysis.analyze import analyze, analyze_all_seats
from solver.report import analysis_json, analysis_report

from .common import deal_argument, emit_json, json_option, objective_option, read_deal, rule_option, tt_option


@click.command("analyze")
@deal_argument
@click.option("--expand", is_flag=True, help="List every card on its own row instead of grouping "
                                            "equivalent cards.")
@click.option("--all-seats", is_flag=True, help="The same table for each seat as if it were to lead "
                                               "now (the position must be at the start of a trick).")
@rule_option
@objective_option
@json_option
@tt_option
def analyze_command(deal_file: str, expand: bool, all_seats: bool, rules: tuple[str, ...],
                    objective: str, as_json: bool, tt_mb: int) -> None:
    """Score every legal card of the player to move in FILE.

    For each card (equivalent cards grouped: "♥K ♥Q: same value"): the final totals after it
    with perfect play, how much it loses against the best card, the outcome it leads to when
    both sides play for the score, and whether it is optimal (*).

    \b
    Examples:
      stich analyze examples/scharwenzel-played.toml
      stich analyze examples/schafkopf2-ending.toml --expand
      stich analyze examples/elfern-ending.toml --all-seats --json
    """
    deal = read_deal(deal_file, rules)
    if all_seats:
        analyses = analyze_all_seats(deal, objective=objective, expand=expand, tt_megabytes=tt_mb)
    else:
        analyses = [analyze(deal, objective=objective, expand=expand, tt_megabytes=tt_mb)]
    if as_json:
        emit_json({"game": deal.game, "seats": [analysis_json(a) for a in analyses]})
    else:
        click.echo(analysis_report(analyses, expand))

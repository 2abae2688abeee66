"""stich analyze FILE: every legal card scored, equivalent cards grouped."""

from __future__ import annotations

import click

from stich.analysis.analyze import analyze, analyze_all_seats
from stich.report.analysis import analysis_json, analysis_report

from .common import deal_argument, emit_json, json_option, objective_option, read_deal, rule_option, tt_option
from .limits import exit_if_partial, limit_options, limits_of


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
@limit_options
def analyze_command(deal_file: str, expand: bool, all_seats: bool, rules: tuple[str, ...],
                    objective: str, as_json: bool, tt_mb: int, node_limit: int | None,
                    time_limit: float | None) -> None:
    """Score every legal card of the player to move in FILE.

    For each card (equivalent cards grouped: "♥K ♥Q: same value"): the final totals after it
    with perfect play, how much it loses against the best card, the outcome it leads to when
    both sides play for the score, and whether it is optimal (*).

    --node-limit / --time-limit apply to each position (each seat with --all-seats): past
    them a seat's table shows only what is proven (totals as ranges, cards proven optimal,
    proven worse or undecided, the outcome levels still possible), its JSON says "exact":
    false, and the command exits 5.  Ctrl-C prints the seats finished and exits 130.

    \b
    Examples:
      stich analyze examples/scharwenzel-played.toml
      stich analyze examples/schafkopf2-ending.toml --expand
      stich analyze examples/elfern-ending.toml --all-seats --json
    """
    deal = read_deal(deal_file, rules)
    limits = limits_of(node_limit, time_limit)
    if all_seats:
        analyses = analyze_all_seats(deal, objective=objective, expand=expand, tt_megabytes=tt_mb,
                                     limits=limits)
    else:
        analyses = [analyze(deal, objective=objective, expand=expand, tt_megabytes=tt_mb,
                            limits=limits)]
    partial = [a.result for a in analyses if not a.result.exact]
    if as_json:
        emit_json({"game": deal.game, **({"exact": False} if partial else {}),
                   "seats": [analysis_json(a) for a in analyses]})
    else:
        click.echo(analysis_report(analyses, expand))
    if partial:
        exit_if_partial(False, "interrupt" if any(r.stopped == "interrupt" for r in partial) else "nodes")

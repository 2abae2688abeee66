"""stich solve FILE: the double-dummy result, every legal card's value and one optimal line."""

from __future__ import annotations

import click

from stich import solve as solve_deal
from stich.report.solve import solve_json, solve_report

from .common import (
    deal_argument,
    emit_json,
    json_option,
    objective_option,
    read_deal,
    rule_option,
    thread_count,
    threads_option,
    tt_option,
)
from .limits import end_progress, exit_if_partial, limit_options, limits_of, search_progress


@click.command("solve")
@deal_argument
@rule_option
@objective_option
@json_option
@tt_option
@threads_option
@limit_options
def solve_command(deal_file: str, rules: tuple[str, ...], objective: str, as_json: bool, tt_mb: int,
                  threads: int | None, node_limit: int | None, time_limit: float | None) -> None:
    """Solve the position in FILE exactly (FILE may be - for standard input).

    Prints the position, the final totals of both sides under perfect play (counting `taken`
    and the tricks already in `play`), the outcome in the game's terms (who wins, Schneider,
    tout, Bock, ... and what it scores), every legal card of the player to move with the totals
    and outcome it leads to (optimal cards marked *), and one optimal line trick by trick.
    With --objective score (the default) both sides play for what the game scores; with
    --objective total for the most tricks, points or honours.

    With --node-limit or --time-limit the search stops there and reports only what is proven
    (both sides' totals as ranges, the outcome levels still possible, cards proven optimal or
    worse), "exact": false in the JSON, and exits 5.  On a terminal a search longer than a
    second shows the proven bounds; Ctrl-C stops it with them (exit 130).

    --threads N: the value is searched and the legal cards are scored by N threads at once
    (default: all cores), all searching one table; the answer is the same for any N, but
    where the threads searched the value the line shown may be another optimal one than
    --threads 1 shows (the same on every run, for any N above 1).  With a limit, one thread.

    \b
    Examples:
      stich solve examples/scharwenzel-ending.toml
      stich solve examples/elfern-deal.toml --json
      stich solve examples/elfern-deal.toml --rule must_head=true
      stich solve examples/scharwenzel-deal.toml --objective total
      stich solve examples/elfern-deal.toml --time-limit 0.05
      cat deal.toml | stich solve -
    """
    deal = read_deal(deal_file, rules)
    progress = search_progress(deal, quiet=as_json)
    try:
        result = solve_deal(deal, objective=objective, tt_megabytes=tt_mb,
                            limits=limits_of(node_limit, time_limit), progress=progress,
                            threads=thread_count(threads))
    finally:
        end_progress(progress)
    if as_json:
        emit_json(solve_json(result))
    else:
        click.echo(solve_report(result))
    exit_if_partial(result.exact, result.stopped)

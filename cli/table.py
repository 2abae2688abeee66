"""stich table FILE: the deal under every trump (and, in Scharwenzel, every first leader)."""

from __future__ import annotations

import click

from solver.analysis.table import dd_table
from solver.report import table_json, table_report

from .common import deal_argument, emit_json, json_option, objective_option, progress_bar, read_deal, rule_option, tt_option


@click.command("table")
@deal_argument
@rule_option
@objective_option
@json_option
@tt_option
def table_command(deal_file: str, rules: tuple[str, ...], objective: str, as_json: bool, tt_mb: int) -> None:
    """The double-dummy table of the deal in FILE (like the bridge solver's DD table).

    Scharwenzel: the tricks and the deal score for every trump suit and every first leader,
    the trump each seat should name as declarer, and the matadors under each trump.
    Two-handed Schafkopf: the card points and outcome under each trump of the card17 mode.
    The table is of the deal as dealt: cards in `play` are not played.

    \b
    Examples:
      stich table examples/scharwenzel-deal.toml
      stich table examples/scharwenzel-6.toml --json
      stich table examples/schafkopf2-card17.toml
    """
    deal = read_deal(deal_file, rules)
    with progress_bar("table", as_json) as update:
        table = dd_table(deal, tt_megabytes=tt_mb, objective=objective, progress=update)
    if as_json:
        emit_json(table_json(table))
    else:
        click.echo(table_report(table))

"""stich table FILE: the deal under every trump (and, in Scharwenzel, every first leader)."""

from __future__ import annotations

import click

from stich.analysis.table import dd_table
from stich.report.table import table_json, table_report

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
from .limits import exit_if_partial, limit_options, limits_of
from .progress import progress_bar


@click.command("table")
@deal_argument
@rule_option
@objective_option
@json_option
@tt_option
@threads_option
@limit_options
def table_command(deal_file: str, rules: tuple[str, ...], objective: str, as_json: bool, tt_mb: int,
                  threads: int | None, node_limit: int | None, time_limit: float | None) -> None:
    """The double-dummy table of the deal in FILE (like the bridge solver's DD table).

    Scharwenzel: the tricks and the deal score for every trump suit and every first leader,
    the trump each seat should name as declarer, and the matadors under each trump.
    Two-handed Schafkopf: the card points and outcome under each trump of the card17 mode.
    The table is of the deal as dealt: cards in `play` are not played.

    --node-limit / --time-limit apply to each cell: a cell that hits them shows only what is
    proven (the totals as low..high ranges, the outcome levels still possible), the JSON says
    "exact": false, and the command exits 5.  Ctrl-C prints the cells finished (exit 130).

    --threads N: N trumps are solved at once (default: all cores), each thread with a table
    of its own (--tt-mb each); every cell is the same for any N.

    \b
    Examples:
      stich table examples/scharwenzel-deal.toml
      stich table examples/scharwenzel-6.toml --json
      stich table examples/schafkopf2-card17.toml
    """
    deal = read_deal(deal_file, rules)
    with progress_bar("table", as_json) as update:
        table = dd_table(deal, tt_megabytes=tt_mb, objective=objective, progress=update,
                         limits=limits_of(node_limit, time_limit), threads=thread_count(threads))
    if as_json:
        emit_json(table_json(table))
    else:
        click.echo(table_report(table))
    exit_if_partial(table.exact, table.stopped)

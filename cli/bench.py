"""stich bench: solve a fixed built-in set of seeded deals and print nodes and times per game."""

from __future__ import annotations

import click

from stich.report.bench import bench_report
from stich.run.bench import MODES, SWITCHES, builtin_sets, parse_off, run

from .common import EXIT_INTERRUPTED, emit_json, fail, json_option, objective_option, tt_option
from .progress import progress_bar


def _off_option(ctx, param, value):
    try:
        return parse_off(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


@click.command("bench")
@click.option("--quick", is_flag=True, help="A smaller set (a few seconds).")
@click.option("--mode", type=click.Choice(MODES), default="solve", show_default=True,
              help="solve: the whole solve (value, every legal card, outcome, line), like "
                   "`stich solve`; value: the value of each deal only.")
@objective_option
@click.option("--off", "off", metavar="NAMES", callback=_off_option, default=None,
              help="Switch search techniques off to measure what they are worth, comma "
                   f"separated: {', '.join(SWITCHES)} (tt: the transposition table; cutoffs: "
                   "enhanced transposition cutoffs; canon: relative-rank keys; part: partition "
                   "search; killer: the lead that last cut first, with partners where tricks alone "
                   "count).  Without the table (tt) or the move ordering the Schafkopf and "
                   "Elfern deals can take very long.")
@tt_option
@click.option("--threads", "threads", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Threads searching the value and scoring the cards of each solve; with "
                   "more than one the node counts vary from run to run.")
@json_option
def bench_command(quick: bool, mode: str, objective: str, off: dict, tt_mb: int, threads: int,
                  as_json: bool) -> None:
    """Solve a fixed built-in set of seeded deals (a few per game) and print, per game: the
    deals, the total nodes, the time, nodes per second, nanoseconds per node and the median
    milliseconds per deal.

    Node counts are deterministic: each deal starts from a cleared engine, so the same code
    with the same table size (--tt-mb) gives the same counts on every run; compare them across
    versions to see what a change does to the search.  Times depend on the machine and its load.

    \b
    Examples:
      stich bench
      stich bench --quick --json
      stich bench --off merge,bounds
      stich bench --mode value --tt-mb 16

    Ctrl-C prints the deals measured so far (exit 130).
    """
    sets = builtin_sets(quick)
    with progress_bar("bench", as_json, unit="deals") as bar:
        data = run(sets, mode=mode, objective=objective, off=off, tt_megabytes=tt_mb, progress=bar,
                   threads=threads)
    data["quick"] = quick
    if as_json:
        emit_json(data)
    else:
        click.echo(bench_report(data))
    if data.get("interrupted"):
        fail("interrupted (Ctrl-C): the deals measured so far are shown", EXIT_INTERRUPTED)


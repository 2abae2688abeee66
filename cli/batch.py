"""stich batch: solve many deals on all cores (or a Dask cluster), one JSON line per deal, resumable."""

from __future__ import annotations

import sys

import click

from stich.analysis.batch import collect_items, run_batch
from stich.deals.deal import DealError
from stich.deals.dealing import NoDealFound
from stich.games import OptionError
from stich.report.batch import dropped_note, summary
from stich.report.solve import solve_json
from stich.run import RunError
from stich.run.results import is_partial

from .common import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OTHER,
    fail,
    objective_option,
    parse_rule_overrides,
    rule_option,
    tt_option,
)
from .limits import EXIT_PARTIAL, limit_options, limits_of
from .progress import Bar, progress_bar


@click.command("batch")
@click.argument("paths", nargs=-1, metavar="[DIR|FILE]...")
@click.option("--generate", multiple=True, metavar="GAME:N[:SEED]",
              help="Also solve N generated deals of GAME (scharwenzel, scharwenzel6, scharwenzel8, "
                   "schafkopf2, elfern) from SEED (default 0): the deals of "
                   "`stich deal --game GAME --seed SEED -n N`.  Repeatable.")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="The results file (JSON Lines), appended to; rerun to resume.")
@click.option("--jobs", type=click.IntRange(1, 1024), default=None,
              help="Worker processes (default: all cores); 1 solves in this process.")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS",
              help="Run on a Dask distributed scheduler (e.g. tcp://host:8786) instead; "
                   "needs pip install \"stich[dask]\" here and stich on the workers.")
@objective_option
@rule_option
@tt_option
@click.option("--no-moves", is_flag=True, help="Do not value every first card (faster).")
@click.option("--fsync", type=click.Choice(["line", "second", "end"]), default="second",
              show_default=True,
              help="When to fsync the results file: after every line, at most once a second, or "
                   "only at the end (a killed run never loses written lines; fsync is for OS "
                   "crashes and power loss).")
@click.option("--quiet", is_flag=True, help="No progress bar and no summary.")
@limit_options
def batch_command(paths: tuple[str, ...], generate: tuple[str, ...], out: str, jobs: int | None,
                  dask_address: str | None, objective: str, rules: tuple[str, ...], tt_mb: int,
                  no_moves: bool, fsync: str, quiet: bool, node_limit: int | None,
                  time_limit: float | None) -> None:
    """Solve many deals: every *.toml in each DIR (or each FILE) and the --generate'd ones.

    One JSON line per deal is appended to --out as soon as the deal is solved:
    {"id", "file", "game", "label", "sha256", "objective", "with_moves", "deal",
    "result"}, where "deal" is the deal's TOML (after --rule), "sha256" its hash and
    "result" the object of `stich solve --json` (totals, outcome, line, moves, ...).
    The id of a file is its name without .toml; generated ids are like
    scharwenzel-7-0001, as the files of `stich deal`.

    Resume: rerun the same command.  Lines already in --out are kept when complete,
    valid and of the same deal (id and sha256), objective and --no-moves; a torn last
    line (a run killed while writing) and lines of other deals are dropped (complete
    dropped lines go to OUT.dropped), and only the missing deals are solved.  Each
    line is one write(2) from the parent, the only writer; the file is locked while
    a run writes it.  A file with no line stich wrote (a deal file given as --out by
    mistake) is refused and left alone.

    --node-limit / --time-limit apply to each deal: a deal that hits them gets a line
    whose result says "exact": false with the bounds proven (as `stich solve --json`) and
    whose "limits" record them; such lines are kept on resume only by a run with the same
    limits, are left out of the summary tables (counted apart), and make the exit status 5.
    Ctrl-C keeps every finished line and exits 130.

    --rule applies to the deals whose game has that option.  A summary table of
    totals and outcomes per game is printed at the end, a progress bar with rate and
    ETA on standard error while solving (on a terminal).

    \b
    Examples:
      stich batch --generate scharwenzel:1000:7 --out results.jsonl
      stich deal --game elfern -n 50 --where "seat 1 holds at least 4 honours" --out d/
      stich batch d/ --out elfern.jsonl --jobs 4 --rule must_head=true
      stich batch d/ --out r.jsonl --dask tcp://scheduler:8786
    """
    items = _items(paths, generate, rules)
    with progress_bar("batch", quiet, unit="deals") as bar:
        run = _run(items, out, bar, jobs=jobs, objective=objective,
                   with_moves=not no_moves, tt_megabytes=tt_mb, dask_address=dask_address,
                   fsync=fsync, limits=limits_of(node_limit, time_limit))
    _report(run, items, out, quiet)
    if run.failed:
        sys.exit(EXIT_OTHER)
    if run.invalid:
        sys.exit(EXIT_INPUT)
    if any(is_partial(run.records[item.id]) for item in items if item.id in run.records):
        sys.exit(EXIT_PARTIAL)


def _items(paths: tuple[str, ...], generate: tuple[str, ...], rules: tuple[str, ...]) -> list:
    """The deals of the batch; bad input (not a bad deal file: that is skipped) stops here."""
    try:
        return collect_items(paths, generate, parse_rule_overrides(rules))
    except (RunError, DealError, NoDealFound) as exc:
        fail(str(exc))
    except OptionError as exc:
        fail(f"--rule: {exc}")


def _run(items: list, out: str, bar: Bar, **settings):
    """Solve the deals not yet in ``out``; a message per deal that is not solved."""
    unreadable = {item.id for item in items if item.error is not None}

    def on_error(item_id: str, message: str) -> None:
        if item_id in unreadable:      # the message names the file
            bar.write(f"stich: {message} (skipped; the batch goes on)")
        else:
            bar.write(f"stich: {item_id}: not solved: {message}")

    try:
        return run_batch(items, out, encode=solve_json, progress=bar, on_error=on_error, **settings)
    except RunError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted; run the same command again to resume", EXIT_INTERRUPTED)
    except OSError as exc:
        fail(f"{out}: cannot write: {exc.strerror or exc}", EXIT_OTHER)


def _report(run, items: list, out: str, quiet: bool) -> None:
    """What was dropped from ``out``, what was done, and the summary of the results."""
    recovery = run.recovery
    if recovery is not None and recovery.dropped:
        click.echo(dropped_note(out, recovery), err=True)
    if quiet:
        return
    click.echo(f"{run.total} deals: {run.resumed} already in {out}, {run.solved} solved now"
               + (f", {len(run.failed)} failed" if run.failed else "")
               + (f", {len(run.invalid)} unreadable (not solved)" if run.invalid else "")
               + f" ({run.seconds:.1f} s)")
    click.echo("")
    click.echo(summary(run.records[item.id] for item in items if item.id in run.records))



"""stich tactic: test playing advice against perfect play over many deals."""

from __future__ import annotations

import fnmatch
import os
import sys
from pathlib import Path
from typing import NoReturn

import click

from solver.analysis.batch import collect_items
from solver.deals.constraints import ConstraintError, all_of, parse_constraint
from solver.deals.deal import DealError
from solver.deals.dealing import NoDealFound
from solver.games import GAMES, OptionError
from solver.report.tactic import plot, tactic_report, text_histograms
from solver.run import RunError
from solver.study.tactic import (
    StudySettings,
    counterexamples,
    generated_study_items,
    headline_width,
    resolve,
    run_study,
    study_items_of,
    summarise,
)
from solver.tactics import REGISTRY, TacticError
from solver.tactics.loader import load_file

from .common import EXIT_INPUT, EXIT_OTHER, RateBar, emit_json, parse_rule_overrides, rule_option
from .limits import EXIT_PARTIAL, limit_options, limits_of


def fail(message: str, detail: str = "", code: int = EXIT_INPUT) -> NoReturn:
    click.echo(f"stich: {message}", err=True)
    if detail:
        click.echo(detail, err=True)
    sys.exit(code)


def expand_names(patterns: tuple[str, ...], extra: dict) -> tuple[str, ...]:
    """Names as given; a pattern with * or ? expands to the matching tactics, sorted."""
    known = sorted(set(REGISTRY) | set(extra))
    names: list[str] = []
    for pattern in patterns:
        if any(ch in pattern for ch in "*?["):
            matched = [n for n in known if fnmatch.fnmatchcase(n, pattern)]
            if not matched:
                raise TacticError(f"no tactic matches {pattern!r} (known: {', '.join(known)})")
            names += [n for n in matched if n not in names]
        elif pattern not in names:
            names.append(pattern)
    return tuple(names)


@click.command("tactic")
@click.argument("names", nargs=-1, metavar="NAME...")
@click.option("--game", type=click.Choice(list(GAMES), case_sensitive=False), default=None,
              help="The game to deal (with --deals).")
@click.option("--deals", "count", type=click.IntRange(1), default=100, show_default=True,
              help="How many random deals (the deals of `stich deal --game G --seed S -n N`).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the deals and of the bootstrap.")
@click.option("--where", "wheres", multiple=True, metavar="CONSTRAINT",
              help="Only deals meeting CONSTRAINT (the language of `stich deal --where`).")
@click.option("--from", "from_dirs", multiple=True, type=str, metavar="DIR",
              help="Study the deal files of DIR (or a FILE) instead of random deals (repeatable).")
@click.option("--first", is_flag=True, help="Only the first decision of each deal where a tactic applies.")
@click.option("--objective", type=click.Choice(["score", "total"]), default="score", show_default=True,
              help="Perfect play for the game's score (outcome changes are reported) or the raw totals.")
@click.option("--tactic-file", type=str, default=None, metavar="FILE.py",
              help="Also load the tactics this Python file defines (see examples/my_tactic.py).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Append one JSON line per deal (its decisions) to this file; rerun to resume.")
@click.option("--counterexamples", "cx_dir", type=click.Path(file_okay=False), default=None,
              help="Write the worst decisions of each tactic as deal files to DIR.")
@click.option("--cx-count", type=click.IntRange(1), default=10, show_default=True,
              help="Counterexamples per tactic.")
@click.option("--plot", "plot_path", type=str, default=None, metavar="FILE.png|FILE.svg",
              help="Draw the regret distributions and share-optimal intervals (needs matplotlib: "
                   "pip install \"stich[plot]\"; else a text histogram is printed).")
@click.option("--until-width", type=float, default=None, metavar="W",
              help="Stop (at a multiple of 50 deals) once every tactic's advice − opposite "
                   "interval is narrower than W; --deals is then the most.")
@click.option("--view", type=click.Choice(["double-dummy", "player"]), default="double-dummy",
              show_default=True,
              help="player: also judge each advised decision from what the mover could see "
                   "(expected totals over hidden layouts) and report the double-dummy bias.")
@click.option("--samples", type=click.IntRange(1, 100_000), default=20, show_default=True,
              help="With --view player: hidden layouts per decision (all of them when there are "
                   "at most this many).")
@click.option("--jobs", type=click.IntRange(1), default=None, help="Worker processes (default: all cores).")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS", help="Run on a Dask scheduler.")
@rule_option
@click.option("--list", "list_only", is_flag=True, help="List the known tactics and exit.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the tables.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@limit_options
def tactic_command(names, game, count, seed, wheres, from_dirs, first, objective, tactic_file, out,
                   cx_dir, cx_count, plot_path, until_width, view, samples, jobs, dask_address, rules,
                   list_only, as_json, quiet, node_limit, time_limit) -> None:
    """Test playing advice (tactics) against double-dummy perfect play.

    Each deal is walked along an optimal line; at each decision where a tactic applies
    (--first: its first one per deal) every legal card is scored exactly.  Reported per
    tactic: the share of decisions where every advised card is optimal (Wilson 95%), the
    mean regret (bootstrap 95%), the same for a random legal card and for the best card the
    tactic does not advise (the opposite advice), the paired difference advice − opposite
    with better/equal/worse counts and a Holm-corrected sign test, and with --objective
    score how often following the advice loses a level or a win.  NAME may be a pattern
    (schafkopf2.*).

    --node-limit / --time-limit apply to each deal's optimal line and again to each
    decision's card values: a deal or decision that hits them is left out of the
    statistics, counted apart ("not exact" in the report, "not_exact" in the JSON), and the
    exit status is 5.  Ctrl-C keeps the deals finished in --out and exits 130.

    --view player also judges each of those decisions from what the mover could see: the
    hidden cards are filled with --samples layouts (seeded by --seed; every layout when
    there are no more), each solved exactly, every card scored on the same layouts.  The
    report adds the player's-view share optimal and regret, and the double-dummy bias:
    double-dummy verdict minus player's-view verdict, bootstrap 95% over whole deals.

    \b
    Examples:
      stich tactic --list
      stich tactic 'schafkopf2.bare_ten.*' --game schafkopf2 --deals 200 --where "some seat holds a bare ten"
      stich tactic 'elfern.*' --game elfern --deals 100 --out elfern.jsonl --plot elfern.png
      stich tactic my_rule --tactic-file examples/my_tactic.py --game scharwenzel --deals 500
      stich tactic 'scharwenzel.*' --game scharwenzel --deals 200 --view player --samples 20
    """
    try:
        extra = load_file(tactic_file) if tactic_file else {}
        if list_only:
            for name in sorted(set(REGISTRY) | set(extra)):
                t = extra.get(name) or REGISTRY[name]
                click.echo(f"{name:45} {t.summary}")
            return
        if not names:
            fail("name at least one tactic (stich tactic --list shows them)")
        names = expand_names(names, extra)
        tactics = resolve(names, tactic_file)
    except TacticError as exc:
        fail(str(exc))
    settings = StudySettings(names, objective, first, tactic_file, view=view, samples=samples,
                             view_seed=seed, limits=limits_of(node_limit, time_limit))
    try:
        overrides = parse_rule_overrides(rules)
    except click.ClickException as exc:
        fail(exc.message)
    try:
        if from_dirs:
            items = study_items_of(collect_items(from_dirs, (), overrides), settings)
        else:
            if game is None:
                fail("--game: give the game to deal, or --from DIR")
            game = game.lower()
            predicates = []
            for text in wheres:
                try:
                    predicates.append(parse_constraint(text, game))
                except ConstraintError as exc:
                    fail(f"--where {text!r}: {exc}")
            items = generated_study_items(game, seed, count, settings, accept=all_of(predicates),
                                          rules=overrides)
    except (RunError, DealError, NoDealFound) as exc:
        fail(str(exc))
    except OptionError as exc:
        fail(f"--rule: {exc}")

    stop = None
    if until_width is not None:
        def stop(records):
            rows = summarise(records, tactics, seed, objective)["tactics"]
            return all(headline_width(row) < until_width for row in rows)

    def on_error(item_id: str, message: str) -> None:
        click.echo(f"stich: {item_id}: not studied: {message}", err=True)

    bar = RateBar("tactic", enabled=not quiet and sys.stderr.isatty())
    try:
        run = run_study(items, settings, out=out, jobs=jobs or os.cpu_count() or 1,
                        dask_address=dask_address, stop=stop, progress=bar, on_error=on_error)
    except TacticError as exc:
        bar.close()
        fail(f"{tactic_file}: {exc}" if tactic_file else str(exc))
    except RunError as exc:
        bar.close()
        fail(str(exc))
    except KeyboardInterrupt:
        bar.close()
        fail("interrupted; run the same command again to resume", code=130)
    bar.close()
    records = run.used_records()
    summary = summarise(records, tactics, seed, objective)
    summary["stopped_early"] = run.stopped_early
    if cx_dir:
        Path(cx_dir).mkdir(parents=True, exist_ok=True)
        written = []
        for t in tactics:
            for name, text in counterexamples(records, t, cx_count):
                (Path(cx_dir) / name).write_text(text, encoding="utf-8")
                written.append(str(Path(cx_dir) / name))
        summary["counterexamples"] = written
    plotted = None
    if plot_path:
        plotted = plot(records, tactics, summary, plot_path)
    if as_json:
        emit_json(summary)
    else:
        click.echo(tactic_report(summary))
        if plot_path and not plotted:
            click.echo("")
            click.echo("matplotlib is not installed (pip install \"stich[plot]\"): text histograms instead")
            click.echo(text_histograms(records, tactics, summary))
    if run.failed:
        sys.exit(EXIT_OTHER)
    if any("not_exact" in row for row in summary["tactics"]):
        sys.exit(EXIT_PARTIAL)

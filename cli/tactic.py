"""stich tactic: test playing advice against perfect play over many deals."""

from __future__ import annotations

import fnmatch
import os
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import click

from stich.analysis.batch import collect_items
from stich.deals.constraints import ConstraintError, all_of, parse_constraint
from stich.deals.deal import DealError, loads
from stich.deals.dealing import MAX_DEALS, NoDealFound
from stich.games import GAMES, OptionError
from stich.report.batch import dropped_note
from stich.report.tactic import PLOT_SUFFIXES, forest_plot, tactic_report
from stich.run import RunError
from stich.study.examples import KINDS, example_files
from stich.study.learn import held_out_rows, tactic_file_text
from stich.study.learn import learn as learn_rules
from stich.study.pimc import PLAYS, player_game_table
from stich.study.study import (
    StudySettings,
    generated_study_items,
    records_of,
    resolve,
    run_study,
    study_items_of,
)
from stich.study.summary import headline_width, paired_rows, summarise
from stich.tactics import REGISTRY, TacticError
from stich.tactics.features import BUILTIN as BUILTIN_FEATURES
from stich.tactics.loader import load_file

from .common import EXIT_OTHER, SEED, FiniteRange, emit_json, fail, parse_rule_overrides, rule_option
from .limits import EXIT_PARTIAL, limit_options, limits_of
from .progress import Bar

# --- the player's game: an opponent (and a mover) who cannot see ----------------------------------

def pimc_options(command):
    """--opponent, --mover, --pimc-samples (stich.study.pimc)."""
    command = click.option(
        "--pimc-samples", type=click.IntRange(1, 10_000), default=20, show_default=True,
        help="With --opponent/--mover player: hidden layouts per PIMC decision (all of them when "
             "there are at most this many; else drawn with a seed fixed by the deal and the cards "
             "played).")(command)
    command = click.option(
        "--mover", type=click.Choice(PLAYS), default="perfect", show_default=True,
        help="player: where the advice is silent, the advised seat too plays by PIMC.")(command)
    return click.option(
        "--opponent", type=click.Choice(PLAYS), default="perfect", show_default=True,
        help="player: also play every deal in the player's game, where the other side cannot see: "
             "at each decision it plays the card with the best expected value over K layouts of "
             "what it cannot see (Perfect Information Monte Carlo, PIMC: Ginsberg's GIB 2001; Long, "
             "Sturtevant, Buro & Furtak 2010; its flaw, strategy fusion: Frank & Basin 1998).  The "
             "advice's cost there: the seat's total playing without the advice minus following it, "
             "same deals, same opponents.  Slow: use --out (it resumes).")(command)


def with_pimc(settings: StudySettings, pimc: dict) -> StudySettings:
    return replace(settings, opponent=pimc["opponent"], mover=pimc["mover"], pimc_samples=pimc["pimc_samples"])


def player_game(summary, records, settings: StudySettings) -> None:
    """With --opponent/--mover player: the player's game's table, into the summary."""
    if "player" in (settings.opponent, settings.mover):
        summary.player_game = player_game_table(records, list(settings.tactics), settings.seed,
                                                settings.opponent, settings.mover, settings.pimc_samples)


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
@click.option("--deals", "count", type=click.IntRange(1, MAX_DEALS), default=100, show_default=True,
              help="How many random deals (the deals of `stich deal --game G --seed S -n N`).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the deals, the policies' picks, the layouts and the bootstrap.")
@click.option("--where", "wheres", multiple=True, metavar="CONSTRAINT",
              help="Only deals meeting CONSTRAINT (the language of `stich deal --where`).")
@click.option("--from", "from_dirs", multiple=True, type=str, metavar="DIR",
              help="Study the deal files of DIR (or a FILE) instead of random deals (repeatable).")
@click.option("--first", is_flag=True, help="One-off tables: only each tactic's first decision per deal.")
@click.option("--objective", type=click.Choice(["score", "total"]), default="score", show_default=True,
              help="Perfect play for the game's score (outcomes are reported) or the raw totals.")
@click.option("--tactic-file", type=str, default=None, metavar="FILE.py",
              help="Also load the tactics (and FEATURES) this Python file defines (see examples/my_tactic.py).")
@click.option("--by", "by", type=str, default=None, metavar="FEATURE",
              help="Break every table down by a feature of the decision: " + ", ".join(BUILTIN_FEATURES)
                   + " (or one a tactic file defines).")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Append one JSON line per deal (its decisions and runs) to this file; rerun to "
                   "resume, or with more --deals to extend (fewer --deals report the first ones "
                   "and leave the rest in place).")
@click.option("--examples", "examples_dir", type=click.Path(file_okay=False), default=None,
              help="Write typical positions where the advice is right and wrong, and the worst ones, "
                   "as deal files to DIR.")
@click.option("--counterexamples", "cx_dir", type=click.Path(file_okay=False), default=None,
              help="Write only the worst decisions of each tactic as deal files to DIR.")
@click.option("--cx-count", type=click.IntRange(1, 1000), default=10, show_default=True,
              help="Files per tactic and kind.")
@click.option("--plot", "plot_path", type=str, default=None, metavar="FILE.png|FILE.svg|FILE.pdf",
              help="Draw the study's forest plot (needs matplotlib: pip install \"stich[plot]\").")
@click.option("--until-width", type=FiniteRange(min=0, min_open=True, max=1e9), default=None,
              metavar="W", help="Stop (at a multiple of 50 deals) once every tactic's headline interval "
                                "(advice − random card) is narrower than W; --deals is then the most.")
@click.option("--view", type=click.Choice(["double-dummy", "player"]), default="double-dummy",
              show_default=True,
              help="player: also judge every choice from what the mover could see (expected loss "
                   "over the hidden layouts he cannot tell apart).")
@click.option("--samples", type=click.IntRange(1, 100_000), default=20, show_default=True,
              help="With --view player: hidden layouts per decision (all of them when there are "
                   "at most this many).")
@click.option("--jobs", type=click.IntRange(1, 1024), default=None, help="Worker processes (default: all cores).")
@click.option("--dask", "dask_address", default=None, metavar="ADDRESS", help="Run on a Dask scheduler.")
@click.option("--paired", is_flag=True,
              help="Play every listed tactic on the same deals by the same seats from the same start, "
                   "and compare each pair: the paired difference in cost, its interval and test.")
@click.option("--learn", is_flag=True,
              help="Learn when following the one tactic named is right (a decision tree of depth 1-3 "
                   "over the features the mover sees; needs scikit-learn: pip install \"stich[learn]\"), "
                   "and play each rule on held-out deals beside the old advice and a random card.")
@click.option("--holdout", "holdout_count", type=click.IntRange(1, MAX_DEALS), default=None,
              help="With --learn: held-out deals (default: as many as learned from).")
@click.option("--holdout-seed", type=int, default=None,
              help="With --learn: the held-out deals' seed (default: --seed + 1); they are dealt "
                   "like --game and --where, never from --from.")
@click.option("--learned-file", type=click.Path(dir_okay=False), default=None, metavar="FILE.py",
              help="With --learn: write the learned rules here as a tactic file (rerun with --tactic-file).")
@rule_option
@click.option("--list", "list_only", is_flag=True, help="List the known tactics and exit.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the report.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@limit_options
@pimc_options
def tactic_command(names, game, count, seed, wheres, from_dirs, first, objective, tactic_file, by, out,
                   examples_dir, cx_dir, cx_count, plot_path, until_width, view, samples, jobs,
                   dask_address, paired, learn, holdout_count, holdout_seed, learned_file, rules,
                   list_only, as_json, quiet, node_limit, time_limit, **pimc) -> None:
    """Test playing advice (tactics) against perfect play, as a player would follow it.

    A tactic sees only what the mover sees (his own visible cards, face-up cards, the cards
    played and what play revealed).  The headline: each deal is played out with a seat
    following the advice whenever it applies and every other card played perfectly; its cost
    against perfect play, beside a random card at the same moments (paired by deal).  Then
    the one-off tables: along an optimal line, each decision where a tactic applies, every
    legal card scored exactly (first decision per deal, and every decision with deals
    weighted equally).  Intervals resample deals; p-values flip signs per deal (Holm).
    NAME may be a pattern (schafkopf2.*); double_dummy.* are the old readings that see every
    card, for comparison.

    --node-limit / --time-limit apply to each deal's line, each decision and each run: what
    hits them is left out and counted apart ("not exact"), and the exit status is 5.
    Ctrl-C keeps the deals finished in --out and exits 130.

    \b
    Examples:
      stich tactic --list
      stich tactic 'schafkopf2.bare_ten.*' --game schafkopf2 --deals 200 --where "seat 1 up holds a bare ten"
      stich tactic 'elfern.*' --game elfern --deals 100 --out elfern.jsonl --plot elfern.png --by stock_left
      stich tactic cash_aces --tactic-file examples/my_tactic.py --game scharwenzel --deals 500
      stich tactic 'scharwenzel.*' --game scharwenzel --deals 200 --view player --samples 20
      stich tactic schafkopf2.bare_ten.lead_at_once schafkopf2.bare_ten.lead_when_it_wins --paired --game schafkopf2 --where "seat 1 up holds a bare ten"
      stich tactic schafkopf2.bare_ten.lead_at_once --learn --game schafkopf2 --where "seat 1 up holds a bare ten" --learned-file rules.py
    """
    extra, features = _loaded(tactic_file)
    if list_only:
        _list(extra, as_json)
        return
    tactics = _tactics(names, extra, tactic_file)
    _check_options(by, features, learn, tactics)
    _check_companions(learn, (holdout_count, holdout_seed, learned_file), view, paired, tactics)
    _check_outputs(examples_dir, cx_dir, plot_path)
    settings = StudySettings(tuple(t.name for t in tactics), objective, first, tactic_file, view=view,
                             samples=samples, seed=seed, limits=limits_of(node_limit, time_limit),
                             paired=paired)
    settings = with_pimc(settings, pimc)
    items = _items(settings, game, count, seed, wheres, from_dirs, rules)
    unit = loads(items[0].text, items[0].id).rule_set.unit if items else None
    run = _run(items, settings, tactics, unit, until_width, out, jobs, dask_address, quiet)
    records = records_of(run.used_lines())
    summary = summarise(records, tactics, seed, objective, unit, by, [*BUILTIN_FEATURES, *features])
    summary.stopped_early = run.stopped_early
    summary.first_only = first
    if paired:
        summary.paired = paired_rows(records, list(settings.tactics), seed)
    if learn:
        game = game or (items[0].game if items else None)
        held = HeldOut(game, holdout_count or len(items), seed + 1 if holdout_seed is None else holdout_seed,
                       wheres, rules, learned_file, f"{out}.held-out" if out else None)
        summary.learned = _learn(records, settings, held, jobs, dask_address, quiet)
    player_game(summary, records, settings)
    _write_examples(summary, records, tactics, examples_dir, cx_dir, cx_count, seed)
    _output(summary, run, game or (items[0].game if items else None), plot_path, as_json)


def _check_options(by: str | None, features: dict, learn: bool, tactics: list) -> None:
    if by is not None and by not in BUILTIN_FEATURES and by not in features:
        fail(f"--by {by!r}: no such feature (known: {', '.join([*BUILTIN_FEATURES, *features])})")
    if learn and (len(tactics) != 1 or tactics[0].sees_all):
        fail("--learn: name exactly one tactic, one that reads only what the mover sees")


def _check_companions(learn: bool, learning: tuple, view: str, paired: bool, tactics: list) -> None:
    """Options that only mean something beside another are refused without it, rather than
    ignored: the user expected them to change the study."""
    if not learn and any(option is not None for option in learning):
        fail("--holdout, --holdout-seed and --learned-file go with --learn")
    given = click.get_current_context().get_parameter_source("samples")
    if view != "player" and given is click.core.ParameterSource.COMMANDLINE:
        fail("--samples goes with --view player (hidden layouts per decision)")
    if paired and len(tactics) < 2:
        fail("--paired compares tactics with each other: name two or more")


def _output(summary, run, game_name: str | None, plot_path: str | None, as_json: bool) -> None:
    """The report (or JSON), the plot, and the exit status: the report first, so that a plot
    that cannot be written loses nothing of the study."""
    if as_json:
        emit_json(summary.as_json())
    else:
        click.echo(tactic_report(summary, game_name))
    if plot_path:
        _plot(summary, plot_path, game_name)
    if run.failed:
        sys.exit(EXIT_OTHER)
    if any(row.not_exact.any() for row in summary.tactics):
        sys.exit(EXIT_PARTIAL)


@dataclass(frozen=True)
class HeldOut:
    """How --learn deals its held-out deals, and where it writes the rules and their records."""

    game: str | None
    count: int
    seed: int
    wheres: tuple[str, ...]
    rules: tuple[str, ...]
    learned_file: str | None
    out: str | None


def _learn(records, settings: StudySettings, held: HeldOut, jobs, dask_address, quiet) -> list:
    """Learn rules from the study's records, write them as a tactic file, and play them with the
    old advice on held-out deals dealt with their own seed."""
    base = settings.tactics[0]
    try:
        learned = learn_rules(records, base, settings.seed)
    except ImportError:
        fail("--learn: needs scikit-learn (pip install \"stich[learn]\")")
    if not learned:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        path = held.learned_file or str(Path(tmp) / "learned.py")
        try:
            Path(path).write_text(tactic_file_text(learned, held.game, settings.tactic_file), encoding="utf-8")
        except OSError as exc:
            fail(f"--learned-file {path}: cannot write it: {exc}")
        names = (base, *(rule.name for rule in learned))
        test = replace(settings, tactics=names, tactic_file=path, seed=held.seed, paired=True, first=False)
        items = _items(test, held.game, held.count, held.seed, held.wheres, (), held.rules)
        run = _run(items, test, [], None, None, held.out, jobs, dask_address, quiet)
        how = {"game": held.game, "seed": held.seed, "deals": len(items), "where": list(held.wheres)}
        return held_out_rows(records_of(run.used_lines()), learned, held.seed, how)


def _loaded(tactic_file: str | None) -> tuple[dict, dict]:
    try:
        loaded = load_file(tactic_file) if tactic_file else None
    except TacticError as exc:
        fail(str(exc))
    return (loaded.tactics, loaded.features) if loaded else ({}, {})


def _list(extra: dict, as_json: bool) -> None:
    rows = [(name, (extra.get(name) or REGISTRY[name]).summary) for name in sorted(set(REGISTRY) | set(extra))]
    if as_json:
        emit_json([{"name": name, "summary": summary} for name, summary in rows])
        return
    for name, summary in rows:
        click.echo(f"{name:50} {summary}")


def _tactics(names: tuple[str, ...], extra: dict, tactic_file: str | None) -> list:
    if not names:
        fail("name at least one tactic (stich tactic --list shows them)")
    try:
        return resolve(expand_names(names, extra), tactic_file)[0]
    except TacticError as exc:
        fail(str(exc))


def _items(settings: StudySettings, game, count: int, seed: int, wheres, from_dirs, rules) -> list:
    """The deals of the study: deal files, or seeded random deals meeting every --where."""
    try:
        overrides = parse_rule_overrides(rules)
        if from_dirs:
            return _file_items(settings, collect_items(from_dirs, (), overrides))
        if game is None:
            fail("--game: give the game to deal, or --from DIR")
        game = game.lower()
        _check_games(settings, game)
        predicates = [_constraint(text, game) for text in wheres]
        return generated_study_items(game, seed, count, settings, accept=all_of(predicates), rules=overrides)
    except click.ClickException as exc:
        fail(exc.message)
    except (RunError, DealError, NoDealFound) as exc:
        fail(str(exc))
    except OptionError as exc:
        fail(f"--rule: {exc}")


def _file_items(settings: StudySettings, items: list) -> list:
    """The deal files of --from: each readable (the reader's message for the first that is
    not), each of a game every tactic is written for."""
    bad = [item for item in items if item.error is not None]
    if bad:
        fail(bad[0].error + (f" (and {len(bad) - 1} more bad deal files)" if len(bad) > 1 else ""))
    for game in dict.fromkeys(item.game for item in items):
        _check_games(settings, game, f"--from: the deals are {game}:")
    return study_items_of(items, settings)


def _check_games(settings: StudySettings, game: str, where: str | None = None) -> None:
    """A tactic written for another game would never apply: say so instead of running."""
    tactics, _ = resolve(settings.tactics, settings.tactic_file)
    other = [t.name for t in tactics if t.game not in (None, game)]
    if other:
        fail(f"{where or f'--game {game}:'} {', '.join(other)} {'is' if len(other) == 1 else 'are'} "
             f"written for another game")


def _constraint(text: str, game: str):
    try:
        return parse_constraint(text, game)
    except ConstraintError as exc:
        fail(f"--where {text!r}: {exc}")


def _run(items, settings, tactics, unit, until_width, out, jobs, dask_address, quiet):
    stop = None
    if until_width is not None:
        def stop(lines):
            rows = summarise(records_of(lines), tactics, settings.seed, settings.objective, unit).tactics
            return all(headline_width(row) < until_width for row in rows)

    bar = Bar("tactic", "deals", enabled=not quiet)

    def on_error(item_id: str, message: str) -> None:
        bar.write(f"stich: {item_id}: not studied: {message}")

    try:
        run = run_study(items, settings, out=out, jobs=jobs,
                        dask_address=dask_address, stop=stop, progress=bar, on_error=on_error)
        if out and run.recovery is not None and run.recovery.dropped:
            bar.write(dropped_note(out, run.recovery))
        return run
    except TacticError as exc:
        fail(f"{settings.tactic_file}: {exc}" if settings.tactic_file else str(exc))
    except RunError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted; run the same command again to resume", code=130)
    finally:
        bar.close()


def _write_examples(summary, records, tactics, examples_dir, cx_dir, count: int, seed: int) -> None:
    for directory, kinds, key in ((examples_dir, KINDS, "examples"), (cx_dir, ("worst",), "counterexamples")):
        if not directory:
            continue
        Path(directory).mkdir(parents=True, exist_ok=True)
        written = []
        for t in tactics:
            for name, text in example_files(records, t.name, kinds, count, seed):
                (Path(directory) / name).write_text(text, encoding="utf-8")
                written.append(str(Path(directory) / name))
        summary.files[key] = written


def _check_outputs(examples_dir: str | None, cx_dir: str | None, plot_path: str | None) -> None:
    """Every output path is checked before the study (which may take hours), not after it."""
    for option, directory in (("--examples", examples_dir), ("--counterexamples", cx_dir)):
        if directory:
            try:
                Path(directory).mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                fail(f"{option} {directory}: cannot make the folder: {exc.strerror or exc}")
            if not os.access(directory, os.W_OK | os.X_OK):
                fail(f"{option} {directory}: cannot write in this folder")
    if plot_path:
        folder = Path(plot_path).parent
        if Path(plot_path).suffix.lower() not in PLOT_SUFFIXES:
            fail(f"--plot {plot_path}: name a {', '.join(PLOT_SUFFIXES[:-1])} or {PLOT_SUFFIXES[-1]} "
                 f"file (the name's ending says the format)")
        if Path(plot_path).is_dir():
            fail(f"--plot {plot_path}: is a folder, not a file name")
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            fail(f"--plot {plot_path}: cannot write in {folder} (no such folder, or not allowed)")
        import importlib.util
        if importlib.util.find_spec("matplotlib") is None:
            fail(f"--plot {plot_path}: needs matplotlib (pip install \".[plot]\")")


def _plot(summary, path: str, game: str | None) -> None:
    if not any(t.policy.deals for t in summary.tactics):
        click.echo(f"stich: --plot {path}: no tactic applied in these deals: nothing to plot", err=True)
        return
    try:
        forest_plot(summary, path, game)
    except ImportError:
        fail(f"--plot {path}: needs matplotlib (pip install \"stich[plot]\")")
    except (OSError, ValueError) as exc:
        fail(f"--plot {path}: cannot write the plot: {exc}")

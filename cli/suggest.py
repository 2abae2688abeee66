"""stich suggest FILE --seat N: the card to play from what seat N can see."""

from __future__ import annotations

import click

from stich.report.suggest import suggest_json, suggest_report
from stich.run import RunError
from stich.view import EXACT_LIMIT, read_view
from stich.view.suggest import MAX_SAMPLES, TooManyLayouts, suggest

from .common import (
    SEED,
    InputError,
    deal_argument,
    emit_json,
    json_option,
    objective_option,
    parse_rule_overrides,
    rule_option,
    tt_option,
)
from .limits import exit_if_partial, limit_options, limits_of
from .progress import progress_bar


def check_options(exact: bool, samples: int | None, no_totals: bool, objective: str,
                  all_totals: bool = False) -> str:
    """Options that exclude each other, named before any work; the ``totals`` of ``suggest``."""
    if exact and samples is not None:
        raise InputError("--exact and --samples exclude each other")
    if no_totals and all_totals:
        raise InputError("--no-totals and --all-totals exclude each other")
    if no_totals and objective != "score":
        raise InputError("--no-totals needs --objective score (the totals decide otherwise)")
    return "none" if no_totals else "all" if all_totals else "deciding"


def view_to_move(deal_file: str, seat: int | None, rules: tuple[str, ...]):
    """The seat's information set, which must be the seat to move."""
    info = read_view(deal_file, seat, parse_rule_overrides(rules))
    to_move = info.to_move
    if to_move is None:
        raise InputError(f"{deal_file}: play: the deal is over, there is no card to suggest")
    if to_move != info.seat:
        raise InputError(f"{deal_file}: --seat: seat {info.seat} is not to move (seat {to_move} is)")
    return info


@click.command("suggest")
@deal_argument
@click.option("--seat", type=click.IntRange(1, 8), default=None,
              help="The seat whose view is wanted (default: the file's `seat`, else the seat to move).")
@click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=None,
              help="Draw this many hidden layouts uniformly (default 100 when there are more "
                   f"than {EXACT_LIMIT} consistent layouts).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the sampling.")
@click.option("--exact", is_flag=True, help="Solve every consistent layout once (the default "
                                            f"when there are at most {EXACT_LIMIT}).")
@objective_option
@click.option("--no-totals", "no_totals", is_flag=True,
              help="With --objective score: only the outcome level each card forces on each "
                   "layout, not its exact total (no expected totals; about half the search at "
                   "the first card of a whole deal).")
@click.option("--all-totals", "all_totals", is_flag=True,
              help="Every card's expected total (default: only those that break a tie in the "
                   "expected level for the best card or the runner-up).")
@click.option("--jobs", type=click.IntRange(1, 1024), default=None,
              help="Worker processes (default: all cores; 1 solves in this process).")
@click.option("--dask", "dask_address", default=None, metavar="ADDR",
              help="Solve the layouts on this Dask scheduler (pip install \"stich[dask]\").")
@rule_option
@json_option
@tt_option
@limit_options
def suggest_command(deal_file: str, seat: int | None, samples: int | None, seed: int, exact: bool,
                    objective: str, no_totals: bool, all_totals: bool, jobs: int | None, dask_address: str | None,
                    rules: tuple[str, ...], as_json: bool, tt_mb: int, node_limit: int | None,
                    time_limit: float | None) -> None:
    """Which card to play from what a seat can see (the player's view, single dummy).

    Every hidden layout consistent with the seat's information is solved exactly with every
    legal card scored on the same layouts.  For each card: the expected final total of the
    seat's side with a 95% interval, the outcome levels, and how often it is double-dummy
    best; then the card to play and how sure that is.

    FILE is a deal file.  With every card named, --seat N ignores what seat N cannot see:
    the other hands (Scharwenzel, Elfern), every face-down pile card (Schafkopf2, the own
    ones too), the stock (Elfern).  Or leave hidden cards unknown:

    \b
      ?                  an unknown card in a hand, under a pile (SK/?) or in the stock
      unknown = "..."    the cards behind the ?s (default: the rest of the pack)
      seat = N           whose view it is (default: the seat to move)

    Played cards are named where they came from.  A void shown by a failure to follow
    (where following is compulsory) is respected in every layout.

    With --objective score a card gets its exact total only where the total breaks a tie in
    the expected level for the best card or the runner-up (the others: "not needed"; P(dd
    best) may then be by the level alone, "P(best rung)").  --all-totals: every card's;
    --no-totals: none.

    --node-limit / --time-limit apply to each layout: a layout that hits them is left out
    of the figures and counted apart ("NOT EXACT" in the report; "exact": false and
    "layouts_left_out" in the JSON), and the exit status is 5; if every layout hits them
    there is no advice (exit 5; --json still prints what is known).  Ctrl-C prints the
    layouts finished, marked INTERRUPTED ("interrupted": true in the JSON), and exits 130.

    \b
    Examples:
      stich suggest examples/scharwenzel-ending.toml --seat 3
      stich suggest examples/hidden/schafkopf2-hidden.toml --exact
      stich suggest examples/elfern-deal.toml --samples 100 --seed 1 --json
    """
    totals = check_options(exact, samples, no_totals, objective, all_totals)
    info = view_to_move(deal_file, seat, rules)
    try:
        with progress_bar("layouts", as_json, unit="layouts") as bar:
            result = suggest(info, samples=samples, seed=seed, exact=True if exact else None,
                             objective=objective, jobs=jobs, dask_address=dask_address, tt_megabytes=tt_mb,
                             progress=bar, limits=limits_of(node_limit, time_limit), totals=totals)
    except TooManyLayouts as exc:
        raise InputError(f"{deal_file}: --exact: {exc}") from None
    except RunError as exc:                 # --dask without Dask, or its scheduler not reached
        raise InputError(str(exc)) from None
    if result.advice is None and result.left_out:
        click.echo(f"stich: all {result.left_out} layouts hit the limit: no advice "
                   f"(raise --node-limit or --time-limit)", err=True)
    if as_json:
        emit_json(suggest_json(result))
    else:
        click.echo(suggest_report(result))
    exit_if_partial(result.exact, result.stopped)

"""stich replay FILE: the value before and after every card played; mistakes and their cost."""

from __future__ import annotations

import click

from stich.analysis.replay import replay
from stich.report.replay import replay_json, replay_report

from .common import (
    SEED,
    InputError,
    deal_argument,
    emit_json,
    fail,
    json_option,
    read_deal,
    rule_option,
    tt_option,
)
from .limits import exit_if_partial, limit_options, limits_of
from .progress import progress_bar


@click.command("replay")
@deal_argument
@rule_option
@json_option
@tt_option
@click.option("--view", type=click.Choice(["double-dummy", "player"]), default="double-dummy",
              show_default=True, help="player: also judge each card from what its player could "
                                      "see then (stich suggest at every card).")
@click.option("--samples", type=click.IntRange(1, 100_000), default=20, show_default=True,
              help="--view player: layouts drawn per card when there are too many to take all.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="--view player: sampling seed.")
@click.option("--jobs", type=click.IntRange(1, 1024), default=None,
              help="--view player: worker processes (default: all cores).")
@limit_options
def replay_command(deal_file: str, rules: tuple[str, ...], as_json: bool, tt_mb: int, view: str,
                   samples: int, seed: int, jobs: int | None, node_limit: int | None,
                   time_limit: float | None) -> None:
    """Analyse the cards actually played in FILE's `play`, like a bridge play analysis.

    For every card: the double-dummy totals before and after it, what it cost its side (a
    mistake), the cards that would have kept the value, and where the outcome changed
    (a win thrown away, a Schneider let go).  With --view player, beside it the player's
    view: the card judged by its expected total over the hidden layouts its player could
    not tell apart (a card that loses double-dummy may still be the best guess).

    --node-limit / --time-limit are one budget for the whole double-dummy replay: when it
    runs out, the cards analysed so far are shown (exact) and the rest are not analysed,
    the JSON says "exact": false, and the command exits 5 (the player's view is then
    skipped).  Ctrl-C likewise prints the cards finished and exits 130.  With --view player
    the same limits apply again to each hidden layout: a layout that hits them is left out
    of its card's figures (counted in the layouts column), a card whose every layout hits
    them is "not judged", and the command exits 5.  Its cards are judged trick by trick:
    Ctrl-C keeps the tricks judged.

    \b
    Examples:
      stich replay examples/scharwenzel-played.toml
      stich replay examples/schafkopf2-played.toml --json
      stich replay examples/scharwenzel-played.toml --view player --samples 10
    """
    deal = read_deal(deal_file, rules)
    if not deal.play:
        raise InputError(f"{deal.source}: play: there is no play to replay (add a `play` list)")
    with progress_bar("replay", as_json) as update:
        result = replay(deal, tt_megabytes=tt_mb, progress=update,
                        limits=limits_of(node_limit, time_limit))
    judgements, interrupted = None, False
    if view == "player" and result.exact:
        judgements, interrupted = _judged(deal, samples, seed, jobs, tt_mb, as_json,
                                          limits_of(node_limit, time_limit))
    if as_json:
        obj = replay_json(result)
        if judgements is not None:
            from stich.report.suggest import judgement_json
            obj["player_view"] = judgement_json(judgements)
        emit_json(obj)
    else:
        click.echo(replay_report(result))
        if judgements is not None:
            from stich.report.suggest import judgement_report
            click.echo("")
            click.echo(judgement_report(result.steps, judgements))
    if interrupted:
        judged = len(judgements or [])
        fail(f"interrupted (Ctrl-C) during the player's view: the replay above is complete, the "
             f"player's view of its first {judged} of {sum(map(len, deal.play))} cards", 130)
    over = judgements is not None and any(j.left_out for j in judgements)
    exit_if_partial(result.exact and not over, result.stopped)


def _judged(deal, samples: int, seed: int, jobs, tt_mb: int, quiet: bool, limits) -> tuple[list | None, bool]:
    """The player's view of every card played, and whether Ctrl-C stopped it (then the
    tricks judged before it, as ``judge_play`` judges them trick by trick)."""
    from stich.view.suggest import PlayInterrupted, judge_play
    try:
        with progress_bar("player's view", quiet, unit="card") as update:
            return judge_play(deal, samples=samples, seed=seed, jobs=jobs, tt_megabytes=tt_mb,
                              progress=update, limits=limits), False
    except PlayInterrupted as stop:     # the replay and the tricks judged are printed
        return stop.judged, True
    except KeyboardInterrupt:
        return None, True

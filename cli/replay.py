"""stich replay FILE: the value before and after every card played; mistakes and their cost."""

from __future__ import annotations

import click

from solver.analysis.replay import replay
from solver.report import replay_json, replay_report

from .common import InputError, deal_argument, emit_json, json_option, progress_bar, read_deal, rule_option, tt_option


@click.command("replay")
@deal_argument
@rule_option
@json_option
@tt_option
def replay_command(deal_file: str, rules: tuple[str, ...], as_json: bool, tt_mb: int) -> None:
    """Analyse the cards actually played in FILE's `play`, like a bridge play analysis.

    For every card: the double-dummy totals before and after it, what it cost its side (a
    mistake), the cards that would have kept the value, and where the outcome changed
    (a win thrown away, a Schneider let go).

    \b
    Examples:
      stich replay examples/scharwenzel-played.toml
      stich replay examples/schafkopf2-played.toml --json
    """
    deal = read_deal(deal_file, rules)
    if not deal.play:
        raise InputError(f"{deal.source}: play: there is no play to replay (add a `play` list)")
    with progress_bar("replay", as_json) as update:
        result = replay(deal, tt_megabytes=tt_mb, progress=update)
    if as_json:
        emit_json(replay_json(result))
    else:
        click.echo(replay_report(result))

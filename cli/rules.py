"""stich rules [GAME]: the rule options of each game, with defaults and sources."""

from __future__ import annotations

import click

from stich.games import GAMES, find_game
from stich.report.rules import options_json, options_table, rule_file_summary

from .common import docs_path, emit_json, fail, json_option


@click.command("rules")
@click.argument("game", required=False, metavar="[GAME|FILE]")
@json_option
def rules_command(game: str | None, as_json: bool) -> None:
    """List the rule options of GAME (or of every game) with their values and defaults.

    GAME may be a rule file (FILE.toml): its blocks, sources and options are shown.

    Set an option in a deal file's [rules] table (`must_head = true`) or on the command line
    of any command (`--rule must_head=true`).

    \b
    Examples:
      stich rules
      stich rules schafkopf2 --json
      stich rules my-game.toml
    """
    spec = find_game(GAMES, game) if game else None
    if game is not None and spec is None:     # '' names no game: not the same as leaving it out
        fail(f"rules: unknown game {game!r:.60} (one of {', '.join(GAMES)}, or a rule file)")
    games = [spec] if spec else list(GAMES.values())
    if as_json:
        emit_json(options_json(games))
        return
    if spec is not None and spec.rule_file:
        click.echo(rule_file_summary(spec))
    click.echo(options_table(games))
    click.echo(f"\nSources (rules.md §N) are sections of docs/rules.md: the rules and the readings "
               f"stich chose ({docs_path('rules.md')}).")

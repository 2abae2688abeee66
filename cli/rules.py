"""stich rules [GAME]: the rule options of each game, with defaults and sources."""

from __future__ import annotations

import click
from tabulate import tabulate

from solver.games import GAMES, find_game
from solver.games.rulefile import summary

from .common import docs_path, emit_json, fail, json_option


def _value(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


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
    if game and spec is None:
        fail(f"rules: unknown game {game!r:.60} (one of {', '.join(GAMES)}, or a rule file)")
    games = [spec] if spec else list(GAMES.values())
    if spec is not None and spec.rule_file and not as_json:
        click.echo(tabulate(summary(spec), tablefmt="plain", maxcolwidths=[None, 90]) + "\n")
    if as_json:
        emit_json({g.name: [{"name": o.name, "default": o.default,
                             "values": list(o.choices) if o.choices else [False, True],
                             "help": o.help, "source": o.source} for o in g.options] for g in games})
        return
    rows = []
    for g in games:
        for o in g.options:
            values = " | ".join(map(_value, o.choices)) if o.choices else "true | false"
            rows.append([g.name, o.name, values, _value(o.default), o.help, o.source])
    click.echo(tabulate(rows, headers=["game", "option", "values", "default", "meaning", "source"],
                        tablefmt="simple", maxcolwidths=[None, None, None, None, 50, 30]))
    click.echo(f"\nSources (rules.md §N) are sections of docs/rules.md: the rules and the readings "
               f"stich chose ({docs_path('rules.md')}).")

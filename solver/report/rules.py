"""``stich rules``: the rule options of games as a table and as JSON (and a rule file's blocks)."""

from __future__ import annotations

from tabulate import tabulate

from stich.games.rulefile import summary


def _value(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def rule_file_summary(spec) -> str:
    """A rule file's name, blocks and sources, before its options."""
    return tabulate(summary(spec), tablefmt="plain", maxcolwidths=[None, 90]) + "\n"


def options_table(games: list) -> str:
    """One row per option of each game: values, default, meaning and source."""
    rows = []
    for g in games:
        for o in g.options:
            values = " | ".join(map(_value, o.choices)) if o.choices else "true | false"
            rows.append([g.name, o.name, values, _value(o.default), o.help, o.source])
    return tabulate(rows, headers=["game", "option", "values", "default", "meaning", "source"],
                    tablefmt="simple", maxcolwidths=[None, None, None, None, 50, 30])


def options_json(games: list) -> dict:
    return {g.name: [{"name": o.name, "default": o.default,
                      "values": list(o.choices) if o.choices else [False, True],
                      "help": o.help, "source": o.source} for o in g.options] for g in games}

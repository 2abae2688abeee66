"""The rows ``stich rules GAME`` shows of a game (data; the report draws them)."""

from __future__ import annotations

from pathlib import Path

from stich.model.cards import (
    FRENCH,
    SUITS,
    suit_name,
)

from .base import (
    NAMED,
    NO_TRUMP,
    OPTIONAL,
    Game,
)
from .rulefile_compile import _Compiler, _total
from .rulefile_read import read_data


def summary(game: Game) -> list[tuple[str, str]]:
    """What ``stich rules GAME`` shows of a game: its blocks under the option defaults (a named
    trump shown as clubs)."""
    options = {o.name: o.default for o in game.options}
    trump = SUITS[0] if game.has_trumps else None
    rules = game.build(trump, options, game.default_players)
    rows = [("title", game.title), ("players", " or ".join(map(str, game.seat_counts))),
            ("pack", f"{len(rules.deck)} cards"), ("unit", rules.unit)]
    values = {c.text(FRENCH)[1:]: v for c, v in rules.values.items() if v}
    if values:
        rows.append(("values", ", ".join(f"{r} {v}" for r, v in values.items())))
    rows.append(("trump", {NAMED: "named in the deal file", OPTIONAL: "fixed",
                           NO_TRUMP: "none"}[game.trump_rule]))
    if rules.trumps:
        rows.append(("trumps (clubs trump)", " ".join(c.text(FRENCH) for c in rules.trumps)))
    for suit, cards in rules.plain.items():
        rows.append((f"plain order {suit_name(suit)}", " ".join(c.text(FRENCH) for c in cards)))
        break
    follow = rules.follow
    rows.append(("follow", "free" if not follow.follow_suit else "suit" + (", must trump" if follow.must_trump else "")
                 + (", must beat" if follow.must_beat else "")))
    layout = game.layout
    rows.append(("layout", {"hands": "hands", "piles": f"{getattr(layout, 'count', 0)} piles each (up on down)",
                            "stock": f"hands of {getattr(layout, 'hand', 0)} and a stock"}[layout.name]))
    rows.append(("first leader", f"seat {game.first_leader}"))
    if rules.last_trick_bonus:
        rows.append(("last trick", str(rules.last_trick_bonus)))
    if game.rule_file:
        k = _Compiler(read_data(Path(game.rule_file)), game.rule_file)
        t = k.thresholds(_total(rules))
        rows.append(("win", f"side 1 with {t.win[0]}, side 2 with {t.win[1]} {rules.unit} "
                            f"(score {t.score}); else: {t.tie_text}"))
        for level in t.levels:
            cond = ("the loser took no trick" if level.loser_no_trick else
                    f"the loser has at most {level.loser_at_most}" if level.loser_at_most is not None
                    else f"the winner has at least {level.winner_at_least}")
            rows.append((level.name, f"{cond} (score {level.score})"))
    rows += [("source", text) for text in game.sources]
    if game.rule_file:
        rows.append(("rule file", game.rule_file))
    return rows

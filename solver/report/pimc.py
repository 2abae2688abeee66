"""The text of the player's game of a tactics study (``stich.study.pimc``): the advice's cost
where the other side cannot see, beside a random card at the same moments."""

from __future__ import annotations

import math


def _figure(est: dict) -> str:
    mean, (low, high) = est["mean"], est["interval"]
    if mean is None or math.isnan(mean):
        return "—"
    if low is None or math.isnan(low):
        return f"{mean:.2f}"
    return f"{mean:.2f} [{low:.2f}, {high:.2f}]"


def player_game_report(table: dict, unit: str | None) -> str:
    """One line per tactic: its cost and a random card's in the player's game."""
    who = {("player", "perfect"): "the other side plays by PIMC, the advised seat perfectly where the advice is silent",
           ("perfect", "player"): "the advised seat plays by PIMC where the advice is silent, the other side perfectly",
           ("player", "player"): "both sides play by PIMC (the advised seat where the advice is silent)"}
    lines = ["", f"In the player's game ({who[(table['opponent'], table['mover'])]}; "
                 f"{table['layouts']} layouts per decision):",
             f"  cost = {table['estimand']}; {unit or 'the game unit'}, 95% interval over deals.",
             f"  {'tactic':44} {'deals':>5}  {'advice costs':>22}  {'random card costs':>22}"]
    for row in table["tactics"]:
        lines.append(f"  {row['tactic']:44} {row['deals']:>5}  {_figure(row['uniform']):>22}  "
                     f"{_figure(row['random']):>22}")
    return "\n".join(lines)

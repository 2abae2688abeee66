"""What "playing perfectly" means: for the totals, or for what the game scores.

``total``: each side maximises its own final total (tricks, card points, honours); where
bonuses add to the points outside the tricks (the pair and run bonuses, e.g. Mariage's
marriages and Wäsche), the difference of the two totals.  ``score``: each side plays for the
best outcome in the game's own terms (see ``stich.model.outcome``); the outcome both can force is
found on the game's ladder with null-window and streak searches, never by solving the totals
exactly.  Where bonuses are scored apart (strokes), the score is not constant-sum: each side
plays for its own score minus the other's (``score_objective``), one exact search.

The questions themselves are asked of a ``stich.search.session.Session``; the ladder walk is in
``stich.search.ladder``, the lines in ``stich.search.lines``.
"""

from __future__ import annotations

from stich.model.position import Position

OBJECTIVES = ("score", "total")


class SolverError(RuntimeError):
    """The solver contradicted itself (a bug, never bad input)."""


def total_objective(position: Position) -> dict:
    """Engine settings for the totals: side 0's points, or (with extras) the difference."""
    if position.rules.constant_sum:
        return {"mode": "points", "side": 0}
    return {"mode": "points", "side": 0, "trick_scale": 2, "extra_own": 1, "extra_other": 1}


def score_objective(position: Position) -> dict | None:
    """Engine settings for the score where bonuses are scored apart from the points: the
    game's final payoff plus the bonuses, side 0's minus side 1's (None: the score is found
    on the ladder)."""
    rules = position.rules
    if rules.final_payoff is None or rules.bonus_in_points:
        return None
    return {"mode": "points", "side": 0, "trick_scale": 0, "extra_own": 1, "extra_other": 1,
            "goal": True}

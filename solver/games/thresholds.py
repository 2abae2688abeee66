"""Outcomes from thresholds: a win by points (or tricks) per side, levels above a simple win.

A rule file's ``[outcome]`` table compiles into ``Thresholds``, which gives the two functions
every game provides (``stich.model.outcome``): ``outcome(final)`` and ``ladder(position)``.  Levels
are listed from the lowest to the highest and each must imply the one before (Schwarz implies
Schneider): then "side wins with level >= j" is one threshold on seat 1's final total, or, for a
level "the loser takes no trick", a streak of every remaining trick.  The total is fixed once a
deal starts (constant-sum), which is what rule-file games are.
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.model.outcome import ALWAYS, AtLeast, Outcome, Rung, Streak, tricks_of
from stich.model.position import Position
from stich.model.protocols import DealFacts
from stich.model.rules import side_label


@dataclass(frozen=True)
class Level:
    """A level above a simple win: the loser has at most ``loser_at_most``, the winner at least
    ``winner_at_least``, or (``loser_no_trick``) the loser took no trick."""

    name: str
    score: int
    loser_at_most: int | None = None
    winner_at_least: int | None = None
    loser_no_trick: bool = False

    def need(self, total: int) -> int | None:
        """The winner's least final total for this level (None: a trick condition)."""
        if self.loser_no_trick:
            return None
        needs = []
        if self.loser_at_most is not None:
            needs.append(total - self.loser_at_most)
        if self.winner_at_least is not None:
            needs.append(self.winner_at_least)
        return max(needs)


@dataclass(frozen=True)
class Thresholds:
    win: tuple[int, int]            # the least total with which side 0 / side 1 wins
    score: int = 1                  # what a simple win scores
    levels: tuple[Level, ...] = ()  # lowest first
    tie_text: str = "neither side reached its winning total"
    simple: str = "simple"

    # --- a finished deal ------------------------------------------------------------------------

    def winner(self, p0: int, p1: int) -> int | None:
        """Side 0 wins first (so the result is monotone in side 0's total), then side 1."""
        return 0 if p0 >= self.win[0] else 1 if p1 >= self.win[1] else None

    def level_of(self, final: Position, winner: int) -> int:
        """0 for a simple win, j for ``levels[j - 1]``."""
        p, total, loser = final.points, sum(final.points), 1 - winner
        got = 0
        for j, level in enumerate(self.levels, 1):
            need = level.need(total)            # None: a trick condition
            ok = tricks_of(final, loser) == 0 if need is None else p[winner] >= need
            if ok:
                got = j
        return got

    def outcome(self, final: Position, deal: DealFacts) -> Outcome:
        p, k = final.points, len(self.levels)
        rules = final.rules
        winner = self.winner(p[0], p[1])
        if winner is None:
            return Outcome(None, "tie", 0, f"{p[0]}–{p[1]}: {self.tie_text}", rank=k + 1)
        j = self.level_of(final, winner)
        name = self.levels[j - 1].name if j else self.simple
        score = self.levels[j - 1].score if j else self.score
        rank = k + 2 + j if winner == 0 else k - j
        who = side_label(rules, winner)
        text = (f"{who.capitalize()} {'win' if who.startswith('seats') else 'wins'}"
                f"{'' if j == 0 else ' ' + name} {p[winner]}–{p[1 - winner]} ({score})")
        return Outcome(winner + 1, name, score, text, rank=rank)

    # --- the ladder -----------------------------------------------------------------------------

    def _at_least(self, side: int, j: int, position: Position, total: int, rest: int, left: int):
        """The condition "``side`` wins with a level >= j", as a condition on seat 1's side being
        at least that good (side 0) or None when it cannot happen; for side 1 the caller negates."""
        win = self.win[side]
        level = self.levels[j - 1] if j else None
        if level is not None and level.loser_no_trick:
            if position.has_won(1 - side) or position.points[side] + rest < win:
                return None
            return "streak"
        need = level.need(total) if level is not None else None
        return win if need is None else max(win, need)

    def ladder(self, position: Position, deal: DealFacts) -> list[Rung]:
        """Seat 1's side, best first: its levels from the highest, the tie, then the other
        side's levels from the lowest; each rung's condition "at least this good for side 0"."""
        rules = position.rules
        left = position.tricks_left()
        rest = (sum(rules.values[c] for c in position.in_play()) + rules.trick_bonus * left
                + (rules.last_trick_bonus if left else 0))
        total = sum(position.points) + rest
        k = len(self.levels)
        rungs = []
        for j in range(k, -1, -1):                       # side 0 wins with level >= j
            need = self._at_least(0, j, position, total, rest, left)
            name = self.levels[j - 1].name if j else self.simple
            if need is None:
                continue
            cond = Streak(0, left) if need == "streak" else AtLeast(need)
            rungs.append(Rung(k + 2 + j, name, 0, cond))
        # the tie: side 1 does not win (side 0 wins first: see ``winner``)
        first = self.win[0]
        rungs.append(Rung(k + 1, "tie", None, AtLeast(min(first, total - self.win[1] + 1))))
        for j in range(0, k + 1):                        # side 1 wins with level j, not above
            name = self.levels[j - 1].name if j else self.simple
            if j == k:
                rungs.append(Rung(k - j, name, 1, ALWAYS))
                continue
            need = self._at_least(1, j + 1, position, total, rest, left)
            if need is None or (need == "streak" and position.points[0] >= first):
                cond = ALWAYS
            elif need == "streak":
                cond = Streak(1, left, negate=True)
            else:
                cond = AtLeast(min(first, total - need + 1))
            rungs.append(Rung(k - j, name, 1, cond))
        return rungs

"""What "playing perfectly" means: for the totals, or for what the game scores.

``total``: each side maximises its own final total (tricks, card points, honours); where
bonuses add to the points outside the tricks (the pair and run bonuses, e.g. Mariage's
marriages and Wäsche), the difference of the two totals.  ``score``: each side plays for the
best outcome in the game's own terms (see ``solver.outcome``); the outcome both can force is
found on the game's ladder with null-window and streak searches, never by solving the totals
exactly.  Where bonuses are scored apart (strokes), the score is not constant-sum: each side
plays for its own score minus the other's (``score_objective``), one exact search.

``Searcher`` wraps an engine set to a position of one deal and answers these questions;
``line`` follows one optimal continuation for either objective.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._search import Engine
from .deal import Deal
from .outcome import ALWAYS, AtLeast, Lead, Own, Rung, Streak
from .position import Move, Position
from .tables import Tables, compile_position

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


@dataclass
class Searcher:
    """An engine set up on ``position`` (moved along with ``push``/``pop``, mirrored by a
    referee so the game's history is known), answering questions about the current node."""

    engine: Engine
    deal: Deal
    root: Position
    tables: Tables

    @classmethod
    def start(cls, deal: Deal, position: Position, engine: Engine, keep_tt: bool = False) -> "Searcher":
        tables = compile_position(position)
        engine.setup(tables.as_dict(), keep_tt)
        engine.objective(**total_objective(position))
        searcher = cls(engine, deal, position, tables)
        searcher.played: list[tuple[int, int | None]] = []
        searcher.referees: list[Position | None] = [position.copy()]
        searcher.gained: list[int] = [0]
        return searcher

    # --- moving ---------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The referee's position at the current node, played out only when asked for (most
        questions need only the engine)."""
        depth = len(self.played)
        known = depth
        while self.referees[known] is None:
            known -= 1
        referee = self.referees[known]
        for k in range(known, depth):
            referee = referee.copy()
            index, pair = self.played[k]
            referee.play(self.tables.cards[index], check=False, pair=pair)
            self.referees[k + 1] = referee
        return referee

    def shown_by(self, move: int) -> int | None:
        """The pair ``move`` would show here (None: none)."""
        pair = self.engine.shown_by(move)
        return None if pair < 0 else pair

    def move_of(self, move: int) -> Move:
        return Move(self.tables.cards[move & 63], self.shown_by(move))

    def push(self, move: int) -> int:
        pair = self.shown_by(move)
        gain = self.engine.push(move)
        self.played.append((move & 63, pair))
        self.referees.append(None)
        self.gained.append(self.gained[-1] + gain)
        return gain

    def pop(self) -> None:
        self.engine.pop()
        self.played.pop()
        self.referees.pop()
        self.gained.pop()

    def classes(self, ordered: bool = False) -> list[list[int]]:
        return self.engine.classes(ordered)

    def maximising(self) -> bool:
        return self.root.rules.side(self.engine.to_move) == 0

    # --- the totals -------------------------------------------------------------------------

    def value(self, guess: int | None = None) -> int:
        """Exact value under the total objective from the current node."""
        return self.engine.value(guess, **self.deal.game_spec.search)

    def bounded_value(self, at_least: int | None = None, at_most: int | None = None,
                      guess: int | None = None) -> int:
        """Exact value under the total objective, when it is already known to lie within
        ``at_least`` and ``at_most`` (either may be None)."""
        return self.engine.value(guess, at_least=at_least, at_most=at_most,
                                 **self.deal.game_spec.search)

    @staticmethod
    def child_bounds(parent: int, gain: int, maximiser_moved: bool) -> dict:
        """What a node of value ``parent`` says of its child after a move that earned
        ``gain``: the mover's side cannot have done better than ``parent``, which bounds the
        child on one side and saves the search that would prove it (an optimal move costs
        one null-window search).  Keywords for ``bounded_value``."""
        bound = parent - gain
        if maximiser_moved:
            return {"guess": bound, "at_most": bound}
        return {"guess": bound, "at_least": bound}

    def final_totals(self, value: int) -> tuple[int, int]:
        """Both sides' final totals when the rest is played for the totals, from the current
        node whose value is ``value``: the points so far plus the value where the game is
        constant-sum; otherwise (extras) those of a best line, played out by the referee."""
        position = self.position
        if self.engine.tricks_left == 0:
            return (position.points[0], position.points[1])
        if position.rules.constant_sum:
            rest = self.engine.remaining
            return (position.points[0] + value, position.points[1] + rest - value)
        final = replay_line(position, self.moves_of(self.line(value)))[2]
        return (final.points[0], final.points[1])

    def at_least(self, target: int) -> bool:
        return self.engine.test(target)

    def final_points_at_least(self, total: int) -> bool:
        """Does side 0 end with at least ``total`` (constant-sum games: what side 0 has now is
        what it had at the start plus what the moves since earned)?"""
        return self.engine.test(total - self.root.points[0] - self.gained[-1])

    # --- streaks and the ladder ---------------------------------------------------------------

    def streak_at_least(self, side: int, tricks: int) -> bool:
        """Can ``side`` win each of the next ``tricks`` tricks against any defence?"""
        if tricks <= 0:
            return True
        if tricks > self.engine.tricks_left:
            return False
        self.engine.objective(mode="streak", side=side)
        try:
            return self.engine.test(tricks)
        finally:
            self.engine.objective(**total_objective(self.root))

    def own_at_least(self, side: int, total: int) -> bool:
        """Can ``side`` end with at least ``total`` of its own (extras it wins included)?"""
        self.engine.objective(mode="points", side=side, extra_own=1)
        try:
            return self.engine.test(total - self.position.points[side])
        finally:
            self.engine.objective(**total_objective(self.root))

    def lead_at_least(self, margin: int) -> bool:
        """Can seat 1's side end at least ``margin`` ahead?  Under the difference objective
        the value is 2 x trick points + own extras - other extras still to come."""
        self.engine.objective(mode="points", side=0, trick_scale=2, extra_own=1, extra_other=1)
        try:
            points = self.position.points
            return self.engine.test(margin - points[0] + points[1] + self.engine.remaining)
        finally:
            self.engine.objective(**total_objective(self.root))

    def holds(self, condition) -> bool:
        if condition is ALWAYS:
            return True
        if isinstance(condition, AtLeast):
            return self.final_points_at_least(condition.total)
        if isinstance(condition, Own):
            return self.own_at_least(condition.side, condition.total) != condition.negate
        if isinstance(condition, Lead):
            return self.lead_at_least(condition.margin)
        return self.streak_at_least(condition.side, condition.tricks) != condition.negate

    def ladder(self) -> list[Rung]:
        ladder = self.deal.game_spec.ladder
        return ladder(self.position, self.deal) if ladder else []

    def forced_rung(self, known_total: int | None = None) -> Rung | None:
        """The best rung for side 0 that holds under perfect play (None: the game has no
        ladder for these rules).  ``known_total``: side 0's exact final total, if known,
        answers point thresholds without searching."""
        span = None if known_total is None else (known_total, known_total)
        for rung in self.ladder():
            verdict = decided(rung.condition, span)
            if verdict is None:
                verdict = self.holds(rung.condition)
            if verdict:
                return rung
        return None

    def keeps_rung(self, rank: int, maximiser_moved: bool) -> bool:
        """After a move: is the outcome still exactly ``rank`` under perfect play?  The side
        that moved can only have kept it or made it worse for itself, so one condition
        decides: side 0 kept "at least rank", side 1 kept "not better than rank"."""
        ladder = self.ladder()
        if maximiser_moved:
            rung = next((r for r in ladder if r.rank == rank), None)
            return rung is not None and self.holds(rung.condition)
        better = [r for r in ladder if r.rank > rank]
        return not better or not self.holds(better[-1].condition)

    # --- lines ------------------------------------------------------------------------------

    def moves_of(self, line: list[int]) -> list[Move]:
        """Engine moves of a line from the current node as (card, pair shown)."""
        out = []
        for move in line:
            out.append(self.move_of(move))
            self.push(move)
        for _ in line:
            self.pop()
        return out

    def score_value(self) -> int:
        """The exact value under ``score_objective`` (the engine is left set to it)."""
        self.engine.objective(**score_objective(self.root))
        return self.engine.value(None, **self.deal.game_spec.search)

    def total_mode(self) -> None:
        self.engine.objective(**total_objective(self.root))

    def score_after(self, move: int) -> int:
        """The value under ``score_objective`` after ``move``, counting what it earned."""
        self.engine.objective(**score_objective(self.root))
        try:
            gain = self.push(move)
            try:
                rest = self.engine.value(None, **self.deal.game_spec.search) if self.engine.tricks_left else 0
            finally:
                self.pop()
            return gain + rest
        finally:
            self.total_mode()

    def line(self, value: int, rank: int | None = None) -> list[int]:
        """One optimal continuation to the end.  Each step takes the first card (in the order
        the engine lists them) that keeps the total value and, with ``rank``, the outcome; if
        no card keeps both (playing for the score can cost totals), the first that keeps the
        outcome, and the value is searched again from there."""
        if rank is None:
            return self.engine.line(value)
        line: list[int] = []
        current = value
        # a level that is a threshold on side 0's total is kept by any card of side 0 that
        # keeps the total value (the same rank always has the same threshold in one deal)
        points_level = rank is not None and any(r.rank == rank and isinstance(r.condition, AtLeast)
                                                for r in self.ladder())
        try:
            while self.engine.tricks_left > 0:
                maximise = self.maximising()
                chosen = fallback = None
                for group in self.classes(ordered=True):
                    card = group[0]
                    rest = current - self.push(card)
                    keeps_value = self.at_least(rest) if maximise else not self.at_least(rest + 1)
                    if keeps_value and maximise and points_level:
                        keeps_rank = True
                    elif keeps_value or fallback is None:
                        keeps_rank = rank is None or self.keeps_rung(rank, maximise)
                    else:
                        keeps_rank = False
                    self.pop()
                    if keeps_rank and keeps_value:
                        chosen = card
                        break
                    if keeps_rank and fallback is None:
                        fallback = card
                card = chosen if chosen is not None else fallback
                if card is None:
                    raise SolverError("no card keeps the value: the search contradicts itself")
                gain = self.push(card)
                line.append(card)
                current = current - gain if chosen is not None else self.value()
        finally:
            for _ in line:
                self.pop()
        return line


def decided(condition, span: tuple[int, int] | None) -> bool | None:
    """What side 0's final total alone, known to lie in ``span`` (low, high), decides about
    a ladder condition: True or False, or None when a search must decide."""
    if condition is ALWAYS:
        return True
    if span is None:
        return None
    low, high = span
    if isinstance(condition, AtLeast):
        if low >= condition.total:
            return True
        return False if high < condition.total else None
    if isinstance(condition, Streak) and condition.needs:
        need_low, need_high = condition.needs
        if high < need_low or low > need_high:      # the run cannot happen with these totals
            return condition.negate
    return None


def replay_line(position: Position, line) -> tuple[tuple, tuple, Position]:
    """Play a line (cards, or ``Move``s with the pairs shown) with the referee (it must be
    legal) to the end: the tricks as (leader, cards, winner) with 1-based seats, the pairs
    shown as (seat, lead card, bonus, pair), and the final position."""
    referee = position.copy()
    records = []
    for item in line:
        move = item if isinstance(item, Move) else Move(item)
        record = referee.play(move.card, pair=move.pair)
        if record is not None:
            records.append(record)
    if not referee.is_over():
        raise SolverError("the line stops before the end of the deal")
    tricks = tuple((r.leader + 1, tuple(r.cards), r.winner + 1) for r in records)
    # a pair is shown with a trick's lead card; a trick begun before the line was led (and
    # its pair shown) before it
    announcements = tuple((r.leader + 1, r.cards[0], r.pair_bonus, r.pair)
                          for k, r in enumerate(records)
                          if r.pair is not None and (k > 0 or not position.trick))
    return tricks, announcements, referee

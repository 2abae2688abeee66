"""One search session: an engine set up on a position of one deal, moved along a line.

Every question the analyses ask is asked of a ``Session``: the value under the totals, "does
this condition hold under perfect play?" (``holds``), "what does each legal card lead to?"
(``moves``: the ONE push / test / pop loop over the position's classes of equivalent cards),
and questions under another objective (``with session.objective(...)``, which restores the
totals objective afterwards).  The session mirrors the engine with a referee position, played
out only when asked for, so the game's history is known at every node.

A session may carry a budget (``stich.core.anytime.Budget``): ``guarded(step)`` runs searches
within it and raises ``Stopped`` with what is proven when it runs out.  The ladder walk is in
``stich.search.ladder``, the line searches in ``stich.search.lines``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeVar

from stich.core._search import Engine
from stich.core.anytime import Budget, Limits, Stopped
from stich.core.tables import Tables, compile_position
from stich.deals.deal import Deal
from stich.model.outcome import ALWAYS, Rung
from stich.model.position import Move, Position

from .objectives import score_objective, total_objective
from .playout import replay_line

T = TypeVar("T")
SAME_LADDER = object()      # Session.ladders: this node's ladder is its parent's


@dataclass(frozen=True)
class Child:
    """A legal move being looked at: its class of equivalent moves (engine indices; the first
    is the one pushed), its number in the listing, and what it earned."""

    number: int
    group: list[int]
    gain: int

    @property
    def move(self) -> int:
        return self.group[0]


class _After:
    """``Session.after``: the move pushed on the way in, popped on the way out (a plain
    class: a generator's context manager costs more than a small position's questions)."""

    __slots__ = ("session", "move")

    def __init__(self, session: Session, move: int):
        self.session = session
        self.move = move

    def __enter__(self) -> int:
        return self.session.push(self.move)

    def __exit__(self, *exc: object) -> None:
        self.session.pop()


class _Objective:
    """``Session.objective``: the engine set to ``settings`` on the way in, to the totals
    on the way out."""

    __slots__ = ("session", "settings")

    def __init__(self, session: Session, settings: dict):
        self.session = session
        self.settings = settings

    def __enter__(self) -> None:
        self.session.engine.objective(**self.settings)

    def __exit__(self, *exc: object) -> None:
        self.session.total_mode()


class Session:
    """An engine set up on ``position`` of ``deal`` (moved along with ``push``/``pop``),
    answering questions about the current node."""

    def __init__(self, deal: Deal, position: Position, engine: Engine, keep_tt: bool = False,
                 limits: Limits | None = None):
        self.engine = engine
        self.deal = deal
        self.root = position
        self.tables: Tables = compile_position(position)
        engine.setup(self.tables.as_dict(), keep_tt)
        self.totals_settings = total_objective(position)     # read, never changed
        engine.objective(**self.totals_settings)
        # constant-sum: both sides' final totals always add up to this
        self.whole = (position.points[0] + position.points[1] + engine.remaining
                      if position.rules.constant_sum else None)
        self.budget = Budget(engine, limits or Limits())
        self.stopped: str | None = None       # why a guarded search stopped first, if one did
        self.played: list[tuple[int, int | None]] = []
        self.referees: list[Position | None] = [position.copy()]
        self.gained: list[int] = [0]
        # the ladder at each node, worked out when asked; SAME_LADDER: the parent's (``push``)
        self.ladders: list[Any] = [None]

    # --- moving ---------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The referee's position at the current node, played out only when asked for (most
        questions need only the engine)."""
        return self._referee_at(len(self.played))

    def _referee_at(self, depth: int) -> Position:
        """The referee's position after the first ``depth`` moves played."""
        known = depth
        while self.referees[known] is None:
            known -= 1
        referee = self.referees[known]
        assert referee is not None          # the loop above stopped at a known one
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

    def cards_of(self, group) -> tuple:
        return tuple(self.tables.cards[i & 63] for i in group)

    def push(self, move: int) -> int:
        pair = self.shown_by(move)
        gain = self.engine.push(move)
        self.played.append((move & 63, pair))
        self.referees.append(None)
        self.gained.append(self.gained[-1] + gain)
        # a card inside a trick that shows no pair changes nothing a ladder reads (Game.ladder)
        self.ladders.append(SAME_LADDER if pair is None and self.engine.trick_length else None)
        return gain

    def pop(self) -> None:
        self.engine.pop()
        self.played.pop()
        self.referees.pop()
        self.gained.pop()
        self.ladders.pop()

    def classes(self, ordered: bool = False) -> list[list[int]]:
        return self.engine.classes(ordered)

    def after(self, move: int) -> _After:
        """The node after ``move`` (what it earned), for the questions asked inside."""
        return _After(self, move)

    def moves(self, ordered: bool = False) -> Generator[Child, None, None]:
        """Each class of equivalent legal moves, its first move pushed while the caller looks
        at the child (and popped when the caller goes on, breaks or raises).  A caller that
        leaves the loop early closes it (``contextlib.closing``): else the move is popped
        when the generator is collected, where Python swallows a Ctrl-C that arrives then."""
        for number, group in enumerate(self.classes(ordered)):
            with self.after(group[0]) as gain:
                yield Child(number, group, gain)

    def side_to_move(self) -> int:
        return self.root.rules.side(self.engine.to_move)

    def maximising(self) -> bool:
        return self.side_to_move() == 0

    @property
    def over(self) -> bool:
        return self.engine.tricks_left == 0

    # --- objectives and budget ------------------------------------------------------------

    def objective(self, settings: dict) -> _Objective:
        """The engine set to another objective (``Engine.objective`` keywords) for the
        questions asked inside; the totals objective again afterwards."""
        return _Objective(self, settings)

    def total_mode(self) -> None:
        self.engine.objective(**self.totals_settings)

    def limit(self, limits: Limits | None) -> None:
        """A new budget, counted from now, for the questions asked from here on."""
        self.budget = Budget(self.engine, limits or Limits())

    def guarded(self, step: Callable[[], T]) -> T:
        """``step()`` (any searches) within the session's budget; ``Stopped`` with what is
        proven when it runs out or on Ctrl-C (after Ctrl-C nothing more is searched)."""
        return self._spend(lambda: self.budget.run(step))

    def limited_value(self, progress=None, **bounds) -> int:
        """The exact value (``bounded_value`` keywords) within the budget, in slices when
        there is a time limit or ``progress(lo, hi)``; ``Stopped`` with the proven bounds."""
        return self._spend(lambda: self.budget.value(self.bounded_value, progress=progress, **bounds))

    def attempt(self, step: Callable[[], T], default=None):
        """``step()`` within the budget, or ``default`` when it runs out (``stopped`` says why)."""
        try:
            return self.guarded(step)
        except Stopped:
            return default

    def _spend(self, search: Callable[[], T]) -> T:
        if self.stopped == "interrupt":
            raise Stopped("interrupt", *self.engine.value_range)
        try:
            return search()
        except Stopped as stop:
            self.stopped = self.stopped or stop.reason
            raise

    # --- the totals -------------------------------------------------------------------------

    def value(self, guess: int | None = None) -> int:
        """Exact value under the total objective from the current node."""
        return self.engine.value(guess, **self.deal.game_spec.search)

    def first_guess(self) -> int:
        """The first guess the game's value search starts from at the current node (its
        ``search`` settings' ``first``), for a driver run outside ``value``: the threads'."""
        return self.engine.first_guess(self.deal.game_spec.search.get("first", "half"))

    def bounded_value(self, at_least: int | None = None, at_most: int | None = None,
                      guess: int | None = None) -> int:
        """Exact value under the total objective, when it is already known to lie within
        ``at_least`` and ``at_most`` (either may be None)."""
        return self.engine.value(guess, at_least=at_least, at_most=at_most,
                                 **self.deal.game_spec.search)

    def value_after(self, child: Child, parent: int | None = None) -> int:
        """The value of the node before ``child``'s move as that move leads on: what it
        earned plus the rest (``parent``: the node's value, which bounds the child)."""
        if self.over:
            return child.gain
        if parent is None:
            return child.gain + self.value()
        return child.gain + self.value(parent - child.gain)

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

    def at_least(self, target: int) -> bool:
        return self.engine.test(target)

    def keeps(self, rest: int, maximiser_moved: bool) -> bool:
        """After a move, is the value from here still ``rest`` (the mover's side cannot have
        done better, so one null-window test decides)?"""
        if self.over:
            return rest == 0
        return self.at_least(rest) if maximiser_moved else not self.at_least(rest + 1)

    def final_totals(self, value: int) -> tuple[int, int]:
        """Both sides' final totals when the rest is played for the totals, from the current
        node whose value is ``value``: the points so far plus the value where the game is
        constant-sum; otherwise (extras) those of a best line, played out by the referee."""
        if self.whole is not None:          # constant-sum: arithmetic, no referee needed
            side0 = self.side0_final(0 if self.over else value)
            return (side0, self.whole - side0)
        position = self.position
        if self.over:
            return (position.points[0], position.points[1])
        final = replay_line(position, self.moves_of(self.engine.line(value)))[2]
        return (final.points[0], final.points[1])

    def final_points_at_least(self, total: int) -> bool:
        """Does side 0 end with at least ``total`` (constant-sum games)?"""
        return self.engine.test(total - self.side0_final(0))

    def side0_final(self, rest: int) -> int:
        """Side 0's final total when ``rest`` more comes to it from the current node
        (constant-sum games: what side 0 has now is what it had at the start plus what the
        moves since earned)."""
        return self.root.points[0] + self.gained[-1] + rest

    def moves_of(self, line: list[int]) -> list[Move]:
        """Engine moves of a line from the current node as (card, pair shown)."""
        if not self.tables.pairs:       # no pair to show: the cards alone, nothing to play out
            return [Move(self.tables.cards[move & 63]) for move in line]
        out = []
        for move in line:
            out.append(self.move_of(move))
            self.push(move)
        for _ in line:
            self.pop()
        return out

    # --- conditions -------------------------------------------------------------------------

    def streak_at_least(self, side: int, tricks: int) -> bool:
        """Can ``side`` win each of the next ``tricks`` tricks against any defence?"""
        if tricks <= 0:
            return True
        if tricks > self.engine.tricks_left:
            return False
        with self.objective({"mode": "streak", "side": side}):
            return self.engine.test(tricks)

    def own_at_least(self, side: int, total: int) -> bool:
        """Can ``side`` end with at least ``total`` of its own (extras it wins included)?"""
        with self.objective({"mode": "points", "side": side, "extra_own": 1}):
            return self.engine.test(total - self.position.points[side])

    def lead_at_least(self, margin: int) -> bool:
        """Can seat 1's side end at least ``margin`` ahead?  Under the difference objective
        the value is 2 x trick points + own extras - other extras still to come."""
        with self.objective({"mode": "points", "side": 0, "trick_scale": 2, "extra_own": 1,
                             "extra_other": 1}):
            points = self.position.points
            return self.engine.test(margin - points[0] + points[1] + self.engine.remaining)

    def holds(self, condition) -> bool:
        """Does ``condition`` (a ladder condition of ``stich.model.outcome``) hold under perfect
        play from here?  Each condition knows which question it is."""
        if condition is ALWAYS:
            return True
        return condition.holds_in(self)

    def ladder(self) -> list[Rung]:
        """The game's outcome ladder at the current node, worked out once per node and
        shared by the cards played inside a trick (the referee is not played out for them)."""
        depth = len(self.ladders) - 1
        while self.ladders[depth] is SAME_LADDER:
            depth -= 1
        if self.ladders[depth] is None:
            self.ladders[depth] = self.deal.game_spec.ladder(self._referee_at(depth), self.deal)
        return self.ladders[depth]

    # --- the score where bonuses are scored apart ---------------------------------------------

    def _score_settings(self) -> dict[str, Any]:
        """The engine settings of the score scored apart (asked only in such a game)."""
        settings = score_objective(self.root)
        if settings is None:
            raise ValueError("this game's score is found on its ladder, not scored apart")
        return settings

    def score_value(self) -> int:
        """The exact value under ``score_objective`` (the engine is left set to it)."""
        self.engine.objective(**self._score_settings())
        return self.engine.value(None, **self.deal.game_spec.search)

    def score_after(self, move: int) -> int:
        """The value under ``score_objective`` after ``move``, counting what it earned."""
        with self.objective(self._score_settings()):
            gain = self.push(move)
            try:
                rest = self.engine.value(None, **self.deal.game_spec.search) if not self.over else 0
            finally:
                self.pop()
            return gain + rest

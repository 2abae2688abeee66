"""Puzzles: can a side reach a goal against every defence, and is the solution unique?

A goal is a threshold on the side's final total (``tricks>=5``, ``points>=61``,
``honours>=15``, ``total>=k``), or an outcome: ``win``, ``schneider``, ``schwarz`` (every
trick, or all 20 honours in Elfern), ``tout`` (Scharwenzel: every trick), ``first``
(Scharwenzel: a win for the first).  Every question is a null-window or streak search.

Verdicts: ``sound`` (exactly one key move: every other first move fails; equivalent cards
count as one move), ``cooked`` (several key moves), ``unreachable``.  The main line follows
the first key move and the defence's best try (the reply that leaves the solver the lowest
total); an unreachable goal gets a refutation: the defence's answer to each first move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..cards import Card
from ..deal import Deal, DealError
from ..games.base import side_label
from ..objectives import Searcher
from ..outcome import Rung
from ..solve import DEFAULT_TT_MEGABYTES, new_engine

GOAL_WORDS = ("win", "schneider", "schwarz", "tout", "first")   # the words some game offers
GOAL_HELP = ("tricks>=N, points>=N, honours>=N, total>=N (the side's final total), win, "
             "schneider, schwarz, tout, first")


@dataclass(frozen=True)
class Goal:
    text: str
    side: int                       # 0 or 1
    kind: str                       # "total", "streak" or "level"
    target: int = 0                 # total: the side's final total; streak: tricks in a row
    level: str = ""                 # level: the outcome level (and better)

    def describe(self, deal: Deal) -> str:
        return f"{side_label(deal.rule_set, self.side)}: {self.text}"


MAX_GOAL = 1_000_000     # far above any game's total (Elfern 20, Schafkopf 130, Scharwenzel 8 tricks)


def parse_goal(text: str, deal: Deal, side: int) -> Goal:
    """Read a goal for ``side`` (0: seat 1's side).  Bad goals raise DealError (exit 2)."""
    raw = text.strip().lower().replace(" ", "")
    unit = deal.rule_set.unit
    match = re.fullmatch(r"(tricks|points|honours|honors|total)>=(\d+)", raw)
    if match:
        word = "honours" if match.group(1) == "honors" else match.group(1)
        if word != "total" and word != unit:
            raise DealError(f"{deal.game} counts {unit}, not {word} (use {unit}>=N or total>=N)",
                            "--goal", deal.source)
        # a number beyond any deal is simply unreachable; cap it so the engine's integers hold it
        return Goal(text, side, "total", min(int(match.group(2)[:12]), MAX_GOAL))
    spec = deal.game_spec
    word = spec.goals.get(raw)
    if word is None and raw in GOAL_WORDS:
        raise DealError(f"{spec.title} has no goal {raw!r} (goals: {', '.join(spec.goals)}, "
                        f"{unit}>=N, total>=N)", "--goal", deal.source)
    if word is not None and word.kind == "streak":
        position = deal.position()
        if position.has_won(1 - side):
            raise DealError("the other side has already won a trick", "--goal", deal.source)
        return Goal(text, side, "streak", position.tricks_left())
    if word is not None and word.kind == "total":
        return Goal(text, side, "total", word.target)
    if word is not None:
        return Goal(text, side, "level", level=raw)
    raise DealError(f"unknown goal {text!r} (goals: {GOAL_HELP})", "--goal", deal.source)


class GoalSearch:
    """Answers "does the goal still hold under perfect play from here?" at any node."""

    def __init__(self, searcher: Searcher, goal: Goal):
        self.s, self.goal = searcher, goal

    def holds(self) -> bool:
        s, goal = self.s, self.goal
        if s.engine.tricks_left == 0:
            return self._holds_at_end()
        if goal.kind == "streak":
            return s.streak_at_least(goal.side, s.engine.tricks_left)
        if goal.kind == "total":
            return self._total_at_least(goal.side, goal.target)
        return self._level_holds()

    def _total_at_least(self, side: int, target: int) -> bool:
        """The side's own final total (extras such as marriages included) >= target."""
        engine, position = self.s.engine, self.s.position
        engine.objective(mode="points", side=side, extra_own=1)
        try:
            return engine.test(target - position.points[side])
        finally:
            from ..objectives import total_objective
            engine.objective(**total_objective(self.s.root))

    def _qualifies(self, rung: Rung) -> bool:
        """Is this rung the goal's level, or better, for the goal's side?"""
        if rung.winner != self.goal.side:
            return False
        return self.s.deal.game_spec.goals[self.goal.level].qualifies(rung)

    def _level_holds(self) -> bool:
        ladder = self.s.ladder()
        good = [r for r in ladder if self._qualifies(r)]
        if not good:
            return False
        if self.goal.side == 0:        # "at least as good as the worst good rung" for side 0
            return self.s.holds(min(good, key=lambda r: r.rank).condition)
        above = [r for r in ladder if r.rank > max(g.rank for g in good)]
        return not above or not self.s.holds(min(above, key=lambda r: r.rank).condition)

    def _holds_at_end(self) -> bool:
        s, goal = self.s, self.goal
        final = s.position
        if goal.kind == "total":
            return final.points[goal.side] >= goal.target
        if goal.kind == "streak":
            return not final.has_won(1 - goal.side)
        outcome = s.deal.game_spec.outcome(final, s.deal)
        if outcome.winner != goal.side + 1:
            return False
        if goal.level == "schneider":
            return outcome.level in ("schneider", "schwarz")
        if goal.level == "first":
            return outcome.level == "tout" or bool(outcome.bonuses.get("for_the_first"))
        return True


@dataclass(frozen=True)
class PuzzleResult:
    deal: Deal
    goal: Goal
    reachable: bool
    verdict: str                          # sound, cooked, unreachable
    key_moves: tuple[tuple[Card, ...], ...]   # groups of equivalent cards that keep the goal
    failing: tuple[tuple[Card, ...], ...]
    main_line: tuple[Card, ...]
    refutation: tuple[tuple[Card, tuple[Card, ...]], ...]   # first move -> defence line
    solver_to_move: bool
    nodes: int

    @property
    def exit_code(self) -> int:
        return {"sound": 0, "cooked": 3, "unreachable": 4}[self.verdict]


def solve_puzzle(deal: Deal, goal_text: str, side: int | None = None, *,
                 tt_megabytes: int = DEFAULT_TT_MEGABYTES) -> PuzzleResult:
    position = deal.position()
    if position.is_over():
        raise DealError("the deal is over: nothing to solve", "play", deal.source)
    side = position.rules.side(position.to_move) if side is None else side
    goal = parse_goal(goal_text, deal, side)
    engine = new_engine(tt_megabytes)
    searcher = Searcher.start(deal, position, engine)
    gs = GoalSearch(searcher, goal)
    reachable = gs.holds()
    solver_to_move = position.rules.side(position.to_move) == side
    key, failing = [], []
    for group in searcher.classes():
        searcher.push(group[0])
        ok = gs.holds()
        searcher.pop()
        cards = tuple(searcher.tables.cards[i & 63] for i in group)
        (key if ok else failing).append(cards)
    if not reachable:
        verdict = "unreachable"
    elif not solver_to_move or len(key) == 1:
        verdict = "sound"
    else:
        verdict = "cooked"
    main_line = _main_line(searcher, gs, side) if reachable else ()
    refutation = tuple(_refute(searcher, gs, side, group[0]) for group in searcher.classes()) \
        if not reachable and solver_to_move else ()
    return PuzzleResult(deal, goal, reachable, verdict, tuple(key), tuple(failing), main_line,
                        refutation, solver_to_move, engine.nodes)


def _defence_choice(searcher: Searcher, gs: GoalSearch, side: int, want_goal: bool) -> int:
    """The defence's best try: among replies with the goal's truth ``want_goal``, the one
    after which the solving side's exact total is lowest."""
    best, best_total = None, None
    for group in searcher.classes():
        searcher.push(group[0])
        ok = gs.holds()
        total = None
        if ok == want_goal:
            value = searcher.gained[-1] + (searcher.value() if searcher.engine.tricks_left else 0)
            total = value if side == 0 else -value
        searcher.pop()
        if total is not None and (best_total is None or total < best_total):
            best, best_total = group[0], total
    return best if best is not None else searcher.classes()[0][0]


def _solver_choice(searcher: Searcher, gs: GoalSearch) -> int:
    for group in searcher.classes():
        searcher.push(group[0])
        ok = gs.holds()
        searcher.pop()
        if ok:
            return group[0]
    return searcher.classes()[0][0]


def _main_line(searcher: Searcher, gs: GoalSearch, side: int) -> tuple[Card, ...]:
    line = []
    try:
        while searcher.engine.tricks_left > 0:
            solver_moves = searcher.position.rules.side(searcher.engine.to_move) == side
            card = _solver_choice(searcher, gs) if solver_moves else _defence_choice(searcher, gs, side, True)
            searcher.push(card)
            line.append(card)
    finally:
        for _ in line:
            searcher.pop()
    return tuple(searcher.tables.cards[i & 63] for i in line)


def _refute(searcher: Searcher, gs: GoalSearch, side: int, first: int):
    """After the solver's ``first`` card: the defence keeps the goal out of reach, and the
    solver fights on with its best total."""
    line = [first]
    searcher.push(first)
    try:
        while searcher.engine.tricks_left > 0:
            solver_moves = searcher.position.rules.side(searcher.engine.to_move) == side
            if solver_moves:
                card = _best_total(searcher, side)
            else:
                card = _defence_choice(searcher, gs, side, False)
            searcher.push(card)
            line.append(card)
    finally:
        for _ in line:
            searcher.pop()
    cards = [searcher.tables.cards[i & 63] for i in line]
    return (cards[0], tuple(cards[1:]))


def _best_total(searcher: Searcher, side: int) -> int:
    best, best_total = None, None
    for group in searcher.classes():
        searcher.push(group[0])
        total = searcher.gained[-1] + (searcher.value() if searcher.engine.tricks_left else 0)
        searcher.pop()
        total = total if side == 0 else -total
        if best_total is None or total > best_total:
            best, best_total = group[0], total
    return best

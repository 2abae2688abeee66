"""Puzzles: can a side reach a goal against every defence, and is the solution unique?

A goal is a threshold on the side's final total (``tricks>=5``, ``points>=61``,
``honours>=15``, ``total>=k``), or one of the game's goal words (``Game.goals``: ``win``, an
outcome level such as ``schneider`` or ``matsch``, ``tout``, ...), each a ``GoalWord`` that says
what it asks.  Every question is a null-window or streak search; at the end of the deal the
outcome itself answers, by its rank on the game's ladder.

Verdicts: ``sound`` (exactly one key move: every other first move fails; equivalent cards
count as one move), ``cooked`` (several key moves), ``unreachable``, ``reachable`` (the
defence is to move: the goal holds against each of its first moves, and with no first move
of the side's own there is no key to be unique), and, when a node or
time limit stops the work first, ``unknown`` (the first moves not decided are listed apart).  The main line follows
the first key move and the defence's best try (the reply that leaves the solver the lowest
total); an unreachable goal gets a refutation: the defence's answer to each first move.
"""

from __future__ import annotations

import re
from contextlib import closing
from dataclasses import dataclass

from stich.core.anytime import Limits
from stich.deals.deal import Deal, DealError
from stich.model.cards import Card
from stich.model.outcome import Rung
from stich.model.rules import side_label
from stich.search.session import Session
from stich.search.solve import DEFAULT_TT_MEGABYTES, new_engine


def goal_words() -> dict[str, list[str]]:
    """Each goal word some game offers, with the games that offer it."""
    from stich.games import GAMES
    words: dict[str, list[str]] = {}
    for name, game in sorted(GAMES.items()):
        for word in game.goals:
            words.setdefault(word, []).append(name)
    return words


def goal_help() -> str:
    """The goals, as the help text lists them: the totals, and each game's words."""
    games = "; ".join(f"{word} ({', '.join(names)})" for word, names in goal_words().items())
    return f"tricks>=N, points>=N, honours>=N, total>=N (the side's final total), or a game's word: {games}"


@dataclass(frozen=True)
class Goal:
    text: str
    side: int                       # 0 or 1
    kind: str                       # "total", "streak" or "level"
    target: int = 0                 # total: the side's final total; streak: tricks in a row
                                    # (-1: the other side has already won a trick)
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
    if word is None and raw in goal_words():
        raise DealError(f"{spec.title} has no goal {raw!r} (goals: {', '.join(spec.goals)}, "
                        f"{unit}>=N, total>=N)", "--goal", deal.source)
    if word is not None and word.kind == "streak":
        position = deal.position()
        # every trick, once the other side has won one: a fair question whose answer is no
        return Goal(text, side, "streak", -1 if position.has_won(1 - side) else position.tricks_left())
    if word is not None and word.kind == "total":
        return Goal(text, side, "total", word.target)
    if word is not None:
        return Goal(text, side, "level", level=raw)
    raise DealError(f"unknown goal {text!r} (goals of {spec.title}: {', '.join(spec.goals)}, "
                    f"{unit}>=N, total>=N)", "--goal", deal.source)


class GoalSearch:
    """Answers "does the goal still hold under perfect play from here?" at any node."""

    def __init__(self, session: Session, goal: Goal):
        self.s, self.goal = session, goal

    def holds(self) -> bool:
        s, goal = self.s, self.goal
        if s.over:
            return self._holds_at_end()
        if goal.kind == "streak":
            return goal.target >= 0 and s.streak_at_least(goal.side, s.engine.tricks_left)
        if goal.kind == "total":      # the side's own final total, extras such as marriages included
            return s.own_at_least(goal.side, goal.target)
        return self._level_holds()

    def _qualifies(self, rung: Rung) -> bool:
        """Is this rung the goal's level, or better, for the goal's side?"""
        if rung.winner != self.goal.side:
            return False
        return self.s.deal.game_spec.goals[self.goal.level].qualifies(rung)

    def _good(self) -> list[Rung]:
        """The rungs of the ladder that meet the goal for its side."""
        return [r for r in self.s.ladder() if self._qualifies(r)]

    def _level_holds(self) -> bool:
        ladder, good = self.s.ladder(), self._good()
        if not good:
            return False
        if self.goal.side == 0:        # "at least as good as the worst good rung" for side 0
            return self.s.holds(min(good, key=lambda r: r.rank).condition)
        above = [r for r in ladder if r.rank > max(g.rank for g in good)]
        return not above or not self.s.holds(min(above, key=lambda r: r.rank).condition)

    def _holds_at_end(self) -> bool:
        """At the end the outcome answers: its rank on the ladder, where the level goals ask
        for "this rung of the side, or better" (the same question as ``_level_holds``)."""
        s, goal = self.s, self.goal
        final = s.position
        if goal.kind == "total":
            return final.points[goal.side] >= goal.target
        if goal.kind == "streak":
            return not final.has_won(1 - goal.side)
        outcome = s.deal.game_spec.outcome(final, s.deal)
        good = self._good()
        if not good:
            return False
        if goal.side == 0:
            return outcome.rank >= min(r.rank for r in good)
        return outcome.rank <= max(r.rank for r in good)


@dataclass(frozen=True)
class PuzzleResult:
    deal: Deal
    goal: Goal
    reachable: bool | None                # None: not decided within the limits
    verdict: str                          # sound, cooked, unreachable, reachable
    key_moves: tuple[tuple[Card, ...], ...]   # groups of equivalent cards that keep the goal
    failing: tuple[tuple[Card, ...], ...]     # (both the side's own first moves: empty when the
                                              # defence is to move)
    main_line: tuple[Card, ...]
    refutation: tuple[tuple[Card, tuple[Card, ...]], ...]   # first move -> defence line
    solver_to_move: bool
    nodes: int
    # a limit was hit (or Ctrl-C): only what is proven is filled in; ``reachable`` is None and
    # ``verdict`` "unknown" when the goal itself was not decided
    exact: bool = True
    stopped: str | None = None            # "nodes", "time" or "interrupt"
    undecided: tuple[tuple[Card, ...], ...] = ()   # first moves neither proven keys nor failing
    # the defence to move: its first moves after which the goal is out of reach
    defence_stops: tuple[tuple[Card, ...], ...] = ()

    @property
    def exit_code(self) -> int:
        """0 sound (or reachable), 3 cooked, 4 unreachable; a partial answer's status is the caller's."""
        return {"sound": 0, "cooked": 3, "unreachable": 4, "reachable": 0, "unknown": 0}[self.verdict]


def solve_puzzle(deal: Deal, goal_text: str, side: int | None = None, *,
                 tt_megabytes: int = DEFAULT_TT_MEGABYTES, limits: Limits | None = None) -> PuzzleResult:
    """Decide the puzzle.  ``limits``: one budget for the whole puzzle; past it (or on
    Ctrl-C) the answer holds only what is proven (``exact`` False)."""
    position = deal.position()
    if position.is_over():
        raise DealError("the deal is over: nothing to solve", "play", deal.source)
    side = position.rules.side(position.to_move) if side is None else side
    goal = parse_goal(goal_text, deal, side)
    engine = new_engine(tt_megabytes)
    session = Session(deal, position, engine, limits=limits)
    gs = GoalSearch(session, goal)
    reachable = session.attempt(gs.holds)
    solver_to_move = position.rules.side(position.to_move) == side
    key: list[tuple[Card, ...]] = []
    failing: list[tuple[Card, ...]] = []
    undecided: list[tuple[Card, ...]] = []
    failing_moves: list[int] = []
    for child in session.moves():
        ok = session.attempt(gs.holds)
        {True: key, False: failing, None: undecided}[ok].append(session.cards_of(child.group))
        if ok is False:
            failing_moves.append(child.move)
    verdict = _verdict(reachable, solver_to_move, key, undecided)
    main_line = session.attempt(lambda: _main_line(session, gs, side), ()) if reachable else ()
    refutation: tuple = ()
    stops: tuple = ()
    if not solver_to_move:          # the moves tried were the defence's: none is a key
        stops, key, failing = tuple(failing), [], []
        if reachable is False and stops:     # one of the defence's moves that stop it, played out
            refutation = session.attempt(lambda: (_refute(session, gs, side, failing_moves[0]),), ())
    elif reachable is False:
        refutation = session.attempt(lambda: tuple(_refute(session, gs, side, group[0])
                                                   for group in session.classes()), ())
    return PuzzleResult(deal, goal, reachable, verdict, tuple(key), tuple(failing), main_line,
                        refutation, solver_to_move, engine.nodes, session.stopped is None,
                        session.stopped, tuple(undecided), stops)


def _verdict(reachable: bool | None, solver_to_move: bool, key: list, undecided: list) -> str:
    """sound, cooked or unreachable, as far as it is proven ("unknown" where it is not)."""
    if reachable is None:
        return "unknown"
    if not reachable:
        return "unreachable"
    if not solver_to_move:
        return "reachable"
    if len(key) >= 2:
        return "cooked"
    if undecided:
        return "unknown"
    return "sound" if len(key) == 1 else "cooked"


def _solver_total(session: Session, side: int) -> int:
    """The solving side's exact final total (as side 0 sees it, signed) after ``child``."""
    value = session.gained[-1] + (session.value() if not session.over else 0)
    return value if side == 0 else -value


def _defence_choice(session: Session, gs: GoalSearch, side: int, want_goal: bool) -> int:
    """The defence's best try: among replies with the goal's truth ``want_goal``, the one
    after which the solving side's exact total is lowest."""
    best, best_total = None, None
    for child in session.moves():
        if gs.holds() != want_goal:
            continue
        total = _solver_total(session, side)
        if best_total is None or total < best_total:
            best, best_total = child.move, total
    return best if best is not None else session.classes()[0][0]


def _solver_choice(session: Session, gs: GoalSearch) -> int:
    with closing(session.moves()) as children:      # left early: see Session.moves
        for child in children:
            if gs.holds():
                return child.move
    return session.classes()[0][0]


def _most_points_card(session: Session, side: int) -> int:
    """The card after which ``side`` ends with the most points (the first of equals)."""
    best, best_total = -1, None
    for child in session.moves():
        total = _solver_total(session, side)
        if best_total is None or total > best_total:
            best, best_total = child.move, total
    if best_total is None:
        raise ValueError("no card to play: the deal is over")
    return best


def _walk(session: Session, first: list[int], choose) -> tuple:
    """Play ``first`` and then ``choose(session)``'s card at every node to the end; the cards."""
    line = list(first)
    for move in first:
        session.push(move)
    try:
        while not session.over:
            card = choose(session)
            session.push(card)
            line.append(card)
    finally:
        for _ in line:
            session.pop()
    return session.cards_of(line)


def _main_line(session: Session, gs: GoalSearch, side: int) -> tuple[Card, ...]:
    """The first key move at the solver's turns, the defence's best try at the others."""
    def choose(s: Session) -> int:
        if s.side_to_move() == side:
            return _solver_choice(s, gs)
        return _defence_choice(s, gs, side, True)
    return _walk(session, [], choose)


def _refute(session: Session, gs: GoalSearch, side: int, first: int):
    """After ``first`` (the solver's card, or the defence's first card when it is to move):
    the defence keeps the goal out of reach, and the solver fights on with its best total."""
    def choose(s: Session) -> int:
        if s.side_to_move() == side:
            return _most_points_card(s, side)
        return _defence_choice(s, gs, side, False)
    cards = _walk(session, [first], choose)
    return (cards[0], tuple(cards[1:]))

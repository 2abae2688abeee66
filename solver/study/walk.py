"""One deal of a tactics study: the optimal line and its decisions, and the deal played with a
seat following a piece of advice.

The deal is first walked along one optimal line (under the study's objective).  At every
decision of that line (a seat with more than one legal card) each tactic is shown what the
mover sees there; where some tactic advises, every legal card is scored exactly (the final
total of the mover's side after it, and under ``score`` the outcome it forces): the one-off
records.

Then, for each tactic and each seat it advised on that line, the deal is played out again
from the start (``Run``): that seat follows the advice whenever it applies, by a policy
(``uniform``: a seeded pick among the advised cards; ``best``/``worst``: the advised card
with the best / worst perfect-play value; ``random``: a seeded pick among all legal cards,
at the moments the advice applies), and every other card, the seat's own included where
the advice is silent, is played perfectly.  Up to the seat's first application every run
follows the optimal line; after each deviation the optimal line is searched again from
there.  Since perfect moves keep the value, what a run costs is the sum of what its own
choices cost.

One engine per worker: its table is cleared at the start of each deal (a deal's record never
depends on which worker studied what before) and kept warm along the deal.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from stich.core.anytime import Limits, Stopped
from stich.deals.deal import Deal
from stich.model.cards import Card
from stich.model.outcome import rank_for, undecided_rank
from stich.search.ladder import forced_rung
from stich.search.lines import optimal_line
from stich.search.session import Session
from stich.tactics import Tactic, Views
from stich.tactics.features import describe, of_advice

from .pimc import GAME_POLICIES, OWN, Pimc
from .records import POLICIES, DealRecord, Decision, Result, Run


@dataclass(frozen=True)
class WalkSettings:
    """What a deal's record depends on besides the deal and the tactics."""

    objective: str = "score"
    first: bool = False                    # one-off records: only each tactic's first decision
    seed: int = 0                          # the policies' picks
    limits: Limits | None = None           # for the line, each decision and each run
    opponent: str = "perfect"              # "player": the other side plays by PIMC (study.pimc)
    mover: str = "perfect"                 # "player": so does the mover where the advice is silent
    pimc_samples: int = 20                 # layouts per PIMC decision
    tt_megabytes: int = 64                 # the PIMC layouts' engine
    paired: bool = False                   # every tactic runs for every seat any of them advised

    @property
    def player_game(self) -> bool:
        return "player" in (self.opponent, self.mover)


def _common_starts(applied: dict[str, dict[int, int]], names: list[str]) -> dict[str, dict[int, int]]:
    """Paired runs: every tactic is played by every seat that any of them advised on the
    optimal line, from that seat's earliest such ply (a run follows the optimal line until
    its own advice applies, so the start changes nothing but who is played)."""
    starts: dict[int, int] = {}
    for by_seat in applied.values():
        for seat, ply in by_seat.items():
            starts[seat] = min(ply, starts.get(seat, ply))
    return {name: dict(sorted(starts.items())) for name in names}


class DealWalk:
    """A session on one deal, asked for its line, its decisions and its runs."""

    def __init__(self, deal: Deal, tactics: list[Tactic], settings: WalkSettings, engine,
                 features: dict[str, Callable] | None = None):
        self.deal = deal
        self.tactics = [t for t in tactics if t.game in (None, deal.game)]
        self.settings = settings
        self.features = features or {}
        engine.new_search()
        self.session = Session(deal, deal.position(), engine, keep_tt=False)
        engine.reset_nodes()
        self.views = Views(deal)
        self.index = {card: i for i, card in enumerate(self.session.tables.cards)}
        self.text = deal.dump()
        self.middle = undecided_rank(self.session.ladder())     # ranks from a side: ``rank_for``
        self.pimc = (Pimc(deal, settings.objective, settings.pimc_samples, settings.seed,
                          settings.tt_megabytes) if settings.player_game else None)

    # --- the record -----------------------------------------------------------------------------

    def record(self) -> DealRecord:
        """The deal's whole record (Ctrl-C is passed on; the deal is studied again on resume)."""
        levels = [(r.rank, r.text, r.winner) for r in self.session.ladder()]
        try:
            line = self._guarded(self._perfect_line)
        except Stopped as stop:
            if stop.reason == "interrupt":      # Ctrl-C is no limit: it stops the study
                raise KeyboardInterrupt from None
            return DealRecord(None, [], {}, [], [], levels, self.session.engine.nodes, False, stop.reason)
        decisions, applied = self._decisions(line)
        perfect, totals = self._perfect_results(line)
        if self.settings.paired:
            applied = _common_starts(applied, [t.name for t in self.tactics])
        runs = [self._run(t, seat, policy, line, start)
                for t in self.tactics for seat, start in applied.get(t.name, {}).items()
                for policy in POLICIES]
        game = self._player_game(applied, line) if self.pimc else []
        return DealRecord(totals, [self._text(self.session.tables.cards[m & 63]) for m in line], perfect,
                          decisions, runs, levels, self.session.engine.nodes, player_game=game)

    # --- the optimal line and its decisions ---------------------------------------------------------

    def _perfect_line(self) -> list[int]:
        """One optimal line from the session's node, under the study's objective."""
        session = self.session
        value = session.value()
        rank = None
        if self.settings.objective == "score":
            constant = session.root.rules.constant_sum
            rung = forced_rung(session, session.final_totals(value)[0] if constant else None)
            rank = None if rung is None else rung.rank
        return optimal_line(session, value, rank)

    def _decisions(self, line: list[int]) -> tuple[list[Decision], dict[str, dict[int, int]]]:
        """The one-off decisions on ``line``, and per tactic the first ply each seat followed it."""
        decisions: list[Decision] = []
        first_ply: dict[str, dict[int, int]] = {}
        done: set[str] = set()
        played: list = []
        for ply, move in enumerate(line):
            advice, view = self._advice_here(played, self.tactics)
            for name in advice:
                first_ply.setdefault(name, {}).setdefault(view.seat + 1, ply)
            scored = {n: a for n, a in advice.items() if not (self.settings.first and n in done)}
            if scored:
                done.update(scored)
                decisions.append(self._decision(ply, view, scored))
            played.append(self.session.move_of(move))
            self.session.push(move)
        for _ in line:
            self.session.pop()
        return decisions, first_ply

    def _advice_here(self, played: list, tactics: list[Tactic]) -> tuple[dict[str, tuple[Card, ...]], Any]:
        """What each tactic advises the seat to move after ``played`` (only at decisions)."""
        view = self.views.at(tuple(played))
        if len(view.legal) < 2:
            return {}, view
        advice = {}
        for t in tactics:
            cards = t(self.views.at(tuple(played), sees_all=True) if t.sees_all else view)
            if cards:
                advice[t.name] = cards
        return advice, view

    def _decision(self, ply: int, view, advice: dict[str, tuple[Card, ...]]) -> Decision:
        notation = self.deal.notation
        self.session.limit(self.settings.limits)
        scores = self.session.attempt(self._score_cards)
        if scores is None:
            self._after_stop()
            return Decision(ply, view.seat + 1, [], [], None, {n: [] for n in advice}, exact=False)
        cards = [card for card, _, _ in scores]
        ranked = self.settings.objective == "score"
        union = tuple(c for c in view.legal if any(c in a for a in advice.values()))
        own = {n: of_advice(view, a) for n, a in advice.items() if a} if len(advice) > 1 else {}
        return Decision(ply, view.seat + 1, [c.text(notation) for c in cards], [s[1] for s in scores],
                        [s[2] for s in scores] if ranked else None,
                        {n: [cards.index(c) for c in a] for n, a in advice.items()},
                        describe(view, union, self.features), own=own)

    def _score_cards(self) -> list[tuple[Card, int, int | None]]:
        """(card, the mover's side's final total, its outcome rank from that side) for every
        legal card, under perfect play after it."""
        session = self.session
        position = session.position
        side = position.rules.side(position.to_move)
        constant = position.rules.constant_sum
        value = session.value()
        out = []
        for child in session.moves():
            if session.engine.tricks_left:
                totals = session.final_totals(session.value(value - child.gain))
                rung = (forced_rung(session, totals[0] if constant else None)
                        if self.settings.objective == "score" else None)
                rank = None if rung is None else rung.rank
            else:
                final = session.position
                totals = (final.points[0], final.points[1])
                rank = self.deal.game_spec.outcome(final, self.deal).rank
            for index in child.group:
                out.append((session.tables.cards[index & 63], totals[side],
                            None if rank is None else rank_for(side, rank, self.middle)))
        return out

    def _perfect_results(self, line: list[int]) -> tuple[dict[int, Result], list[int]]:
        """Each seat's result at the end of the optimal line, and both sides' totals."""
        for move in line:
            self.session.push(move)
        final = self.session.position
        for _ in line:
            self.session.pop()
        return ({seat: self._result(final, seat) for seat in range(1, self.deal.players + 1)},
                [final.points[0], final.points[1]])

    def _result(self, final, seat: int) -> Result:
        side = final.rules.side(seat - 1)
        outcome = self.deal.game_spec.outcome(final, self.deal)
        rank = rank_for(side, outcome.rank, self.middle)
        whose = "" if outcome.winner is None else ("own " if outcome.winner - 1 == side else "other side's ")
        return Result(final.points[side], rank, whose + outcome.level)

    # --- a run: the deal played with one seat following the advice ------------------------------------

    def _player_game(self, applied: dict[str, dict[int, int]], line: list[int]) -> list[Run]:
        """The runs of the player's game (``study.pimc``), each from the deal's start: per seat
        advised on the optimal line, one without the advice, then per tactic that advised it
        one following it and one playing a random card where it applies."""
        seats = sorted({seat for starts in applied.values() for seat in starts})
        runs = [self._run(None, seat, OWN, line, 0, True) for seat in seats]
        return runs + [self._run(t, seat, policy, line, 0, True)
                       for t in self.tactics for seat in sorted(applied.get(t.name, {}))
                       for policy in GAME_POLICIES]

    def _run(self, tactic: Tactic | None, seat: int, policy: str, line: list[int], start: int,
             player: bool = False) -> Run:
        run = Run(tactic.name if tactic else "", seat, policy, None, [], [], [], [])
        played: list = []
        try:
            for move in line[:start]:
                played.append(self.session.move_of(move))
                self.session.push(move)
            self._guarded(lambda: self._play_out(run, tactic, line[start:], played, player))
            run.result = self._result(self.session.position, seat)
        except Stopped:
            self._after_stop()
        finally:
            for _ in played:
                self.session.pop()
        run.line = [self._text(m) for m in played]
        return run

    def _play_out(self, run: Run, tactic: Tactic | None, rest: list[int], played: list,
                  player: bool = False) -> None:
        """Play on from the session's node to the end, appending each move to ``played``;
        ``player``: the player's game (PIMC where the settings ask for it)."""
        session, j = self.session, 0
        while not session.over:
            card = self._chosen(run, tactic, played, player)
            if card is not None and (rest[j] & 63) != self.index[card]:
                move = self._move_for(card)
                played.append(session.move_of(move))
                session.push(move)
                rest, j = self._perfect_line(), 0
            else:
                played.append(session.move_of(rest[j]))
                session.push(rest[j])
                j += 1

    def _chosen(self, run: Run, tactic: Tactic | None, played: list, player: bool) -> Card | None:
        """The card the seat to move plays if not by the current perfect line (None: by it)."""
        seat = self.session.engine.to_move
        mover = run.seat - 1
        card = self._policy_card(run, tactic, played) if seat == mover and tactic else None
        if card is None and player and self.pimc is not None:
            rules = self.session.root.rules
            by_view = (self.settings.mover if seat == mover else
                       self.settings.opponent if rules.side(seat) != rules.side(mover) else "perfect")
            if by_view == "player":
                card = self.pimc.card(tuple(played), tuple(_key(m, self.deal.notation) for m in played))
        return card

    def _policy_card(self, run: Run, tactic: Tactic, played: list) -> Card | None:
        """The card the run's seat plays here by its policy, or None where the advice is silent."""
        advice, view = self._advice_here(played, [tactic])
        advised = advice.get(tactic.name)
        if not advised:
            return None
        if not run.applied:
            run.features = describe(view, advised, self.features)
        choices = view.legal if run.policy == "random" else advised
        if run.policy in ("best", "worst"):
            card = self._extreme(advised, run.policy == "best")
        else:
            card = self._pick(choices, run, len(played))
        run.applied.append(len(played))
        run.advised.append(len(choices))
        run.chosen.append(card.text(self.deal.notation))
        return card

    def _extreme(self, advised: tuple[Card, ...], best: bool) -> Card:
        """The advised card with the best (or worst) perfect-play outcome, then total."""
        scores = {card: (rank or 0, total) for card, total, rank in self._score_cards()}
        key = [(scores[c], -i) for i, c in enumerate(advised)]
        pick = max(key) if best else min(key)
        return advised[-pick[1]]

    def _pick(self, choices: tuple[Card, ...], run: Run, ply: int) -> Card:
        """A seeded uniform pick, fixed by the study's seed, the deal, the seat, the policy and
        the ply (not the tactic's name: two tactics that advise alike play alike)."""
        key = f"{self.settings.seed}\0{run.seat}\0{run.policy}\0{ply}\0{self.text}"
        rng = random.Random(int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:16], 16))
        return rng.choice(list(choices))

    def _move_for(self, card: Card) -> int:
        index = self.index[card]
        for group in self.session.classes():
            for move in group:
                if move & 63 == index:
                    return move
        return index

    # --- limits -------------------------------------------------------------------------------------

    def _guarded(self, step):
        self.session.limit(self.settings.limits)
        return self.session.guarded(step)

    def _after_stop(self) -> None:
        if self.session.stopped == "interrupt":
            raise KeyboardInterrupt
        self.session.stopped = None

    def _text(self, move) -> str:
        card = move.card if hasattr(move, "card") else move
        return card.text(self.deal.notation)


def _key(move, notation) -> str:
    """A move's text for PIMC's seeds: the card, and the pair shown with it if any."""
    text = move.card.text(notation)
    return text if move.pair is None else f"{text}+{move.pair}"


def walk_deal(deal: Deal, tactics: list[Tactic], settings: WalkSettings, engine,
              features: dict[str, Callable] | None = None) -> DealRecord:
    """The record of one deal (see the module doc)."""
    position = deal.position()
    if position.is_over():
        return DealRecord(list(position.points), [], {}, [], [], [])
    return DealWalk(deal, tactics, settings, engine, features).record()

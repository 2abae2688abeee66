"""Play analysis: the double-dummy value before and after every card actually played.

A card is a mistake when the value for its player's side drops; the drop is what it cost.
At each mistake the cards that would have kept the value are listed ("who could have done
better").  With the score objective a card that changes the forced outcome (a win thrown
away, a Schneider let go) is flagged too.  One engine follows the whole play, so the
transposition table built for one position helps with the next (same deal, same cards).
"""

from __future__ import annotations

from dataclasses import dataclass

from stich.core.anytime import Limits, Stopped
from stich.deals.deal import Deal
from stich.model.cards import Card
from stich.model.rules import RuleSet, side_label
from stich.search.ladder import forced_rung
from stich.search.session import Session
from stich.search.solve import DEFAULT_TT_MEGABYTES, new_engine


@dataclass(frozen=True)
class Step:
    trick: int                       # 1-based trick number of the deal
    seat: int                        # 1-based seat that played
    card: Card
    before: tuple[int, int]          # the totals under perfect play before the card ...
    after: tuple[int, int]           # ... and after it
    cost: int                        # what the card cost its player's side (0: optimal)
    better: tuple[Card, ...]         # cards that would have kept the value (empty if optimal)
    level_before: str | None = None  # forced outcome before and after (score objective)
    level_after: str | None = None
    rank_cost: int = 0               # how many ladder steps the card gave away
    pair: int | None = None          # the pair shown with the card (a marriage announced)


@dataclass(frozen=True)
class Replay:
    deal: Deal
    steps: tuple[Step, ...]
    final: tuple[int, int] | None    # the totals actually reached (if the play is complete),
                                     # else those of perfect play after the last card analysed
    complete: bool                   # the play runs to the end of the deal
    nodes: int
    # a limit was hit (or Ctrl-C): ``steps`` are the cards analysed (exact), of ``cards``
    exact: bool = True
    stopped: str | None = None
    cards: int = 0

    def mistakes(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.cost > 0 or s.rank_cost > 0)

    def cost_by_side(self) -> tuple[int, int]:
        cost = [0, 0]
        for step in self.steps:
            cost[RuleSet.side_of(step.seat)] += step.cost
        return (cost[0], cost[1])


def replay(deal: Deal, *, tt_megabytes: int = DEFAULT_TT_MEGABYTES, with_outcome: bool = True,
           progress=None, limits: Limits | None = None) -> Replay:
    """Value every position of ``deal``'s ``play``.  The values are totals (tricks, points,
    honours) of both sides; in the Mariage variant the difference counts, and totals are
    those of an optimal line from each position.  ``limits``: one budget for the whole
    replay; when it runs out (or on Ctrl-C) the cards analysed so far are kept, exact, and
    the rest are not analysed (``exact`` False)."""
    start = deal.start()
    engine = new_engine(tt_megabytes)
    session = Session(deal, start, engine, limits=limits)
    shows = {(t, k): deal._pair(suit) for t, k, suit in deal.shows}
    # each card with the pair shown with it, or explicitly none (a lead may leave one unshown)
    played = [(card, shows.get((t, k), -1)) for t, trick in enumerate(deal.play)
              for k, card in enumerate(trick)]
    cards_left = sum(len(start.held(s)) for s in range(start.seats)) + len(start.stock)
    steps: list[Step] = []
    try:
        value, before, rung = session.guarded(lambda: _start_values(session, with_outcome))
    except Stopped:
        return Replay(deal, (), None, False, engine.nodes, False, session.stopped, len(played))
    for k, (card, pair) in enumerate(played):
        try:
            step, index, value, after, child_rung = session.guarded(
                lambda: _judge(session, card, pair, value, before, rung))  # noqa: B023 - called at once
        except Stopped:
            break
        except KeyboardInterrupt:          # between two searches: the finished steps stay
            session.stopped = "interrupt"
            break
        steps.append(step)
        session.push(index)
        before = after
        if child_rung is not None:
            rung = child_rung
        if progress:
            progress(k + 1, len(played))
    complete = len(played) == cards_left
    points = session.position.points
    final = (points[0], points[1]) if complete and len(steps) == len(played) else before
    return Replay(deal, tuple(steps), final, complete, engine.nodes, session.stopped is None,
                  session.stopped, len(played))


def _start_values(session: Session, with_outcome: bool):
    """The value, the totals and the forced outcome (or None) before the first card."""
    value = session.value()
    before = session.final_totals(value)
    rung = forced_rung(session, before[0] if session.root.rules.constant_sum else None) \
        if with_outcome else None
    return value, before, rung


def _judge(session: Session, card: Card, pair: int, value: int, before, rung):
    """One card played: its step, its engine move, the value and totals after it, and the
    forced outcome after it (None at the end or without outcomes)."""
    deal, engine = session.deal, session.engine
    constant = session.root.rules.constant_sum
    position = session.position
    seat = position.to_move
    side = position.rules.side(seat)
    trick_no = len(position.history) + 1
    index = engine.move(session.tables.index[card], pair if not position.trick else -2)
    with session.after(index) as gain:
        child = gain + session.value(value - gain) if not session.over else gain
        after = session.final_totals(child - gain)
        child_rung = None
        if rung is not None and not session.over:
            child_rung = forced_rung(session, after[0] if constant else None)
    cost = (value - child) if side == 0 else (child - value)
    better: tuple[Card, ...] = ()
    if cost > 0:
        better = _keeping_cards(session, value, side == 0)
    rank_cost, after_text = 0, None
    if rung is not None:
        if child_rung is not None:
            after_rank, after_text = child_rung.rank, outcome_said(position.rules, child_rung.winner, child_rung.text)
        else:                                                    # the last card: the deal's outcome
            final = deal.game_spec.outcome(_finished(session, index), deal)
            same = next((r for r in session.ladder() if r.rank == final.rank), None)   # its words on the ladder
            winner = None if final.winner is None else final.winner - 1
            after_rank, after_text = final.rank, outcome_said(position.rules, winner, same.text if same else final.level)
        rank_cost = (rung.rank - after_rank) if side == 0 else (after_rank - rung.rank)
    step = Step(trick_no, seat + 1, card, before, after, max(cost, 0), better,
                outcome_said(position.rules, rung.winner, rung.text) if rung else None,
                after_text, max(rank_cost, 0), pair if pair >= 0 else None)
    return step, index, child - gain, after, child_rung


def outcome_said(rules: RuleSet, winner: int | None, text: str) -> str:
    """A forced outcome with the side it is for ("seat 2: schneider"): a level alone does not
    say whose it is."""
    return text if winner is None else f"{side_label(rules, winner)}: {text}"


def _keeping_cards(session: Session, value: int, maximise: bool) -> tuple[Card, ...]:
    """The legal cards (all of each equivalent group) that keep ``value``."""
    keep: list[Card] = []
    for child in session.moves():
        if session.keeps(value - child.gain, maximise):
            keep += session.cards_of(child.group)
    return tuple(keep)


def _finished(searcher: Session, index: int):
    """The final position after the last card (for its outcome)."""
    position = searcher.position.copy()
    move = searcher.move_of(index)
    position.play(move.card, pair=move.pair)
    return position

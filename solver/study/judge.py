"""The study from the player's view (``stich tactic --view player``): each choice judged by
what the mover could know.

At a decision the mover's information set (``stich.view``) is filled with hidden layouts
(every one when there are at most ``samples``, else ``samples`` uniform draws, seeded per
decision), each layout is solved exactly with every legal card scored
(``stich.view.suggest.score_layout``), and every card gets its expected final total and
expected outcome rung over the same layouts (paired).  A card's expected loss is the highest
expected total of any card minus its own.  A run's cost from the player's view is the sum of
the expected losses of the cards it chose where the advice applied (its other cards are the
same perfect ones in both frames).  Where the mover sees every card, both frames agree.
"""

from __future__ import annotations

from stich.model.cards import parse_card
from stich.view.suggest import aggregate, score_layout

from .decisions import DecisionLayouts, PerPosition
from .records import DealRecord, Judgement


def judge(drawn: DecisionLayouts, cards: list[str], objective: str, tt_megabytes: int) -> Judgement:
    """The mover's view of one decision (its ``drawn`` layouts): per card (in the order of
    ``cards``) the expected total and rung over the layouts he cannot tell apart, and the card
    that view recommends."""
    rows = [score_layout(text, drawn.seat, objective, tt_megabytes, share=drawn.share)
            for text in drawn.texts]
    advice = aggregate(rows, drawn.exact, objective)
    by_card = {v.card: v for v in advice.cards}
    if set(by_card) != set(cards):
        raise ValueError("the player's view and the double-dummy study disagree on the legal cards")
    ranked = advice.measure == "rung"
    return Judgement(advice.layouts, drawn.count, drawn.exact, [by_card[c].mean for c in cards],
                     [by_card[c].mean_rank for c in cards] if ranked else None, cards.index(advice.best))


def expected_loss(judgement: Judgement, card: int) -> float:
    """What ``card`` gives away in expectation against the best card by expected total."""
    return max(judgement.totals) - judgement.totals[card]


class Judge(PerPosition[tuple[list[str], Judgement]]):
    """Judges the decisions and runs of one deal record, each position once."""

    def at(self, line: tuple[str, ...], cards: list[str]) -> Judgement:
        """The judgement after ``line`` (cards from the deal's start), its cards in the order
        of ``cards``; each position is solved once."""
        if line not in self.made:
            here = self.deal.after([parse_card(c, self.deal.notation) for c in line])
            self.made[line] = (list(cards), judge(self.layouts(here, line), cards, self.objective, self.tt))
        order, made = self.made[line]
        at = [order.index(c) for c in cards]
        return Judgement(made.layouts, made.consistent, made.exact, [made.totals[i] for i in at],
                         None if made.ranks is None else [made.ranks[i] for i in at],
                         cards.index(order[made.best]))

    def record(self, record: DealRecord) -> None:
        """Add the player's view to every exact decision, and its cost to the runs that
        played by chance or by the advice's uniform pick (the headline's two policies)."""
        for decision in record.decisions:
            if decision.exact:
                decision.player = self.at(tuple(record.line[:decision.ply]), decision.cards)
        for run in record.runs:
            if run.result is None or run.policy not in ("uniform", "random"):
                continue
            cost = 0.0
            for ply, card in zip(run.applied, run.chosen):
                position = self.deal.after([parse_card(c, self.deal.notation) for c in run.line[:ply]]).position()
                legal = [c.text(self.deal.notation) for c in position.legal_moves()]
                judgement = self.at(tuple(run.line[:ply]), legal)
                cost += expected_loss(judgement, legal.index(card))
            run.player_cost = cost

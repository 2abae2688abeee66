"""The report of ``stich replay``: the value before and after every card played."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabulate import tabulate

from stich.model.rules import side_label

from .common import (
    STOPPED_WORDS,
    UNIT_WORDS,
    card_text,
    cards_text,
    headline,
    level_text,
    listed,
    move_text,
    shown_suit,
    totals_text,
)

if TYPE_CHECKING:   # types only: a plain `stich solve` does not load the analyses
    from stich.analysis.replay import Replay


def replay_report(replay) -> str:
    deal = replay.deal
    rules = deal.rule_set
    out = [headline(deal), ""]
    rows = []
    for step in replay.steps:
        # the outcome given away, or only points (tricks, honours) with the outcome kept: the
        # latter is still "optimal" for the score in `stich analyze` (its *)
        mark = ("outcome" if step.rank_cost > 0 else f"{rules.unit} only" if step.cost > 0 else "")
        outcome = ""
        if step.level_before is not None and step.level_after != step.level_before:
            outcome = f"{level_text(step.level_before)} -> {level_text(step.level_after)}"
        rows.append([step.trick, step.seat, move_text(step.card, step.pair, deal),
                     f"{step.before[0]} - {step.before[1]}", f"{step.after[0]} - {step.after[1]}",
                     step.cost or "", outcome, mark,
                     cards_text(step.better, deal)])
    out.append(tabulate(rows, headers=["trick", "seat", "card", "before", "after", "cost",
                                       "outcome", "mistake", "better cards"], tablefmt="simple"))
    costs = replay.cost_by_side()
    out.append("")
    changed = sum(1 for step in replay.mistakes() if step.rank_cost > 0)
    out.append(f"Mistakes: {len(replay.mistakes())} ({changed} changed the outcome, "
               f"{len(replay.mistakes()) - changed} lost only {UNIT_WORDS[rules.unit]}); "
               f"cost {side_label(rules, 0)}: {costs[0]}, {side_label(rules, 1)}: {costs[1]} "
               f"{UNIT_WORDS[rules.unit]}")
    if not replay.exact:
        out.append(f"PARTIAL ANSWER: {STOPPED_WORDS.get(replay.stopped, replay.stopped)}; "
                   f"{len(replay.steps)} of {replay.cards} cards analysed (exactly), the rest not.")
        if replay.final is not None:
            out.append(f"With perfect play after the last card analysed: {totals_text(deal, replay.final)}")
        return "\n".join(out)
    if replay.complete:
        out.append(f"Final: {totals_text(deal, replay.final)}")
    else:
        out.append(f"The play stops here; with perfect play from now: {totals_text(deal, replay.final)}")
    return "\n".join(out)


def replay_json(result: Replay) -> dict:
    deal = result.deal
    return {
        "game": deal.game,
        "complete": result.complete,
        "final": listed(result.final),
        "cost_by_side": list(result.cost_by_side()),
        "steps": [{"trick": s.trick, "seat": s.seat, "card": card_text(s.card, deal),
                   **({"announce": shown_suit(s.pair, deal), "move": move_text(s.card, s.pair, deal)}
                      if s.pair is not None else {}),
                   "before": list(s.before),
                   "after": list(s.after), "cost": s.cost, "mistake": s.cost > 0 or s.rank_cost > 0,
                   "better": [card_text(c, deal) for c in s.better], "outcome_before": s.level_before,
                   "outcome_after": s.level_after, "outcome_cost": s.rank_cost}
                  for s in result.steps],
        "nodes": result.nodes,
        **({} if result.exact else {"exact": False, "stopped": result.stopped,
                                    "cards_analysed": len(result.steps), "cards": result.cards}),
    }

"""The report of ``stich analyze``: every legal card with totals, outcome and loss."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabulate import tabulate

from stich.model.rules import side_label

from .common import (
    TOTALS_STAR_NOTE,
    card_text,
    cards_text,
    headline,
    judged_by_totals,
    level_text,
    position_table,
    score_star_note,
    show_prefix,
    shown_suit,
    totals_text,
)
from .solve import partial_moves_table, partial_summary, solve_json

if TYPE_CHECKING:   # types only: a plain `stich solve` does not load the analyses
    from stich.analysis.analyze import Analysis


def analysis_report(analyses, expand: bool) -> str:
    """One table per analysed seat: every card (or equivalent group), totals, loss, outcome."""
    out = []
    first = analyses[0]
    deal = first.deal
    out += [headline(deal), "", position_table(deal, deal.position()), ""]
    for analysis in analyses:
        result = analysis.result
        rules = analysis.deal.rule_set
        if not result.exact:
            out += [f"Seat {analysis.seat} to play:", *partial_summary(result),
                    partial_moves_table(result), ""]
            continue
        out.append(f"Seat {analysis.seat} to play; best: {totals_text(analysis.deal, result.totals)}; "
                   f"{result.outcome.text}")
        rows = []
        for row in analysis.rows:
            cards = cards_text(row.cards, analysis.deal)
            if row.pair is not None:
                cards = f"{show_prefix(row.pair, analysis.deal)} {cards}"
            if len(row.cards) > 1:
                cards += ": same value"
            outcome = ""
            if row.level is not None:
                outcome = (level_text(row.level) if row.winner is None
                           else f"{side_label(rules, row.winner - 1)}: {row.level}")
            rows.append([cards, f"{row.totals[0]} - {row.totals[1]}", f"-{row.loss}" if row.loss else "",
                         outcome, "*" if row.optimal else ""])
        out.append(tabulate(rows, headers=["card" if expand else "cards", "totals", "vs best",
                                           "outcome (play for score)", "optimal"], tablefmt="simple"))
        if judged_by_totals(analysis.rows, analysis.result.objective):
            out.append(TOTALS_STAR_NOTE)
        elif any(row.optimal and row.loss for row in analysis.rows):
            out.append(score_star_note(rules))
        out.append("")
    return "\n".join(out).rstrip()


def analysis_json(analysis: Analysis) -> dict:
    deal = analysis.deal
    if not analysis.result.exact:        # what is proven, per card, as in solve's JSON
        solved = solve_json(analysis.result)
        return {"seat": analysis.seat, **{key: solved[key] for key in
                ("exact", "stopped", "totals", "bounds", "levels", "outcome", "moves")}}
    return {
        "seat": analysis.seat,
        "totals": list(analysis.result.exact_totals),
        "outcome": analysis.result.exact_outcome.as_json(),
        "moves": [{"cards": [card_text(c, deal) for c in row.cards], "totals": list(row.totals),
                   **({"announce": shown_suit(row.pair, deal)} if row.pair is not None else {}),
                   "loss": row.loss, "optimal": row.optimal,
                   "outcome": ({"level": row.level, "winner": row.winner, "words": level_text(row.level)}
                               if row.level else None)}
                  for row in analysis.rows],
    }

"""The report of ``stich puzzle``: sound, cooked or unreachable, with the key moves."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import STOPPED_WORDS, card_text, cards_text, headline, position_table

if TYPE_CHECKING:   # types only: a plain `stich solve` does not load the analyses
    from stich.analysis.puzzle import PuzzleResult


def puzzle_report(result) -> str:
    deal = result.deal
    out = [headline(deal), "", position_table(deal, deal.position()), ""]
    goal = result.goal.describe(deal)
    verdict = {"sound": "sound: the solution is unique",
               "cooked": ("cooked: more than one first move works" if result.failing or result.undecided
                          else "cooked: every first move works"),
               "unreachable": "the goal cannot be reached against the best defence",
               "reachable": "reachable against every defence (the defence is to move, so there is "
                            "no key move to judge)",
               "unknown": "unknown (not decided within the limit)"}[result.verdict]
    if not result.exact:
        out.append(f"PARTIAL ANSWER: the search stopped because "
                   f"{STOPPED_WORDS.get(result.stopped, result.stopped)}; only what is proven is shown.")
    out.append(f"Goal: {goal} -> {verdict}")
    if result.solver_to_move:
        out.append(f"Key move(s): {', '.join(cards_text(g, deal) for g in result.key_moves) or '-'}")
        if result.failing:
            out.append(f"Failing first moves: {', '.join(cards_text(g, deal) for g in result.failing)}")
        if result.undecided:
            out.append(f"Not decided within the limit: {', '.join(cards_text(g, deal) for g in result.undecided)}")
    elif result.defence_stops:
        out.append(f"The defence's first moves that keep the goal out of reach: "
                   f"{', '.join(cards_text(g, deal) for g in result.defence_stops)}")
    if result.main_line:
        out.append(f"Main line (with the defence's best tries): {cards_text(result.main_line, deal)}")
    for move, line in result.refutation:
        if result.solver_to_move:
            out.append(f"Refutation of {card_text(move, deal)}: {cards_text(line, deal)}")
        else:
            out.append(f"Refutation (the defence leads off with {card_text(move, deal)}): "
                       f"{cards_text((move, *line), deal)}")
    return "\n".join(out)


def puzzle_json(result: PuzzleResult) -> dict:
    deal = result.deal
    return {
        "goal": result.goal.text,
        "side": result.goal.side + 1,
        "reachable": result.reachable,
        "verdict": result.verdict,
        "solver_to_move": result.solver_to_move,
        "key_moves": [[card_text(c, deal) for c in g] for g in result.key_moves],
        "failing_moves": [[card_text(c, deal) for c in g] for g in result.failing],
        "main_line": [card_text(c, deal) for c in result.main_line],
        "refutation": [{"move": card_text(m, deal), "defence_line": [card_text(c, deal) for c in line]}
                       for m, line in result.refutation],
        "defence_stops": [[card_text(c, deal) for c in g] for g in result.defence_stops],
        "nodes": result.nodes,
        **({} if result.exact else {
            "exact": False, "stopped": result.stopped,
            "undecided_moves": [[card_text(c, deal) for c in g] for g in result.undecided]}),
    }

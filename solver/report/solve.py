"""The report of ``stich solve``: totals, outcome, every card's value and a line, as text and JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabulate import tabulate

from stich.model.rules import RuleSet, side_label
from stich.search.solve import Result

from .common import (
    STOPPED_WORDS,
    TOTALS_STAR_NOTE,
    bounds_json,
    bounds_text,
    card_text,
    game_sections,
    headline,
    judged_by_totals,
    level_text,
    listed,
    move_text,
    position_table,
    range_text,
    score_star_note,
    shown_suit,
    totals_text,
    trick_text,
)

if TYPE_CHECKING:   # types only: a plain `stich solve` does not load the analyses
    pass


def line_table(result: Result) -> str:
    deal = result.deal
    rules = deal.rule_set
    rows = []
    first = len(deal.position().history) + 1
    for k, (leader, cards, winner) in enumerate(result.line_tricks):
        rows.append([first + k, leader, trick_text(cards, deal, result), winner,
                     side_label(rules, rules.side(winner - 1))])
    return tabulate(rows, headers=["trick", "leader", "cards in play order", "won by", "side"],
                    tablefmt="simple")


def move_outcome_text(move, rules: RuleSet) -> str:
    if move.level is None:
        return ""
    if move.winner is None:
        return level_text(move.level)
    return f"{side_label(rules, move.winner - 1)}: {move.level}"


def moves_table(result: Result) -> str:
    """Every legal card, optimal ones first, with what it costs the player to move."""
    deal = result.deal
    rules = deal.rule_set
    own = rules.side(result.mover - 1)
    sign = 1 if own == 0 else -1
    rows = []
    ordered = sorted(result.moves, key=lambda m: (not m.optimal, -sign * (m.rank or 0),
                                                  result.exact_totals[own] - m.exact_totals[own], m.group))
    for move in ordered:
        loss = move.exact_totals[own] - result.exact_totals[own]
        rows.append([move_text(move.card, move.pair, deal), f"{move.exact_totals[0]} - {move.exact_totals[1]}",
                     f"{loss:+d}" if loss else "", move_outcome_text(move, rules),
                     "*" if move.optimal else ""])
    return tabulate(rows, headers=["card", "totals", "vs best", "outcome (play for score)", "optimal"],
                    tablefmt="simple")


def partial_moves_table(result: Result) -> str:
    """Every legal card with what is proven of it: its totals or their ranges, and whether it
    is proven optimal, proven worse, or undecided."""
    deal = result.deal
    rows = []
    for move in result.moves:
        if move.totals is not None:
            totals = f"{move.totals[0]} - {move.totals[1]}"
        elif move.bounds is not None:
            totals = f"{range_text(*move.bounds[0])} / {range_text(*move.bounds[1])}"
        else:
            totals = "?"
        verdict = {True: "optimal", False: "worse", None: "undecided"}[move.optimal]
        rows.append([move_text(move.card, move.pair, deal), totals,
                     move_outcome_text(move, deal.rule_set), verdict])
    return tabulate(rows, headers=["card", "totals (proven)", "outcome", "proven"], tablefmt="simple")


def partial_summary(result: Result) -> list[str]:
    """The lines that say a solve is partial and what is proven of the position."""
    deal = result.deal
    out = [f"PARTIAL ANSWER: the search stopped because {STOPPED_WORDS.get(result.stopped or '', result.stopped)}; "
           f"only what is proven is shown."]
    if result.totals is not None:
        out.append(f"Double-dummy totals: {totals_text(deal, result.totals)}")
    elif result.bounds is not None:
        out.append(f"Double-dummy totals between: {bounds_text(deal, result.bounds)}")
    if result.levels:
        out.append("Outcome levels still possible: " + ", ".join(
            level_text(level) if winner is None else f"{side_label(deal.rule_set, winner - 1)} {level}"
            for level, winner in result.levels))
    return out


def partial_report(result: Result, out: list[str]) -> str:
    """A solve stopped by a limit: only what is proven, and a plain word that it is partial."""
    out += partial_summary(result)
    out.append(f"({result.nodes:,} nodes, {result.seconds * 1000:.1f} ms)")
    if result.moves:
        out += ["", f"Cards of seat {result.to_move} (to play):", partial_moves_table(result)]
    return "\n".join(out)


def solve_report(result: Result) -> str:
    deal = result.deal
    position = deal.position()
    out = [headline(deal), ""]
    out.append(position_table(deal, position))
    out.append("")
    if result.start_points != (0, 0):
        out.append(f"already won: {totals_text(deal, result.start_points)}")
    if not result.exact:
        return partial_report(result, out)
    if result.to_move is None:
        out.append(f"The deal is over. {totals_text(deal, result.exact_totals)}")
        out.append(f"Outcome: {result.exact_outcome.text}")
        return "\n".join(out)
    out.append(f"Double-dummy totals: {totals_text(deal, result.exact_totals)}")
    out.append(f"Outcome (playing for the {'score' if result.objective == 'score' else 'totals'}): "
               f"{result.exact_outcome.text}")
    if result.line_totals != result.totals:
        out.append(f"(the line below plays for the score and ends at {totals_text(deal, result.exact_line_totals)})")
    out.append(f"({result.nodes:,} nodes, {result.seconds * 1000:.1f} ms)")
    if result.moves:
        out += ["", f"Cards of seat {result.to_move} (to play):", moves_table(result)]
        own = deal.rule_set.side(result.mover - 1)
        if judged_by_totals(result.moves, result.objective):
            out.append(TOTALS_STAR_NOTE)
        elif any(m.optimal and m.exact_totals[own] != result.exact_totals[own] for m in result.moves):
            out.append(score_star_note(deal.rule_set))
    if result.line_tricks:
        out += ["", "One optimal line:", line_table(result)]
    unit = "strokes" if not deal.rule_set.bonus_in_points else "points"
    for seat, card, points, pair in result.announcements:
        out.append(f"seat {seat} announces {move_text(card, pair, deal)}: {points} {unit}")
    out += game_sections(deal)
    return "\n".join(out)


def solve_json(result: Result) -> dict:
    """The JSON of ``stich solve``.  A partial answer (a limit was hit) says ``"exact":
    false`` and holds only what is proven: ``bounds`` on both sides' totals, ``levels``
    still possible, and per card its totals or ``bounds`` and ``optimal`` true, false or
    null (undecided); ``totals``, ``outcome`` and ``line_totals`` are null where unproven."""
    deal = result.deal
    partial = {} if result.exact else {
        "stopped": result.stopped, "bounds": bounds_json(result.bounds),
        "levels": [{"level": level, "winner": winner} for level, winner in result.levels]}
    return {
        "game": deal.game,
        "unit": deal.rule_set.unit,
        "objective": result.objective,
        "exact": result.exact,
        **partial,
        "totals": listed(result.totals),
        "outcome": result.outcome.as_json() if result.outcome is not None else None,
        "line": [move_text(c, p, deal) for c, p in
                 zip(result.line, result.line_pairs or (None,) * len(result.line))],
        "line_totals": listed(result.line_totals),
        "moves": [{"card": card_text(m.card, deal), "totals": listed(m.totals), "optimal": m.optimal,
                   "group": m.group,
                   **({"bounds": bounds_json(m.bounds)} if not result.exact else {}),
                   **({"announce": shown_suit(m.pair, deal), "move": move_text(m.card, m.pair, deal)}
                      if m.pair is not None else {}),
                   "outcome": {"level": m.level, "winner": m.winner} if m.level is not None else None}
                  for m in result.moves],
        "announcements": [{"seat": seat, "card": card_text(card, deal), "points": points,
                           "suit": shown_suit(pair, deal), "move": move_text(card, pair, deal)}
                          for seat, card, points, pair in result.announcements],
        "to_move": result.to_move,
        "already_won": list(result.start_points),
        "tricks": [{"leader": leader, "cards": [card_text(c, deal) for c in cards], "winner": winner}
                   for leader, cards, winner in result.line_tricks],
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
    }

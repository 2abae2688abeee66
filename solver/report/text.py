"""Turning positions and results into what people read: tables, lines, JSON objects.

Everything here is presentation; it computes nothing the solver has not already decided.
Cards are written in the deal's own notation, so a German deal reads back in German.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from solver.model.cards import Card, suit_name
from solver.deals.deal import Deal, show_text
from solver.games.base import RuleSet, side_label
from solver.model.position import Position
from solver.search.solve import Result

if TYPE_CHECKING:   # types only: a plain `stich solve` does not load the analyses
    from solver.analysis.analyze import Analysis
    from solver.analysis.puzzle import PuzzleResult
    from solver.analysis.replay import Replay
    from solver.analysis.table import Table

UNIT_WORDS = {"tricks": "tricks", "points": "card points", "honours": "honours"}


def card_text(card: Card, deal: Deal) -> str:
    return card.text(deal.notation)


def cards_text(cards, deal: Deal) -> str:
    return " ".join(card.text(deal.notation) for card in cards)


def show_prefix(pair: int, deal: Deal) -> str:
    """A pair shown with a lead, as the deal file writes it: "(marriage R)"."""
    rules = deal.rule_set
    return show_text(rules.pair_word, rules.pairs[pair][0].suit, deal.notation)


def move_text(card: Card, pair: int | None, deal: Deal) -> str:
    """A card, with the pair shown with it as a move of its own kind: "(marriage R) R9"."""
    if pair is None:
        return card_text(card, deal)
    return f"{show_prefix(pair, deal)} {card_text(card, deal)}"


def shown_suit(pair: int | None, deal: Deal) -> str | None:
    if pair is None:
        return None
    return show_text("", deal.rule_set.pairs[pair][0].suit, deal.notation)[2:-1]


def trick_text(cards, deal: Deal, result: Result) -> str:
    """A trick of the line, its lead with the pair shown with it, if any."""
    shown = {card: pair for _, card, _, pair in result.announcements}
    return " ".join(move_text(c, shown.get(c) if k == 0 else None, deal) for k, c in enumerate(cards))


def headline(deal: Deal) -> str:
    rules = deal.rule_set
    parts = [deal.game_spec.title]
    if deal.game_spec.players_vary:
        parts.append(f"{deal.players} players")
    if rules.trump is not None:
        parts.append(f"trump {rules.suit_label(rules.trump, deal.notation).replace(' (trump)', '')}")
    changed = {k: v for k, v in deal.options.items() if v != deal.game_spec.option(k).default}
    if changed:
        parts.append("rules: " + ", ".join(f"{k}={_plain(v)}" for k, v in changed.items()))
    return ", ".join(parts)


def _plain(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def position_table(deal: Deal, position: Position) -> str:
    """The cards still out, seat by seat (piles as UP/DOWN), and the stock."""
    rules = position.rules
    rows = []
    layout = rules.layout
    for seat in range(position.seats):
        held = layout.seat_cards_text(position, seat, deal.notation)
        rows.append([seat + 1, side_label(rules, rules.side(seat)), held or "-"])
    text = tabulate(rows, headers=["seat", "side", layout.column], tablefmt="simple")
    extra = layout.extra_text(position, deal.notation)
    if extra:
        text += "\n" + extra
    if position.trick:
        text += (f"\ntrick in progress, led by seat {position.leader + 1}: "
                 f"{cards_text(position.trick, deal)}")
    return text


def totals_text(deal: Deal, totals: tuple[int, int]) -> str:
    rules = deal.rule_set
    unit = UNIT_WORDS[rules.unit]
    return f"{side_label(rules, 0)}: {totals[0]} {unit}, {side_label(rules, 1)}: {totals[1]} {unit}"


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
        return move.level
    return f"{side_label(rules, move.winner - 1)}: {move.level}"


def score_star_note(rules: RuleSet) -> str:
    """Why a card that loses some of the unit can still be marked optimal (*)."""
    unit = UNIT_WORDS[rules.unit]
    return f"* optimal under --objective score: keeps the best outcome, even if it gives up {unit}"


def moves_table(result: Result) -> str:
    """Every legal card, optimal ones first, with what it costs the player to move."""
    deal = result.deal
    rules = deal.rule_set
    own = rules.side(result.to_move - 1)
    sign = 1 if own == 0 else -1
    rows = []
    ordered = sorted(result.moves, key=lambda m: (not m.optimal, -sign * (m.rank or 0),
                                                  result.totals[own] - m.totals[own], m.group))
    for move in ordered:
        loss = move.totals[own] - result.totals[own]
        rows.append([move_text(move.card, move.pair, deal), f"{move.totals[0]} - {move.totals[1]}",
                     f"{loss:+d}" if loss else "", move_outcome_text(move, rules),
                     "*" if move.optimal else ""])
    return tabulate(rows, headers=["card", "totals", "vs best", "outcome (play for score)", "optimal"],
                    tablefmt="simple")


def game_sections(deal: Deal) -> list[str]:
    """The sections the game adds to a report (Scharwenzel's matadors)."""
    out = []
    for title, text in deal.game_spec.extra_sections(deal):
        out += ["", f"{title}:", text]
    return out


STOPPED_WORDS = {"nodes": "the node limit was reached", "time": "the time limit was reached",
                 "interrupt": "it was interrupted"}


def range_text(low: int, high: int) -> str:
    return f"{low}" if low == high else f"{low}–{high}"


def bounds_text(deal: Deal, bounds) -> str:
    """Both sides' proven ranges, e.g. 'seats 1+3: 4–6 tricks, seats 2+4: 2–4 tricks'."""
    rules = deal.rule_set
    unit = UNIT_WORDS[rules.unit]
    return ", ".join(f"{side_label(rules, side)}: {range_text(*bounds[side])} {unit}" for side in (0, 1))


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


def _partial_summary(result: Result) -> list[str]:
    """The lines that say a solve is partial and what is proven of the position."""
    deal = result.deal
    out = [f"PARTIAL ANSWER: the search stopped because {STOPPED_WORDS.get(result.stopped, result.stopped)}; "
           f"only what is proven is shown."]
    if result.totals is not None:
        out.append(f"Double-dummy totals: {totals_text(deal, result.totals)}")
    elif result.bounds is not None:
        out.append(f"Double-dummy totals between: {bounds_text(deal, result.bounds)}")
    if result.levels:
        out.append("Outcome levels still possible: " + ", ".join(
            level if winner is None else f"{side_label(deal.rule_set, winner - 1)} {level}"
            for level, winner in result.levels))
    return out


def partial_report(result: Result, out: list[str]) -> str:
    """A solve stopped by a limit: only what is proven, and a plain word that it is partial."""
    out += _partial_summary(result)
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
        out.append(f"The deal is over. {totals_text(deal, result.totals)}")
        return "\n".join(out)
    out.append(f"Double-dummy totals: {totals_text(deal, result.totals)}")
    out.append(f"Outcome (playing for the {'score' if result.objective == 'score' else 'totals'}): "
               f"{result.outcome.text}")
    if result.line_totals != result.totals:
        out.append(f"(the line below plays for the score and ends at {totals_text(deal, result.line_totals)})")
    out.append(f"({result.nodes:,} nodes, {result.seconds * 1000:.1f} ms)")
    if result.moves:
        out += ["", f"Cards of seat {result.to_move} (to play):", moves_table(result)]
        own = deal.rule_set.side(result.to_move - 1)
        if any(m.optimal and m.totals[own] != result.totals[own] for m in result.moves):
            out.append(score_star_note(deal.rule_set))
    if result.line_tricks:
        out += ["", "One optimal line:", line_table(result)]
    unit = "strokes" if not deal.rule_set.bonus_in_points else "points"
    for seat, card, points, pair in result.announcements:
        out.append(f"seat {seat} announces {move_text(card, pair, deal)}: {points} {unit}")
    out += game_sections(deal)
    return "\n".join(out)


def _listed(pair) -> list | None:
    return None if pair is None else list(pair)


def _bounds_json(bounds) -> list | None:
    return None if bounds is None else [list(bounds[0]), list(bounds[1])]


def solve_json(result: Result) -> dict:
    """The JSON of ``stich solve``.  A partial answer (a limit was hit) says ``"exact":
    false`` and holds only what is proven: ``bounds`` on both sides' totals, ``levels``
    still possible, and per card its totals or ``bounds`` and ``optimal`` true, false or
    null (undecided); ``totals``, ``outcome`` and ``line_totals`` are null where unproven."""
    deal = result.deal
    partial = {} if result.exact else {
        "stopped": result.stopped, "bounds": _bounds_json(result.bounds),
        "levels": [{"level": level, "winner": winner} for level, winner in result.levels]}
    return {
        "game": deal.game,
        "unit": deal.rule_set.unit,
        "objective": result.objective,
        "exact": result.exact,
        **partial,
        "totals": _listed(result.totals),
        "outcome": result.outcome.as_json() if result.outcome is not None else None,
        "line": [move_text(c, p, deal) for c, p in
                 zip(result.line, result.line_pairs or (None,) * len(result.line))],
        "line_totals": _listed(result.line_totals),
        "moves": [{"card": card_text(m.card, deal), "totals": _listed(m.totals), "optimal": m.optimal,
                   "group": m.group,
                   **({"bounds": _bounds_json(m.bounds)} if not result.exact else {}),
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


def _levels_text(levels, deal: Deal) -> str:
    """Outcome levels still possible, e.g. 'seats 1+3 schneider or seats 1+3 win'."""
    return " or ".join(level if winner is None else f"{side_label(deal.rule_set, winner - 1)} {level}"
                       for level, winner in levels)


def _partial_cell_text(cell, deal: Deal) -> str:
    """A cell stopped by a limit: the totals or their proven ranges, and 'partial'."""
    if cell is None:
        return "not solved"
    if cell.totals is not None:
        tricks = f"{cell.totals[0]}–{cell.totals[1]}"
    elif cell.bounds is not None:
        tricks = f"{cell.bounds[0][0]}..{cell.bounds[0][1]}–{cell.bounds[1][0]}..{cell.bounds[1][1]}"
    else:
        tricks = "?"
    return f"{tricks} partial"


def _cell_text(cell, deal: Deal) -> str:
    if cell is None or not cell.exact:
        return _partial_cell_text(cell, deal)
    outcome = cell.outcome
    tricks = f"{cell.totals[0]}–{cell.totals[1]}"
    if outcome.winner is None:
        return f"{tricks} {outcome.level}"
    who = side_label(deal.rule_set, outcome.winner - 1).replace("seats ", "").replace("seat ", "")
    extra = f"{outcome.level} " if outcome.level not in ("win",) else ""
    hooks = f" +{outcome.hooks}┐" if outcome.hooks else ""
    return f"{tricks} {who} {extra}{outcome.score}{hooks}"


REPORT_WIDTH = 100


def _fitted_grid(leaders, cell, trump_names, width: int = REPORT_WIDTH) -> str:
    """The trump x leader grid, split into several grids of fewer leaders if wider than ``width``."""
    for per in range(len(leaders), 0, -1):
        chunks = [leaders[i:i + per] for i in range(0, len(leaders), per)]
        grids = [tabulate([[name] + [cell(suit, leader) for leader in chunk]
                           for suit, name in enumerate(trump_names)],
                          headers=["trump"] + [f"seat {l} leads" for l in chunk], tablefmt="simple")
                 for chunk in chunks]
        if per == 1 or all(max(map(len, g.splitlines())) <= width for g in grids):
            return "\n\n".join(grids)
    raise AssertionError("unreachable")


def table_report(table) -> str:
    """The double-dummy table as a grid: trumps down, first leaders across (Scharwenzel)."""
    deal = table.deal
    out = [headline(deal), ""]
    if table.ignored_play:
        out.append("(the table is of the deal as dealt: the cards in `play` are not played)")
    if not table.exact:
        solved = sum(c.exact for c in table.cells)
        out.append(f"PARTIAL TABLE: {STOPPED_WORDS.get(table.stopped, table.stopped)}; {solved} of "
                   f"{table.planned} cells exact, the others show only what is proven "
                   f"(totals as low..high ranges).")
    if table.best_trump:             # a declarer chooses: every trump by every first leader
        leaders = sorted({c.leader for c in table.cells})
        rules = deal.rule_set
        out.append(f"Tricks of {side_label(rules, 0)} – {side_label(rules, 1)}, the winner and its "
                   f"score, by trump and leader:")
        out.append(_fitted_grid(leaders, lambda suit, leader: _cell_text(table.cell(suit, leader), deal),
                                [suit_name(suit, deal.notation) for suit in range(4)]))
        out += ["", "Trump each seat should name as declarer"
                + (" (the declarer leads):" if deal.game_spec.declarer_leads(deal.options)
                   else f" (seat {deal.leader} leads):")]
        rows = [[seat, suit_name(suit, deal.notation), _cell_text(table.cell(suit, seat if deal.game_spec.declarer_leads(deal.options) else deal.leader), deal)]
                for seat, suit in table.best_trump.items()]
        out.append(tabulate(rows, headers=["declarer", "trump", "result"], tablefmt="simple"))
        if len(table.best_trump) < deal.players:
            out.append("(seats missing here: a cell they need is partial or not solved)")
        out += game_sections(deal)
    else:
        rows = [[suit_name(c.trump, deal.notation), f"{c.totals[0]} – {c.totals[1]}", c.outcome.text]
                if c.exact else [suit_name(c.trump, deal.notation), _partial_cell_text(c, deal),
                                 "possible: " + (_levels_text(c.levels, deal) or "?")]
                for c in table.cells]
        out.append(f"Seat {table.cells[0].leader} leads; the deal under each trump:")
        out.append(tabulate(rows, headers=["trump", UNIT_WORDS[deal.rule_set.unit], "outcome"], tablefmt="simple"))
    return "\n".join(out)


# --- analyze, replay, puzzle ---------------------------------------------------------------------

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
            out += [f"Seat {analysis.seat} to play:", *_partial_summary(result),
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
                outcome = row.level if row.winner is None else f"{side_label(rules, row.winner - 1)}: {row.level}"
            rows.append([cards, f"{row.totals[0]} - {row.totals[1]}", f"-{row.loss}" if row.loss else "",
                         outcome, "*" if row.optimal else ""])
        out.append(tabulate(rows, headers=["card" if expand else "cards", "totals", "vs best",
                                           "outcome (play for score)", "optimal"], tablefmt="simple"))
        if any(row.optimal and row.loss for row in analysis.rows):
            out.append(score_star_note(rules))
        out.append("")
    return "\n".join(out).rstrip()


def replay_report(replay) -> str:
    deal = replay.deal
    rules = deal.rule_set
    out = [headline(deal), ""]
    rows = []
    for step in replay.steps:
        mark = "mistake" if step.cost > 0 or step.rank_cost > 0 else ""
        outcome = ""
        if step.level_before is not None and step.level_after != step.level_before:
            outcome = f"{step.level_before} -> {step.level_after or 'end'}"
        rows.append([step.trick, step.seat, move_text(step.card, step.pair, deal),
                     f"{step.before[0]} - {step.before[1]}", f"{step.after[0]} - {step.after[1]}",
                     f"-{step.cost}" if step.cost else "", outcome, mark,
                     cards_text(step.better, deal)])
    out.append(tabulate(rows, headers=["trick", "seat", "card", "before", "after", "cost",
                                       "outcome", "mistake", "better cards"], tablefmt="simple"))
    costs = replay.cost_by_side()
    out.append("")
    out.append(f"Mistakes: {len(replay.mistakes())}; cost {side_label(rules, 0)}: {costs[0]}, "
               f"{side_label(rules, 1)}: {costs[1]} {UNIT_WORDS[rules.unit]}")
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


def puzzle_report(result) -> str:
    deal = result.deal
    out = [headline(deal), "", position_table(deal, deal.position()), ""]
    goal = result.goal.describe(deal)
    verdict = {"sound": "sound: the solution is unique",
               "cooked": "cooked: more than one first move works",
               "unreachable": "the goal cannot be reached against the best defence",
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
    if result.main_line:
        out.append(f"Main line (with the defence's best tries): {cards_text(result.main_line, deal)}")
    for move, line in result.refutation:
        out.append(f"Refutation of {card_text(move, deal)}: {cards_text(line, deal)}")
    return "\n".join(out)


# --- JSON of the analyses ---------------------------------------------------------------------

def analysis_json(analysis: Analysis) -> dict:
    deal = analysis.deal
    if not analysis.result.exact:        # what is proven, per card, as in solve's JSON
        solved = solve_json(analysis.result)
        return {"seat": analysis.seat, **{key: solved[key] for key in
                ("exact", "stopped", "totals", "bounds", "levels", "outcome", "moves")}}
    return {
        "seat": analysis.seat,
        "totals": list(analysis.result.totals),
        "outcome": analysis.result.outcome.as_json(),
        "moves": [{"cards": [card_text(c, deal) for c in row.cards], "totals": list(row.totals),
                   **({"announce": shown_suit(row.pair, deal)} if row.pair is not None else {}),
                   "loss": row.loss, "optimal": row.optimal,
                   "outcome": {"level": row.level, "winner": row.winner} if row.level else None}
                  for row in analysis.rows],
    }


def replay_json(result: Replay) -> dict:
    deal = result.deal
    return {
        "game": deal.game,
        "complete": result.complete,
        "final": _listed(result.final),
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
        "nodes": result.nodes,
        **({} if result.exact else {
            "exact": False, "stopped": result.stopped,
            "undecided_moves": [[card_text(c, deal) for c in g] for g in result.undecided]}),
    }


def table_json(table: Table) -> dict:
    deal = table.deal
    return {
        "game": deal.game,
        "cells": [{"trump": suit_name(c.trump, "french"), "leader": c.leader, "totals": list(c.totals),
                   "outcome": c.outcome.as_json(), "nodes": c.nodes} if c.exact else
                  {"trump": suit_name(c.trump, "french"), "leader": c.leader, "exact": False,
                   "totals": _listed(c.totals), "bounds": _bounds_json(c.bounds), "outcome": None,
                   "levels": [{"level": level, "winner": winner} for level, winner in c.levels],
                   "nodes": c.nodes}
                  for c in table.cells],
        "best_trump": {str(seat): suit_name(suit, "french") for seat, suit in table.best_trump.items()},
        "ignored_play": table.ignored_play,
        **({} if table.exact else {"exact": False, "stopped": table.stopped,
                                   "cells_planned": table.planned}),
    }

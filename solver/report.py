"""Turning positions and results into what people read: tables, lines, JSON objects.

Everything here is presentation; it computes nothing the solver has not already decided.
Cards are written in the deal's own notation, so a German deal reads back in German.
"""

from __future__ import annotations

from typing import Any

from tabulate import tabulate

from .cards import Card
from .deal import Deal
from .games.base import RuleSet
from .position import Position
from .solve import Result

UNIT_WORDS = {"tricks": "tricks", "points": "card points", "honours": "honours"}


def side_label(rules: RuleSet, side: int) -> str:
    """'seats 1+3' for a partnership, 'seat 1' for a lone player."""
    seats = [s + 1 for s in range(rules.seats) if rules.side(s) == side]
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + "+".join(map(str, seats))


def card_text(card: Card, deal: Deal) -> str:
    return card.text(deal.notation)


def cards_text(cards, deal: Deal) -> str:
    return " ".join(card.text(deal.notation) for card in cards)


def headline(deal: Deal) -> str:
    rules = deal.rule_set
    parts = [deal.game_spec.title]
    if deal.game == "scharwenzel":
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
    for seat in range(position.seats):
        if rules.layout == "piles":
            held = " ".join("/".join(c.text(deal.notation) for c in reversed(pile))
                            for pile in position.piles[seat] if pile)
        else:
            held = cards_text(position.held(seat), deal)
        rows.append([seat + 1, side_label(rules, rules.side(seat)), held or "-"])
    text = tabulate(rows, headers=["seat", "side", "piles (UP/down)" if rules.layout == "piles" else "hand"],
                    tablefmt="simple")
    if rules.layout == "stock":
        text += f"\nstock ({len(position.stock)}, top first): {cards_text(position.stock, deal) or '-'}"
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
        rows.append([first + k, leader, cards_text(cards, deal), winner,
                     side_label(rules, rules.side(winner - 1))])
    return tabulate(rows, headers=["trick", "leader", "cards in play order", "won by", "side"],
                    tablefmt="simple")


def moves_table(result: Result) -> str:
    """Every legal card, optimal ones first, with what it costs the player to move."""
    deal = result.deal
    own = deal.rule_set.side(result.to_move - 1)
    rows = []
    for move in sorted(result.moves, key=lambda m: (result.totals[own] - m.totals[own], m.group)):
        loss = move.totals[own] - result.totals[own]
        rows.append([card_text(move.card, deal), f"{move.totals[0]} - {move.totals[1]}",
                     "*" if move.optimal else "", f"{loss:+d}" if loss else ""])
    return tabulate(rows, headers=["card", "totals", "optimal", "vs best"], tablefmt="simple")


def solve_report(result: Result) -> str:
    deal = result.deal
    position = deal.position()
    out = [headline(deal), ""]
    out.append(position_table(deal, position))
    out.append("")
    if result.start_points != (0, 0):
        out.append(f"already won: {totals_text(deal, result.start_points)}")
    if result.to_move is None:
        out.append(f"The deal is over. {totals_text(deal, result.totals)}")
        return "\n".join(out)
    out.append(f"Double-dummy result: {totals_text(deal, result.totals)}")
    out.append(f"({result.nodes:,} nodes, {result.seconds * 1000:.1f} ms)")
    if result.moves:
        out += ["", f"Cards of seat {result.to_move} (to play):", moves_table(result)]
    if result.line_tricks:
        out += ["", "One optimal line:", line_table(result)]
    return "\n".join(out)


def solve_json(result: Result) -> dict:
    deal = result.deal
    return {
        "game": deal.game,
        "unit": deal.rule_set.unit,
        "totals": list(result.totals),
        "line": [card_text(c, deal) for c in result.line],
        "moves": [{"card": card_text(m.card, deal), "totals": list(m.totals), "optimal": m.optimal,
                   "group": m.group} for m in result.moves],
        "to_move": result.to_move,
        "already_won": list(result.start_points),
        "tricks": [{"leader": leader, "cards": [card_text(c, deal) for c in cards], "winner": winner}
                   for leader, cards, winner in result.line_tricks],
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
    }

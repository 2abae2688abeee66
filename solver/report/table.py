"""The report of ``stich table``: every trump (and first leader) of a deal, as a grid and JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabulate import tabulate

from stich.deals.deal import Deal
from stich.model.cards import suit_name
from stich.model.rules import side_label

from .common import (
    STOPPED_WORDS,
    UNIT_WORDS,
    bounds_json,
    game_sections,
    headline,
    level_text,
    listed,
)

if TYPE_CHECKING:   # types only: a plain `stich solve` does not load the analyses
    from stich.analysis.table import Table


def _levels_text(levels, deal: Deal) -> str:
    """Outcome levels still possible, e.g. 'seats 1+3 schneider or seats 1+3 win'."""
    return " or ".join(level_text(level) if winner is None else f"{side_label(deal.rule_set, winner - 1)} {level}"
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
    if table.rules_used:
        used = ", ".join(f"{name} = {value}" for name, value in table.rules_used)
        mine = ", ".join(f"{name} = {deal.options.get(name)}" for name, _ in table.rules_used)
        out += [f"Every row is solved with {used}, not the file's {mine}",
                "(stich solve uses the file's rules).", ""]
    if table.ignored_play:
        out.append("(the table is of the deal as dealt: the cards in `play` are not played)")
    if not table.exact:
        solved = sum(c.exact for c in table.cells)
        out.append(f"PARTIAL TABLE: {STOPPED_WORDS.get(table.stopped, table.stopped)}; {solved} of "
                   f"{table.planned} cells exact, the others show only what is proven "
                   f"(totals as low..high ranges).")
    leaders = sorted({c.leader for c in table.cells})
    if len(leaders) > 1:             # a declarer chooses: every trump by every first leader
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


def table_json(table: Table) -> dict:
    """The table as JSON; trumps are named as the report names them (the deal's notation)."""
    deal = table.deal
    return {
        "game": deal.game,
        "cells": [{"trump": suit_name(c.trump, deal.notation), "leader": c.leader, "totals": list(c.exact_totals),
                   "outcome": c.exact_outcome.as_json(), "nodes": c.nodes} if c.exact else
                  {"trump": suit_name(c.trump, deal.notation), "leader": c.leader, "exact": False,
                   "totals": listed(c.totals), "bounds": bounds_json(c.bounds), "outcome": None,
                   "levels": [{"level": level, "winner": winner} for level, winner in c.levels],
                   "nodes": c.nodes}
                  for c in table.cells],
        "best_trump": {str(seat): suit_name(suit, deal.notation) for seat, suit in table.best_trump.items()},
        "rules_used": dict(table.rules_used),
        "ignored_play": table.ignored_play,
        **({} if table.exact else {"exact": False, "stopped": table.stopped,
                                   "cells_planned": table.planned}),
    }

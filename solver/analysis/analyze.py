"""Every legal card scored: totals, outcome, difference to the best, equivalent cards grouped.

Equivalent cards (same suit, nothing still in play between them, same value, nothing beneath
them in a pile) always have the same value; they are one row unless ``expand``.
``all_seats``: the same table for each seat as if it were to lead now (a position at the
start of a trick, rebuilt as an ending whose `taken` are the points won so far).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from stich.core.anytime import Limits
from stich.deals.deal import Deal, DealError, loads
from stich.model.cards import Card
from stich.search.solve import DEFAULT_TT_MEGABYTES, MoveValue, Result, new_engine, solve


@dataclass(frozen=True)
class Row:
    cards: tuple[Card, ...]          # one card, or an equivalent group
    totals: tuple[int, int]
    loss: int                        # what it costs the player to move against the best card
    optimal: bool
    level: str | None
    winner: int | None
    rank: int | None
    pair: int | None = None          # the pair shown with the lead (a Mariage marriage)


@dataclass(frozen=True)
class Analysis:
    deal: Deal
    result: Result
    seat: int                        # 1-based seat to move
    rows: tuple[Row, ...]


def rows_of(result: Result, expand: bool) -> tuple[Row, ...]:
    own = result.deal.rule_set.side(result.mover - 1)
    groups: dict[int, list[MoveValue]] = {}
    for move in result.moves:
        groups.setdefault(move.group if not expand else id(move), []).append(move)
    rows = []
    for moves in groups.values():
        first = moves[0]
        rows.append(Row(tuple(m.card for m in moves), first.exact_totals,
                        result.exact_totals[own] - first.exact_totals[own], bool(first.optimal),
                        first.level,
                        first.winner, first.rank, first.pair))
    sign = 1 if own == 0 else -1
    rows.sort(key=lambda r: (not r.optimal, -sign * (r.rank or 0), r.loss))
    return tuple(rows)


def analysis_of(deal: Deal, result: Result, seat: int, expand: bool) -> Analysis:
    """The rows of an exact result; a partial one (a limit was hit) keeps only its result,
    whose cards say what is proven of them."""
    return Analysis(deal, result, seat, rows_of(result, expand) if result.exact else ())


def analyze(deal: Deal, *, objective: str = "score", expand: bool = False,
            tt_megabytes: int = DEFAULT_TT_MEGABYTES, limits: Limits | None = None) -> Analysis:
    """Every legal card of the player to move scored; ``limits`` for the position."""
    result = solve(deal, objective=objective, tt_megabytes=tt_megabytes, limits=limits)
    if result.to_move is None:
        raise DealError("the deal is over: there is no card to play", "play", deal.source)
    return analysis_of(deal, result, result.to_move, expand)


def as_leader(deal: Deal, seat: int) -> Deal:
    """The current position with ``seat`` to lead: an ending with the cards still out and
    the points won so far as `taken`.  Only at the start of a trick."""
    position = deal.position()
    if position.is_over():
        raise DealError("the deal is over: there is no card to play", "play", deal.source)
    if position.trick:
        raise DealError("--all-seats needs a position at the start of a trick (the last trick "
                        "in `play` is unfinished)", "play", deal.source)
    changed = replace(deal, play=(), leader=seat, taken=(position.points[0], position.points[1]),
                      **deal.game_spec.layout.as_ending(position))
    return loads(changed.dump(), deal.source)


def analyze_all_seats(deal: Deal, *, objective: str = "score", expand: bool = False,
                      tt_megabytes: int = DEFAULT_TT_MEGABYTES,
                      limits: Limits | None = None) -> list[Analysis]:
    """The analysis for each seat as leader; ``limits`` for each seat's position.  Ctrl-C
    ends the list with the seat it interrupted (partial)."""
    engine = new_engine(tt_megabytes)
    out = []
    for seat in range(1, deal.players + 1):
        lead = as_leader(deal, seat)
        # the same cards with another leader: every stored position is still valid
        result = solve(lead, objective=objective, engine=engine, keep_tt=seat > 1, limits=limits)
        out.append(analysis_of(lead, result, seat, expand))
        if result.stopped == "interrupt":
            break
    return out

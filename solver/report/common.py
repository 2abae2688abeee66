"""What every report shares: cards, moves and totals in words, the position as a table.

Cards are written in the deal's own notation, so a German deal reads back in German.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from tabulate import tabulate

from stich.deals.deal import Deal, show_text
from stich.games.base import LEVEL_WORDS
from stich.model.cards import Card
from stich.model.position import Position
from stich.model.rules import RuleSet, side_label
from stich.search.solve import Result

if TYPE_CHECKING:   # types only: a plain `stich solve` does not load the analyses
    pass

UNIT_WORDS = {"tricks": "tricks", "points": "card points", "honours": "honours"}
ONE_UNIT = {"tricks": "trick", "card points": "card point", "honours": "honour"}    # "1 trick"


def share_text(share: float) -> str:
    """A share as a whole percent, except that only an exact 0 or 1 reads "0%" or "100%": a
    card best on 99.8% of the layouts must not look like one best on all of them."""
    if share >= 1 - 1e-12:
        return "100%"
    if share <= 1e-12:
        return "0%"
    for digits in (0, 1):
        text = f"{share * 100:.{digits}f}"
        if text not in ("0", "100", "0.0", "100.0"):
            return text + "%"
    return "<0.1%" if share < 0.5 else ">99.9%"


def parts_texts(total: float, parts: list[float]) -> tuple[str, list[str]]:
    """A share and the shares it splits into, to a tenth of a percent, the parts rounded so
    that they add up to the total as printed (largest remainders); a part too small to show
    is "<0.1%"."""
    tenths = round(total * 1000)
    if 0 < total < 1 - 1e-12:                     # 100% and 0% only when exact (``share_text``)
        tenths = min(max(tenths, 1), 999)
    exact = [p * 1000 for p in parts]
    shown = [math.floor(x) for x in exact]
    for i in sorted(range(len(parts)), key=lambda i: exact[i] - shown[i], reverse=True)[:max(0, tenths - sum(shown))]:
        shown[i] += 1

    def text(n: int) -> str:
        return f"{n / 10:.1f}".removesuffix(".0") + "%"
    return text(tenths), [text(n) if n else "<0.1%" for n in shown]


def mean_text(value: float) -> str:
    """A mean with two decimals, more where two would round it to a whole number it is not
    (3.998 is "3.998", not "4.00"); a whole number stays "4.00"."""
    text = f"{value:.2f}"
    digits = 2
    while float(text) == round(value) and abs(value - round(value)) > 1e-9 and digits < 4:
        digits += 1
        text = f"{value:.{digits}f}"
    return text


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


def amount_text(count: int, unit: str) -> str:
    """``count`` of a unit's words (``UNIT_WORDS``), one of them singular: "1 trick"."""
    return f"{count} {ONE_UNIT.get(unit, unit) if count == 1 else unit}"


def totals_text(deal: Deal, totals: tuple[int, int]) -> str:
    rules = deal.rule_set
    unit = UNIT_WORDS[rules.unit]
    return f"{side_label(rules, 0)}: {amount_text(totals[0], unit)}, {side_label(rules, 1)}: {amount_text(totals[1], unit)}"


STOPPED_WORDS = {"nodes": "the node limit was reached", "time": "the time limit was reached",
                 "interrupt": "it was interrupted"}


def range_text(low: int, high: int) -> str:
    return f"{low}" if low == high else f"{low}–{high}"


def bounds_text(deal: Deal, bounds) -> str:
    """Both sides' proven ranges, e.g. 'seats 1+3: 4–6 tricks, seats 2+4: 2–4 tricks'."""
    rules = deal.rule_set
    unit = UNIT_WORDS[rules.unit]
    return ", ".join(f"{side_label(rules, side)}: {range_text(*bounds[side])} {unit}" for side in (0, 1))


def listed(pair) -> list | None:
    return None if pair is None else list(pair)


def bounds_json(bounds) -> list | None:
    return None if bounds is None else [list(bounds[0]), list(bounds[1])]


def game_sections(deal: Deal) -> list[str]:
    """The sections the game adds to a report (Scharwenzel's matadors)."""
    out = []
    for title, headers, rows in deal.game_spec.extra_sections(deal):
        out += ["", f"{title}:", tabulate(rows, headers=headers, tablefmt="simple")]
    return out


def judged_by_totals(rows, objective: str) -> bool:
    """Were the cards of a solve for the score judged by their totals after all?  So where the
    position has no outcome ladder at its start (an ending whose total may still change, as
    Mariage's with cards out of play): then no card has an outcome level, or a card that
    is not optimal has the level of one that is (``rows``: each with optimal, level, winner)."""
    if objective != "score" or not rows:
        return False
    if all(row.level is None for row in rows):
        return True
    best = {(row.level, row.winner) for row in rows if row.optimal}
    return any(not row.optimal and (row.level, row.winner) in best for row in rows)


TOTALS_STAR_NOTE = ("* optimal here: keeps the best totals, as no outcome ladder applies at the start of "
                    "this position (its total may still change: its outcome is that of a best line)")


def score_star_note(rules: RuleSet) -> str:
    """Why a card that loses some of the unit can still be marked optimal (*)."""
    unit = UNIT_WORDS[rules.unit]
    return f"* optimal under --objective score: keeps the best outcome, even if it gives up {unit}"


def level_text(level: str) -> str:
    """A level as the table prints it: the ladder's name where it says who won and by how much
    ("simple (1, own side)"), a player's words for a level that names no side (a label without
    a side is the bare key: "Ständer (10–10)", "the draw"); ``--json`` keeps the ladder's
    names."""
    words = LEVEL_WORDS.get(level)
    return words.removeprefix("a ") if words else level

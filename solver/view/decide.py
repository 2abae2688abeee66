"""Which cards' exact totals decide the player's view, and those totals on one layout.

Under the score objective the advice orders the cards by expected outcome rung, then by
expected total.  Once every card's rung is known on every layout (``layout_rungs``), a total
matters only where it breaks a tie that names the best card or the runner-up: the cards on the
top expected rung when several share it, else the cards on the second expected rung when
several share that (the runner-up is the best of them by expected total).  A card alone on
its rung is placed by the rung, and where the top two rungs are one card's each the rungs
decide everything.  The expected rungs are compared as integer sums over the same layouts,
never as floats.  ``card_totals`` then finds those cards' exact
totals on a layout, one exact search after each card, and nothing for the other cards.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from functools import partial

from stich.deals.deal import loads
from stich.model.outcome import rank_for, undecided_rank
from stich.model.rules import RuleSet
from stich.run.pool import worker_engine


def rank_sums(per_layout: list[list[tuple]]) -> dict[str, int] | None:
    """Each card's rung summed over the layouts (higher is better for the seat's side); None
    where some layout has no rung (no ladder: the totals decide every card)."""
    sums: dict[str, int] = {}
    for rows in per_layout:
        for row in rows:
            if row[4] is None:
                return None
            sums[row[0]] = sums.get(row[0], 0) + row[4]
    return sums


def deciding_groups(sums: dict[str, int], best: bool = False) -> list[int]:
    """The rung sums whose cards' totals decide: the top one when several cards share it,
    else the second one when several share that (the runner-up is chosen among them), else
    none.  ``best``: the top sum in any case (a caller that prints the best card's total)."""
    levels = sorted(set(sums.values()), reverse=True)
    shared = [s for s in levels[:2] if sum(1 for v in sums.values() if v == s) > 1]
    groups = shared[:1]
    return sorted({levels[0], *groups}, reverse=True) if best else groups


def deciding_cards(per_layout: list[list[tuple]], objective: str, extra: Iterable[str] = (),
                   best: bool = False) -> set[str]:
    """The cards whose expected totals the advice needs (``extra``: cards a caller reads too;
    ``best``: the best card's too)."""
    cards = {row[0] for row in per_layout[0]}
    sums = rank_sums(per_layout) if objective == "score" else None
    if sums is None:
        return cards
    groups = deciding_groups(sums, best)
    return {card for card, s in sums.items() if s in groups} | (set(extra) & cards)


def card_totals(text: str, seat: int, cards: tuple[str, ...], tt_megabytes: int, limits=None,
                share: str | None = None, engine=None,
                ranks: tuple[int, ...] | None = None, warm: bool = False
                ) -> dict[str, tuple[int, int]] | None:
    """The exact final totals (seat's side, other side) after each card of ``cards`` on one
    layout (its deal TOML), every other card searched not at all; None when ``limits`` were
    hit.  Ctrl-C is passed on.  ``share`` and ``engine`` as for ``score_layout``.  ``ranks``:
    each card's rung on this layout from the seat's side (``layout_rungs``), which bounds its
    total where the ladder's conditions are point thresholds (``rung_window``).  ``warm``: the
    engine has just searched this very layout (its rungs): its table is kept whole."""
    from stich.core.anytime import Limits, Stopped
    from stich.search.session import Session
    deal = loads(text, "<layout>")
    engine = engine if engine is not None else worker_engine(tt_megabytes)
    if share is not None and not warm:
        engine.next_layout(share)
    engine.new_search()
    session = Session(deal, deal.position(), engine, share is not None or warm, limits or Limits())
    side = RuleSet.side_of(seat)
    wanted, out, guess = set(cards), {}, None
    rank_of = dict(zip(cards, ranks)) if ranks is not None else {}
    middle = undecided_rank(session.ladder())
    try:
        for group in session.classes():
            texts = [session.tables.cards[i & 63].text(deal.notation) for i in group]
            if not wanted.intersection(texts):
                continue
            with session.after(group[0]):
                rank = rank_of.get(texts[0] if texts[0] in wanted else next(t for t in texts if t in wanted))
                window = {} if rank is None else rung_window(session, rank_for(side, rank, middle))
                if guess is not None and window.get("at_least", guess) <= guess <= window.get("at_most", guess):
                    window["guess"] = guess
                rest = 0 if session.over else session.limited_value(**window)
                guess = rest
                totals = session.guarded(partial(session.final_totals, rest))
            for card in texts:
                out[card] = (totals[side], totals[1 - side])
    except Stopped as stop:
        if stop.reason == "interrupt":
            raise KeyboardInterrupt from None
        return None
    return {card: out[card] for card in cards}


def rung_window(session, rank: int) -> dict:
    """Bounds on the value from the current node (``bounded_value`` keywords) when side 0's
    forced rung here is ``rank``: the ladder's first condition that holds is that rung's, so
    its point threshold holds and every earlier threshold fails.  Other conditions (runs of
    tricks) bound nothing; nor does anything where the game is not constant-sum."""
    from stich.model.outcome import AtLeast
    if not session.root.rules.constant_sum or session.over:
        return {}
    base, rest = session.side0_final(0), session.engine.remaining
    low, high = 0, rest
    for rung in session.ladder():
        condition = rung.condition
        if rung.rank == rank:
            if isinstance(condition, AtLeast):
                low = max(low, condition.total - base)
            if low > high:
                return {}                   # not this rung after all: search unbounded
            return {k: v for k, v in (("at_least", low), ("at_most", high))
                    if (k == "at_least" and v > 0) or (k == "at_most" and v < rest)}
        if isinstance(condition, AtLeast):
            high = min(high, condition.total - 1 - base)
    return {}                               # no such rung: no bounds


# --- the cards a worker expects to decide, from the layouts it has solved ----------------------------

_seen = threading.local()      # per worker: (layout set, rung sums over its layouts, how many)
WARM_AFTER = 3                 # layouts a worker has solved before it guesses the deciding cards
WARM_MOST = 2                  # ... and it guesses only when it expects at most this many


def expected_deciding(share: str, rows: list[tuple]) -> tuple[str, ...]:
    """The cards this worker expects to decide, from the rungs of the layouts of ``share`` it
    has solved (``rows``: the newest): their totals are cheapest right now, while the table
    holds this layout (none while it expects more than ``WARM_MOST``).  A guess that only
    spends time: the cards that do decide are found from
    every layout (``deciding_cards``), and totals of other cards are dropped."""
    if any(r[4] is None for r in rows):
        return ()
    if getattr(_seen, "share", None) != share:
        _seen.share, _seen.sums, _seen.count = share, {}, 0
    for r in rows:
        _seen.sums[r[0]] = _seen.sums.get(r[0], 0) + r[4]
    _seen.count += 1
    if _seen.count < WARM_AFTER or set(_seen.sums) != {r[0] for r in rows}:
        return ()
    groups = deciding_groups(_seen.sums)
    guess = tuple(sorted(card for card, s in _seen.sums.items() if s in groups))
    return guess if len(guess) <= WARM_MOST else ()     # early, many cards tie: a guess would waste

"""The player's view: which card to play from what a seat can see.

Every hidden layout consistent with the seat's information (``stich.view``) is solved
exactly, with every legal card scored; all cards are scored on the same layouts (paired).
``--exact`` (the default when there are at most ``EXACT_LIMIT`` layouts) takes every layout
once; otherwise ``samples`` layouts are drawn uniformly with a seed.  Per card: the expected
final total of the seat's side with a 95% interval, the distribution of outcome levels, and
the probability that the card is double-dummy best.  The card to play maximises the
expected total (``--objective total``) or the expected rung of the game's outcome ladder,
then the expected total (``--objective score``, the default).

Layouts are solved on all cores (or a Dask cluster) with one engine per worker, reused
for every layout it solves (``stich.run.pool``'s workers).

Under ``--objective score`` without the totals (``totals=False``, ``--no-totals``) a layout
needs only the outcome rung each card forces, not its exact total: the ladder's conditions
are tested one null-window search each (``layout_rungs``) instead of an exact search per card,
which at the first card of a whole deal takes about half the nodes.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from stich.deals.deal import Deal, loads
from stich.model.cards import Card
from stich.model.outcome import rank_for, undecided_rank
from stich.model.rules import RuleSet
from stich.run.pool import kept_pool, run_everywhere, worker_engine

from . import EXACT_LIMIT, InfoSet, count_layouts, every_layout, information, sample_layouts
from .decide import card_totals, deciding_cards, expected_deciding

Z95 = 1.959963984540054
MAX_EXACT = 100_000              # layouts --exact solves one by one at most (a day or so of whole deals)
MAX_SAMPLES = 100_000            # layouts --samples draws at most (each held as a deal until solved)

# One layout's verdict per card: (card text, own total, other total, level label, rank from the
# seat's side (higher is better for it, None without a ladder), double-dummy optimal)
Row = tuple


class TooManyLayouts(ValueError):
    """``exact`` asked for more layouts than ``MAX_EXACT``: they could not all be solved."""


class LayoutsInterrupted(KeyboardInterrupt):
    """Ctrl-C while layouts were solved: ``rows`` holds the layouts finished (index -> rows)."""

    def __init__(self, rows: dict[int, list | None]):
        super().__init__()
        self.rows = rows


def score_layout(text: str, seat: int, objective: str, tt_megabytes: int,
                 limits=None, share: str | None = None, totals: bool = True,
                 engine=None) -> list[Row] | None:
    """Solve one layout (its deal TOML) and score every legal card for ``seat``'s side;
    None when ``limits`` (for this layout) were hit.  Ctrl-C is passed on.

    ``share`` names the information set the layout belongs to (``layout_set``): when this
    worker's engine last solved a layout of the same set, the table entries valid for every
    layout are kept (``Engine.next_layout``), else the table starts empty.  ``totals`` False
    (under the score objective): the rung of each card only, its totals None.  ``engine``: solve
    on this engine instead of the worker's (a caller whose worker engine is busy)."""
    from stich.search.solve import solve
    deal = loads(text, "<layout>")
    engine = engine if engine is not None else worker_engine(tt_megabytes)
    if share is not None:
        engine.next_layout(share)       # clears the table, or keeps only what every layout shares
    if objective == "score" and not totals:
        rows = layout_rungs(deal, seat, engine, share is not None, limits)
        if rows is not NO_LADDER:
            return rows
    result = solve(deal, objective=objective, engine=engine, keep_tt=share is not None,
                   limits=limits)
    if result.stopped == "interrupt":
        raise KeyboardInterrupt
    if not result.exact:
        return None
    side = RuleSet.side_of(seat)
    middle = undecided_rank(deal.game_spec.ladder(deal.position(), deal)) if side else 0
    rows = []
    for move in result.moves:
        rank = None if move.rank is None else rank_for(side, move.rank, middle)
        rows.append((move.card.text(deal.notation), move.totals[side], move.totals[1 - side],
                     _level_label(move.level, move.winner, side), rank, move.optimal))
    return rows


def _tops_known(table: dict, cards: list, k: int) -> bool:
    """Is every total known of the cards on each layout's top rung?  (A card below it is not
    best there whatever its total: P(dd best) is then exact without the others' totals.)"""
    for i in range(k):
        top = max(table[card][i][4] for card in cards)
        if any(table[card][i][4] == top and table[card][i][1] is None for card in cards):
            return False
    return True


def _best_counts(table: dict, cards: list, k: int, use_rank: bool, with_totals: bool) -> dict:
    """On how many layouts each card is double-dummy best in the order the advice uses: the
    outcome rung, then the side's total (under the score objective every card reaching the
    same rung is "optimal", so that share alone would be 100% for every card of an easy deal)."""
    def key(row) -> tuple:       # (with_totals: the totals of every card on a layout's top rung)
        if use_rank:
            return (row[4], -math.inf if row[1] is None else row[1]) if with_totals else (row[4],)
        return (row[1],) if with_totals else (row[5],)
    counts = dict.fromkeys(cards, 0)
    for i in range(k):
        top = max(key(table[card][i]) for card in cards)
        for card in cards:
            counts[card] += key(table[card][i]) == top
    return counts


NO_LADDER = object()     # layout_rungs: the game has no ladder here (exact totals decide)


def layout_rungs(deal: Deal, seat: int, engine, keep_tt: bool, limits=None):
    """Every legal card's forced outcome rung, by the ladder's conditions alone: rows with
    no totals (None when ``limits`` were hit; ``NO_LADDER`` where the game has no ladder or
    scores bonuses apart).  The root's rung R first (the first condition that holds, one
    null-window search each, from the best rung down); then each card's
    rung, walking away from R (``ladder.child_rung``): the side that moved cannot have
    done better than R."""
    from stich.core.anytime import Limits, Stopped
    from stich.search.ladder import child_rung, forced_rung
    from stich.search.objectives import score_objective
    from stich.search.session import Session
    position = deal.position()
    if position.is_over() or score_objective(position) is not None:
        return NO_LADDER
    engine.new_search()
    session = Session(deal, position, engine, keep_tt, limits or Limits())
    ladder = session.ladder()
    if not ladder:
        return NO_LADDER
    side = RuleSet.side_of(seat)
    middle = undecided_rank(ladder)
    try:
        root = session.guarded(lambda: forced_rung(session))
        maximiser = session.maximising()
        rows = []
        for child in session.moves():
            rung = session.guarded(lambda: child_rung(session, root.rank, maximiser))
            rank = rank_for(side, rung.rank, middle)
            label = _level_label(rung.text, None if rung.winner is None else rung.winner + 1, side)
            for index in child.group:
                card = session.tables.cards[index & 63]
                rows.append((card.text(deal.notation), None, None, label, rank,
                             rung.rank == root.rank))
        return rows
    except Stopped as stop:
        if stop.reason == "interrupt":
            raise KeyboardInterrupt from None
        return None


def layout_set(info: InfoSet, objective: str) -> str:
    """A name for the layouts of ``info`` under ``objective`` (what ``score_layout`` shares)."""
    import hashlib
    text = f"{info.seat}\0{objective}\0{info.deal.dump()}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _level_label(level: str | None, winner: int | None, side: int) -> str | None:
    if level is None:
        return None
    if winner is None:
        return level
    whose = "own side" if winner - 1 == side else "other side"
    if level.endswith(")"):                        # "simple (1)": one pair of brackets, "simple (1, own side)"
        return f"{level[:-1]}, {whose})"
    return f"{level} ({whose})"


def _scores(jobs: list[tuple], objective: str, tt_megabytes: int, workers: int,
            dask_address: str | None, limits=None, totals: bool = True, spent: dict | None = None,
            work: Callable | None = None) -> Iterator[tuple[int, list[Row] | None]]:
    """(index, rows) for every (deal text, seat[, layout set]), in the order solved; one engine
    per worker.  ``spent``: filled with what each layout cost (``score_layout_spent``)."""
    calls = [(i, (job[0], job[1], objective, tt_megabytes, limits,
                  job[2] if len(job) > 2 else None, totals))
             for i, job in enumerate(jobs)]
    work = work or (score_layout if spent is None else score_layout_spent)
    for i, rows in run_everywhere(work, calls, jobs=workers, dask_address=dask_address,
                                  tt_megabytes=tt_megabytes):
        if isinstance(rows, BaseException):
            raise rows
        if spent is not None:
            rows, spent[i] = rows
        yield i, rows


def rungs_and_expected(text: str, seat: int, objective: str, tt_megabytes: int, limits=None,
                       share: str | None = None, totals: bool = False) -> list[Row] | None:
    """The first round of the deciding totals on a worker: every card's rung, and (without
    limits, once the worker has seen a few layouts of the set) the totals of the cards it
    expects to decide, found at once on the table this layout left (``expected_deciding``)."""
    rows = score_layout(text, seat, objective, tt_megabytes, limits, share, totals)
    if rows is None or share is None or (limits is not None and limits.any):
        return rows
    cards = tuple(c for c in expected_deciding(share, rows)
                  if any(r[0] == c and r[1] is None for r in rows))
    if not cards:
        return rows
    found = card_totals(text, seat, cards, tt_megabytes, None, share, worker_engine(tt_megabytes),
                        _ranks(rows, cards), warm=True)
    return rows if found is None else _merge(rows, found)


def _merge(rows: list[Row], found: dict[str, tuple[int, int]]) -> list[Row]:
    """A layout's rows with the totals ``found`` put in."""
    return [(r[0], *found[r[0]], *r[3:]) if r[0] in found else r for r in rows]


def score_layout_spent(text: str, seat: int, objective: str, tt_megabytes: int, limits=None,
                       share: str | None = None, totals: bool = True):
    """``score_layout`` on the worker's engine, and what it spent: (rows, (nodes, seconds))."""
    engine = worker_engine(tt_megabytes)
    engine.reset_nodes()
    started = time.perf_counter()
    rows = score_layout(text, seat, objective, tt_megabytes, limits, share, totals)
    return rows, (engine.nodes, time.perf_counter() - started)


def card_totals_spent(text: str, seat: int, cards: tuple[str, ...], tt_megabytes: int, limits=None,
                      share: str | None = None, engine=None, ranks=None):
    """``card_totals`` on the worker's engine, and what it spent: (totals, (nodes, seconds))."""
    engine = worker_engine(tt_megabytes)
    engine.reset_nodes()
    started = time.perf_counter()
    found = card_totals(text, seat, cards, tt_megabytes, limits, share, engine, ranks)
    return found, (engine.nodes, time.perf_counter() - started)


def left_over(limits, spent: tuple[int, float] | None):
    """The per-layout ``limits`` less what a layout's first round ``spent`` (None: nothing left,
    the layout is over its limit)."""
    from stich.core.anytime import Limits
    if limits is None or not limits.any or spent is None:
        return limits
    nodes = None if limits.nodes is None else limits.nodes - spent[0]
    seconds = None if limits.seconds is None else limits.seconds - spent[1]
    if (nodes is not None and nodes < 1) or (seconds is not None and seconds <= 0):
        return None
    return Limits(nodes, seconds)


# --- aggregation (pure: checked against exact computation in the tests) --------------------------

@dataclass(frozen=True)
class CardView:
    card: str
    mean: float | None                   # expected final total of the seat's side (None:
                                         # not computed: not needed to decide, or "none")
    interval: tuple[float, float] | None  # 95% interval of the mean (exact: the mean itself)
    p_best: float                        # share of layouts where it is double-dummy best
    levels: dict[str, float]             # outcome level -> share of layouts
    mean_rank: float | None              # expected ladder rung from the seat's side


@dataclass(frozen=True)
class Advice:
    cards: tuple[CardView, ...]          # best first
    best: str
    runner_up: str | None
    margin: float | None                 # paired: best minus runner-up, in the deciding measure
    margin_interval: tuple[float, float] | None
    measure: str                         # "total" or "rung"
    layouts: int
    exact: bool
    tied: bool = False                   # best and runner-up equal on every layout
    # paired: best minus runner-up in the side's final total (the tie-break under the score)
    total_margin: float | None = None
    total_interval: tuple[float, float] | None = None
    # whose expected totals are known: "all", "deciding" (only those that decide the best card
    # and the runner-up, ``stich.view.decide``: none where the rungs decide) or "none"
    # (``totals="none"``)
    totals: str = "all"
    # P(dd best) by "total" (the rung, then the total: exact where every card on a layout's top
    # rung has its total) or by the "rung" alone (P(best rung))
    p_best_by: str = "total"
    # the rungs the cards reached, best first: (rung from the seat's side, its outcome level)
    rungs: tuple[tuple[int, str], ...] = ()
    # best and runner-up equal in the deciding measure on every layout (an exact mean of 0
    # alone does not say so)
    same: bool = False

    def sure(self, unit: str = "points") -> str:
        """How sure the choice is, in words; ``unit`` names the totals ("card points")."""
        if self.runner_up is None:
            return "the only card (or all cards are equivalent)"
        every = "every layout" if self.exact else "every layout solved"  # a sample proves no more
        if self.tied:
            return f"as good as {self.runner_up} on {every}"
        if self.measure == "rung" and self.margin == 0:    # equal rung sums: the expected totals decide
            same = (f"the same outcome as {self.runner_up} on {every}" if self.same else
                    f"the same expected outcome rung as {self.runner_up} (a better outcome on some "
                    f"layouts, a worse one on others)")
            if self.total_margin is None:          # the totals to break the tie were not found
                return f"{same} (the totals that would break the tie were not computed)"
            return f"{same}, and {_by(self.total_margin, self.total_interval, self.exact, unit, 'more')}"
        words = "rungs of the outcome" if self.measure == "rung" else unit
        if self.exact:
            return f"better than {self.runner_up} by {self.margin:.3g} {words} in expectation (exact)"
        low, high = self.margin_interval or (-math.inf, math.inf)
        if low == high:                  # the same on every layout drawn: no interval (width 0 reads exact)
            return (f"better than {self.runner_up} by {self.margin:.3g} {words} on every layout solved "
                    f"(the layouts not drawn may differ)")
        if low > 0:
            return (f"better than {self.runner_up} by {self.margin:.3g} {words} (95% interval {low:.3g} "
                    f"to {high:.3g})")
        return (f"not clearly better than {self.runner_up}: {self.margin:.3g} {words} "
                f"(95% interval {low:.3g} to {high:.3g} includes 0)")


def _by(margin: float, interval, exact: bool, unit: str, more: str) -> str:
    """'1.67 card points more in expectation (exact)'."""
    if exact or interval is None:
        return f"{margin:.3g} {unit} {more} in expectation" + (" (exact)" if exact else "")
    if interval[0] == interval[1]:   # the same on every layout drawn: no interval (width 0 reads exact)
        return f"{margin:.3g} {unit} {more} on every layout solved (the layouts not drawn may differ)"
    if interval[0] <= 0:             # the sample does not show the card ahead: said as for the rungs
        return (f"not clearly {margin:.3g} {unit} {more}: the 95% interval {interval[0]:.3g} to "
                f"{interval[1]:.3g} includes 0")
    return f"{margin:.3g} {unit} {more} in expectation (95% interval {interval[0]:.3g} to {interval[1]:.3g})"


def mean_interval(values: list[float], exact: bool, same_is_unknown: bool = False,
                  bounds: tuple[float, float] | None = None) -> tuple[float, tuple[float, float] | None]:
    """The mean and its 95% interval (normal approximation; exact: no error).
    ``same_is_unknown``: a sample whose values are all the same gives no interval (None)
    rather than one of width 0, which would read as exact: the layouts not drawn may differ.
    ``bounds``: what a value can be at all; the interval is cut to them (the normal
    approximation reaches past them, "5.26–6.24" where 6 is all there is)."""
    k = len(values)
    mean = sum(values) / k
    if exact:
        return mean, (mean, mean)
    if k < 2:
        return mean, None
    var = sum((v - mean) ** 2 for v in values) / (k - 1)
    if var == 0 and same_is_unknown:
        return mean, None
    half = Z95 * math.sqrt(var / k)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return mean, (low, high)


def total_range(table: dict[Any, list[Row]]) -> float | None:
    """All the points a deal gives out, where every known row says so alike (both sides'
    final totals, none negative, with one sum: the same cards remain on every layout); None
    where the sums differ (extras that depend on the layout) or a total is missing."""
    known = [r for rows in table.values() for r in rows if r[1] is not None]
    if not known or any(r[2] is None or min(r[1], r[2]) < 0 for r in known):
        return None
    sums = {r[1] + r[2] for r in known}
    return sums.pop() if len(sums) == 1 else None


def total_bounds(table: dict[Any, list[Row]], so_far: tuple[float, float] | None) -> tuple[float, float] | None:
    """What the seat's side can end with: at least what it has won so far, at most all the
    deal gives out less what the other side has won (``so_far``: both sides' points before
    the position, the seat's first; None in a game whose sum is not fixed, where layouts not
    drawn may give out more); None also where the rows disagree on the sum (``total_range``)."""
    points = total_range(table)
    if points is None or so_far is None:
        return None
    own, other = so_far
    return (own, points - other)


def aggregate(per_layout: list[list[Row]], exact: bool, objective: str,
              so_far: tuple[float, float] | None = None, mode: str | None = None) -> Advice:
    """Combine the per-layout verdicts into the advice (every card on the same layouts).  A
    card's expected total is given where its total is known on every layout; the cards of an
    expected rung are ordered by expected total only when all of theirs are known (else they
    keep the listing's order), and P(dd best) goes by the total only when every card's is.
    ``mode``: the ``totals`` the rows were solved with, if known ("deciding" stays so where the
    rungs decided without any total)."""
    k = len(per_layout)
    cards = [row[0] for row in per_layout[0]]
    table: dict[Any, list[Any]] = {card: [] for card in cards}
    for rows in per_layout:
        by_card = {row[0]: row for row in rows}
        if set(by_card) != set(cards):
            raise ValueError("the legal cards differ between layouts")
        for card in cards:
            table[card].append(by_card[card])
    use_rank = objective == "score" and all(r[4] is not None for rows in table.values() for r in rows)
    known = {card: all(r[1] is not None for r in table[card]) for card in cards}
    with_totals = all(known.values())
    by_total = with_totals or (use_rank and _tops_known(table, cards, k))
    best_on = _best_counts(table, cards, k, use_rank, by_total)
    sums = {card: sum(r[4] for r in table[card]) for card in cards} if use_rank else {}
    rung_of = {r[3]: r[4] for rows in table.values() for r in rows if r[3] is not None and r[4] is not None}
    own_range = total_bounds(table, so_far)
    reach = None if own_range is None else own_range[1] - own_range[0]
    margin_bounds = None if reach is None else (-reach, reach)
    views = []
    for card in cards:
        rows = table[card]
        mean, interval = (mean_interval([r[1] for r in rows], exact, True, own_range) if known[card]
                          else (None, None))
        counts: dict[str, int] = {}
        for r in rows:
            if r[3] is not None:
                counts[r[3]] = counts.get(r[3], 0) + 1
        levels = {level: counts[level] / k                          # shares of whole counts: in [0, 1]
                  for level in sorted(counts, key=lambda name: -rung_of.get(name, 0))}   # best first
        views.append(CardView(card, mean, interval, best_on[card] / k, levels,
                              sums[card] / k if use_rank else None))
    views.sort(key=_order(views, sums, use_rank), reverse=True)   # stable: ties keep the listing
    best = views[0].card
    runner = views[1].card if len(views) > 1 else None
    margin, margin_interval, same, total_margin, total_interval, tied = (
        _margins(table[best], table[runner], exact, use_rank, margin_bounds, known[best] and known[runner])
        if runner is not None else (None, None, False, None, None, False))
    totals = ("all" if with_totals else "deciding" if mode == "deciding" or any(known.values())
              else "none")
    return Advice(tuple(views), best, runner, margin, margin_interval,
                  "rung" if use_rank else "total", k, exact, tied, total_margin, total_interval,
                  totals, "total" if by_total or not use_rank else "rung",
                  tuple(sorted(((rung, level) for level, rung in rung_of.items()), reverse=True)), same)


def _margins(best: list, runner: list, exact: bool, use_rank: bool, bounds, totals_known: bool) -> tuple:
    """Best minus runner-up on the same layouts (their rows): the margin in the deciding
    measure, its interval and whether it is 0 on every layout, the margin in totals and its
    interval (None where a total is not known), and whether the two are equal on every
    layout."""
    col = 4 if use_rank else 1
    diffs = [a[col] - b[col] for a, b in zip(best, runner)]
    margin, interval = mean_interval(diffs, exact, bounds=None if use_rank else bounds)
    same = all(d == 0 for d in diffs)
    if same:
        interval = (0, 0)
    total_margin = total_interval = None
    if totals_known:
        total_margin, total_interval = mean_interval([a[1] - b[1] for a, b in zip(best, runner)], exact,
                                                     bounds=bounds)
    tied = all(a[1] == b[1] and a[4] == b[4] for a, b in zip(best, runner))
    return margin, interval, same, total_margin, total_interval, tied


def _order(views: list[CardView], sums: dict[str, int], use_rank: bool) -> Callable:
    """The advice's sort key: the expected rung (its integer sum over the layouts), then the
    expected total among cards of one rung whose totals are all known."""
    if not use_rank:
        every = all(v.mean is not None for v in views)
        return lambda v: (v.mean if every else 0,)
    whole = {s: all(v.mean is not None for v in views if sums[v.card] == s) for s in sums.values()}
    return lambda v: (sums[v.card], v.mean if whole[sums[v.card]] else 0)


# --- the command's work --------------------------------------------------------------------------

@dataclass(frozen=True)
class Suggestion:
    info: InfoSet
    advice: Advice | None        # None: no layout was finished within the limits
    count: int                   # consistent layouts in all
    mode: str                    # "exact" or "samples"
    seed: int | None
    objective: str
    seconds: float
    left_out: int = 0            # layouts that hit the limit: not in the figures
    unfinished: int = 0          # layouts not solved because Ctrl-C stopped the work
    stopped: str | None = None   # "interrupt" after Ctrl-C

    @property
    def exact(self) -> bool:
        return self.left_out == 0 and self.unfinished == 0


def choose_layouts(info: InfoSet, samples: int | None, seed: int, exact: bool | None,
                   limit: int = EXACT_LIMIT) -> tuple[list[dict], int, bool]:
    """(layouts, count, exact): every layout with ``exact`` (or by default when at most
    ``limit``, or when ``samples`` asks for at least as many draws as there are layouts:
    every one solved once is cheaper and exact), else ``samples`` uniform draws;
    ``TooManyLayouts`` for ``exact`` over ``MAX_EXACT``."""
    count = count_layouts(info)
    if exact is None:
        exact = count <= limit if samples is None else count <= min(samples, MAX_EXACT)
        if samples is None and not exact:
            samples = 100
    if exact and count > MAX_EXACT:
        raise TooManyLayouts(f"{count:,} consistent layouts are too many to solve each (at most "
                             f"{MAX_EXACT:,}): draw a sample instead (--samples)")
    if exact:
        return list(every_layout(info)), count, True
    return sample_layouts(info, samples or 100, seed), count, False


TOTALS = ("deciding", "all", "none")


def totals_mode(totals: bool | str) -> str:
    """``suggest``'s ``totals``: "deciding" (the default), "all", "none"; True and False stand
    for "all" and "none"."""
    mode = {True: "all", False: "none"}.get(totals, totals) if isinstance(totals, bool) else totals
    if mode not in TOTALS:
        raise ValueError(f"totals must be one of {', '.join(TOTALS)}, not {totals!r}")
    return mode


def suggest(info: InfoSet, *, samples: int | None = None, seed: int = 0, exact: bool | None = None,
            objective: str = "score", jobs: int | None = None, dask_address: str | None = None,
            tt_megabytes: int = 64, limit: int = EXACT_LIMIT,
            progress: Callable[[int, int], None] | None = None, limits=None,
            share_tables: bool = True, totals: bool | str = "deciding") -> Suggestion:
    """Advice for the seat of ``info`` (it must be to move).  ``limits`` apply to each
    layout: a layout that hits them is left out of the figures and counted
    (``Suggestion.left_out``); with every layout left out there is no advice (``advice``
    None).  Ctrl-C keeps the layouts finished (``unfinished`` counts the others, ``stopped``
    says "interrupt").  ``share_tables``: a worker keeps the table entries valid for every
    layout from one layout to the next (``score_layout``).  ``totals`` under the score
    objective: "deciding" (the default) the expected totals of the cards that decide the best
    card and the runner-up only (``solve_deciding``), "all" every card's, "none" no card's
    (cards tied in the expected rung stay in the order of the listing)."""
    started = time.perf_counter()
    mode = totals_mode(totals)
    layouts, count, is_exact = choose_layouts(info, samples, seed, exact, limit)
    texts = [info.fill(layout).dump() for layout in layouts]
    share = layout_set(info, objective) if share_tables else None
    stopped = None
    try:
        results = solve_deciding([(t, info.seat, share) for t in texts], objective, jobs,
                                 dask_address, tt_megabytes, progress, limits, mode)
    except LayoutsInterrupted as stop:
        results, stopped = [stop.rows[i] for i in sorted(stop.rows)], "interrupt"
    kept = [rows for rows in results if rows is not None]
    # a layout left out makes even an enumeration of every layout inexact
    advice = (aggregate(kept, is_exact and len(kept) == len(texts), objective, won_so_far(info), mode)
              if kept else None)
    return Suggestion(info, advice, count, "exact" if is_exact else "samples",
                      None if is_exact else seed, objective, time.perf_counter() - started,
                      len(results) - len(kept), len(texts) - len(results), stopped)


def won_so_far(info: InfoSet) -> tuple[int, int] | None:
    """Both sides' points before the position, the seat's side first (the same on every
    layout: the cards played and ``taken``); None in a game whose points do not add up to
    the same on every layout (extras such as a marriage shown)."""
    from .infoset import relaxed_replay
    position = relaxed_replay(info.deal)[0]
    if not position.rules.constant_sum:
        return None
    side = position.rules.side(info.seat - 1)
    return position.points[side], position.points[1 - side]


def solve_deciding(jobs: list[tuple], objective: str, workers: int | None, dask_address: str | None,
                   tt_megabytes: int, progress=None, limits=None, mode: str = "deciding",
                   owner: list[int] | None = None,
                   extra: dict[int, tuple[str, ...]] | None = None,
                   best: bool = False) -> list[list[Row] | None]:
    """``solve_layouts`` for ``totals`` ``mode``.  "deciding" under the score objective: first
    every card's rung on every layout, then the exact totals of the deciding cards
    (``decide.deciding_cards``) on every layout, again until the layouts left out by the
    limits change nothing.  ``owner``: the advice each job belongs to (default: one for all),
    ``extra``: per advice, cards whose totals its caller reads too; ``best``: the best card's
    total too, wherever the rungs alone decide it.  Ctrl-C in the second pass
    keeps the layouts with every deciding card's total (``LayoutsInterrupted``)."""
    if mode != "deciding" or objective != "score":
        return solve_layouts(jobs, objective, workers, dask_address, tt_megabytes, progress, limits,
                             mode == "all" or objective != "score")
    with kept_pool():                   # both rounds on the same workers
        return _two_rounds(jobs, objective, workers, dask_address, tt_megabytes, progress, limits,
                           owner or [0] * len(jobs), extra or {}, best)


def _two_rounds(jobs, objective, workers, dask_address, tt_megabytes, progress, limits, owner,
                extra, best) -> list[list[Row] | None]:
    """``solve_deciding``'s rounds: the rungs, then the deciding totals until nothing is missing."""
    spent: dict | None = {} if limits is not None and limits.any else None
    results = solve_layouts(jobs, objective, workers, dask_address, tt_megabytes, progress, limits,
                            False, spent, None if spent is not None else rungs_and_expected)
    while True:
        missing = {}
        for n in sorted(set(owner)):
            mine = {i: rows for i, (o, rows) in enumerate(zip(owner, results))
                    if o == n and rows is not None}
            if not mine:
                continue
            need = deciding_cards(list(mine.values()), objective, extra.get(n, ()), best)
            for i, rows in mine.items():
                # a worker's guessed totals of other cards are dropped: what is shown never
                # depends on which worker solved what
                rows = results[i] = [r if r[0] in need else (r[0], None, None, *r[3:]) for r in rows]
                cards = tuple(sorted(r[0] for r in rows if r[0] in need and r[1] is None))
                if cards:
                    missing[i] = cards
        if not missing:
            return results
        _fill_totals(results, missing, jobs, workers, dask_address, tt_megabytes, progress, limits,
                     spent)


def _fill_totals(results: list, missing: dict[int, tuple[str, ...]], jobs: list[tuple],
                 workers, dask_address, tt_megabytes: int, progress, limits,
                 spent: dict | None = None) -> None:
    """The exact totals of ``missing``'s cards (layout index -> cards) put into ``results``
    (a layout that hits ``limits``, less what its first round ``spent``, becomes None; the
    limits are per layout, both rounds together).  Ctrl-C: ``LayoutsInterrupted`` with the
    layouts whose every missing total was found (the others are unfinished)."""
    rest = {i: left_over(limits, (spent or {}).get(i)) for i in missing}
    for i in [i for i in missing if limits is not None and limits.any and rest[i] is None]:
        results[i] = None                       # its first round used up the layout's limit
        missing.pop(i)
    calls = [(i, (jobs[i][0], jobs[i][1], cards, tt_megabytes, rest[i],
                  jobs[i][2] if len(jobs[i]) > 2 else None, None, _ranks(results[i], cards)))
             for i, cards in missing.items()]
    done = 0
    if progress:
        progress(0, len(calls))
    work = card_totals if spent is None else card_totals_spent
    try:
        for i, found in run_everywhere(work, calls, jobs=workers, dask_address=dask_address,
                                       tt_megabytes=tt_megabytes):
            if isinstance(found, BaseException):
                raise found
            if spent is not None:
                found, (nodes, seconds) = found
                spent[i] = (spent[i][0] + nodes, spent[i][1] + seconds)
            results[i] = None if found is None else [
                (row[0], *found[row[0]], *row[3:]) if row[0] in found else row for row in results[i]]
            missing.pop(i)
            done += 1
            if progress:
                progress(done, len(calls))
    except KeyboardInterrupt:
        raise LayoutsInterrupted({i: rows for i, rows in enumerate(results) if i not in missing}) from None


def solve_layouts(jobs: list[tuple], objective: str, workers: int | None,
                  dask_address: str | None, tt_megabytes: int,
                  progress: Callable[[int, int], None] | None = None,
                  limits=None, totals: bool = True, spent: dict | None = None,
                  work: Callable | None = None) -> list[list[Row] | None]:
    """Every (deal text, seat) scored, in order (None: a layout that hit ``limits``);
    local cores by default.  Ctrl-C raises ``LayoutsInterrupted`` with the layouts finished.
    ``spent``: filled with each layout's (nodes, seconds); ``work``: the worker function, if not
    ``score_layout``."""
    out: dict[int, list[Row] | None] = {}
    if progress:
        progress(0, len(jobs))
    try:
        for i, rows in _scores(jobs, objective, tt_megabytes, workers, dask_address, limits, totals,
                               spent, work):
            out[i] = rows
            if progress:
                progress(len(out), len(jobs))
    except KeyboardInterrupt:
        raise LayoutsInterrupted(out) from None
    return [out[i] for i in range(len(jobs))]


def _ranks(rows: list[Row], cards: tuple[str, ...]) -> tuple[int, ...] | None:
    """The rungs ``cards`` force on a layout (its rows), from the seat's side (None: unknown)."""
    rank = {r[0]: r[4] for r in rows}
    return None if any(rank[c] is None for c in cards) else tuple(rank[c] for c in cards)


def score_layouts_here(texts: list[str], seat: int, objective: str, tt_megabytes: int,
                       share: str | None, engine) -> list[list[Row] | None]:
    """``solve_deciding`` one layout after another on ``engine`` (in this thread): the rows
    ``aggregate`` needs for the best card and the runner-up."""
    rows = [score_layout(t, seat, objective, tt_megabytes, share=share, totals=False, engine=engine)
            for t in texts]
    kept = [r for r in rows if r is not None]
    need = deciding_cards(kept, objective) if kept else set()
    for i, text in enumerate(texts):
        cards = tuple(sorted(r[0] for r in rows[i] or () if r[0] in need and r[1] is None))
        if cards:
            found = card_totals(text, seat, cards, tt_megabytes, share=share, engine=engine,
                                ranks=_ranks(rows[i], cards))
            rows[i] = None if found is None else [
                (r[0], *found[r[0]], *r[3:]) if r[0] in found else r for r in rows[i]]
    return rows


def advise(deal: Deal, seat: int, **options) -> Advice | None:
    """Per-card expectations, levels and P(best) for ``seat`` (1-based, to move) of ``deal``
    from what it can see: ``suggest`` on its information set (options as for ``suggest``);
    None when every layout hit the limits."""
    return suggest(information(deal, seat), **options).advice


# --- judging a played game from the players' seats ------------------------------------------------

@dataclass(frozen=True)
class Judgement:
    trick: int
    seat: int
    card: str
    expected: float              # expected total of the player's side after the card played
    best: str                    # the card the player's view recommends
    best_expected: float
    loss: float                  # best minus played, in the deciding measure (0: best guess)
    p_best: float                # share of layouts where the played card is double-dummy best
    layouts: int
    exact: bool
    measure: str = "total"       # "total" (the game's unit) or "rung" (outcome ladder)
    left_out: int = 0            # layouts that hit the node or time limit (not in the figures)
    p_best_by: str = "total"     # P(dd best) by the rung then the total, or by the rung alone

    @property
    def judged(self) -> bool:
        return self.layouts > 0


class PlayInterrupted(KeyboardInterrupt):
    """Ctrl-C while ``judge_play`` judged the cards: ``judged`` holds the judgements of the
    tricks finished, in the order played."""

    def __init__(self, judged: list[Judgement]):
        super().__init__()
        self.judged = judged


def judge_play(deal: Deal, *, samples: int = 20, seed: int = 0, objective: str = "score",
               jobs: int | None = None, dask_address: str | None = None, tt_megabytes: int = 64,
               limit: int = EXACT_LIMIT, progress=None, limits=None,
               totals: bool | str = "deciding") -> list[Judgement]:
    """The player's-view judgement of every card in ``deal``'s play, from its player's seat.
    ``totals`` as for ``suggest`` (the played card's and the best card's totals are always
    found: the judgement prints both).
    ``limits`` apply to each layout: a layout that hits them is left out of its card's figures
    (counted in ``left_out``); a card whose every layout hit them is not judged.
    The cards are judged trick by trick on the same workers, so that Ctrl-C keeps the tricks
    finished (``PlayInterrupted``); ``progress(cards judged, cards)`` after each trick."""
    steps: list[tuple[int, int, Card, Any, Any, bool]] = []
    tricks = deal.play
    for t, trick in enumerate(tricks):
        for k, card in enumerate(trick):
            prefix = tricks[:t] + ((trick[:k],) if k else ())
            before = replace(deal, play=prefix)
            seat = _to_move(before)
            info = information(before, seat)
            layouts, _, is_exact = choose_layouts(info, samples if count_layouts(info) > limit else None,
                                                  seed + len(steps), None, limit)
            steps.append((t + 1, seat, card, info, layouts, is_exact))
    out: list[Judgement] = []
    if progress:
        progress(0, len(steps))
    try:
        with kept_pool():               # every trick on the same workers
            for trick in range(1, len(tricks) + 1):
                out += _judged(deal, [step for step in steps if step[0] == trick], objective, jobs,
                               dask_address, tt_megabytes, limits, totals)
                if progress:
                    progress(len(out), len(steps))
    except KeyboardInterrupt:
        raise PlayInterrupted(out) from None
    return out


def _judged(deal: Deal, steps: list[tuple], objective: str, jobs, dask_address, tt_megabytes: int,
            limits, totals) -> list[Judgement]:
    """``judge_play``'s judgements of ``steps`` (card played, with the layouts its player could
    not tell apart), their layouts solved together."""
    jobs_list, owner = [], []
    for n, (_, seat, _, info, layouts, _) in enumerate(steps):
        share = layout_set(info, objective)
        for layout in layouts:
            jobs_list.append((info.fill(layout).dump(), seat, share))
            owner.append(n)
    reads = {n: (step[2].text(deal.notation),) for n, step in enumerate(steps)}   # the played card
    rows = solve_deciding(jobs_list, objective, jobs, dask_address, tt_megabytes, None, limits,
                          totals_mode(totals), owner=owner, extra=reads, best=True)
    grouped: list[list] = [[] for _ in steps]
    for n, r in zip(owner, rows):
        grouped[n].append(r)
    out = []
    for (trick, seat, card, info, _layouts, is_exact), results in zip(steps, grouped):
        text = card.text(deal.notation)
        kept = [r for r in results if r is not None]
        left_out = len(results) - len(kept)
        if not kept:
            out.append(Judgement(trick, seat, text, float("nan"), "", float("nan"), float("nan"),
                                 float("nan"), 0, False, "none", left_out))
            continue
        advice = aggregate(kept, is_exact and not left_out, objective, won_so_far(info))
        view = {v.card: v for v in advice.cards}
        played, best = view[text], view[advice.best]
        loss = (best.mean_rank - played.mean_rank if advice.measure == "rung"
                else best.mean - played.mean)
        out.append(Judgement(trick, seat, text, played.mean, advice.best, best.mean, loss,
                             played.p_best, advice.layouts, is_exact and not left_out, advice.measure,
                             left_out, advice.p_best_by))
    return out


def _to_move(deal: Deal) -> int:
    return deal.position().to_move + 1

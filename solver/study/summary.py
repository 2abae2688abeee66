"""The statistics of a tactics study, each with its estimand named.

**The headline: following the advice for a whole deal** (estimand: the whole deal played by
the advice; each deal counts once, as the mean over the seats the advice applied to).  Per
run: its cost, perfect play's final total minus the run's, in the game's unit, from the
mover's side; whether its outcome is worse than perfect play's, and from which outcome to
which.  Policies: the advice (a uniform pick among the advised cards), its best and
worst case, and a random legal card at the same moments.  The comparison of advice and
random card is paired by deal.

**The one-off decisions** along the optimal line, under two estimands: each deal's first
decision where the tactic applied, and every decision with each deal weighted equally (the
mean over its decisions).  Per decision:

* a card *keeps the outcome* when it forces the best outcome the mover can force (objective
  score), and is *best by points* when its final total is the best;
* the chance that a uniformly chosen advised card is optimal, beside the same for a random
  legal card, the chance that every advised card is optimal, and for a random subset of the
  legal cards of the same size (exact: C(optimal, k) / C(legal, k));
* regret (the best card's total minus the card's) of a uniformly chosen advised card and of a
  random legal card, and of the best card the advice rules out, picked in hindsight (a
  column only, never tested: nobody at the table can pick it).

Every interval resamples deals and every test flips the sign of each deal's difference
(``stats``); Holm's correction runs over the tactics that applied at all, each distinct
advice once.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import partial

from stich.model.outcome import rank_for
from stich.model.rules import RuleSet
from stich.tactics import Tactic

from .records import DealRecord, Decision, Run
from .stats import (
    BREAKDOWN_RESAMPLES,
    RESAMPLES,
    SHARE,
    Comparison,
    Estimate,
    compare,
    holm,
    mean_over_deals,
    subset_all_optimal,
)
from .tables import (
    ByGroup,
    ConditionalRow,
    Estimand,
    NotExact,
    OneOffRow,
    PlayerOneOff,
    PlayerPolicy,
    PolicyTable,
    Situation,
    StudySummary,
    TacticSummary,
    Test,
)

POLICY_ESTIMAND = Estimand.WHOLE_DEAL.value
FIRST, EVERY = Estimand.FIRST, Estimand.EVERY
TOLERANCE = 1e-9

Records = list[tuple[str, str, DealRecord]]          # (deal id, deal text, record)


# --- one run, one decision -----------------------------------------------------------------------

@dataclass(frozen=True)
class RunScore:
    deal: str
    cost: float
    worse: bool
    change: str | None                    # a worse outcome: "perfect play's → the run's" (Result words)
    player_cost: float | None


def run_score(deal_id: str, record: DealRecord, run: Run) -> RunScore:
    """What a finished run cost against perfect play (a run a limit stopped has no score)."""
    result = run.result
    if result is None:
        raise ValueError(f"{deal_id}: a limit stopped the run of seat {run.seat}: it has no score")
    perfect = record.perfect[run.seat]
    side = RuleSet.side_of(run.seat)
    best, got = perfect.rank, result.rank
    worse, change = False, None
    if best is not None and got is not None and got < best:
        worse = True
        change = (f"{outcome_name(record, best, side, perfect.outcome)} → "
                  f"{outcome_name(record, got, side, result.outcome)}")
    return RunScore(deal_id, perfect.total - result.total, worse, change, run.player_cost)


def outcome_name(record: DealRecord, rank: int, side: int, fallback: str) -> str:
    """The outcome of ``rank`` (from ``side``) by its rung's words on the deal's ladder, with
    whose it is ("own win for the first", "other side's win"): a level alone ("win") can
    name two rungs.  ``fallback`` where the ladder lacks the rank."""
    first = rank_for(side, rank, next((r for r, _, winner in record.levels if winner is None), 0))
    for rung, words, winner in record.levels:
        if rung == first:
            return words if winner is None else ("own " if winner == side else "other side's ") + words
    return fallback


@dataclass(frozen=True)
class DecisionScore:
    deal: str
    ply: int
    advised_optimal: float                # the chance a uniformly chosen advised card is optimal
    every_advised_optimal: bool
    random_optimal: float
    subset_optimal: float                 # a random subset of as many cards: all optimal
    advised_best_total: float             # the same, "optimal" meaning best by points
    random_best_total: float
    advised_regret: float
    random_regret: float
    hindsight_regret: float               # the best card the advice rules out
    player_advised_regret: float | None
    player_random_regret: float | None


def decision_score(deal_id: str, d: Decision, name: str) -> DecisionScore:
    totals, ranks, advised = d.totals, d.ranks, d.advice[name]
    n, k = len(totals), len(advised)
    regret = [max(totals) - t for t in totals]
    best_total = [r == 0 for r in regret]
    optimal = [r == max(ranks) for r in ranks] if ranks is not None else best_total
    rest = [i for i in range(n) if i not in advised]
    player_advised = player_random = None
    if d.player is not None:
        loss = [max(d.player.totals) - t for t in d.player.totals]
        player_advised, player_random = sum(loss[i] for i in advised) / k, sum(loss) / n
    return DecisionScore(
        deal_id, d.ply, sum(optimal[i] for i in advised) / k, all(optimal[i] for i in advised),
        sum(optimal) / n, subset_all_optimal(sum(optimal), n, k),
        sum(best_total[i] for i in advised) / k, sum(best_total) / n,
        sum(regret[i] for i in advised) / k, sum(regret) / n, min(regret[i] for i in rest),
        player_advised, player_random)


# --- per deal, then over deals ---------------------------------------------------------------------

def per_deal(items: Iterable, value: Callable, deal: Callable = lambda x: x.deal) -> dict[str, float]:
    """The mean of ``value`` over each deal's items, by deal (in order of first appearance)."""
    groups: dict[str, list[float]] = defaultdict(list)
    for item in items:
        v = value(item)
        if v is not None:
            groups[deal(item)].append(float(v))
    return {key: sum(vs) / len(vs) for key, vs in groups.items()}


def over_deals(items: list, value: Callable, seed: str, resamples: int = RESAMPLES,
               bounds: tuple[float, float] | None = None) -> Estimate:
    return mean_over_deals(list(per_deal(items, value).values()), seed, resamples, bounds)


def regret_bounds(records: Records) -> tuple[float, float] | None:
    """What a card can give away at most: all the points of a deal (both sides' totals), the
    most of any deal; None when no deal has totals.  (Not a run's cost: under the score a run
    can end with more points than perfect play, and a lower outcome.)"""
    tops = [sum(record.totals) for _, _, record in records if record.totals]
    return (0.0, float(max(tops))) if tops else None


def paired_over_deals(items: list, a: Callable, b: Callable, seed: str, resamples: int = RESAMPLES):
    first, second = per_deal(items, a), per_deal(items, b)
    keys = [k for k in first if k in second]
    return compare([first[k] for k in keys], [second[k] for k in keys], seed, resamples)


# --- the headline ------------------------------------------------------------------------------------

def policy_table(records: Records, name: str, seed: str, resamples: int = RESAMPLES) -> PolicyTable:
    """What following the advice for a whole deal costs, against a random card."""
    runs: dict[str, list[RunScore]] = defaultdict(list)
    pairs = []
    for deal_id, _, record in records:
        by_seat: dict[int, dict[str, RunScore]] = defaultdict(dict)
        applied = {run.seat for run in record.runs if run.tactic == name and run.policy == "uniform" and run.applied}
        for run in record.runs:
            if run.tactic == name and run.result is not None:
                by_seat[run.seat][run.policy] = run_score(deal_id, record, run)
        for seat, scores in by_seat.items():
            if "uniform" in scores and "random" in scores and seat in applied:
                pairs.append((scores["uniform"], scores["random"]))
                for policy, score in scores.items():
                    runs[policy].append(score)
    table = PolicyTable(len(pairs), len({a.deal for a, _ in pairs}), deal_ids=frozenset(a.deal for a, _ in pairs))
    table.cost = {p: over_deals(runs[p], lambda s: s.cost, f"{seed}:cost:{p}", resamples) for p in runs}
    table.worse_outcome = {p: over_deals(runs[p], lambda s: s.worse, f"{seed}:worse:{p}", resamples, SHARE)
                           for p in ("uniform", "random") if p in runs}
    table.worse_outcomes = {p: _worse_outcomes(runs[p]) for p in ("uniform", "random") if p in runs}
    if pairs:
        table.vs_random = Test(compare_runs(pairs, lambda s: s.cost, f"{seed}:vs_random", resamples))
    if pairs and all(a.player_cost is not None for a, _ in pairs):
        uniform, random = (over_deals(runs[p], lambda s: s.player_cost, f"{seed}:player:{p}", resamples)
                           for p in ("uniform", "random"))
        table.player = PlayerPolicy(uniform, random, Test(compare_runs(pairs, lambda s: s.player_cost,
                                                                       f"{seed}:player_vs_random", resamples)))
    return table


def compare_runs(pairs: list, value: Callable, seed: str, resamples: int = RESAMPLES) -> Comparison:
    a = per_deal([x for x, _ in pairs], value)
    b = per_deal([y for _, y in pairs], value)
    return compare([a[k] for k in a], [b[k] for k in a], seed, resamples)


def _worse_outcomes(scores: list[RunScore]) -> dict[str, float]:
    """Per change of outcome ("own simple → tie"): the share of deals (each the mean over its
    seats) where the run ended there instead of perfect play's outcome, most frequent first.
    The shares add up to the share of deals with a worse outcome."""
    deals = len({s.deal for s in scores})
    out = {}
    for change in {s.change for s in scores if s.change is not None}:
        share = per_deal(scores, lambda s: s.change == change)  # noqa: B023 - called at once
        out[change] = sum(share.values()) / deals
    return dict(sorted(out.items(), key=lambda item: (-item[1], item[0])))


# --- the one-off decisions -----------------------------------------------------------------------------

def oneoff_rows(records: Records, name: str, seed: str, resamples: int = RESAMPLES) -> list[OneOffRow]:
    """The one-off statistics under each estimand."""
    scores = decision_scores(records, name)
    firsts = list({s.deal: s for s in reversed(scores)}.values())[::-1]
    top = regret_bounds(records)
    return [_oneoff(estimand, chosen, f"{seed}:{estimand}", resamples, top)
            for estimand, chosen in ((FIRST, firsts), (EVERY, scores))]


def decision_scores(records: Records, name: str) -> list[DecisionScore]:
    """Every exact decision where the tactic applied, scored, in deal order."""
    return [decision_score(deal_id, d, name) for deal_id, _, record in records
            for d in record.decisions if name in d.advice and d.exact and d.advice[name]]


def _oneoff(estimand: Estimand, scores: list[DecisionScore], seed: str, resamples: int = RESAMPLES,
            top: tuple[float, float] | None = None) -> OneOffRow:
    def est(field: str, bounds: tuple[float, float] | None = None) -> Estimate:
        return over_deals(scores, lambda s: getattr(s, field), f"{seed}:{field}", resamples, bounds)
    row = OneOffRow(estimand, len(scores), len({s.deal for s in scores}),
                    {"advised": est("advised_optimal", SHARE), "every_advised": est("every_advised_optimal", SHARE),
                     "random": est("random_optimal", SHARE), "random_subset": est("subset_optimal", SHARE)},
                    {"advised": est("advised_best_total", SHARE), "random": est("random_best_total", SHARE)},
                    {"advised": est("advised_regret", top), "random": est("random_regret", top),
                     "hindsight": est("hindsight_regret", top)})
    if scores:
        row.vs_random = Test(paired_over_deals(scores, lambda s: s.advised_regret, lambda s: s.random_regret,
                                               f"{seed}:vs_random", resamples))
    if scores and all(s.player_advised_regret is not None for s in scores):
        row.player = PlayerOneOff(est("player_advised_regret"), est("player_random_regret"),
                                  Test(paired_over_deals(scores, lambda s: s.player_advised_regret,
                                                         lambda s: s.player_random_regret,
                                                         f"{seed}:player_vs_random", resamples)))
    return row


# --- breakdowns ------------------------------------------------------------------------------------------

def feature_values(records: Records, name: str, feature: str) -> list:
    """The values ``feature`` took where the tactic applied (sorted, None last)."""
    values = {d.features_for(name).get(feature) for _, _, r in records for d in r.decisions if name in d.advice}
    values |= {run.features.get(feature) for _, _, r in records for run in r.runs if run.tactic == name}
    return sorted(values, key=lambda v: (v is None, str(type(v)), v if v is not None else 0))


def only(records: Records, name: str, feature: str, value) -> Records:
    """The records cut down to the decisions and runs whose ``feature`` is ``value``."""
    return only_where(records, name, lambda features: features.get(feature) == value)


def only_where(records: Records, name: str, keep: Callable[[dict], bool]) -> Records:
    """The records cut down to the decisions and runs whose features ``keep`` accepts."""
    out = []
    for deal_id, text, r in records:
        decisions = [d for d in r.decisions if name in d.advice and keep(d.features_for(name))]
        runs = [run for run in r.runs if run.tactic == name and keep(run.features)]
        out.append((deal_id, text, DealRecord(r.totals, r.line, r.perfect, decisions, runs, r.levels,
                                              r.nodes, r.exact, r.stopped)))
    return out


def conditional(records: Records, name: str, features: list[str], seed: str) -> list[ConditionalRow]:
    """The situations (one feature's value) where following the advice at a decision beats a
    random card, or loses to one: every decision there, the deals weighted equally, with an
    interval over deals that leaves out 0.  Exploratory: many situations are looked at, so
    read them as leads, not findings."""
    scored = [(decision_score(deal_id, d, name), d.features_for(name)) for deal_id, _, record in records
              for d in record.decisions if name in d.advice and d.exact and d.advice[name]]
    found = []
    for feature in features:
        groups: dict = defaultdict(list)
        for score, values in scored:
            if values.get(feature) is not None:
                groups[values[feature]].append(score)
        if len(groups) < 2:
            continue                       # one situation only: no condition at all
        for value, scores in groups.items():
            diff = per_deal(scores, lambda s: s.advised_regret - s.random_regret)
            if len(diff) < 5:
                continue
            est = mean_over_deals(list(diff.values()), f"{seed}:{feature}={value}", BREAKDOWN_RESAMPLES)
            if est.low > 0 or est.high < 0:
                found.append(ConditionalRow(feature, value, est.deals, len(scores), est,
                                            "advice worse" if est.low > 0 else "advice better"))
    found.sort(key=lambda f: (-abs(f.advice_minus_random.mean), f.feature, str(f.value)))
    return found


# --- the study ----------------------------------------------------------------------------------------------

def summarise_tactic(records: Records, tactic: Tactic, seed: int, objective: str, unit: str | None,
                     by: str | None = None, features: list[str] | None = None) -> TacticSummary:
    mine = [(i, t, r) for i, t, r in records if r.exact]
    key = f"{seed}:{tactic.name}"
    not_exact = NotExact(len(records) - len(mine),
                         sum(1 for _, _, r in mine for d in r.decisions if tactic.name in d.advice and not d.exact),
                         sum(1 for _, _, r in mine for run in r.runs
                             if run.tactic == tactic.name and run.result is None))
    row = TacticSummary(tactic.name, tactic.summary, tactic.sees_all, objective, unit, len(mine), not_exact,
                        policy_table(mine, tactic.name, key), oneoff_rows(mine, tactic.name, key))
    if by is not None:
        row.by = (by, [ByGroup(value, policy_table(part, tactic.name, f"{key}:{by}={value}", BREAKDOWN_RESAMPLES),
                               oneoff_rows(part, tactic.name, f"{key}:{by}={value}", BREAKDOWN_RESAMPLES))
                       for value in feature_values(mine, tactic.name, by)
                       for part in [only(mine, tactic.name, by, value)]])
    if features:
        row.conditional = conditional(mine, tactic.name, features, key)
    row.situations = situation_rows(mine, tactic.name, key)
    return row


AT_A_LEAD = {"holds the Ace": "the opponent holds the Ace", "void with a trump": "the opponent is void with a trump",
             "can beat it": "the opponent can beat it", "must follow under": "the opponent must follow under it",
             "nothing seen": "the opponent shows nothing", "mixed": "the advised cards meet different answers"}
FOLLOWING = {"yes": "the card wins the trick", "no": "the card does not win the trick",
             "some": "some advised cards win the trick"}


def situation(features: dict) -> str | None:
    """What the mover saw at his first use of the advice, as a player asks it: at a lead,
    what the opponent shows against the card; when following, whether the card wins."""
    shows, wins = features.get("opponent_shows"), features.get("card_wins")
    if shows is not None:
        return f"at a lead, {AT_A_LEAD.get(shows, shows)}"
    if wins is not None:
        return f"following, {FOLLOWING.get(wins, wins)}"
    return None


def situation_rows(records: Records, name: str, seed: str) -> list[Situation] | None:
    """The whole-deal cost split by what the mover saw at his first use of the advice
    (``situation``), when he saw more than one thing; every run falls in one group."""
    values = sorted({v for _, _, r in records for run in r.runs if run.tactic == name
                     and (v := situation(run.features)) is not None})
    if len(values) < 2:
        return None
    groups = []
    for value in values:
        table = policy_table(only_where(records, name, lambda f: situation(f) == value),  # noqa: B023
                             name, f"{seed}:situation={value}", BREAKDOWN_RESAMPLES)
        if table.deals:
            groups.append(Situation(value, table.deals, table.cost["uniform"], table.cost["random"]))
    return groups


def signature(records: Records, name: str) -> tuple:
    """What a tactic did in a study: its advice at every decision and its runs' choices (the
    picks are seeded without the tactic's name, so tactics that advise alike play alike)."""
    return tuple((i, tuple((d.ply, tuple(d.advice.get(name, ()))) for d in r.decisions),
                  tuple((run.seat, run.policy, tuple(run.chosen)) for run in r.runs if run.tactic == name))
                 for i, _, r in records)


def summarise(records: Records, tactics: list[Tactic], seed: int, objective: str, unit: str | None,
              by: str | None = None, features: list[str] | None = None) -> StudySummary:
    """Every tactic's statistics, with Holm-adjusted p-values over the tactics that applied.
    A tactic that did exactly what an earlier one did (``signature``) is one hypothesis, not
    two: it is marked ``same_as`` and shown that one's figures, not resampled again (seeded
    by its own name, they would differ in the last digit, and a p at the floor in one only)."""
    rows: list[TacticSummary] = []
    seen: dict[tuple, TacticSummary] = {}
    for tactic in tactics:
        sig = signature(records, tactic.name)
        twin = seen.get(sig)
        if twin is None:
            seen[sig] = row = summarise_tactic(records, tactic, seed, objective, unit, by, features)
        else:
            row = replace(twin, tactic=tactic.name, summary=tactic.summary, sees_all=tactic.sees_all,
                          same_as=twin.tactic)
        rows.append(row)
    _adjust(rows, lambda row: row.policy.vs_random)
    for k in range(2):
        _adjust(rows, partial(_oneoff_vs_random, k))
    return StudySummary(len(records), objective, seed, unit, rows)


def _oneoff_vs_random(k: int, row: TacticSummary) -> Test | None:
    return row.oneoff[k].vs_random


def _adjust(rows: list[TacticSummary], test: Callable[[TacticSummary], Test | None]) -> None:
    """Holm over the distinct tactics whose test exists (each same advice once: a twin shares
    its tests, ``summarise``)."""
    family = [(row, t) for row in rows if (t := test(row)) is not None and row.same_as is None]
    for (_, t), p in zip(family, holm([t.p for _, t in family])):
        t.p_holm = p


def headline_width(row: TacticSummary) -> float:
    """The width of a tactic's headline interval (advice minus random card, whole deals)."""
    diff = row.policy.vs_random
    if diff is None or math.isnan(diff.estimate.low):
        return float("inf")
    return diff.estimate.high - diff.estimate.low


# --- paired comparisons --------------------------------------------------------------------------------

PAIRED_ESTIMAND = Estimand.PAIRED


@dataclass
class PairedRow:
    """Tactic ``a`` against tactic ``b`` on the same deals and seats: each one's cost (the
    uniform pick among its advised cards) and the paired difference a - b with its interval
    and sign-flip test (``p_holm``: Holm over every pair of the study)."""

    a: str
    b: str
    deals: int
    seats: int
    cost_a: Estimate
    cost_b: Estimate
    difference: Comparison
    p_holm: float | None = None
    estimand: Estimand = PAIRED_ESTIMAND

    def as_json(self) -> dict:
        return {"a": self.a, "b": self.b, "estimand": str(self.estimand), "deals": self.deals, "seats": self.seats,
                "cost_a": self.cost_a.as_json(), "cost_b": self.cost_b.as_json(),
                "difference": {**self.difference.as_json(), "p_holm": self.p_holm}}


def seat_costs(records: Records, name: str, policy: str = "uniform") -> dict[tuple[str, int], float]:
    """(deal, seat) -> what the tactic's run by ``policy`` cost there (exact runs only)."""
    return {(deal_id, run.seat): run_score(deal_id, record, run).cost
            for deal_id, _, record in records for run in record.runs
            if run.tactic == name and run.policy == policy and run.result is not None}


def paired_row(records: Records, a: str, b: str, seed: str, resamples: int = RESAMPLES) -> PairedRow:
    """One pair on the (deal, seat)s both were played by; each deal once, the mean over its seats."""
    first, second = seat_costs(records, a), seat_costs(records, b)
    common = [key for key in first if key in second]
    per = [(key[0], first[key], second[key]) for key in common]
    cost_a = per_deal(per, lambda x: x[1], lambda x: x[0])
    cost_b = per_deal(per, lambda x: x[2], lambda x: x[0])
    deals = list(cost_a)
    return PairedRow(a, b, len(deals), len(common),
                     mean_over_deals([cost_a[k] for k in deals], f"{seed}:{a}", resamples),
                     mean_over_deals([cost_b[k] for k in deals], f"{seed}:{b}", resamples),
                     compare([cost_a[k] for k in deals], [cost_b[k] for k in deals], f"{seed}:{a}-{b}", resamples))


def paired_rows(records: Records, names: list[str], seed: int | str) -> list[PairedRow]:
    """Every pair of the tactics, in the order given, with Holm over the pairs."""
    mine = [(i, t, r) for i, t, r in records if r.exact]
    rows = [paired_row(mine, a, b, f"{seed}:paired") for k, a in enumerate(names) for b in names[k + 1:]]
    family = [row for row in rows if row.deals]
    for row, p in zip(family, holm([row.difference.p for row in family])):
        row.p_holm = p
    return rows

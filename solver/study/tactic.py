"""The tactics study: how good is a piece of advice against perfect play, over many deals.

Each deal is walked along one double-dummy optimal line (``lines.optimal_line``, under the study's
objective).  At every decision of that line (a seat with more than one legal card) where a tactic applies (``first``: only its first
one in the deal) every legal card is scored exactly: the final total of the mover's side after
it with perfect play on both sides, and (objective ``score``) the outcome it forces.  One
engine per worker: its table is cleared at the start of each deal (so a deal's result never
depends on which worker solved what before) and kept warm along the deal.

A decision record lists the legal cards with their scores and, for each tactic that applied,
the indices of the cards it advised; ``summarise`` turns records into the statistics.

Definitions (per decision; "regret" of a card = the best card's total minus its total, in the
game's unit, always from the mover's side):

* the advice is *optimal* when every advised card is optimal under the objective (total: its
  total is the best; score: it keeps the best outcome the mover can force); its regret is the
  mean regret over the advised cards (a follower picks any of them), its *best case* the least;
* the *random* baseline is a uniformly random legal card (exactly: the advice "all legal
  cards"), the *opposite* advice the best card the tactic does not advise;
* with ``score``: a card *loses a level* when its outcome is worse for the mover than the best
  card's, *loses a win* when the best card wins and it does not (means over advised cards).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from solver.core.anytime import Limits, Stopped
from solver.deals.deal import Deal, loads
from solver.run.pool import run_everywhere, worker_engine
from solver.run.results import BatchItem, ResultsFile, limits_json
from solver.search.ladder import forced_rung
from solver.search.lines import optimal_line
from solver.search.session import Session
from solver.tactics import Tactic, TacticError, get, make_view
from solver.tactics.loader import file_digest, load_file

STUDY_VERSION = 1


@dataclass(frozen=True)
class StudySettings:
    """What decides a deal's record besides the deal itself (part of its hash)."""

    tactics: tuple[str, ...]
    objective: str = "total"
    first: bool = False
    tactic_file: str | None = None
    tt_megabytes: int = 64
    limits: Limits | None = None        # for each deal's line and again for each decision
    view: str = "double-dummy"        # or "player": each decision also from the mover's view
    samples: int = 20                 # layouts per decision of the player's view
    view_seed: int = 0                # seed of the player's view's sampling

    def fingerprint(self) -> str:
        digest = file_digest(self.tactic_file) if self.tactic_file else ""
        key = [STUDY_VERSION, list(self.tactics), self.objective, self.first, digest]
        if self.limits is not None and self.limits.any:     # without limits: as before
            key.append([self.limits.nodes, self.limits.seconds])
        if self.view == "player":
            key += ["player", self.samples, self.view_seed]
        return json.dumps(key)


@dataclass(frozen=True)
class StudyItem(BatchItem):
    """A deal of a study; its hash covers the study settings too, so a results file of another
    study (other tactics, --first, tactic file) is not resumed from."""

    settings_key: str = ""

    @property
    def sha256(self) -> str:
        return hashlib.sha256((self.text + "\0" + self.settings_key).encode("utf-8")).hexdigest()


def resolve(names: tuple[str, ...], tactic_file: str | None) -> list[Tactic]:
    extra = load_file(tactic_file) if tactic_file else None
    return [get(name, extra) for name in names]


# --- one deal --------------------------------------------------------------------------------------

def _card_scores(searcher: Session, objective: str) -> list[tuple[Any, int, int | None, bool]]:
    """(card, mover's final total, mover's outcome score, mover wins) for every legal card."""
    position = searcher.position
    side = position.rules.side(position.to_move)
    constant = position.rules.constant_sum
    value = searcher.value()
    scores = []
    for child in searcher.moves():          # popped even when a limit stops a search inside
        group, gain = child.group, child.gain
        if searcher.engine.tricks_left:
            totals = searcher.final_totals(searcher.value(value - gain))
            rung = forced_rung(searcher, totals[0] if constant else None) if objective == "score" else None
        else:
            final = searcher.position
            totals = (final.points[0], final.points[1])
            rung = None
            if objective == "score":
                outcome = searcher.deal.game_spec.outcome(final, searcher.deal)
                rung = outcome
        rank = wins = None
        if rung is not None:
            rank = rung.rank if side == 0 else -rung.rank
            wins = _winner_side(rung) == side
        for index in group:
            scores.append((searcher.tables.cards[index], totals[side], rank, bool(wins)))
    return scores


def _winner_side(rung) -> int | None:
    """0/1 for a Rung (0-based side) or an Outcome (1-based winner)."""
    if hasattr(rung, "condition"):
        return rung.winner
    return None if rung.winner is None else rung.winner - 1


def _optimal_line(searcher: Session, objective: str) -> list[int]:
    """The deal's optimal line under the study's objective."""
    value = searcher.value()
    rung = None
    if objective == "score":
        constant = searcher.root.rules.constant_sum
        rung = forced_rung(searcher, searcher.final_totals(value)[0] if constant else None)
    return optimal_line(searcher, value, rung.rank if rung is not None else None)


def study_deal(deal: Deal, tactics: list[Tactic], objective: str, first: bool, engine,
               limits: Limits | None = None) -> dict:
    """Walk ``deal`` along an optimal line; the decisions where a tactic applied, scored.
    ``limits`` apply to the line and again to each decision's card values: a deal whose
    line is not found within them has no decisions (``"exact": false``), a decision whose
    cards are not all valued is kept with ``"exact": false`` and no values (counted apart).
    Ctrl-C is passed on (the deal is studied again on resume)."""
    position = deal.position()
    if position.is_over():
        return {"totals": list(position.points), "line": [], "decisions": [], "nodes": 0}
    engine.new_search()
    searcher = Session(deal, position, engine, keep_tt=False)
    engine.reset_nodes()
    searcher.limit(limits)
    try:
        line = searcher.guarded(lambda: _optimal_line(searcher, objective))
    except Stopped:
        if searcher.stopped == "interrupt":
            raise KeyboardInterrupt from None
        return {"totals": None, "line": [], "decisions": [], "nodes": engine.nodes, "exact": False,
                "stopped": searcher.stopped}
    mine = [t for t in tactics if t.game in (None, deal.game)]
    done: set[str] = set()
    decisions = []
    for ply, index in enumerate(line):
        active = [t for t in mine if not (first and t.name in done)]
        view = make_view(searcher.position, deal) if active else None
        if view is not None and len(view.legal) > 1:          # one legal card: no decision
            advice = {}
            for t in active:
                cards = t(view)
                if cards:
                    advice[t.name] = cards
            if advice:
                done.update(advice)
                searcher.limit(limits)
                scores = searcher.attempt(lambda: _card_scores(searcher, objective))
                if scores is None:
                    if searcher.stopped == "interrupt":
                        raise KeyboardInterrupt
                    decisions.append({"ply": ply, "seat": view.seat + 1, "cards": [], "exact": False,
                                      "advice": {name: [] for name in advice}})
                    searcher.stopped = None
                    searcher.push(index)
                    continue
                cards = [s[0] for s in scores]
                decisions.append({
                    "ply": ply, "seat": view.seat + 1,
                    "cards": [c.text(deal.notation) for c in cards],
                    "totals": [s[1] for s in scores],
                    "ranks": [s[2] for s in scores] if objective == "score" else None,
                    "wins": [s[3] for s in scores] if objective == "score" else None,
                    "advice": {name: [cards.index(c) for c in advised] for name, advised in advice.items()},
                })
        searcher.push(index)
    final = searcher.position
    nodes = engine.nodes
    for _ in line:
        searcher.pop()
    return {"totals": [final.points[0], final.points[1]],
            "line": [searcher.tables.cards[i].text(deal.notation) for i in line],
            "decisions": decisions, "nodes": nodes}


def study_item(item_id: str, text: str, settings: StudySettings) -> tuple[str, dict]:
    """One deal in a worker, with the worker's engine."""
    deal = loads(text, item_id)
    tactics = resolve(settings.tactics, settings.tactic_file)
    record = study_deal(deal, tactics, settings.objective, settings.first,
                        worker_engine(settings.tt_megabytes), settings.limits)
    if settings.view == "player":
        add_player_view(deal, record, settings)
    return item_id, record


def add_player_view(deal: Deal, record: dict, settings: StudySettings) -> None:
    """Each decision of ``record`` judged again from what its mover could see there (not the
    decisions whose card values a limit left unknown: they are counted apart already)."""
    from solver.model.cards import parse_card
    from solver.tactics.base import play_to

    from .tactic_view import decision_seed, player_view
    line = [parse_card(t, deal.notation) for t in record["line"]]
    text = deal.dump()
    for decision in record["decisions"]:
        if decision.get("exact", True) is False:
            continue
        here = deal.with_play(play_to(deal, line[:decision["ply"]]))
        decision["player"] = player_view(here, decision["seat"], decision["cards"], settings.objective,
                                         settings.samples,
                                         decision_seed(settings.view_seed, text, decision["ply"]),
                                         settings.tt_megabytes)


# --- many deals ----------------------------------------------------------------------------------

@dataclass
class StudyRun:
    items: list[StudyItem]
    records: dict[str, dict] = field(default_factory=dict)     # id -> record, kept or new
    resumed: int = 0
    solved: int = 0
    used: int = 0                                             # deals the report covers (a prefix)
    failed: list[tuple[str, str]] = field(default_factory=list)
    stopped_early: bool = False

    def used_records(self) -> list[dict]:
        return [self.records[item.id] for item in self.items[:self.used] if item.id in self.records]


class _NoFile:
    """Stands in for the results file when no --out is given."""

    class recovery:                       # noqa: N801 - mimics ResultsFile.recovery
        kept: dict = {}
        dropped = 0

    def write(self, record: dict) -> None:
        pass

    def close(self) -> None:
        pass


def record_of(item: StudyItem, settings: StudySettings, result: dict) -> dict:
    return {"id": item.id, "file": item.file, "game": item.game, "label": item.label,
            "sha256": item.sha256, "objective": settings.objective, "with_moves": True,
            "tactics": list(settings.tactics), "first": settings.first, "deal": item.text,
            "result": result, **({"limits": limits_json(settings.limits)}
                                 if result.get("exact") is False else {})}


def run_study(items: list[StudyItem], settings: StudySettings, *, out: str | None = None,
              jobs: int | None = None, dask_address: str | None = None,
              stop: Callable[[list[dict]], bool] | None = None, check_every: int = 50,
              progress: Callable[[int, int], None] | None = None,
              on_error: Callable[[str, str], None] | None = None) -> StudyRun:
    """Study every deal (those already in ``out`` are resumed).  ``stop(records)`` is asked on
    each prefix of ``check_every`` deals, in order; the first prefix it accepts ends the study
    (so the report does not depend on the number of jobs or on resuming)."""
    resolve(settings.tactics, settings.tactic_file)         # bad names fail here, before work
    jobs = jobs or os.cpu_count() or 1
    results = ResultsFile(out, items, settings.objective, True, limits=settings.limits) if out else _NoFile()
    run = StudyRun(items)
    try:
        run.records.update(results.recovery.kept)
        run.resumed = len(run.records)
        run.recovery = getattr(results, "recovery", None)
        done = run.resumed
        by_id = {item.id: item for item in items}
        checkpoints = list(range(check_every, len(items), check_every)) + [len(items)] if stop else [len(items)]
        start = 0
        for end in checkpoints:
            chunk = [item for item in items[start:end] if item.id not in run.records]
            for item_id, outcome in _results(chunk, settings, jobs, dask_address):
                if isinstance(outcome, BaseException):
                    if isinstance(outcome, TacticError):
                        raise outcome
                    run.failed.append((item_id, f"{type(outcome).__name__}: {outcome}"))
                    if on_error:
                        on_error(item_id, run.failed[-1][1])
                    continue
                record = record_of(by_id[item_id], settings, outcome)
                results.write(record)
                run.records[item_id] = record
                run.solved += 1
                done += 1
                if progress:
                    progress(min(done, end), end if stop else len(items))
            run.used = end
            start = end
            if stop and end < len(items) and stop(run.used_records()):
                run.stopped_early = True
                break
    finally:
        results.close()
    return run


def _results(todo: list[StudyItem], settings: StudySettings, jobs: int,
             dask_address: str | None) -> Iterator[tuple[str, Any]]:
    """(id, record or the exception) for every deal, in the order they are studied."""
    calls = [(item.id, (item.id, item.text, settings)) for item in todo]
    for item_id, outcome in run_everywhere(study_item, calls, jobs=jobs, dask_address=dask_address,
                                           tt_megabytes=settings.tt_megabytes):
        yield outcome if not isinstance(outcome, BaseException) else (item_id, outcome)


# --- the deals of a study ----------------------------------------------------------------------------

def generated_study_items(game: str, seed: int, count: int, settings: StudySettings, *,
                          players: int | None = None, accept=None,
                          rules: dict[str, str] | None = None) -> list[StudyItem]:
    """Deals 1..count of ``stich deal --game GAME --seed SEED`` (with its ``--where``)."""
    from solver.deals.dealing import generate_deals, stream_label
    key = settings.fingerprint()
    items = []
    for dealt in generate_deals(game, seed, count, players=players, accept=accept, rules=rules):
        items.append(StudyItem(dealt.id, dealt.deal.dump(), game,
                               stream_label(game, players or dealt.deal.players), settings_key=key))
    return items


def study_items_of(items: list[BatchItem], settings: StudySettings) -> list[StudyItem]:
    """Deal files (``batch.collect_items``) as the deals of a study."""
    key = settings.fingerprint()
    return [StudyItem(i.id, i.text, i.game, i.label, i.file, settings_key=key) for i in items]


# --- statistics -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Scored:
    """One decision seen by one tactic: what following it, a random card and the opposite
    advice are worth."""

    deal_id: str
    ply: int
    advised: tuple[int, ...]
    regret: float                 # mean over the advised cards
    best_case: float              # least over the advised cards
    optimal: bool                 # every advised card optimal
    random_regret: float
    random_optimal: bool          # every legal card optimal (the advice "any card")
    opposite: int | None          # index of the best card not advised (None: all advised)
    opposite_regret: float | None
    opposite_optimal: bool | None
    level_lost: float | None      # score objective: share of advised cards losing a level
    win_lost: float | None
    random_level_lost: float | None
    random_win_lost: float | None
    opposite_level_lost: float | None
    opposite_win_lost: float | None
    best: tuple[int, ...]         # the optimal cards


def score_decision(deal_id: str, decision: dict, name: str) -> Scored:
    totals = decision["totals"]
    ranks = decision.get("ranks")
    wins = decision.get("wins")
    top = max(totals)
    regret = [top - t for t in totals]
    if ranks is not None:
        best_rank = max(ranks)
        optimal = [r == best_rank for r in ranks]
        level_lost = [r < best_rank for r in ranks]
        win_lost = [any(wins) and not w for w in wins]
    else:
        optimal = [r == 0 for r in regret]
        level_lost = win_lost = None
    advised = tuple(decision["advice"][name])
    every = range(len(totals))
    rest = [i for i in every if i not in advised]

    def share(flags, cards):
        return None if flags is None else sum(flags[i] for i in cards) / len(cards)

    opposite = None
    if rest:   # the best card not advised: best outcome first, then best total
        opposite = max(rest, key=lambda i: ((ranks[i] if ranks is not None else 0), totals[i], -i))
    return Scored(
        deal_id, decision["ply"], advised,
        sum(regret[i] for i in advised) / len(advised), min(regret[i] for i in advised),
        all(optimal[i] for i in advised),
        sum(regret) / len(regret), all(optimal),
        opposite, None if opposite is None else regret[opposite],
        None if opposite is None else optimal[opposite],
        share(level_lost, advised), share(win_lost, advised),
        share(level_lost, every), share(win_lost, every),
        share(level_lost, [opposite]) if opposite is not None else None,
        share(win_lost, [opposite]) if opposite is not None else None,
        tuple(i for i in every if optimal[i]))


def scored_decisions(records: list[dict], name: str) -> list[Scored]:
    """The decisions where ``name`` applied whose cards were all valued exactly."""
    out = []
    for record in records:
        for decision in record["result"]["decisions"]:
            if (name in decision["advice"] and decision.get("exact", True)
                    and len(decision["cards"]) > 1):
                out.append(score_decision(record["id"], decision, name))
    return out


def unscored(records: list[dict], name: str) -> tuple[int, int]:
    """(deals whose line hit the limit, decisions of ``name`` whose card values did): they
    are counted apart, never in the statistics."""
    deals = sum(1 for r in records if r["result"].get("exact") is False)
    decisions = sum(1 for r in records for d in r["result"]["decisions"]
                    if name in d["advice"] and d.get("exact", True) is False)
    return deals, decisions


def _mean_ci(values, deals, seed) -> dict:
    """Mean with a bootstrap interval that resamples whole deals (a deal's decisions are not
    independent)."""
    from .stats import cluster_bootstrap_interval, group_by, mean
    interval = cluster_bootstrap_interval(group_by(values, deals), seed=seed)
    return {"mean": mean(values), "interval": list(interval), "n": len(values)}


def _share(flags) -> dict:
    from .stats import wilson
    k, n = sum(1 for f in flags if f), len(flags)
    return {"share": k / n if n else None, "interval": list(wilson(k, n)), "k": k, "n": n}


def summarise_tactic(records: list[dict], tactic: Tactic, seed: int, objective: str) -> dict:
    """The statistics of one tactic over the records (in deal order)."""
    from .stats import mean, paired
    scored = scored_decisions(records, tactic.name)
    mine = [r for r in records if tactic.game in (None, r["game"])]
    applied = {s.deal_id for s in scored}
    key = f"{seed}:{tactic.name}"
    with_opposite = [s for s in scored if s.opposite is not None]
    deals = [s.deal_id for s in scored]
    odeals = [s.deal_id for s in with_opposite]
    unit = loads(mine[0]["deal"], mine[0]["id"]).rule_set.unit if mine else None
    out = {
        "tactic": tactic.name, "summary": tactic.summary, "objective": objective, "unit": unit,
        "deals": len(mine), "deals_applied": len(applied), "deals_never": len(mine) - len(applied),
        "decisions": len(scored),
        "advice": {"optimal": _share([s.optimal for s in scored]),
                   "regret": _mean_ci([s.regret for s in scored], deals, key + ":regret"),
                   "best_case_regret": mean([s.best_case for s in scored])},
        "random": {"optimal": _share([s.random_optimal for s in scored]),
                   "regret": _mean_ci([s.random_regret for s in scored], deals, key + ":regret")},
        "opposite": {"optimal": _share([s.opposite_optimal for s in with_opposite]),
                     "regret": _mean_ci([s.opposite_regret for s in with_opposite], odeals, key + ":opposite")},
        "vs_opposite": paired([s.regret for s in with_opposite], [s.opposite_regret for s in with_opposite],
                              seed=key + ":vs_opposite", groups=odeals).as_json(),
        "vs_random": paired([s.regret for s in scored], [s.random_regret for s in scored],
                            seed=key + ":vs_random", groups=deals).as_json(),
        "all_advised": len(scored) - len(with_opposite),
    }
    deals_out, decisions_out = unscored(mine, tactic.name)
    if deals_out or decisions_out:          # a limit was hit: said, and left out of the figures
        out["not_exact"] = {"deals": deals_out, "decisions": decisions_out}
    from .tactic_view import summarise_view
    player = summarise_view(scored, records, key)
    if player is not None:
        out["player"] = player
    if objective == "score":
        for part, level, win, subset in (("advice", "level_lost", "win_lost", scored),
                                         ("random", "random_level_lost", "random_win_lost", scored),
                                         ("opposite", "opposite_level_lost", "opposite_win_lost", with_opposite)):
            out[part]["level_lost"] = mean([getattr(s, level) for s in subset])
            out[part]["win_lost"] = mean([getattr(s, win) for s in subset])
    return out


def summarise(records: list[dict], tactics: list[Tactic], seed: int, objective: str) -> dict:
    """Every tactic's statistics, with Holm-adjusted sign-test p-values (advice against the
    opposite advice) across the tactics of the study."""
    from .stats import holm
    rows = [summarise_tactic(records, t, seed, objective) for t in tactics]
    adjusted = holm([row["vs_opposite"]["p_sign"] for row in rows])
    for row, p in zip(rows, adjusted):
        row["vs_opposite"]["p_holm"] = p
    return {"deals": len(records), "objective": objective, "seed": seed, "tactics": rows}


def headline_width(row: dict) -> float:
    """The width of a tactic's headline interval (advice minus opposite advice)."""
    low, high = row["vs_opposite"]["interval"]
    if row["vs_opposite"]["n"] < 2 or low != low:
        return float("inf")
    return high - low


# --- counterexamples -------------------------------------------------------------------------------

def counterexamples(records: list[dict], tactic: Tactic, count: int = 10) -> list[tuple[str, str]]:
    """(file name, deal file text) of the worst decisions of a tactic: the deal with ``play``
    stopping at the decision, the advice, the best cards and the regret in comments."""
    from solver.tactics.base import play_to
    by_id = {r["id"]: r for r in records}
    scored = [s for s in scored_decisions(records, tactic.name) if s.regret > 0 or not s.optimal]
    order = {r["id"]: k for k, r in enumerate(records)}
    scored.sort(key=lambda s: (-s.regret, order[s.deal_id], s.ply))
    files = []
    for rank, s in enumerate(scored[:count], 1):
        record = by_id[s.deal_id]
        deal = loads(record["deal"], s.deal_id)
        decision = next(d for d in record["result"]["decisions"] if d["ply"] == s.ply)
        from solver.model.cards import parse_card
        line = [parse_card(t, deal.notation) for t in record["result"]["line"][:s.ply]]
        here = deal.with_play(play_to(deal, line))
        cards = decision["cards"]
        top = max(decision["totals"])
        header = [f"# stich tactic counterexample: {tactic.name}",
                  f"# deal {s.deal_id}, decision at ply {s.ply + 1} of the optimal line, seat {decision['seat']} to move",
                  f"# advised: {' '.join(cards[i] for i in s.advised)}",
                  f"# best:    {' '.join(cards[i] for i in s.best)}",
                  f"# regret:  {s.regret:g} {deal.rule_set.unit} (mean over the advised cards; "
                  f"best case {s.best_case:g})",
                  "# totals of the mover's side after each card: "
                  + ", ".join(f"{c} {t}" for c, t in zip(cards, decision["totals"])),
                  f"# (the best card reaches {top})"]
        name = f"{tactic.name.replace('.', '_')}-{rank:02d}-{s.deal_id}-ply{s.ply + 1}.toml"
        files.append((name, "\n".join(header) + "\n" + here.dump()))
    return files


def regret_lists(records: list[dict], tactic: Tactic) -> dict[str, list[float]]:
    scored = scored_decisions(records, tactic.name)
    return {"advice": [s.regret for s in scored], "random": [s.random_regret for s in scored],
            "opposite": [s.opposite_regret for s in scored if s.opposite is not None]}

"""Fixed, seeded deal sets and the measurements of ``stich bench`` and ``benchmarks/``.

A deal set is a game, its options and a list of seeds: ``stich.deals.dealing.random_deal`` turns
each seed into the same deal on every machine.  Each deal is measured from a clean engine
state (``Engine.clear()`` and a table cleared by ``setup``), so the node count of a deal does
not depend on what was solved before it: the same code on the same machine with the same
table size gives the same count, run after run.  Times, of course, vary.

Three measurements:

- ``measure_value``: the exact value of the position, the way ``stich.solve`` starts
  (``Session`` compiles the tables and sets the engine up, then ``Engine.value``);
  the time includes that set-up;
- ``measure_solve``: the whole ``stich.solve`` (value, every legal card scored, the forced
  outcome for ``objective="score"``, one optimal line);
- ``measure_cards``: only the searches of the value and every legal card's totals, the part of
  a whole solve that DDS's every-card call also does.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stich.core._search import BUILD, PLAIN_BECAUSE, Engine
from stich.deals.deal import Deal
from stich.deals.dealing import random_deal
from stich.model.cards import in_notation
from stich.search.parallel import threaded_value
from stich.search.session import Session
from stich.search.solve import DEFAULT_TT_MEGABYTES, VALUE_THREADS_FROM_NODES, new_engine, solve

# the techniques --off switches off, as the user names them -> the core's name of the switch
# (cutoffs: the enhanced transposition cutoffs, "etc" in the core)
CORE_SWITCH = {"tt": "tt", "merge": "merge", "bounds": "bounds", "order": "order", "lead": "lead",
               "canon": "canon", "cutoffs": "etc", "part": "part", "killer": "killer"}
SWITCHES = tuple(CORE_SWITCH)
TECHNIQUE = {core: name for name, core in CORE_SWITCH.items()}
MODES = ("solve", "value")
DETERMINISM_NOTE = ("node counts are deterministic: each deal starts from a cleared engine, so the "
                    "same code on the same machine with the same table size (--tt-mb) gives the "
                    "same counts on every run; times vary with the machine and its load")


THREADS_NOTE = ("with more than one thread the node counts vary from run to run (the threads "
                "search one table); times vary with the machine and its load")


@dataclass(frozen=True)
class DealSet:
    """Seeded deals of one game: ``random_deal(game, seed, players=..., rules=...)``."""

    name: str
    game: str
    seeds: tuple[int, ...]
    players: int = 4
    rules: dict[str, Any] = field(default_factory=dict)

    def deals(self) -> list[Deal]:
        return [random_deal(self.game, seed, players=self.players, rules=dict(self.rules))
                for seed in self.seeds]


def _seeds(start: int, count: int) -> tuple[int, ...]:
    return tuple(range(start, start + count))


# (name, game, players, rules, deals in the full set, deals with --quick)
_BUILTIN: tuple[tuple[str, str, int, dict[str, Any], int, int], ...] = (
    ("scharwenzel-4", "scharwenzel", 4, {}, 20, 5),
    ("scharwenzel-6", "scharwenzel", 6, {}, 10, 3),
    ("scharwenzel-8", "scharwenzel", 8, {}, 10, 3),
    ("schafkopf2-schellen", "schafkopf2", 2, {}, 12, 3),
    ("schafkopf2-card17", "schafkopf2", 2, {"trump_mode": "card17"}, 12, 3),
    ("elfern", "elfern", 2, {}, 10, 3),
    # added after the sets above (whose counts stay comparable across versions): Schafkopf2
    # with the Mariage and the games written as rule files
    ("schafkopf2-mariage", "schafkopf2", 2, {"mariage": True}, 8, 1),
    ("officers_skat", "officers_skat", 2, {}, 8, 1),
    ("einwerfen", "einwerfen", 4, {}, 8, 1),
    ("bohemian_schneider", "bohemian_schneider", 2, {}, 8, 1),
)
BUILTIN_SEED = 1000         # the seeds of `stich bench` start here


def builtin_sets(quick: bool = False) -> list[DealSet]:
    """The fixed set of ``stich bench`` (a few deals per game), or its ``--quick`` subset."""
    return [DealSet(name, game, _seeds(BUILTIN_SEED, quick_n if quick else full_n), players, rules)
            for name, game, players, rules, full_n, quick_n in _BUILTIN]


def parse_off(text: str | Iterable[str] | None) -> dict[str, bool]:
    """``"merge,bounds"`` -> ``{"merge": False, "bounds": False}`` for ``Engine.switches`` (which
    knows the enhanced transposition cutoffs, ``cutoffs``, as ``etc``)."""
    if text is None:
        return {}
    names = text.split(",") if isinstance(text, str) else list(text)
    off = {}
    for name in (n.strip().lower() for n in names):
        if not name:
            continue
        if name not in SWITCHES:
            raise ValueError(f"unknown technique {name!r}: choose from {', '.join(SWITCHES)}")
        off[CORE_SWITCH[name]] = False
    return off


@dataclass(frozen=True)
class Measurement:
    seed: int | None
    nodes: int
    seconds: float
    totals: tuple[int, int] | None = None     # seat 1's side, the other side (value: None)
    value: int | None = None                  # measure_value: what side 0 takes from here
    result: Any = field(default=None, compare=False, repr=False)   # measure_solve: the Result


def fresh(engine: Engine) -> Engine:
    """Forget everything the engine learnt (table, history, node count): deterministic counts."""
    engine.clear()
    engine.reset_nodes()
    return engine


def _fresh_session(deal: Deal, engine: Engine) -> Session:
    """A session on the deal's position, as ``stich.solve`` sets one up (``setup`` clears the
    table), its node count from zero."""
    engine.new_search()
    session = Session(deal, deal.position(), engine)
    engine.reset_nodes()
    return session


def measure_value(deal: Deal, engine: Engine, seed: int | None = None, threads: int = 1) -> Measurement:
    """The exact value under the total objective, like ``stich.solve`` computes it first
    (with ``threads``, by that many threads: ``threaded_value``; nodes of all of them)."""
    fresh(engine)
    started = time.perf_counter()
    session = _fresh_session(deal, engine)
    if threads > 1:
        helpers = [Session(deal, session.root, Engine(share=engine)) for _ in range(threads - 1)]
        value = threaded_value(session, helpers, VALUE_THREADS_FROM_NODES)[0]
        nodes = engine.nodes + sum(h.engine.nodes for h in helpers)
    else:
        value = session.value()
        nodes = engine.nodes
    seconds = time.perf_counter() - started
    return Measurement(seed, nodes, seconds, None, value)


def measure_cards(deal: Deal, engine: Engine, seed: int | None = None) -> Measurement:
    """Every legal card's exact totals and nothing more, on one thread: the value, then each
    class of equivalent cards bounded by it, as ``stich.solve`` scores the cards.  This is
    the search a whole solve shares with DDS's every-card call; the solve adds the line,
    each card's outcome level, the referee's check and the report, and the difference of
    the two times is what those cost (``result``: card -> totals)."""
    fresh(engine)
    started = time.perf_counter()
    session = _fresh_session(deal, engine)
    value = session.value()
    maximiser = session.maximising()
    cards = {}
    for child in session.moves():
        totals = session.final_totals(session.bounded_value(**Session.child_bounds(value, child.gain,
                                                                                   maximiser)))
        for index in child.group:
            cards[in_notation(session.tables.cards[index & 63], deal.notation)] = totals
    seconds = time.perf_counter() - started
    return Measurement(seed, engine.nodes, seconds, session.final_totals(value), value, result=cards)


def measure_solve(deal: Deal, engine: Engine, seed: int | None = None, objective: str = "score",
                  with_moves: bool = True, threads: int = 1) -> Measurement:
    """The whole ``stich.solve``: value, every legal card scored, outcome and line."""
    fresh(engine)
    started = time.perf_counter()
    result = solve(deal, objective=objective, engine=engine, with_moves=with_moves, threads=threads)
    seconds = time.perf_counter() - started
    return Measurement(seed, result.nodes, seconds, result.totals, result=result)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summarise(measurements: list[Measurement]) -> dict[str, Any]:
    """Deals, total nodes and time, nodes per second, median and p90 ms and nodes per deal."""
    ms = [m.seconds * 1000 for m in measurements]
    nodes = [m.nodes for m in measurements]
    seconds = sum(m.seconds for m in measurements)
    return {
        "deals": len(measurements),
        "nodes": sum(nodes),
        "seconds": round(seconds, 6),
        "nodes_per_second": round(sum(nodes) / seconds) if seconds > 0 else None,
        "ns_per_node": round(1e9 * seconds / sum(nodes), 1) if sum(nodes) else None,
        "median_ms": round(statistics.median(ms), 3) if ms else None,
        "p90_ms": round(percentile(ms, 90), 3) if ms else None,
        "max_ms": round(max(ms), 3) if ms else None,
        "median_nodes": statistics.median(nodes) if nodes else None,
        "p90_nodes": percentile(nodes, 90) if nodes else None,
    }


def run(sets: list[DealSet], *, mode: str = "solve", objective: str = "score",
        off: dict[str, bool] | None = None, tt_megabytes: int = DEFAULT_TT_MEGABYTES,
        progress: Callable[[int, int], None] | None = None, threads: int = 1) -> dict[str, Any]:
    """Measure every deal of every set; the JSON object of ``stich bench --json``.
    ``threads``: threads searching the value and scoring the cards of each solve (node
    counts then vary run to run).
    Ctrl-C stops the measuring: the deals measured so far are the answer (``"interrupted": true``)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    engine = new_engine(tt_megabytes)
    switches = engine.switches(**(off or {}))
    plan = [(s, seed, deal) for s in sets for seed, deal in zip(s.seeds, s.deals())]
    # warm up once (first touches of the table's memory, imports) on a deal not measured
    if plan:
        measure_value(plan[0][2], engine)
    results: dict[str, list[Measurement]] = {s.name: [] for s in sets}
    interrupted = False
    for k, (deal_set, seed, deal) in enumerate(plan):
        try:
            m = (measure_value(deal, engine, seed, threads) if mode == "value"
                 else measure_solve(deal, engine, seed, objective, threads=threads))
        except KeyboardInterrupt:           # Ctrl-C: the deals measured are the answer
            interrupted = True
            break
        # a solve keeps Ctrl-C as a partial answer (short of nodes): not a measurement
        if m.result is not None and m.result.stopped == "interrupt":
            interrupted = True
            break
        results[deal_set.name].append(m)
        if progress:
            progress(k + 1, len(plan))
    out_sets = []
    for deal_set in sets:
        ms = results[deal_set.name]
        entry = {"name": deal_set.name, "game": deal_set.game, "players": deal_set.players,
                 "rules": dict(deal_set.rules), "seeds": list(deal_set.seeds)}
        entry.update(summarise(ms))
        entry["per_deal"] = [{"seed": m.seed, "nodes": m.nodes, "ms": round(m.seconds * 1000, 3),
                              **({"totals": list(m.totals)} if m.totals is not None else {}),
                              **({"value": m.value} if m.value is not None else {})}
                             for m in ms]
        out_sets.append(entry)
    everything = [m for ms in results.values() for m in ms]
    total = summarise(everything)
    return {
        "mode": mode,
        "objective": objective if mode == "solve" else "total",
        "tt_megabytes": tt_megabytes,
        "core_build": BUILD,            # "profile-guided" or "plain" (setup.py): times differ, nodes not
        "core_plain_because": PLAIN_BECAUSE or None,
        "switches": {TECHNIQUE.get(core, core): on for core, on in switches.items()},
        "threads": threads if mode == "solve" else 1,
        "deterministic_nodes": mode == "value" or threads == 1,
        "note": DETERMINISM_NOTE if mode == "value" or threads == 1 else THREADS_NOTE,
        "sets": out_sets,
        "total": {k: total[k] for k in ("deals", "nodes", "seconds", "nodes_per_second", "ns_per_node",
                                        "median_ms")},
        **({"interrupted": True} if interrupted else {}),
    }



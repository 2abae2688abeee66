"""`stich suggest` at the first decision of a whole deal: K = 100 layouts, every card scored.

Targets: at most 3 s (Schafkopf2) and 8 s (Elfern) per decision on two cores, with the
default totals (those that decide the best card and the runner-up).
Each layout is a whole-deal solve with every legal card scored, so this is about 100 full
solves split over the workers; without the totals (``--no-totals``) each card's outcome rung
only.
Run: ``pytest benchmarks/test_suggest.py`` (set STICH_SUGGEST_K to try another K).  The layouts
of a worker share the table entries valid for every layout (``Engine.next_layout``); the second
benchmark measures what that saves, in nodes.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from stich.view import read_view
from stich.view.suggest import suggest

K = int(os.environ.get("STICH_SUGGEST_K", "100"))
DECISIONS = {"schafkopf2": ("examples/schafkopf2-deal.toml", 1),
             "elfern": ("examples/elfern-deal.toml", 1)}


@pytest.mark.parametrize("game", list(DECISIONS))
@pytest.mark.parametrize("totals", ["deciding", "all", "none"], ids=["default", "all-totals", "rungs-only"])
def test_suggest_first_decision(bench, game, totals):
    """The default (every card's rung, then the deciding cards' totals), every card's totals
    (``--all-totals``) and none (``--no-totals``: each card's outcome rung only)."""
    path, seat = DECISIONS[game]
    info = read_view(path, seat)
    timing = {}

    def go():
        import resource
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = suggest(info, samples=K, seed=1, jobs=2, objective="score", totals=totals)
        timing["seconds"] = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)     # the workers, joined by now
        timing["cpu"] = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return result

    bench.group = "suggest"
    result = bench.pedantic(go, rounds=1, iterations=1)
    bench.extra_info.update({"layouts": result.advice.layouts, "seconds": timing["seconds"],
                             "per_layout_ms": 1000 * timing["seconds"] / result.advice.layouts,
                             "worker_cpu_seconds": timing["cpu"], "best": result.advice.best})
    # the workers' CPU time is what two idle cores would need between them (load inflates the
    # wall time, much less the CPU time)
    print(f"\n{game} ({totals} totals): {K} layouts in {timing['seconds']:.1f} s "
          f"({1000 * timing['seconds'] / K:.0f} ms per layout, 2 workers); workers' CPU "
          f"{timing['cpu']:.1f} s ({1000 * timing['cpu'] / K:.0f} ms per layout, "
          f"{timing['cpu'] / 2:.1f} s per decision on two idle cores); play {result.advice.best}")
    assert result.advice.layouts == K


SHARING = {"schafkopf2": ("examples/schafkopf2-deal.toml", (0, 8, 16)),
           "elfern": ("examples/elfern-deal.toml", (0, 10, 24))}


@pytest.mark.parametrize("game", list(SHARING))
def test_suggest_table_sharing_nodes(bench, game):
    """Node counts of K = 20 layouts solved one after another on one engine, the table shared
    between layouts (``Engine.next_layout``) or cleared for each, at decisions along the
    optimal line (plies 0, 8-10, 16-24).  Deterministic, unlike the times: the measure of what
    sharing saves."""
    from stich.deals.deal import loads
    from stich.search.solve import new_engine, solve
    from stich.view import information, sample_layouts
    from stich.view.suggest import layout_set
    path, plies = SHARING[game]
    deal = loads(Path(path).read_text(encoding="utf-8"), path)
    line = solve(deal, objective="score").line
    rows = {}

    def go():
        for ply in plies:
            here = deal.after(list(line[:ply]))
            info = information(here, here.position().to_move + 1)
            layouts = sample_layouts(info, 20, 1)
            counts = []
            for shared in (False, True):
                engine, nodes, started = new_engine(64), 0, time.perf_counter()
                for layout in layouts:
                    if shared:
                        engine.next_layout(layout_set(info, "score"))
                    nodes += solve(info.fill(layout), objective="score", engine=engine,
                                   keep_tt=shared).nodes
                counts.append((nodes, time.perf_counter() - started))
            rows[ply] = {"fresh_nodes": counts[0][0], "shared_nodes": counts[1][0],
                         "ratio": counts[1][0] / counts[0][0], "fresh_s": counts[0][1],
                         "shared_s": counts[1][1]}

    bench.group = "suggest-sharing"
    bench.pedantic(go, rounds=1, iterations=1)
    bench.extra_info.update({str(k): v for k, v in rows.items()})
    for ply, r in rows.items():
        print(f"\n{game} ply {ply}: 20 layouts, nodes fresh {r['fresh_nodes']:,} shared "
              f"{r['shared_nodes']:,} ({r['ratio']:.3f}); {r['fresh_s']:.1f} s vs {r['shared_s']:.1f} s")
    assert all(r["shared_nodes"] <= r["fresh_nodes"] for r in rows.values())


@pytest.mark.parametrize("game", list(DECISIONS))
def test_suggest_rungs_nodes(bench, game):
    """Nodes of K = 20 layouts at the first card solved one after another on one engine, with
    every card's exact total (the full solve) and with its outcome rung only (``--no-totals``).
    Deterministic: the measure of what the rungs save."""
    from stich.view import sample_layouts
    from stich.view.suggest import layout_rungs, score_layout
    path, seat = DECISIONS[game]
    info = read_view(path, seat)
    texts = [info.fill(layout).dump() for layout in sample_layouts(info, 20, 1)]
    counts = {}

    def go():
        import stich.run.pool as pool
        engine = pool.worker_engine(64)
        for name in ("totals", "rungs"):
            nodes = 0
            for text in texts:
                engine.clear()
                engine.reset_nodes()
                if name == "totals":
                    score_layout(text, seat, "score", 64)
                else:
                    from stich.deals.deal import loads
                    layout_rungs(loads(text, "<layout>"), seat, engine, False)
                nodes += engine.nodes
            counts[name] = nodes

    bench.group = "suggest rungs"
    bench.pedantic(go, rounds=1, iterations=1)
    bench.extra_info.update(counts)
    print(f"\n{game}, first card, 20 layouts: nodes with totals {counts['totals']:,}, rungs only "
          f"{counts['rungs']:,} ({counts['rungs'] / counts['totals']:.2f})")


@pytest.mark.parametrize("game", list(DECISIONS))
def test_suggest_deciding_nodes(bench, game):
    """Nodes of K = 20 layouts at the first card, one after another on one engine with the
    table shared between layouts: every card's exact total (``totals="all"``) against the
    default as one worker runs it (every card's rung, with the totals of the cards it expects
    to decide once it has seen a few layouts, then the deciding totals still missing).
    Deterministic: the measure of what the default saves."""
    from stich.run.pool import worker_engine
    from stich.search.solve import new_engine
    from stich.view import sample_layouts
    from stich.view.decide import card_totals, deciding_cards
    from stich.view.suggest import layout_set, rungs_and_expected, score_layout
    path, seat = DECISIONS[game]
    info = read_view(path, seat)
    texts = [info.fill(layout).dump() for layout in sample_layouts(info, 20, 1)]
    share = layout_set(info, "score")
    counts = {}

    def counted(engine, work) -> tuple[int, object]:
        engine.reset_nodes()                # a solve resets the count: count each call alone
        out = work()
        return engine.nodes, out

    def go():
        engine = new_engine(64)
        counts["all"] = sum(counted(engine, lambda t=t: score_layout(
            t, seat, "score", 64, share=share, engine=engine))[0] for t in texts)
        engine = worker_engine(64)          # the first round as one worker runs it
        nodes, rows = 0, []
        for text in texts:
            n, r = counted(engine, lambda t=text: rungs_and_expected(t, seat, "score", 64, None, share))
            nodes, rows = nodes + n, rows + [r]
        need = deciding_cards(rows, "score")
        for text, r in zip(texts, rows):
            cards = tuple(sorted(row[0] for row in r if row[0] in need and row[1] is None))
            if cards:
                ranks = tuple(next(row[4] for row in r if row[0] == card) for card in cards)
                nodes += counted(engine, lambda t=text, c=cards, k=ranks: card_totals(
                    t, seat, c, 64, share=share, engine=engine, ranks=k))[0]
        counts["deciding"], counts["deciding_cards"] = nodes, len(need)

    bench.group = "suggest deciding"
    bench.pedantic(go, rounds=1, iterations=1)
    bench.extra_info.update(counts)
    print(f"\n{game}, first card, 20 layouts: nodes with every total {counts['all']:,}, deciding "
          f"totals {counts['deciding']:,} ({counts['deciding'] / counts['all']:.2f}; "
          f"{counts['deciding_cards']} deciding cards)")

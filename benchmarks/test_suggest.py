"""`stich suggest` at the first decision of a whole deal: K = 100 layouts, every card scored.

Target (issue 10): under 5 s per decision on two cores.  Each layout is a whole-deal solve
with every legal card scored, so this is about 100 full solves split over the workers.
Run: ``pytest benchmarks/test_suggest.py`` (set STICH_SUGGEST_K to try another K).
"""

from __future__ import annotations

import os
import time

import pytest

from solver.analysis.suggest import suggest
from solver.view import read_view

K = int(os.environ.get("STICH_SUGGEST_K", "100"))
DECISIONS = {"schafkopf2": ("examples/schafkopf2-deal.toml", 1),
             "elfern": ("examples/elfern-deal.toml", 1)}


@pytest.mark.parametrize("game", list(DECISIONS))
def test_suggest_first_decision(bench, game):
    path, seat = DECISIONS[game]
    info = read_view(path, seat)
    timing = {}

    def go():
        started = time.perf_counter()
        result = suggest(info, samples=K, seed=1, jobs=2, objective="score")
        timing["seconds"] = time.perf_counter() - started
        return result

    bench.group = "suggest"
    result = bench.pedantic(go, rounds=1, iterations=1)
    bench.extra_info.update({"layouts": result.advice.layouts, "seconds": timing["seconds"],
                             "per_layout_ms": 1000 * timing["seconds"] / result.advice.layouts,
                             "best": result.advice.best})
    print(f"\n{game}: {K} layouts in {timing['seconds']:.1f} s "
          f"({1000 * timing['seconds'] / K:.0f} ms per layout, 2 workers); play {result.advice.best}")
    assert result.advice.layouts == K

"""`stich batch` on two cores: the throughput of ``--jobs 2`` against ``--jobs 1`` on the
same 200 Schafkopf2 deals (target: at least 1.8 times).  Each run writes a fresh results
file, so nothing is resumed; worker start-up is part of the measure, as a user sees it."""

from __future__ import annotations

import os
import time

import pytest

from stich.analysis.batch import generated_items, run_batch
from stich.report.solve import solve_json

DEALS = "schafkopf2:200:11"
TIMES: dict[int, float] = {}


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores")
@pytest.mark.parametrize("jobs", [1, 2])
def test_batch_throughput(bench, tmp_path, jobs):
    items = generated_items(DEALS)

    def go():
        started = time.perf_counter()
        run = run_batch(items, tmp_path / f"jobs{jobs}.jsonl", encode=solve_json, jobs=jobs)
        TIMES[jobs] = time.perf_counter() - started
        assert run.solved == len(items)

    bench.group = "batch scaling"
    bench.pedantic(go, rounds=1, iterations=1)
    bench.extra_info["deals_per_second"] = round(len(items) / TIMES[jobs], 2)
    if jobs == 2 and 1 in TIMES:
        speedup = TIMES[1] / TIMES[2]
        bench.extra_info["speedup_over_jobs1"] = round(speedup, 2)
        print(f"\nbatch --jobs 2: {speedup:.2f}x the throughput of --jobs 1 "
              f"({len(items) / TIMES[1]:.2f} -> {len(items) / TIMES[2]:.2f} deals/s; target 1.8x)")

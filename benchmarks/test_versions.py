"""The targets table: every row for the previous code and this code in one run, the two
versions alternating process by process, each row with its target and the gap to it.

Set ``STICH_BASELINE`` to a checkout of the previous code with its core built, e.g.

    git worktree add ../stich-base <commit> && (cd ../stich-base && python setup.py build_ext --inplace)
    STICH_BASELINE=../stich-base pytest benchmarks/test_versions.py

(without it these rows are skipped).  Each row runs ``STICH_VERSION_ROUNDS`` rounds (default
3); a round is one process per version, in alternating order (old first in odd rounds), each
measuring every deal of the row from a cleared engine (``versions_worker.py``).  Per deal the
median over the rounds, then the median over the deals: CPU seconds for one thread (the
load of a shared machine inflates them least), wall seconds for two threads (whose point is
the wall time).  A version without threads (or without a threaded value) measures its
two-thread rows as far as it can: one thread, or the value on one.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from benchdata import SETS, VERSION_ROWS

HERE = Path(__file__).resolve().parent
NEW = HERE.parent
BASELINE = os.environ.get("STICH_BASELINE")
ROUNDS = int(os.environ.get("STICH_VERSION_ROUNDS", "3"))

# row -> (deal set, measure, threads); the rows and their targets
ROWS = {
    "Schafkopf2 value, Schellen": ("schafkopf2-schellen", "value", 1),
    "Schafkopf2 value, card17": ("schafkopf2-card17", "value", 1),
    "Schafkopf2 value, Schellen, 2 threads": ("schafkopf2-schellen", "value", 2),
    "Schafkopf2 value, card17, 2 threads": ("schafkopf2-card17", "value", 2),
    "Schafkopf2 full solve, Schellen": ("schafkopf2-schellen", "solve", 1),
    "Schafkopf2 full solve, card17": ("schafkopf2-card17", "solve", 1),
    "Schafkopf2 full solve, Schellen, 2 threads": ("schafkopf2-schellen", "solve", 2),
    "Schafkopf2 full solve, card17, 2 threads": ("schafkopf2-card17", "solve", 2),
    "Elfern value": ("elfern", "value", 1),
    "Elfern value, 2 threads": ("elfern", "value", 2),
    "Elfern full solve": ("elfern", "solve", 1),
    "Elfern full solve, 2 threads": ("elfern", "solve", 2),
    "4-hand Scharwenzel value": ("scharwenzel-4", "value", 1),
    "4-hand Scharwenzel every card": ("scharwenzel-4", "cards", 1),
}

# row -> the target for the median in ms (docs/explanation/performance.md); the two-thread rows
# are the "two cores" targets
TARGETS = {
    "Schafkopf2 value, Schellen": 40,
    "Schafkopf2 value, card17": 40,
    "Schafkopf2 full solve, Schellen, 2 threads": 60,
    "Schafkopf2 full solve, card17, 2 threads": 60,
    "Elfern value": 100,
    "Elfern full solve, 2 threads": 150,
}


def _run(repo: str, spec: dict) -> dict:
    out = subprocess.run([sys.executable, str(HERE / "versions_worker.py"), repo, json.dumps(spec)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(not BASELINE, reason="set STICH_BASELINE to a built checkout of the previous code")
@pytest.mark.parametrize("row", list(ROWS))
def test_version_row(bench, row):
    name, measure, threads = ROWS[row]
    deal_set = SETS[name]
    spec = {"game": deal_set.game, "players": deal_set.players, "rules": dict(deal_set.rules),
            "seeds": list(deal_set.seeds), "measure": measure, "threads": threads}
    clock = "wall" if threads > 1 else "cpu"
    runs: dict[str, list[dict]] = {"old": [], "new": []}

    def go():
        for r in range(ROUNDS):
            order = [("old", BASELINE), ("new", str(NEW))]
            for version, repo in (order if r % 2 == 0 else order[::-1]):
                runs[version].append(_run(repo, spec))

    bench.group = "versions"
    bench.pedantic(go, rounds=1, iterations=1)
    result = {"clock": clock, "deals": len(deal_set.seeds), "load": os.getloadavg()[0],
              "target_ms": TARGETS.get(row)}
    for version, data in runs.items():
        per_deal = [statistics.median(run[clock][k] for run in data) for k in range(len(deal_set.seeds))]
        nodes = data[0]["nodes"]
        result[version] = {"median_ms": 1000 * statistics.median(per_deal),
                           "total_s": sum(per_deal), "median_nodes": statistics.median(nodes),
                           "total_nodes": sum(nodes), "threads": data[0]["threads"],
                           "ns_per_node": 1e9 * sum(per_deal) / sum(nodes)}
    VERSION_ROWS[row] = result
    bench.extra_info.update({f"{v}_{k}": (round(x, 4) if isinstance(x, float) else x)
                             for v in ("old", "new") for k, x in result[v].items()})
    if threads == 1:                            # one thread: the same search, the same answer
        assert runs["new"][0]["nodes"] and len(runs["new"][0]["nodes"]) == len(deal_set.seeds)

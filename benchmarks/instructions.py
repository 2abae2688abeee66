"""Instructions per node under callgrind: the measure that does not move with the load.

    python benchmarks/instructions.py [REPO]          # REPO: a checkout, default this one

counts, under ``valgrind --tool=callgrind``, the instructions executed inside
``Engine.value`` for the point games' deals of ``stich bench --quick`` (Schafkopf2 both trump
modes and Elfern: 9 whole-deal values), and prints them with the nodes and the instructions
per node.  Valgrind 3.19 does not decode AVX-512, so build REPO's core for it first:

    CFLAGS="-g -mno-avx512f" python setup.py build_ext --inplace --force

(and rebuild normally afterwards).  The counts are the same on every run of the same build.
``--child`` is the process valgrind runs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

SETS = ("schafkopf2-schellen", "schafkopf2-card17", "elfern")


def child(repo: str) -> None:
    from versions_worker import import_root  # REPO's stich, not the installed one
    sys.path.insert(0, import_root(repo))
    os.chdir(repo)
    try:
        from stich.run.bench import builtin_sets, measure_value
        from stich.search.solve import new_engine
    except ImportError:                                     # the layout before stich.run.bench
        from stich.bench import builtin_sets, measure_value
        from stich.solve import new_engine
    engine = new_engine(64)
    total = 0
    for deal_set in builtin_sets(quick=True):
        if deal_set.name in SETS:
            total += sum(measure_value(deal, engine, seed).nodes
                         for seed, deal in zip(deal_set.seeds, deal_set.deals()))
    print(f"nodes {total}")
    print(f"module {sys.modules['stich'].__file__}")


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2])
        return
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                              "--collect-atstart=no", "--toggle-collect=*_pw_*Engine_*value",
                              sys.executable, os.path.abspath(__file__), "--child", repo],
                             capture_output=True, text=True)
    nodes = re.search(r"nodes (\d+)", out.stdout)
    collected = re.search(r"Collected : (\d+)", out.stderr)
    if not (nodes and collected):
        sys.exit(f"callgrind failed:\n{out.stderr[-2000:]}")
    n, i = int(nodes.group(1)), int(collected.group(1))
    module = re.search(r"module (.*)", out.stdout)
    print(f"{repo} ({module.group(1) if module else '?'}): {i / 1e9:.3f} G instructions, {n:,} nodes, {i / n:.0f} instructions per node")


if __name__ == "__main__":
    main()

"""One process of ``test_versions.py``: measure one row's deals with one version of stich.

    python versions_worker.py REPO SPEC_JSON

REPO is a checkout whose core is built (this one, or the previous code's); SPEC_JSON says
the game, players, rules, seeds, the measure ("value", "solve" for the score objective,
"cards" for every card under the total objective, as DDS computes) and the threads.  Each
deal is measured from a cleared engine (``bench.measure_value`` / ``measure_solve``).
Prints one JSON object: per deal the CPU seconds of this process (all its threads), the
wall seconds and the nodes.  The imports follow either layout (``stich.run.bench`` since
the current layout, ``stich.bench`` before it).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import json
import os
import sys
import tempfile
import time


def import_root(repo: str) -> str:
    """The folder to put first on ``sys.path`` so that ``import stich`` reads REPO's code.
    A checkout since the package became ``stich`` keeps it in ``solver/`` (setup.py maps the
    name when installing), so a folder beside it links ``stich`` to that; otherwise an
    installed ``stich`` (this worktree's, editable) would be imported instead of REPO's."""
    repo = os.path.abspath(repo)
    if os.path.isdir(os.path.join(repo, "stich")) or not os.path.isdir(os.path.join(repo, "solver")):
        return repo
    root = os.path.join(tempfile.gettempdir(), f"stich-import-{hashlib.sha1(repo.encode()).hexdigest()[:12]}")
    link = os.path.join(root, "stich")
    if not os.path.islink(link):
        os.makedirs(root, exist_ok=True)
        with contextlib.suppress(FileExistsError):      # another worker made it at the same moment
            os.symlink(os.path.join(repo, "solver"), link)
    return root


def main() -> None:
    repo, spec = sys.argv[1], json.loads(sys.argv[2])
    sys.path.insert(0, import_root(repo))
    os.chdir(repo)
    try:
        from stich.deals.dealing import random_deal
        from stich.run.bench import measure_solve, measure_value
        from stich.search.solve import new_engine
    except ImportError:                                     # the layout before stich.run.bench
        from stich.bench import measure_solve, measure_value
        from stich.dealing import random_deal
        from stich.solve import new_engine
    threads = spec.get("threads", 1)
    takes_threads = "threads" in inspect.signature(measure_solve).parameters
    value_threads = "threads" in inspect.signature(measure_value).parameters
    engine = new_engine(64)
    deals = [random_deal(spec["game"], seed, players=spec["players"], rules=dict(spec["rules"]))
             for seed in spec["seeds"]]
    measure_value(random_deal(spec["game"], 99_999, players=spec["players"],
                              rules=dict(spec["rules"])), engine)          # warm up, not measured
    threaded = value_threads if spec["measure"] == "value" else takes_threads
    out = {"cpu": [], "wall": [], "nodes": [], "threads": threads if threaded else 1}
    for seed, deal in zip(spec["seeds"], deals):
        cpu, wall = time.process_time(), time.perf_counter()
        if spec["measure"] == "value":
            m = measure_value(deal, engine, seed, **({"threads": threads} if value_threads else {}))
        else:
            objective = "total" if spec["measure"] == "cards" else "score"
            extra = {"threads": threads} if takes_threads else {}
            m = measure_solve(deal, engine, seed, objective, **extra)
        out["cpu"].append(time.process_time() - cpu)
        out["wall"].append(time.perf_counter() - wall)
        out["nodes"].append(m.nodes)
    print(json.dumps(out))


if __name__ == "__main__":
    main()

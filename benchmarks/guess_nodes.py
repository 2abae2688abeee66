"""Nodes of the whole-deal value search under different first guesses (deterministic counts:
each deal from a cleared engine, one thread).  Usage:
    python benchmarks/guess_nodes.py SET START COUNT GUESS[,GUESS...] [DRIVER]
SET: a name of ``stich bench``'s sets; GUESS: a ``first=`` value of ``Engine.value`` or
"perfect" (the value itself)."""

from __future__ import annotations

import statistics
import sys
import time

from stich.run.bench import _BUILTIN, DealSet, fresh, new_engine
from stich.search.session import Session


def measure(deal, engine, first: str, driver: str, value: int | None):
    fresh(engine)
    started = time.perf_counter()
    position = deal.position()
    engine.new_search()
    Session(deal, position, engine)         # sets the engine up, clears the table
    engine.reset_nodes()
    if first == "perfect":
        v = engine.value(value, driver=driver)
    else:
        v = engine.value(None, driver=driver, first=first)
    return engine.nodes, time.perf_counter() - started, v


def main(argv: list[str]) -> None:
    name, start, count, guesses = argv[0], int(argv[1]), int(argv[2]), argv[3].split(",")
    row = next(r for r in _BUILTIN if r[0] == name)
    _, game, players, rules, _, _ = row
    deals = DealSet(name, game, tuple(range(start, start + count)), players, rules).deals()
    spec_driver = deals[0].game_spec.search["driver"]
    driver = argv[4] if len(argv) > 4 else spec_driver
    engine = new_engine(64)
    measure(deals[0], engine, "half", driver, None)     # warm-up
    values = {}
    for first in guesses:
        nodes, secs = [], []
        for i, deal in enumerate(deals):
            n, s, v = measure(deal, engine, first, driver, values.get(i))
            if i in values and values[i] != v:
                raise SystemExit(f"value differs on deal {i}: {values[i]} != {v}")
            values[i] = v
            nodes.append(n)
            secs.append(s)
        print(f"{name} {start}-{start + count - 1} {driver:5} {first:10} sum {sum(nodes):>12,} "
              f"median {int(statistics.median(nodes)):>10,} seconds {sum(secs):7.2f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

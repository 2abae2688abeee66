"""Every deal set under two measures (the value only, and the whole solve()), and the
`stich table` of a few four-hand Scharwenzel deals."""

from __future__ import annotations

import time

import pytest
from benchdata import SETS, TABLE_SET, finish

from stich.analysis.table import dd_table
from stich.run.bench import measure_solve, measure_value


@pytest.mark.parametrize("name", list(SETS))
@pytest.mark.parametrize("measure", ["value", "solve"])
def test_set(bench, engine, record, name, measure):
    deal_set = SETS[name]
    deals = deal_set.deals()
    rec = record(name, measure)
    how = measure_value if measure == "value" else measure_solve

    def go():
        for seed, deal in zip(deal_set.seeds, deals):
            m = how(deal, engine, seed)
            rec.seconds.append(m.seconds)
            rec.nodes.append(m.nodes)

    bench.group = measure
    bench.pedantic(go, rounds=1, iterations=1)
    finish(bench, rec)
    assert len(rec.seconds) == len(deal_set.seeds)


def test_stich_table(bench, record):
    """`stich table` of a Scharwenzel deal: every trump x every first leader (16 solves)."""
    deals = TABLE_SET.deals()
    rec = record(TABLE_SET.name, "table")

    def go():
        for deal in deals:
            started = time.perf_counter()
            table = dd_table(deal)
            rec.seconds.append(time.perf_counter() - started)
            rec.nodes.append(sum(cell.nodes for cell in table.cells))
            assert len(table.cells) == 16

    bench.group = "table"
    bench.pedantic(go, rounds=1, iterations=1)
    finish(bench, rec)


def test_readme_call(bench, record):
    """``stich.solve(deal)`` exactly as the README shows it: no engine handed in, so the
    thread's reused engine (``stich.search.solve.borrowed_engine``) serves every call."""
    from stich.search.solve import solve

    deal_set = SETS["scharwenzel-4"]
    deals = deal_set.deals()
    rec = record(deal_set.name, "solve(deal)")
    solve(deals[0])                           # the first call maps the table once

    def go():
        for deal in deals:
            started = time.perf_counter()
            result = solve(deal)
            rec.seconds.append(time.perf_counter() - started)
            rec.nodes.append(result.nodes)

    bench.group = "solve(deal)"
    bench.pedantic(go, rounds=1, iterations=1)
    finish(bench, rec)

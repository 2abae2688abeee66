"""How the cost grows with the tricks left: the value and the whole solve() of positions
with 8, 10, 12, 14 and 16 tricks left in the two point games (README: growth curve)."""

from __future__ import annotations

import pytest
from benchdata import GROWTH_GAMES, GROWTH_SEEDS, GROWTH_TRICKS, finish, growth_deal

from stich.run.bench import measure_solve, measure_value


@pytest.mark.parametrize("tricks_left", GROWTH_TRICKS)
@pytest.mark.parametrize("game,rules", GROWTH_GAMES, ids=[g for g, _ in GROWTH_GAMES])
@pytest.mark.parametrize("measure", ["value", "solve"])
def test_growth(bench, engine, record, game, rules, tricks_left, measure):
    deals = [growth_deal(game, seed, tricks_left, rules) for seed in GROWTH_SEEDS]
    assert all(d.position().tricks_left() == tricks_left for d in deals)
    rec = record(f"{game} {tricks_left} tricks left", f"growth {measure}")
    how = measure_value if measure == "value" else measure_solve

    def go():
        for seed, deal in zip(GROWTH_SEEDS, deals):
            m = how(deal, engine, seed)
            rec.seconds.append(m.seconds)
            rec.nodes.append(m.nodes)

    bench.group = f"growth {measure}"
    bench.pedantic(go, rounds=1, iterations=1)
    finish(bench, rec)

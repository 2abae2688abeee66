"""Node and time limits: a stopped search reports bounds that are proven.

For random positions of every game and mode, the exact value is found without a limit; then
the same position is searched under node budgets small enough to stop it.  Each stopped
search must report bounds that contain the exact value, ``limit_reached`` must be set
exactly when it stopped, and the table must hold only proven bounds: searching on without a
limit, with the same table, gives the exact value again."""

from __future__ import annotations

import pytest

from solver import loads
from solver._search import Engine, SearchLimit
from solver.objectives import Searcher

from randompositions import MODES, generate

SEEDS = range(130)              # x 8 modes: over 1,000 positions of every game
BUDGETS = (1, 5, 40, 300)


def _searcher(text: str, engine: Engine) -> Searcher:
    deal = loads(text)
    engine.clear()
    return Searcher.start(deal, deal.position(), engine)


@pytest.fixture(scope="module")
def engine():
    return Engine(4)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_stopped_search_bounds_contain_the_value(engine, mode):
    stopped = 0
    for seed in SEEDS:
        text = generate(mode, seed, "large")
        searcher = _searcher(text, engine)
        if searcher.engine.tricks_left == 0:
            continue
        exact = searcher.value()
        for budget in BUDGETS:
            searcher = _searcher(text, engine)
            engine.limit(nodes=budget)
            try:
                value = searcher.value()
            except SearchLimit as limit:
                stopped += 1
                assert engine.limit_reached
                assert limit.lo <= exact <= limit.hi, (mode, seed, budget)
                assert engine.nodes <= budget + 1
                engine.limit()                      # lift it: the table must still be sound
                assert not engine.limit_reached
                assert searcher.value() == exact, (mode, seed, budget)
            else:
                assert not engine.limit_reached
                assert value == exact, (mode, seed, budget)
            engine.limit()
    assert stopped > 0          # the budgets did stop some searches


def test_a_null_window_test_stopped_raises(engine):
    text = generate("schafkopf2-schellen", 3, "large")
    searcher = _searcher(text, engine)
    exact = searcher.value()
    searcher = _searcher(text, engine)
    engine.limit(nodes=1)
    with pytest.raises(SearchLimit) as stopped:
        searcher.at_least(exact)
    assert stopped.value.lo <= exact <= stopped.value.hi
    engine.limit()
    assert searcher.at_least(exact) and not searcher.at_least(exact + 1)


def test_time_limit_stops_a_whole_deal():
    from solver.dealing import random_deal

    deal = random_deal("elfern", 5, players=2)
    engine = Engine(16)
    searcher = Searcher.start(deal, deal.position(), engine)
    engine.limit(seconds=1e-4)
    with pytest.raises(SearchLimit) as stopped:
        searcher.value()
    low, high = engine.value_range
    assert low <= stopped.value.lo <= stopped.value.hi <= high
    engine.limit()
    exact = searcher.value()
    assert stopped.value.lo <= exact <= stopped.value.hi


@pytest.mark.parametrize("bad", [dict(nodes=0), dict(nodes=-3), dict(seconds=0), dict(seconds=-1.0)])
def test_bad_limits_are_refused(engine, bad):
    with pytest.raises(ValueError):
        engine.limit(**bad)

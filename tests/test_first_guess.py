"""The first guesses of the value search (``Engine.first_guess``, ``Engine.value(first=...)``):
a shallow search as deep as the rest of the deal is the exact value, one of no depth is the
greedy play-out, a moved greedy guess is that moved, and no guess changes a value."""

from __future__ import annotations

import random

import pytest

from stich.core._search import Engine
from stich.deals.dealing import random_deal
from stich.search.session import Session

# game, players, rules: games without pairs to show (the shallow search leads without showing)
GAMES = (("scharwenzel", 4, None), ("scharwenzel", 6, None), ("schafkopf2", 2, None),
         ("schafkopf2", 2, {"trump_mode": "card17"}), ("elfern", 2, None))
IDS = ("scharwenzel-4", "scharwenzel-6", "schafkopf2", "schafkopf2-card17", "elfern")


def _engine(deal) -> Engine:
    engine = Engine(8)
    Session(deal, deal.position(), engine)
    return engine


def _moves_left(engine: Engine, players: int) -> int:
    return engine.tricks_left * players - engine.trick_length


@pytest.mark.parametrize("game,players,rules", GAMES, ids=IDS)
def test_a_shallow_search_over_the_whole_rest_is_the_value(game, players, rules):
    compared = 0
    for seed in range(40):
        deal = random_deal(game, seed, players=players, rules=rules)
        engine = _engine(deal)
        rng = random.Random(seed)
        while engine.tricks_left > 0 and not engine.stopped:
            left = _moves_left(engine, players)
            if left <= 9:
                where = f"{game} seed {seed}, {left} moves left"
                assert engine.first_guess(f"shallow{left}") == engine.value(), where
                compared += 1
            engine.push(rng.choice(engine.legal()))
    assert compared > 100


@pytest.mark.parametrize("game,players,rules", GAMES, ids=IDS)
def test_a_shallow_search_of_no_depth_is_the_greedy_play_out(game, players, rules):
    for seed in range(10):
        engine = _engine(random_deal(game, seed, players=players, rules=rules))
        rng = random.Random(seed)
        while engine.tricks_left > 0 and not engine.stopped:
            assert engine.first_guess("shallow0") == engine.first_guess("greedy")
            engine.push(rng.choice(engine.legal()))


@pytest.mark.parametrize("game,players,rules", GAMES, ids=IDS)
def test_the_first_guess_does_not_change_the_value(game, players, rules):
    """From positions of 8 tricks left (random lines of whole deals), each engine fresh."""
    for seed in range(6):
        deal = random_deal(game, 100 + seed, players=players, rules=rules)
        rng = random.Random(seed)
        line = []
        probe = _engine(deal)
        while probe.tricks_left > 8 or probe.trick_length:
            line.append(rng.choice(probe.legal()))
            probe.push(line[-1])
        values = set()
        for first in ("half", "greedy", "greedy+3", "greedy-5", "shallow", "shallow4"):
            for driver in ("mtdf", "step"):
                engine = _engine(deal)
                for move in line:
                    engine.push(move)
                values.add(engine.value(driver=driver, first=first))
        assert len(values) == 1, f"{game} seed {100 + seed}: {values}"


def test_the_shallow_guess_differs_from_the_greedy_one():
    """The deeper guess is a different estimate (else the option would be a no-op)."""
    differ = 0
    for seed in range(20):
        engine = _engine(random_deal("schafkopf2", seed, players=2))
        differ += engine.first_guess("shallow6") != engine.first_guess("greedy")
    assert differ >= 5


def test_a_moved_greedy_guess_is_the_greedy_one_moved_within_the_range():
    """"greedy+N" / "greedy-N": the greedy play-out moved by N points, kept within the
    position's value range (a guess outside it would only cost a test)."""
    for seed in range(6):
        engine = _engine(random_deal("elfern", seed, players=2))
        lo, hi = engine.value_range
        greedy = engine.first_guess("greedy")
        for shift in (0, 3, 15, 1000):
            assert engine.first_guess(f"greedy+{shift}") == min(greedy + shift, hi)
            assert engine.first_guess(f"greedy-{shift}") == max(greedy - shift, lo)


@pytest.mark.parametrize("first", ["greedyy", "shallowx", "shallow-1", "shallow13", "",
                                   "greedy+", "greedy+x", "greedy-+1", "greedy+1001"])
def test_an_unknown_first_guess_is_refused(first):
    engine = _engine(random_deal("schafkopf2", 1, players=2))
    with pytest.raises(ValueError):
        engine.first_guess(first)
    with pytest.raises(ValueError):
        engine.value(first=first)

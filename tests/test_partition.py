"""Partition search (solver/core/part.pxi) against the exact table: along random lines of play
of whole Scharwenzel and Elfern deals, every position of the last tricks (Elfern: its follow
phase, once the stock is drawn, with ``part="stock"``, which turns it on there) and every card
there is valued by two engines, one with the technique and one without, under four objectives (each side's points, each side's streak),
and the values must agree.  The engines keep their tables along the line, so entries stored at
one position are reused at the next.  Dropping any one relevance rule makes this fail (tried
rule by rule; the seeds below catch each of them)."""

from __future__ import annotations

import random

import pytest

from stich.core._search import Engine
from stich.deals.dealing import random_deal
from stich.search.session import Session

OBJECTIVES = (("points", 0), ("points", 1), ("streak", 0), ("streak", 1))
# game, players, rules, tricks left from which positions are compared
GAMES = (("scharwenzel", 4, None, 8), ("elfern", 2, None, 9), ("elfern", 2, {"must_head": True}, 9))
IDS = ("scharwenzel", "elfern", "elfern-must_head")


def _engine(deal, part) -> Engine:
    engine = Engine(8)
    engine.switches(part=part)
    Session(deal, deal.position(), engine, False)
    return engine


def _value_after(engine: Engine, move: int) -> int:
    gain = engine.push(move)
    rest = engine.value() if engine.tricks_left and not engine.stopped else 0
    engine.pop()
    return gain + rest


def compare_line(game: str, players: int, rules, last: int, seed: int) -> int:
    """Walk one random line; return how many values were compared (fails on the first
    difference)."""
    deal = random_deal(game, seed, players=players, rules=rules)
    on, off = _engine(deal, "stock" if deal.stock else True), _engine(deal, False)
    assert on.switches()["part"] and not off.switches()["part"]
    rng = random.Random(seed)
    compared = 0
    while on.tricks_left > 0:
        if on.tricks_left <= last:
            for mode, side in OBJECTIVES:
                on.objective(mode, side=side)
                off.objective(mode, side=side)
                where = f"{game} seed {seed}, {mode} of side {side}, {on.tricks_left} tricks left"
                assert on.value() == off.value(), where
                for move in on.legal():
                    assert _value_after(on, move) == _value_after(off, move), f"{where}, card {move}"
                    compared += 1
        move = rng.choice(on.legal())
        on.push(move)
        off.push(move)
    assert on.tt_stats()["part_probes"] > 0 and off.tt_stats()["part_probes"] == 0
    return compared


@pytest.mark.parametrize("game,players,rules,last", GAMES, ids=IDS)
def test_partition_search_keeps_every_value(game, players, rules, last):
    compared = sum(compare_line(game, players, rules, last, seed) for seed in range(100))
    assert compared > 1000


@pytest.mark.slow
@pytest.mark.parametrize("game,players,rules,last", GAMES, ids=IDS)
def test_partition_search_keeps_every_value_more_lines(game, players, rules, last):
    for seed in range(100, 1500):
        compare_line(game, players, rules, last, seed)


def test_partition_search_saves_nodes_on_scharwenzel():
    """The technique is in use (not a test of speed: node counts are deterministic)."""
    nodes = {}
    for part in (True, False):
        total = 0
        for seed in range(5):
            engine = _engine(random_deal("scharwenzel", 1000 + seed, players=4), part)
            engine.value()
            total += engine.nodes
        nodes[part] = total
    assert nodes[True] < nodes[False]

"""The table key holds every parameter of the objective that changes a value.

One engine keeps its table between searches of the same deal under different objectives, so
an entry stored under one objective must never answer another.  For every ordered pair of
objectives (trick points scaled 0, 1 or 2, extras weighted or not, either side, the streak,
the final payoff), the value under the second on an engine that searched the first must be
the value a fresh engine finds.  Before the fix, trick_scale 0 and 1 shared their keys: on
the Mariage example scale 1 alone gave 89, and after scale 0 it gave 20.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stich.core._search import Engine
from stich.core.tables import compile_position
from stich.deals.deal import loads

ROOT = Path(__file__).resolve().parent.parent

OBJECTIVES = [
    dict(mode="points", side=0),
    dict(mode="points", side=1),
    dict(mode="points", side=0, trick_scale=0, extra_own=1),
    dict(mode="points", side=0, trick_scale=0, extra_own=1, extra_other=1),
    dict(mode="points", side=1, trick_scale=0, extra_own=1),
    dict(mode="points", side=0, trick_scale=2, extra_own=1, extra_other=1),
    dict(mode="points", side=0, trick_scale=1, extra_own=1),
    dict(mode="points", side=0, trick_scale=1, extra_other=1),
    dict(mode="streak", side=0),
    dict(mode="streak", side=1),
]


def _engine(tables, objective):
    engine = Engine(4)
    engine.setup(tables.as_dict())
    engine.objective(**objective)
    return engine


def cases():
    mariage = loads((ROOT / "examples/schafkopf2-mariage.toml").read_text(), "mariage")
    ending = loads((ROOT / "examples/schafkopf2-ending.toml").read_text(), "ending")
    elfern = loads((ROOT / "examples/elfern-ending.toml").read_text(), "elfern")
    out = []
    for name, deal in (("mariage", mariage), ("schafkopf2-ending", ending), ("elfern-ending", elfern)):
        out.append(pytest.param(deal, deal.position(), id=name))
    return out


@pytest.mark.parametrize("deal,position", cases())
def test_every_pair_of_objectives_on_one_engine(deal, position):
    tables = compile_position(position)
    goal = tables.goal is not None
    objectives = OBJECTIVES + ([dict(mode="points", side=0, goal=True)] if goal else [])
    fresh = {k: _engine(tables, o).value() for k, o in enumerate(objectives)}
    engine = _engine(tables, objectives[0])
    for a, first in enumerate(objectives):
        for b, second in enumerate(objectives):
            engine.setup(tables.as_dict(), keep_tt=True)      # the same deal: the table is kept
            engine.objective(**first)
            assert engine.value() == fresh[a]
            engine.objective(**second)
            assert engine.value() == fresh[b], f"{second} after {first}"


def test_scale_one_after_scale_zero_on_the_mariage_example():
    """The defect as reported: the whole Mariage deal, scale 1 after scale 0."""
    deal = loads((ROOT / "examples/schafkopf2-mariage.toml").read_text(), "mariage")
    tables = compile_position(deal.position())
    alone = _engine(tables, dict(mode="points", side=0, trick_scale=1, extra_own=1)).value()
    engine = _engine(tables, dict(mode="points", side=0, trick_scale=0, extra_own=1))
    engine.value()
    engine.objective(mode="points", side=0, trick_scale=1, extra_own=1)
    assert engine.value() == alone

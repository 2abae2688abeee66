"""One engine and its table across the hidden layouts of an information set:
``Engine.next_layout`` keeps only the entries whose keys name every card that may differ
between layouts, so every layout's answer is the one a fresh table gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_view import small_cases

from stich.deals.deal import loads
from stich.search.solve import new_engine, solve
from stich.view import every_layout, information, sample_layouts
from stich.view.sampling import count_layouts
from stich.view.suggest import layout_set, suggest

ROOT = Path(__file__).resolve().parent.parent


def answers(result):
    return [(m.card, m.totals, m.optimal, m.rank, m.level) for m in result.moves], result.totals


def shared_and_fresh(info, layouts, objective="score"):
    """Every layout solved one after another on one engine sharing its table, and each on a
    fresh table: (shared answers, fresh answers, shared nodes, fresh nodes)."""
    engine = new_engine(8)
    token = layout_set(info, objective)
    shared, fresh, nodes = [], [], [0, 0]
    for layout in layouts:
        deal = info.fill(layout)
        engine.next_layout(token)
        a = solve(deal, objective=objective, engine=engine, keep_tt=True)
        b = solve(deal, objective=objective, tt_megabytes=8)
        shared.append(answers(a))
        fresh.append(answers(b))
        nodes[0] += a.nodes
        nodes[1] += b.nodes
    return shared, fresh, nodes[0], nodes[1]


def later_position(path: str, plies: int):
    deal = loads((ROOT / path).read_text(encoding="utf-8"), path)
    line = solve(deal, objective="total", tt_megabytes=8).line
    here = deal.after(list(line[:plies]))
    return information(here, here.position().to_move + 1)


@pytest.mark.parametrize("path,plies,k", [
    ("examples/elfern-deal.toml", 12, 8),        # stock still there: its order differs by layout
    ("examples/elfern-deal.toml", 22, 8),        # stock gone
    ("examples/schafkopf2-deal.toml", 14, 8),    # face-down pile cards differ by layout
])
def test_a_shared_table_gives_every_layout_its_own_answer(path, plies, k):
    info = later_position(path, plies)
    shared, fresh, shared_nodes, fresh_nodes = shared_and_fresh(info, sample_layouts(info, k, 3))
    assert shared == fresh
    assert shared_nodes <= fresh_nodes


@pytest.mark.parametrize("deal,viewer", list(small_cases(per_mode=2)))
def test_a_shared_table_on_every_layout_of_small_cases(deal, viewer):
    info = information(deal, viewer + 1)
    shared, fresh, _, _ = shared_and_fresh(info, list(every_layout(info)), "total")
    assert shared == fresh


def test_another_information_set_starts_from_an_empty_table():
    engine = new_engine(4)
    assert engine.next_layout("a") is False
    assert engine.next_layout("a") is True
    assert engine.next_layout("b") is False
    deal = loads((ROOT / "examples/elfern-deal.toml").read_text(encoding="utf-8"), "x")
    solve(deal.with_play(()), objective="total", engine=engine, with_moves=False)   # clears
    assert engine.next_layout("b") is False


def test_where_the_seat_sees_everything_the_shared_table_saves_the_whole_search():
    """One consistent layout, solved again: every entry under a canonical key is reused."""
    info = later_position("examples/elfern-deal.toml", 26)
    assert count_layouts(info) == 1
    shared, fresh, shared_nodes, fresh_nodes = shared_and_fresh(info, list(every_layout(info)) * 3)
    assert shared == fresh
    assert shared_nodes < fresh_nodes


def test_suggest_same_with_and_without_shared_tables():
    info = later_position("examples/schafkopf2-deal.toml", 10)
    a = suggest(info, samples=6, seed=2, jobs=1, tt_megabytes=8)
    b = suggest(info, samples=6, seed=2, jobs=1, tt_megabytes=8, share_tables=False)
    assert a.advice == b.advice

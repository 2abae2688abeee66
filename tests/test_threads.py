"""Threads give the same answers as one thread.

``solve(threads=N)`` scores the legal cards with N engines searching one table at once
(``Engine(share=)``, a seqlock per entry: core/tt.pxi); ``dd_table(threads=N)`` solves trumps
at once, an engine each.  Every answer must be the one a single thread gives: totals,
outcome, line, every card's totals, level and optimality, and for the table every cell with
its node count.  More threads than cores are used on purpose (the threads interleave more).
"""

from __future__ import annotations

import threading

import pytest
from randompositions import MODES, generate

from stich.analysis.table import dd_table
from stich.core._search import Engine
from stich.deals.deal import loads
from stich.deals.dealing import random_deal
from stich.games import GAMES
from stich.search.session import Session
from stich.search.solve import new_engine, solve


@pytest.fixture(autouse=True)
def threads_on_every_position(monkeypatch):
    """solve scores cards in threads only after a value search of 50,000 nodes or more;
    here on every position, so that the small ones are threaded too."""
    import stich.search.solve as solve_module
    monkeypatch.setattr(solve_module, "THREADS_FROM_NODES", 0)


def answer(result):
    """Everything a solve reports but its node count and time."""
    return (result.totals, result.outcome, result.line, result.line_totals, result.exact,
            result.line_tricks, result.announcements, result.line_pairs, result.stopped,
            result.bounds, result.levels, tuple((m.card, m.group, m.pair, m.totals, m.optimal, m.level, m.rank, m.winner,
                   m.bounds) for m in result.moves))


def whole_deals():
    """Seeded whole deals of every game (and player count), and positions along their play."""
    out = []
    for game in GAMES:
        players = GAMES[game].seat_counts
        for n in players:
            for seed in range(3 if game in ("schafkopf2", "elfern") else 4):
                out.append(pytest.param(game, n, seed, id=f"{game}-{n}-{seed}"))
    return out


@pytest.mark.parametrize("game,players,seed", whole_deals())
@pytest.mark.parametrize("objective", ["score", "total"])
def test_solve_threads_same_answer(game, players, seed, objective):
    deal = random_deal(game, 700 + seed, players=players)
    engine = new_engine(16)
    one = solve(deal, objective=objective, engine=engine, threads=1)
    for threads in (2, 5):
        many = solve(deal, objective=objective, engine=engine, threads=threads)
        assert answer(many) == answer(one)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("seed", range(12))
def test_solve_threads_small_positions(mode, seed):
    """Small positions of every game and mode, mid-trick ones included."""
    deal = loads(generate(mode, 4000 + seed, "large"), "<generated>")
    engine = new_engine(4)
    for objective in ("score", "total"):
        one = solve(deal, objective=objective, engine=engine, threads=1)
        many = solve(deal, objective=objective, engine=engine, threads=3)
        assert answer(many) == answer(one)


def test_solve_threads_count_the_helpers_nodes():
    deal = random_deal("schafkopf2", 5)
    result = solve(deal, engine=new_engine(16), threads=3)
    assert result.nodes > 0 and result.exact


@pytest.mark.parametrize("game,players", [("scharwenzel", 4), ("scharwenzel", 6), ("schafkopf2", 2)])
def test_table_threads_same_cells(game, players):
    rules = {"trump_mode": "card17"} if game == "schafkopf2" else {}
    deal = random_deal(game, 31, players=players, rules=rules)
    one = dd_table(deal, tt_megabytes=8, threads=1)
    for threads in (2, 4):
        many = dd_table(deal, tt_megabytes=8, threads=threads)
        assert many.cells == one.cells          # node counts included
        assert many.best_trump == one.best_trump and many.exact


def test_table_threads_progress_counts_every_cell():
    deal = random_deal("scharwenzel", 32)
    seen = []
    table = dd_table(deal, tt_megabytes=8, threads=3, progress=lambda done, total: seen.append((done, total)))
    assert [d for d, _ in seen] == list(range(1, len(table.cells) + 1))


def _child_values(deal, engine, moves):
    session = Session(deal, deal.position(), engine, keep_tt=True)
    out = {}
    for move in moves:
        with session.after(move) as gain:
            out[move] = gain + session.value()
    return out


@pytest.mark.parametrize("game,seed", [("schafkopf2", 1), ("elfern", 2), ("schafkopf2", 3),
                                       ("scharwenzel", 4), ("officers_skat", 5)])
def test_shared_table_values(game, seed):
    """Engines searching one table at once, without bounds from a value search first (so
    the table fills from both sides), find every child's exact value."""
    deal = random_deal(game, seed)
    alone = Engine(16)
    moves = [group[0] for group in Session(deal, deal.position(), alone).classes()]
    expected = _child_values(deal, alone, moves)
    owner = Engine(16)
    Session(deal, deal.position(), owner)               # the owner clears the table
    helpers = [Engine(share=owner) for _ in range(3)]
    engines = [owner] + helpers
    found: dict = {}
    errors: list = []

    def work(k):
        try:
            found.update(_child_values(deal, engines[k], moves[k::len(engines)]))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(engines))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and found == expected
    assert all(h.table_owner is owner for h in helpers)


def test_sharing_engine_keeps_the_owners_table():
    """Setting up or clearing an engine that shares a table clears only its own partition
    table; the owner's entries stay, and its size is the owner's."""
    deal = random_deal("schafkopf2", 8)
    owner = Engine(8)
    Session(deal, deal.position(), owner).value()
    used = owner.tt_stats()["used"]
    helper = Engine(share=owner)
    Session(deal, deal.position(), helper)
    helper.clear()
    assert owner.tt_stats()["used"] == used > 0
    assert helper.megabytes == owner.megabytes
    with pytest.raises(ValueError):
        helper.next_layout("layouts")


def test_table_threads_ctrl_c_keeps_whole_cells(monkeypatch):
    """Ctrl-C (here: in the search of the third cell started) stops the table; every cell
    shown is whole and exact, and the command exits 130."""
    from click.testing import CliRunner

    import stich.analysis.table as table_module
    from stich.cli.main import main
    real, calls = table_module.solve, {"n": 0}

    def interrupted(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(table_module, "solve", interrupted)
    out = CliRunner().invoke(main, ["table", "examples/schafkopf2-card17.toml", "--threads", "2",
                                    "--json"])
    assert out.exit_code == 130
    import json
    data = json.loads(out.stdout)    # the JSON is standard output; the Ctrl-C line is on standard error
    assert data.get("exact") is False and 0 < len(data["cells"]) < 4
    assert all(cell.get("exact", True) and cell["totals"] is not None for cell in data["cells"])

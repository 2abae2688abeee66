"""Threads give the same answers as one thread.

``solve(threads=N)`` with every card wanted hands the legal cards out to N engines, each
card's value searched by one of them (and by any thread left without a card, which joins it)
and the position's value the best of those; without the
cards (``with_moves=False``) it searches the value with N threads (``stich.search.parallel``:
every thread runs the galloping null-window driver from a guess of its own, the bounds
they prove shared, the first to close them answering).  The engines search one table at once
(``Engine(share=)``, a seqlock per entry: core/tt.pxi); ``dd_table(threads=N)`` solves trumps
at once, an engine each.  Every answer must be the one a single thread gives:
totals, the forced outcome, every card's totals, level and optimality, and for the table
every cell with its node count.  The line is one optimal line, checked by the referee on
every solve: with one thread the one the table's stored cards lead to; after a value
searched by threads the one an order of the position alone leads to (``Engine.fixed_order``),
the same on every run and for any number of threads.  More threads than cores are used on
purpose (the threads interleave more).
"""

from __future__ import annotations

import threading
import time

import pytest
from randompositions import MODES, generate

from stich.analysis.table import dd_table
from stich.core._search import Engine, interrupt_handled, simulate_interrupt
from stich.core.anytime import Limits
from stich.deals.deal import loads
from stich.deals.dealing import random_deal
from stich.games import GAMES
from stich.search.parallel import ParallelValue
from stich.search.session import Session
from stich.search.solve import new_engine, solve


@pytest.fixture(autouse=True)
def threads_on_every_position(monkeypatch):
    """solve scores cards in threads only after a value search of 10,000 nodes or more, and
    searches the value in threads after 5,000; here on every position, so that the small
    ones are threaded too."""
    import stich.search.solve as solve_module
    monkeypatch.setattr(solve_module, "THREADS_FROM_NODES", 0)
    monkeypatch.setattr(solve_module, "VALUE_THREADS_FROM_NODES", 0)


def answer(result):
    """Everything a solve reports but its node count, time and line (the outcome: as forced
    under the score objective; under the total objective it is the line's)."""
    outcome = result.outcome and result.objective == "score" and (
        result.outcome.winner, result.outcome.level, result.outcome.rank)
    return (result.totals, outcome, result.exact, result.stopped,
            result.bounds, result.levels, tuple((m.card, m.group, m.pair, m.totals, m.optimal, m.level, m.rank, m.winner,
                   m.bounds) for m in result.moves))


def line_answer(result):
    """The line and what depends on it (the same with one thread, run after run)."""
    return (result.outcome, result.line, result.line_totals, result.line_tricks,
            result.announcements, result.line_pairs)


def optimal_line(result):
    """The line is whole: it ends where the totals say under the total objective (the solve
    has already checked it against the referee)."""
    return not result.exact or result.objective == "score" or result.line_totals == result.totals


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
    assert line_answer(solve(deal, objective=objective, engine=engine, threads=1)) == line_answer(one)
    lines = []
    for threads in (2, 5, 2):
        many = solve(deal, objective=objective, engine=engine, threads=threads)
        assert answer(many) == answer(one) and optimal_line(many)
        lines.append(line_answer(many))
    assert lines[1:] == lines[:1] * 2, "the line of a threaded solve changed with the run or the threads"


@pytest.mark.parametrize("game,players,seed", whole_deals())
@pytest.mark.parametrize("objective", ["score", "total"])
def test_solve_value_alone_threads_same_answer(game, players, seed, objective):
    """``with_moves=False``: the value searched by every thread at once gives the totals,
    the outcome and the bounds of one thread, and an optimal line."""
    deal = random_deal(game, 740 + seed, players=players)
    engine = new_engine(16)
    one = solve(deal, objective=objective, engine=engine, threads=1, with_moves=False)
    for threads in (2, 3):
        many = solve(deal, objective=objective, engine=engine, threads=threads, with_moves=False)
        assert answer(many) == answer(one) and optimal_line(many)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("seed", range(12))
def test_solve_threads_small_positions(mode, seed):
    """Small positions of every game and mode, mid-trick ones included."""
    deal = loads(generate(mode, 4000 + seed, "large"), "<generated>")
    engine = new_engine(4)
    for objective in ("score", "total"):
        one = solve(deal, objective=objective, engine=engine, threads=1)
        many = solve(deal, objective=objective, engine=engine, threads=3)
        assert answer(many) == answer(one) and optimal_line(many)


def _parallel_value(deal, threads, slow_caller=False):
    """The value of the deal's position by ``ParallelValue`` on ``threads`` engines sharing
    one table, and the search.  ``slow_caller``: the caller's engine searches without the
    table (the helpers, made before, keep it), so that a helper closes the bounds first."""
    owner = Engine(16)
    session = Session(deal, deal.position(), owner)
    helpers = [Engine(share=owner) for _ in range(threads - 1)]
    for helper in helpers:
        Session(deal, deal.position(), helper)
    if slow_caller:
        owner.switches(tt=False)
    search = ParallelValue([owner] + helpers)
    return search.value(session.first_guess()), search


@pytest.mark.parametrize("game,players,seed", whole_deals())
def test_parallel_value_is_the_value(game, players, seed):
    """The threads' value of whole deals is the one-thread value (no size threshold keeps
    these deals on one thread); in the long searches every thread searched (a tiny deal may
    be done before a helper starts)."""
    deal = random_deal(game, 800 + seed, players=players)
    exact = Session(deal, deal.position(), Engine(16)).value()
    for threads in (2, 3):
        value, search = _parallel_value(deal, threads)
        assert value == exact
        if game in ("schafkopf2", "elfern"):
            assert all(nodes > 0 for nodes in search.nodes_by_thread)


@pytest.mark.parametrize("game,seed", [("schafkopf2", 820), ("elfern", 821)])
def test_a_helper_that_closes_the_bounds_answers(game, seed):
    """The caller's engine searches without a table (minutes for a whole deal); the helpers
    close the bounds long before it could, and its test is halted: the search ends within
    the minute, the value is the one thread's, and the helper searched."""
    deal = random_deal(game, seed, players=2)
    exact = Session(deal, deal.position(), Engine(16)).value()
    out: list = []
    worker = threading.Thread(target=lambda: out.append(_parallel_value(deal, 2, slow_caller=True)),
                              daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "the caller's test was not halted when a helper answered"
    value, search = out[0]
    assert value == exact and search.nodes_by_thread[1] > 0


@pytest.mark.parametrize("game,seed", [("schafkopf2", 822), ("elfern", 823)])
def test_a_thread_that_joins_a_search_under_way_answers(game, seed):
    """A thread left without a card of its own joins another's card (``ParallelValue.join``).
    The owner searches without a table (minutes for a whole deal), so only the one that
    joined can close the bounds: the owner's test is halted within the minute, the value is
    the one thread's, and joining a search that is over returns at once."""
    deal = random_deal(game, seed, players=2)
    exact = Session(deal, deal.position(), Engine(16)).value()
    owner = Engine(16)
    Session(deal, deal.position(), owner)
    joiner = Engine(share=owner)
    Session(deal, deal.position(), joiner)
    owner.switches(tt=False)
    search = ParallelValue([owner])
    out: list = []
    worker = threading.Thread(target=lambda: out.append(search.value(owner.first_guess())),
                              daemon=True)
    worker.start()
    time.sleep(0.05)
    search.join(joiner)
    worker.join(60)
    assert not worker.is_alive(), "the owner's test was not halted when the joiner answered"
    assert out == [exact] and search.closed and joiner.nodes > 0
    before = joiner.nodes
    search.join(joiner)
    assert joiner.nodes == before


def test_share_out_hands_an_idle_worker_to_idle():
    """A worker with no item left calls ``idle`` once (to help a piece under way); every
    item is done once."""
    from stich.search.threads import share_out
    done, idled, lock = [], [], threading.Lock()

    def work(worker, item):
        time.sleep(0.01 * item)
        yield item

    def idle(worker):
        with lock:
            idled.append(worker)

    assert share_out(["a", "b", "c"], [1, 2, 3, 4], work, done.append, idle=idle) is False
    assert sorted(done) == [1, 2, 3, 4] and sorted(idled) == ["a", "b", "c"]


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("seed", range(6))
def test_parallel_value_small_positions(mode, seed):
    """Mid-trick and near-final positions of every mode: the first tricks split to the end."""
    deal = loads(generate(mode, 4100 + seed, "large"), "<generated>")
    exact = Session(deal, deal.position(), Engine(4)).value()
    assert _parallel_value(deal, 2)[0] == exact


def test_halt_stops_a_window_test_from_another_thread():
    """``halt`` ends a test under way within a few thousand nodes (it returns None, storing
    nothing unproven); after ``halt(False)`` the engine finds the same value as before."""
    deal = random_deal("schafkopf2", 2, players=2)
    engine = Engine(1)
    session = Session(deal, deal.position(), engine)
    engine.switches(tt=False)           # minutes of search: only the halt ends it
    found: list = []
    worker = threading.Thread(target=lambda: found.append(engine.window(60)), daemon=True)
    worker.start()
    time.sleep(0.2)
    engine.halt()
    worker.join(10)
    assert not worker.is_alive() and found == [None]
    engine.switches(tt=True)
    engine.halt(False)
    assert session.value() == Session(deal, deal.position(), Engine(16)).value()


def test_solve_with_limits_stays_on_one_thread():
    """A budget is one engine's: with a node limit the threads change nothing, node counts
    included."""
    deal = random_deal("elfern", 3, players=2)
    limits = Limits(nodes=200_000)
    one = solve(deal, engine=new_engine(16), limits=limits, threads=1)
    many = solve(deal, engine=new_engine(16), limits=limits, threads=2)
    assert not one.exact and many.nodes == one.nodes
    assert answer(many) == answer(one) and line_answer(many) == line_answer(one)


@pytest.mark.parametrize("with_moves", [True, False], ids=["cards-first", "value-alone"])
def test_ctrl_c_stops_every_thread_of_a_value_search(with_moves):
    """Ctrl-C during the threads' search (the cards handed out, or the value alone searched
    by every thread): the solve ends at once with the bounds proven so far (a search without
    a table would take minutes)."""
    deal = random_deal("schafkopf2", 2, players=2)
    engine = Engine(1)
    engine.switches(tt=False)           # the helpers start with the owner's switches
    out: list = []
    worker = threading.Thread(target=lambda: out.append(solve(deal, engine=engine, threads=2,
                                                              with_moves=with_moves)),
                              daemon=True)
    try:
        worker.start()
        time.sleep(0.3)
        simulate_interrupt()
        worker.join(5)
        assert not worker.is_alive(), "a thread went on after Ctrl-C"
    finally:
        interrupt_handled()
    result = out[0]
    assert result.stopped == "interrupt" and not result.exact
    (low, high), _ = result.bounds
    assert low <= high


def test_ctrl_c_while_threads_search_the_cards_keeps_the_cards_found(monkeypatch):
    """With every card wanted the threads search the cards' values before the position's:
    Ctrl-C as the third card's search starts (two have come in or are under way) stops the
    solve, and the cards whose values came in are reported with their exact totals (those of
    one thread), not thrown away.  (The cards go to threads of their own here: Ctrl-C is
    simulated in the thread that searches, and the main thread would forget it.)"""
    import stich.search.solve as solve_module
    deal = random_deal("schafkopf2", 2, players=2)
    exact = {m.card: m.totals for m in solve(deal, engine=new_engine(16), threads=1).moves}
    share_out = solve_module.share_out
    started = []

    def interrupted_at_the_third_card(workers, items, work, got, **options):
        def work_then_interrupt(worker, item):
            started.append(item)
            if len(started) >= 3:
                simulate_interrupt()
            return work(worker, item)
        return share_out(workers, items, work_then_interrupt, got,
                         **{**options, "caller_works": False})

    monkeypatch.setattr(solve_module, "share_out", interrupted_at_the_third_card)
    try:
        result = solve(deal, engine=new_engine(16), threads=2)
    finally:
        interrupt_handled()
    assert result.stopped == "interrupt" and not result.exact
    found = [m for m in result.moves if m.totals is not None]
    assert found and all(m.totals == exact[m.card] for m in found)


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

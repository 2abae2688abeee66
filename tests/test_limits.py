"""Node and time limits: a stopped search reports bounds that are proven.

For random positions of every game and mode, the exact value is found without a limit; then
the same position is searched under node budgets small enough to stop it.  Each stopped
search must report bounds that contain the exact value, ``limit_reached`` must be set
exactly when it stopped, and the table must hold only proven bounds: searching on without a
limit, with the same table, gives the exact value again."""

from __future__ import annotations

from pathlib import Path

import pytest
from clirun import one_line_error, run
from randompositions import MODES, generate

from stich import loads
from stich.cli import common
from stich.core._search import Engine, SearchLimit
from stich.search.ladder import forced_rung
from stich.search.session import Session


def seeds_for(mode: str) -> range:
    """Enough seeds that every game gets at least 1,000 positions over its modes."""
    game = MODES[mode]["game"]
    modes_of_game = sum(1 for spec in MODES.values() if spec["game"] == game)
    return range(-(-1000 // modes_of_game))

BUDGETS = (1, 5, 40, 300)


def _searcher(text: str, engine: Engine) -> Session:
    deal = loads(text)
    engine.clear()
    return Session(deal, deal.position(), engine)


@pytest.fixture(scope="module")
def engine():
    return Engine(4)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_stopped_search_bounds_contain_the_value(engine, mode):
    stopped = 0
    for seed in seeds_for(mode):
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
    from stich.deals.dealing import random_deal

    deal = random_deal("elfern", 5, players=2)
    engine = Engine(16)
    searcher = Session(deal, deal.position(), engine)
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


# --- solve() within limits: partial answers hold only what is proven ---------------------------

SOLVE_BUDGETS = (1, 25, 300)


def _exact_rung_text(deal, objective):
    if objective != "score":
        return None
    engine = Engine(4)
    searcher = Session(deal, deal.position(), engine)
    rung = forced_rung(searcher)
    return None if rung is None else rung.text


def _check_partial(partial, exact, budget, rung_text, where):
    assert partial.exact == (partial.nodes < budget), where
    if partial.exact:
        assert partial.totals == exact.totals and partial.line == exact.line, where
        assert [(m.card, m.totals, m.optimal) for m in partial.moves] == \
            [(m.card, m.totals, m.optimal) for m in exact.moves], where
        return
    assert partial.stopped == "nodes" and partial.outcome is None and partial.line == (), where
    if partial.totals is not None:
        assert partial.totals == exact.totals, where
    if partial.bounds is not None:
        for side in (0, 1):
            low, high = partial.bounds[side]
            assert low <= exact.totals[side] <= high, where
    if rung_text is not None:
        assert rung_text in [level for level, _ in partial.levels], where
    assert [m.card for m in partial.moves] == [m.card for m in exact.moves], where
    for got, want in zip(partial.moves, exact.moves):
        if got.totals is not None:
            assert got.totals == want.totals, where
        if got.bounds is not None:
            assert all(lo <= t <= hi for (lo, hi), t in zip(got.bounds, want.totals)), where
        if got.optimal is not None:
            assert got.optimal == want.optimal, where


@pytest.mark.parametrize("objective", ["score", "total"])
@pytest.mark.parametrize("mode", sorted(MODES))
def test_solve_within_limits_reports_only_what_is_proven(mode, objective):
    from stich.core.anytime import Limits
    from stich.search.solve import solve

    partial_answers = 0
    seeds = seeds_for(mode) if objective == "score" else range(60)
    for seed in seeds:
        deal = loads(generate(mode, seed, "large"))
        if deal.position().is_over():
            continue
        exact = solve(deal, objective=objective)
        rung_text = _exact_rung_text(deal, objective)
        for budget in SOLVE_BUDGETS:
            partial = solve(deal, objective=objective, limits=Limits(nodes=budget))
            partial_answers += not partial.exact
            _check_partial(partial, exact, budget, rung_text, (mode, seed, budget))
    assert partial_answers > 0


def test_a_time_limit_gives_a_partial_answer_with_proven_bounds():
    from stich.core.anytime import Limits
    from stich.deals.dealing import random_deal
    from stich.search.solve import solve

    deal = random_deal("schafkopf2", 4, players=2)
    partial = solve(deal, limits=Limits(seconds=0.01))
    assert not partial.exact and partial.stopped == "time"
    exact = solve(deal, objective="total", with_moves=False)
    for side in (0, 1):
        low, high = partial.bounds[side]
        assert low <= exact.totals[side] <= high


@pytest.mark.parametrize("bad", [dict(nodes=0), dict(nodes=2.5), dict(nodes=True),
                                 dict(seconds=0), dict(seconds=float("nan")), dict(seconds="1")])
def test_bad_solve_limits_are_refused(bad):
    from stich.core.anytime import Limits

    with pytest.raises(ValueError):
        Limits(**bad)


def test_cli_solve_with_a_limit_says_partial_and_exits_5():
    import json

    from click.testing import CliRunner

    from stich.cli.main import main

    runner = CliRunner()
    out = runner.invoke(main, ["solve", "examples/schafkopf2-deal.toml", "--node-limit", "50", "--json"])
    assert out.exit_code == 5, out.output
    data = json.loads(out.output)
    assert data["exact"] is False and data["stopped"] == "nodes" and data["totals"] is None
    assert data["line"] == [] and data["outcome"] is None
    low0, high0 = data["bounds"][0]
    exact = json.loads(runner.invoke(main, ["solve", "examples/schafkopf2-deal.toml", "--json"]).output)
    assert exact["exact"] is True
    assert low0 <= exact["totals"][0] <= high0
    text = runner.invoke(main, ["solve", "examples/schafkopf2-deal.toml", "--node-limit", "50"])
    assert text.exit_code == 5 and "PARTIAL ANSWER" in text.output


@pytest.mark.parametrize("option", [["--node-limit", "0"], ["--time-limit", "0"], ["--time-limit", "x"]])
def test_cli_bad_limits_exit_2(option):
    from click.testing import CliRunner

    from stich.cli.main import main

    out = CliRunner().invoke(main, ["solve", "examples/schafkopf2-deal.toml", *option])
    assert out.exit_code == 2


ROOT = Path(__file__).resolve().parent.parent


EXAMPLES = ROOT / "examples"


ENDING = EXAMPLES / "elfern-ending.toml"


def test_tt_mb_above_free_memory_is_refused(monkeypatch):
    monkeypatch.setattr(common, "available_megabytes", lambda: 1000)
    one_line_error(run("solve", EXAMPLES / "elfern-ending.toml", "--tt-mb", "65536"), "--tt-mb", "free")


def test_memory_error_making_the_engine_is_bad_input(monkeypatch):
    import stich.cli.solve

    def no_memory(*args, **kwargs):
        raise MemoryError()
    monkeypatch.setattr(stich.cli.solve, "solve_deal", no_memory)
    one_line_error(run("solve", EXAMPLES / "elfern-ending.toml"), "--tt-mb")


def test_tt_mb_help_says_a_large_table_is_slower():
    assert "slower" in run("solve", "--help").output


@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "1e400"])
@pytest.mark.parametrize("command", ["solve", "analyze", "batch", "tactic"])
def test_time_limit_inf_or_nan_is_bad_input(tmp_path, command, value):
    args = {"solve": [ENDING], "analyze": [ENDING], "batch": [ENDING, "--out", tmp_path / "r.jsonl"],
            "tactic": ["elfern.take_honour", "--from", ENDING]}[command]
    one_line_error(run(command, *args, "--time-limit", value), "--time-limit")


def test_a_huge_node_limit_is_bad_input_not_an_overflow(tmp_path):
    huge = "99999999999999999999999"
    one_line_error(run("solve", ENDING, "--node-limit", huge), "--node-limit")
    one_line_error(run("batch", ENDING, "--out", tmp_path / "r.jsonl", "--node-limit", huge), "--node-limit")


def test_the_largest_node_limit_allowed_reaches_the_core():
    from stich import load, solve
    from stich.core.anytime import MAX_NODES, Limits
    result = solve(load(ENDING), limits=Limits(nodes=MAX_NODES))
    assert result.exact
    with pytest.raises(ValueError):
        Limits(nodes=MAX_NODES + 1)


def test_deal_count_is_capped_like_batch_generate():
    one_line_error(run("deal", "--game", "elfern", "-n", "100001", "--json"), "-n")
    one_line_error(run("deal", "--game", "elfern", "-n", "99999999999999999999", "--json"), "-n")


@pytest.mark.parametrize("command", [("suggest",), ("replay", "--view", "player")])
def test_the_players_view_samples_at_most_as_many_layouts_as_the_limits_page_says(command):
    """Each sampled layout is held until it is solved, so --samples is capped (the limits
    page): 100,000 everywhere the player's view samples."""
    deal = str(EXAMPLES / ("elfern-deal.toml" if command[0] == "suggest" else "elfern-played.toml"))
    one_line_error(run(command[0], deal, *command[1:], "--samples", "100001"), "--samples", "100000")


@pytest.mark.parametrize("command", [("deal", "--game", "elfern"), ("suggest", "examples/elfern-deal.toml")])
def test_a_seed_is_capped_like_every_count(command):
    """A seed of 300 digits would name a deal (and its file) longer than a path may be."""
    args = [str(EXAMPLES.parent / a) if a.startswith("examples/") else a for a in command]
    one_line_error(run(*args, "--seed", str(10**300)), "--seed")


def test_a_source_label_that_is_no_path_is_read_as_a_label():
    """``loads`` names its text with a label; one too long for a path is no file to look at."""
    deal = loads(ENDING.read_text(encoding="utf-8"), "x" * 300)
    assert deal.game == "elfern"


def test_a_batch_generates_at_most_a_million_deals(tmp_path):
    many = [arg for seed in range(11) for arg in ("--generate", f"elfern:100000:{seed}")]
    one_line_error(run("batch", *many, "--out", tmp_path / "r.jsonl"), "--generate", "1,000,000")

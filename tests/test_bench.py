"""stich.run.bench and `stich bench`: deterministic node counts, the JSON shape, --off."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from clirun import one_line_error
from clirun import run as cli_run

from stich.cli.bench import bench_command
from stich.deals.dealing import random_deal
from stich.run.bench import (
    SWITCHES,
    DealSet,
    builtin_sets,
    measure_cards,
    measure_solve,
    measure_value,
    parse_off,
    percentile,
    run,
)
from stich.search.solve import new_engine, solve

SMALL = [DealSet("scharwenzel-4", "scharwenzel", (1, 2, 3)),
         DealSet("scharwenzel-6", "scharwenzel", (1,), players=6),
         DealSet("schafkopf2-card17", "schafkopf2", (5,), players=2, rules={"trump_mode": "card17"})]


def _nodes(data):
    return {s["name"]: [d["nodes"] for d in s["per_deal"]] for s in data["sets"]}


@pytest.mark.parametrize("mode", ["value", "solve"])
def test_node_counts_are_identical_across_runs(mode):
    first = run(SMALL, mode=mode, tt_megabytes=8)
    second = run(SMALL, mode=mode, tt_megabytes=8)
    assert _nodes(first) == _nodes(second)
    assert all(n > 0 for ns in _nodes(first).values() for n in ns)


def test_a_deal_counts_the_same_whatever_was_solved_before():
    deals = [d for s in SMALL for d in s.deals()]
    reused = new_engine(8)
    forward = [measure_solve(d, reused).nodes for d in deals]
    backward = [measure_solve(d, reused).nodes for d in reversed(deals)][::-1]
    alone = [measure_solve(d, new_engine(8)).nodes for d in deals]
    assert forward == backward == alone
    values = [measure_value(d, reused).nodes for d in deals]
    assert values == [measure_value(d, new_engine(8)).nodes for d in deals]


def test_the_card_searches_alone_find_every_cards_totals_of_a_whole_solve():
    """``measure_cards`` (the DDS benchmark's card searches) scores every legal card as the
    whole solve does, in fewer nodes (no line, no outcome levels), the same on every run."""
    engine = new_engine(8)
    for deal in [d for s in SMALL for d in s.deals()] + [random_deal("elfern", 4, players=2)]:
        whole = measure_solve(deal, engine, objective="total")
        alone = measure_cards(deal, engine)
        assert alone.result == {m.card: m.totals for m in whole.result.moves}
        assert alone.totals == whole.totals
        assert alone.nodes < whole.nodes
        assert measure_cards(deal, engine).nodes == alone.nodes


def test_the_table_is_what_must_be_cleared():
    """Without clearing, a second search of the same deal profits from the first: the reason
    every measured deal starts from a cleared engine."""
    deal = SMALL[0].deals()[0]
    engine = new_engine(8)
    first = solve(deal, engine=engine).nodes
    again = solve(deal, engine=engine, keep_tt=True).nodes
    assert again < first
    assert measure_solve(deal, engine).nodes == first


def test_node_counts_depend_on_the_switches():
    plain = run(SMALL[:1], mode="value", tt_megabytes=8)
    without = run(SMALL[:1], mode="value", tt_megabytes=8, off={"merge": False, "bounds": False})
    assert without["switches"]["merge"] is False and without["switches"]["bounds"] is False
    # every technique the bench can switch off is on by default, enhanced transposition cutoffs too
    assert {name: plain["switches"][name] for name in SWITCHES} == {name: True for name in SWITCHES}
    assert "cutoffs" in SWITCHES
    assert [d["value"] for d in plain["sets"][0]["per_deal"]] == \
        [d["value"] for d in without["sets"][0]["per_deal"]]


def test_parse_off():
    assert parse_off("merge, bounds") == {"merge": False, "bounds": False}
    assert parse_off(None) == {} and parse_off("") == {}
    with pytest.raises(ValueError, match="unknown technique 'nope'"):
        parse_off("merge,nope")


def test_percentile():
    assert percentile([5, 1, 4, 2, 3], 50) == 3
    assert percentile(list(range(1, 11)), 90) == 9
    assert percentile([7], 90) == 7


def test_builtin_sets_are_fixed():
    full, quick = builtin_sets(), builtin_sets(quick=True)
    assert [s.name for s in full] == [s.name for s in quick]
    assert {s.game for s in full} == {"scharwenzel", "schafkopf2", "elfern", "officers_skat", "einwerfen",
                                      "bohemian_schneider"}
    assert any(s.game == "schafkopf2" and s.rules.get("mariage") for s in full)
    first = [s.name for s in full][:6]         # the first sets stay as they were: comparable counts
    assert first == ["scharwenzel-4", "scharwenzel-6", "scharwenzel-8", "schafkopf2-schellen",
                     "schafkopf2-card17", "elfern"]
    for f, q in zip(full, quick):
        assert len(q.seeds) < len(f.seeds) and set(q.seeds) <= set(f.seeds)
        assert [d.dump() for d in q.deals()] == [d.dump() for d in q.deals()]


def test_cli_json_shape():
    result = CliRunner().invoke(bench_command, ["--quick", "--json", "--mode", "value", "--tt-mb", "8"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"mode", "objective", "tt_megabytes", "switches", "deterministic_nodes", "note", "sets",
            "total", "quick", "core_build"} <= set(data)
    assert data["mode"] == "value" and data["quick"] is True and data["tt_megabytes"] == 8
    assert data["core_build"] in {"profile-guided", "plain"}
    assert (data["core_plain_because"] is None) == (data["core_build"] == "profile-guided")
    assert data["deterministic_nodes"] is True
    names = [s["name"] for s in data["sets"]]
    assert names == [s.name for s in builtin_sets(quick=True)]
    for s in data["sets"]:
        assert {"name", "game", "players", "rules", "seeds", "deals", "nodes", "seconds",
                "nodes_per_second", "median_ms", "p90_ms", "per_deal"} <= set(s)
        assert s["deals"] == len(s["seeds"]) == len(s["per_deal"])
        assert s["nodes"] == sum(d["nodes"] for d in s["per_deal"])
        assert all({"seed", "nodes", "ms", "value"} <= set(d) for d in s["per_deal"])
    assert data["total"]["deals"] == sum(s["deals"] for s in data["sets"])
    assert data["total"]["nodes"] == sum(s["nodes"] for s in data["sets"])


def test_cli_report_and_bad_off():
    runner = CliRunner()
    result = runner.invoke(bench_command, ["--quick", "--mode", "value", "--off", "merge", "--tt-mb", "8"])
    assert result.exit_code == 0, result.output
    assert "techniques off: merge" in result.output and "deterministic" in result.output
    for name in ("scharwenzel-4", "schafkopf2-schellen", "elfern", "nodes/s", "median ms"):
        assert name in result.output
    bad = runner.invoke(bench_command, ["--off", "nope"])
    assert bad.exit_code == 2 and "unknown technique 'nope'" in bad.output


def test_bench_does_not_list_experimental_switches():
    from stich.report.bench import bench_report as report
    stats = dict(name="x", deals=1, nodes=10, seconds=0.1, nodes_per_second=100, median_ms=1.0, p90_ms=1.0)
    data = dict(sets=[stats], total=stats, objective="score", mode="solve", tt_megabytes=64,
                note="n", switches={"tt": True, "merge": False, "experiment": False})
    text = report(data)
    assert "experiment" not in text.splitlines()[0]
    assert "techniques off: merge" in text.splitlines()[0]


def test_bench_off_names_the_enhanced_transposition_cutoffs():
    from stich.run.bench import SWITCHES, parse_off
    assert "etc" not in SWITCHES and "etc" not in cli_run("bench", "--help").output.split()
    assert parse_off("cutoffs") == {"etc": False}         # the core's name for it
    one_line_error(cli_run("bench", "--off", "etc"), "--off", "cutoffs")


def test_ctrl_c_in_bench_prints_the_deals_measured(monkeypatch):
    import stich.run.bench as bench
    original, calls = bench.measure_value, []

    def measure(*args, **kwargs):
        calls.append(1)
        if len(calls) > 3:                      # the warm-up and two deals, then Ctrl-C
            raise KeyboardInterrupt
        return original(*args, **kwargs)
    monkeypatch.setattr(bench, "measure_value", measure)
    result = cli_run("bench", "--quick", "--mode", "value", "--json")
    assert result.exit_code == 130 and "interrupted" in result.stderr
    data = json.loads(result.stdout)
    assert data["interrupted"] is True and data["total"]["deals"] == 2


def test_a_solve_stopped_by_ctrl_c_ends_the_measuring_and_is_not_counted(monkeypatch):
    """``solve`` keeps a Ctrl-C as a partial answer (stopped "interrupt") rather than raising:
    that deal's node count is short, so it is left out and no later deal is measured."""
    import dataclasses

    import stich.run.bench as bench
    original, calls = bench.solve, []

    def solve_(*args, **kwargs):
        calls.append(1)
        result = original(*args, **kwargs)
        if len(calls) == 3:                     # the third deal is "interrupted"
            return dataclasses.replace(result, stopped="interrupt")
        return result
    monkeypatch.setattr(bench, "solve", solve_)
    result = cli_run("bench", "--quick", "--json")
    assert result.exit_code == 130 and "interrupted" in result.stderr
    data = json.loads(result.stdout)
    assert data["interrupted"] is True and data["total"]["deals"] == 2 and len(calls) == 3


@pytest.mark.parametrize("game", ["scharwenzel", "schafkopf2", "elfern"])
def test_trick_nodes_count_the_nodes_at_a_tricks_start(game):
    """``Engine.trick_nodes`` (the figure DDS counts as its nodes) counts the value search's
    nodes where a trick starts: at the start of the last trick every node, inside it none,
    from the last card of the trick before every node but the root; over a whole deal some of
    them.  ``reset_nodes`` clears both counts."""
    deal = random_deal(game, 3)
    line = solve(deal).line
    seats = deal.position().seats
    engine = new_engine(8)

    def counts(cards_left: int) -> tuple[int, int]:
        measure_value(deal.after(list(line[:len(line) - cards_left])), engine)
        return engine.nodes, engine.trick_nodes

    nodes, tricks = counts(seats)
    assert nodes >= 1 and tricks == nodes
    assert all(counts(k)[1] == 0 for k in range(1, seats))
    nodes, tricks = counts(seats + 1)
    assert nodes >= 2 and tricks == nodes - 1
    nodes, tricks = counts(len(line))
    assert 0 < tricks < nodes
    engine.reset_nodes()
    assert engine.nodes == engine.trick_nodes == 0

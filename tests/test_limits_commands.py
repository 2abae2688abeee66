"""--node-limit / --time-limit in analyze, puzzle, table, replay and batch.

For each command: a limit that is hit gives exit 5 and ``"exact": false``; whatever the
partial answer states is what the unlimited answer says (bounds contain the exact value,
cards proven optimal or worse are so, a decided verdict is the verdict); a limit that is not
hit changes nothing.  The API is checked on random positions of every game, the CLI on the
examples."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from clirun import run as cli_run
from randompositions import MODES, generate

from stich import loads
from stich.analysis.analyze import analyze
from stich.analysis.puzzle import solve_puzzle
from stich.analysis.replay import replay
from stich.analysis.table import dd_table
from stich.cli.main import main
from stich.core.anytime import Limits
from stich.deals.deal import load

BUDGETS = (1, 40, 400)


def run(*args):
    return CliRunner().invoke(main, list(args))


def run_json(*args):
    out = run(*args, "--json")
    return out.exit_code, json.loads(out.stdout)


def _inside(bounds, totals) -> bool:
    return all(low <= total <= high for (low, high), total in zip(bounds, totals))


# --- puzzle ------------------------------------------------------------------------------------

def _goals(deal) -> list[str]:
    unit = deal.rule_set.unit
    return [f"{unit}>=1", f"{unit}>=2", "win"]


@pytest.mark.parametrize("mode", sorted(MODES))
def test_puzzle_within_limits_states_only_what_is_proven(mode):
    partial = 0
    for seed in range(12):
        deal = loads(generate(mode, seed, "large"))
        if deal.position().is_over():
            continue
        for goal in _goals(deal):
            try:
                exact = solve_puzzle(deal, goal)
            except Exception as exc:          # a goal this game does not have
                assert type(exc).__name__ == "DealError"
                continue
            assert exact.exact and exact.verdict != "unknown"
            for budget in BUDGETS:
                got = solve_puzzle(deal, goal, limits=Limits(nodes=budget))
                where = (mode, seed, goal, budget)
                if got.exact:
                    assert (got.verdict, got.key_moves, got.failing, got.main_line) == \
                        (exact.verdict, exact.key_moves, exact.failing, exact.main_line), where
                    continue
                partial += 1
                assert got.stopped == "nodes", where
                assert got.reachable in (None, exact.reachable), where
                assert got.verdict in ("unknown", exact.verdict), where
                assert set(got.key_moves) <= set(exact.key_moves), where
                assert set(got.failing) <= set(exact.failing), where
                assert set(got.key_moves + got.failing + got.undecided) == \
                    set(exact.key_moves + exact.failing), where
                assert got.main_line in ((), exact.main_line), where
    assert partial > 0


def test_cli_puzzle_limit_gives_unknown_and_exit_5():
    code, data = run_json("puzzle", "examples/scharwenzel-ending.toml", "--goal", "tricks>=6",
                          "--node-limit", "15")
    assert code == 5
    assert data["exact"] is False and data["stopped"] == "nodes"
    assert data["verdict"] == "unknown" and data["reachable"] is None
    text = run("puzzle", "examples/scharwenzel-ending.toml", "--goal", "tricks>=6", "--node-limit", "15")
    assert text.exit_code == 5 and "PARTIAL ANSWER" in text.output and "unknown" in text.output


# --- analyze -----------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", sorted(MODES))
def test_analyze_within_limits_states_only_what_is_proven(mode):
    partial = 0
    for seed in range(12):
        deal = loads(generate(mode, seed, "large"))
        if deal.position().is_over():
            continue
        exact = analyze(deal).result
        for budget in BUDGETS:
            got = analyze(deal, limits=Limits(nodes=budget))
            where = (mode, seed, budget)
            if got.result.exact:
                assert got.rows == analyze(deal).rows, where
                continue
            partial += 1
            assert got.rows == (), where
            if got.result.bounds is not None:
                assert _inside(got.result.bounds, exact.totals), where
            for mine, right in zip(got.result.moves, exact.moves):
                assert mine.card == right.card, where
                if mine.totals is not None:
                    assert mine.totals == right.totals, where
                if mine.bounds is not None:
                    assert _inside(mine.bounds, right.totals), where
                if mine.optimal is not None:
                    assert mine.optimal == right.optimal, where
    assert partial > 0


def test_cli_analyze_limit_says_partial_and_exits_5():
    code, data = run_json("analyze", "examples/elfern-ending.toml", "--all-seats", "--node-limit", "50")
    assert code == 5 and data["exact"] is False
    exact_code, exact = run_json("analyze", "examples/elfern-ending.toml", "--all-seats")
    assert exact_code == 0 and "exact" not in exact
    for seat, right in zip(data["seats"], exact["seats"]):
        assert seat["exact"] is False and seat["seat"] == right["seat"]
        if seat["bounds"] is not None:
            assert _inside(seat["bounds"], right["totals"])
    text = run("analyze", "examples/elfern-ending.toml", "--node-limit", "50")
    assert text.exit_code == 5 and "PARTIAL ANSWER" in text.output


# --- table -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["examples/scharwenzel-deal.toml", "examples/schafkopf2-card17.toml"])
def test_table_cells_within_limits_hold_the_exact_cells(path):
    deal = load(path)
    exact = dd_table(deal)
    assert exact.exact
    # a level still possible, as (rung text, winner), names its rung by its label where it has
    # one ("win for the first" is level "win", rank 5): compare by rank
    ranks = {(r.text, None if r.winner is None else r.winner + 1): r.rank
             for r in deal.game_spec.ladder(deal.position(), deal)}
    for budget in (500, 2_000):
        got = dd_table(deal, limits=Limits(nodes=budget))
        assert not got.exact and got.stopped == "nodes"
        assert len(got.cells) == len(exact.cells)
        for mine, right in zip(got.cells, exact.cells):
            if mine.exact:
                assert (mine.totals, mine.outcome) == (right.totals, right.outcome)
                continue
            if mine.totals is not None:
                assert mine.totals == right.totals
            if mine.bounds is not None:
                assert _inside(mine.bounds, right.totals)
            if mine.levels:
                assert right.outcome.rank in [ranks[level] for level in mine.levels]
        for seat, suit in got.best_trump.items():
            assert exact.best_trump[seat] == suit


def test_cli_table_limit_shows_ranges_and_exits_5():
    code, data = run_json("table", "examples/scharwenzel-deal.toml", "--node-limit", "500")
    assert code == 5 and data["exact"] is False and data["cells_planned"] == 16
    assert any(cell.get("exact") is False for cell in data["cells"])
    text = run("table", "examples/scharwenzel-deal.toml", "--node-limit", "500")
    assert text.exit_code == 5 and "PARTIAL TABLE" in text.output and "partial" in text.output


def test_a_partial_table_with_no_declarer_found_keeps_its_leaders():
    """So few nodes that no declarer's choice is known: the grid still names the leaders
    across (a list of 16 rows under "seat 1 leads" would read as if seat 1 led every one)."""
    text = run("table", "examples/scharwenzel-deal.toml", "--node-limit", "50")
    assert text.exit_code == 5, text.output
    assert all(f"seat {seat} leads" in text.output for seat in (1, 2, 3, 4))
    assert "Seat 1 leads; the deal under each trump" not in text.output
    assert "(seats missing here" in text.output


# --- replay ------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["examples/scharwenzel-played.toml", "examples/schafkopf2-played.toml",
                                  "examples/elfern-played.toml"])
def test_replay_within_a_limit_keeps_exact_steps(path):
    deal = load(path)
    exact = replay(deal)
    assert exact.exact
    seen_partial = False
    for budget in (10, 2_000, 50_000):
        got = replay(deal, limits=Limits(nodes=budget))
        if got.exact:
            assert got.steps == exact.steps
            continue
        seen_partial = True
        assert got.stopped == "nodes" and got.cards == len(exact.steps)
        assert len(got.steps) < len(exact.steps)
        assert got.steps == exact.steps[:len(got.steps)]     # the finished steps are exact
        if got.steps:
            assert got.final == exact.steps[len(got.steps) - 1].after
    assert seen_partial


def test_cli_replay_limit_says_partial_and_exits_5():
    code, data = run_json("replay", "examples/scharwenzel-played.toml", "--node-limit", "200")
    assert code == 5 and data["exact"] is False and data["cards_analysed"] < data["cards"]
    text = run("replay", "examples/scharwenzel-played.toml", "--node-limit", "200")
    assert text.exit_code == 5 and "PARTIAL ANSWER" in text.output


# --- batch -------------------------------------------------------------------------------------

def test_batch_limit_lines_are_partial_with_bounds(tmp_path):
    out = tmp_path / "r.jsonl"
    exact_out = tmp_path / "exact.jsonl"
    spec = "scharwenzel:6:3"
    result = run("batch", "--generate", spec, "--out", str(out), "--jobs", "1", "--node-limit", "6000")
    assert result.exit_code == 5, result.output
    assert "hit the limit" in result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert run("batch", "--generate", spec, "--out", str(exact_out), "--jobs", "1",
               "--quiet").exit_code == 0
    exact = {r["id"]: r["result"] for r in map(json.loads, exact_out.read_text().splitlines())}
    partial = [r for r in lines if r["result"]["exact"] is False]
    assert 0 < len(partial) < len(lines)
    for record in lines:
        if record["result"]["exact"]:
            assert record["result"]["totals"] == exact[record["id"]]["totals"]
            assert "limits" not in record
        else:
            assert record["limits"] == {"nodes": 6000, "seconds": None}
            assert _inside(record["result"]["bounds"], exact[record["id"]]["totals"])
    # resumed with the same limits: nothing to do; without them: the partial deals are solved
    again = run("batch", "--generate", spec, "--out", str(out), "--jobs", "1", "--node-limit", "6000")
    assert again.exit_code == 5 and "0 solved now" in again.output
    full = run("batch", "--generate", spec, "--out", str(out), "--jobs", "1")
    assert full.exit_code == 0, full.output
    assert f"{len(partial)} solved now" in full.output


# --- no limit hit: nothing changes ------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["analyze", "examples/schafkopf2-ending.toml"],
    ["analyze", "examples/elfern-ending.toml", "--all-seats", "--json"],
    ["puzzle", "examples/scharwenzel-ending.toml", "--goal", "tricks>=6", "--json"],
    ["puzzle", "examples/elfern-ending.toml", "--goal", "honours>=11", "--side", "2"],
    ["table", "examples/scharwenzel-deal.toml", "--json"],
    ["replay", "examples/scharwenzel-played.toml", "--json"],
])
def test_a_limit_not_hit_changes_nothing(args):
    plain = run(*args)
    # a node limit alone leaves the searches as they are (a time limit runs them in slices,
    # which may change the node counts, never the answers)
    limited = run(*args, "--node-limit", "1000000000")
    assert plain.exit_code == limited.exit_code and plain.exit_code in (0, 3, 4)
    assert plain.output == limited.output
    assert '"exact": false' not in plain.output and "PARTIAL" not in plain.output


@pytest.mark.parametrize("command", ["analyze", "puzzle", "table", "replay", "batch"])
def test_help_documents_the_limits_and_exit_5(command):
    text = run(command, "--help").output
    assert "--node-limit" in text and "--time-limit" in text and "5" in text


# --- Ctrl-C: exit 130 with what was finished ------------------------------------------------

def _interrupt_on_call(monkeypatch, module, name, at: int):
    """Make ``module.name`` raise KeyboardInterrupt (as Ctrl-C does) on its ``at``-th call."""
    real = getattr(module, name)
    calls = {"n": 0}

    def wrapped(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == at:
            raise KeyboardInterrupt
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, wrapped)


def test_ctrl_c_in_table_prints_the_cells_finished(monkeypatch):
    import stich.analysis.table as table_module
    _interrupt_on_call(monkeypatch, table_module, "solve", 3)
    out = run("table", "examples/schafkopf2-card17.toml", "--threads", "1")   # cells in order
    assert out.exit_code == 130
    assert "PARTIAL TABLE" in out.output and "2 of 4 cells exact" in out.output


def test_ctrl_c_in_replay_prints_the_cards_finished(monkeypatch):
    import stich.analysis.replay as replay_module
    exact = json.loads(run("replay", "examples/scharwenzel-played.toml", "--json").output)
    _interrupt_on_call(monkeypatch, replay_module, "_judge", 4)     # Ctrl-C at the 4th card
    out = run("replay", "examples/scharwenzel-played.toml", "--json")
    assert out.exit_code == 130
    data = json.loads(out.stdout)
    assert data["exact"] is False and data["stopped"] == "interrupt"
    assert data["cards_analysed"] == 3 < data["cards"]       # the cards before it are kept
    assert data["steps"] == exact["steps"][:3]
    _interrupt_on_call(monkeypatch, replay_module, "_judge", 4)
    text = run("replay", "examples/scharwenzel-played.toml")
    assert text.exit_code == 130 and "PARTIAL ANSWER" in text.output


def test_ctrl_c_in_puzzle_gives_what_is_proven(monkeypatch):
    import stich.analysis.puzzle as puzzle_module
    _interrupt_on_call(monkeypatch, puzzle_module.GoalSearch, "holds", 3)
    code, data = run_json("puzzle", "examples/scharwenzel-ending.toml", "--goal", "tricks>=6")
    assert code == 130 and data["exact"] is False and data["stopped"] == "interrupt"
    assert data["reachable"] is True                   # proven before the interrupt
    assert len(data["key_moves"]) + len(data["failing_moves"]) == 1
    assert data["main_line"] == []                     # nothing searched after Ctrl-C


def test_ctrl_c_in_analyze_all_seats_keeps_the_seats_finished(monkeypatch):
    import stich.analysis.analyze as analyze_module
    _interrupt_on_call(monkeypatch, analyze_module, "rows_of", 2)
    out = run("analyze", "examples/elfern-ending.toml", "--all-seats")
    assert out.exit_code == 130           # a Ctrl-C outside a search: nothing half-done is shown


def _cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far (Linux; 0 where /proc is missing)."""
    import os
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _interrupt_when_searching(args: list[str], cpu_seconds: float):
    """Run ``stich ARGS``, send SIGINT once it has used ``cpu_seconds`` of CPU (it is then
    searching: starting takes about 0.3 s), and return (returncode, stdout, stderr); None
    if it finished first."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path
    proc = subprocess.Popen([sys.executable, "-m", "stich.cli.main", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parent.parent)
    deadline = time.monotonic() + 120
    while proc.poll() is None and _cpu_seconds(proc.pid) < cpu_seconds and time.monotonic() < deadline:
        time.sleep(0.05)
    if proc.poll() is not None:
        proc.communicate()
        return None
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return None if proc.returncode == 0 else (proc.returncode, out, err)


def test_sigint_stops_a_long_solve_with_the_bounds_proven(tmp_path):
    """Ctrl-C once the solve shows that it is searching (its progress line on the terminal,
    drawn after a second of search: on a busy machine the start-up may take seconds)."""
    import re
    import signal

    from clirun import read_terminal_to_end, read_terminal_until, start_on_a_terminal

    from stich.deals.dealing import random_deal
    from stich.search.solve import solve
    deal = random_deal("elfern", 7, players=2)          # about 4 s of CPU with a 1 MB table
    path = tmp_path / "deal.toml"
    path.write_text(deal.dump())
    proc, terminal = start_on_a_terminal("solve", path, "--tt-mb", "1", "--objective", "total")
    try:
        read_terminal_until(terminal, "searching")
    except AssertionError:
        proc.kill()
        proc.communicate()
        if proc.returncode == 0:
            pytest.skip("the solve was finished before it drew its progress")
        raise
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    err = read_terminal_to_end(terminal)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert "PARTIAL ANSWER" in out and "interrupted" in out, out
    line = next(row for row in out.splitlines() if row.startswith("Double-dummy totals between"))
    bounds = [(int(low), int(high)) for low, high in re.findall(r"seat \d+: (\d+)–(\d+)", line)]
    exact = solve(deal, objective="total", with_moves=False)
    assert len(bounds) == len(exact.totals) and _inside(bounds, exact.totals), (line, exact.totals)


@pytest.mark.slow          # the same path as test_ctrl_c_in_table_prints_the_cells_finished, for real
@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/stat"), reason="needs /proc")
def test_sigint_stops_a_long_table_with_the_cells_finished(tmp_path):
    from stich.deals.dealing import random_deal
    path = tmp_path / "deal.toml"
    # about 3.7 s of CPU with a 1 MB table and one thread
    path.write_text(random_deal("schafkopf2", 3, players=2, rules={"mariage": True}).dump())
    ran = _interrupt_when_searching(["table", str(path), "--json", "--tt-mb", "1", "--threads", "1"], 1.5)
    if ran is None:
        pytest.skip("the table was finished before the interrupt")
    code, out, err = ran
    assert code == 130, err
    data = json.loads(out)
    assert data["exact"] is False and data["stopped"] == "interrupt"
    assert len(data["cells"]) <= data["cells_planned"]


# --- tactic ------------------------------------------------------------------------------------

def test_tactic_decisions_past_the_limit_are_counted_apart():
    args = ["tactic", "elfern.*", "--game", "elfern", "--deals", "2", "--seed", "1", "--jobs", "1",
            "--quiet", "--json"]
    exact = run(*args)
    assert exact.exit_code == 0, exact.output
    exact_rows = {row["tactic"]: row for row in json.loads(exact.output)["tactics"]}
    assert not any(any(row["not_exact"].values()) for row in exact_rows.values())
    limited = run(*args, "--node-limit", "3000")
    assert limited.exit_code == 5, limited.output
    summary = json.loads(limited.output)
    rows = {row["tactic"]: row for row in summary["tactics"]}
    assert any(any(row["not_exact"].values()) for row in rows.values())
    for name, row in rows.items():
        left_out, every, full = row["not_exact"], row["oneoff"][1], exact_rows[name]["oneoff"][1]
        # every decision and run is either scored exactly or counted apart (none lost or invented)
        assert every["decisions"] <= full["decisions"]
        assert row["policy"]["runs"] <= exact_rows[name]["policy"]["runs"]
        if left_out["deals"] == 0:
            assert every["decisions"] + left_out["decisions"] == full["decisions"]
    text = run(*[a for a in args if a != "--json"], "--node-limit", "3000")
    assert text.exit_code == 5 and "NOT EXACT" in text.output


def test_study_deal_within_a_limit_keeps_exact_decisions():
    from stich.search.solve import new_engine
    from stich.study.walk import WalkSettings, walk_deal
    from stich.tactics import builtin

    engine = new_engine(16)
    checked = partial = 0
    for mode in ("elfern", "schafkopf2-schellen"):
        tactics = builtin(MODES[mode]["game"])
        for seed in range(10):
            deal = loads(generate(mode, seed, "large"))
            exact = walk_deal(deal, tactics, WalkSettings("score"), engine)
            for budget in (20, 300, 3_000):
                got = walk_deal(deal, tactics, WalkSettings("score", limits=Limits(nodes=budget)), engine)
                if not got.exact:
                    assert got.decisions == [] and got.runs == [] and got.totals is None
                    partial += 1
                    continue
                assert got.line == exact.line and got.totals == exact.totals
                assert [d.ply for d in got.decisions] == [d.ply for d in exact.decisions]
                for mine, right in zip(got.decisions, exact.decisions):
                    if not mine.exact:
                        assert mine.cards == []
                        partial += 1
                    else:
                        assert mine == right
                        checked += 1
                for mine, right in zip(got.runs, exact.runs):
                    assert (mine.tactic, mine.seat, mine.policy) == (right.tactic, right.seat, right.policy)
                    if mine.result is not None:
                        assert mine == right
                        checked += 1
                    else:
                        partial += 1
    assert checked > 0 and partial > 0


# --- suggest -----------------------------------------------------------------------------------

def test_suggest_leaves_out_the_layouts_past_the_limit():
    from stich.view import every_layout, read_view
    from stich.view.suggest import score_layout

    info = read_view("examples/hidden/schafkopf2-hidden.toml", None, {})
    texts = [info.fill(layout).dump() for layout in every_layout(info)]
    left_out = 0
    for text in texts:
        exact = score_layout(text, info.seat, "score", 4)
        for budget in (50, 100):
            got = score_layout(text, info.seat, "score", 4, Limits(nodes=budget))
            assert got is None or got == exact     # a layout is exact or left out, never guessed
            left_out += got is None
    assert left_out > 0
    code, data = run_json("suggest", "examples/hidden/schafkopf2-hidden.toml", "--exact",
                          "--jobs", "1", "--node-limit", "100")
    assert code == 5 and data["exact"] is False
    assert 0 < data["layouts_left_out"] < len(texts)
    assert data["layouts"] + data["layouts_left_out"] == len(texts)
    plain_code, plain = run_json("suggest", "examples/hidden/schafkopf2-hidden.toml", "--exact", "--jobs", "1")
    assert plain_code == 0 and "exact" not in plain
    nothing = run("suggest", "examples/hidden/schafkopf2-hidden.toml", "--exact", "--jobs", "1",
                  "--node-limit", "1")
    assert nothing.exit_code == 5 and "no advice" in nothing.output


@pytest.mark.parametrize("command", ["tactic", "suggest"])
def test_help_of_the_player_commands_documents_the_limits(command):
    text = run(command, "--help").output
    assert "--node-limit" in text and "--time-limit" in text and "5" in text


def test_replay_player_view_leaves_out_the_layouts_over_the_limit():
    """`replay --view player` applies the limits to each hidden layout: with room for none,
    no card is judged and every layout is counted as left out; with room for all, the
    judgements are those of no limit at all."""
    from stich.report.suggest import judgement_json
    from stich.view.suggest import judge_play
    deal = load("examples/scharwenzel-played.toml")
    free = judge_play(deal, samples=3, seed=1, jobs=1)
    none = judge_play(deal, samples=3, seed=1, jobs=1, limits=Limits(nodes=1))
    ample = judge_play(deal, samples=3, seed=1, jobs=1, limits=Limits(nodes=10**12))
    assert judgement_json(ample) == judgement_json(free)
    assert all(j.left_out == 0 for j in free)
    assert len(none) == len(free)
    for cut, full in zip(none, free):
        assert not cut.judged and not cut.exact and cut.left_out == full.layouts
    assert all(r["judged"] is False and r["expected"] is None for r in judgement_json(none))
    from stich.report.suggest import judgement_report
    text = judgement_report(replay(deal).steps, none)
    assert text.count("not judged") == len(none) and "nan" not in text


ROOT = Path(__file__).resolve().parent.parent


def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("command,target,args", [
    ("solve", "stich.cli.solve.solve_deal", ["examples/elfern-ending.toml"]),
    ("analyze", "stich.cli.analyze.analyze", ["examples/elfern-ending.toml"]),
    ("puzzle", "stich.cli.puzzle.solve_puzzle", ["examples/elfern-ending.toml", "--goal", "win"]),
    ("table", "stich.cli.table.dd_table", ["examples/scharwenzel-deal.toml"]),
    ("replay", "stich.cli.replay.replay", ["examples/scharwenzel-played.toml"]),
    ("deal", "stich.cli.deal.generate_deals", ["--game", "elfern"]),
    ("bench", "stich.cli.bench.run", ["--quick"]),
    ("batch", "stich.analysis.batch.solve_item", ["examples/elfern-ending.toml", "--jobs", "1"]),
])
def test_ctrl_c_exits_130_in_every_command(monkeypatch, tmp_path, command, target, args):
    module, name = target.rsplit(".", 1)
    monkeypatch.setattr(sys.modules[module] if module in sys.modules else __import__(module, fromlist=[name]),
                        name, _interrupt)
    args = [str(ROOT / a) if a.startswith("examples/") else a for a in args]
    if command == "batch":
        args += ["--out", str(tmp_path / "r.jsonl")]
    result = cli_run(command, *args)
    assert result.exit_code == 130, (result.exit_code, result.output)
    assert "interrupted" in result.stderr and "Traceback" not in result.output


def test_a_real_ctrl_c_keeps_the_deals_already_written(tmp_path):
    out = tmp_path / "deals"
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                             "from stich.cli.main import main; main(sys.argv[2:], prog_name='stich')", str(ROOT),
                             "deal", "--game", "elfern", "-n", "100000", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(out.glob("*.toml"))) < 3:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "kept" in err and "Traceback" not in err
    written = sorted(out.glob("*.toml"))
    assert len(written) >= 3
    for path in written:
        load(path)          # every file written is whole

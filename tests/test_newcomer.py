"""What a newcomer and a fuzzer found in the commands' edges: each a one-line error with exit 2
where the input is the problem, and standard input taking what a file takes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from clirun import run

ROOT = Path(__file__).resolve().parent.parent
HIDDEN = ROOT / "examples" / "hidden" / "schafkopf2-hidden.toml"


def without(modules: list[str], *args: str) -> subprocess.CompletedProcess:
    """``stich ARGS`` in a fresh Python where ``modules`` cannot be imported."""
    code = ("import sys\nfor name in sys.argv[2].split(','):\n    sys.modules[name] = None\n"
            "sys.path.insert(0, sys.argv[1])\nfrom stich.cli.main import main\n"
            "main(sys.argv[3:], prog_name='stich')")
    return subprocess.run([sys.executable, "-c", code, str(ROOT), ",".join(modules), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_suggest_reads_a_hidden_deal_on_standard_input():
    text = HIDDEN.read_text(encoding="utf-8")
    piped = run("suggest", "-", "--json", "--jobs", "1", input=text)
    assert piped.exit_code == 0, piped.output
    named = run("suggest", HIDDEN, "--json", "--jobs", "1")
    drop = ("seconds", "source")
    assert ({k: v for k, v in json.loads(piped.stdout).items() if k not in drop}
            == {k: v for k, v in json.loads(named.stdout).items() if k not in drop})


def test_suggest_dask_without_dask_is_bad_input():
    done = without(["distributed", "dask"], "suggest", str(HIDDEN), "--dask", "tcp://127.0.0.1:1")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("stich: --dask needs Dask: pip install")


def test_explore_without_its_extra_says_the_readme_s_install_line():
    done = without(["starlette", "uvicorn"], "explore", str(ROOT / "examples" / "elfern-ending.toml"),
                   "--no-browser")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert 'pip install ".[explore]"' in done.stderr and "starlette" in done.stderr
    assert 'pip install ".[explore]"' in (ROOT / "README.md").read_text(encoding="utf-8")


def folder_with_special_files(tmp_path: Path) -> Path:
    """A folder of one deal file and *.toml entries that are no files: a pipe, a link to
    /dev/zero, a link in a loop, a folder."""
    import os
    folder = tmp_path / "deals"
    folder.mkdir()
    (folder / "a.toml").write_text((ROOT / "examples" / "elfern-ending.toml").read_text(encoding="utf-8"),
                                   encoding="utf-8")
    os.mkfifo(folder / "fifo.toml")
    (folder / "zero.toml").symlink_to("/dev/zero")
    (folder / "loop.toml").symlink_to("loop.toml")
    (folder / "dir.toml").mkdir()
    return folder


def test_batch_of_a_folder_names_each_entry_it_cannot_read(tmp_path):
    folder = folder_with_special_files(tmp_path)
    result = run("batch", folder, "--out", tmp_path / "out.jsonl", "--jobs", "1")
    assert result.exit_code == 2, result.output
    for name in ("fifo.toml", "zero.toml", "loop.toml", "dir.toml"):
        assert name in result.stderr, (name, result.stderr)
    assert "Traceback" not in result.stderr


def test_tactic_from_a_folder_stops_at_an_entry_it_cannot_read(tmp_path):
    folder = folder_with_special_files(tmp_path)
    result = run("tactic", "elfern.*", "--from", folder, "--jobs", "1", "--quiet")
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.output
    assert "not a regular file" in result.stderr


def dies_once(folder: str, key: int, always: int | None = None) -> int:
    """Work for a pool: the worker of each key dies the first time (as if the OOM killer took
    it), and always for ``always``; else the answer is key * 10."""
    import os
    marker = Path(folder) / f"{key}.tried"
    if key == always or not marker.exists():
        marker.touch()
        os._exit(9)
    return key * 10


def test_a_worker_that_dies_is_replaced_and_the_rest_kept(tmp_path):
    from stich.run.pool import WorkerDied, run_everywhere
    calls = [(key, (str(tmp_path), key)) for key in range(6)]
    answers = dict(run_everywhere(dies_once, calls, jobs=2, dask_address=None, tt_megabytes=1))
    assert answers == {key: key * 10 for key in range(6)}
    for always in (3, 0):      # a call that kills every worker it runs on, in the middle and first
        calls = [(key, (str(tmp_path), key, always)) for key in range(6)]
        answers = dict(run_everywhere(dies_once, calls, jobs=2, dask_address=None, tt_megabytes=1))
        assert isinstance(answers.pop(always), WorkerDied)
        assert answers == {key: key * 10 for key in range(6) if key != always}


def test_tactic_output_paths_are_checked_before_the_study(tmp_path):
    (tmp_path / "file").write_text("x", encoding="utf-8")
    for option, path in (("--examples", tmp_path / "file" / "sub"), ("--counterexamples", tmp_path / "file"),
                         ("--plot", tmp_path / "no" / "such" / "plot.png"), ("--plot", tmp_path)):
        out = tmp_path / "study.jsonl"
        result = run("tactic", "elfern.*", "--game", "elfern", "--deals", "2", "--jobs", "1", "--quiet",
                     "--out", out, option, path)
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, (option, result.output)
        assert result.stderr.startswith("stich: ") and option in result.stderr, result.stderr
        assert not out.exists(), "the study ran before the output path was checked"


def test_an_unknown_tactic_is_one_short_line_with_close_names():
    result = run("tactic", "elfern.take_honor", "--game", "elfern", "--deals", "1")
    assert result.exit_code == 2 and len(result.stderr) < 160, result.stderr
    assert "elfern.take_honour" in result.stderr and "stich tactic --list" in result.stderr
    far = run("tactic", "x" * 3000, "--game", "elfern", "--deals", "1")
    assert far.exit_code == 2 and len(far.stderr) < 160, far.stderr


NAN_FEATURE = '''
from stich.tactics import tactic

@tactic("first_card")
def first_card(view):
    """Play the first legal card."""
    return view.legal[0]

FEATURES = {"nothing": lambda view: float("nan")}
TACTICS = {"first_card": first_card}
'''


def test_a_feature_that_is_nan_is_one_group_not_one_per_decision(tmp_path):
    path = tmp_path / "nan_feature.py"
    path.write_text(NAN_FEATURE, encoding="utf-8")
    result = run("tactic", "first_card", "--tactic-file", path, "--game", "scharwenzel", "--deals", "3",
                 "--seed", "1", "--jobs", "1", "--quiet", "--json", "--by", "nothing")
    assert result.exit_code == 0, result.output
    groups = json.loads(result.stdout)["tactics"][0]["by"]["groups"]
    assert len(groups) == 1 and groups[0]["value"] is None, groups


def test_table_says_when_its_rows_use_other_rules_than_the_file():
    deal = ROOT / "examples" / "schafkopf2-deal.toml"
    assert "trump_mode" not in deal.read_text(encoding="utf-8") or "schellen" in deal.read_text(encoding="utf-8")
    result = run("table", deal)
    assert result.exit_code == 0, result.output
    assert "trump_mode = card17, not the file's trump_mode = schellen" in result.stdout
    data = json.loads(run("table", deal, "--json").stdout)
    assert data["rules_used"] == {"trump_mode": "card17"}
    same = run("table", ROOT / "examples" / "schafkopf2-card17.toml")
    assert "not the file's" not in same.stdout


def test_a_french_card_in_a_german_game_names_the_cards_key():
    from stich import DealError, loads
    text = (ROOT / "examples" / "officers_skat-deal.toml").read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if line.startswith("1 = "))
    bad = text.replace(first, '1 = "CQ/' + first.split('"')[1].split("/", 1)[1] + '"', 1)
    try:
        loads(bad, "deal.toml")
    except DealError as exc:
        assert 'cards = "french"' in str(exc) and "deal.toml" in str(exc), exc
    else:
        raise AssertionError("a French card was read in a German game")
    doc = (ROOT / "docs" / "deal-format.md").read_text(encoding="utf-8")
    from stich import GAMES
    from stich.games.rulefile import RULES_DIR
    built_in = {name for name, game in GAMES.items()          # not the rule files other tests loaded
                if game.rule_file is None or Path(game.rule_file).resolve().parent == RULES_DIR.resolve()}
    german = sorted(name for name in built_in if GAMES[name].default_notation == "german")
    row = next(line for line in doc.splitlines() if line.startswith("| `cards` |"))
    assert all(name in row for name in german if name != "schafkopf2") and "schafkopf2" in row


def test_p_dd_best_tells_the_cards_apart_under_the_default_objective():
    """Every card of this deal wins on every layout (the same rung), so "optimal for the score"
    is every card; P(dd best) follows the advice's order, the rung and then the total."""
    data = json.loads(run("suggest", HIDDEN, "--json", "--jobs", "1").stdout)
    shares = {card["card"]: card["p_best"] for card in data["cards"]}
    assert len(set(shares.values())) > 1, shares
    assert max(shares.values()) <= 1 and sum(shares.values()) >= 1 - 1e-9


def test_ctrl_c_stops_a_study_in_this_process_without_out():
    import signal
    import time

    from clirun import read_terminal_to_end, read_terminal_until, start_on_a_terminal
    proc, terminal = start_on_a_terminal("tactic", "elfern.*", "--game", "elfern", "--deals", "30",
                                         "--jobs", "1", stdout=subprocess.DEVNULL)
    try:
        read_terminal_until(terminal, "tactic:")
        time.sleep(1)
        pressed = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = read_terminal_to_end(terminal)
    assert proc.returncode == 130 and "Traceback" not in err, (proc.returncode, err[-500:])
    assert time.monotonic() - pressed < 30


def test_ctrl_c_in_the_player_s_view_of_a_replay_prints_the_replay(monkeypatch):
    import stich.view.suggest as module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(module, "judge_play", interrupted)
    result = run("replay", ROOT / "examples" / "scharwenzel-played.toml", "--view", "player", "--samples", "2")
    assert result.exit_code == 130, result.output
    assert "trick" in result.stdout and len(result.stdout.splitlines()) > 5
    assert result.stderr.count("\n") == 1 and "replay above is complete" in result.stderr


def sleepy(seconds: float) -> float:
    import time
    time.sleep(seconds)
    return seconds


def test_a_pool_stopped_early_leaves_no_thread_to_race_the_exit():
    """Stopping a pool at once (Ctrl-C, or a caller that stops reading) waits for the pool's own
    thread: Python 3.11's exit would otherwise write to a pipe that thread is closing, and print
    "Exception ignored" after the one line of a Ctrl-C."""
    from stich.run import pool
    with pool.kept_pool():
        assert dict(pool.run_everywhere(sleepy, [(0, (0.0,)), (1, (0.0,))], jobs=2, dask_address=None,
                                        tt_megabytes=1)) == {0: 0.0, 1: 0.0}
        (executor,) = pool._kept.pools.values()         # kept for the next round
        manager = executor._executor_manager_thread
        second = pool.run_everywhere(sleepy, [(k, (0.0 if k == 0 else 60.0,)) for k in range(3)],
                                     jobs=2, dask_address=None, tt_megabytes=1)
        assert next(second) == (0, 0.0)
        second.close()                                  # stopped in the middle of the second round
    assert not pool._running
    assert manager is not None and not manager.is_alive()


def test_pools_stopped_from_another_thread_start_no_new_workers():
    """The explorer's Ctrl-C stops every pool from the main thread while a job runs on one in a
    thread: the job must not take its stopped pool for dead workers and start new ones (a worker
    spawned as the process exits finds its parent gone and prints an error)."""
    import multiprocessing
    import threading
    import time

    from stich.run import pool
    outcome: list[object] = []

    def job() -> None:
        try:
            outcome.extend(pool.run_everywhere(time.sleep, [(k, (60,)) for k in range(4)], jobs=2,
                                               dask_address=None, tt_megabytes=1))
        except pool.PoolsStopped as exc:
            outcome.append(exc)

    thread = threading.Thread(target=job, daemon=True)
    thread.start()
    for _ in range(300):
        if pool._running and len(multiprocessing.active_children()) == 2:
            break
        time.sleep(0.05)
    time.sleep(0.5)                                     # the workers are sleeping
    pool.stop_every_pool()
    thread.join(timeout=20)
    assert not thread.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], pool.PoolsStopped), outcome
    assert multiprocessing.active_children() == []
    # work begun after the stop runs as usual (the explorer's next session, another command)
    assert dict(pool.run_everywhere(sleepy, [(0, (0.0,)), (1, (0.0,))], jobs=2, dask_address=None,
                                    tt_megabytes=1)) == {0: 0.0, 1: 0.0}

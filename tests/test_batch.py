"""`stich batch`: many deals on all cores or a Dask cluster, one JSON line each, resumable.

Every result is compared with solving the deal alone (``stich.solve`` with a fresh engine);
the kill-and-resume tests kill a real batch process (SIGKILL, the whole process group) at a
seeded random moment, tear its last line as a kill in the middle of a write would, resume,
and demand exactly one correct line per deal.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from clirun import one_line_error
from clirun import run as cli_run

from stich.analysis.batch import collect_items, run_batch
from stich.cli.batch import batch_command
from stich.cli.deal import deal_command
from stich.deals.deal import loads
from stich.deals.dealing import generate_deals
from stich.report.solve import solve_json
from stich.search.solve import solve

ROOT = Path(__file__).resolve().parent.parent
BATCH = [sys.executable, "-c", "from stich.cli.batch import batch_command; batch_command()"]
SAME = ("totals", "outcome", "line", "line_totals", "moves", "tricks", "to_move", "already_won")


def run(*args: str):
    return CliRunner().invoke(batch_command, list(args), catch_exceptions=False)


def lines_of(path: Path) -> list[dict]:
    """Every line of a results file, which must all be complete and valid."""
    data = path.read_bytes()
    assert data.endswith(b"\n")
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def assert_equal_to_solving_alone(records: list[dict], with_moves: bool = True) -> None:
    for record in records:
        deal = loads(record["deal"])
        alone = solve_json(solve(deal, objective=record["objective"], with_moves=with_moves))
        for key in SAME:
            assert record["result"][key] == alone[key], (record["id"], key)


def assert_exactly(records: list[dict], ids: list[str]) -> None:
    assert sorted(r["id"] for r in records) == sorted(ids)      # no loss, no duplicate


# --- what a batch writes ---------------------------------------------------------------------------

def test_batch_results_equal_solving_each_deal_alone(tmp_path):
    deals = tmp_path / "deals"
    made = CliRunner().invoke(deal_command, ["--game", "schafkopf2", "--seed", "4", "-n", "2",
                                             "--out", str(deals)])
    assert made.exit_code == 0, made.stderr
    out = tmp_path / "r.jsonl"
    result = run(str(deals), "--generate", "scharwenzel:10:3", "--generate", "scharwenzel6:3:1",
                 "--generate", "elfern:1:2", "--out", str(out), "--jobs", "2")
    assert result.exit_code == 0, result.stderr
    records = lines_of(out)
    ids = ([f"schafkopf2-4-{k:04d}" for k in (1, 2)] + [f"scharwenzel-3-{k:04d}" for k in range(1, 11)]
           + [f"scharwenzel6-1-{k:04d}" for k in (1, 2, 3)] + ["elfern-2-0001"])
    assert_exactly(records, ids)
    for record in records:
        assert set(record) >= {"id", "file", "game", "label", "sha256", "objective", "deal", "result"}
        if record["file"]:
            assert Path(record["file"]).read_text(encoding="utf-8") == record["deal"]
    # a generated deal is the deal `stich deal` writes, so a directory of them gives the same ids
    generated = {d.id: d.deal.dump() for d in generate_deals("scharwenzel", 3, 10)}
    assert all(r["deal"] == generated[r["id"]] for r in records if r["id"] in generated)
    assert_equal_to_solving_alone(records)
    # the summary table: every game, its outcomes and the distribution of totals
    for word in ("scharwenzel6", "elfern", "schafkopf2", "outcome", "total of side 1", "16 deals"):
        assert word in result.stdout


def test_rules_and_objective_reach_every_deal(tmp_path):
    out = tmp_path / "r.jsonl"
    result = run("--generate", "scharwenzel:4:9", "--generate", "elfern:1", "--out", str(out), "--jobs", "1",
                 "--rule", "must_trump=true", "--objective", "total", "--no-moves", "--quiet")
    assert result.exit_code == 0, result.stderr
    records = lines_of(out)
    for record in records:
        deal = loads(record["deal"])
        assert record["objective"] == "total" and record["with_moves"] is False
        assert record["result"]["moves"] == []
        if deal.game == "scharwenzel":
            assert deal.options["must_trump"] is True
    assert_equal_to_solving_alone(records, with_moves=False)


def test_a_deal_that_fails_is_reported_with_an_error_line_and_retried(tmp_path, monkeypatch):
    import stich.analysis.batch as batch

    real = batch.solve_item

    def flaky(item_id, *args):
        if item_id == "scharwenzel-6-0002":
            raise RuntimeError("engine on fire")
        return real(item_id, *args)

    monkeypatch.setattr(batch, "solve_item", flaky)          # --jobs 1 solves in this process
    out = tmp_path / "r.jsonl"
    args = ["--generate", "scharwenzel:3:6", "--out", str(out), "--jobs", "1"]
    result = run(*args)
    assert result.exit_code == 1
    assert "scharwenzel-6-0002: not solved: RuntimeError: engine on fire" in result.stderr
    lines = lines_of(out)
    assert_exactly([line for line in lines if "result" in line], ["scharwenzel-6-0001", "scharwenzel-6-0003"])
    errors = [line for line in lines if "error" in line]         # the file says why
    assert [e["id"] for e in errors] == ["scharwenzel-6-0002"] and "engine on fire" in errors[0]["error"]
    monkeypatch.setattr(batch, "solve_item", real)
    result = run(*args)
    assert result.exit_code == 0 and "2 already in" in result.stdout and "dropped" not in result.stderr
    assert_exactly(lines_of(out), [f"scharwenzel-6-{k:04d}" for k in (1, 2, 3)])
    assert all("result" in line for line in lines_of(out))


# --- resume ----------------------------------------------------------------------------------------

def test_resume_keeps_valid_lines_and_drops_everything_else(tmp_path):
    out = tmp_path / "r.jsonl"
    items = collect_items([], ["scharwenzel:8:2"])
    run_batch(items[:5], out, encode=solve_json, jobs=1)
    good = out.read_bytes().splitlines(keepends=True)
    assert len(good) == 5
    foreign = json.loads(good[0])
    foreign["id"] = "not-in-this-batch"
    changed = json.loads(good[1])
    changed["sha256"] = "0" * 64                         # the deal file changed since
    text = (good[0] + good[2] + b"{\"id\": \"broken\n" + json.dumps(foreign).encode() + b"\n" + good[2]
            + json.dumps(changed).encode() + b"\n" + good[3] + good[4][:40])   # torn last line
    out.write_bytes(text)
    run_ = run_batch(items, out, encode=solve_json, jobs=1)
    assert run_.resumed == 3 and run_.solved == 5          # lines 0, 2 and 3 kept
    assert run_.recovery.torn == 40 and run_.recovery.invalid == 1
    assert run_.recovery.stale == 2 and run_.recovery.duplicate == 1
    records = lines_of(out)
    assert_exactly(records, [i.id for i in items])
    dropped = (tmp_path / "r.jsonl.dropped").read_text(encoding="utf-8")
    assert "not-in-this-batch" in dropped and "broken" in dropped
    assert_equal_to_solving_alone(records)
    # nothing left to do: the file stays as it is
    before = out.read_bytes()
    again = run("--generate", "scharwenzel:8:2", "--out", str(out))
    assert again.exit_code == 0 and "8 already in" in again.stdout
    assert out.read_bytes() == before


def test_torn_last_line_alone_is_cut_in_place(tmp_path):
    out = tmp_path / "r.jsonl"
    items = collect_items([], ["scharwenzel:3:1"])
    run_batch(items[:2], out, encode=solve_json, jobs=1)
    data = out.read_bytes()
    out.write_bytes(data[:-25])
    inode = out.stat().st_ino
    run_ = run_batch(items, out, encode=solve_json, jobs=1)
    assert run_.resumed == 1 and run_.solved == 2
    assert out.stat().st_ino == inode                         # truncated, not replaced
    assert_exactly(lines_of(out), [i.id for i in items])
    assert not (tmp_path / "r.jsonl.dropped").exists()


def kill_and_tear(proc: subprocess.Popen, out: Path, lines_wanted: int, rng: random.Random,
                  tear: bool) -> bool:
    """Wait until ``out`` has ``lines_wanted`` lines, SIGKILL the batch's process group, and
    maybe cut its last line short.  True if the batch was still running when killed."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= lines_wanted:
            break
        time.sleep(0.005)
    running = proc.poll() is None
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    if tear and out.exists():
        data = out.read_bytes()
        start = data.rstrip(b"\n").rfind(b"\n") + 1          # where the last line starts
        if start < len(data) - 1:
            out.write_bytes(data[:rng.randrange(start + 1, len(data) - 1)])
    return running


def batch_process(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen(BATCH + args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def kill_resume(tmp_path: Path, spec: str, count: int, seed: int, kills: int) -> list[dict]:
    rng = random.Random(seed)
    out = tmp_path / "results.jsonl"
    args = ["--generate", spec, "--out", str(out), "--jobs", "2", "--quiet"]
    for k in range(kills):
        already = out.read_bytes().count(b"\n") if out.exists() else 0
        wanted = rng.randrange(already + 1, already + max(2, (count - already) // 2))
        proc = batch_process(args)
        assert kill_and_tear(proc, out, wanted, rng, tear=(k == 0 or rng.random() < 0.5)), \
            "the batch finished before it could be killed"
        assert proc.returncode == -signal.SIGKILL
    finished = subprocess.run(BATCH + args, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr
    records = lines_of(out)
    assert_exactly(records, [f"{spec.split(':')[0]}-{spec.split(':')[2]}-{k:04d}" for k in range(1, count + 1)])
    generated = {d.id: d.deal.dump() for d in generate_deals(spec.split(":")[0], int(spec.split(":")[2]), count)}
    for record in records:
        assert record["deal"] == generated[record["id"]]
    assert_equal_to_solving_alone(records)
    return records


def test_killed_batch_resumes_to_exactly_one_line_per_deal(tmp_path):
    kill_resume(tmp_path, "scharwenzel:60:5", 60, seed=2024, kills=1)


@pytest.mark.slow
def test_thousand_deals_killed_at_random_and_resumed(tmp_path):
    kill_resume(tmp_path, "scharwenzel:1000:11", 1000, seed=1000, kills=3)


# --- Dask -----------------------------------------------------------------------------------------------

def test_dask_local_cluster_gives_identical_results(tmp_path):
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    spec = ["--generate", "scharwenzel:12:8", "--generate", "scharwenzel8:4:1"]
    local = tmp_path / "local.jsonl"
    assert run(*spec, "--out", str(local), "--jobs", "2", "--quiet").exit_code == 0
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster:
        dask_out = tmp_path / "dask.jsonl"
        result = run(*spec, "--out", str(dask_out), "--dask", cluster.scheduler_address, "--quiet")
        assert result.exit_code == 0, result.stderr
    by_id = {r["id"]: r for r in lines_of(local)}
    dask_records = lines_of(dask_out)
    assert_exactly(dask_records, list(by_id))
    for record in dask_records:
        other = by_id[record["id"]]
        assert record["deal"] == other["deal"] and record["sha256"] == other["sha256"]
        for key in SAME + ("nodes",):
            assert record["result"][key] == other["result"][key], (record["id"], key)


def test_dask_missing_is_a_clear_input_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)      # import distributed -> ImportError
    result = run("--generate", "scharwenzel:2", "--out", str(tmp_path / "r.jsonl"), "--dask", "tcp://x:1")
    assert result.exit_code == 2
    assert "pip install" in result.stderr and "Traceback" not in result.stderr


# --- bad input ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    (["--generate", "poker:3"], "unknown game"),
    (["--generate", "scharwenzel:x"], "whole numbers"),
    (["--generate", "scharwenzel5:3"], "not 5"),
    (["--generate", "scharwenzel"], "GAME:N"),
    (["--generate", "scharwenzel:0"], "1 or more"),
    ([], "no deals"),
    (["--generate", "scharwenzel:2", "--rule", "must_head=true"], "no game of this batch"),
    (["--generate", "elfern:1", "--rule", "must_head=maybe"], "must_head"),
    (["nowhere/"], "no such file"),
])
def test_bad_input_exits_2(tmp_path, args, words):
    result = run(*args, "--out", str(tmp_path / "r.jsonl"))
    assert result.exit_code == 2, result.stdout
    assert words in result.stderr and "Traceback" not in result.stderr


def test_bad_deal_files_and_duplicate_ids_exit_2(tmp_path):
    (tmp_path / "empty").mkdir()
    result = run(str(tmp_path / "empty"), "--out", str(tmp_path / "r.jsonl"))
    assert result.exit_code == 2 and "no .toml" in result.stderr
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "x.toml").write_text("game = \"poker\"\n", encoding="utf-8")
    result = run(str(bad), "--out", str(tmp_path / "r.jsonl"))
    assert result.exit_code == 2 and "x.toml" in result.stderr and "unknown game" in result.stderr
    example = str(ROOT / "examples" / "elfern-ending.toml")
    result = run(example, example, "--out", str(tmp_path / "r.jsonl"))
    assert result.exit_code == 2 and "two deals have the id 'elfern-ending'" in result.stderr


def test_a_bad_rule_value_for_deal_files_names_the_value(tmp_path):
    """A --rule value the file's game refuses stops the batch with the reader's words (the
    option and the value), not as if no game of the batch had that option."""
    example = str(ROOT / "examples" / "scharwenzel-deal.toml")
    result = run(example, "--rule", "must_trump=maybe", "--out", str(tmp_path / "r.jsonl"))
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert "--rule must_trump" in result.stderr and "'maybe'" in result.stderr
    assert "no game of this batch" not in result.stderr


def test_an_unreadable_file_with_a_rule_is_reported_and_skipped(tmp_path):
    """With --rule, as without: a file that cannot be read is an error line of the results,
    and the rule names are checked only against the deals that were read."""
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "x.toml").write_text("game = \"poker\"\n", encoding="utf-8")
    out = tmp_path / "r.jsonl"
    result = run(str(bad), "--rule", "must_trump=true", "--out", str(out))
    assert "no game of this batch" not in result.stderr and "Traceback" not in result.stderr
    assert "x.toml" in result.stderr and "unknown game" in result.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [row["id"] for row in rows] == ["x"] and "unknown game" in rows[0]["error"]


def test_a_second_writer_is_refused(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    out = tmp_path / "r.jsonl"
    with open(out, "ab") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        result = run("--generate", "scharwenzel:1", "--out", str(out))
    assert result.exit_code == 2 and "another stich batch" in result.stderr


EXAMPLES = ROOT / "examples"


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


ENDING = EXAMPLES / "elfern-ending.toml"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_batch_out_dev_full_is_refused_quickly():
    started = time.monotonic()
    one_line_error(cli_run("batch", EXAMPLES / "elfern-ending.toml", "--out", "/dev/full", "--jobs", "1"),
                   "/dev/full")
    assert time.monotonic() - started < 10


def test_batch_generate_count_is_bounded():
    one_line_error(cli_run("batch", "--generate", "elfern:99999999999999999999", "--out", "x.jsonl"),
                   "--generate", "at most")


def test_one_bad_file_does_not_stop_a_batch(tmp_path):
    deals = tmp_path / "deals"
    deals.mkdir()
    for name in ("elfern-ending.toml", "scharwenzel-ending.toml"):
        (deals / name).write_bytes((EXAMPLES / name).read_bytes())
    (deals / "broken.toml").write_text('game = "elfern"\n[hands]\n1 = "♠A ♠A"\n2 = "♠K ♠Q"\n')
    out = tmp_path / "r.jsonl"
    result = cli_run("batch", deals, "--out", out, "--jobs", "1")
    assert result.exit_code == 2
    assert "broken.toml" in result.stderr and "duplicate" in result.stderr
    assert "2 solved now" in result.stdout and "1 unreadable" in result.stdout
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len([line for line in lines if "result" in line]) == 2
    assert [line["id"] for line in lines if "error" in line] == ["broken"]      # it says why


def test_batch_dropped_lines_message_and_histogram_header(tmp_path):
    out = tmp_path / "r.jsonl"
    assert cli_run("batch", EXAMPLES / "elfern-ending.toml", "--out", out, "--jobs", "1").exit_code == 0
    out.write_bytes(out.read_bytes() + b'{"id": "torn')
    result = cli_run("batch", EXAMPLES / "elfern-ending.toml", "--out", out, "--jobs", "1")
    assert result.exit_code == 0
    assert "dropped 1 torn last line" in result.stderr and "line(s)" not in result.stderr
    header = next(line for line in result.stdout.splitlines() if "total of side 1" in line)
    assert header.split() == ["game", "total", "of", "side", "1", "deals", "share", "histogram"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_batch(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                             "from stich.cli.main import main; main(sys.argv[2:], prog_name='stich')", str(ROOT),
                             "batch", "--generate", "elfern:200:5", "--out", str(tmp_path / "r.jsonl"),
                             "--jobs", "2", "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        children: list[int] = []
        while time.monotonic() < deadline and len(children) < 3:    # 2 workers + resource tracker
            time.sleep(0.2)
            children = _children(proc.pid)
        assert len(children) >= 2, "the batch started no workers"
        time.sleep(1.0)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(_alive(c) for c in children):
        time.sleep(0.2)
    left = [c for c in children if _alive(c)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers outlived the killed batch"


def test_a_bad_file_in_a_batch_gets_an_error_line(tmp_path):
    folder = tmp_path / "deals"
    folder.mkdir()
    write(folder, "a.toml", ENDING.read_text(encoding="utf-8"))
    write(folder, "b.toml", 'game = "elfern"\nzzz = 1\n')
    out = tmp_path / "r.jsonl"
    for _ in range(2):                          # and a rerun neither repeats nor drops it
        result = cli_run("batch", folder, "--out", out, "--jobs", "1", "--quiet")
        assert result.exit_code == 2, result.output
        lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert sorted(line["id"] for line in lines) == ["a", "b"]
        error = next(line for line in lines if line["id"] == "b")
        assert "zzz" in error["error"] and "result" not in error
        assert "dropped" not in result.stderr
    assert not (tmp_path / "r.jsonl.dropped").exists()


NOT_RESULTS = {"random bytes": bytes(random.Random(7).randrange(256) for _ in range(300)),
               "a deal file": (EXAMPLES / "elfern-deal.toml").read_bytes(),
               "JSON lines of something else": b'{"name": "x"}\n[1, 2]\n'}
TACTIC = ["tactic", "schafkopf2.bare_ten.lead_at_once", "--game", "schafkopf2", "--deals", "2", "--quiet"]


@pytest.mark.parametrize("what", NOT_RESULTS)
@pytest.mark.parametrize("command", ["batch", "tactic"])
def test_a_file_stich_did_not_write_is_refused_as_the_output_and_left_alone(tmp_path, what, command):
    """A deal file or anything else given as --out by mistake holds no result: moving its text
    to OUT.dropped would be a surprise, so the run is refused and the file kept as it was."""
    out = tmp_path / "r.jsonl"
    out.write_bytes(NOT_RESULTS[what])
    args = (["batch", EXAMPLES / "elfern-ending.toml", "--jobs", "1"] if command == "batch" else TACTIC)
    one_line_error(cli_run(*args, "--out", out), str(out), "not a stich results file")
    assert out.read_bytes() == NOT_RESULTS[what]
    assert not (tmp_path / "r.jsonl.dropped").exists()


def test_a_torn_first_line_alone_is_still_a_results_file(tmp_path):
    """A run killed while writing its first line leaves only a torn line: the next run resumes."""
    out = tmp_path / "r.jsonl"
    assert cli_run("batch", EXAMPLES / "elfern-ending.toml", "--out", out, "--jobs", "1").exit_code == 0
    out.write_bytes(out.read_bytes()[:30])
    result = cli_run("batch", EXAMPLES / "elfern-ending.toml", "--out", out, "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert "dropped 1 torn last line" in result.stderr
    assert len(lines_of(out)) == 1


def test_a_study_says_which_lines_of_its_output_it_dropped(tmp_path):
    out = tmp_path / "r.jsonl"
    assert cli_run(*TACTIC, "--out", out).exit_code == 0
    out.write_bytes(out.read_bytes() + b"not a line of stich\n" + b'{"id": "torn')
    result = cli_run(*TACTIC, "--out", out)
    assert result.exit_code == 0, result.stderr
    assert "dropped 1 torn last line, 1 invalid line" in result.stderr
    assert b"not a line of stich" in (tmp_path / "r.jsonl.dropped").read_bytes()

"""Every path that takes a user's file reads it with a limit.

``/dev/zero`` never ends: read without a limit it fills the memory (2.8 GB in 4.6 s).  Each
command that takes a file is run on it in a fresh process whose address space is capped (one
for all of them), so a path that reads on fails (it runs out of memory) instead of taking the
machine down; the contract is one line naming the file and saying it is not a
regular file.  A regular file over the limit is refused the same way, before it is parsed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import one_line_error, run
from fuzzing import invoke

ROOT = Path(__file__).resolve().parent.parent
ENDING = str(ROOT / "examples" / "elfern-ending.toml")
MEMORY = 3 << 30                 # bytes of address space for each run


CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[2]), int(sys.argv[2])))
sys.path.insert(0, sys.argv[1])
from click.testing import CliRunner
from stich.cli.main import main
out = {}
for name, args in json.loads(sys.stdin.read()).items():
    result = CliRunner().invoke(main, args)
    out[name] = [result.exit_code, result.stderr]
print(json.dumps(out))
"""


def run_all(paths: dict[str, list[str]], cwd: Path) -> dict[str, tuple[int, str]]:
    """Every path's (exit status, standard error), run one after another in one fresh process
    with its address space capped."""
    proc = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), str(MEMORY)], cwd=cwd, capture_output=True,
                          text=True, timeout=300, input=json.dumps(paths))
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {name: tuple(value) for name, value in json.loads(proc.stdout).items()}


def files(folder: Path, target: str) -> dict[str, list[str]]:
    """Each path that takes a file, reading ``target`` through it: name -> arguments."""
    deal = folder / "deal.toml"
    deal.write_text(f'game = "{target}"\n[hands]\n1 = "♣A"\n', encoding="utf-8")
    extends = folder / "extends.toml"
    extends.write_text(f'extends = "{target}"\nname = "x"\nsources = ["x"]\n', encoding="utf-8")
    return {
        "deal file": ["solve", target],
        "deal file, analyze": ["analyze", target],
        "explore": ["explore", target, "--no-browser"],
        "hidden deal file": ["suggest", target],
        "replay --view player": ["replay", target, "--view", "player"],
        "batch file": ["batch", target, "--out", str(folder / "r.jsonl")],
        "tactic --from": ["tactic", "elfern.take_honour", "--from", target],
        "rules FILE": ["rules", target],
        "--rules-file": ["solve", ENDING, "--rules-file", target],
        "game = FILE": ["solve", str(deal)],
        "extends": ["rules", str(extends)],
        "deal --game FILE": ["deal", "--game", target],
        "--predicate": ["deal", "--game", "elfern", "--predicate", target],
        "--tactic-file": ["tactic", "x", "--tactic-file", target, "--from", ENDING],
    }


PATHS = ["--predicate", "--rules-file", "--tactic-file", "batch file", "deal --game FILE", "deal file",
         "deal file, analyze", "explore", "extends", "game = FILE", "hidden deal file", "replay --view player",
         "rules FILE", "tactic --from"]


def test_every_path_is_tried(tmp_path):
    assert sorted(files(tmp_path, "/dev/zero")) == PATHS


@pytest.fixture(scope="module")
def dev_zero(tmp_path_factory) -> dict[str, tuple[int, str]]:
    """Every path run on /dev/zero: name -> (exit status, standard error)."""
    folder = tmp_path_factory.mktemp("dev-zero")
    return run_all(files(folder, "/dev/zero"), folder)


@pytest.mark.parametrize("name", PATHS)
def test_dev_zero_is_not_a_regular_file(dev_zero, name):
    code, err = dev_zero[name]
    assert code == 2, (code, err[-500:])
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("stich: "), err[-500:]
    assert "/dev/zero" in lines[0] and "not a regular file" in lines[0], lines[0]


@pytest.mark.parametrize("name", ["rules FILE", "--rules-file", "game = FILE", "extends", "deal --game FILE",
                                  "--predicate", "--tactic-file", "hidden deal file", "deal file"])
def test_a_file_over_the_limit_is_refused(tmp_path, name):
    """A regular file is safe to read here, in this process: only its first megabyte is read."""
    big = tmp_path / ("big.py" if name in ("--predicate", "--tactic-file") else "big.toml")
    big.write_bytes(b"#" * ((1 << 20) + 1) + b"\n")
    result = invoke(files(tmp_path, str(big))[name])
    assert result.exit_code == 2, (result.exit_code, result.output[-500:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "big." in lines[0] and "larger than 1 MB" in lines[0], lines


EXAMPLES = ROOT / "examples"


ENDING_FILE = EXAMPLES / "elfern-ending.toml"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


LONG = "a" * 300


def test_dev_zero_is_refused_quickly():
    started = time.monotonic()
    one_line_error(run("solve", "/dev/zero"), "/dev/zero", "not a regular file")
    assert time.monotonic() - started < 10


def test_a_huge_file_on_stdin_is_refused():
    one_line_error(run("solve", "-", input="#" * (2 << 20)), "<stdin>")


def test_empty_file_name_is_named():
    one_line_error(run("solve", ""), "''")


def test_a_300_character_game_name_is_bad_input(tmp_path):
    one_line_error(run("rules", LONG), "unknown game")
    one_line_error(run("deal", "--game", LONG), "--game")
    deal = write(tmp_path, "long.toml", f'game = "{LONG}"\n[hands]\n1 = "♣A"\n')
    one_line_error(run("solve", deal), "long.toml", "game")
    rule = write(tmp_path, "ext.toml", f'extends = "{LONG}.toml"\nname = "x"\n')
    one_line_error(run("rules", rule), "ext.toml", "extends")


def test_a_nul_byte_in_a_file_name_is_bad_input(tmp_path):
    one_line_error(run("rules", "/\x00"), "NUL")
    one_line_error(run("batch", ENDING_FILE, "--out", "r\x00"), "NUL")

"""Every path that takes a user's file reads it with a limit (issue 22, point 3).

``/dev/zero`` never ends: read without a limit it fills the memory (2.8 GB in 4.6 s).  Each
command that takes a file is run on it in a fresh process whose address space is capped (all
of them at once), so a path that reads on fails (it runs out of memory, or out of time) instead
of taking the machine down; the contract is one line naming the file and saying it is not a
regular file.  A regular file over the limit is refused the same way, before it is parsed.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest
from fuzzing import invoke

ROOT = Path(__file__).resolve().parent.parent
ENDING = str(ROOT / "examples" / "elfern-ending.toml")
MEMORY = 3 << 30                 # bytes of address space for each run


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    code = "import sys; sys.path.insert(0, sys.argv[1]); from cli.main import main; main(sys.argv[2:])"
    return subprocess.Popen([sys.executable, "-c", code, str(ROOT), *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=cap)


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
    """Every path run on /dev/zero, all at once: name -> (exit status, standard error)."""
    folder = tmp_path_factory.mktemp("dev-zero")
    procs = {name: start(args, folder) for name, args in files(folder, "/dev/zero").items()}
    out = {}
    for name, proc in procs.items():
        try:
            _, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
        out[name] = (proc.returncode, err)
    return out


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

"""How long a command takes to start: `stich --help` and `stich solve` of a small ending, each
a fresh process, against the floor of `python -c "import click"` (what any click command pays).

Target: both within about the floor plus the solve itself; before heavy libraries were imported
lazily, scipy.stats alone took seconds of every command's start.
Run: ``pytest benchmarks/test_startup.py``; each entry's ``extra_info`` holds the median over
the rounds, in milliseconds, and its ratio to the floor.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 7
RUN_STICH = "import sys; from stich.cli.main import main; main(sys.argv[1:], prog_name='stich')"
COMMANDS = {
    "import click": ["-c", "import click"],
    "stich --help": ["-c", RUN_STICH, "--help"],
    "stich solve ending": ["-c", RUN_STICH, "solve", str(ROOT / "examples" / "elfern-ending.toml")],
}
FLOOR: dict[str, float] = {}


def seconds(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - started


@pytest.mark.parametrize("name", list(COMMANDS))
def test_start_up(bench, name):
    args = COMMANDS[name]
    times: list[float] = []
    bench.pedantic(lambda: times.append(seconds(args)), rounds=ROUNDS, iterations=1)
    median = statistics.median(times)
    if name == "import click":
        FLOOR["click"] = median
    info = getattr(bench, "extra_info", {})
    info["median_ms"] = round(median * 1000, 1)
    if "click" in FLOOR:
        info["times_click"] = round(median / FLOOR["click"], 2)
    print(f"\n{name}: median {median * 1000:.0f} ms over {ROUNDS} runs"
          + (f" ({median / FLOOR['click']:.1f} x import click)" if "click" in FLOOR else ""))

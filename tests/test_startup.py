"""Starting quickly and stopping cleanly: a command imports only what it needs (no scipy for
`stich solve`), and Ctrl-C at any moment of its first seconds (Python importing stich, click
reading the arguments, the pool starting, the search, the server) ends it with exit 130 and
one line, never a traceback.

The moments are counted from when Python runs the first line of the process (a byte on a
pipe), not from ``Popen``: on a busy machine the interpreter alone may take a while to start.
The first moment is 75 ms after it, past the few lines of this test's own launcher.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
MOMENTS = [3.0 * (k + 0.5) / 20 for k in range(20)]  # 20 moments over the first 3 s
AT_ONCE = 4                                          # processes run side by side

# the process: a byte on the ready pipe once Python runs, then stich as the console script runs
# it (``run``: the command, then Ctrl-C ignored while Python shuts down)
ENTRY = ("import os, sys; fd = int(sys.argv[1]); os.write(fd, b'.'); os.close(fd); "
         "sys.path.insert(0, sys.argv[2]); sys.argv = ['stich'] + sys.argv[3:]; "
         "from stich.cli.main import run; run()")


def modules_after(*args) -> set[str]:
    """The modules loaded once ``stich ARGS`` has run (in a fresh interpreter)."""
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from stich.cli.main import main\n"
            "try:\n    main(sys.argv[2:], prog_name='stich')\nexcept SystemExit as e:\n"
            "    assert not e.code, e.code\n"
            "sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules)) + chr(10))")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT), *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    line = next(row for row in done.stderr.splitlines() if row.startswith("MODULES "))
    return set(line.split()[1:])


@pytest.mark.parametrize("args", [["solve", EXAMPLES / "elfern-ending.toml"], ["--help"],
                                  ["deal", "--game", "elfern", "--seed", "1"]])
def test_a_plain_command_imports_no_heavy_library(args):
    loaded = modules_after(*args)
    heavy = {"scipy", "numpy", "matplotlib", "starlette", "uvicorn", "dask", "distributed", "sklearn"}
    assert heavy & loaded == set()


def interrupted_at(args: list[str], moment: float) -> tuple[bool, int, str]:
    """Start ``stich ARGS``, send SIGINT ``moment`` seconds after Python started; (whether it
    was still running when the signal was sent, exit status, stderr)."""
    ready_read, ready_write = os.pipe()
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, str(ready_write), str(ROOT), *map(str, args)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            pass_fds=(ready_write,))
    os.close(ready_write)
    try:
        with os.fdopen(ready_read, "rb") as ready:
            ready.read(1)
        time.sleep(moment)
        running = proc.poll() is None
        if running:
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return running, proc.returncode, err


def long_deal(tmp_path: Path) -> Path:
    """A deal whose solve takes 3.6 s of an idle core with a 1 MB table (twice that with four at
    once): longer than the 3 s of the moments, so that no moment meets the command's own end
    (a signal there finds it shutting down, when Ctrl-C is ignored and the exit is 0)."""
    from stich.deals.dealing import random_deal
    path = tmp_path / "deal.toml"
    path.write_text(random_deal("schafkopf2", 2, players=2, rules={"mariage": True}).dump())
    return path


COMMANDS = {
    "solve": lambda tmp: ["solve", long_deal(tmp), "--tt-mb", "1", "--threads", "1"],
    "suggest": lambda tmp: ["suggest", EXAMPLES / "hidden" / "elfern-hidden.toml"],
    "tactic": lambda tmp: ["tactic", "elfern.*", "--game", "elfern", "--deals", "40", "--seed", "3",
                           "--out", tmp / "study.jsonl"],
    "explore": lambda tmp: ["explore", EXAMPLES / "elfern-deal.toml", "--no-browser", "--jobs", "2"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_ctrl_c_at_any_moment_of_the_start_is_one_line_and_130(command, tmp_path):
    def one(k: int):
        folder = tmp_path / str(k)
        folder.mkdir()
        return interrupted_at(COMMANDS[command](folder), MOMENTS[k])

    with ThreadPoolExecutor(AT_ONCE) as threads:
        runs = list(threads.map(one, range(len(MOMENTS))))
    hit = 0
    for moment, (running, code, err) in zip(MOMENTS, runs):
        if not running:
            assert code == 0, (moment, code, err)
            continue
        hit += 1
        lines = [line for line in err.splitlines() if not line.startswith("stich explore: http")]
        assert code == 130 and "Traceback" not in err and len(lines) == 1, (moment, code, err)
        assert lines[0].startswith("stich: "), (moment, err)
    assert hit >= len(MOMENTS) // 2, "the command finished before most of the moments"


@pytest.mark.parametrize("argv0,kept", [("stich", True), ("/usr/local/bin/stich", True), ("-c", False)])
def test_the_start_up_handler_stays_in_place_until_the_command_runs_only_in_the_command(argv0, kept):
    """In the stich command no moment between loading the command line and running it has
    Python's own Ctrl-C handler (it would print a traceback); a program importing the module
    gets Python's handler back."""
    code = ("import signal, sys; sys.path.insert(0, sys.argv[1]); sys.argv = [sys.argv[2]]; "
            "import stich.cli.main; from stich.cli import interrupt; "
            "handler = signal.getsignal(signal.SIGINT); "
            "print('start-up' if handler is interrupt.stop_starting else "
            "'python' if handler is signal.default_int_handler else repr(handler))")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT), argv0], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == ("start-up" if kept else "python"), done.stderr


def command_modules(loaded: set[str]) -> set[str]:
    from stich.cli.main import COMMANDS
    return {name for name, (module, _) in COMMANDS.items() if f"stich.cli.{module}" in loaded}


def test_help_imports_no_command_and_a_command_only_its_own():
    """`stich --help` lists the commands without importing any; `stich solve` imports the
    solve command's module and no other command's."""
    assert command_modules(modules_after("--help")) == set()
    assert command_modules(modules_after("solve", EXAMPLES / "elfern-ending.toml")) == {"solve"}

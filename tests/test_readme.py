"""Every stich command the README shows is run, as a shell runs it (an unquoted
`--goal tricks>=6` would write a file `=6` and fail).

Commands come from the README's ```sh blocks and from the `stich ...` cells of its tables.
Skipped, and why:
- `pip install ...` and `pytest ...`: they install or test the package itself;
- `--dask ADDRESS`: needs a running Dask scheduler;
- synopses with placeholders (`stich solve FILE`, `stich rules [GAME]`): not runnable as written.
`stich explore` serves its page until Ctrl-C: it runs as printed (its browser is `true`), its
page is read, and Ctrl-C must stop it with status 130.
`stich bench`, the 100 Elfern deals of `stich batch --generate elfern` and `stich suggest` on a
whole Elfern deal take minutes: they run under `-m slow`, as do the player's-view studies of
Schafkopf2 and Elfern (every decision K more solves).  The `stich tactic` studies behind the
README's tables take up to an hour each: the tests run each exactly as printed but on at most
four deals (``scaled``), which checks the command; the README's command reproduces the table.
"""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SLOW = ("stich bench", "--generate elfern", "suggest examples/elfern-deal.toml",
        "--game elfern --view player", "--game schafkopf2 --view player")
STUDY_DEALS = 4


def scaled(command: str) -> str:
    """A study as the tests run it: at most STUDY_DEALS deals instead of thousands."""
    return re.sub(r"--deals (\d+)", lambda m: f"--deals {min(int(m.group(1)), STUDY_DEALS)}", command)


def readme_commands() -> list[str]:
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        commands += [line.strip() for line in block.splitlines() if line.strip()]
    for line in README.splitlines():
        if line.startswith("|"):
            commands += re.findall(r"\|\s*`(stich [^`]*)`\s*(?=\|)", line)   # whole cells only
    return commands


def skip_reason(command: str) -> str | None:
    if re.sub(r"^([A-Z_]+=\S+\s+)*", "", command).startswith(("pip ", "pytest")):
        return "installs or tests the package itself"
    if "--dask" in command:
        return "needs a Dask scheduler"
    if re.search(r"\b[A-Z]{1,4}\b|\[", command.split("#")[0]):
        return "a synopsis with placeholders"
    if command.startswith("stich explore"):
        return "a server: test_readme_explore_command_serves_its_page runs it"
    return None


COMMANDS = readme_commands()
EXPLORE = [c for c in COMMANDS if c.startswith("stich explore") and skip_reason(c).startswith("a server")]
CASES = [pytest.param(c, marks=[pytest.mark.slow] if any(s in c for s in SLOW) else [],
                      id=c[:60]) for c in COMMANDS if skip_reason(c) is None]


def test_the_readme_shows_commands_and_most_are_run():
    assert len(COMMANDS) >= 15 and len(CASES) >= 15
    assert all(skip_reason(c) for c in COMMANDS if c not in [p.values[0] for p in CASES])


@pytest.fixture(scope="module")
def shell(tmp_path_factory):
    """A directory with the examples and a `stich` on PATH that runs this checkout."""
    where = tmp_path_factory.mktemp("readme")
    (where / "examples").symlink_to(ROOT / "examples")
    (where / "docs").mkdir()                # where the studies draw their plots
    bin_dir = where / "bin"
    bin_dir.mkdir()
    script = bin_dir / "stich"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -c "import sys; sys.path.insert(0, \'{ROOT}\'); '
                      f'from stich.cli.main import main; main(prog_name=\'stich\')" "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return where, env


@pytest.mark.parametrize("command", CASES)
def test_readme_command_runs(command, shell):
    where, env = shell
    before = set(os.listdir(where))
    done = subprocess.run(["bash", "-c", scaled(command)], cwd=where, env=env, capture_output=True,
                          text=True, timeout=900)
    allowed = (0, 3, 4) if command.startswith("stich puzzle") else (0,)
    assert done.returncode in allowed, f"{command}: exit {done.returncode}: {done.stderr[-500:]}"
    assert "Traceback" not in done.stderr
    stray = {name for name in set(os.listdir(where)) - before if name.startswith("=")}
    assert not stray, f"{command}: the shell wrote {stray} (an unquoted '>')"


@pytest.mark.parametrize("command", EXPLORE)
def test_readme_explore_command_serves_its_page(command, shell):
    pytest.importorskip("starlette", reason="stich explore needs its extra: pip install \".[explore]\"")
    where, env = shell
    process = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=where, env=dict(env, BROWSER="true"),
                               stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        assert "http://127.0.0.1:" in line, f"{command}: {line}{process.stderr.read()}"
        with urllib.request.urlopen(line.split()[2], timeout=30) as page:
            assert b"explore.js" in page.read()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 130
    finally:
        if process.poll() is None:
            process.kill()
    assert "Traceback" not in process.stderr.read()


def test_puzzle_help_quotes_its_goals():
    from click.testing import CliRunner

    from stich.cli.main import main
    text = CliRunner().invoke(main, ["puzzle", "--help"]).output
    examples = [line.strip() for line in text.splitlines() if line.strip().startswith("stich puzzle")]
    assert examples
    for line in examples:
        goal = line.split("--goal", 1)[1].split()[0]
        assert goal.startswith('"') or ">" not in goal, line

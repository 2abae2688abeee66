"""Every stich command the README and the documentation pages (docs/**/*.md) show is run, as a
shell runs it (an unquoted `--goal tricks>=6` once wrote a file `=6` and failed).

Commands come from the ```sh blocks and from the `stich ...` cells of the tables of README.md
and every page of docs/; a command shown on several pages runs once.  Where a ```sh block of
one command is followed by a ```text block (the README's three questions, the tutorials), that
text is its real output: every line shown must come out of the command, in order (timings
aside).  The ```python blocks of a page run too, one page as one script.
Skipped, and why:
- `pip install ...` and `pytest ...`: they install or test the package itself;
- `--dask ADDRESS`: needs a running Dask scheduler;
- synopses with placeholders (`stich solve FILE`, `stich rules [GAME]`): not runnable as written.
A node or time limit may leave a partial answer (exit 5).
`stich explore` serves its page until Ctrl-C: it runs as printed (its browser is `true`), its
page is read, and Ctrl-C must stop it with status 130.
`stich bench`, the 100 Elfern deals of `stich batch --generate elfern` and `stich suggest` on a
whole Elfern deal take minutes: they run under `-m slow`, as do the player's-view studies of
Schafkopf2 and Elfern (every decision K more solves).  The `stich tactic` studies behind the
README's tables take up to an hour each: the tests run each exactly as printed but on at most
four deals (``scaled``), which checks the command; the page's command reproduces the table.  The
output a page shows is checked in every run, with the command as printed (a study the docs keep
whole is read from `docs/studies`); only the outputs of the commands above that take minutes wait
for `-m slow`.
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
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TEXTS = {page.relative_to(ROOT).as_posix(): page.read_text(encoding="utf-8") for page in PAGES}
README = TEXTS["README.md"]
SLOW = ("stich bench", "--generate elfern", "suggest examples/elfern-deal.toml",
        "--game elfern --view player", "--game schafkopf2 --view player")
STUDY_DEALS = 4


def scaled(command: str) -> str:
    """A study as the tests run it: at most STUDY_DEALS deals instead of thousands."""
    return re.sub(r"--deals (\d+)", lambda m: f"--deals {min(int(m.group(1)), STUDY_DEALS)}", command)


def page_commands(text: str) -> list[str]:
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        commands += [line.strip() for line in block.splitlines() if line.strip()]
    for line in text.splitlines():
        if line.startswith("|"):
            commands += re.findall(r"\|\s*`(stich [^`]*)`\s*(?=\|)", line)   # whole cells only
    return commands


def readme_commands() -> list[str]:
    """The commands of README.md and of every docs page, each once, in page order."""
    return list(dict.fromkeys(c for text in TEXTS.values() for c in page_commands(text)))


def shown_outputs() -> list[tuple[str, str, str]]:
    """(page, command, output shown): the ```text blocks after a ```sh block of one command, up
    to the next ```sh block or heading."""
    found = []
    for page, text in TEXTS.items():
        command, end = None, 0
        for fence in re.finditer(r"```(\w*)\n([^`]*)```", text):
            if re.search(r"^#", text[end:fence.start()], re.M):
                command = None
            kind, body = fence.groups()
            lines = [line.strip() for line in body.splitlines() if line.strip()]
            if kind == "sh":
                command = lines[0] if len(lines) == 1 else None
            elif kind == "text" and command:
                found.append((page, command, body))
            end = fence.end()
    return found


def study_report(command: str) -> Path | None:
    """The whole report of a study the docs show (docs/studies/NAME.txt for --out NAME.jsonl)."""
    out = re.search(r"--out (\S+)\.jsonl", command)
    report = ROOT / "docs" / "studies" / f"{out.group(1)}.txt" if out else None
    return report if report is not None and report.is_file() else None


def python_pages() -> list[tuple[str, str]]:
    return [(page, "\n".join(blocks)) for page, text in TEXTS.items()
            if (blocks := re.findall(r"```python\n(.*?)```", text, re.S))]


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
    assert len(page_commands(README)) >= 4      # the set-up and the three questions
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
    if "--node-limit" in command or "--time-limit" in command:
        allowed += (5,)                          # a partial answer
    assert done.returncode in allowed, f"{command}: exit {done.returncode}: {done.stderr[-500:]}"
    assert "Traceback" not in done.stderr
    stray = {name for name in set(os.listdir(where)) - before if name.startswith("=")}
    assert not stray, f"{command}: the shell wrote {stray} (an unquoted '>')"


def comparable(text: str) -> list[str]:
    """Output lines as shown: stripped, timings and node counts of the run left out."""
    text = re.sub(r"\(([\d,]+ nodes, )?[\d.,]+ m?s\)", "(...)", text)
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def output_case(page: str, command: str, shown: str):
    # a shown output is checked in every run, with the command as printed (a study the docs
    # keep whole is read from docs/studies), but for the commands that take minutes
    slow = study_report(command) is None and any(s in command for s in SLOW)
    return pytest.param(command, shown, marks=[pytest.mark.slow] if slow else [],
                        id=f"{page}: {command[:50]}")


OUTPUTS = [output_case(*case) for case in shown_outputs()]


def test_the_readme_shows_the_output_of_its_three_questions():
    shown = [command for page, command, _ in shown_outputs() if page == "README.md"]
    assert [c.split()[1] for c in shown] == ["solve", "puzzle", "tactic"]


def in_order(shown: str, printed: str) -> list[str]:
    """The lines shown that do not come out of ``printed`` in this order."""
    real = iter(comparable(printed))
    return [line for line in comparable(shown) if not any(line == out for out in real)]


def test_in_order_finds_a_line_out_of_order_or_never_printed():
    assert in_order("a\nc", "a\nb\nc (1,717 nodes, 120.6 ms)\nc") == []
    assert in_order("c\na", "a\nb\nc") == ["a"] and in_order("d", "a") == ["d"]


_PRINTED: dict[str, str] = {}     # a command's output, run once for every page that shows it


def printed_by(command: str, shell) -> str:
    """What ``command`` prints, run as printed in the shell fixture's directory."""
    if command not in _PRINTED:
        where, env = shell
        done = subprocess.run(["bash", "-c", command], cwd=where, env=env, capture_output=True,
                              text=True, timeout=900)
        assert "Traceback" not in done.stderr
        _PRINTED[command] = done.stdout
    return _PRINTED[command]


@pytest.mark.parametrize("command,shown", OUTPUTS)
def test_the_output_shown_is_the_commands_own(command, shown, shell):
    """A study's output is its whole report in docs/studies (hours of work); any other command
    is run as printed."""
    report = study_report(command)
    printed = report.read_text(encoding="utf-8") if report is not None else printed_by(command, shell)
    missing = in_order(shown, printed)
    assert not missing, f"{command}: shown but not printed (in this order): {missing[:3]}"


@pytest.mark.parametrize("page,script", python_pages(), ids=[page for page, _ in python_pages()])
def test_the_python_shown_runs(page, script, shell):
    where, env = shell
    done = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r})\n{script}"],
                          cwd=where, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{page}: {done.stderr[-800:]}"


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

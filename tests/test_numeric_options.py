"""Every option of every command that takes a number, tried with 0, -1, nan, inf, 10**30 and a
word: each exits 2 with one line naming the option, or works.

The options are found by reading the commands (every click parameter whose type is a number),
so an option added later is tried too.  The inputs are tiny (a three-trick ending, 24 hidden
layouts), and a count that would make a valid huge value run for long is capped by its option,
so a value that is accepted finishes in a moment.  ``stich explore`` would serve until Ctrl-C:
its server is replaced by a stub that returns, so "works" there means that the values reached
the server.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from stich.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
ENDING = str(ROOT / "examples" / "scharwenzel-ending.toml")
HIDDEN = str(ROOT / "examples" / "hidden" / "schafkopf2-hidden.toml")
VALUES = ["0", "-1", "nan", "inf", str(10**30), "many"]
WORKS = {"puzzle": (0, 3, 4)}             # a puzzle's answer is its exit status; else 0 (5: partial)


def base_args(command: str, folder: Path) -> list[str]:
    """A quick, valid invocation of each command."""
    replay = folder / "replay.toml"
    replay.write_text(Path(ENDING).read_text(encoding="utf-8").replace("[hands]", 'play = ["♦A"]\n[hands]'),
                      encoding="utf-8")
    return {
        "solve": [ENDING], "analyze": [ENDING], "table": [ENDING], "puzzle": [ENDING, "--goal", "win"],
        "replay": [str(replay), "--view", "player", "--jobs", "1"],
        "deal": ["--game", "elfern", "--json"],
        "batch": [ENDING, "--out", str(folder / "r.jsonl"), "--jobs", "1", "--quiet"],
        "bench": ["--quick", "--json"],
        "suggest": [HIDDEN, "--jobs", "1"],
        "tactic": ["scharwenzel.*", "--from", ENDING, "--jobs", "1"],
        "explore": [ENDING, "--no-browser"],
        "rules": [],
    }[command]


def numeric_options() -> list[tuple[str, click.Option]]:
    number_types = (click.types.IntParamType, click.types.FloatParamType)
    return [(name, param) for name, command in sorted(main.commands.items()) for param in command.params
            if isinstance(param, click.Option) and isinstance(param.type, number_types)]


OPTIONS = numeric_options()


def test_every_kind_of_numeric_option_is_found():
    names = {param.opts[-1] for _, param in OPTIONS}
    assert {"--node-limit", "--time-limit", "--tt-mb", "--seed", "--jobs", "--samples", "--port",
            "--count", "--deals", "--max-tries", "--until-width", "--cx-count", "--seat"} <= names
    assert {name for name, _ in OPTIONS} == set(main.commands) - {"rules"}


@pytest.fixture
def no_server(monkeypatch):
    """``stich explore`` stops where it would start serving."""
    import stich.explore.server as server
    monkeypatch.setattr(server, "serve", lambda session, port, browser, announce: None)


@pytest.mark.parametrize("command,param", OPTIONS, ids=[f"{c} {p.opts[-1]}" for c, p in OPTIONS])
def test_numeric_option_exits_2_with_one_line_or_works(tmp_path, no_server, command, param):
    flag = param.opts[-1]
    args = base_args(command, tmp_path)
    for value in VALUES:
        mine = [a for i, a in enumerate(args) if a != flag and (i == 0 or args[i - 1] != flag)]
        result = CliRunner().invoke(main, [command, *mine, flag, value])
        where = f"stich {command} ... {flag} {value}"
        assert "Traceback" not in result.output and "internal error" not in result.output, (where, result.output)
        if result.exit_code == 2:
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("stich: "), (where, result.stderr)
            assert any(opt in lines[0] for opt in param.opts), (where, lines[0])
        else:
            assert result.exit_code in WORKS.get(command, (0, 5)), (where, result.exit_code, result.output[-500:])

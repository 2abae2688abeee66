"""How the command-line tests run stich: in this process (``run``), or as a real process that a
real signal can reach (``start``); and the one shape every bad-input error has."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from stich.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args, input=None):
    """``stich ARGS`` in this process (click's runner; exceptions become exit status 1)."""
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def start(*args) -> subprocess.Popen:
    """``stich ARGS`` as its own process, stderr piped, for tests that send it a signal."""
    code = "import sys; sys.path.insert(0, sys.argv[1]); from stich.cli.main import main; main(sys.argv[2:])"
    return subprocess.Popen([sys.executable, "-c", code, str(ROOT), *map(str, args)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)


def one_line_error(result, *words):
    """Exit 2, exactly one line on stderr, starting 'stich:' and naming each word."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("stich: ") and "Traceback" not in line and "internal error" not in line, line
    for word in words:
        assert word in line, (word, line)
    return line

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


def start_on_a_terminal(*args, stdout=subprocess.PIPE) -> tuple[subprocess.Popen, int]:
    """``stich ARGS`` as its own process with standard error on a pseudo-terminal (so it draws
    its progress as for a user); returns the process and the terminal's reading end."""
    import fcntl
    import os
    import pty
    import struct
    import termios
    reader, writer = pty.openpty()
    fcntl.ioctl(writer, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))   # as a real one
    code = "import sys; sys.path.insert(0, sys.argv[1]); from stich.cli.main import main; main(sys.argv[2:])"
    proc = subprocess.Popen([sys.executable, "-c", code, str(ROOT), *map(str, args)],
                            stdout=stdout, stderr=writer, text=True, cwd=ROOT)
    os.close(writer)
    return proc, reader


def read_terminal_until(reader: int, text: str, timeout: float = 120.0) -> str:
    """What the process wrote on its terminal until ``text`` appeared (AssertionError if it
    did not within ``timeout`` seconds, or the process closed the terminal first)."""
    import os
    import select
    import time
    seen, deadline = b"", time.monotonic() + timeout
    while text.encode() not in seen:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([reader], [], [], left)[0]:
            raise AssertionError(f"{text!r} did not appear: {seen[-300:]!r}")
        try:
            chunk = os.read(reader, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            raise AssertionError(f"the terminal closed before {text!r}: {seen[-300:]!r}")
        seen += chunk
    return seen.decode(errors="replace")


def read_terminal_to_end(reader: int) -> str:
    """The rest of what the process wrote on its terminal (after it exited)."""
    import os
    rest = b""
    while True:
        try:
            chunk = os.read(reader, 4096)
        except OSError:
            break
        if not chunk:
            break
        rest += chunk
    os.close(reader)
    return rest.decode(errors="replace")

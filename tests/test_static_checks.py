"""The static checks of CI, also under the plain test command: ruff's rules and the type check
(tools/typecheck) pass over the whole tree.  Each is skipped, saying why, where its tool is
not installed."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _needs(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install '.[test]')")


def test_ruff_finds_nothing():
    _needs("ruff")
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_package_type_checks():
    _needs("mypy")
    proc = subprocess.run(["bash", str(ROOT / "tools" / "typecheck")], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, env={**os.environ, "PYTHON": sys.executable})
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]

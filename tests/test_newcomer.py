"""What a newcomer and a fuzzer found in the commands' edges: each a one-line error with exit 2
where the input is the problem, and standard input taking what a file takes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from clirun import run

ROOT = Path(__file__).resolve().parent.parent
HIDDEN = ROOT / "examples" / "hidden" / "schafkopf2-hidden.toml"


def without(modules: list[str], *args: str) -> subprocess.CompletedProcess:
    """``stich ARGS`` in a fresh Python where ``modules`` cannot be imported."""
    code = ("import sys\nfor name in sys.argv[2].split(','):\n    sys.modules[name] = None\n"
            "sys.path.insert(0, sys.argv[1])\nfrom stich.cli.main import main\n"
            "main(sys.argv[3:], prog_name='stich')")
    return subprocess.run([sys.executable, "-c", code, str(ROOT), ",".join(modules), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_suggest_reads_a_hidden_deal_on_standard_input():
    text = HIDDEN.read_text(encoding="utf-8")
    piped = run("suggest", "-", "--json", "--jobs", "1", input=text)
    assert piped.exit_code == 0, piped.output
    named = run("suggest", HIDDEN, "--json", "--jobs", "1")
    drop = ("seconds", "source")
    assert ({k: v for k, v in json.loads(piped.stdout).items() if k not in drop}
            == {k: v for k, v in json.loads(named.stdout).items() if k not in drop})


def test_suggest_dask_without_dask_is_bad_input():
    done = without(["distributed", "dask"], "suggest", str(HIDDEN), "--dask", "tcp://127.0.0.1:1")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("stich: --dask needs Dask: pip install")


def test_explore_without_its_extra_says_the_readme_s_install_line():
    done = without(["starlette", "uvicorn"], "explore", str(ROOT / "examples" / "elfern-ending.toml"),
                   "--no-browser")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert 'pip install ".[explore]"' in done.stderr and "starlette" in done.stderr
    assert 'pip install ".[explore]"' in (ROOT / "README.md").read_text(encoding="utf-8")

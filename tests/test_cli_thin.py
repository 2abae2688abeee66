"""The command line stays a thin front end (issue 21): no function of ``cli/`` is longer than
60 lines, and there is one way to stop on bad input (``cli.common.fail``) and one progress bar
(``cli.progress``, tqdm's)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LONGEST = 60


def functions(text: str):
    """(name, lines from ``def`` to the end) of every function of a module's source."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.end_lineno - node.lineno + 1


def long_functions(folder: Path) -> list[str]:
    return [f"{path.name}: {name} ({lines} lines)" for path in sorted(folder.glob("*.py"))
            for name, lines in functions(path.read_text(encoding="utf-8")) if lines > LONGEST]


def test_no_cli_function_is_longer_than_60_lines():
    assert long_functions(ROOT / "cli") == []


def test_the_length_check_sees_a_long_function(tmp_path):
    body = "".join(f"    x{i} = {i}\n" for i in range(LONGEST))
    (tmp_path / "long.py").write_text(f"def command():\n{body}", encoding="utf-8")
    assert long_functions(tmp_path) == [f"long.py: command ({LONGEST + 1} lines)"]


def test_one_fail_and_one_progress_bar():
    defined = {path.name: {n for n, _ in functions(path.read_text(encoding="utf-8"))}
               for path in (ROOT / "cli").glob("*.py")}
    assert [name for name, names in defined.items() if "fail" in names] == ["common.py"]
    text = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "cli").glob("*.py"))
    assert "click.progressbar" not in text and "RateBar" not in text

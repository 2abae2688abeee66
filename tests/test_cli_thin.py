"""The command line stays a thin front end: no function of ``cli/`` is longer than
60 lines, and there is one way to stop on bad input (``stich.cli.group.fail``, which
``stich.cli.common`` hands on) and one progress bar (``stich.cli.progress``, tqdm's)."""

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


def long_functions(folder: Path, pattern: str = "*.py", skip: str | None = None) -> list[str]:
    return [f"{path.name}: {name} ({lines} lines)" for path in sorted(folder.glob(pattern))
            if skip is None or skip not in path.relative_to(folder).parts
            for name, lines in functions(path.read_text(encoding="utf-8")) if lines > LONGEST]


def test_no_cli_function_is_longer_than_60_lines():
    assert long_functions(ROOT / "cli") == []


def test_no_function_outside_the_core_is_longer_than_60_lines():
    """The same bound for the whole package but the Cython core (whose Python
    helpers there are short too, but the search itself is one loop on purpose)."""
    assert long_functions(ROOT / "solver", "**/*.py", skip="core") == []


def test_the_length_check_sees_a_long_function(tmp_path):
    body = "".join(f"    x{i} = {i}\n" for i in range(LONGEST))
    (tmp_path / "long.py").write_text(f"def command():\n{body}", encoding="utf-8")
    assert long_functions(tmp_path) == [f"long.py: command ({LONGEST + 1} lines)"]
    for folder in ("search", "core"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "deep.py").write_text(f"def search():\n{body}", encoding="utf-8")
    assert long_functions(tmp_path, "**/*.py", skip="core") == [
        "long.py: command (61 lines)", "deep.py: search (61 lines)"]


def test_one_fail_and_one_progress_bar():
    defined = {path.name: {n for n, _ in functions(path.read_text(encoding="utf-8"))}
               for path in (ROOT / "cli").glob("*.py")}
    assert [name for name, names in defined.items() if "fail" in names] == ["group.py"]
    text = "".join(path.read_text(encoding="utf-8") for path in (ROOT / "cli").glob("*.py"))
    assert "click.progressbar" not in text and "RateBar" not in text

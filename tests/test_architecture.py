"""The layers of ``stich`` (sources in solver/): each sub-package is one floor, and a floor imports
only the floors below it (and itself); ``stich`` and ``stich.cli`` have no import cycle.

The floors, bottom first, are the data flow of the README (deal file -> Deal -> Position ->
Tables -> Engine -> Result -> report) read from below: the values and the referee, the games
that are data for them, the deal file, the compiled engine, what perfect play means, running
many searches, the questions asked of a deal, the player's view, the advice, the study of the
advice, and what is printed.  Floors of the same height are siblings: neither imports the other.
"""

from __future__ import annotations

import pytest
from architecture import ROOT, cycles, import_graph

FLOORS = [                         # bottom first; a tuple is siblings on one floor
    "files",                       # reading the user's files with limits
    "model",                       # cards, the rules as data, the referee, outcomes
    "games",                       # each game as data (and rule files)
    "deals",                       # the deal file, random deals, --where
    "core",                        # tables and the compiled search
    "search",                      # sessions, solve, ladders, lines
    "run",                         # worker pool, results file, benchmark sets
    ("analysis", "view"),          # one question per deal; the player's view
    "tactics",                     # the advice, as a player can follow it
    "study",                       # advice judged against perfect play
    "report",                      # text, JSON and plots
    "explore",                     # the interactive page
]


def floor_of(module: str) -> tuple[str, int] | None:
    """(package, floor) of a module of stich; None for ``stich`` itself and for stich.cli."""
    parts = module.split(".")
    if parts[0] != "stich" or len(parts) < 2 or parts[1] == "cli":
        return None
    for height, floor in enumerate(FLOORS):
        if parts[1] in ((floor,) if isinstance(floor, str) else floor):
            return parts[1], height
    return parts[1], -1


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a package on its own floor or higher (not its own)."""
    found = []
    for module, targets in sorted(graph.items()):
        here = floor_of(module)
        if here is None:
            continue
        for target in sorted(targets):
            there = floor_of(target)
            if there is not None and there[0] != here[0] and there[1] >= here[1]:
                found.append(f"{module} ({here[0]}) imports {target} ({there[0]})")
    return found


def test_every_package_of_solver_has_a_floor():
    packages = {p.name for p in (ROOT / "solver").iterdir() if (p / "__init__.py").is_file()}
    assert {name for name in packages if floor_of(f"stich.{name}")[1] < 0} == set()
    assert {p.name for p in (ROOT / "solver").glob("*.py")} == {"__init__.py"}, \
        "a module of solver belongs in the package of its layer"


def test_no_layer_imports_a_layer_above_it():
    assert upward_imports(import_graph()) == []


@pytest.mark.parametrize("graph,found", [
    ({"stich.model.position": {"stich.games.base"}}, ["stich.model.position (model) imports stich.games.base (games)"]),
    ({"stich.view.suggest": {"stich.analysis.batch"}}, ["stich.view.suggest (view) imports stich.analysis.batch (analysis)"]),
    ({"stich.games.base": {"stich.model.rules"}, "stich.games.x": {"stich.games.base"}}, []),
])
def test_the_rank_test_sees_an_upward_import(graph, found):
    assert upward_imports(graph) == found


def test_stich_has_no_import_cycle():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


DRAWING = ("tabulate", "matplotlib")   # the libraries that draw text tables and plots


def drawing_outside_report(found: dict[str, list[str]]) -> list[str]:
    """Modules outside ``stich.report`` that import a drawing library (every text
    table, JSON and plot is drawn in one presentation package; the games give data)."""
    return [f"{module} imports {target}" for module, targets in sorted(found.items())
            if not module.startswith("stich.report") for target in targets
            if target.split(".")[0] in DRAWING]


def external_imports() -> dict[str, list[str]]:
    import ast

    from architecture import imports, modules
    return {name: [t for node in ast.walk(ast.parse(path.read_text(), str(path)))
                   if isinstance(node, (ast.Import, ast.ImportFrom)) for t, _ in imports(name, path, node)]
            for name, path in modules()}


def test_tables_and_plots_are_drawn_only_in_report():
    assert drawing_outside_report(external_imports()) == []


def test_the_drawing_test_sees_a_table_drawn_elsewhere():
    found = {"stich.games.scharwenzel": ["tabulate.tabulate"], "stich.cli.rules": ["tabulate"],
             "stich.report.table": ["tabulate"], "stich.report.tactic": ["matplotlib.pyplot"]}
    assert drawing_outside_report(found) == ["stich.cli.rules imports tabulate",
                                             "stich.games.scharwenzel imports tabulate.tabulate"]

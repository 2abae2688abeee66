"""The import graph of ``stich`` (sources in solver/ and cli/), read from the source (for the
architecture tests)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# where each installed package's sources live (setup.py's package_dir)
SOURCES = {"stich": ROOT / "solver", "stich.cli": ROOT / "cli"}


def dotted(path: Path) -> str:
    """The installed dotted name of a source file of solver/ or cli/."""
    for package, folder in sorted(SOURCES.items(), key=lambda item: -len(item[0])):
        if path.is_relative_to(folder):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts and parts[-1] == "__init__":
                parts = parts[:-1]
            return ".".join((package, *parts))
    raise ValueError(f"{path} is not a source of stich")


def modules():
    """(dotted name, path) of every module of stich (solver/ and cli/)."""
    for folder in SOURCES.values():
        for path in sorted(folder.rglob("*.py")):
            yield dotted(path), path


def imports(name: str, path: Path, tree: ast.AST) -> list[tuple[str, int]]:
    """Every module ``name`` imports (absolute dotted names), with the line."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = node.module or ""
            target = (f"{base}.{module}" if module else base) if node.level else module
            found.append((target, node.lineno))
            found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names]
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of stich it imports, wherever in the file (a function's own
    import and a type-only import tie the two modules together just the same)."""
    found_modules = dict(modules())
    known = set(found_modules) | {dotted(p) for p in (ROOT / "solver").rglob("*.pyx")}  # the compiled core
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in found_modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found = [t for t, _ in imports(name, path, node) if t in known]
                # "from . import x" imports the module x; "from .x import y" the module .x
                deepest = [t for t in found if not any(o.startswith(t + ".") for o in found)]
                graph[name].update(t for t in deepest if t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found

"""The guard on hidden cards holds by construction: from a tactic's view no attribute path
reaches the deal, a position, an engine, or where a card the mover cannot see lies.

Every object reachable from the view is walked (instance dictionaries and slots, dataclass
fields, containers, bound methods with their function's closure and defaults, property
values), to a bounded depth.  No reachable object may be a deal, a position, an
information set (it holds a deal), a search session or an engine; and everything reachable
must be the same on every layout the mover cannot tell apart: a path that led to a hidden
card would show a different card on some other layout.  Frames and ``gc`` are out of the
guard's scope (documented in stich.tactics.view)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import textwrap
import types

import pytest
from click.testing import CliRunner
from test_tactic_invariance import random_decisions

from stich.cli.main import main
from stich.core._search import Engine
from stich.deals.deal import Deal
from stich.model.cards import Card
from stich.model.position import Position
from stich.search.session import Session
from stich.tactics.view import player_view
from stich.view import InfoSet, sample_layouts

FORBIDDEN = (Deal, Position, InfoSet, Session, Engine)
LEAVES = (str, bytes, int, float, bool, complex, type(None), Card)
DEPTH = 12


def _ordered(items) -> list:
    return sorted(items, key=repr)


def children(obj) -> list[tuple[str, object]]:
    """(step, object) for everything one step from ``obj``."""
    out: list[tuple[str, object]] = []
    if isinstance(obj, (tuple, list)):
        out += [(f"[{i}]", x) for i, x in enumerate(obj)]
    elif isinstance(obj, (set, frozenset)):
        out += [(f"{{{i}}}", x) for i, x in enumerate(_ordered(obj))]
    elif isinstance(obj, dict):
        for i, (k, v) in enumerate(sorted(obj.items(), key=lambda kv: repr(kv[0]))):
            out += [(f"<key {i}>", k), (f"[{k!r}]", v)]
    if isinstance(obj, types.MethodType):
        out += [(".__self__", obj.__self__), (".__func__", obj.__func__)]
    if isinstance(obj, types.FunctionType):
        cells = [c.cell_contents for c in (obj.__closure__ or ()) if _filled(c)]
        out += [(f".<cell {i}>", c) for i, c in enumerate(cells)]
        out += [(".__defaults__", obj.__defaults__), (".__kwdefaults__", obj.__kwdefaults__)]
        return out
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        out += [(f".{f.name}", getattr(obj, f.name)) for f in dataclasses.fields(obj)]
    out += [(f".{k}", v) for k, v in sorted(getattr(obj, "__dict__", {}).items())]
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                out.append((f".{name}", getattr(obj, name)))
    out += _members(obj)
    return out


def _filled(cell) -> bool:
    try:
        _ = cell.cell_contents     # an empty cell raises
    except ValueError:
        return False
    return True


def _members(obj) -> list[tuple[str, object]]:
    """The object's properties' values and its bound methods (of its own classes)."""
    out = []
    if isinstance(obj, (type, types.ModuleType, types.BuiltinFunctionType, *LEAVES)):
        return out
    for cls in type(obj).__mro__:
        if cls is object or cls.__module__ == "builtins":
            continue
        for name, member in sorted(vars(cls).items()):
            if isinstance(member, property):
                with contextlib.suppress(Exception):      # a property that refuses is no path
                    out.append((f".{name}", getattr(obj, name)))
            elif isinstance(member, types.FunctionType) and not name.startswith("__"):
                out.append((f".{name}", getattr(obj, name)))
    return out


def reachable(root, depth: int = DEPTH) -> dict[str, str]:
    """Path -> what lies there (leaves as their repr; objects as their type), breadth first;
    raises AssertionError at a forbidden object."""
    found: dict[str, str] = {}
    visited: set[int] = set()
    alive = []                  # bound methods are made afresh: keep them, or their ids recur
    frontier = [("view", root)]
    for _ in range(depth):
        nxt = []
        for path, obj in frontier:
            assert not isinstance(obj, FORBIDDEN), f"{path} reaches a {type(obj).__name__}"
            if isinstance(obj, LEAVES):
                found[path] = repr(obj)
                continue
            if id(obj) in visited or isinstance(obj, (type, types.ModuleType)):
                continue
            visited.add(id(obj))
            alive.append(obj)
            found[path] = type(obj).__name__
            nxt += [(path + step, child) for step, child in children(obj)]
        frontier = nxt
    return found


@pytest.mark.parametrize("game", ["schafkopf2", "elfern", "scharwenzel"])
def test_no_attribute_path_from_the_view_reaches_a_hidden_card(game):
    hidden = 0
    for n, (here, info) in enumerate(random_decisions(game, 6, 7)):
        view = player_view(here)
        walked = reachable(view)
        assert any(p.endswith("._sight") for p in walked) and len(walked) > 50
        for layout in sample_layouts(info, 3, n):
            other = info.fill(layout)
            hidden += other.dump() != here.dump()
            assert reachable(player_view(other)) == walked
    assert hidden >= 3


def test_the_walk_finds_a_deal_held_anywhere():
    """The walker can fail: a deal behind a closure, a bound method or a container is found."""
    here, _ = next(iter(random_decisions("schafkopf2", 1, 7)))
    view = player_view(here)
    view.helper = (lambda: here.players)            # a closure over the deal
    with pytest.raises(AssertionError, match="Deal"):
        reachable(view)
    view.helper = {"x": [types.SimpleNamespace(d=here)]}
    with pytest.raises(AssertionError, match="Deal"):
        reachable(view)


PEEK = textwrap.dedent('''
    """A tactic that reaches for the deal through the view's inner objects."""

    def peek(view):
        deal = view._info._info.deal
        return [view.legal[0]] if deal else None

    TACTICS = {"peek": peek}
''')


def test_a_tactic_reaching_for_the_deal_fails_the_study(tmp_path):
    path = tmp_path / "peek.py"
    path.write_text(PEEK)
    result = CliRunner().invoke(main, ["tactic", "peek", "--tactic-file", str(path), "--game", "schafkopf2",
                                       "--deals", "1", "--jobs", "1", "--quiet", "--json"])
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "peek" in result.stderr
    assert "Traceback" not in result.stderr
    with pytest.raises(json.JSONDecodeError):
        json.loads(result.stdout or "x")

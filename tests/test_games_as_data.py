"""Issue 13: a game is data.  Outside ``solver/games/`` (and the per-game tactics), no code
compares a value with a game's name or a layout's name, or imports a game module."""

from __future__ import annotations

import ast
from pathlib import Path

from architecture import imports, modules

from solver.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
GAME_NAMES = {"scharwenzel", "schafkopf2", "elfern"} | set(GAMES)   # the rule-file games too
LAYOUT_NAMES = {"hands", "piles", "stock"}
GAME_MODULES = {f"solver.games.{name}" for name in GAME_NAMES}


def _generic(name: str) -> bool:
    return not (name.startswith("solver.games") or name.startswith("solver.tactics"))


def _strings(node: ast.AST) -> set[str]:
    """String constants of a comparison operand (also inside tuples, lists and sets)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value.lower()}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*map(_strings, node.elts)) if node.elts else set()
    return set()


def _mentions_layout(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and "layout" in n.id.lower()
               or isinstance(n, ast.Attribute) and "layout" in n.attr.lower() for n in ast.walk(node))


def _name_comparisons(tree: ast.AST) -> list[tuple[int, str]]:
    """Comparisons with a game's name anywhere, and of a layout with a layout's name.  The
    words "hands", "piles" and "stock" are also deal file keys and ``--where`` words; those
    comparisons read the file format, not the game, and stay."""
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            layout = any(_mentions_layout(o) for o in operands)
            for operand in operands:
                for text in _strings(operand) & (GAME_NAMES | (LAYOUT_NAMES if layout else set())):
                    hits.append((node.lineno, text))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            if isinstance(node.slice.value, str) and node.slice.value.lower() in GAME_NAMES:
                hits.append((node.lineno, node.slice.value))     # GAMES["scharwenzel"]
    return hits


def test_no_code_outside_the_game_definitions_asks_for_a_game_or_layout_by_name():
    offences = []
    for name, path in modules():
        if not _generic(name):
            continue
        tree = ast.parse(path.read_text(), str(path))
        offences += [f"{path.relative_to(ROOT)}:{line}: compares with {text!r}"
                     for line, text in _name_comparisons(tree)]
        offences += [f"{path.relative_to(ROOT)}:{line}: imports {module}"
                     for module, line in imports(name, path, tree)
                     if any(module == m or module.startswith(m + ".") for m in GAME_MODULES)]
    assert not offences, "\n".join(offences)


def test_the_grep_test_sees_an_offence():
    """The walk above finds what it looks for (so its silence means something)."""
    tree = ast.parse('if deal.game == "elfern" or rules.layout in ("piles",): pass\nx = GAMES["elfern"]\n'
                     'if spec.layout != "stock" or key == "stock": pass')
    assert sorted(text for _, text in _name_comparisons(tree)) == ["elfern", "elfern", "piles", "stock"]
    found = imports("solver.report.solve", ROOT / "solver" / "report" / "solve.py",
                       ast.parse("from ..games.scharwenzel import matadors"))
    assert ("solver.games.scharwenzel", 1) in found


# --- a layout's sizes are data ------------------------------------------------------------------

def _toy(monkeypatch, name, base, layout):
    """``base`` with another layout, registered as game ``name`` (no other code changes)."""
    from dataclasses import replace

    from solver.games import GAMES
    game = replace(GAMES[base], name=name,
                   build=lambda trump, options, players=2: replace(GAMES[base].build(trump, options, players),
                                                                   layout=layout, game=name),
                   layout=layout)
    monkeypatch.setitem(GAMES, name, game)
    return game


def test_four_piles_each_need_no_code(monkeypatch):
    from solver import loads, solve
    from solver.deals.dealing import random_deal
    from solver.games.layouts import Piles
    _toy(monkeypatch, "piles4", "schafkopf2", Piles(count=4))
    deal = random_deal("piles4", 3)
    assert [len(deal.piles[s]) for s in (1, 2)] == [4, 4]
    assert all(p.down is not None for s in (1, 2) for p in deal.piles[s])
    assert loads(deal.dump()) == deal
    assert len(deal.position().playable(0)) == 4
    result = solve(deal)
    assert len(result.line_tricks) == 8 and sum(result.totals) <= 120


def test_a_smaller_stock_hand_needs_no_code(monkeypatch):
    from solver import loads
    from solver.deals.dealing import random_deal
    from solver.games.layouts import Stock
    _toy(monkeypatch, "stock4", "elfern", Stock(hand=4))
    deal = random_deal("stock4", 5)
    assert [len(deal.hands[s]) for s in (1, 2)] == [4, 4] and len(deal.stock) == 24
    assert loads(deal.dump()) == deal
    position = deal.position()
    for _ in range(2):                      # a trick: each hand is refilled to four from the stock
        position.play(position.legal_moves()[0])
    assert [len(position.hands[s]) for s in (0, 1)] == [4, 4] and len(position.stock) == 22

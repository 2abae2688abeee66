"""A game is data.  Outside ``solver/games/`` (and the per-game tactic
modules), no code spells a game: not its name, not a layout's kind, not one game's option,
not an outcome level's name, and no code imports a game module or asks ``isinstance`` of a
layout class.  The search core (``.pyx``/``.pxi``, comments included) names no game.

Every string literal of the generic code is read, wherever it stands (a comparison, a
constant, ``match``/``case``, ``startswith``, a dict key, a ``.get``), so the test sees every
spelling; its self-check plants one of each kind.  What may stand anyway is listed in
``ALLOWED`` with the reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from architecture import imports, modules

from stich.deals.dealing import random_deal
from stich.games import GAMES
from stich.games import layouts as layout_module
from stich.games.layouts import LAYOUTS

ROOT = Path(__file__).resolve().parent.parent
GAME_NAMES = {"scharwenzel", "schafkopf2", "elfern", "schafkopf"} | set(GAMES)   # rule-file games too
LAYOUT_WORDS = {word for layout in LAYOUTS for word in (layout.name, layout.section, *layout.keys)}
LAYOUT_WORDS |= {layout_module.HAND, layout_module.PILE}
LAYOUT_CLASSES = {"Hands", "Piles", "Stock"}
# ordinary English words that are also an option's or a level's name; a literal "win" or
# "simple" (a table format) says nothing about a game
GENERIC = {"win", "simple", "tie", "beat", "scoring", "first"}


def _option_names() -> set[str]:
    return {option.name for game in GAMES.values() for option in game.options}


def _level_names() -> set[str]:
    names = set()
    for game in GAMES.values():
        deal = random_deal(game.name, 1)
        names |= {word for rung in (game.ladder(deal.position(), deal) if game.ladder else ())
                  for word in (rung.level, rung.text)}
        names |= {word for word in game.goals}
    return names


WORDS = (GAME_NAMES | LAYOUT_WORDS | _option_names() | _level_names()) - GENERIC
# the core implements follow rules, streaks and thresholds under their own names ("must beat",
# "first"): only the games' own words count there
MECHANISMS = {"must_trump", "must_beat", "first_leader", "first", "every_trick"}
CORE_WORDS = (GAME_NAMES | _option_names() | _level_names()) - GENERIC - MECHANISMS

ALLOWED = {
    ("solver/run/bench.py", "scharwenzel"): "the benchmark sets: a data table of games to deal",
    ("solver/run/bench.py", "schafkopf2"): "the benchmark sets",
    ("solver/run/bench.py", "elfern"): "the benchmark sets",
    ("solver/run/bench.py", "trump_mode"): "the benchmark sets: the card17 variant of Schafkopf2",
    ("solver/run/bench.py", "mariage"): "the benchmark sets: Schafkopf2 with the Mariage",
    ("solver/run/bench.py", "officers_skat"): "the benchmark sets: a rule-file game",
    ("solver/run/bench.py", "einwerfen"): "the benchmark sets: a rule-file game",
    ("solver/run/bench.py", "bohemian_schneider"): "the benchmark sets: a rule-file game",
    ("solver/core/tables.py", "stock"): "the engine's own input: a stock is one of its mechanisms",
    ("solver/core/tables.py", "hand"): "the engine's own input: the size of a hand refilled from a stock",
    **{("solver/tactics/__init__.py", f"import {game}"): "the registry of the built-in tactics"
       for game in ("scharwenzel", "schafkopf2", "elfern")},
}


def _generic(name: str) -> bool:
    if name.startswith("stich.games"):
        return False
    return not (name.startswith("stich.tactics.") and name.rsplit(".", 1)[1] in GAME_NAMES)


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def spellings(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, word) of every spelling of a game in a module's code (docstrings aside)."""
    docs = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value.strip() in WORDS:
                hits.append((node.lineno, node.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            hits += [(node.lineno, f"isinstance {n.id}") for n in ast.walk(node.args[1])
                     if isinstance(n, ast.Name) and n.id in LAYOUT_CLASSES]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [getattr(node, "module", None) or ""] + [alias.name for alias in node.names]
            hits += [(node.lineno, f"import {n}") for n in names if n in GAME_NAMES]
    return hits


def core_spellings(text: str) -> list[tuple[int, str]]:
    """(line, word) of every game word in the core's source, comments included."""
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, CORE_WORDS))) + r")\b", re.IGNORECASE)
    return [(number, match.group(0)) for number, line in enumerate(text.splitlines(), 1)
            for match in pattern.finditer(line)]


def test_no_generic_code_spells_a_game():
    offences = []
    for name, path in modules():
        if not _generic(name):
            continue
        rel = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text(), rel)
        offences += [f"{rel}:{line}: {word!r}" for line, word in spellings(tree)
                     if (rel, word.lower()) not in ALLOWED]
        offences += [f"{rel}:{line}: imports {module}" for module, line in imports(name, path, tree)
                     if any(module == f"stich.games.{g}" or module.startswith(f"stich.games.{g}.")
                            for g in GAME_NAMES)]
    assert not offences, "\n".join(offences)


def test_the_search_core_names_no_game():
    offences = []
    for path in sorted((ROOT / "solver" / "core").glob("*.p[yx][xi]")):
        offences += [f"{path.relative_to(ROOT)}:{line}: {word}" for line, word in core_spellings(path.read_text())]
    assert not offences, "\n".join(offences)


PLANTED = {
    "a game name held in a module constant": 'ELFERN = "elfern"\nif deal.game == ELFERN: pass',
    "a game in a message's word": 'GAME = "scharwenzel"',
    "isinstance on a layout class": "if isinstance(spec.layout, Piles): pass",
    "match/case on a name": 'match deal.game:\n    case "scharwenzel": pass',
    "startswith": 'if name.startswith("schafkopf"): pass',
    "a layout's kind": 'if kind == "stock": pass',
    "an option of one game": 'x = options.get("mariage")',
    "an outcome level's name": 'if rung.level in ("tout", "schwarz"): pass',
    "a dict keyed by game names": 'SIZES = {"elfern": 20, "einwerfen": 8}',
    "an import of a game module": "from stich.games import scharwenzel",
}


@pytest.mark.parametrize("code", list(PLANTED.values()), ids=list(PLANTED))
def test_the_test_sees_every_planted_spelling(code):
    assert spellings(ast.parse(code))


def test_the_core_test_sees_a_game_in_a_comment():
    assert core_spellings("cdef int x = 1   # as in Elfern's follow phase")
    assert not core_spellings("cdef int stock_len   # the stock, a mechanism of the core")


# --- a layout's sizes are data ------------------------------------------------------------------

def _toy(monkeypatch, name, base, layout):
    """``base`` with another layout, registered as game ``name`` (no other code changes)."""
    from dataclasses import replace

    from stich.games import GAMES
    game = replace(GAMES[base], name=name,
                   build=lambda trump, options, players=2: replace(GAMES[base].build(trump, options, players),
                                                                   layout=layout, game=name),
                   layout=layout)
    monkeypatch.setitem(GAMES, name, game)
    return game


def test_four_piles_each_need_no_code(monkeypatch):
    from stich import loads, solve
    from stich.deals.dealing import random_deal
    from stich.games.layouts import Piles
    _toy(monkeypatch, "piles4", "schafkopf2", Piles(count=4))
    deal = random_deal("piles4", 3)
    assert [len(deal.piles[s]) for s in (1, 2)] == [4, 4]
    assert all(p.down is not None for s in (1, 2) for p in deal.piles[s])
    assert loads(deal.dump()) == deal
    assert len(deal.position().playable(0)) == 4
    result = solve(deal)
    assert len(result.line_tricks) == 8 and sum(result.totals) <= 120


def test_a_smaller_stock_hand_needs_no_code(monkeypatch):
    from stich import loads
    from stich.deals.dealing import random_deal
    from stich.games.layouts import Stock
    _toy(monkeypatch, "stock4", "elfern", Stock(hand=4))
    deal = random_deal("stock4", 5)
    assert [len(deal.hands[s]) for s in (1, 2)] == [4, 4] and len(deal.stock) == 24
    assert loads(deal.dump()) == deal
    position = deal.position()
    for _ in range(2):                      # a trick: each hand is refilled to four from the stock
        position.play(position.legal_moves()[0])
    assert [len(position.hands[s]) for s in (0, 1)] == [4, 4] and len(position.stock) == 22

"""TOML rule files: a game or a variant written as data, compiled into the same ``Game`` the
built-in games are.

A rule file names the building blocks (README "How to add a game"): the pack, card values,
the unit, permanent top trumps and the trump suit's order, the plain order, the follow rules,
the layout, the first leader, a last-trick bonus, the outcome thresholds, and options whose
choices override any of these blocks.  ``extends`` starts from another rule file.  Every
problem is a ``RuleFileError`` naming the file and the key, which the CLI shows as one line
with exit status 2.  ``find_game`` resolves a deal file's ``game`` (a name or a path).
"""

from __future__ import annotations

from pathlib import Path

from .base import Game
from .rulefile_compile import compile_game
from .rulefile_read import RULES_DIR, NoRuleFile, RuleFileError, _identity, _locate, read_data
from .rulefile_rows import summary

__all__ = ["RULES_DIR", "NoRuleFile", "RuleFileError", "builtin_rule_files", "compile_game", "find_game",
           "forget", "load_rule_file", "read_data", "register", "summary"]


def load_rule_file(path: str | Path) -> Game:
    """The game of a rule file (with its ``extends`` chain); messages name it as given."""
    path = Path(path)
    try:
        return compile_game(read_data(path), str(path), str(_identity(path)))
    except RecursionError:              # a value nested deeper than Python's stack
        raise RuleFileError("nested too deeply", None, str(path)) from None


# --- finding games --------------------------------------------------------------------------------

_LOADED: dict[Path, str] = {}


def register(games: dict[str, Game], path: str | Path) -> Game:
    """Load a rule file once and add its game to ``games`` (a name may not change meaning)."""
    real = _identity(Path(path))
    if real in _LOADED:
        return games[_LOADED[real]]
    game = load_rule_file(path)
    old = games.get(game.name)
    if old is not None and old.rule_file != game.rule_file:
        where = old.rule_file or "a built-in game"
        raise RuleFileError(f"the game name {game.name!r} is already taken by {where}", "name", str(path))
    games[game.name] = game
    _LOADED[real] = game.name
    return game


def forget(games: dict[str, Game], name: str) -> None:
    """Remove a rule file's game again (a test's toy game)."""
    games.pop(name, None)
    for path in [p for p, n in _LOADED.items() if n == name]:
        del _LOADED[path]


def find_game(games: dict[str, Game], ref: str, base_dir: Path | None = None) -> Game | None:
    """A deal file's ``game``: a known name, a built-in rule file's name, or a rule file path
    (relative to ``base_dir``, the deal file's folder).  None: no such game; ``NoRuleFile``:
    a path where there is no file; ``RuleFileError``: a bad rule file."""
    key = ref.strip().lower()
    if key in games:
        return games[key]
    path = _locate(ref.strip(), base_dir)
    if path is None:
        return None
    return register(games, path)


def builtin_rule_files() -> list[Path]:
    return sorted(RULES_DIR.glob("*.toml"))

"""Tactics: named playing advice that the study (``solver.study.tactic``) tests against
perfect play.  ``get(name)`` finds a built-in tactic; ``loader.load_file`` adds a user's."""

from __future__ import annotations

from . import elfern, schafkopf2, scharwenzel  # noqa: F401 - registers the built-in tactics
from .base import REGISTRY, Tactic, TacticError, View, make_view, tactic

__all__ = ["REGISTRY", "Tactic", "TacticError", "View", "builtin", "get", "make_view", "tactic"]


def builtin(game: str | None = None) -> list[Tactic]:
    """The built-in tactics (of one game), by name."""
    return [t for name, t in sorted(REGISTRY.items()) if game is None or t.game == game]


def get(name: str, extra: dict[str, Tactic] | None = None) -> Tactic:
    """A tactic by name: one of ``extra`` (a tactic file's) or a built-in one."""
    if extra and name in extra:
        return extra[name]
    if name in REGISTRY:
        return REGISTRY[name]
    known = sorted((extra or {}).keys()) + sorted(REGISTRY)
    raise TacticError(f"unknown tactic {name!r} (known: {', '.join(known)})")

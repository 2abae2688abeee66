"""Tactics: named playing advice that the study (``stich.study``) tests against perfect play.

A tactic sees what the mover sees (``view.PlayerView``); ``get(name)`` finds a built-in one,
``loader.load_file`` adds a user's, ``features`` describes the situation of a decision.
"""

from __future__ import annotations

import difflib

from stich.files.userfile import shown

from . import elfern, schafkopf2, scharwenzel  # noqa: F401 - registers the built-in tactics
from .base import DOUBLE_DUMMY, REGISTRY, Tactic, TacticError, tactic
from .view import FullView, HiddenCardError, PlayerView, Views

__all__ = ["DOUBLE_DUMMY", "REGISTRY", "FullView", "HiddenCardError", "PlayerView", "Tactic", "TacticError",
           "Views", "builtin", "get", "tactic"]


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
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    raise TacticError(f"unknown tactic {shown(name)} ({hint}stich tactic --list shows all {len(known)})")

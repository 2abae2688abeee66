"""Loading a user's tactics from a Python file (``stich tactic --tactic-file FILE.py``).

The file defines functions ``def name(view) -> cards | None`` and lists them in ``TACTICS``
(a dict name -> function, or a list of functions: their names are used); without
``TACTICS`` every public function decorated with ``stich.tactics.tactic`` or named in
``__all__`` counts.  ``FEATURES`` (a dict name -> ``function(view) -> value``) adds features
that ``stich tactic --by`` can break the tables down by.  See ``examples/my_tactic.py``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from stich.files.userfile import UserFileError, digest, load_module

from .base import REGISTRY, Tactic, TacticError

WHAT = "tactic file"


@dataclass(frozen=True)
class TacticFile:
    """What a tactic file defines: its tactics and its decision features, by name."""

    tactics: dict[str, Tactic]
    features: dict[str, Callable]


_CACHE: dict[tuple[str, str], TacticFile] = {}


def file_digest(path: str | Path) -> str:
    try:
        return digest(path, WHAT)
    except UserFileError as exc:
        raise TacticError(str(exc)) from None


def load_file(path: str | Path) -> TacticFile:
    """The tactics and features a file defines (cached per file content)."""
    path = Path(path)
    digest_ = file_digest(path)            # first: an unreadable name fails here, with its message
    key = (str(path.resolve()), digest_)
    if key not in _CACHE:
        _CACHE[key] = _load(path)
    return _CACHE[key]


def _load(path: Path) -> TacticFile:
    before = dict(REGISTRY)
    try:
        module = load_module(path, WHAT)
    except UserFileError as exc:
        raise TacticError(str(exc)) from None
    finally:
        registered = dict(REGISTRY)         # with the decorator while the file ran
        REGISTRY.clear()                    # a file's tactics do not become built-ins, nor
        REGISTRY.update(before)             # replace one
    found: dict[str, Tactic] = {}
    for name, t in registered.items():
        if name not in before or before[name] is not t:
            found[name] = t
    for name, function in _listed(module):
        if isinstance(function, Tactic):
            found[name] = function
            continue
        if not callable(function):
            raise TacticError(f"{path}: TACTICS[{name!r}] is not a function")
        found[name] = Tactic(name, None, function, inspect.getdoc(function) or "")
    if not found:
        raise TacticError(f"{path}: defines no tactic (add TACTICS = {{'name': function}})")
    taken = sorted(name for name in found if name in before and found[name] is not before[name])
    if taken:
        raise TacticError(f"{path}: {taken[0]} is the name of a built-in tactic (stich tactic "
                          f"--list): give the file's tactic a name of its own")
    return TacticFile(found, _features(module, path))


def _listed(module) -> list[tuple[str, object]]:
    listed = getattr(module, "TACTICS", None)
    if isinstance(listed, dict):
        return list(listed.items())
    if isinstance(listed, (list, tuple)):
        return [(getattr(f, "__name__", repr(f)), f) for f in listed]
    return [(n, getattr(module, n)) for n in getattr(module, "__all__", [])]


def _features(module, path: Path) -> dict[str, Callable]:
    features = getattr(module, "FEATURES", {})
    if not isinstance(features, dict) or not all(callable(f) for f in features.values()):
        raise TacticError(f"{path}: FEATURES must be a dict of name -> function(view)")
    return {str(name): f for name, f in features.items()}

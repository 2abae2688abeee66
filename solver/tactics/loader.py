"""Loading a user's tactics from a Python file (``stich tactic --tactic-file FILE.py``).

The file defines functions ``def name(view) -> cards | None`` and lists them in ``TACTICS``
(a dict name -> function, or a list of functions: their names are used); without
``TACTICS`` every public function decorated with ``solver.tactics.tactic`` or named in
``__all__`` counts.  See ``examples/my_tactic.py``.
"""

from __future__ import annotations

import hashlib
import inspect
from pathlib import Path

from solver.files.userfile import UserFileError, load_module

from .base import REGISTRY, Tactic, TacticError

_CACHE: dict[tuple[str, str], dict[str, Tactic]] = {}


def file_digest(path: str | Path) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as exc:
        raise TacticError(f"{path}: cannot read the tactic file: {exc.strerror}") from None


def load_file(path: str | Path) -> dict[str, Tactic]:
    """The tactics a file defines, by name (cached per file content)."""
    path = Path(path)
    key = (str(path.resolve()), file_digest(path))
    if key in _CACHE:
        return _CACHE[key]
    before = dict(REGISTRY)
    try:
        module = load_module(path, "tactic file")
    except UserFileError as exc:
        raise TacticError(str(exc)) from None
    found: dict[str, Tactic] = {}
    # tactics registered with the decorator while the file ran
    for name, t in REGISTRY.items():
        if name not in before or before[name] is not t:
            found[name] = t
    for name in [n for n in REGISTRY if n not in before]:
        del REGISTRY[name]                  # a file's tactics do not become built-ins
    listed = getattr(module, "TACTICS", None)
    if isinstance(listed, dict):
        items = list(listed.items())
    elif isinstance(listed, (list, tuple)):
        items = [(getattr(f, "__name__", repr(f)), f) for f in listed]
    else:
        items = [(n, getattr(module, n)) for n in getattr(module, "__all__", [])]
    for name, function in items:
        if isinstance(function, Tactic):
            found[name] = function
            continue
        if not callable(function):
            raise TacticError(f"{path}: TACTICS[{name!r}] is not a function")
        found[name] = Tactic(name, None, function, inspect.getdoc(function) or "")
    if not found:
        raise TacticError(f"{path}: defines no tactic (add TACTICS = {{'name': function}})")
    _CACHE[key] = found
    return found

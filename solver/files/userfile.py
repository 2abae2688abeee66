"""Running a user's Python file (``--predicate-file``, ``--tactic-file``) as a module.

One loader, so that every user file fails the same way: a ``UserFileError`` with one line
naming the file, what went wrong and, when the file itself raised, its line number.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from types import ModuleType


class UserFileError(ValueError):
    """A user's Python file cannot be read or raised while it ran."""


def load_module(path: str | Path, what: str) -> ModuleType:
    """Run ``path`` as a fresh module; ``what`` names the file's role in messages
    ("tactic file", "predicate file")."""
    path = Path(path)
    if not path.is_file():
        raise UserFileError(f"{path}: no such file (the {what})")
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    except OSError as exc:
        raise UserFileError(f"{path}: cannot read the {what}: {exc.strerror}") from None
    spec = importlib.util.spec_from_file_location(f"stich_user_{digest}", path)
    if spec is None or spec.loader is None:
        raise UserFileError(f"{path}: cannot load the {what} as Python")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - the user's file may raise anything
        raise UserFileError(f"{path}: loading the {what} raised {type(exc).__name__}"
                            f"{_line_in(path, exc)}: {exc}") from None
    return module


def _line_in(path: Path, exc: BaseException) -> str:
    """' (line N)' for the deepest frame of the traceback that lies in ``path``."""
    line = ""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == str(path):
            line = f" (line {tb.tb_lineno})"
        tb = tb.tb_next
    return line

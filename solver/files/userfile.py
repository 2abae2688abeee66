"""Reading the user's files: one bounded reader for every file stich is given, and one
loader for the Python ones (``--predicate``, ``--tactic-file``).

Every file goes through ``read_bytes``: a file that is not a regular file (a device, a pipe,
a directory) or is larger than its limit fails at once with one line, before anything is
read into memory beyond the limit.  A user's Python file fails the same way whatever goes
wrong: a ``UserFileError`` naming the file, what went wrong and, when the file itself raised,
its line number.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import sys
import types
from pathlib import Path
from types import ModuleType

from .interrupt import USER_RAISES, is_ctrl_c

MAX_BYTES = 1 << 20            # 1 MB: deal files, rule files, tactic and predicate files
MAX_KEY_PARTS = 64             # the dotted parts of one TOML key (a real file has 2 or 3)
MAX_NESTING = 64               # arrays and inline tables inside each other

# TOML's strings and comments (a dot or a bracket in them is no key's, no nesting's)
_STRINGS = re.compile(r'"""(?:[^\\"]++|\\.|"(?!""))*+"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]++|\\.)*+"|\'[^\'\n]*\'|#[^\n]*',
                      re.S)
_DOTTED = re.compile(rf"(?:[\w-]+[ \t]*\.[ \t]*){{{MAX_KEY_PARTS}}}")
_BRACKETS = re.compile(r"[\[\]{}]")


class UserFileError(ValueError):
    """A user's file cannot be read, is too large, or (Python) raised while it ran:
    ``path: problem`` (the path as the user gave it)."""

    def __init__(self, path: str | Path, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path, self.problem = str(path), problem


class NoSuchFile(UserFileError):
    """The file is not there (or its name cannot be one: too long, a file as a folder)."""


_MISSING = (errno.ENOENT, errno.ENOTDIR, errno.ENAMETOOLONG)


def read_bytes(path: str | Path, what: str, limit: int = MAX_BYTES) -> bytes:
    """The bytes of ``path`` (at most ``limit``); ``what`` names the file's role in messages
    ("rule file", "tactic file")."""
    name = os.fspath(path)                 # not Path(""), which is the current folder
    path = Path(name) if name else "''"
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except ValueError:                     # a NUL byte: no file has such a name
        raise NoSuchFile(path, f"no such file (its name holds a NUL byte) (the {what})") from None
    except OSError as exc:
        if exc.errno in _MISSING:
            reason = "no such file" if exc.errno == errno.ENOENT else (exc.strerror or "no such file")
            raise NoSuchFile(path, f"{reason} (the {what})") from None
        raise UserFileError(path, f"{exc.strerror or exc} (the {what})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UserFileError(path, f"not a regular file (the {what})")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UserFileError(path, f"cannot read the {what}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise UserFileError(path, f"the {what} is larger than {limit // (1 << 20)} MB")
    return b"".join(chunks)


def read_text(path: str | Path, what: str, limit: int = MAX_BYTES) -> str:
    """The text of ``path`` (UTF-8, at most ``limit`` bytes; a byte-order mark first, as some
    editors write, is dropped)."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserFileError(path, f"the {what} is not UTF-8 text (byte {exc.start})") from None


def digest(path: str | Path, what: str) -> str:
    """The SHA-256 of a user's file (what a resumable run checks it against)."""
    return hashlib.sha256(read_bytes(path, what)).hexdigest()


def load_module(path: str | Path, what: str) -> ModuleType:
    """Run ``path`` as a fresh module; ``what`` names the file's role in messages
    ("tactic file", "predicate file")."""
    path = Path(path)
    source = read_bytes(path, what)
    name = f"stich_user_{hashlib.sha256(source).hexdigest()[:12]}"
    module = types.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module        # what dataclasses and pickling look a module up by
    try:
        code = compile(source, str(path), "exec")
        exec(code, module.__dict__)  # noqa: S102 - running the user's own file is the point
    except USER_RAISES as exc:          # the user's file may raise anything, but Ctrl-C is Ctrl-C
        name, _, message = users_fault(exc).partition(": ")
        raise UserFileError(path, f"loading the {what} raised {name}{_line_in(path, exc)}"
                                  + (f": {message}" if message else "")) from None
    return module


def shown(value: object, width: int = 60) -> str:
    """A user's value in a message: its repr cut to ``width`` (its type if the repr raises)."""
    try:
        text = repr(value)
    except USER_RAISES as exc:
        if is_ctrl_c(exc):
            raise
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else text[:width - 3] + "..."


def raised(exc: BaseException, width: int = 200) -> str:
    """``Name: message`` of an exception a user's code raised (its message may fail too)."""
    try:
        message = str(exc)
    except USER_RAISES as inner:
        if is_ctrl_c(inner):
            raise
        message = "(its message cannot be shown)"
    text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return text if len(text) <= width else text[:width - 3] + "..."


def users_fault(exc: BaseException) -> str:
    """``raised(exc)`` of what a user's code raised, to be reported as its file's fault; a real
    Ctrl-C is no fault of the file and goes on up (``stich.files.interrupt``)."""
    if is_ctrl_c(exc):
        raise exc
    return raised(exc)


def _line_in(path: Path, exc: BaseException) -> str:
    """' (line N)' for the deepest frame of the traceback that lies in ``path``."""
    if isinstance(exc, SyntaxError) and exc.lineno:
        return f" (line {exc.lineno})"
    line = ""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == str(path):
            line = f" (line {tb.tb_lineno})"
        tb = tb.tb_next
    return line


def toml_shape_problem(text: str) -> str | None:
    """Why ``text`` must not be given to ``tomllib``, or None.  tomllib's time and memory grow
    with the square of a dotted key's parts (8,000 parts: 4 s and 264 MB; 50,000: gigabytes)
    and it recurses into nesting, so both are capped by this linear scan first."""
    bare = _STRINGS.sub("s", text)
    if _DOTTED.search(bare):
        return f"a key of more than {MAX_KEY_PARTS} dotted parts: not a stich file"
    depth = deepest = 0
    for bracket in _BRACKETS.finditer(bare):
        depth = depth + 1 if bracket.group() in "[{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    if deepest > MAX_NESTING:
        return f"arrays or tables nested more than {MAX_NESTING} deep: not a stich file"
    return None

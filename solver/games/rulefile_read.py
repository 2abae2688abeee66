"""Reading a rule file: its TOML with the ``extends`` chain merged in, every key checked
against the schema; every problem a ``RuleFileError`` naming the file and the key."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

from stich.files.userfile import NoSuchFile, UserFileError, read_text, toml_shape_problem

from .base import OptionError

RULES_DIR = Path(__file__).with_name("rules")

# every key a rule file may have: table -> its keys (None: any key, checked by its reader)
SCHEMA: dict[str, Any] = {
    "name": None, "title": None, "sources": None, "extends": None, "notation": None,
    "players": None,
    "pack": {"ranks": None, "suits": None},
    "values": None,
    "play": {"unit": None, "trump": None, "trump_suit": None, "top_trumps": None,
             "trump_order": None, "plain_order": None, "follow": None, "must_trump": None,
             "must_beat": None, "stock_follow": None, "beat": None, "first_leader": None,
             "last_trick": None},
    "layout": {"kind": None, "piles": None, "hand": None},
    "outcome": {"win": None, "score": None, "tie": None, "simple": None, "levels": None},
    "options": None,
    "view": {"other_hands": None, "face_down": None, "stock": None, "why": None},
}


class RuleFileError(OptionError):
    """A bad rule file: ``source: key: message`` on one line."""

    def __init__(self, message: str, key: str | None = None, source: str | None = None):
        super().__init__(message)
        self.message, self.key, self.source = message, key, source

    def __str__(self) -> str:
        return ": ".join(p for p in (self.source, self.key, self.message) if p)


class NoRuleFile(RuleFileError):
    """No rule file at the path given (``source``)."""


# --- reading and merging ------------------------------------------------------------------------

def _merge(base: dict, over: dict) -> dict:
    """``over`` on ``base``, table by table (a list or a value replaces)."""
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _read_toml(path: Path) -> dict:
    """The table of a rule file, read with the limit of every user file."""
    try:
        text = read_text(path, "rule file")
    except NoSuchFile as exc:
        raise NoRuleFile(exc.problem, None, str(path)) from None
    except UserFileError as exc:
        raise RuleFileError(exc.problem, None, str(path)) from None
    problem = toml_shape_problem(text)
    if problem:
        raise RuleFileError(problem, None, str(path))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleFileError(f"TOML syntax error: {exc}", None, str(path)) from None
    except RecursionError:
        raise RuleFileError("TOML nested too deeply", None, str(path)) from None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:                     # a name too long for the file system is no file
        return False


def _identity(path: Path) -> Path:
    """The file itself, whatever path names it: what cycles and loading once are judged by."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):   # a loop of symbolic links, a NUL byte
        return path.absolute()


def _locate(ref: str, base_dir: Path | None) -> Path | None:
    """A rule file by path (relative to ``base_dir``) or by name in the built-in rules."""
    if ref.endswith(".toml") or "/" in ref or "\\" in ref:
        path = Path(ref)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        return path
    builtin = RULES_DIR / f"{ref.strip().lower()}.toml"
    return builtin if _is_file(builtin) else None


def read_data(path: Path, seen: tuple = ()) -> dict:
    """The rule file's table with its ``extends`` chain merged in (the file's own keys win).
    Messages name each file by the path the user wrote (an ``extends`` relative to its file)."""
    shown, real = str(path), _identity(path)
    if real in seen:
        raise RuleFileError("extends itself (a cycle of extends)", "extends", shown)
    data = _read_toml(path)
    _check_keys(data, SCHEMA, "", shown)
    if "extends" in data:
        ref = data["extends"]
        if not isinstance(ref, str) or not ref.strip():
            raise RuleFileError("must be a rule file name or path", "extends", shown)
        base_path = _locate(ref, path.parent)
        if base_path is None:
            raise RuleFileError(f"no rule file {ref!r:.80} (a path, or a name in {RULES_DIR})",
                                "extends", shown)
        try:
            base = read_data(base_path, seen + (real,))
        except NoRuleFile as exc:
            if exc.source != str(base_path):
                raise
            raise RuleFileError(f"{base_path}: {exc.message}", "extends", shown) from None
        except RuleFileError as exc:        # the target's problem, under the file the user gave
            raise RuleFileError(str(exc), "extends", shown) from None
        own_sources = data.get("sources", [])
        data = _merge({k: v for k, v in base.items() if k not in ("name", "title")}, data)
        if isinstance(own_sources, list):
            data["sources"] = list(own_sources) + [s for s in base.get("sources", [])
                                                   if s not in own_sources]
        data.pop("extends", None)
    return data


def _check_keys(data: dict, schema: dict, prefix: str, source: str) -> None:
    for key, value in data.items():
        if key not in schema:
            known = ", ".join(schema)
            raise RuleFileError(f"unknown key (known: {known})", prefix + key, source)
        sub = schema[key]
        if isinstance(sub, dict):
            if not isinstance(value, dict):
                raise RuleFileError(f"must be a table ([{prefix + key}])", prefix + key, source)
            _check_keys(value, sub, prefix + key + ".", source)

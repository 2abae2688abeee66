"""Fuzzing every other kind of user file: rule files (and their ``extends``), deal
files with hidden cards, tactic files and predicate files.  Each mutated file is given to the
commands that read it; each must exit 2 with one line naming what is wrong, or answer.

A rule file is mutated key by key (wrong types, numbers out of range, unknown keys, an
``extends`` of another file, of itself, of a device) and read by ``stich rules``, dealt from and
solved through a deal file's ``game = "FILE"``.  Tactic and predicate files are written from
pieces: what the function returns or raises (a real Ctrl-C excepted: ``KeyboardInterrupt``,
``SystemExit``, any ``BaseException``, objects whose ``repr`` or ``==`` raise, generators that
raise) and what the module defines.
"""

from __future__ import annotations

import hashlib
import tempfile
import tomllib
from pathlib import Path

import pytest
from fuzzing import (
    EXAMPLES,
    LONG,
    NUMBERS,
    QUICK,
    WRONG_VALUES,
    check_contract,
    key_paths,
    mutate_deal,
    property_test,
    put,
    toml_text,
)
from hypothesis import strategies as st

from stich.games.rulefile import RULES_DIR

RULE_GAMES = ["officers_skat", "einwerfen", "bohemian_schneider"]
RULE_DATA = {name: tomllib.loads((RULES_DIR / f"{name}.toml").read_text(encoding="utf-8")) for name in RULE_GAMES}
PLAYED = {name: (EXAMPLES / f"{name}-played.toml").read_text(encoding="utf-8") for name in RULE_GAMES}
HIDDEN = {path.name: path.read_text(encoding="utf-8") for path in sorted((EXAMPLES / "hidden").glob("*.toml"))}
ENDINGS = [str(EXAMPLES / "scharwenzel-ending.toml"), str(EXAMPLES / "elfern-ending.toml")]


def folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="stich-fuzz-"))


# --- rule files ------------------------------------------------------------------------------------------

RULE_WORDS = st.sampled_from(["suit", "free", "named", "fixed", "none", "hands", "piles", "stock", "higher",
                              "next_higher", "tricks", "points", "honours", "A K Q J 10 9 8 7", "A K", "A A",
                              "CJ SJ HJ DJ", "T7", "TZ", "clubs", "clubs clubs", "german", "french", "x y z"])
RULE_VALUES = st.one_of(WRONG_VALUES, NUMBERS, RULE_WORDS, st.lists(st.integers(-5, 200), max_size=3),
                        st.lists(st.dictionaries(st.sampled_from(["name", "score", "loser_at_most",
                                                                  "winner_at_least", "loser_no_trick", "z"]),
                                                 NUMBERS | RULE_WORDS | st.booleans(), max_size=4), max_size=3))
PLAUSIBLE = st.one_of(st.integers(0, 130), st.booleans(), RULE_WORDS)
EXTENDS = st.sampled_from(["einwerfen", "officers_skat", "nothere", "nothere.toml", "/dev/zero", "/dev/null",
                           "rules.toml", "a" * 300 + ".toml", "", "../x.toml"])


@st.composite
def mutated_rule_files(draw) -> tuple[str, dict]:
    game = draw(st.sampled_from(RULE_GAMES))
    data = tomllib.loads(toml_text(RULE_DATA[game]))            # a deep copy
    data["name"] = "fuzzgame"                                   # no clash with the built-in game
    for _ in range(draw(st.integers(0, 2))):
        paths = key_paths(data)
        kind = draw(st.sampled_from(["value", "value", "plausible", "plausible", "drop", "unknown", "extends"]))
        if kind in ("value", "plausible") and paths:
            put(data, draw(st.sampled_from(paths)), draw(RULE_VALUES if kind == "value" else PLAUSIBLE))
        elif kind == "drop" and paths:
            path = draw(st.sampled_from(paths))
            target = data
            for part in path[:-1]:
                target = target[part]
            del target[path[-1]]
        elif kind == "unknown":
            tables = [()] + [p for p in paths if isinstance(_at(data, p), dict)]
            put(data, draw(st.sampled_from(tables)) + (draw(st.text(max_size=6)),), draw(RULE_VALUES))
        elif kind == "extends":
            data["extends"] = draw(EXTENDS)
    return game, data


def _at(data, path):
    for part in path:
        data = data[part]
    return data


def prop_rule_file(case: tuple[str, dict]) -> None:
    game, data = case
    where = folder()
    rules = where / "rules.toml"
    try:
        rules.write_text(toml_text(data), encoding="utf-8")
    except TypeError:                       # a key path into a list the writer cannot spell
        return
    deal = where / "deal.toml"
    deal.write_text(PLAYED[game].replace(f'game = "{game}"', 'game = "rules.toml"'), encoding="utf-8")
    check_contract(["rules", rules])
    check_contract(["solve", deal, "--node-limit", "30000", "--json"], answers=(0, 5))
    check_contract(["deal", "--game", rules, "--json", "--max-tries", "5"])


# --- deal files with hidden cards --------------------------------------------------------------------------

HIDDEN_KEYS = ["seat", "unknown", "stock", "play", "taken", "leader", "zzz", "players"]


@st.composite
def mutated_hidden_files(draw) -> bytes:
    text = HIDDEN[draw(st.sampled_from(sorted(HIDDEN)))]
    if draw(st.integers(0, 3)) == 0:                # now and then the file as it is
        return text.encode("utf-8")
    return mutate_deal(draw, tomllib.loads(text), HIDDEN_KEYS)


def prop_hidden_file(data: bytes, seat: int | None, exact: bool) -> None:
    path = folder() / "hidden.toml"
    path.write_bytes(data)
    how = ["--exact"] if exact else ["--samples", "3", "--seed", "1"]
    seat_args = ["--seat", str(seat)] if seat is not None else []
    check_contract(["suggest", path, *how, *seat_args, "--jobs", "1", "--node-limit", "30000", "--json"],
                   answers=(0, 5))


# --- tactic files and predicate files -------------------------------------------------------------------

PIECES = '''
from stich.tactics import tactic


class Boom(BaseException):
    pass


class Weird:
    def __repr__(self):
        raise ValueError("no repr")

    def __eq__(self, other):
        raise ValueError("no ==")

    __hash__ = None

    def __bool__(self):
        raise KeyboardInterrupt


class Loud(Exception):
    def __str__(self):
        raise RuntimeError("no str")


def function(arg):
    {body}
'''
BODIES = st.sampled_from([
    "return None", "return []", "return arg.legal", "return arg.legal[:1]", "return list(arg.legal)[-1]",
    "return 5", "return 'EO'", "return [None]", "return {}", "return iter([])", "return (c for c in arg.legal[:1])",
    "return (1 / 0 for _ in [0])", "raise KeyboardInterrupt", "raise SystemExit(3)", "raise SystemExit",
    "raise ValueError('two\\nlines')", "raise RecursionError", "raise MemoryError", "raise GeneratorExit",
    "raise Boom()", "raise Loud()", "return arg.deal", "return arg.hand", "return Weird()", "return [Weird()]",
    "return function(arg)", "return arg.legal * 100", "return True", "return False", "return 0", "return 1",
    "return arg.unseen", "return arg.seen(5)", "return arg.may_hold(0)", "return 'x' * 10**6",
])
TACTIC_BODIES = st.sampled_from(["return None", "return arg.legal[:1]", "return [arg.legal[-1]]",
                                 "return [c for c in arg.legal if arg.is_trump(c)]",
                                 "return arg.legal[:1] if arg.is_lead else None"])
PREDICATE_BODIES = st.sampled_from(["return True", "return arg.players == 2", "return 1",
                                    "return len(arg.hands.get(1, ())) > 3", "return arg.trump_suit is None",
                                    "return not arg.stock"])
VALID_TAIL = st.just("TACTICS = {'t': function}\nFEATURES = {'f': lambda v: len(v.legal)}")
TACTIC_TAILS = st.sampled_from([
    "TACTICS = {'t': function}", "TACTICS = [function]", "TACTICS = 5", "TACTICS = {'t': 5}", "TACTICS = {}",
    "", "raise KeyboardInterrupt", "x = 1 / 0", "def (", "TACTICS = {'t': function}\nFEATURES = {'f': function}",
    "TACTICS = {'t': function}\nFEATURES = {'f': lambda v: {1}}", "TACTICS = {'t': function}\nFEATURES = 3",
    "TACTICS = {'t': function}\nFEATURES = {'f': lambda v: 1 / 0}", "tactic('t')(function)",
    "TACTICS = {'t': Weird()}", "raise Boom()",
])
PREDICATE_TAILS = st.sampled_from(["accept = function", "", "accept = 5", "raise KeyboardInterrupt", "def (",
                                   "accept = Weird()", "def accept():\n    return True", "raise SystemExit(0)"])


def prop_tactic_file(body: str, tail: str, name: str, by: bool, ending: str) -> None:
    path = folder() / f"t{hashlib.sha256((body + tail).encode()).hexdigest()[:8]}.py"
    path.write_text(PIECES.format(body=body) + "\n" + tail + "\n", encoding="utf-8")
    check_contract(["tactic", name, "--tactic-file", path, "--from", ending, "--jobs", "1",
                    *(["--by", "f"] if by else [])])


def prop_predicate_file(body: str, tail: str, game: str) -> None:
    path = folder() / f"p{hashlib.sha256((body + tail).encode()).hexdigest()[:8]}.py"
    path.write_text(PIECES.format(body=body) + "\n" + tail + "\n", encoding="utf-8")
    check_contract(["deal", "--game", game, "--predicate", path, "--max-tries", "5", "--json"])


PROPERTIES = {
    "rule_file": (prop_rule_file, (mutated_rule_files(),)),
    "hidden_file": (prop_hidden_file, (mutated_hidden_files(), st.none() | st.none() | st.integers(-1, 9),
                                       st.booleans())),
    "tactic_file": (prop_tactic_file, (st.one_of(TACTIC_BODIES, BODIES), st.one_of(TACTIC_TAILS, VALID_TAIL),
                                       st.sampled_from(["t", "t", "t", "function", "x", "t*"]), st.booleans(),
                                       st.sampled_from(ENDINGS))),
    "predicate_file": (prop_predicate_file, (st.one_of(PREDICATE_BODIES, BODIES),
                                             st.one_of(PREDICATE_TAILS, st.just("accept = function")),
                                             st.sampled_from(["elfern", "einwerfen"]))),
}
QUICK_SHARE = {"rule_file": 2, "hidden_file": 1, "tactic_file": 1, "predicate_file": 1}


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz_files_quick(name):
    property_test(*PROPERTIES[name], QUICK, QUICK_SHARE[name])()


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz_files_long(name):
    property_test(*PROPERTIES[name], LONG)()

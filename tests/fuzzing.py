"""What the fuzz tests share: the contract every input must meet, the settings of the quick and
the long run, the TOML writer for mutated data and the strategies of wrong values.

The contract (README "Commands"): bad input exits 2 with exactly one line on standard error,
``stich: ...``; anything else is an answer with one of the exit statuses the command may give
(never 1, never a traceback).  Every run is isolated: a rule file a case registers and the
environment a ``--rules-file`` sets are undone afterwards, so that no case sees another's game.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stich.cli.main import main
from stich.games import GAMES, RULES_FILES_ENV
from stich.games.rulefile import forget

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

QUICK = settings(max_examples=int(os.environ.get("STICH_FUZZ_QUICK", 60)), derandomize=True, deadline=None,
                 suppress_health_check=list(HealthCheck), database=None)
LONG = settings(max_examples=int(os.environ.get("STICH_FUZZ_EXAMPLES", 2000)), deadline=None,
                suppress_health_check=list(HealthCheck))


def property_test(prop: Callable, strategies: tuple, base: settings, share: int = 1) -> Callable:
    """``prop`` as a hypothesis test of ``share`` times ``base``'s examples."""
    return settings(base, max_examples=base.max_examples * share)(given(*strategies)(prop))


# --- the contract ------------------------------------------------------------------------------------

@contextlib.contextmanager
def isolated():
    """Undo what a run registered: rule-file games, and the environment of --rules-file."""
    games, env = set(GAMES), os.environ.get(RULES_FILES_ENV)
    try:
        yield
    finally:
        for name in set(GAMES) - games:
            forget(GAMES, name)
        if env is None:
            os.environ.pop(RULES_FILES_ENV, None)
        else:
            os.environ[RULES_FILES_ENV] = env


def invoke(args: list[str], data: bytes | None = None):
    with isolated():
        return CliRunner().invoke(main, [str(a) for a in args], input=data)


def check_contract(args: list, data: bytes | None = None, answers=(0,)):
    """Exit 2 with exactly one 'stich:' line on standard error, or an answer; the result."""
    result = invoke(args, data)
    where = f"stich {' '.join(map(str, args))} <<< {data[:200] if data else data!r}"
    assert "Traceback" not in result.output and "internal error" not in result.output, (where, result.output[-800:])
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("stich: "), (where, result.stderr[-800:])
        return result
    assert result.exit_code in answers, (where, result.exit_code, result.output[-800:],
                                         repr(result.exception))
    return result


# --- TOML written back from mutated data ------------------------------------------------------------

def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if value == value and value not in (float("inf"), float("-inf")) else "nan"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k), ensure_ascii=False)} = {toml_value(v)}"
                               for k, v in value.items()) + "}"
    raise TypeError(type(value))


def toml_text(data: dict) -> str:
    lines = [f"{json.dumps(str(k), ensure_ascii=False)} = {toml_value(v)}" for k, v in data.items()]
    return "\n".join(lines) + "\n"


def put(data: dict, path: tuple, value) -> None:
    target = data
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value


def key_paths(data: dict, prefix: tuple = ()) -> list[tuple]:
    """The path of every key of nested tables (lists of tables included)."""
    paths = []
    for key, value in data.items():
        paths.append(prefix + (key,))
        if isinstance(value, dict):
            paths += key_paths(value, prefix + (key,))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    paths += key_paths(item, prefix + (key, i))
    return paths


NESTED = st.recursive(st.integers() | st.text(max_size=5), lambda inner: st.lists(inner, max_size=2),
                      max_leaves=4)
WRONG_VALUES = st.one_of(
    st.integers(min_value=-2**70, max_value=2**70), st.booleans(), st.floats(allow_nan=False),
    st.text(max_size=30), st.just(""), st.just("x" * 100_000), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), NESTED,
    st.integers(1, 60).map(lambda depth: json.loads("[" * depth + "]" * depth)),
)
NUMBERS = st.one_of(st.integers(-3, 200), st.sampled_from([0, -1, 10**30, 2**63, 2**64 + 1]),
                    st.floats(allow_nan=False).map(str), st.sampled_from(["nan", "inf", "-inf", "1e400", "x", ""]))
CARD_TEXT = st.one_of(st.text(alphabet="♣♠♥♦CSHDEGRAKQJOUT0123456789/ xé\x00?", min_size=1, max_size=4),
                      st.text(max_size=4))


# --- mutated deal files ------------------------------------------------------------------------------

RULE_NAMES = st.sampled_from(sorted({o.name for g in GAMES.values() for o in g.options}) + ["fly", ""])
RULE_VALUES = st.one_of(st.sampled_from([True, False, "true", "false", "yes", 30, 29, 31, "schellen", "card17",
                                         "declarer", "forehand", "AKQ10", "A10KQ", "lines", "graded"]),
                        WRONG_VALUES)
NEW_KEYS = ["players", "leader", "taken", "trump", "cards", "declarer", "all_passed", "stock", "play",
            "piles", "hands", "rules", "zzz", "game", "announced", "won_trick"]


def card_fields(data: dict) -> list[tuple[tuple, str]]:
    """(path, text) of every string that holds cards."""
    fields = []
    for table in ("hands", "piles"):
        if not isinstance(data.get(table), dict):
            continue
        for seat, text in data[table].items():
            if isinstance(text, str):
                fields.append(((table, seat), text))
    for key in ("stock", "unknown"):
        if isinstance(data.get(key), str):
            fields.append(((key,), data[key]))
    if isinstance(data.get("play"), list):
        fields += [(("play", i), trick) for i, trick in enumerate(data["play"]) if isinstance(trick, str)]
    return fields


def _mutate_cards(draw, data: dict, kind: str) -> None:
    """Delete, duplicate, swap or corrupt one card of the file's card fields."""
    fields = card_fields(data)
    if not fields:
        return
    path, text = draw(st.sampled_from(fields))
    tokens = text.split()
    if not tokens:
        return
    i = draw(st.integers(0, len(tokens) - 1))
    if kind == "delete":
        del tokens[i]
    elif kind == "duplicate":
        other = draw(st.sampled_from(fields))[1].split() or tokens
        tokens.insert(draw(st.integers(0, len(tokens))), draw(st.sampled_from(other)))
    elif kind == "swap":
        path2, text2 = draw(st.sampled_from(fields))
        tokens2 = text2.split()
        if tokens2 and path2 != path:
            j = draw(st.integers(0, len(tokens2) - 1))
            tokens[i], tokens2[j] = tokens2[j], tokens[i]
            put(data, path2, " ".join(tokens2))
    else:
        tokens[i] = draw(CARD_TEXT)
    put(data, path, " ".join(tokens))


def mutate_deal(draw, data: dict, new_keys: list[str] = NEW_KEYS) -> bytes:
    """One to three mutations of a deal file's table, written back as TOML (now and then with
    junk bytes in it)."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "corrupt", "value", "drop_key",
                                     "new_key", "rule"]))
        if kind in ("delete", "duplicate", "swap", "corrupt"):
            _mutate_cards(draw, data, kind)
        elif kind == "value":
            keys = [(k,) for k in data] + [(t, s) for t in ("hands", "piles", "rules")
                                           if isinstance(data.get(t), dict) for s in data[t]]
            if keys:
                put(data, draw(st.sampled_from(keys)), draw(WRONG_VALUES))
        elif kind == "drop_key" and data:
            del data[draw(st.sampled_from(sorted(data)))]
        elif kind == "new_key":
            data[draw(st.sampled_from(new_keys))] = draw(
                WRONG_VALUES | st.sampled_from([2, 4, 6, 8, 1, "hearts", "rot", "german", [0, 0], [3, 200],
                                                True, ["EO"], {}, "einwerfen", "x.toml", "/dev/zero"]))
        elif kind == "rule":
            rules = data.setdefault("rules", {}) if isinstance(data.get("rules", {}), dict) else {}
            rules[draw(RULE_NAMES)] = draw(RULE_VALUES)
            data["rules"] = rules
    text = toml_text(data).encode("utf-8")
    if draw(st.booleans()) and draw(st.integers(0, 9)) == 0:            # bad bytes
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.binary(min_size=1, max_size=4)) + text[at:]
    return text

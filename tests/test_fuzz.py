"""Fuzzing the command line (issue 12, part 2): every input either exits 2 with one line on
standard error naming what is wrong, or gives an answer; small answers are checked against the
brute force of tests/reference.py.

The default run is bounded (a few hundred examples in all, derandomized so CI is stable);
`pytest -m fuzz` runs the same properties with many more random examples.  Every input that
ever failed is kept in tests/regressions/ and replayed by test_regressions.
"""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest
import reference
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver
from cli.main import main

ROOT = Path(__file__).resolve().parent.parent
REGRESSIONS = Path(__file__).resolve().parent / "regressions"
SEEDS = ["elfern-ending.toml", "schafkopf2-ending.toml", "scharwenzel-ending.toml", "scharwenzel-8.toml",
         "elfern-played.toml", "schafkopf2-played.toml"]
SEED_TEXTS = {name: (ROOT / "examples" / name).read_text(encoding="utf-8") for name in SEEDS}
SMALL = 14              # cards still in play up to which an answer is checked by brute force

QUICK = settings(max_examples=int(os.environ.get("STICH_FUZZ_QUICK", 60)), derandomize=True, deadline=None,
                 suppress_health_check=list(HealthCheck), database=None)
LONG = settings(max_examples=int(os.environ.get("STICH_FUZZ_EXAMPLES", 2000)), deadline=None,
                suppress_health_check=list(HealthCheck))


# --- the contract ------------------------------------------------------------------------------------

def invoke(args: list[str], data: bytes | None = None):
    return CliRunner().invoke(main, args, input=data)


def check_contract(args: list[str], data: bytes | None = None, answers=(0,)):
    """Exit 2 with one 'stich:' line (a --where may add its two-line pointer), or an answer."""
    result = invoke(args, data)
    where = f"stich {' '.join(args)} <<< {data[:200] if data else data!r}"
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert lines and lines[0].startswith("stich: "), (where, result.stderr)
        assert "internal error" not in result.stderr and "Traceback" not in result.output, where
        extra = lines[1:]
        assert not extra or (len(extra) == 2 and all(x.startswith("  ") for x in extra)), (where, lines)
        return None
    assert result.exit_code in answers, (where, result.exit_code, result.output[-800:],
                                         repr(result.exception))
    return result


def in_play(deal) -> int:
    position = deal.position()
    return sum(len(position.held(s)) for s in range(deal.players)) + len(position.stock)


def check_deal_text(data: bytes) -> None:
    """Solve a (mutated) deal from standard input; confirm a small answer by brute force."""
    result = check_contract(["solve", "-", "--json", "--objective", "total"], data)
    if result is None:
        return
    answer = json.loads(result.stdout)
    deal = solver.loads(data.decode("utf-8"))
    if deal.options.get("mariage") or in_play(deal) > SMALL:
        return
    ref = reference.solve(deal)
    assert tuple(answer["totals"]) == ref.totals, data
    moves = {m["card"]: tuple(m["totals"]) for m in answer["moves"]}
    assert moves == {card.text(deal.notation): totals for card, totals in ref.moves.items()}, data


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


NESTED = st.recursive(st.integers() | st.text(max_size=5), lambda inner: st.lists(inner, max_size=2),
                      max_leaves=4)
WRONG_VALUES = st.one_of(
    st.integers(min_value=-2**70, max_value=2**70), st.booleans(), st.floats(allow_nan=False),
    st.text(max_size=30), st.just(""), st.just("x" * 100_000), st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), NESTED,
    st.integers(1, 60).map(lambda depth: json.loads("[" * depth + "]" * depth)),
)
CARD_TEXT = st.one_of(st.text(alphabet="♣♠♥♦CSHDEGRAKQJOUT0123456789/ xé\x00", min_size=1, max_size=4),
                      st.text(max_size=4))


def card_fields(data: dict) -> list[tuple[tuple, str]]:
    """(path, text) of every string that holds cards."""
    fields = []
    for table in ("hands", "piles"):
        if not isinstance(data.get(table), dict):
            continue
        for seat, text in data[table].items():
            if isinstance(text, str):
                fields.append(((table, seat), text))
    for key in ("stock",):
        if isinstance(data.get(key), str):
            fields.append(((key,), data[key]))
    if isinstance(data.get("play"), list):
        fields += [(("play", i), trick) for i, trick in enumerate(data["play"]) if isinstance(trick, str)]
    return fields


def put(data: dict, path: tuple, value) -> None:
    target = data
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value


@st.composite
def mutated_deals(draw) -> bytes:
    name = draw(st.sampled_from(SEEDS))
    data = tomllib.loads(SEED_TEXTS[name])
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "corrupt", "value", "drop_key",
                                     "new_key", "rule", "layer"]))
        fields = card_fields(data)
        if kind in ("delete", "duplicate", "swap", "corrupt") and fields:
            path, text = draw(st.sampled_from(fields))
            tokens = text.split()
            if not tokens:
                continue
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
        elif kind == "value":
            keys = [(k,) for k in data] + [(t, s) for t in ("hands", "piles", "rules")
                                           if isinstance(data.get(t), dict) for s in data[t]]
            if not keys:
                continue
            put(data, draw(st.sampled_from(keys)), draw(WRONG_VALUES))
        elif kind == "drop_key" and data:
            del data[draw(st.sampled_from(sorted(data)))]
        elif kind == "new_key":
            key = draw(st.sampled_from(["players", "leader", "taken", "trump", "cards", "declarer",
                                        "all_passed", "stock", "play", "piles", "hands", "rules", "zzz"]))
            data[key] = draw(WRONG_VALUES | st.sampled_from([2, 4, 6, 8, 1, "hearts", "rot", "german",
                                                             [0, 0], [3, 200], True, ["EO"], {}]))
        elif kind == "rule":
            rules = data.setdefault("rules", {}) if isinstance(data.get("rules", {}), dict) else {}
            rules[draw(RULE_NAMES)] = draw(RULE_VALUES)
            data["rules"] = rules
    text = toml_text(data).encode("utf-8")
    if draw(st.booleans()) and draw(st.integers(0, 9)) == 0:            # bad bytes
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.binary(min_size=1, max_size=4)) + text[at:]
    return text


RULE_NAMES = st.sampled_from([o.name for g in solver.GAMES.values() for o in g.options] + ["fly", ""])
RULE_VALUES = st.one_of(st.sampled_from([True, False, "true", "false", "yes", 30, 29, 31, "schellen", "card17",
                                         "declarer", "forehand", "AKQ10", "A10KQ", "lines", "graded"]),
                        WRONG_VALUES)


# --- the properties --------------------------------------------------------------------------------

def prop_mutated_deal(data: bytes) -> None:
    check_deal_text(data)


def prop_bytes(name: str, at: int, junk: bytes, cut: bool) -> None:
    text = SEED_TEXTS[name].encode("utf-8")
    at = at % (len(text) + 1)
    check_deal_text(text[:at] + junk + (b"" if cut else text[at:]))


def prop_rule_option(name: str, rule: str) -> None:
    check_contract(["solve", str(ROOT / "examples" / name), "--objective", "total", "--rule", rule])


def prop_goal(goal: str) -> None:
    check_contract(["puzzle", str(ROOT / "examples" / "scharwenzel-ending.toml"), "--goal", goal],
                   answers=(0, 3, 4))


def prop_where(game: str, where: str) -> None:
    check_contract(["deal", "--game", game, "--where", where, "--json", "--max-tries", "50"])


def prop_generate(spec: str, tmp: Path) -> None:
    from solver.analysis.batch import BatchError, parse_generate
    try:
        game, players, count, seed = parse_generate(spec)
    except BatchError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("--generate")
        return
    assert 1 <= count <= 100_000


def prop_card(text: str, notation: str) -> None:
    try:
        card = solver.parse_card(text, notation)
    except solver.model.cards.CardError as exc:
        assert "\n" not in str(exc)
        return
    assert solver.parse_card(card.text(notation), notation) == card
    assert solver.parse_card(str(card), notation) == card


GOALS = st.one_of(st.text(max_size=20), st.from_regex(r"(tricks|points|honours|total)\s*>=\s*-?\d{1,25}", fullmatch=True),
                  st.sampled_from(["win", "tout", "schwarz", "first", "schneider", "", ">=", "total>="]))
WHERE_WORDS = st.sampled_from(["seat", "seats", "1", "2", "1+3", "holds", "hold", "at", "least", "most",
                               "exactly", "a", "bare", "ten", "trumps", "hearts", "rot", "honours", "points",
                               "and", "or", "not", "(", ")", "no", "♥A", "EO", "top", "3", "up", "down",
                               "between", "matadors", "99999999999999999999", "aces", "none", "of"])
WHERES = st.one_of(st.lists(WHERE_WORDS, max_size=12).map(" ".join), st.text(max_size=30))
GENERATES = st.one_of(st.text(max_size=20), st.from_regex(r"[a-z0-9]{0,14}:-?\d{0,25}(:-?\d{0,25})?", fullmatch=True))
RULES = st.one_of(st.builds(lambda n, v: f"{n}={v}", RULE_NAMES, st.text(max_size=10) | RULE_VALUES.map(str)),
                  st.text(max_size=15))

PROPERTIES = {
    "mutated_deal": (prop_mutated_deal, (mutated_deals(),)),
    "bytes": (prop_bytes, (st.sampled_from(SEEDS), st.integers(0, 10_000),
                           st.binary(max_size=8), st.booleans())),
    "rule_option": (prop_rule_option, (st.sampled_from(SEEDS[:3]), RULES)),
    "goal": (prop_goal, (GOALS,)),
    "where": (prop_where, (st.sampled_from(["scharwenzel", "schafkopf2", "elfern"]), WHERES)),
    "generate": (prop_generate, (GENERATES, st.just(Path(".")))),
    "card": (prop_card, (CARD_TEXT, st.sampled_from(["french", "german"]))),
}
# a few hundred examples in the default run: (property, share of QUICK's examples)
QUICK_SHARE = {"mutated_deal": 3, "bytes": 1, "rule_option": 1, "goal": 1, "where": 1, "generate": 1, "card": 2}


def _test(name: str, base: settings, share: int = 1):
    prop, strategies = PROPERTIES[name]
    chosen = settings(base, max_examples=base.max_examples * share)
    return chosen(given(*strategies)(prop))


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz_quick(name):
    _test(name, QUICK, QUICK_SHARE[name])()


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz_long(name):
    _test(name, LONG)()


# --- every input that ever failed ------------------------------------------------------------------

REGRESSION_FILES = sorted(REGRESSIONS.glob("*.json"))


def test_there_are_regressions_to_replay():
    assert REGRESSION_FILES


@pytest.mark.parametrize("path", REGRESSION_FILES, ids=lambda p: p.stem)
def test_regressions(path):
    """Each file: {"why": ..., "args": [...], "input": text or null, "answers": [...]}; a
    "deal" instead of "args" is solved from standard input and checked by brute force."""
    case = json.loads(path.read_text(encoding="utf-8"))
    if "deal" in case:
        check_deal_text(case["deal"].encode("utf-8", "surrogateescape"))
    else:
        args = [a.replace("{examples}", str(ROOT / "examples")) for a in case["args"]]
        data = None if case.get("input") is None else case["input"].encode("utf-8")
        check_contract(args, data, tuple(case.get("answers", [0])))

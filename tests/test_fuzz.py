"""Fuzzing deal files and the options read with them: every input
either exits 2 with one line on standard error naming what is wrong, or gives an answer; small
answers are checked against the brute force of tests/reference.py.

The default run is bounded (a few hundred examples in all, derandomized so CI is stable);
`pytest -m fuzz` runs the same properties with many more random examples.  Rule files, hidden
deal files, tactic and predicate files are fuzzed in test_fuzz_files.py, every command in
test_fuzz_commands.py.  Every input that ever failed is kept in tests/regressions/ and replayed
by test_regressions.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import reference
from fuzzing import (
    CARD_TEXT,
    LONG,
    QUICK,
    RULE_NAMES,
    RULE_VALUES,
    check_contract,
    mutate_deal,
    property_test,
)
from hypothesis import strategies as st

import stich

ROOT = Path(__file__).resolve().parent.parent
REGRESSIONS = Path(__file__).resolve().parent / "regressions"
SEEDS = ["elfern-ending.toml", "schafkopf2-ending.toml", "scharwenzel-ending.toml", "scharwenzel-8.toml",
         "elfern-played.toml", "schafkopf2-played.toml"]
SEED_TEXTS = {name: (ROOT / "examples" / name).read_text(encoding="utf-8") for name in SEEDS}
SMALL = 14              # cards still in play up to which an answer is checked by brute force


def in_play(deal) -> int:
    position = deal.position()
    return sum(len(position.held(s)) for s in range(deal.players)) + len(position.stock)


def check_deal_text(data: bytes) -> None:
    """Solve a (mutated) deal from standard input; confirm a small answer by brute force."""
    result = check_contract(["solve", "-", "--json", "--objective", "total"], data)
    if result.exit_code == 2:
        return
    answer = json.loads(result.stdout)
    deal = stich.loads(data.decode("utf-8"))
    if deal.options.get("mariage") or in_play(deal) > SMALL:
        return
    ref = reference.solve(deal)
    assert tuple(answer["totals"]) == ref.totals, data
    moves = {m["card"]: tuple(m["totals"]) for m in answer["moves"]}
    assert moves == {card.text(deal.notation): totals for card, totals in ref.moves.items()}, data


@st.composite
def mutated_deals(draw) -> bytes:
    return mutate_deal(draw, tomllib.loads(SEED_TEXTS[draw(st.sampled_from(SEEDS))]))


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
    from stich.analysis.batch import BatchError, parse_generate
    try:
        game, players, count, seed = parse_generate(spec)
    except BatchError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("--generate")
        return
    assert 1 <= count <= 100_000


def prop_card(text: str, notation: str) -> None:
    try:
        card = stich.parse_card(text, notation)
    except stich.model.cards.CardError as exc:
        assert "\n" not in str(exc)
        return
    assert stich.parse_card(card.text(notation), notation) == card
    assert stich.parse_card(str(card), notation) == card


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


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz_quick(name):
    property_test(*PROPERTIES[name], QUICK, QUICK_SHARE[name])()


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz_long(name):
    property_test(*PROPERTIES[name], LONG)()


# --- every input that ever failed ------------------------------------------------------------------

REGRESSION_FILES = sorted(REGRESSIONS.glob("*.json"))


def test_there_are_regressions_to_replay():
    assert REGRESSION_FILES


@pytest.mark.parametrize("path", REGRESSION_FILES, ids=lambda p: p.stem)
def test_regressions(path, tmp_path):
    """Each file: {"why": ..., "args": [...], "input": text or null, "answers": [...], "files":
    {name: text}, "says": [...], "json": true}; the files are written to a fresh folder, which
    "{tmp}" in "args" names; "says": bad input whose one line holds each of these words;
    "json": the answer prints a JSON object.  A "deal" instead of "args" is solved from
    standard input and checked by brute force."""
    case = json.loads(path.read_text(encoding="utf-8"))
    if "deal" in case:
        check_deal_text(case["deal"].encode("utf-8", "surrogateescape"))
        return
    for name, text in case.get("files", {}).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    args = [a.replace("{examples}", str(ROOT / "examples")).replace("{tmp}", str(tmp_path))
            for a in case["args"]]
    data = None if case.get("input") is None else case["input"].encode("utf-8")
    result = check_contract(args, data, tuple(case.get("answers", [0])))
    for word in case.get("says", []):
        assert result.exit_code == 2 and word in result.stderr, (word, result.stderr)
    if case.get("json"):
        assert isinstance(json.loads(result.stdout), dict)

"""Fuzzing every command: each of the twelve is run on mutated deal files (or, for
``deal``, ``rules`` and ``bench``, on mutated arguments) with options drawn from what it takes,
good and bad.  Each run must exit 2 with one line naming what is wrong, or answer.

Searches are kept short by a small ``--node-limit`` (drawn, so huge and bad ones are tried
too); an answer cut short by it exits 5, which counts as an answer.  ``stich explore`` would
serve until Ctrl-C: its server is a stub that returns, so a run checks everything up to serving.
``stich bench`` runs a fixed set for seconds: its one free-form input, ``--off``, is checked
through the function that reads it, and a bad one through the command.
"""

from __future__ import annotations

import tempfile
import tomllib
from pathlib import Path
from unittest import mock

import pytest
from fuzzing import (
    EXAMPLES,
    LONG,
    NUMBERS,
    QUICK,
    RULE_NAMES,
    RULE_VALUES,
    check_contract,
    mutate_deal,
    property_test,
)
from hypothesis import strategies as st

from stich.cli.main import main
from stich.games import GAMES

SEEDS = ["scharwenzel-ending.toml", "elfern-ending.toml", "schafkopf2-ending.toml", "schafkopf2-mariage.toml",
         "schafkopf2-played.toml", "scharwenzel-played.toml", "einwerfen-played.toml",
         "officers_skat-played.toml", "bohemian_schneider-played.toml"]
SEED_TEXTS = {name: (EXAMPLES / name).read_text(encoding="utf-8") for name in SEEDS}
ANSWERS = {"puzzle": (0, 3, 4, 5)}          # else 0 or 5 (a limit was reached)

NUMBER = st.one_of(st.integers(1, 50).map(str), NUMBERS.map(str))       # good ones half of the time
RULES = st.builds(lambda n, v: f"{n}={v}", RULE_NAMES, RULE_VALUES.map(str)) | st.text(max_size=8)
COMMON = {
    "--objective": st.sampled_from(["score", "total", "x"]),
    "--rule": RULES,
    "--tt-mb": st.sampled_from(["1", "4", "8", "0", "x", "99999999"]),
    "--time-limit": st.sampled_from(["0.05", "0.2", "0", "nan", "inf", "-1", "x"]),
    "--node-limit": NUMBER,
}
OWN = {
    "solve": {}, "table": {},
    "analyze": {"--expand": None, "--all-seats": None},
    "puzzle": {"--goal": st.sampled_from(["win", "tout", "schwarz", "schneider", "first", "tricks>=2",
                                          "total>=99999999999", "x", ""]), "--side": NUMBER},
    "replay": {"--view": st.sampled_from(["player", "double-dummy", "x"]), "--samples": NUMBER, "--seed": NUMBER,
               "--jobs": st.sampled_from(["1", "0"])},
    "suggest": {"--seat": NUMBER, "--samples": st.sampled_from(["1", "3", "0", "x"]), "--seed": NUMBER,
                "--jobs": st.sampled_from(["1", "0"])},
    "batch": {"--no-moves": None, "--quiet": None, "--fsync": st.sampled_from(["line", "end", "x"]),
              "--jobs": st.sampled_from(["1", "0"])},
    "tactic": {"--first": None, "--seed": NUMBER, "--by": st.sampled_from(["trick", "lead", "x"]),
               "--view": st.sampled_from(["player", "double-dummy"]), "--samples": st.sampled_from(["1", "2", "0"]),
               "--cx-count": NUMBER, "--until-width": NUMBER},
    "explore": {"--port": NUMBER, "--seed": NUMBER, "--samples": NUMBER, "--jobs": st.sampled_from(["1", "0"])},
}
FLAGS = {"--expand", "--all-seats", "--no-moves", "--quiet", "--first"}
OPTIONS_OF = {name: {opt for param in command.params for opt in param.opts}
              for name, command in main.commands.items()}
TACTICS = st.sampled_from(["scharwenzel.*", "elfern.*", "schafkopf2.*", "double_dummy.*", "nothing", "*"])


def folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="stich-fuzz-"))


@st.composite
def runs(draw) -> tuple[list[str], bytes]:
    """(arguments, the deal file's bytes): a command, its file, its options."""
    text = SEED_TEXTS[draw(st.sampled_from(SEEDS))]
    data = text.encode("utf-8") if draw(st.booleans()) else mutate_deal(draw, tomllib.loads(text))
    command = draw(st.sampled_from(sorted(OWN)))
    pool = {**{k: v for k, v in COMMON.items() if k in OPTIONS_OF[command]}, **OWN[command]}
    args = []
    for name in draw(st.lists(st.sampled_from(sorted(pool)), max_size=3, unique=True)):
        args += [name] if name in FLAGS else [name, draw(pool[name])]
    if "--node-limit" in OPTIONS_OF[command] and "--node-limit" not in args:
        args += ["--node-limit", str(draw(st.integers(1, 30_000)))]
    if command == "puzzle" and "--goal" not in args:
        args += ["--goal", "win"]
    if command == "suggest" and "--samples" not in args:
        args += ["--samples", "2"]
    if command in ("tactic", "suggest", "replay") and "--jobs" not in args:
        args += ["--jobs", "1"]            # workers of their own would only slow the fuzzing down
    if command == "tactic":
        args = [draw(TACTICS)] + args
    if draw(st.booleans()) and command not in ("batch", "tactic", "explore"):
        args.append("--json")
    return [command, *args], data


def prop_command(run: tuple[list[str], bytes]) -> None:
    (command, *args), data = run
    where = folder()
    path = where / "deal.toml"
    path.write_bytes(data)
    place = ["--from", str(path)] if command == "tactic" else [str(path)]
    if command == "batch":
        place += ["--out", str(where / "r.jsonl"), "--jobs", "1"]
    if command == "explore":
        place += ["--no-browser"]
    with mock.patch("stich.explore.server.serve", lambda *a, **k: None):
        check_contract([command, *place, *args], answers=ANSWERS.get(command, (0, 5)))


# --- deal, rules, bench ------------------------------------------------------------------------------------

GAME_NAMES = st.one_of(st.sampled_from(sorted(GAMES) + ["ELFERN", " elfern ", "einwerfen.toml", "x.toml",
                                                         "/dev/zero", "/dev/null", "a" * 300, "", "rules/x"]),
                       st.text(max_size=12))
DEAL_OPTIONS = {"--seed": NUMBER, "-n": st.sampled_from(["1", "2", "0", "100001", "x"]), "--players": NUMBER,
                "--trump": st.sampled_from(["hearts", "rot", "♣", "x", ""]),
                "--cards": st.sampled_from(["french", "german", "x"]), "--rule": RULES,
                "--where": st.sampled_from(["seat 1 holds a bare ten", "seat 1 holds (", "stock holds 3 cards",
                                            "seat 2 holds at least 4 trumps", "x"]),
                "--max-tries": st.sampled_from(["5", "0", "x", "99999999999"])}


@st.composite
def deal_runs(draw) -> list[str]:
    args = ["deal", "--game", draw(GAME_NAMES), "--json"]
    for name in draw(st.lists(st.sampled_from(sorted(DEAL_OPTIONS)), max_size=4, unique=True)):
        args += [name, draw(DEAL_OPTIONS[name])]
    if "--max-tries" not in args:
        args += ["--max-tries", "20"]
    return args


def prop_deal(args: list[str]) -> None:
    check_contract(args)


def prop_rules(name: str, as_json: bool) -> None:
    check_contract(["rules", name, *(["--json"] if as_json else [])])


def prop_bench_off(text: str) -> None:
    from stich.run.bench import CORE_SWITCH, parse_off
    try:
        off = parse_off(text)
    except ValueError as exc:
        assert "\n" not in str(exc)
        check_contract(["bench", "--off", text, "--quick"])        # refused before any deal is solved
        return
    assert set(off) <= set(CORE_SWITCH.values()) and not any(off.values())


OFF_WORDS = st.sampled_from(["tt", "merge", "bounds", "order", "lead", "canon", "cutoffs", "part", "etc", "x", ""])

PROPERTIES = {
    "command": (prop_command, (runs(),)),
    "deal": (prop_deal, (deal_runs(),)),
    "rules": (prop_rules, (GAME_NAMES, st.booleans())),
    "bench_off": (prop_bench_off, (st.one_of(st.lists(OFF_WORDS, max_size=4).map(",".join), st.text(max_size=10)),)),
}
QUICK_SHARE = {"command": 4, "deal": 1, "rules": 1, "bench_off": 1}


@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz_commands_quick(name):
    property_test(*PROPERTIES[name], QUICK, QUICK_SHARE[name])()


@pytest.mark.fuzz
@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_fuzz_commands_long(name):
    property_test(*PROPERTIES[name], LONG)()


def test_every_command_is_fuzzed():
    assert set(main.commands) == set(OWN) | {"deal", "rules", "bench"}

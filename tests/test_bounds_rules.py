"""The bounds without a search (core/bounds.pxi) against the search without them, under every
follow rule a rule file can ask for.

The brute-force cross-checks cover the shipped games' rules; a rule file may ask for others
(nobody bound to follow, a duty to trump or to beat, with two or four players).  Variants of
Einwerfen with each such rule deal small random endings, few suits so that trumps and voids
meet; each is solved with the bounds and without them, and the totals must agree (with a
wrong bound the totals differ, or the search contradicts itself and stops).
"""

from __future__ import annotations

import copy
import random
import tomllib

import pytest

import stich
from stich.core._search import Engine
from stich.games import GAMES
from stich.games.rulefile import RULES_DIR
from stich.games.rulefile_compile import compile_game

RULES = {"free": dict(follow="free"),
         "suit": dict(follow="suit"),
         "suit-trump": dict(follow="suit", must_trump=True),
         "suit-beat": dict(follow="suit", must_beat=True),
         "suit-trump-beat": dict(follow="suit", must_trump=True, must_beat=True)}
VALUES = {"A": 11, "K": 4, "O": 3, "U": 2, "10": 10}
CARDS = [suit + rank for suit in "EGRS" for rank in ("A", "K", "O", "U", "10", "9", "8", "7")]
DEALS = 300


@pytest.fixture(scope="module")
def variants():
    """Einwerfen with each follow rule of RULES, for two or four players, as games by name."""
    base = tomllib.loads((RULES_DIR / "einwerfen.toml").read_text(encoding="utf-8"))
    made = {}
    for name, play in RULES.items():
        data = copy.deepcopy(base)
        data["name"] = f"einwerfen_{name.replace('-', '_')}"
        data["players"] = [2, 4]
        data["play"].update(play)
        made[name] = (data["name"], compile_game(data, "<test>"))
    return made


def _ending(rng: random.Random, game: str) -> str:
    """A deal file of a random ending: 2 or 4 players, 2 to 5 cards each of two or three suits."""
    players = rng.choice([2, 4])
    size = rng.randint(2, 4 if players == 4 else 5)
    suits = rng.sample("EGRS", rng.randint(2, 3))
    cards = rng.sample([c for c in CARDS if c[0] in suits], players * size)
    rest = 120 - sum(VALUES.get(c[1:], 0) for c in cards)
    own = rng.randint(0, rest)
    hands = "\n".join(f'{seat + 1} = "{" ".join(cards[seat * size:(seat + 1) * size])}"'
                      for seat in range(players))
    return (f'game = "{game}"\ntrump = "rot"\nleader = {rng.randint(1, players)}\n'
            f'players = {players}\ntaken = [{own}, {rest - own}]\n[hands]\n{hands}\n')


@pytest.mark.parametrize("rule", list(RULES))
def test_the_bounds_agree_with_the_search_without_them(variants, monkeypatch, rule):
    name, game = variants[rule]
    monkeypatch.setitem(GAMES, name, game)
    rng = random.Random(f"bounds {rule}")
    for _ in range(DEALS):
        text = _ending(rng, name)
        totals = []
        for bounds in (False, True):
            engine = Engine()
            engine.switches(bounds=bounds)
            totals.append(stich.solve(stich.loads(text), objective="total", engine=engine,
                                      with_moves=False).totals)
        assert totals[0] == totals[1], f"without the bounds {totals[0]}, with them {totals[1]}:\n{text}"

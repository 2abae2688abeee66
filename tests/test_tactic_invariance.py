"""Advice is for players: a tactic may use only what the mover sees.

On at least 500 random decisions per game, every built-in tactic (and every tactic and
feature of examples/my_tactic.py) gives the same answer on every sampled layout of the
mover's information set: the layouts differ only in cards the mover cannot see.  The old
double-dummy bare ten, which counts the mover's own face-down cards, is kept to show that the
test can fail: it gives different advice on layouts the mover cannot tell apart.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from stich.deals.dealing import generate_deals
from stich.tactics import REGISTRY, builtin
from stich.tactics.features import describe
from stich.tactics.loader import load_file
from stich.tactics.view import full_view, player_view
from stich.view import count_layouts, information, sample_layouts

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = load_file(ROOT / "examples" / "my_tactic.py")
DECISIONS = 500
LAYOUTS = 3


def random_decisions(game: str, count: int, seed: int):
    """(deal after a random legal prefix, the mover's information set) at ``count`` decisions."""
    rng = random.Random(f"invariance:{game}:{seed}")
    found = 0
    for dealt in generate_deals(game, seed, 10 * count):
        deal = dealt.deal
        position = deal.position()
        plies = rng.randrange(position.tricks_left() * deal.players)
        played = []
        for _ in range(plies):
            played.append(rng.choice(position.legal_moves()))
            position.play(played[-1])
        if position.is_over() or len(position.legal_moves()) < 2:
            continue
        here = deal.after(played)
        yield here, information(here, position.to_move + 1)
        found += 1
        if found == count:
            return


def answers(view, tactics, extra_features) -> tuple:
    advice = tuple(t(view) for t in tactics)
    union = tuple(c for c in view.legal if any(c in (a or ()) for a in advice))
    return advice, tuple(sorted(describe(view, union, extra_features).items(), key=str))


@pytest.mark.parametrize("game", ["scharwenzel", "schafkopf2", "elfern"])
def test_every_tactic_gives_the_same_advice_on_every_layout_the_mover_cannot_tell_apart(game):
    tactics = [t for t in builtin(game) if not t.sees_all] + list(EXAMPLE.tactics.values())
    assert tactics
    checked = hidden = 0
    for here, info in random_decisions(game, DECISIONS, 1):
        seen = answers(player_view(here), tactics, EXAMPLE.features)
        count = count_layouts(info)
        for layout in sample_layouts(info, LAYOUTS, checked):
            assert answers(player_view(info.fill(layout)), tactics, EXAMPLE.features) == seen
        checked += 1
        hidden += count > 1
    assert checked == DECISIONS and hidden > DECISIONS // 2


def test_the_old_double_dummy_bare_ten_fails_the_same_test():
    old = REGISTRY["double_dummy.schafkopf2.bare_ten.lead_at_once"]
    new = REGISTRY["schafkopf2.bare_ten.lead_at_once"]
    differs = 0
    for here, info in random_decisions("schafkopf2", DECISIONS, 1):
        seen = old(full_view(here))
        for layout in sample_layouts(info, LAYOUTS, 0):
            filled = info.fill(layout)
            differs += old(full_view(filled)) != seen
            assert new(player_view(filled)) == new(player_view(here))
    assert differs > 0


def test_a_visible_bare_ten_is_advised_at_trick_1_in_every_deal_whose_ten_is_not_trump():
    """100 deals with "seat 1 up holds a bare ten"; seat 1 leads the first
    trick; the visible bare ten applies there exactly when that ten is not trump."""
    from stich.deals.constraints import parse_constraint
    tactic = REGISTRY["schafkopf2.bare_ten.lead_at_once"]
    accept = parse_constraint("seat 1 up holds a bare ten", "schafkopf2")
    plain = 0
    for dealt in generate_deals("schafkopf2", 7, 100, accept=accept):
        view = player_view(dealt.deal)
        assert view.seat == 0 and view.is_lead
        up = view.own()
        tens = [c for c in up if c.rank == 10 and len(view.same_suit(c, up)) == 1]
        plain_tens = [c for c in tens if not view.is_trump(c)]
        assert tens
        assert (tactic(view) is not None) == bool(plain_tens)
        plain += bool(plain_tens)
    assert plain > 50

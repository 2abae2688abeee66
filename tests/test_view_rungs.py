"""The player's view without the totals (``suggest(totals=False)``, ``--no-totals``).

Under the score objective a layout then needs only the outcome rung each card forces, found by
the ladder's conditions (``layout_rungs``), not each card's exact total.  Every card's rung,
level and optimality must be those of the full solve of the layout (``score_layout`` with the
totals), on positions of every game with a ladder, and the advice must agree with the one
computed with the totals in everything but the totals.
"""

from __future__ import annotations

import pytest
from randompositions import MODES, generate

from stich.deals.deal import loads
from stich.deals.dealing import random_deal
from stich.search.solve import new_engine
from stich.view import information
from stich.view.suggest import NO_LADDER, layout_rungs, score_layout, suggest


def without_totals(rows):
    return [(card, label, rank, optimal) for card, _, _, label, rank, optimal in rows]


def positions():
    """Random positions of every mode with a card to play (a generated one that is already
    over is left out: it has no choice to compare), and a whole deal of each game."""
    for mode in sorted(MODES):
        for seed in range(10):
            text = generate(mode, 5000 + seed, "large")
            if not loads(text, "<layout>").position().is_over():
                yield pytest.param(text, id=f"{mode}-{seed}")
    for game, seed in [("schafkopf2", 1), ("schafkopf2", 2), ("elfern", 3), ("officers_skat", 4),
                       ("einwerfen", 5), ("bohemian_schneider", 6)]:
        yield pytest.param(random_deal(game, seed).dump(), id=f"{game}-deal-{seed}")


@pytest.mark.parametrize("text", list(positions()))
def test_rungs_are_the_full_solves(text):
    deal = loads(text, "<layout>")
    position = deal.position()
    seat = position.to_move + 1
    rows = layout_rungs(deal, seat, new_engine(4), False)
    full = score_layout(text, seat, "score", 4)
    if rows is NO_LADDER:
        assert all(r[1] is not None for r in full)
        return
    assert without_totals(rows) == without_totals(full)
    assert all(r[1] is None and r[2] is None for r in rows)


@pytest.mark.parametrize("game,seed,plies", [("scharwenzel", 11, 20), ("schafkopf2", 12, 20),
                                             ("elfern", 13, 26), ("officers_skat", 14, 20)])
def test_advice_without_totals_agrees(game, seed, plies):
    """The same rungs and levels per card as with the totals; no totals shown.  P(dd best)
    follows the advice's order: without totals the rung alone, so a card is best on at least
    the layouts where it is best by rung and then total."""
    from stich.search.solve import solve
    deal = random_deal(game, seed)
    line = solve(deal).line
    here = deal.after(list(line[:plies]))
    info = information(here, here.position().to_move + 1)
    with_totals = suggest(info, samples=12, seed=2, objective="score", jobs=1, tt_megabytes=8,
                          totals="all")
    rungs_only = suggest(info, samples=12, seed=2, objective="score", jobs=1, tt_megabytes=8,
                         totals=False)

    def by_card(s):
        return {v.card: (v.mean_rank, v.levels) for v in s.advice.cards}

    assert by_card(rungs_only) == by_card(with_totals)
    best_with = {v.card: v.p_best for v in with_totals.advice.cards}
    assert all(v.p_best >= best_with[v.card] for v in rungs_only.advice.cards)
    assert all(v.mean is None and v.interval is None for v in rungs_only.advice.cards)
    best = max(v.mean_rank for v in with_totals.advice.cards)
    assert next(v for v in rungs_only.advice.cards if v.card == rungs_only.advice.best).mean_rank == best


def test_no_totals_needs_the_score_objective():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "stich.cli.main", "suggest",
                          "examples/hidden/schafkopf2-hidden.toml", "--objective", "total",
                          "--no-totals"], capture_output=True, text=True)
    assert out.returncode == 2 and "--no-totals" in out.stderr


@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_walk_from_finds_the_first_rung_that_holds_from_any_start(size):
    """On a ladder whose conditions nest (from rung ``first`` down every one holds), the walk
    from any start finds ``first``, testing the start and then only rungs nearer ``first``,
    plus the one beyond it that fails."""
    from stich.model.outcome import ALWAYS, Rung
    from stich.search.ladder import walk_from
    ladder = [Rung(size - k, f"r{k}", None, ALWAYS) for k in range(size)]
    for first in range(size):
        for start in range(size):
            tested = []

            def holds(rung, first=first, tested=tested):
                tested.append(ladder.index(rung))
                return ladder.index(rung) >= first

            assert walk_from(ladder, start, holds) is ladder[first]
            assert len(tested) == len(set(tested)) <= abs(start - first) + 2
            assert tested[0] == start


def ladders():
    """The ladder of a whole deal of every game with one, and of random positions of every mode."""
    for game, seed in [("scharwenzel", 1), ("schafkopf2", 1), ("elfern", 3), ("officers_skat", 4),
                       ("einwerfen", 5), ("bohemian_schneider", 6)]:
        deal = random_deal(game, seed)
        yield pytest.param(deal, id=f"{game}-deal-{seed}")
    for mode in sorted(MODES):
        for seed in range(3):
            yield pytest.param(loads(generate(mode, 5000 + seed, "large"), "<layout>"), id=f"{mode}-{seed}")


@pytest.mark.parametrize("deal", list(ladders()))
def test_every_ladder_is_its_own_mirror_image(deal):
    """``rank_for`` counts side 1's rungs as 2m - rank: that needs one rung no side wins
    (rank m), every rank within 0..2m, and each rung of one side mirrored by the same level of
    the other side where both are on the ladder."""
    from stich.model.outcome import rank_for, undecided_rank
    ladder = deal.game_spec.ladder(deal.position(), deal)
    if not ladder:
        assert rank_for(1, 5, undecided_rank(ladder)) == -5     # a score difference: negated
        return
    middle = [rung.rank for rung in ladder if rung.winner is None]
    assert len(middle) == 1
    m = middle[0]
    by_rank = {rung.rank: rung for rung in ladder}
    for rung in ladder:
        assert 0 <= rung.rank <= 2 * m
        assert (rung.rank > m) == (rung.winner == 0) and (rung.rank < m) == (rung.winner == 1)
        mirror = by_rank.get(2 * m - rung.rank)
        if mirror is not None and rung.winner is not None:
            assert (mirror.level, mirror.winner) == (rung.level, 1 - rung.winner)
        assert undecided_rank(ladder) == m and rank_for(1, rank_for(1, rung.rank, m), m) == rung.rank


@pytest.mark.parametrize("text", [p for p in positions() if "deal" in p.id or p.id.endswith("-0")])
def test_both_sides_count_the_rungs_from_their_worst(text):
    """The rung a seat's rows give is higher the better the outcome is for that seat's side,
    for a seat of either side: its own side's levels above the undecided rung, the other
    side's below, and none below 0 (a seat of the second side once read "-2 win (own side)")."""
    deal = loads(text, "<layout>")
    ladder = deal.game_spec.ladder(deal.position(), deal)
    if not ladder:
        return
    m = next(rung.rank for rung in ladder if rung.winner is None)
    for seat in (1, 2):
        rows = layout_rungs(deal, seat, new_engine(4), False)
        for _, _, _, label, rank, _ in rows:
            assert 0 <= rank <= 2 * m
            assert ("own side" in label) == (rank > m) and ("other side" in label) == (rank < m)

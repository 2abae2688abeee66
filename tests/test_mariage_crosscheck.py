"""The Mariage variant against the independent brute force (tests/reference.py, ``Mariage``).

Each test is one seeded random Mariage ending (tests/randompositions.py, ``mariage_case``), for
points or for strokes: one or two intact marriages, broken ones, `taken` zero for a side,
`won_trick` and `announced`, announcements in `play`, the Wäsche (four or more tricks from the
start).  Compared under ``objective="total"``: the value of the totals (the difference of
points; for strokes seat 1's card points, and the totals themselves), the player to move, the
moves listed (every legal card, with a marriage announced whenever one can be: the brute force
also plays the leads without announcing, and each is checked to be no better for its player),
every move's value, the optimal flags, and the line (legal for the brute force, ending at
``line_totals`` and at the value).  Under the default objective ``"score"``: the forced outcome
(rank on the ladder for points, seat 1's strokes minus seat 2's for strokes), every move's, and
that the line ends there.

Default run: 250 positions per scoring; ``-m slow``: more and larger ones.
"""

from __future__ import annotations

import pytest
import reference
from randompositions import Case, mariage_case

import stich

DEFAULT_COUNT = 250
SLOW_COUNT = 600
SLOW_LARGE_COUNT = 60


class Mismatch(AssertionError):
    pass


def _fail(case: Case, what: str) -> None:
    raise Mismatch(f"{what}\n--- {case.mode}, seed {case.seed}; the position:\n{case.toml}")


def move_key(deal, move) -> tuple:
    """A solver move as the brute force names it: (suit announced or None, card)."""
    suit = None if move.pair is None else deal.rule_set.pairs[move.pair][0].suit
    return (suit, move.card)


def line_moves(deal, result) -> list:
    pairs = result.line_pairs or (None,) * len(result.line)
    return [(None if p is None else deal.rule_set.pairs[p][0].suit, c)
            for p, c in zip(pairs, result.line)]


def follow_line(case, ref, moves):
    game, m = ref.mariage, ref.state
    for k, move in enumerate(moves):
        if move not in game.moves(m):
            _fail(case, f"line move {k + 1} {move} is illegal for the brute force")
        m = game.play(m, move)
    if not m.cards.is_over():
        _fail(case, f"the line {moves} stops before the end")
    return m


def check_total(case, deal, result, ref) -> None:
    value = (lambda t: t[0] - t[1]) if ref.scoring == "points" else (lambda t: t[0])
    if value(result.totals) != ref.total_value:
        _fail(case, f"totals {result.totals}: value {value(result.totals)}, brute force {ref.total_value}")
    if ref.scoring == "strokes" and tuple(result.totals) != tuple(ref.totals):
        _fail(case, f"totals: solver {result.totals}, brute force {ref.totals}")
    if result.to_move != ref.to_move:
        _fail(case, f"to move: solver {result.to_move}, brute force {ref.to_move}")
    listed = [move_key(deal, m) for m in result.moves]
    if len(listed) != len(set(listed)) or set(listed) != ref.forced:
        _fail(case, f"moves: solver {sorted(map(str, listed))}, brute force {sorted(map(str, ref.forced))}")
    for m in result.moves:
        want = ref.moves[move_key(deal, m)][0]
        if value(m.totals) != want:
            _fail(case, f"move {move_key(deal, m)}: solver {m.totals}, brute force value {want}")
        if m.optimal != (want == ref.total_value):
            _fail(case, f"move {move_key(deal, m)}: optimal={m.optimal}, value {want} vs {ref.total_value}")
    final = follow_line(case, ref, line_moves(deal, result))
    if tuple(final.points) != tuple(result.line_totals):
        _fail(case, f"the line ends at {final.points} for the brute force, not {result.line_totals}")
    if value(final.points) != ref.total_value:
        _fail(case, f"the line ends at value {value(final.points)}, not {ref.total_value}")


def check_score(case, deal, result, ref) -> None:
    if result.outcome.rank != ref.score:
        _fail(case, f"outcome {result.outcome.text!r}: rank {result.outcome.rank}, brute force {ref.score}")
    for m in result.moves:
        want = ref.moves[move_key(deal, m)][1]
        if m.rank != want:
            _fail(case, f"move {move_key(deal, m)}: solver rank {m.rank}, brute force {want}")
        if m.optimal != (want == ref.score):
            _fail(case, f"move {move_key(deal, m)}: optimal={m.optimal}, rank {want} vs {ref.score}")
    final = follow_line(case, ref, line_moves(deal, result))
    if ref.mariage.score(final) != ref.score:
        _fail(case, f"the score line ends at {ref.mariage.score(final)}, not {ref.score}")
    if tuple(final.points) != tuple(result.line_totals):
        _fail(case, f"the score line ends at {final.points}, not {result.line_totals}")


def check_announcing_never_costs(case, ref) -> None:
    """The brute force plays leads without announcing too: none is better for its player
    than the same card with an announcement (so the solver may skip them)."""
    if ref.to_move is None:
        return
    sign = 1 if ref.to_move == 1 else -1
    for (suit, card), (total, score, _) in ref.moves.items():
        if suit is not None:
            continue
        rivals = [v for (s, c), v in ref.moves.items() if c == card and s is not None]
        for other in rivals:
            if sign * total > sign * other[0] or sign * score > sign * other[1]:
                _fail(case, f"leading {card} without announcing ({total}, {score}) beats "
                            f"announcing ({other[0]}, {other[1]})")


def crosscheck(scoring: str, seed: int, size: str = "small") -> None:
    case = mariage_case(seed, scoring, size)
    try:
        deal = stich.loads(case.toml, f"<mariage-{scoring} seed {seed}>")
    except stich.DealError as exc:
        _fail(case, f"the reader rejects a generated position: {exc}")
    if deal.dump() and stich.loads(deal.dump()) != deal:
        _fail(case, f"the deal does not round-trip:\n{deal.dump()}")
    ref = reference.solve_mariage(deal)
    check_announcing_never_costs(case, ref)
    check_total(case, deal, stich.solve(deal, objective="total"), ref)
    check_score(case, deal, stich.solve(deal), ref)


@pytest.mark.parametrize("scoring", ["points", "strokes"])
def test_mariage_crosscheck(scoring):
    """250 positions per scoring in one test (a failure names the seed and prints the file)."""
    stats = {"announce": 0, "two": 0, "wasche": 0}
    for seed in range(DEFAULT_COUNT):
        crosscheck(scoring, seed)
        case = mariage_case(seed, scoring)
        deal = stich.loads(case.toml)
        ref = reference.solve_mariage(deal)
        stats["announce"] += any(s is not None for s, _ in ref.forced)
        stats["two"] += len({s for s, _ in ref.forced}) == 2
        stats["wasche"] += ref.state.left >= 4 and ref.state.winners is not None
    # the generator still reaches what it is meant to test
    assert stats["announce"] >= DEFAULT_COUNT // 10, stats
    assert stats["two"] >= 3, stats
    assert stats["wasche"] >= DEFAULT_COUNT // 10, stats


@pytest.mark.slow
@pytest.mark.parametrize("scoring", ["points", "strokes"])
@pytest.mark.parametrize("block", range(6))
def test_mariage_crosscheck_more(scoring, block):
    per = SLOW_COUNT // 6
    for seed in range(DEFAULT_COUNT + block * per, DEFAULT_COUNT + (block + 1) * per):
        crosscheck(scoring, seed)


@pytest.mark.slow
@pytest.mark.parametrize("scoring", ["points", "strokes"])
def test_mariage_crosscheck_large(scoring):
    for seed in range(SLOW_LARGE_COUNT):
        crosscheck(scoring, seed, "large")

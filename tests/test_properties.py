"""Properties of the solver against itself (hypothesis, derandomized: the same examples every run).

(a) The value of a position is the best value of its children: ``solve(deal).totals`` equals
    the best of its moves' totals (the most for seat 1's side when it is to move, the least
    otherwise, compared on ``totals[0]``), and every move's totals equal ``solve()`` of the
    deal with that card appended to ``play`` (built by writing the deal back with ``dump()``).
(b) Following the reported line never changes the value: every position along ``line``
    solves to the same totals, and the line runs to the end of the deal.
(c) ``dump()`` reads back to the same deal.
(d) The default objective ("score") keeps the totals of objective "total".

(a) and (b) solve with ``objective="total"``: the optimal cards and the line follow the totals.

Positions come from tests/randompositions.py, mostly in the "large" sizes (the solver is fast;
the brute-force reference is not used here).
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from randompositions import MODES, generate

import stich
from stich.search.solve import new_engine

# One engine with a small transposition table for the many solves of children and of
# positions along a line (the default 64 MB table is cleared at every solve, which costs more
# than the small searches here); the position itself is solved the default way.
ENGINE = new_engine(8)


def solve_again(deal):
    return stich.solve(deal, engine=ENGINE, objective="total")


SETTINGS = settings(derandomize=True, max_examples=500, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

positions = st.tuples(st.sampled_from(sorted(MODES)), st.integers(0, 10**6),
                      st.sampled_from(["small", "large", "large"]))


def load(mode: str, seed: int, size: str):
    text = generate(mode, seed, size)
    note(f"mode {mode}, seed {seed}, size {size}:\n{text}")
    deal = stich.loads(text, f"<{mode} seed {seed} {size}>")
    return text, deal


def with_cards(deal, cards):
    """The deal with ``cards`` appended to its ``play`` (a new trick whenever one is full),
    written back to TOML with ``dump()`` and read again."""
    tricks = [list(t) for t in deal.play]
    for card in cards:
        if not tricks or len(tricks[-1]) == deal.players:
            tricks.append([])
        tricks[-1].append(card)
    text = replace(deal, play=tuple(tuple(t) for t in tricks)).dump()
    return stich.loads(text, "<with play>"), text


def seat_side(seat: int) -> int:
    """rules.md: odd seats against even seats (seat 1 against seat 2 with two players)."""
    return (seat - 1) % 2


@SETTINGS
@given(positions)
def test_dump_round_trip(position):
    text, deal = load(*position)
    again = stich.loads(deal.dump())
    assert again == deal, f"dump() does not read back to the same deal:\n{deal.dump()}"
    assert again.dump() == deal.dump()


@SETTINGS
@given(positions)
def test_value_is_best_child(position):
    text, deal = load(*position)
    result = stich.solve(deal, objective="total")
    if result.to_move is None:
        assert not result.moves and not result.line
        return
    assert result.moves, "a position that is not over must have a legal card"
    maximise = seat_side(result.to_move) == 0
    pick = max if maximise else min
    best = pick(m.totals[0] for m in result.moves)
    assert result.totals[0] == best, \
        f"the value {result.totals} is not the best of the moves {[(str(m.card), m.totals) for m in result.moves]}"
    assert sum(result.totals) == sum(result.moves[0].totals), "the totals do not add up"
    for move in result.moves:
        child, child_text = with_cards(deal, [move.card])
        got = solve_again(child).totals
        assert tuple(got) == tuple(move.totals), \
            f"card {move.card}: moves say {move.totals}, solving the child gives {got}\n{child_text}"
        assert move.optimal == (move.totals[0] == best)


@SETTINGS
@given(positions)
def test_line_keeps_the_value(position):
    text, deal = load(*position)
    result = stich.solve(deal, objective="total")
    line = list(result.line)
    for k in range(1, len(line) + 1):
        after, after_text = with_cards(deal, line[:k])
        got = solve_again(after)
        assert tuple(got.totals) == tuple(result.totals), \
            f"after {k} cards of the line {list(map(str, line))}: {got.totals}, not {result.totals}\n{after_text}"
    end, end_text = with_cards(deal, line)
    final = solve_again(end)
    assert final.to_move is None and not final.moves, f"the line does not reach the end of the deal\n{end_text}"


@SETTINGS
@given(positions)
def test_score_objective_keeps_the_totals(position):
    """The default objective ("score") changes which cards are optimal and which line is shown,
    never the totals: the position's and every card's totals are those of objective "total";
    some card is optimal; the line is legal, runs to the end and ends at ``line_totals``."""
    text, deal = load(*position)
    by_score = stich.solve(deal)
    by_total = stich.solve(deal, objective="total")
    assert tuple(by_score.totals) == tuple(by_total.totals)
    assert ({m.card: tuple(m.totals) for m in by_score.moves}
            == {m.card: tuple(m.totals) for m in by_total.moves})
    assert not by_score.moves or any(m.optimal for m in by_score.moves)
    end, end_text = with_cards(deal, by_score.line)
    final = solve_again(end)
    assert final.to_move is None and tuple(final.totals) == tuple(by_score.line_totals), \
        f"the score line ends at {final.totals}, the solver says {by_score.line_totals}\n{end_text}"

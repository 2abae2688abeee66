"""The player's view: information sets, hidden layouts, hidden files, suggest.

The brute force here is written from rules.md with ``tests/reference.py`` alone: the hidden
cards of a position are found in the reference's own state, every way to put them back is
tried by swapping them in the deal's start layout and replaying the play through the
reference referee (an illegal card rules the layout out: that is where voids come from),
and every card is valued by the reference minimax.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
import reference as ref
from click.testing import CliRunner
from clirun import one_line_error
from clirun import run as cli_run
from randompositions import generate_case

from stich import solve
from stich.cli.main import main
from stich.deals.deal import Deal, DealError, Pile, loads
from stich.games.layouts import Region
from stich.view import (
    count_layouts,
    every_layout,
    information,
    read_hidden,
    read_view,
    sample_layouts,
    write_hidden,
)
from stich.view.sampling import layout_key
from stich.view.suggest import aggregate, mean_interval, suggest

ROOT = Path(__file__).resolve().parent.parent
MODES = ("scharwenzel-4", "scharwenzel-4-ending", "scharwenzel-6", "schafkopf2-schellen",
         "schafkopf2-card17", "elfern", "elfern-must_head")


# --- the independent brute force -----------------------------------------------------------------

def ref_hidden(deal: Deal, viewer: int) -> tuple[list, object, object]:
    """(hidden cards, rules, state after play) from the reference's state; viewer 0-based.
    Scharwenzel, Elfern: the other hands and the stock; Schafkopf2: every face-down card,
    including those under a card played to the unfinished trick (turned up after it)."""
    rules, state = ref.initial(deal)
    state, _ = ref.replay(rules, state, deal.play, tuple(deal.taken))
    hidden = list(state.stock)
    for seat, piles in enumerate(state.holdings):
        for pile in piles:
            if deal.game == "schafkopf2":
                hidden += list(pile[1:])
            elif seat != viewer:
                hidden += list(pile)
    if deal.game == "schafkopf2":
        hidden += [card for _, rest in state.pending for card in rest]
    return hidden, rules, state


def swapped(deal: Deal, mapping: dict) -> Deal:
    """The deal with its start cards renamed by ``mapping`` (hidden card -> hidden card)."""
    def m(card):
        return mapping.get(card, card)
    return replace(deal, hands={s: tuple(m(c) for c in cs) for s, cs in deal.hands.items()},
                   piles={s: tuple(Pile(p.up, None if p.down is None else m(p.down)) for p in ps)
                          for s, ps in deal.piles.items()},
                   stock=tuple(m(c) for c in deal.stock))


def brute_force(deal: Deal, viewer: int, count_only: bool = False) -> tuple[int, dict, dict]:
    """(number of distinct consistent layouts, card -> mean final total of the viewer's side
    as a Fraction, card -> share of layouts where it is best), viewer 0-based."""
    hidden, rules, _ = ref_hidden(deal, viewer)
    seen_states = {}
    for perm in itertools.permutations(hidden):
        candidate = swapped(deal, dict(zip(hidden, perm)))
        r, s = ref.initial(candidate)
        try:
            state, base = ref.replay(r, s, candidate.play, tuple(candidate.taken))
        except ref.IllegalCard:
            continue
        seen_states.setdefault(state, (base, r))
    if count_only:
        return len(seen_states), {}, {}
    side = viewer % 2
    sums: dict = Counter()
    best_count: dict = Counter()
    for state, (base, r) in seen_states.items():
        engine = ref.Reference(r)
        values = {}
        for card in ref.legal_moves(r, state):
            child, gain = ref.play(r, state, card)
            rest = engine.future(child)
            values[card] = (base[0] + gain[0] + rest[0], base[1] + gain[1] + rest[1])[side]
        top = max(values.values())
        for card, v in values.items():
            sums[card] += v
            best_count[card] += v == top
    n = len(seen_states)
    return n, {c: Fraction(v, n) for c, v in sums.items()}, {c: Fraction(b, n) for c, b in best_count.items()}


def small_cases(limit_hidden: int = 6, per_mode: int = 3, skip: int = 0):
    """Random small positions of every game with a seat to move and a few hidden cards
    (the first ``skip`` of each mode left out)."""
    for mode in MODES:
        found = 0
        for seed in range(200):
            deal = loads(generate_case(mode, seed).toml, f"{mode}-{seed}")
            position = deal.position()
            if position.is_over():
                continue
            viewer = position.to_move
            hidden, _, _ = ref_hidden(deal, viewer)
            if not 2 <= len(hidden) <= limit_hidden or (deal.game != "scharwenzel" and len(hidden) > 5):
                continue
            found += 1
            if found > skip:
                yield pytest.param(deal, viewer, id=f"{mode}-{seed}")
            if found == skip + per_mode:
                break


@pytest.mark.slow
@pytest.mark.parametrize("deal,viewer", list(small_cases(6, 12, 3)))
def test_exact_agrees_with_brute_force_more(deal, viewer):
    test_exact_agrees_with_brute_force(deal, viewer)


@pytest.mark.parametrize("deal,viewer", list(small_cases()))
def test_exact_agrees_with_brute_force(deal, viewer):
    count, means, best = brute_force(deal, viewer)
    info = information(deal, viewer + 1)
    assert count_layouts(info) == count
    keys = [layout_key(info, layout) for layout in every_layout(info)]
    assert len(keys) == len(set(keys)) == count
    result = suggest(info, exact=True, objective="total", jobs=1, tt_megabytes=4)
    assert result.mode == "exact" and result.advice.layouts == count
    got = {v.card: v for v in result.advice.cards}
    assert {c.text(deal.notation) for c in means} == set(got)
    for card, mean in means.items():
        view = got[card.text(deal.notation)]
        assert view.mean == pytest.approx(float(mean), abs=1e-9)
        assert view.p_best == pytest.approx(float(best[card]), abs=1e-9)


# --- a case with voids, used for uniformity and coverage ------------------------------------------

VOID_CASE = """
game = "scharwenzel"
trump = "hearts"
leader = 1
taken = [3, 2]
play = ["♣9 ♦9"]

[hands]
1 = "♦Q ♣9 ♣K"
2 = "♦9 ♥K ♦7"
3 = "♥A ♥Q ♠J"
4 = "♣J ♣Q ♣7"
"""


def plain_clubs(info, cards):
    suit = info.deal.rule_set.effective_suit
    return [c for c in cards if suit[c] == 0]          # ♣J and ♣Q are trumps, not clubs


def void_info():
    return information(loads(VOID_CASE, "void-case"), 3)


def test_void_case_matches_brute_force_count():
    deal = loads(VOID_CASE, "void-case")
    count, _, _ = brute_force(deal, 2, count_only=True)
    info = void_info()
    # 7 hidden cards: 2 for seat 1, 2 for seat 2 (no plain club, ♣K ♣7: it showed out), 3
    # for seat 4; seat 2 takes 2 of the 5 others, seat 1 two of the 5 left: 10 * 10
    assert count_layouts(info) == count == 100


def chi_square_critical(df: int, z: float = 3.09) -> float:
    """Upper 0.1% point of chi-square (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_sampling_is_uniform_over_the_consistent_layouts():
    info = void_info()
    layouts = [layout_key(info, layout) for layout in every_layout(info)]
    n = len(layouts)
    draws = 40 * n
    counts = Counter(layout_key(info, layout) for layout in sample_layouts(info, draws, seed=11))
    assert set(counts) == set(layouts)                 # never an inconsistent one, all reachable
    expected = draws / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in layouts)
    assert chi2 < chi_square_critical(n - 1)
    assert chi2 > (n - 1) / 4                          # not suspiciously even either


def test_sampled_layouts_replay_and_keep_the_void():
    info = void_info()
    for layout in sample_layouts(info, 50, seed=3):
        deal = info.fill(layout)
        position = deal.position()
        assert not plain_clubs(info, position.hands[1])   # seat 2 has no club


def test_interval_covers_the_exact_value_about_95_percent():
    """200 seeded trials of 40 layouts: the 95% interval of each trial must contain the exact
    expectation (computed over every layout) in 88-99% of them."""
    info = void_info()
    values = {}
    for layout in every_layout(info):
        rows = _rows(info, layout)
        values[layout_key(info, layout)] = rows
    exact = aggregate(list(values.values()), True, "total")
    spread = {v.card: v for v in exact.cards}
    # the card whose total varies most over the layouts
    card = max(spread, key=lambda c: _variance([r for rows in values.values() for r in rows if r[0] == c]))
    hits = 0
    for trial in range(200):
        sample = [values[layout_key(info, lay)] for lay in sample_layouts(info, 40, seed=1000 + trial)]
        advice = aggregate(sample, False, "total")
        view = next(v for v in advice.cards if v.card == card)
        low, high = view.interval
        hits += low <= spread[card].mean <= high
    assert 176 <= hits <= 198


def _rows(info, layout):
    from stich.view.suggest import score_layout
    return score_layout(info.fill(layout).dump(), info.seat, "total", 4)


def _variance(rows):
    xs = [r[1] for r in rows]
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs)


def test_mean_interval_by_hand():
    mean, (low, high) = mean_interval([1, 2, 3, 4], False)
    # sd = sqrt(5/3); half width 1.96 * sd / 2
    assert mean == 2.5 and high - mean == pytest.approx(1.959964 * math.sqrt(5 / 3) / 2, rel=1e-6)
    assert mean_interval([3, 5], True) == (4.0, (4.0, 4.0))


# --- seeing everything ------------------------------------------------------------------------------

SEES_ALL = [
    ('game = "schafkopf2"\ntaken = [40, 29]\n\n[piles]\n1 = "EO RA GK S7"\n2 = "SA R10 G10 EU"\n', 1),
    ('game = "elfern"\ntaken = [4, 4]\n\n[hands]\n1 = "♠A ♠K ♥7 ♦Q"\n2 = "♠7 ♥A ♥K ♦7"\n', 1),
]


@pytest.mark.parametrize("text,seat", SEES_ALL)
@pytest.mark.parametrize("objective", ["score", "total"])
def test_suggest_equals_solve_where_the_seat_sees_everything(text, seat, objective):
    deal = loads(text, "open")
    info = information(deal, seat)
    assert count_layouts(info) == 1
    result = suggest(info, objective=objective, jobs=1, tt_megabytes=4)
    solved = solve(deal, objective=objective, tt_megabytes=4)
    got = {v.card: v for v in result.advice.cards}
    side = (seat - 1) % 2
    assert set(got) == {m.card.text(deal.notation) for m in solved.moves}
    ranked = objective == "score" and all(m.rank is not None for m in solved.moves)

    def order(m):                # the advice's order: the rung (from the seat's side), then the total
        return ((m.rank if side == 0 else -m.rank), m.totals[side]) if ranked else (m.optimal,)
    top = max(order(m) for m in solved.moves)
    for move in solved.moves:
        view = got[move.card.text(deal.notation)]
        assert view.mean == move.totals[side]
        assert view.p_best == (1.0 if order(move) == top else 0.0)
    assert any(m.optimal and m.card.text(deal.notation) == result.advice.best for m in solved.moves)


# --- what play reveals, game by game -------------------------------------------------------------------

def test_scharwenzel_void_is_never_sampled():
    # seat 2 discarded on a club lead: no layout gives it a club
    info = void_info()
    allowed_2 = info.allowed[[r for r, _ in info.regions].index(Region("hand", 2, -1))]
    assert not plain_clubs(info, allowed_2) and plain_clubs(info, info.pool)
    for layout in sample_layouts(info, 200, seed=5):
        region = [r for r, _ in info.regions].index(Region("hand", 2, -1))
        assert not plain_clubs(info, layout[region])


def test_scharwenzel_must_trump_shows_no_trump():
    text = (VOID_CASE.replace('[hands]', '[rules]\nmust_trump = true\n\n[hands]')
            .replace('"♦Q ♣9 ♣K"', '"♥K ♣9 ♣K"').replace('"♦9 ♥K ♦7"', '"♦9 ♦Q ♦7"'))
    info = information(loads(text, "x"), 3)
    region = [r for r, _ in info.regions].index(Region("hand", 2, -1))
    suit = info.deal.rule_set.effective_suit
    assert info.allowed[region] and not any(suit[c] in (0, 2) for c in info.allowed[region])


ELFERN_LATE = """
game = "elfern"
leader = 1
play = ["♠A ♥7"]

[hands]
1 = "♠A ♠K ♦Q ♣7"
2 = "♥7 ♥A ♦7 ♣8"
"""

ELFERN_EARLY = """
game = "elfern"
leader = 1
play = ["♠A ♥7"]
stock = "♠8 ♠9 ♣9 ♣10"

[hands]
1 = "♠A ♠K ♦Q ♣7"
2 = "♥7 ♥A ♦7 ♣8"
"""


def test_elfern_void_after_the_stock_is_kept():
    info = information(loads(ELFERN_LATE, "x"), 1)
    for layout in sample_layouts(info, 20, seed=1):
        assert not any(c.suit == 1 for cards in layout.values() for c in cards)


def test_elfern_discard_while_the_stock_lasts_reveals_nothing():
    info = information(loads(ELFERN_EARLY, "x"), 1)
    hand = [r for r, _ in info.regions].index(Region("hand", 2, -1))
    seen = set()
    for layout in sample_layouts(info, 300, seed=2):
        seen |= {c for c in layout[hand] if c.suit == 1}
    assert seen                                        # a spade may well be in seat 2's hand
    # after the trick seat 1 drew ♠8 (seen), seat 2 the next card (unseen): seat 2's four
    # cards and the order of the two left in the stock: C(6, 4) * 2!
    assert count_layouts(info) == math.comb(6, 4) * math.factorial(2)


SCHAFKOPF_VOID = """
game = "schafkopf2"
taken = [20, 20]
play = ["EA R10"]

[piles]
1 = "EA/S7 GK/S8 SU/E10"
2 = "R10/E9 RK/G10 GA/E7"
"""


def test_schafkopf2_failure_to_follow_reveals_nothing_face_down():
    # seat 2 could not follow Eichel with its face-up cards (and had no trump face up), but
    # its face-down cards may be Eichel: the follow rule looks at face-up cards only
    deal = loads(SCHAFKOPF_VOID, "x")
    info = information(deal, 1)
    assert count_layouts(info) == brute_force(deal, 0, count_only=True)[0] == math.factorial(len(info.pool))
    for layout in sample_layouts(info, 30, seed=4):
        info.fill(layout).position()                   # every sample replays legally


def test_schafkopf2_card_under_a_card_of_the_open_trick_is_still_hidden():
    deal = loads(SCHAFKOPF_VOID.replace('play = ["EA R10"]', 'play = ["EA"]'), "x")
    info = information(deal, 2)
    assert Region("pile", 1, 0) in [r for r, _ in info.regions]    # S7 is not turned up yet


# --- files --------------------------------------------------------------------------------------------

EXAMPLES = [f"{ROOT}/examples/hidden/schafkopf2-hidden.toml", f"{ROOT}/examples/hidden/elfern-hidden.toml",
            f"{ROOT}/examples/hidden/scharwenzel-hidden.toml"]
PLAIN = [(f"{ROOT}/examples/scharwenzel-played.toml", 4), (f"{ROOT}/examples/schafkopf2-played.toml", 2),
         (f"{ROOT}/examples/elfern-played.toml", 1), (f"{ROOT}/examples/scharwenzel-ending.toml", 3),
         (f"{ROOT}/examples/schafkopf2-ending.toml", 1)]


def _same(a, b) -> bool:
    return (a.seat, a.pool, a.regions, a.allowed, count_layouts(a)) == \
           (b.seat, b.pool, b.regions, b.allowed, count_layouts(b))


@pytest.mark.parametrize("path", EXAMPLES)
def test_hidden_examples_round_trip(path):
    info = read_view(path)
    text = write_hidden(info)
    again = read_hidden(text, "again")
    assert _same(info, again)
    assert write_hidden(again) == text


@pytest.mark.parametrize("path,seat", PLAIN)
def test_seat_view_of_a_full_deal_round_trips(path, seat):
    info = read_view(path, seat)
    assert _same(info, read_hidden(write_hidden(info), "again"))


def test_unknown_defaults_to_the_rest_of_the_pack():
    info = read_view(f"{ROOT}/examples/hidden/elfern-hidden.toml")
    assert len(info.pool) == 26 and count_layouts(info) == math.comb(26, 6) * math.factorial(20)


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


BAD = {
    "named twice": ("unknown", 'unknown = "♦Q ♥A"\n'
                    + VOID_CASE.replace('1 = "♦Q ♣9 ♣K"', '1 = "? ♣9 ?"')),
    "count": ("unknown", 'game = "schafkopf2"\nunknown = "S7 S8"\ntaken = [20, 20]\n\n[piles]\n'
                         '1 = "EA/? GK/? SU/E10"\n2 = "R10/? RK/G10 SO/E7"\n'),
    # seat 2 shows it has neither clubs nor trumps (must_trump), but only two such cards are left
    "no layout": ("unknown", 'game = "scharwenzel"\ntrump = "hearts"\ntaken = [3, 1]\n'
                             'unknown = "♣K ♣10 ♣9 ♥9 ♦9 ♦7"\nplay = ["♣A ♠10"]\n\n'
                             '[hands]\n1 = "♣A ? ? ?"\n2 = "♠10 ? ? ?"\n3 = "♥J ♦A ♠A ♦10"\n'
                             '4 = "♣Q ♣8 ♣7 ♣J"\n\n[rules]\nmust_trump = true\n'),
    "own hand": ("hands.3", 'game = "scharwenzel"\ntrump = "hearts"\ntaken = [3, 1]\nseat = 3\n'
                            'unknown = "♥J"\n'
                            'play = ["♣A ♠10"]\n\n[hands]\n1 = "♣A ♣9 ♦7 ♠8"\n'
                            '2 = "♠10 ♦8 ♠9 ♥8"\n3 = "? ♦A ♠A ♦10"\n4 = "♣K ♣10 ♠7 ♦9"\n'),
}


@pytest.mark.parametrize("name", list(BAD))
def test_contradictory_files_exit_2_with_one_line(name, tmp_path):
    key, text = BAD[name]
    path = tmp_path / f"{name.replace(' ', '-')}.toml"
    path.write_text(text, encoding="utf-8")
    result = run("suggest", str(path), "--jobs", "1")
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and key in lines[0], result.stderr


def test_no_layout_is_a_deal_error():
    with pytest.raises(DealError, match="no hidden layout"):
        read_hidden(BAD["no layout"][1], "x")


def test_solve_refuses_a_hidden_file_with_one_line():
    result = run("solve", f"{ROOT}/examples/hidden/schafkopf2-hidden.toml")
    assert result.exit_code == 2 and "stich suggest" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_suggest_cli_json(tmp_path):
    import json
    result = run("suggest", f"{ROOT}/examples/hidden/schafkopf2-hidden.toml", "--json", "--jobs", "1", "--tt-mb", "4")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["mode"] == "exact" and obj["layouts"] == obj["consistent_layouts"] == 24
    assert {c["card"] for c in obj["cards"]} == {"EO", "RA", "GK"}
    result = run("suggest", f"{ROOT}/examples/hidden/scharwenzel-hidden.toml", "--samples", "5", "--seed", "2",
                 "--jobs", "1", "--tt-mb", "4", "--objective", "total")
    assert result.exit_code == 0, result.output
    assert "5 layouts drawn uniformly" in result.stdout


# --- replay --view player ---------------------------------------------------------------------------

OPEN_PLAYED = """
game = "schafkopf2"
taken = [40, 29]
play = ["GK G10", "EU S7"]

[piles]
1 = "EO RA GK S7"
2 = "SA R10 G10 EU"
"""


def test_player_view_of_an_open_ending_is_the_double_dummy_judgement():
    from stich.analysis.replay import replay
    from stich.view.suggest import judge_play
    deal = loads(OPEN_PLAYED, "open-played")
    steps = replay(deal, tt_megabytes=4).steps
    judged = judge_play(deal, objective="total", jobs=1, tt_megabytes=4)
    assert [j.card for j in judged] == [s.card.text(deal.notation) for s in steps]
    assert any(s.cost for s in steps)                  # the play has a mistake to find
    for step, j in zip(steps, judged):
        assert j.exact and j.layouts == 1
        assert j.loss == step.cost
        side = (step.seat - 1) % 2
        assert j.expected == step.after[side]


def test_replay_view_player_cli(tmp_path):
    import json
    result = run("replay", f"{ROOT}/examples/hidden/scharwenzel-hidden.toml")
    assert result.exit_code == 2                       # a hidden file is for suggest only
    path = tmp_path / "played.toml"
    path.write_text(SCHAFKOPF_VOID, encoding="utf-8")
    result = run("replay", str(path), "--view", "player", "--samples", "3", "--jobs", "1",
                 "--tt-mb", "4", "--json")
    assert result.exit_code == 0, result.output
    views = json.loads(result.stdout)["player_view"]
    # 6 face-down cards at both cards (720 layouts: sampled): S7 under EA turns up only after
    # the trick
    assert [(v["card"], v["layouts"], v["exact"]) for v in views] == [("EA", 3, False), ("R10", 3, False)]
    result = run("replay", str(path), "--view", "player", "--samples", "3", "--jobs", "1", "--tt-mb", "4")
    assert result.exit_code == 0 and "Player's view" in result.stdout


def _ctrl_c_at_trick_two(monkeypatch):
    """Ctrl-C as the player's view starts judging the second trick's cards."""
    import stich.view.suggest as suggest_module
    judged = suggest_module._judged

    def stop_at_trick_two(deal, steps, *args):
        if steps[0][0] == 2:
            raise KeyboardInterrupt
        return judged(deal, steps, *args)

    monkeypatch.setattr(suggest_module, "_judged", stop_at_trick_two)


def test_ctrl_c_in_the_player_judgement_keeps_the_tricks_judged(monkeypatch):
    """Ctrl-C while the second trick's cards are judged: the first trick's judgements come
    with the interrupt, the same as those of the run that finished."""
    import stich.view.suggest as suggest_module
    deal = loads(OPEN_PLAYED, "open-played")
    whole = suggest_module.judge_play(deal, objective="total", jobs=1, tt_megabytes=4)
    _ctrl_c_at_trick_two(monkeypatch)
    with pytest.raises(suggest_module.PlayInterrupted) as stop:
        suggest_module.judge_play(deal, objective="total", jobs=1, tt_megabytes=4)
    first = [j for j in whole if j.trick == 1]
    assert first and stop.value.judged == first and len(first) < len(whole)


def test_replay_view_player_prints_the_cards_judged_before_ctrl_c(tmp_path, monkeypatch):
    """Ctrl-C during ``replay --view player``: the replay and the cards judged are printed,
    then one line saying how many, exit 130."""
    path = tmp_path / "played.toml"
    path.write_text(OPEN_PLAYED, encoding="utf-8")
    _ctrl_c_at_trick_two(monkeypatch)
    result = CliRunner().invoke(main, ["replay", str(path), "--view", "player", "--jobs", "1",
                                       "--tt-mb", "4", "--json"])
    assert result.exit_code == 130, result.output
    views = json.loads(result.stdout)["player_view"]
    assert [v["trick"] for v in views] == [1, 1]                  # two seats: two cards a trick
    assert "the player's view of its first 2 of 4 cards" in result.stderr


def test_the_same_rung_everywhere_without_both_totals_is_said_so():
    """A view stopped before the deciding totals (Ctrl-C, a limit): the best card and the
    runner-up share the rung on every layout, and their totals are known on one layout only."""
    rows = [[("A", 4, 0, "win", 1, True), ("B", 3, 0, "win", 1, False)],
            [("A", None, 0, "win", 1, True), ("B", None, 0, "win", 1, True)]]
    advice = aggregate(rows, True, "score")
    assert (advice.best, advice.runner_up, advice.total_margin) == ("A", "B", None)
    assert advice.sure() == ("the same outcome as B on every layout (the totals that would break "
                             "the tie were not computed)")


def test_aggregate_by_hand():
    # two layouts; card A: totals 4 and 2, best in the first; card B: 3 and 3, best in the second
    rows = [[("A", 4, 0, None, None, True), ("B", 3, 0, None, None, False)],
            [("A", 2, 0, None, None, False), ("B", 3, 0, None, None, True)]]
    advice = aggregate(rows, True, "total")
    assert [(v.card, v.mean, v.p_best) for v in advice.cards] == [("A", 3.0, 0.5), ("B", 3.0, 0.5)]
    assert advice.margin == 0 and not advice.tied and "every layout" not in advice.sure()
    sampled = aggregate(rows, False, "total")
    low, high = sampled.cards[0].interval            # sd sqrt(2), half width 1.96 * sqrt(2) / sqrt(2)
    assert (low, high) == pytest.approx((3 - 1.959964, 3 + 1.959964), rel=1e-6)


def test_a_sampled_interval_stays_within_what_the_seat_can_still_take():
    """Scharwenzel ending from seat 3: its side has won 2 tricks (`taken`) and 4 are left, so
    it ends with at most 6; no card's interval from 20 layouts reaches past that (the normal
    approximation did: 5.77–6.03)."""
    path = ROOT / "examples" / "hidden" / "scharwenzel-hidden.toml"
    info = read_hidden(path.read_text(encoding="utf-8"))
    from stich.view.suggest import won_so_far
    own, other = won_so_far(info)
    most = own + len(info.deal.hands[3])
    assert (own, other, most) == (2, 2, 6)            # taken [2, 2], four cards in hand
    data = json.loads(run("suggest", str(path), "--samples", "20", "--json").stdout)
    shown = [c["interval"] for c in data["cards"] if c["interval"]]
    assert shown and all(own <= low <= high <= most for low, high in shown)


def test_the_rung_numbers_are_explained_and_levels_come_best_first():
    """The expected rung is a number on the outcome's ladder: a note lists the rungs reached
    with their levels, best first, as `--json` gives them; each card's levels are in that
    order; where cards tie for the best on a layout, a note says the column adds up past 100%."""
    path = f"{ROOT}/examples/hidden/scharwenzel-hidden.toml"
    data = json.loads(run("suggest", path, "--samples", "40", "--json").stdout)
    rungs = [(r["rung"], r["level"]) for r in data["rungs"]]
    assert rungs == sorted(rungs, reverse=True) and len(rungs) >= 2
    order = [level for _, level in rungs]
    for card in data["cards"]:
        assert list(card["levels"]) == [level for level in order if level in card["levels"]]
    text = run("suggest", path, "--samples", "40").stdout
    assert ("higher is better for the seat: " + ", ".join(f"{r} {level}" for r, level in rungs) + ")") in text
    ties = sum(card["p_best"] for card in data["cards"]) > 1
    assert ties == ("adds up to more than 100%" in text)


def test_an_interval_never_reaches_past_what_the_deal_gives_out():
    """Six points in the deal (both sides' totals add up to 6 on every layout): a card that
    takes 6 on three layouts drawn and 4 on one gets an interval that stops at 6 (the normal
    approximation gives 6.48); a margin the same on every layout drawn gets no interval of
    width 0, which would read as exact.  Where the sums differ, or the game's sum is not fixed,
    nothing is cut."""
    def rows(others):
        return [[("A", a, 6 - a + o, None, None, True), ("B", a - 1, 7 - a + o, None, None, False)]
                for a, o in zip((6, 6, 6, 4), others)]
    sampled = aggregate(rows((0, 0, 0, 0)), False, "total", so_far=(0, 0))
    best = sampled.cards[0]
    assert best.card == "A" and best.mean == 5.5
    assert best.interval == pytest.approx((5.5 - 1.959964 / 2, 6), rel=1e-6)
    assert sampled.sure("card points") == ("better than B by 1 card points on every layout solved "
                                           "(the layouts not drawn may differ)")
    for uncut in (aggregate(rows((0, 1, 0, 0)), False, "total", so_far=(0, 0)),   # sums differ
                  aggregate(rows((0, 0, 0, 0)), False, "total", so_far=None)):     # not a fixed sum
        assert uncut.cards[0].interval[1] == pytest.approx(5.5 + 1.959964 / 2, rel=1e-6)


@pytest.mark.parametrize("args,words", [(["--seat", "1"], "not to move"), (["--seat", "7"], "no seat 7"),
                                        (["--exact", "--samples", "3"], "exclude")])
def test_bad_seat_or_options_exit_2(args, words):
    result = run("suggest", f"{ROOT}/examples/scharwenzel-ending.toml", "--jobs", "1", *args)
    assert result.exit_code == 2 and words in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


EXAMPLES_DIR = ROOT / "examples"


HIDDEN = EXAMPLES_DIR / "hidden" / "schafkopf2-hidden.toml"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _interrupt_after(monkeypatch, finished: int) -> None:
    import stich.view.suggest as module
    original = getattr(module.score_layout, "__wrapped__", module.score_layout)
    calls = []

    def score(*args, **kwargs):
        calls.append(1)
        if len(calls) > finished:
            raise KeyboardInterrupt
        return original(*args, **kwargs)
    score.__wrapped__ = original
    monkeypatch.setattr(module, "score_layout", score)


def test_suggest_says_the_same_outcome_and_the_points_between_two_cards():
    """Under the score objective, where both cards reach the same outcome, `suggest` says so
    (not "better than RA by 0 in expectation"), and how many points more."""
    result = cli_run("suggest", str(EXAMPLES_DIR / "hidden" / "schafkopf2-hidden.toml"), "--exact", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    cards = {c["card"]: c for c in data["cards"]}
    best, runner = cards[data["best"]], cards[data["runner_up"]]
    assert best["expected_rung"] == runner["expected_rung"]
    more = best["expected_total"] - runner["expected_total"]
    assert more > 0
    assert data["sure"] == (f"the same outcome as {data['runner_up']} on every layout, and "
                            f"{more:.3g} card points more in expectation (exact)")
    assert "by 0 " not in data["sure"]


def test_suggest_json_prints_json_when_every_layout_hits_the_limit():
    result = cli_run("suggest", HIDDEN, "--json", "--exact", "--jobs", "1", "--node-limit", "1")
    assert result.exit_code == 5, result.output
    data = json.loads(result.stdout)
    assert data["exact"] is False and data["best"] is None and data["cards"] == []
    assert data["layouts"] == 0 and data["layouts_left_out"] == 24


def test_ctrl_c_in_suggest_prints_the_layouts_finished(monkeypatch):
    _interrupt_after(monkeypatch, 8)
    result = cli_run("suggest", HIDDEN, "--exact", "--jobs", "1")
    assert result.exit_code == 130, result.output
    assert "8 of the 24" in result.stdout and "INTERRUPTED" in result.stdout
    _interrupt_after(monkeypatch, 8)
    data = json.loads(cli_run("suggest", HIDDEN, "--exact", "--jobs", "1", "--json").stdout)
    assert data["exact"] is False and data["interrupted"] is True
    assert data["layouts"] == 8 and data["layouts_unfinished"] == 16


def test_hidden_cites_the_docs_path():
    text = (ROOT / "solver" / "view" / "hidden.py").read_text(encoding="utf-8")
    assert "shared/deal-format.md" not in text and "docs/deal-format.md" in text
    assert (ROOT / "docs" / "deal-format.md").is_file()


def test_a_hidden_file_with_a_bad_game_names_the_game(tmp_path):
    path = write(tmp_path, "h.toml", HIDDEN.read_text(encoding="utf-8").replace('game = "schafkopf2"',
                                                                                 'game = "nogame"'))
    line = one_line_error(cli_run("suggest", path), "h.toml: game", "nogame")
    assert "hidden cards" not in line


def test_suggest_exact_refuses_more_layouts_than_it_can_solve():
    one_line_error(cli_run("suggest", EXAMPLES_DIR / "hidden" / "elfern-hidden.toml", "--exact"), "--exact", "too many")


def test_asking_for_as_many_draws_as_there_are_layouts_solves_each_once():
    """24 layouts and --samples 30: drawing 30 with repeats would be dearer and only an
    estimate; every layout solved once is exact.  Fewer draws than layouts stay a sample."""
    path = EXAMPLES_DIR / "hidden" / "schafkopf2-hidden.toml"
    every = json.loads(cli_run("suggest", path, "--samples", "30", "--jobs", "1", "--json").stdout)
    assert every["mode"] == "exact" and every["layouts"] == every["consistent_layouts"] == 24
    assert json.loads(cli_run("suggest", path, "--exact", "--jobs", "1", "--json").stdout)["cards"] == every["cards"]
    drawn = json.loads(cli_run("suggest", path, "--samples", "23", "--jobs", "1", "--json").stdout)
    assert drawn["mode"] == "samples" and drawn["layouts"] == 23


def test_a_share_reads_whole_only_when_it_is():
    from stich.report.common import mean_text, share_text
    assert [share_text(p) for p in (0, 1, 1.0000000000000102, 0.5, 0.884)] == ["0%", "100%", "100%", "50%", "88%"]
    # 1223 of 1225 layouts: 99.84%, not "100%"; 2 of 1225: 0.16%, not "0%"
    assert share_text(1223 / 1225) == "99.8%" and share_text(2 / 1225) == "0.2%"
    assert share_text(99_999 / 100_000) == ">99.9%" and share_text(1 / 100_000) == "<0.1%"
    assert [mean_text(x) for x in (4, 3.87, 3.9983673469, 4.0004, 5.99999)] == \
        ["4.00", "3.87", "3.998", "4.0004", "6.0000"]


def test_outcome_shares_are_whole_counts_over_the_layouts():
    """Seven layouts, one card, the same level on each: its share is exactly 1 (adding 1/7
    seven times gives 0.9999999999999998), and two levels add up to exactly 1."""
    rows = [[("A", 3, 0, "win", 1, True)] for _ in range(7)]
    assert aggregate(rows, True, "score").cards[0].levels == {"win": 1.0}
    rows = [[("A", 3, 0, "win" if k < 3 else "bock", 1, True)] for k in range(49)]
    levels = aggregate(rows, True, "score").cards[0].levels
    assert levels == {"win": 3 / 49, "bock": 46 / 49}


def test_a_level_that_names_no_side_is_printed_in_a_players_words():
    """The table prints the ladder's levels; a Ständer or a draw gets its words, not the key
    `--json` keeps ("staender", "tie")."""
    from stich.report.common import level_text
    assert level_text("staender") == "Ständer (10–10)"
    assert level_text("tie") == "the draw"
    assert level_text("simple (1, own side)") == "simple (1, own side)"
    assert level_text("a rule file's level") == "a rule file's level"


def test_a_card_short_of_the_best_on_a_few_layouts_does_not_read_as_the_best():
    """All 1,225 layouts: ♠A forces the best rung on all but two (its expected rung is
    4 - 2/1225), so its text must not read 100% or 4.00 like ♦10's."""
    result = cli_run("suggest", EXAMPLES_DIR / "hidden" / "scharwenzel-hidden.toml", "--exact", "--jobs", "1",
                     "--json")
    cards = {c["card"]: c for c in json.loads(result.stdout)["cards"]}
    assert cards["♠A"]["p_best"] == 1223 / 1225 and cards["♦10"]["p_best"] == 1
    assert all(0 <= share <= 1 for c in cards.values() for share in c["levels"].values())
    text = cli_run("suggest", EXAMPLES_DIR / "hidden" / "scharwenzel-hidden.toml", "--exact", "--jobs", "1").stdout
    spade_ace = next(line for line in text.splitlines() if line.startswith("♠A"))
    assert "99.8%" in spade_ace and "3.998" in spade_ace and "100%" not in spade_ace
    assert "Play ♦10: as good as ♦A on every layout." in text


def test_a_sampled_verdict_claims_only_the_layouts_solved():
    result = cli_run("suggest", EXAMPLES_DIR / "hidden" / "scharwenzel-hidden.toml", "--samples", "30",
                     "--jobs", "1", "--json")
    assert json.loads(result.stdout)["sure"] == "as good as ♦A on every layout solved"


def test_a_replay_that_counts_some_cards_by_rung_says_what_that_means():
    result = cli_run("replay", EXAMPLES_DIR / "schafkopf2-played.toml", "--view", "player", "--samples", "5",
                     "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    rows = result.stdout.split("Player's view")[1].splitlines()
    by_rung = [line for line in rows if "% by rung" in line]
    assert by_rung and any(line.split()[:2] in (["1", "1"], ["2", "1"]) for line in rows)
    assert any(line.startswith('(P(dd best) "by rung"') for line in rows)
    judged = [line for line in rows if line[:7].strip().isdigit()]
    expected = [re.search(r"\s(\S+)\s+[\d.]+%", line).group(1) for line in judged]   # before P(dd best)
    assert expected and all(re.fullmatch(r"\d+\.\d\d", text) for text in expected), expected   # 30.00, not 30


def test_a_tie_break_the_sample_does_not_show_is_said_to_be_unclear():
    """Both cards win on all four layouts drawn; A takes 6, 3, 6, 3 points and B 4 each: 0.5 more
    in the mean, but the paired differences (2, -1, 2, -1) give a 95% interval around 0."""
    rows = [[("A", a, 0, "win", 1, True), ("B", 4, 0, "win", 1, a > 4)] for a in (6, 3, 6, 3)]
    advice = aggregate(rows, False, "score")
    assert (advice.best, advice.runner_up) == ("A", "B")
    low, high = advice.total_interval
    assert low < 0 < high
    assert advice.sure() == (f"the same outcome as B on every layout solved, and not clearly 0.5 points "
                             f"more: the 95% interval {low:.3g} to {high:.3g} includes 0")
    clear = aggregate([[("A", 6, 0, "win", 1, True), ("B", 4, 0, "win", 1, False)],
                       [("A", 5, 0, "win", 1, True), ("B", 4, 0, "win", 1, False)]] * 2, False, "score")
    assert clear.sure().startswith("the same outcome as B on every layout solved, and 1.5 points more in "
                                   "expectation (95% interval")


def test_equal_expected_rungs_that_differ_layout_by_layout_are_said_to_be_decided_by_the_totals():
    """A wins on the first two layouts where B draws, B wins on the other two where A draws:
    the same expected rung, not the same outcome on every layout, so the totals decide (A 60
    points on each, B 50) and the sentence says that, not "0 rungs, not clearly better"."""
    rows = [[("A", 60, 0, "win", 2, True), ("B", 50, 0, "tie", 1, False)]] * 2 + \
           [[("A", 60, 0, "tie", 1, False), ("B", 50, 0, "win", 2, True)]] * 2
    advice = aggregate(rows, False, "score")
    assert (advice.best, advice.runner_up, advice.margin) == ("A", "B", 0)
    assert advice.sure("points").startswith(
        "the same expected outcome rung as B (a better outcome on some layouts, a worse one on others), "
        "and 10 points more on every layout solved")
    stopped = aggregate([[r if r[0] == "B" else (r[0], None, *r[2:]) for r in layout] for layout in rows],
                        False, "score")
    assert stopped.total_margin is None and stopped.sure("points").endswith(
        "(the totals that would break the tie were not computed)")
    # every layout solved (exact): the interval of a mean of 0 is (0, 0) too, yet the outcomes
    # still differ layout by layout
    exact = aggregate(rows, True, "score")
    assert exact.sure("points") == (
        "the same expected outcome rung as B (a better outcome on some layouts, a worse one on others), "
        "and 10 points more in expectation (exact)")


def test_a_card_on_the_best_rung_but_with_fewer_points_is_not_called_the_best_guess():
    """The view's advice goes by the expected rung, then the expected total: a card tied on the
    rung with 0.10 tricks fewer than the advised card is behind it, and the row says so."""
    from types import SimpleNamespace

    from stich.report.suggest import judgement_rows
    from stich.view.suggest import Judgement
    step = SimpleNamespace(trick=3, seat=4, cost=0, rank_cost=0)
    behind = Judgement(3, 4, "♣8", 1.1, "♦9", 1.2, 0.0, 0.4, 10, False, "rung")
    best = Judgement(3, 4, "♦9", 1.2, "♦9", 1.2, 0.0, 0.6, 10, False, "rung")
    tied = Judgement(3, 4, "♣8", 1.2, "♦9", 1.2, 0.0, 0.6, 10, False, "rung")
    rows = judgement_rows([step] * 3, [behind, best, tied])
    assert [row[4] for row in rows] == ["same rung, -0.10 in total (best ♦9)", "best guess", "best guess"]


def test_hidden_cards_that_can_lie_only_one_way_are_said_to_be_placed():
    """The Elfern ending: the stock is gone, so the six cards seat 1 cannot see are the other
    hand, and only one layout agrees with what it has seen."""
    result = cli_run("suggest", EXAMPLES_DIR / "elfern-ending.toml", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first == ("Seat 1 to move; the 6 cards hidden from it can lie only one way (what it has seen "
                     "places them): the double-dummy answer.")
    assert json.loads(cli_run("suggest", EXAMPLES_DIR / "elfern-ending.toml", "--jobs", "1",
                              "--json").stdout)["consistent_layouts"] == 1


def test_a_sample_whose_draws_all_agree_gives_no_interval_not_a_certain_one():
    """Three layouts drawn (not every one): A takes 6 on each, B 5, 6, 4.  A's mean is 6, but the
    layouts not drawn may differ, so it gets no interval rather than 6–6; B's is the usual one.
    Over every layout (exact) A's 6 is exact."""
    rows = [[("A", 6, 2, "win", 1, True), ("B", b, 8 - b, "win", 1, b == 6)] for b in (5, 6, 4)]
    cards = {v.card: v for v in aggregate(rows, False, "score").cards}
    assert cards["A"].mean == 6 and cards["A"].interval is None
    low, high = cards["B"].interval
    assert low < 5 < high
    assert {v.card: v for v in aggregate(rows, True, "score").cards}["A"].interval == (6, 6)


def test_suggest_shows_and_explains_a_missing_interval():
    result = cli_run("suggest", EXAMPLES_DIR / "hidden" / "scharwenzel-hidden.toml", "--samples", "4", "--seed", "2",
                     "--all-totals", "--jobs", "1", "--json")
    data = json.loads(result.stdout)
    same = [c["card"] for c in data["cards"] if c["interval"] is None]
    assert same and all(c["expected_total"] is not None for c in data["cards"])
    text = cli_run("suggest", EXAMPLES_DIR / "hidden" / "scharwenzel-hidden.toml", "--samples", "4", "--seed", "2",
                   "--all-totals", "--jobs", "1").stdout
    assert "(interval -: every layout drawn gave the card the same total" in text
    mean = next(c["expected_total"] for c in data["cards"] if c["card"] == same[0])
    row = next(line for line in text.splitlines() if line.startswith(same[0]))
    assert row.split()[:3] == [same[0], f"{mean:.2f}", "-"], row        # not "6.00–6.00"

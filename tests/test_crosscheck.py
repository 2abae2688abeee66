"""The solver against the independent brute-force reference (tests/reference.py).

Each test is one seeded random position (tests/randompositions.py) of one game/mode; its id
names the mode and the seed, and a failure prints the position's TOML.  Compared: the totals,
the player to move, the set of legal cards, every card's totals, the ``optimal`` flags, the
equivalence groups, and the optimal line (legal, to the end of the deal, ending exactly at the
totals, with the same trick winners as the reference), under ``objective="total"``, which is
what the reference plays for.  Each position is solved again under the default objective
(``"score"``): its totals and every card's totals must still be the reference's, and its line
must be legal, run to the end and end at ``line_totals``.  Also checked: the deal reader read
each generated file as it was written.

Default run: ``pytest -q tests/test_crosscheck.py``; more and larger positions:
``pytest -q -m slow tests/test_crosscheck.py``.
"""

from __future__ import annotations

import pytest
import reference
from randompositions import MODES, Case, generate_case

import stich

# positions per mode in the default run (the 4-card Scharwenzel endings cost the reference
# the most, about 30 ms each)
DEFAULT_COUNT = 300
# the slow run: further seeds of the same small sizes, and larger positions
SLOW_SMALL_COUNT = 1000
SLOW_LARGE_COUNT = {"scharwenzel-4": 500, "scharwenzel-4-ending": 40, "scharwenzel-6": 80,
                    "scharwenzel-8": 100, "schafkopf2-schellen": 500, "schafkopf2-card17": 200,
                    "elfern": 500, "elfern-must_head": 300}


def _params(count: int, start: int = 0):
    return [pytest.param(mode, seed, id=f"{mode}-seed{seed}")
            for mode in MODES for seed in range(start, start + count)]


# --------------------------------------------------------------------------------------------

class Mismatch(AssertionError):
    pass


def _fail(case: Case, what: str) -> None:
    raise Mismatch(f"{what}\n--- mode {case.mode}, seed {case.seed}; the position:\n{case.toml}")


def check_reader(case: Case, deal) -> None:
    """The reader took the generated file as written."""
    got = {
        "game": deal.game, "players": deal.players, "leader": deal.leader,
        "hands": {s: tuple(c) for s, c in deal.hands.items()},
        "piles": {s: tuple((p.up, p.down) for p in ps) for s, ps in deal.piles.items()},
        "stock": tuple(deal.stock), "play": tuple(tuple(t) for t in deal.play),
        "taken": tuple(deal.taken),
        "options": {k: deal.options[k] for k in case.options},
    }
    want = {
        "game": case.game, "players": case.players, "leader": case.leader,
        "hands": {s: tuple(c) for s, c in case.hands.items()},
        "piles": {s: tuple(ps) for s, ps in case.piles.items()},
        "stock": tuple(case.stock), "play": tuple(case.play), "taken": tuple(case.taken),
        "options": dict(case.options),
    }
    for key in want:
        if got[key] != want[key]:
            _fail(case, f"the reader read {key} as {got[key]!r}, the file says {want[key]!r}")
    trump = deal.trump_suit
    if case.game == "schafkopf2" and case.options["trump_mode"] == "schellen":
        ok = trump in (None, reference.D)
    else:
        ok = trump == case.trump
    if not ok:
        _fail(case, f"the reader's trump suit is {trump!r}, the file means {case.trump!r}")


def compare(case: Case, deal, result, ref: reference.RefResult, objective: str = "total") -> None:
    """Every claim of ``result`` against the reference.  With ``objective="total"`` the optimal
    cards and the line follow the totals; with ``"score"`` (the default objective) both sides
    play for the game's outcome, which the reference does not rank: the totals and every card's
    totals are still the perfect-play totals, but the ``optimal`` flags and the line are only
    checked for what does not depend on the objective (the line is legal, runs to the end and
    ``line_totals`` is where it ends)."""
    if result.totals != ref.totals:
        _fail(case, f"totals: solver {result.totals}, reference {ref.totals}")
    if result.to_move != ref.to_move:
        _fail(case, f"to move: solver seat {result.to_move}, reference seat {ref.to_move}")

    cards = [m.card for m in result.moves]
    if len(cards) != len(set(cards)):
        _fail(case, f"a card is listed twice among the moves: {cards}")
    if set(cards) != set(ref.moves):
        _fail(case, f"legal cards: solver {sorted(cards)}, reference {sorted(ref.moves)}")
    groups: dict[int, tuple] = {}
    for m in result.moves:
        want = ref.moves[m.card]
        if tuple(m.totals) != want:
            _fail(case, f"card {m.card}: solver {tuple(m.totals)}, reference {want}")
        if objective == "total" and m.optimal != (want == ref.totals):
            _fail(case, f"card {m.card}: solver optimal={m.optimal}, reference totals {want} "
                        f"vs best {ref.totals}")
        if groups.setdefault(m.group, want) != want:
            _fail(case, f"group {m.group} holds cards of different value (card {m.card}: {want}, "
                        f"another: {groups[m.group]})")

    # the line: legal for the reference, to the end of the deal, ending at the totals
    rules, state, a, b = ref.rules, ref.state, ref.base[0], ref.base[1]
    tricks = []
    trick_leader = state.leader
    for k, card in enumerate(result.line):
        if not state.trick:
            trick_leader = state.leader
        so_far = state.trick
        try:
            state, gain = reference.play(rules, state, card)
        except reference.IllegalCard as exc:
            _fail(case, f"line card {k + 1} ({card}) is illegal: {exc}; line {list(map(str, result.line))}")
        a, b = a + gain[0], b + gain[1]
        if not state.trick:                                   # that card completed a trick
            tricks.append((trick_leader + 1, so_far + (card,), state.leader + 1))
    if not state.is_over():
        _fail(case, f"the line {list(map(str, result.line))} stops before the end of the deal")
    if (a, b) != tuple(result.line_totals):
        _fail(case, f"the line {list(map(str, result.line))} ends at {(a, b)} for the reference, "
                    f"not at the solver's line_totals {result.line_totals}")
    if objective == "total" and (a, b) != tuple(result.totals):
        _fail(case, f"the line {list(map(str, result.line))} ends at {(a, b)} for the reference, "
                    f"not at the solver's totals {result.totals}")
    if result.line_tricks:
        got = [(l, tuple(c), w) for l, c, w in result.line_tricks]
        if got != tricks:
            _fail(case, f"tricks of the line (leader, cards, winner): solver {got}, reference {tricks}")


def crosscheck(mode: str, seed: int, size: str = "small") -> None:
    case = generate_case(mode, seed, size)
    print(f"mode {mode}, seed {seed}, size {size}:\n{case.toml}")     # shown on failure
    try:
        deal = stich.loads(case.toml, f"<{mode} seed {seed}>")
    except stich.DealError as exc:
        _fail(case, f"the reader rejects a generated position: {exc}")
    check_reader(case, deal)
    ref = reference.solve(deal)
    result = stich.solve(deal, objective="total")
    compare(case, deal, result, ref, "total")
    result = stich.solve(deal)                      # the default objective, "score"
    compare(case, deal, result, ref, "score")


# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode,seed", _params(DEFAULT_COUNT))
def test_crosscheck(mode, seed):
    crosscheck(mode, seed)


@pytest.mark.slow
@pytest.mark.parametrize("mode,seed", _params(SLOW_SMALL_COUNT, start=DEFAULT_COUNT))
def test_crosscheck_more(mode, seed):
    crosscheck(mode, seed)


@pytest.mark.slow
@pytest.mark.parametrize("mode,seed", [pytest.param(mode, seed, id=f"{mode}-large-seed{seed}")
                                       for mode, count in SLOW_LARGE_COUNT.items()
                                       for seed in range(count)])
def test_crosscheck_large(mode, seed):
    crosscheck(mode, seed, "large")


# --- the reference checks itself: the memo changes nothing -----------------------------------

@pytest.mark.parametrize("mode", [m for m in MODES if m != "scharwenzel-4-ending"])
def test_reference_memo_changes_nothing(mode):
    """Plain minimax without the memo gives the same results as with it (small positions)."""
    for seed in range(15):
        case = generate_case(mode, seed)
        deal = stich.loads(case.toml)
        with_memo, without = reference.solve(deal), reference.solve(deal, memo=False)
        assert (with_memo.totals, with_memo.moves) == (without.totals, without.moves), case.toml


# --- every pair of cards in a one-trick ending: the card orders ----------------------------------

def _one_trick_rulesets():
    for trump_mode, trumps in (("schellen", (None,)), ("card17", reference.SUITS)):
        for trump in trumps:
            yield "schafkopf2", trump_mode, trump
    yield "elfern", None, None


@pytest.mark.parametrize("game,trump_mode,trump", list(_one_trick_rulesets()))
def test_every_pair_two_players(game, trump_mode, trump):
    """Two-player games: for every ordered pair of cards, the one-trick ending where seat 1
    leads the first and seat 2 holds only the second: the solver's trick winner and totals
    against the reference's."""
    import random

    from randompositions import PACK32, card_text
    rng = random.Random(0)
    for x in PACK32:
        for y in PACK32:
            if x == y:
                continue
            notation = "french"
            if game == "schafkopf2":
                rules = f"[rules]\ntrump_mode = \"{trump_mode}\"\n"
                trump_line = "" if trump is None else f"trump = \"{['clubs', 'spades', 'hearts', 'diamonds'][trump]}\"\n"
                toml = (f"game = \"schafkopf2\"\ncards = \"{notation}\"\n{trump_line}\n[piles]\n"
                        f"1 = \"{card_text(x, notation, rng)}\"\n2 = \"{card_text(y, notation, rng)}\"\n\n{rules}")
            else:
                toml = (f"game = \"elfern\"\n\n[hands]\n1 = \"{card_text(x, notation, rng)}\"\n"
                        f"2 = \"{card_text(y, notation, rng)}\"\n")
            deal = stich.loads(toml)
            ref = reference.solve(deal)
            result = stich.solve(deal, objective="total")
            want_winner = 1 + ref.rules.winner((x, y))
            got = result.line_tricks[0][2] if result.line_tricks else None
            assert (result.totals, got) == (ref.totals, want_winner), \
                f"{x} led, {y} played: solver {result.totals} winner {got}, reference " \
                f"{ref.totals} winner {want_winner}\n{toml}"


@pytest.mark.parametrize("players,trump,plain_order",
                         [(n, t, o) for n in (4, 6) for t in reference.SUITS for o in ("AKQ10", "A10KQ")])
def test_every_pair_scharwenzel(players, trump, plain_order):
    """Scharwenzel: for every ordered pair of cards of the pack, a one-card ending where seat 1
    leads the first, seat 2 holds the second and the other seats random other cards: the
    solver's trick winner and totals against the reference's."""
    import random

    from randompositions import PACK32, PACK36, cards_text
    rng = random.Random(f"{players}/{trump}/{plain_order}")
    pack = PACK36 if players == 6 else PACK32
    for x in pack:
        for y in pack:
            if x == y:
                continue
            others = rng.sample([c for c in pack if c not in (x, y)], players - 2)
            hands = "\n".join(f"{seat} = \"{cards_text([c], 'french', rng)}\""
                              for seat, c in enumerate([x, y] + others, start=1))
            toml = (f"game = \"scharwenzel\"\ntrump = \"{['clubs', 'spades', 'hearts', 'diamonds'][trump]}\"\n"
                    f"\n[hands]\n{hands}\n\n[rules]\nplain_order = \"{plain_order}\"\n")
            deal = stich.loads(toml)
            ref = reference.solve(deal)
            result = stich.solve(deal, objective="total", tt_megabytes=1)
            want_winner = 1 + ref.rules.winner(tuple([x, y] + others))
            got = result.line_tricks[0][2] if result.line_tricks else None
            assert (result.totals, got) == (ref.totals, want_winner), \
                f"solver {result.totals} winner {got}, reference {ref.totals} winner {want_winner}\n{toml}"

"""The analysis tools: analyze, replay, puzzle and the double-dummy table.

Expected values of the hand-built positions are worked out in the comments; the rest compares
one tool with another (analyze with solve, the table with separate solves, replay with the
line solve reported), never with hard-coded solver output.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from clirun import run

import stich
from stich.analysis.analyze import analyze, analyze_all_seats, as_leader
from stich.analysis.puzzle import solve_puzzle
from stich.analysis.replay import replay
from stich.analysis.table import dd_table, variant
from stich.cli.main import main
from stich.deals.dealing import random_deal
from stich.model.cards import parse_card, parse_cards

# Scharwenzel, hearts trump (♣Q ♥7 ♠Q ♣J ♠J ♥J ♦J ♥A ♥K ♥Q ♥10 ♥9 ♥8), seat 3 leads, taken 3-2.
# Seats 1+3 can take all three tricks only by leading ♦A:
# - ♦A: seat 4 follows ♦K, seat 1 ruffs (♥9), seat 2 follows ♦10.  Seat 1 leads ♠A: seat 2
#   follows ♠K, seat 3 ruffs ♥J, seat 4 has only ♥A/♥K (below ♥J).  Seat 3 leads ♣8: seat 1's
#   ♣Q is the top trump.  6-2.
# - ♥J: seat 2 must follow with ♥7 (Manille, above ♥J), so seat 1 must spend ♣Q; then seat 4
#   still has a trump and ruffs ♠A or overtakes ♥9: one trick lost, 5-3.
# - ♣8: nobody has a plain club; seat 1 wins with ♣Q, but seat 2 throws ♠K and keeps ♥7, which
#   ruffs ♠A or beats ♥9 later: 5-3.
SCHARWENZEL_ENDING = """
game = "scharwenzel"
trump = "hearts"
leader = 3
taken = [3, 2]

[hands]
1 = "♣Q ♥9 ♠A"
2 = "♥7 ♦10 ♠K"
3 = "♥J ♦A ♣8"
4 = "♥A ♥K ♦K"
"""

# Elfern, stock gone (follow suit), seat 1 leads ♠A ♠9 against ♠K ♠10; honours ♠A ♠K ♠10.
# - ♠A first: seat 2 throws ♠10 under it (2 honours to seat 1), then ♠K beats ♠9: 2-1.
# - ♠9 first: seat 2 wins it with ♠10 or ♠K (1 honour), then ♠A takes the other: 2-1.
# So seat 1 gets 2 honours with either card (cooked for honours>=2), never 3.
ELFERN_TWO = """
game = "elfern"

[hands]
1 = "♠A ♠9"
2 = "♠K ♠10"
"""


def load(text: str) -> stich.Deal:
    return stich.loads(text, "<test>")


def cards(text: str, notation: str = "french"):
    return tuple(parse_cards(text, notation))


# --- puzzle --------------------------------------------------------------------------------------

def test_sound_puzzle_has_one_key_move():
    result = solve_puzzle(load(SCHARWENZEL_ENDING), "tricks>=6")
    assert result.reachable and result.verdict == "sound" and result.exit_code == 0
    assert result.key_moves == (cards("♦A"),)
    assert sorted(result.failing) == sorted([cards("♥J"), cards("♣8")])
    # the main line starts with the key move and reaches the goal: replay it with the referee
    position = load(SCHARWENZEL_ENDING).position()
    for card in result.main_line:
        position.play(card)
    assert position.is_over() and position.points[0] == 6
    assert result.main_line[0] == parse_card("♦A")


def test_cooked_puzzle_lists_every_key_move():
    result = solve_puzzle(load(ELFERN_TWO), "honours>=2")
    assert result.verdict == "cooked" and result.exit_code == 3
    assert sorted(result.key_moves) == sorted([cards("♠A"), cards("♠9")])


def test_unreachable_puzzle_is_refuted():
    result = solve_puzzle(load(ELFERN_TWO), "honours>=3")
    assert not result.reachable and result.verdict == "unreachable" and result.exit_code == 4
    assert result.key_moves == ()
    # a refutation for each first move, each a legal line to the end that stops the goal
    assert {move for move, _ in result.refutation} == {parse_card("♠A"), parse_card("♠9")}
    for move, line in result.refutation:
        position = load(ELFERN_TWO).position()
        for card in (move,) + line:
            position.play(card)
        assert position.is_over() and position.points[0] < 3


def test_puzzle_for_the_other_side_and_levels():
    # Seats 2+4 can hold seats 1+3 to 5 tricks only if seats 1+3 go wrong: with ♦A they take
    # all three remaining tricks, so "seats 2+4 take at least 3 tricks" (taken 2 + 1) fails.
    result = solve_puzzle(load(SCHARWENZEL_ENDING), "tricks>=3", side=1)
    assert not result.reachable and not result.solver_to_move
    # seats 1+3 win the deal (6-2) whatever they do: every first card keeps a win
    result = solve_puzzle(load(SCHARWENZEL_ENDING), "win")
    assert result.reachable and result.verdict == "cooked" and len(result.key_moves) == 3


@pytest.mark.parametrize("goal", ["points>=3", "tricks>=x", "tout", "first", "nonsense"])
def test_bad_goals_exit_2(goal, tmp_path):
    path = tmp_path / "e.toml"
    path.write_text(ELFERN_TWO, encoding="utf-8")
    out = CliRunner().invoke(main, ["puzzle", str(path), "--goal", goal])
    assert out.exit_code == 2, out.output
    assert "--goal" in out.stderr and "Traceback" not in out.output


def test_every_trick_after_the_other_side_took_one_is_unreachable_not_bad_input(tmp_path):
    """Seats 2+4 already took 2 tricks: "seats 1+3 take every trick" is a fair question whose
    answer is no (exit 4), as tricks>=9 would be, not a bad goal."""
    path = tmp_path / "s.toml"
    path.write_text(SCHARWENZEL_ENDING, encoding="utf-8")
    result = solve_puzzle(load(SCHARWENZEL_ENDING), "tout")
    assert not result.reachable and result.verdict == "unreachable"
    assert CliRunner().invoke(main, ["puzzle", str(path), "--goal", "tout"]).exit_code == 4


def test_puzzle_cli_exit_codes(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(SCHARWENZEL_ENDING, encoding="utf-8")
    assert CliRunner().invoke(main, ["puzzle", str(path), "--goal", "tricks>=6"]).exit_code == 0
    assert CliRunner().invoke(main, ["puzzle", str(path), "--goal", "tricks>=7"]).exit_code == 4
    path.write_text(ELFERN_TWO, encoding="utf-8")
    assert CliRunner().invoke(main, ["puzzle", str(path), "--goal", "honours>=2", "--json"]).exit_code == 3


# --- replay --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game, seed, players", [("scharwenzel", 3, 4), ("scharwenzel", 4, 6),
                                                 ("schafkopf2", 2, 2), ("elfern", 1, 2)])
def test_replay_of_an_optimal_game_has_no_mistake(game, seed, players):
    deal = random_deal(game, seed, players=players)
    if game == "elfern":          # a shorter Elfern game: start after the stock phase
        first = stich.solve(deal, objective="total")
        deal = deal.with_play(tuple(tuple(first.line[i:i + 2]) for i in range(0, 20, 2)))
        deal = as_leader(deal, deal.position().leader + 1)
    result = stich.solve(deal, objective="total")
    n = deal.players
    line = result.line
    played = replace(deal, play=tuple(tuple(line[i:i + n]) for i in range(0, len(line), n)))
    analysis = replay(stich.loads(played.dump()))
    assert analysis.complete and analysis.final == result.totals
    assert analysis.mistakes() == ()
    assert all(step.before == result.totals == step.after for step in analysis.steps)
    scored = replay(stich.loads(played.dump()), with_outcome=True).steps[-1]   # the last card: the deal's outcome
    final = stich.solve(played).outcome
    assert scored.level_after is not None and scored.level_after.endswith(final.level)
    assert scored.level_after.startswith("seat") == (final.winner is not None)


def test_replay_shows_exactly_the_cost_of_a_blunder():
    # ♥J instead of ♦A costs seats 1+3 one trick (see SCHARWENZEL_ENDING); the rest of the play
    # is then optimal for both sides, so that is the only mistake and the game ends 5-3.
    deal = load(SCHARWENZEL_ENDING)
    after = stich.solve(load(SCHARWENZEL_ENDING.replace('leader = 3', 'leader = 3\nplay = ["♥J"]')),
                         objective="total")
    line = (parse_card("♥J"),) + after.line
    played = stich.loads(replace(deal, play=tuple(tuple(line[i:i + 4]) for i in range(0, 12, 4))).dump())
    analysis = replay(played)
    mistakes = analysis.mistakes()
    assert [(m.seat, m.card, m.cost) for m in mistakes] == [(3, parse_card("♥J"), 1)]
    assert mistakes[0].before == (6, 2) and mistakes[0].after == (5, 3)
    assert mistakes[0].better == (parse_card("♦A"),)
    assert analysis.final == (5, 3) and analysis.cost_by_side() == (1, 0)


# --- analyze -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["examples/scharwenzel-played.toml", "examples/schafkopf2-played.toml",
                                  "examples/elfern-played.toml", "examples/scharwenzel-ending.toml"])
def test_analyze_agrees_with_solve_grouped_and_expanded(path):
    deal = stich.load(path)
    result = stich.solve(deal)
    by_card = {m.card: m for m in result.moves}
    grouped = analyze(deal)
    expanded = analyze(deal, expand=True)
    assert sorted(c for row in grouped.rows for c in row.cards) == sorted(by_card)
    assert sorted(c for row in expanded.rows for c in row.cards) == sorted(by_card)
    assert all(len(row.cards) == 1 for row in expanded.rows)
    for view in (grouped, expanded):
        for row in view.rows:
            for card in row.cards:
                move = by_card[card]
                assert row.totals == move.totals and row.optimal == move.optimal
                assert row.level == move.level
                own = deal.rule_set.side(result.to_move - 1)
                assert row.loss == result.totals[own] - move.totals[own]
    # a group is only ever cards the engine called equivalent, all with one value
    for row in grouped.rows:
        assert len({by_card[c].group for c in row.cards}) == 1


def test_analyze_all_seats_leads_from_each_seat():
    deal = load(SCHARWENZEL_ENDING)
    analyses = analyze_all_seats(deal)
    assert [a.seat for a in analyses] == [1, 2, 3, 4]
    for a in analyses:
        assert a.result.to_move == a.seat
        # the seat's own cards are exactly the legal leads
        held = set(deal.position().held(a.seat - 1))
        assert {c for row in a.rows for c in row.cards} == held
    # seat 3 leading is the file's own position
    assert analyses[2].result.totals == stich.solve(deal).totals


def test_all_seats_needs_a_trick_start(tmp_path):
    path = tmp_path / "mid.toml"
    path.write_text(SCHARWENZEL_ENDING.replace("leader = 3", 'leader = 3\nplay = ["♦A"]'), encoding="utf-8")
    out = CliRunner().invoke(main, ["analyze", str(path), "--all-seats"])
    assert out.exit_code == 2 and "start of a trick" in out.stderr


# --- table -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed, players", [(1, 4), (2, 8)])
def test_scharwenzel_table_agrees_with_each_cell_alone(seed, players):
    deal = random_deal("scharwenzel", seed, players=players)
    table = dd_table(deal)
    assert len(table.cells) == 4 * players
    for cell in table.cells:
        alone = stich.solve(variant(deal, trump=cell.trump, leader=cell.leader, all_passed=False))
        assert cell.totals == alone.totals
        assert cell.outcome == alone.outcome
    # the best trump of each seat is as good for its side as any other trump
    for seat, suit in table.best_trump.items():
        side = (seat - 1) % 2
        best = table.cell(suit, deal.leader)
        for other in range(4):
            cell = table.cell(other, deal.leader)
            assert _score(best.outcome, side) >= _score(cell.outcome, side)


def _score(outcome, side):
    if outcome.winner is None:
        return (0, 0)
    sign = 1 if outcome.winner - 1 == side else -1
    return (sign * outcome.hooks, sign * outcome.score)


def test_schafkopf2_table_covers_each_card17_trump():
    deal = stich.load("examples/schafkopf2-card17.toml")
    table = dd_table(deal)
    assert [c.trump for c in table.cells] == [0, 1, 2, 3]
    for cell in table.cells:
        rules = dict(deal.rules, trump_mode="card17")
        alone = stich.solve(variant(deal, trump=cell.trump, rules=rules))
        assert cell.totals == alone.totals and cell.outcome == alone.outcome


def test_table_cli_json_and_elfern_refused(tmp_path):
    out = CliRunner().invoke(main, ["table", "examples/scharwenzel-8.toml", "--json"])
    assert out.exit_code == 0
    import json
    data = json.loads(out.stdout)
    assert len(data["cells"]) == 32 and {"trump", "leader", "totals", "outcome"} <= set(data["cells"][0])
    out = CliRunner().invoke(main, ["table", "examples/elfern-deal.toml"])
    assert out.exit_code == 2 and "no trump" in out.stderr


ROOT = Path(__file__).resolve().parent.parent


EXAMPLES = ROOT / "examples"


def test_analyze_explains_optimal_cards_that_lose_under_the_score_objective():
    result = run("analyze", EXAMPLES / "schafkopf2-ending.toml")
    assert result.exit_code == 0
    rows = [line for line in result.stdout.splitlines() if line.rstrip().endswith("*")
            and " -" in line and "same value" not in line]
    losing_optimal = [line for line in rows if any(part.startswith("-") and part[1:].isdigit()
                                                   for part in line.split())]
    assert losing_optimal, result.stdout
    assert "keeps the best outcome" in result.stdout
    assert "keeps the best outcome" in run("solve", EXAMPLES / "schafkopf2-ending.toml").stdout


@pytest.mark.parametrize("goal", [9, 10, 11, 12, 13])
def test_a_puzzle_with_the_defence_to_move_is_reachable_or_not_and_names_the_defences_stops(goal):
    """Seat 1 is to move in the Elfern ending and the goal is seat 2's: the cards tried first are
    the defence's, so no key move is claimed.  The reference solver scores each of seat 1's
    cards independently: the goal is reachable when seat 2 makes ``goal`` honours after every
    one, and the defence's stops are exactly the cards after which it does not."""
    import reference
    deal = stich.load(EXAMPLES / "elfern-ending.toml")
    after = reference.solve(deal).moves
    stopping = {card for card, totals in after.items() if totals[1] < goal}
    result = solve_puzzle(deal, f"honours>={goal}", side=1)
    assert not result.solver_to_move and result.key_moves == () and result.failing == ()
    assert result.verdict == ("unreachable" if stopping else "reachable")
    assert result.exit_code == (4 if stopping else 0)
    assert {card for group in result.defence_stops for card in group} == stopping
    if stopping:                    # the refutation: a legal line from a stop to the end, short of the goal
        ((first, line),) = result.refutation
        assert first in stopping
        position = deal.position()
        for card in (first, *line):
            position.play(card)
        assert position.is_over() and position.points[1] < goal
    else:
        assert result.refutation == () and result.main_line


def test_replay_tells_a_card_that_changed_the_outcome_from_one_that_lost_only_points():
    """In the played Schafkopf2 example each mistake is marked by what it gave away, and a card
    marked as losing only points is one that `analyze`, at the same position, stars as optimal
    for the score (it keeps the outcome); one that changed the outcome is not starred."""
    text = (EXAMPLES / "schafkopf2-played.toml").read_text(encoding="utf-8")
    deal = stich.loads(text)
    result = replay(deal)
    out = run("replay", EXAMPLES / "schafkopf2-played.toml").stdout
    played: list[str] = []
    for step in result.steps:
        card = step.card.text(deal.notation)
        row = next(line for line in out.splitlines() if line.split()[:3] == [str(step.trick), str(step.seat), card])
        before = stich.loads(text.replace('play = ["E9 S8", "RA R9"]', f"play = {json.dumps(_tricks(played))}"))
        starred = {c for r in analyze(before).rows if r.optimal for c in r.cards}
        if step.rank_cost > 0:
            assert row.split()[-2] == "outcome" and step.card not in starred, row
        elif step.cost > 0:
            assert "points only" in row and step.card in starred, row
        played.append(card)
    outcome = sum(1 for s in result.mistakes() if s.rank_cost > 0)
    assert outcome and outcome < len(result.mistakes())
    assert (f"Mistakes: {len(result.mistakes())} ({outcome} changed the outcome, "
            f"{len(result.mistakes()) - outcome} lost only card points)") in out


def test_replay_names_whose_outcome_each_card_forces():
    """The forced outcome before and after each card of the played Schafkopf2 example names
    its side, and both are what `analyze` of the position before the card gives: the best
    card's outcome, and the played card's."""
    from stich.model.rules import side_label
    text = (EXAMPLES / "schafkopf2-played.toml").read_text(encoding="utf-8")
    deal = stich.loads(text)
    played: list[str] = []

    def said(row) -> str:
        return row.level if row.winner is None else f"{side_label(deal.rule_set, row.winner - 1)}: {row.level}"
    for step in replay(deal).steps:
        before = stich.loads(text.replace('play = ["E9 S8", "RA R9"]', f"play = {json.dumps(_tricks(played))}"))
        rows = analyze(before).rows
        assert step.level_before == said(rows[0])
        assert step.level_after == said(next(r for r in rows if step.card in r.cards))
        played.append(step.card.text(deal.notation))
    assert len(played) == 4


def _tricks(cards: list[str]) -> list[str]:
    """Cards in the order played, as the `play` key's tricks of two cards."""
    return [" ".join(cards[k:k + 2]) for k in range(0, len(cards), 2)]

"""The command-line contract of deal-format.md ("Command line").

``stich solve FILE`` (FILE may be ``-``) prints a report, or with ``--json`` one JSON object with
"totals", "line" and "moves".  Exit status 0 on success, 2 on bad input with one line on stderr
naming the file, the key and the problem (never a traceback), 1 for anything else.

The expected totals below are worked out by hand in the comments, never taken from the solver.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from clirun import one_line_error
from clirun import run as cli_run

import stich
from stich.cli import common
from stich.cli.main import main
from stich.deals.deal import DealError, load
from stich.games import GAMES
from stich.model.cards import ACE, JACK, KING, QUEEN, TEN, parse_card

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def solve_json(path_or_dash: str, *more: str, input=None) -> dict:
    result = run("solve", str(path_or_dash), "--json", *more, input=input)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    obj = json.loads(result.stdout)           # the whole output is ONE JSON value ...
    assert isinstance(obj, dict)              # ... and it is an object
    return obj


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- hand-verified positions ------------------------------------------------------------------

# Elfern, stock gone (suit must be followed), seat 1 leads, 3 honours out (♠A ♠K ♠10).
#
# Free (must_head = false): seat 1 gets 1, seat 2 gets 2, whatever seat 1 leads.
#   ♠A: seat 2 ducks low.  Then ♠10 is taken by ♠K (2 to seat 2); ♠9 is ducked again and ♠10
#       meets ♠K later (2 to seat 2).  -> 1-2
#   ♠10: seat 2 takes it with ♠K (2), seat 1 later wins only ♠A.  -> 1-2
#   ♠9: seat 2 ducks; then as after ♠A: ♠K captures ♠10 or ♠A wins alone.  -> 1-2
#   (seat 2 must not play ♠K on ♠9: it would win 1 and lose ♠A ♠10 to seat 1, 2-1.)
# must_head = true (follow and beat the card led if able):
#   ♠A: nobody can beat it, seat 2 plays low.  Seat 1 leads ♠9: seat 2 must beat it and ♠K is
#       its only card above ♠9, so ♠K takes ♠9 (1 to seat 2); seat 2 leads its low spade and
#       ♠10 wins it (1 to seat 1).  -> 2-1
#   ♠9: ♠K is forced at once (1 to seat 2), seat 1 wins ♠A and ♠10 later.  -> 2-1
#   ♠10: ♠K is forced and takes ♠10 (2 to seat 2), seat 1 gets ♠A.  -> 1-2
HEAD = 'game = "elfern"\n[hands]\n1 = "♠A ♠10 ♠9"\n2 = "♠K ♠8 ♠7"\n'
HEAD_FREE = [1, 2]
HEAD_FREE_MOVES = {"♠A": [1, 2], "♠10": [1, 2], "♠9": [1, 2]}
HEAD_MUST = [2, 1]
HEAD_MUST_MOVES = {"♠A": [2, 1], "♠10": [1, 2], "♠9": [2, 1]}

# Schafkopf, Schellen trump: trick 1 of `play` is EA E10 (seat 2 must follow Eichel); the Ace
# beats the ten and seat 1 wins 11 + 10 = 21.  E7 and EK turn up; seat 1 leads E7, seat 2 must
# follow with EK and wins 4.  Totals: [40 + 21, 48 + 4] = [61, 52].
SK_PLAYED = ('game = "schafkopf2"\ntaken = [40, 48]\nplay = ["EA E10"]\n'
             '[piles]\n1 = "EA/E7"\n2 = "E10/EK"\n')
SK_PLAYED_TOTALS = [61, 52]

# scharwenzel-ending.toml (hearts trump, seat 3 leads, taken [3, 2]).  Trumps: ♣Q ♥7 ♠Q ♣J ♠J
# ♥J ♦J ♥A ♥K ♥Q ♥10 ♥9 ♥8.  Seat 3 leads ♦A: seat 4 must follow ♦K, seat 1 trumps with ♥9,
# seat 2 must follow ♦10 -> seats 1+3.  Seat 1 leads ♠A: seat 2 must follow ♠K, seat 3 trumps
# with ♥J, seat 4 has only ♥A/♥K, both lower -> seats 1+3.  Seat 3 leads ♣8: seat 4 a heart,
# seat 1 ♣Q (top trump), seat 2 ♥7 -> seats 1+3.  Every card of seats 2 and 4 was forced or
# irrelevant, so 1+3 take all three tricks: [3 + 3, 2 + 0] = [6, 2], and ♦A is optimal.
SCHARWENZEL_ENDING_TOTALS = [6, 2]

# A deal played to the end: seat 1's ♠A takes ♠K, 2 honours: [5 + 2, 5] = [7, 5].
OVER = 'game = "elfern"\ntaken = [5, 5]\nplay = ["♠A ♠K"]\n[hands]\n1 = "♠A"\n2 = "♠K"\n'


# --- JSON consistency -------------------------------------------------------------------------

HONOURS = {ACE, KING, QUEEN, JACK, TEN}
CARD_POINTS = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2}


def value_in_play(deal, position) -> int:
    """What is still to be won, from the rules (rules.md), not from the solver's tables."""
    cards = position.in_play()
    if deal.game == "elfern":
        return sum(1 for c in cards if c.rank in HONOURS)
    if deal.game == "schafkopf2":
        bonus = 10 if deal.options["mariage"] else 0
        return sum(CARD_POINTS.get(c.rank, 0) for c in cards) + bonus
    return len(cards) // deal.players            # Scharwenzel: tricks


def check_json(obj: dict, deal) -> None:
    position = deal.position()
    # types
    totals = obj["totals"]
    assert isinstance(totals, list) and len(totals) == 2
    assert all(isinstance(v, int) and not isinstance(v, bool) for v in totals)
    assert isinstance(obj["line"], list) and all(isinstance(c, str) for c in obj["line"])
    assert isinstance(obj["moves"], list)
    for move in obj["moves"]:
        assert isinstance(move, dict) and isinstance(move["card"], str)
        assert isinstance(move["totals"], list) and len(move["totals"]) == 2
        assert all(isinstance(v, int) and not isinstance(v, bool) for v in move["totals"])
    # the totals count what was won before (taken + play) and share out exactly what is left
    already = list(position.points)
    whole = sum(already) + value_in_play(deal, position)
    assert sum(totals) == whole
    assert totals[0] >= already[0] and totals[1] >= already[1]
    # one card per card still out, each written in the deal's own notation
    line = [parse_card(text, deal.notation) for text in obj["line"]]
    assert len(line) == position.cards_left()
    # every legal card of the player to move, once
    moves = {parse_card(m["card"], deal.notation): m["totals"] for m in obj["moves"]}
    assert len(moves) == len(obj["moves"])
    if position.is_over():
        assert moves == {} and line == [] and totals == already
        return
    assert set(moves) == set(position.legal_moves())
    for move_totals in moves.values():
        assert sum(move_totals) == whole
    # the player to move picks the best for his side; the totals are that best
    side = deal.rule_set.side(position.to_move)
    best = max(t[side] for t in moves.values())
    assert totals[side] == best
    assert any(t == totals for t in moves.values())
    assert moves[line[0]] == totals            # the line starts with an optimal card
    # the line is legal and ends at the totals
    referee = position.copy()
    for card in line:
        referee.play(card)
    assert referee.is_over() and list(referee.points) == totals


FAST_EXAMPLES = ["elfern-ending.toml", "elfern-played.toml", "schafkopf2-ending.toml",
                 "schafkopf2-played.toml", "scharwenzel-ending.toml", "scharwenzel-played.toml",
                 "scharwenzel-deal.toml", "scharwenzel-6.toml", "scharwenzel-8.toml"]


@pytest.mark.parametrize("name", FAST_EXAMPLES)
def test_json_is_consistent(name):
    path = EXAMPLES / name
    obj = solve_json(str(path))
    check_json(obj, stich.load(path))


def test_json_scharwenzel_ending_by_hand():
    obj = solve_json(str(EXAMPLES / "scharwenzel-ending.toml"))
    assert obj["totals"] == SCHARWENZEL_ENDING_TOTALS
    moves = {m["card"]: m["totals"] for m in obj["moves"]}
    assert set(moves) == {"♥J", "♦A", "♣8"}           # seat 3 leads: any card
    assert moves["♦A"] == SCHARWENZEL_ENDING_TOTALS


def test_json_counts_taken_and_play(tmp_path):
    path = write(tmp_path, "sk.toml", SK_PLAYED)
    obj = solve_json(str(path))
    check_json(obj, stich.load(path))
    assert obj["totals"] == SK_PLAYED_TOTALS
    assert obj["line"] == ["E7", "EK"]                 # German notation, as the file
    assert obj["moves"][0]["card"] == "E7" and len(obj["moves"]) == 1
    assert obj["moves"][0]["totals"] == SK_PLAYED_TOTALS


def test_json_of_a_finished_deal(tmp_path):
    path = write(tmp_path, "over.toml", OVER)
    obj = solve_json(str(path))
    check_json(obj, stich.load(path))
    assert obj["totals"] == [7, 5] and obj["line"] == [] and obj["moves"] == []


def test_json_must_head_ending_by_hand(tmp_path):
    path = write(tmp_path, "head.toml", HEAD)
    free = solve_json(str(path))
    check_json(free, stich.load(path))
    assert free["totals"] == HEAD_FREE
    assert {m["card"]: m["totals"] for m in free["moves"]} == HEAD_FREE_MOVES


def test_rule_option_changes_the_result(tmp_path):
    path = write(tmp_path, "head.toml", HEAD)
    must = solve_json(str(path), "--rule", "must_head=true")
    check_json(must, stich.load(path).with_rules({"must_head": "true"}))
    assert must["totals"] == HEAD_MUST
    assert {m["card"]: m["totals"] for m in must["moves"]} == HEAD_MUST_MOVES


def test_rules_table_changes_the_result_and_rule_overrides_it(tmp_path):
    path = write(tmp_path, "head.toml", HEAD + "[rules]\nmust_head = true\n")
    assert solve_json(str(path))["totals"] == HEAD_MUST
    assert solve_json(str(path), "--rule", "must_head=false")["totals"] == HEAD_FREE


def test_rule_option_that_makes_the_play_illegal(tmp_path):
    # ♠9 ♠8 is legal without must_head; with it seat 2 had to beat with ♠K
    path = write(tmp_path, "ducked.toml", HEAD.replace("[hands]", 'play = ["♠9 ♠8"]\n[hands]'))
    assert run("solve", str(path), "--json").exit_code == 0
    result = run("solve", str(path), "--rule", "must_head=true")
    assert result.exit_code == 2
    assert_one_line(result.stderr, str(path), "play")


# --- the report and stdin ---------------------------------------------------------------------

def test_report():
    path = EXAMPLES / "scharwenzel-ending.toml"
    result = run("solve", str(path))
    assert result.exit_code == 0 and result.stderr == ""
    text = result.stdout
    assert text.strip()
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    # the report names the cards of the player to move and the totals
    for card in ("♥J", "♦A", "♣8"):
        assert card in text
    assert "6" in text and "2" in text


def test_report_in_german_notation(tmp_path):
    path = write(tmp_path, "sk.toml", SK_PLAYED)
    result = run("solve", str(path))
    assert result.exit_code == 0 and "E7" in result.stdout


def test_stdin():
    text = (EXAMPLES / "scharwenzel-ending.toml").read_text(encoding="utf-8")
    assert solve_json("-", input=text)["totals"] == SCHARWENZEL_ENDING_TOTALS
    assert solve_json("-", "--rule", "must_head=true", input=HEAD)["totals"] == HEAD_MUST
    result = run("solve", "-", input=text)
    assert result.exit_code == 0 and result.stdout.strip()


# --- bad input: exit 2, one line on stderr naming file and key ------------------------------

def assert_one_line(stderr: str, *words: str) -> None:
    assert stderr.endswith("\n")
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    for word in words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"


BAD_INPUTS = [
    # (name, text, key named in the message)
    ("toml", 'game = "elfern"\nstock = = 3\n', "line 2"),
    ("nogame", '[hands]\n1 = "♠A"\n2 = "♠K"\n', "game"),
    ("badgame", 'game = "skat"\n', "game"),
    ("unknownkey", 'game = "elfern"\nsocks = 1\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "socks"),
    ("unknowncard", 'game = "elfern"\n[hands]\n1 = "♠A ♠X"\n2 = "♠K ♠Q"\n', "hands.1"),
    ("notinpack", 'game = "scharwenzel"\ntrump = "clubs"\n[hands]\n1 = "♣6"\n2 = "♣7"\n3 = "♣8"\n4 = "♣9"\n',
     "hands.1"),
    ("duplicate", 'game = "elfern"\n[hands]\n1 = "♠A ♠J"\n2 = "♠K ♠A"\n', "hands"),
    ("counts", 'game = "elfern"\n[hands]\n1 = "♠A ♠J"\n2 = "♠K"\n', "hands"),
    ("oddstock", 'game = "elfern"\nstock = "♥7"\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "stock"),
    ("notrump", 'game = "scharwenzel"\n[hands]\n1 = "♣A"\n2 = "♣7"\n3 = "♣8"\n4 = "♣9"\n', "trump"),
    ("badoption", 'game = "elfern"\n[hands]\n1 = "♠A"\n2 = "♠K"\n[rules]\nmust_head = 2\n', "rules.must_head"),
    ("unknownoption", 'game = "elfern"\n[hands]\n1 = "♠A"\n2 = "♠K"\n[rules]\nfly = true\n', "rules.fly"),
    ("longtrick", HEAD.replace("[hands]", 'play = ["♠9 ♠7 ♠A"]\n[hands]'), "play"),
    ("notheld", HEAD.replace("[hands]", 'play = ["♠Q"]\n[hands]'), "play"),
    ("notfollowing", 'game = "elfern"\nplay = ["♠A ♥8"]\n[hands]\n1 = "♠A ♠9"\n2 = "♥8 ♠7"\n', "play"),
    ("taken", 'game = "elfern"\ntaken = [20, 0]\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "taken"),
    ("leader", 'game = "elfern"\nleader = 3\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "leader"),
]


@pytest.mark.parametrize("name,text,key", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_exits_2(tmp_path, name, text, key):
    path = write(tmp_path, f"bad-{name}.toml", text)
    for args in (("solve", str(path)), ("solve", str(path), "--json")):
        result = run(*args)
        assert result.exit_code == 2, (result.stdout, result.stderr)
        assert result.stdout == ""
        assert_one_line(result.stderr, f"bad-{name}.toml", key)


@pytest.mark.parametrize("name,text,key", BAD_INPUTS[:4], ids=[b[0] for b in BAD_INPUTS[:4]])
def test_bad_input_on_stdin_exits_2(name, text, key):
    result = run("solve", "-", input=text)
    assert result.exit_code == 2
    assert_one_line(result.stderr, "stdin", key)


def test_missing_file_exits_2(tmp_path):
    path = tmp_path / "no-such-deal.toml"
    result = run("solve", str(path))
    assert result.exit_code == 2
    assert_one_line(result.stderr, "no-such-deal.toml")


def test_directory_exits_2(tmp_path):
    result = run("solve", str(tmp_path))
    assert result.exit_code == 2
    assert_one_line(result.stderr, str(tmp_path))


def test_non_utf8_exits_2(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(HEAD.replace("♠", "S").encode("utf-8") + b"# Gr\xfcn\n")
    result = run("solve", str(path))
    assert result.exit_code == 2
    assert_one_line(result.stderr, "latin1.toml")
    result = run("solve", "-", input=b'game = "elfern"\n# Gr\xfcn\n')
    assert result.exit_code == 2
    assert_one_line(result.stderr, "stdin")


@pytest.mark.parametrize("rule,key", [
    ("flying=true", "flying"),              # no such option
    ("must_head=maybe", "must_head"),       # bad value
    ("must_head=", "must_head"),
    ("trump_mode=card17", "trump_mode"),    # an option of another game
    ("must_head", "must_head"),             # no NAME=VALUE
])
def test_bad_rule_exits_2(tmp_path, rule, key):
    path = write(tmp_path, "head.toml", HEAD)
    result = run("solve", str(path), "--rule", rule)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert_one_line(result.stderr, key)
    if "=" in rule:                          # the deal was read: the message names its file
        assert "head.toml" in result.stderr


# --- real processes ---------------------------------------------------------------------------

def run_stich(*args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "stich.cli.main", *args], cwd=ROOT, input=input,
                          capture_output=True, timeout=60)


def test_process_success():
    proc = run_stich("solve", str(EXAMPLES / "scharwenzel-ending.toml"), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.decode("utf-8"))["totals"] == SCHARWENZEL_ENDING_TOTALS
    assert b"Traceback" not in proc.stderr


def test_process_stdin_and_rule():
    proc = run_stich("solve", "-", "--json", "--rule", "must_head=true", input=HEAD.encode("utf-8"))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.decode("utf-8"))["totals"] == HEAD_MUST


@pytest.mark.parametrize("args,input", [
    (("solve", "/no/such/deal.toml"), None),
    (("solve", "-"), b'game = "elfern"\n[hands]\n1 = "\xff"\n2 = "x"\n'),        # not UTF-8
    (("solve", "-"), 'game = "elfern"\nplay = ["♠8"]\n'.encode() + HEAD.split("\n", 1)[1].encode()),
    (("solve", "-", "--rule", "must_head=maybe"), HEAD.encode("utf-8")),
])
def test_process_bad_input(args, input):
    proc = run_stich(*args, input=input)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr
    assert len(stderr.splitlines()) == 1, stderr
    assert proc.stdout == b""


SCHARWENZEL_END = ('game = "scharwenzel"\n{extra}\n[hands]\n1 = "♣Q ♥9 ♠A"\n2 = "♥7 ♦10 ♠K"\n'
                   '3 = "♥J ♦A ♣8"\n4 = "♥A ♥K ♦K"\n')


OPTION_FILES = {"scharwenzel": SCHARWENZEL_END.format(extra='trump = "hearts"\ndeclarer = 2'),
                "schafkopf2": (EXAMPLES / "schafkopf2-ending.toml").read_text(encoding="utf-8"),
                "elfern": (EXAMPLES / "elfern-ending.toml").read_text(encoding="utf-8")}
OPTION_FILES.update({game: (EXAMPLES / f"{game}-deal.toml").read_text(encoding="utf-8")
                     for game in ("officers_skat", "einwerfen", "bohemian_schneider")})


OPTION_CASES = [(game, option.name, value) for game, spec in GAMES.items() for option in spec.options
                for value in (option.choices or (False, True))]


def _toml(value):
    return ("true" if value else "false") if isinstance(value, bool) else \
        (str(value) if isinstance(value, int) else f'"{value}"')


def test_a_huge_goal_number_is_unreachable_not_an_overflow():
    result = cli_run("puzzle", EXAMPLES / "scharwenzel-ending.toml", "--goal", "total>=99999999999999999999")
    assert result.exit_code == 4, result.output
    assert "internal error" not in result.output


def test_rule_first_leader_declarer_works_like_the_rules_table(tmp_path):
    with_table = write(tmp_path, "a.toml", SCHARWENZEL_END.format(
        extra='trump = "hearts"\ndeclarer = 2\n[rules]\nfirst_leader = "declarer"'))
    plain = write(tmp_path, "b.toml", SCHARWENZEL_END.format(extra='trump = "hearts"\ndeclarer = 2'))
    assert load(with_table).leader == 2
    assert common.read_deal(str(plain), ("first_leader=declarer",)).leader == 2


def test_rule_trump_mode_card17_on_a_file_with_trump(tmp_path):
    text = (EXAMPLES / "schafkopf2-ending.toml").read_text(encoding="utf-8")
    path = write(tmp_path, "t.toml", text.replace("taken", 'trump = "rot"\ntaken'))
    result = cli_run("solve", path, "--rule", "trump_mode=card17", "--json")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("game,name,value", OPTION_CASES)
def test_every_option_works_both_ways(tmp_path, game, name, value):
    """--rule NAME=VALUE reads the file exactly as `NAME = VALUE` in [rules] does."""
    base = OPTION_FILES[game]
    table = base + f"\n[rules]\n{name} = {_toml(value)}\n"
    outcomes = []
    for path, rules in ((write(tmp_path, "table.toml", table), ()),
                        (write(tmp_path, "rule.toml", base), (f"{name}={_toml(value).strip(chr(34))}",))):
        try:
            outcomes.append(common.read_deal(str(path), rules))
        except DealError as exc:
            outcomes.append(exc.message)
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("example,sides", [("scharwenzel-6.toml", "seats 1+3+5 – seats 2+4+6"),
                                           ("scharwenzel-8.toml", "seats 1+3+5+7 – seats 2+4+6+8")])
def test_table_header_names_the_sides_and_fits_100_columns(example, sides):
    result = cli_run("table", EXAMPLES / example)
    assert result.exit_code == 0
    assert sides in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 100


def test_replay_errors_start_like_the_others():
    one_line_error(cli_run("replay", EXAMPLES / "scharwenzel-deal.toml"), "play")


def test_usage_errors_are_one_line():
    one_line_error(cli_run("solve"), "FILE")
    one_line_error(cli_run("solve", EXAMPLES / "elfern-ending.toml", "--tt-mb", "0"), "--tt-mb")


def test_cards_of_a_line_read_back_in_a_german_deal():
    deal = stich.load(EXAMPLES / "schafkopf2-ending.toml")
    result = stich.solve(deal)
    trick = " ".join(str(card) for card in result.line[:2])
    assert trick == " ".join(card.text("german") for card in result.line[:2])
    played = stich.loads(deal.dump().replace("taken", f'play = ["{trick}"]\ntaken'))
    assert played.play[0] == tuple(result.line[:2])


def test_import_without_the_built_core_says_what_to_do(tmp_path):
    import shutil
    shutil.copytree(ROOT / "solver", tmp_path / "stich",
                    ignore=shutil.ignore_patterns("_search*.so", "_search*.pyd", "__pycache__"))
    done = subprocess.run([sys.executable, "-S", "-c", "import stich"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode != 0
    assert "pip install -e ." in done.stderr.splitlines()[-1]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device that is always full)")
@pytest.mark.parametrize("args", [("solve", "examples/elfern-ending.toml"),
                                  ("solve", "examples/elfern-ending.toml", "--json"),
                                  ("deal", "--game", "elfern", "-n", "3", "--json")])
def test_output_to_a_full_device_is_one_line_not_an_internal_error(args):
    """Standard output redirected to a full disk (here /dev/full): the user's to mend, so
    one line and bad input's exit status, as for --out."""
    root = Path(__file__).resolve().parent.parent
    code = (f"import sys; sys.path.insert(0, {str(root)!r}); from stich.cli.main import main; "
            "main(prog_name='stich')")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-c", code, *args], cwd=root, stdout=full,
                              stderr=subprocess.PIPE, timeout=120)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert len(err.strip().splitlines()) == 1 and "No space left" in err
    assert "internal error" not in err and "Traceback" not in err


def test_a_closed_pipe_is_no_internal_error():
    """`stich ... | head` closes the pipe early: no 'internal error' line, the shell's 141."""
    import subprocess
    import sys as _sys
    from pathlib import Path as _Path

    root = _Path(__file__).resolve().parent.parent
    code = (f"import sys; sys.path.insert(0, {str(root)!r}); from stich.cli.main import main; "
            "main(prog_name='stich')")
    proc = subprocess.Popen([_sys.executable, "-c", code, "tactic", "--list"], cwd=root,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()           # the reader goes away before stich writes (it is still importing)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141, err
    assert "internal error" not in err and "Traceback" not in err


def test_help_lists_every_exit_status():
    text = " ".join(cli_run("--help").output.split())
    for status in ("0 ", "1 ", "2 ", "3 ", "4 ", "5 ", "130 ", "141 "):
        assert status in text, (status, text)


def test_table_json_names_trumps_as_the_report_does():
    data = json.loads(cli_run("table", EXAMPLES / "schafkopf2-card17.toml", "--json").stdout)
    assert {cell["trump"] for cell in data["cells"]} == {"eichel", "gruen", "rot", "schellen"}
    data = json.loads(cli_run("table", EXAMPLES / "scharwenzel-ending.toml", "--json").stdout)
    assert {cell["trump"] for cell in data["cells"]} == {"clubs", "spades", "hearts", "diamonds"}


@pytest.mark.parametrize("width", [20, 45, 60, 80, 120])
def test_the_help_lists_each_command_as_the_command_itself_says(width):
    """`stich --help` lists the commands from a table (no command module is imported for it):
    each listed line is the one the command's own help gives."""
    import click

    from stich.cli.main import COMMANDS, main
    ctx = click.Context(main)
    for name, (_, paragraph) in COMMANDS.items():
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name
        listed = click.Command(name, help=paragraph).get_short_help_str(width)
        assert listed == command.get_short_help_str(width), name
    assert main.list_commands(ctx) == sorted(COMMANDS)


def test_a_command_added_to_the_group_is_listed_and_run():
    """Commands given as they are (not from the table) are listed with their own help and run,
    and reading ``commands`` gives every command (tools that walk them read it)."""
    import click
    from click.testing import CliRunner

    from stich.cli.group import LazyGroup

    group = LazyGroup("g", lazy={"solve": ("solve", "Solve the position in FILE exactly.")})
    group.add_command(click.Command("hello", help="Say hello.", callback=lambda: click.echo("hi")))
    assert set(group.commands) == {"solve", "hello"}
    assert group.commands["solve"].name == "solve"
    out = CliRunner().invoke(group, ["--help"]).output
    assert "hello  Say hello." in out and "solve  Solve the position" in out
    assert CliRunner().invoke(group, ["hello"]).output == "hi\n"


def test_ctrl_c_wrapped_by_python_is_an_interrupt(monkeypatch):
    """A Ctrl-C that Python wraps in another error (a class defined while a command's module is
    imported: "Error calling __set_name__") is still an interrupt: one line, exit 130."""
    import stich.cli.solve as solve_command

    def wrapped(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as ctrl_c:
            raise RuntimeError("Error calling __set_name__ on 'cached_property'") from ctrl_c

    monkeypatch.setattr(solve_command, "read_deal", wrapped)
    result = CliRunner().invoke(main, ["solve", "examples/scharwenzel-deal.toml"])
    assert result.exit_code == 130
    assert "interrupted" in result.output and "internal error" not in result.output


FINISHED = """game = "scharwenzel"
trump = "hearts"
play = ["♣Q ♣K ♣A ♥9"]
[hands]
1 = "♣Q"
2 = "♣K"
3 = "♣A"
4 = "♥9"
"""


@pytest.mark.parametrize("args", [("analyze",), ("analyze", "--all-seats"), ("suggest",),
                                  ("puzzle", "--goal", "win")])
def test_a_command_that_needs_a_card_to_play_names_a_finished_deal(tmp_path, args):
    """Every card is played: nothing to analyze, suggest or solve as a puzzle, said as bad input."""
    path = tmp_path / "over.toml"
    path.write_text(FINISHED, encoding="utf-8")
    one_line_error(cli_run(args[0], path, *args[1:]), str(path), "play", "the deal is over")


def test_solve_of_a_finished_deal_gives_its_totals_and_outcome(tmp_path):
    """♣Q is the top trump in Scharwenzel, so seat 1 took the one trick: seats 1+3 took every
    trick (tout), and the text says so as well as the totals."""
    path = tmp_path / "over.toml"
    path.write_text(FINISHED, encoding="utf-8")
    result = run("solve", str(path))
    assert result.exit_code == 0, result.stderr
    assert "The deal is over. seats 1+3: 1 trick, seats 2+4: 0 tricks" in result.output
    assert "Outcome: Seats 1+3 take every trick: tout" in result.output


def test_a_goal_every_first_move_keeps_is_cooked_in_those_words(tmp_path):
    """Seats 1+3 have taken 3 tricks of 8 already and win whatever seat 3 plays (the JSON's own
    key moves and failing moves say so); the text says every first move works."""
    result = run("puzzle", str(EXAMPLES / "scharwenzel-ending.toml"), "--goal", "win", "--json")
    answer = json.loads(result.output)
    assert answer["verdict"] == "cooked" and answer["failing_moves"] == []
    text = run("puzzle", str(EXAMPLES / "scharwenzel-ending.toml"), "--goal", "win").output
    assert "cooked: every first move works" in text
    answer = json.loads(run("puzzle", str(EXAMPLES / "schafkopf2-played.toml"), "--goal", "total>=70",
                            "--json").output)
    assert answer["verdict"] == "cooked" and answer["failing_moves"]
    text = run("puzzle", str(EXAMPLES / "schafkopf2-played.toml"), "--goal", "total>=70").output
    assert "cooked: more than one first move works" in text


def test_an_empty_game_name_is_no_game():
    one_line_error(cli_run("rules", ""), "unknown game ''")


@pytest.mark.parametrize("args", [("batch", "-", "--out"), ("tactic", "schafkopf2.bare_ten.lead_at_once", "--from", "-",
                                                            "--out")])
def test_commands_of_many_deals_say_they_do_not_read_standard_input(tmp_path, args):
    one_line_error(cli_run(*args, tmp_path / "out.jsonl", input=(EXAMPLES / "elfern-ending.toml").read_text(encoding="utf-8")),
                   "-: standard input is not read here")


def test_a_partial_answer_says_the_levels_no_side_wins_in_words(tmp_path):
    """A solve stopped by a node limit lists the levels still possible: one no side wins
    in a player's words ("no score": this ending's `taken` counts 15 of the 18 honours
    played, so 9-8 is no Ständer), not the ladder's key."""
    path = tmp_path / "ending.toml"
    path.write_text('game = "elfern"\ntaken = [8, 7]\n[hands]\n1 = "HA H7"\n2 = "HK H8"\n',
                    encoding="utf-8")
    result = run("solve", str(path), "--node-limit", "5")
    assert result.exit_code == 5, result.output
    assert "Outcome levels still possible: no score" in result.stdout
    assert "no_score" not in result.stdout and "Ständer" not in result.stdout


MARIAGE_ENDING = """game = "schafkopf2"
trump = "schellen"
taken = [60, 20]
[piles]
1 = "EA G7 S7 RK RO G8"
2 = "E7 GA S8 R8 E9 G9"
[rules]
mariage = true
"""


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_cards_judged_by_their_totals_for_want_of_a_ladder_say_so(tmp_path, command):
    """A Mariage ending with cards out of play has no outcome ladder at its start (its total
    may still fall below 130), so the cards are judged by their totals: a card that leads to
    the same outcome as the best one but fewer points is not marked, and a note says why."""
    path = tmp_path / "ending.toml"
    path.write_text(MARIAGE_ENDING, encoding="utf-8")
    result = run(command, str(path))
    assert result.exit_code == 0, result.output
    assert "no outcome ladder applies" in result.stdout
    assert "keeps the best outcome" not in result.stdout
    example = run(command, str(EXAMPLES / "schafkopf2-mariage.toml"))
    assert "no outcome ladder applies" not in example.stdout


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_a_level_no_side_wins_is_said_in_words_in_the_card_table(command):
    """The Elfern example's best card leads to a Ständer: its row says "Ständer (10–10)", as
    suggest does, not the ladder's key (which ``--json`` keeps)."""
    result = run(command, str(EXAMPLES / "elfern-played.toml"))
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("♦J ")]
    assert rows and "Ständer (10–10)" in rows[0] and "staender" not in result.stdout
    data = json.loads(run(command, str(EXAMPLES / "elfern-played.toml"), "--json").stdout)
    assert "staender" in json.dumps(data)
    if command == "analyze":                 # the explorer shows the words the JSON gives
        row = next(r for r in data["seats"][0]["moves"] if "♦J" in r["cards"])
        assert row["outcome"] == {"level": "staender", "winner": None, "words": "Ständer (10–10)"}

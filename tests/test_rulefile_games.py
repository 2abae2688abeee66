"""Games from TOML rule files (solver/games/rulefile.py): the three related games against the
brute force (tests/reference.py reads the same rule files with its own reader), bad rule files,
and a toy game written here, in a rule file only, used through every command.

Default run: a few dozen random endings per game; ``-m slow``: more, and larger ones.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import reference
from click.testing import CliRunner
from clirun import one_line_error
from clirun import run as cli_run
from randompositions import RULE_MODES, generate_rule_case
from test_crosscheck import check_reader, compare

import stich
from stich.cli.main import main
from stich.games import GAMES, RULES_FILES_ENV, find_game
from stich.games.rulefile import forget

DEFAULT_COUNT = 25
SLOW_COUNT = 300
SLOW_LARGE_COUNT = 60


def crosscheck(mode: str, seed: int, size: str = "small", spec: dict | None = None) -> None:
    case = generate_rule_case(mode, seed, size, spec)
    print(f"mode {mode}, seed {seed}, size {size}:\n{case.toml}")     # shown on failure
    deal = stich.loads(case.toml, f"<{mode} seed {seed}>")
    if case.game.endswith(".toml"):          # a rule file's path: the deal names its game
        case.game = case.game.rsplit("/", 1)[-1][:-len(".toml")]
    check_reader(case, deal)
    again = stich.loads(deal.dump(), "<dump>")           # the writer round-trips the game
    assert (again.game, again.hands, again.piles, again.stock, again.play, again.options) == \
        (deal.game, deal.hands, deal.piles, deal.stock, deal.play, deal.options)
    ref = reference.solve(deal)
    compare(case, deal, stich.solve(deal, objective="total"), ref, "total")
    result = stich.solve(deal)
    compare(case, deal, result, ref, "score")
    check_outcome(deal, result, ref)


def check_outcome(deal, result, ref) -> None:
    """The forced outcome (the ladder) against the brute force's minimax of the outcome rank,
    computed from the rule file's [outcome] table by the reference's own reading."""
    want = reference_rank(deal, ref)
    if want is not None:
        assert result.outcome.rank == want, (result.outcome, want)


def reference_rank(deal, ref):
    """Minimax of the outcome rank over the reference's game tree, the ranks read from the
    rule file's [outcome] table: seat 1's side's levels high to low, the tie, the other's."""
    data = reference.read_rule_file(deal.game_spec.rule_file)
    for name, spec in data.get("options", {}).items():
        for choice, over in spec.get("set", {}).items():
            if str(choice).lower() == str(deal.options[name]).lower():
                data = reference._merged(data, over)
    out = data.get("outcome", {})
    rules = ref.rules
    total = sum(ref.totals)
    win = out.get("win", total // 2 + 1)
    wins = win if isinstance(win, list) else [win, win]
    levels = out.get("levels", [])
    k = len(levels)

    def rank(points, won):
        winner = 0 if points[0] >= wins[0] else 1 if points[1] >= wins[1] else None
        if winner is None:
            return k + 1
        got = 0
        for j, level in enumerate(levels, 1):
            if level.get("loser_no_trick"):
                ok = not won[1 - winner]
            else:
                ok = ("loser_at_most" not in level or points[1 - winner] <= level["loser_at_most"]) and \
                     ("winner_at_least" not in level or points[winner] >= level["winner_at_least"])
            if ok:
                got = j
        return k + 2 + got if winner == 0 else k - got

    def step(state, card, won):
        completes = len(state.trick) == rules.players - 1
        child, gain = reference.play(rules, state, card)
        if completes:
            won = tuple(True if s == rules.side(child.leader) else won[s] for s in (0, 1))
        return child, gain, won

    won = tuple(bool(deal.won_trick[s]) if deal.won_trick is not None else deal.taken[s] > 0
                for s in (0, 1))
    _, state = reference.initial(deal)
    for trick in deal.play:
        for card in trick:
            state, _, won = step(state, card, won)
    memo = {}

    def best(state, points, won):
        key = (state, points, won)
        if key not in memo:
            if state.is_over():
                memo[key] = rank(points, won)
            else:
                maximise = rules.side(state.to_move(rules.players)) == 0
                values = []
                for card in reference.legal_moves(rules, state):
                    child, gain, w = step(state, card, won)
                    values.append(best(child, (points[0] + gain[0], points[1] + gain[1]), w))
                memo[key] = max(values) if maximise else min(values)
        return memo[key]

    return best(state, tuple(ref.base), won)


def _params(count: int, start: int = 0):
    return [pytest.param(mode, seed, id=f"{mode}-seed{seed}")
            for mode in RULE_MODES for seed in range(start, start + count)]


@pytest.mark.parametrize("mode,seed", _params(DEFAULT_COUNT))
def test_rule_games_agree_with_the_brute_force(mode, seed):
    crosscheck(mode, seed)


@pytest.mark.slow
@pytest.mark.parametrize("mode,seed", _params(SLOW_COUNT, start=DEFAULT_COUNT))
def test_rule_games_agree_more(mode, seed):
    crosscheck(mode, seed)


@pytest.mark.slow
@pytest.mark.parametrize("mode,seed", [pytest.param(m, s, id=f"{m}-large-seed{s}")
                                       for m in RULE_MODES for s in range(SLOW_LARGE_COUNT)])
def test_rule_games_agree_large(mode, seed):
    crosscheck(mode, seed, "large")


@pytest.mark.parametrize("name", ["officers_skat", "einwerfen", "bohemian_schneider"])
def test_examples_solve(name):
    """Each new game's two example deals read and solve; the whole deal's totals add up."""
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent / "examples"
    files = sorted(root.glob(f"{name}-*.toml"))
    assert len(files) == 2
    for path in files:
        result = stich.solve(stich.load(path))
        assert sum(result.totals) == {"officers_skat": 120, "einwerfen": 120,
                                      "bohemian_schneider": 20}[name]
        assert result.outcome.text


# --- bad rule files ----------------------------------------------------------------------------

GOOD = """
name = "toy"
title = "Toy"
sources = ["[test] written for this test"]
players = 2
[pack]
suits = "clubs spades hearts"
ranks = "A K Q J 10 9"
[play]
unit = "tricks"
trump = "fixed"
trump_suit = "hearts"
plain_order = "A K Q J 10 9"
follow = "suit"
must_trump = true
[layout]
kind = "hands"
[outcome]
win = 5
levels = [{ name = "slam", loser_no_trick = true, score = 2 }]
[options.beat_duty]
default = false
help = "a follower must beat the card led if he can"
source = "[test]"
set.true = { play = { must_beat = true } }
"""

BAD = [
    ("colour = 1", "colour", "unknown key"),
    ("[pack]\nranks = \"A K X\"", "pack.ranks", "unknown rank"),
    ("sources = []", "sources", "missing"),
    ("[play]\nbeat = \"next_higher\"", "play.beat", "without trumps"),
    ("[play]\nbeat = \"lowest\"", "play.beat", "higher or next_higher"),
    ("[layout]\nkind = \"heap\"", "layout.kind", "hands, piles or stock"),
    ("[play]\nplain_order = \"A K Q\"", "play.plain_order", "without a rank"),
    ("[outcome]\nwin = \"many\"", "outcome.win", "must be a number"),
    ("[options.x]\nhelp = \"no default\"", "options.x.default", "missing"),
]


def _with(text: str, change: str) -> str:
    """GOOD with one key replaced (or a table's key changed), as TOML."""
    data_lines = text.strip("\n").splitlines()
    head, _, rest = change.partition("\n")
    if head.startswith("["):
        key, value = rest.split(" = ", 1)
        out, table = [], None
        for line in data_lines:
            if line.startswith("["):
                table = line
            if table == head and line.startswith(key + " "):
                continue
            out.append(line)
            if line == head:
                out.append(rest)
        if head not in data_lines:
            out += [head, rest]
        return "\n".join(out) + "\n"
    key = head.split(" = ")[0]
    out = [line for line in data_lines if not line.startswith(key + " ")]
    return head + "\n" + "\n".join(out) + "\n"


@pytest.mark.parametrize("change,key,words", BAD, ids=[b[1] for b in BAD])
def test_bad_rule_file_exits_2_naming_file_and_key(tmp_path, change, key, words):
    path = tmp_path / "bad.toml"
    path.write_text(_with(GOOD, change))
    result = CliRunner().invoke(main, ["rules", str(path)])
    assert result.exit_code == 2, result.output
    err = result.stderr if hasattr(result, "stderr") else result.output
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(path) in lines[0] and key in lines[0] and words in lines[0], lines[0]


@pytest.mark.parametrize("beat,totals", [("next_higher", (2, 0)), ("higher", (0, 2))])
def test_bohemian_schneider_beat_option(tmp_path, beat, totals):
    """A Ten led is beaten only by the Unter (next_higher), or by any higher card (higher):
    the Ober takes it only in the second reading; the brute force agrees."""
    deal = tmp_path / "d.toml"
    deal.write_text('game = "bohemian_schneider"\n[hands]\n1 = "E10"\n2 = "EO"\n')
    result = CliRunner().invoke(main, ["solve", str(deal), "--rule", f"beat={beat}", "--json"])
    assert result.exit_code == 0, result.output
    assert tuple(json.loads(result.output)["totals"]) == totals
    assert reference.solve(stich.load(deal, {"beat": beat})).totals == totals


# --- a toy game from a rule file only, through every command ------------------------------------

TOY_SPEC = dict(players=2, layout="hands", trump=False, fixed_trump=2, options={"beat_duty": [False, True]},
                small=dict(cards=(1, 4)), large=dict(cards=(4, 6)))


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """One file for the module: a game's name means one rule file in a process."""
    path = tmp_path_factory.mktemp("toy") / "toy.toml"
    path.write_text(GOOD)
    yield path
    forget(GAMES, "toy")                    # other tests see only the games stich ships
    os.environ.pop(RULES_FILES_ENV, None)


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result


def test_toy_game_through_the_cli(toy, tmp_path):
    shown = run("rules", toy)
    assert shown.exit_code == 0 and "Toy" in shown.output and "beat_duty" in shown.output

    dealt = run("deal", "--game", toy, "--seed", 3, "-n", 2, "--where", "seat 1 holds at least 3 trumps",
                "--out", tmp_path / "deals")
    assert dealt.exit_code == 0, dealt.output
    files = sorted((tmp_path / "deals").glob("*.toml"))
    assert len(files) == 2
    for path in files:
        deal = stich.load(path)
        assert deal.game == "toy" and len(deal.hands[1]) == 9
        assert sum(c.suit == 2 for c in deal.hands[1]) >= 3      # hearts are trump

        solved = run("solve", path, "--json")
        assert solved.exit_code == 0, solved.output
        data = json.loads(solved.output)
        ref = reference.solve(deal)
        assert tuple(data["totals"]) == ref.totals and sum(ref.totals) == 9

        analyzed = run("analyze", path)
        assert analyzed.exit_code == 0 and "outcome" in analyzed.output.lower()

        puzzle = run("puzzle", path, "--goal", "win")
        assert puzzle.exit_code in (0, 3, 4), puzzle.output
        reachable = ref.totals[0] >= 5
        assert (puzzle.exit_code != 4) == reachable, (puzzle.output, ref.totals)

    out = tmp_path / "results.jsonl"
    batch = run("batch", tmp_path / "deals", "--out", out, "--jobs", 1)
    assert batch.exit_code == 0, batch.output
    lines = [json.loads(line) for line in out.read_text().splitlines() if line.strip()]
    assert len(lines) == 2

    # a deal file naming the rule file by a relative path, and --rules-file with the name
    relative = toy.parent / "rel.toml"
    relative.write_text('game = "toy.toml"\n[hands]\n1 = "HA C9"\n2 = "CA H9"\n')
    assert stich.load(relative).game == "toy"
    named = toy.parent / "named.toml"
    named.write_text('game = "toy"\nleader = 2\n[hands]\n1 = "HA C9"\n2 = "CA H9"\n')
    solved = run("solve", "--rules-file", toy, named, "--json")
    assert solved.exit_code == 0, solved.output
    assert tuple(json.loads(solved.output)["totals"]) == reference.solve(stich.load(named)).totals

    # batch workers (other processes) find a game named by --rules-file too
    named_dir = tmp_path / "named"
    named_dir.mkdir()
    for i, path in enumerate(files):
        (named_dir / f"n{i}.toml").write_text(path.read_text().replace(f'game = "{toy}"', 'game = "toy"'))
    assert 'game = "toy"' in (named_dir / "n0.toml").read_text()
    out2 = tmp_path / "named.jsonl"
    batch = run("batch", named_dir, "--out", out2, "--jobs", 2, "--rules-file", toy)
    assert batch.exit_code == 0, batch.output
    got = [json.loads(line) for line in out2.read_text().splitlines() if line.strip()]
    assert len(got) == 2 and all("error" not in line for line in got), got


@pytest.mark.parametrize("seed", range(20))
def test_toy_game_agrees_with_the_brute_force(toy, seed):
    crosscheck("toy", seed, spec={**TOY_SPEC, "game": str(toy)})


def test_the_docs_walk_through_of_a_rule_file_compiles_to_the_shipped_einwerfen():
    """The walk-through of docs/how-to/own-game.md is a working rule file: the same rules as
    einwerfen.toml."""
    import tomllib
    from pathlib import Path

    from stich.games.rulefile import compile_game
    page = Path(__file__).resolve().parent.parent / "docs" / "how-to" / "own-game.md"
    block = re.search(r"```toml\n(.*?)```", page.read_text(encoding="utf-8"), re.S).group(1)
    walked = compile_game(tomllib.loads(block), "own-game.md")
    shipped = GAMES["einwerfen"]
    for ten in ("low", "high"):
        for trump in range(4):
            a = walked.build(trump, {"ten_rank": ten}, 4)
            b = shipped.build(trump, {"ten_rank": ten}, 4)
            assert (a.deck, a.trumps, a.plain, a.values, a.follow, a.unit) == \
                (b.deck, b.trumps, b.plain, b.values, b.follow, b.unit)
    assert walked.layout == shipped.layout and walked.seat_counts == shipped.seat_counts


VARIANT = """
name = "toy_points"
title = "Toy for points"
extends = "toy.toml"
sources = ["[test] a variant of the toy game"]
[values]
A = 4
K = 3
[play]
unit = "points"
last_trick = 10
must_trump = false
[outcome]
win = 16
levels = [{ name = "slam", loser_at_most = 0, score = 2 }]
"""


@pytest.fixture(scope="module")
def toy_points(toy):
    """A variant that ``extends`` the toy game: card points and a last-trick bonus of 10."""
    path = toy.parent / "toy_points.toml"
    path.write_text(VARIANT)
    yield path
    forget(GAMES, "toy_points")


def test_variant_extends_the_toy_game(toy_points):
    game = find_game(GAMES, str(toy_points))
    rules = game.build(None, {"beat_duty": False}, 2)
    assert rules.trump == 2 and rules.last_trick_bonus == 10 and rules.follow.must_trump is False
    assert "[test] a variant of the toy game" in game.sources and "[test] written for this test" in game.sources


@pytest.mark.parametrize("seed", range(20))
def test_variant_agrees_with_the_brute_force(toy_points, seed):
    crosscheck("toy_points", seed, spec={**TOY_SPEC, "game": str(toy_points)})


def test_a_plain_install_ships_every_built_in_rule_file():
    """`pip install .` copies only declared package data: every built-in rule file must match
    a pattern of ``[tool.setuptools.package-data]`` (it did not, at first)."""
    import fnmatch
    import tomllib
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"].get("package-data", {})
    files = sorted((root / "solver" / "games" / "rules").glob("*.toml"))
    assert files

    def folder(package: str) -> Path:      # setup.py's package_dir: stich.x lives in solver/x
        return root / "solver" / Path(*package.split(".")[1:])
    for path in files:
        shipped = any(fnmatch.fnmatch(str(path.relative_to(folder(package))), pattern)
                      for package, globs in patterns.items() for pattern in globs
                      if folder(package) in path.parents)
        assert shipped, f"{path.name} is not package data"


def test_a_deal_naming_a_missing_rule_file_says_which_deal_and_key(tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text('game = "nowhere.toml"\n[hands]\n1 = "CA"\n2 = "CK"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["solve", str(deal)])
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1
    assert lines[0].startswith(f"stich: {deal}: game: ") and "nowhere.toml" in lines[0]


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


BAD_RULE_VALUES = [
    ("[outcome]\nlevels = -1\n", "outcome.levels"),
    ("[outcome]\nlevels = [\"x\"]\n", "outcome.levels[1]"),
    ("[outcome]\nwin = 99999999999999999999\n", "outcome.win"),
    ("[outcome]\nscore = 99999999999999999999\n", "outcome.score"),
    ("[outcome]\nlevels = [{ name = \"m\", winner_at_least = -5 }]\n", "outcome.levels[1].winner_at_least"),
    # levels come lowest first, each asking more than the one before, named apart
    ("[outcome]\nlevels = [{ name = \"b\", winner_at_least = 120 }, { name = \"a\", winner_at_least = 91 }]\n",
     "outcome.levels[2]"),
    ("[outcome]\nlevels = [{ name = \"n\", loser_no_trick = true }, { name = \"a\", winner_at_least = 91 }]\n",
     "outcome.levels[2]"),
    ("[outcome]\nlevels = [{ name = \"a\", winner_at_least = 91 }, { name = \"a\", winner_at_least = 100 }]\n",
     "outcome.levels[2].name"),
    # a level named like a goal every game has would take the goal's word over
    ("[outcome]\nlevels = [{ name = \"win\", winner_at_least = 91 }]\n", "outcome.levels[1].name"),
    ("[outcome]\nlevels = [{ name = \"every_trick\", loser_no_trick = true }]\n", "outcome.levels[1].name"),
    ("[play]\nlast_trick = -1\n", "play.last_trick"),
    ("[values]\nA = 1000000\n", "values.A"),
    ("players = 100\n", "players"),
    ("players = []\n", "players"),
    ("[options.x]\ndefault = \"a\"\nchoices = 5\n", "options.x.choices"),
    ("[options.x]\ndefault = \"a\"\nchoices = [[\"a\"]]\n", "options.x.choices"),
    ("[view]\nstock = \"yes\"\n", "view.stock"),
    ("[view]\nwhy = 5\n", "view.why"),
    ("sources = \"one\"\n", "sources"),
]


@pytest.mark.parametrize("text,key", BAD_RULE_VALUES, ids=[k for _, k in BAD_RULE_VALUES])
def test_every_rule_file_value_is_checked(tmp_path, text, key):
    head = 'extends = "einwerfen"\nname = "toy22"\n'
    if text.startswith(("players", "sources")):
        head, text = head + text, ""
    path = write(tmp_path, "toy.toml", head + text)
    one_line_error(cli_run("rules", path), "toy.toml", key)


def test_a_missing_extends_target_names_the_file_and_key(tmp_path):
    path = write(tmp_path, "ext.toml", 'extends = "nothere.toml"\nname = "x"\n')
    line = one_line_error(cli_run("rules", path), "ext.toml: extends", "nothere.toml")
    assert line.count(str(tmp_path)) <= 2


def test_rule_file_paths_are_shown_as_typed(tmp_path, monkeypatch):
    write(tmp_path, "ext.toml", 'extends = "nothere.toml"\nname = "x"\n')
    write(tmp_path, "bad.toml", 'name = "BAD"\nsources = ["x"]\n')
    monkeypatch.chdir(tmp_path)
    line = one_line_error(cli_run("rules", "ext.toml"), "ext.toml: extends")
    assert str(tmp_path) not in line, line
    line = one_line_error(cli_run("rules", "bad.toml"), "bad.toml: name")
    assert str(tmp_path) not in line, line


def test_deep_nesting_in_a_rule_file_names_the_file(tmp_path):
    path = write(tmp_path, "deep.toml", 'name = "x"\nsources = ["a"]\nvalues = ' + "[" * 5000 + "]" * 5000 + "\n")
    one_line_error(cli_run("rules", path), "deep.toml", "nested")


def test_a_deal_whose_game_is_a_bad_rule_file_names_the_deal_file(tmp_path):
    deal = write(tmp_path, "gnull.toml", 'game = "/dev/null"\n[hands]\n1 = "♣A"\n')
    one_line_error(cli_run("solve", deal), "gnull.toml: game", "/dev/null")


def test_a_rule_file_key_with_a_line_break_is_one_line(tmp_path):
    path = write(tmp_path, "r.toml", 'extends = "einwerfen"\nname = "toy"\n"\\u001e" = 0\n')
    one_line_error(cli_run("rules", path), "r.toml", "unknown key", "\\x1e")


@pytest.mark.parametrize("game,changes,key", [
    ("officers_skat", [("players = 2", "players = 4")], "layout"),           # 64 pile cards, 32 in the pack
    ("bohemian_schneider", [("players = 2", "players = 6"), ("hand = 6", "hand = 5")], "layout.hand"),
])                                                                      # a stock of 2 for 6 players
def test_a_layout_that_does_not_fit_the_pack_is_refused(tmp_path, game, changes, key):
    from stich.games.rulefile import RULES_DIR
    text = (RULES_DIR / f"{game}.toml").read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    path = write(tmp_path, "r.toml", text.replace(f'name = "{game}"', 'name = "toy"'))
    one_line_error(cli_run("rules", path), "r.toml", key)
    one_line_error(cli_run("deal", "--game", path), "r.toml", key)


# --- partners under a must-beat rule ------------------------------------------------------------

PARTNERS_MUST_BEAT = """
extends = "einwerfen"
name = "einwerfen_beat"
sources = ["[test] Einwerfen with a duty to beat, written for this test"]
[play]
must_beat = true
"""

# Rot trump; seat 1 has led the trump Ace and seat 4 is to play to it: seats 1+3 win the
# trick (11) whatever seat 4 throws, and seat 1 leads again.  Then his Eichel and Grün Aces
# are the top cards of their suits and the other side holds no trump, but his partner (seat 3)
# is void in both and must beat: he ruffs either Ace with his R7 and must lead his S7 into the
# other side's SK SA, to which seat 1 has to throw his other Ace.  So seats 1+3 take 11 + 11
# more, not 11 + 22.
PARTNERS_MUST_BEAT_DEAL = """
game = "einwerfen_beat.toml"
trump = "rot"
leader = 1
taken = [30, 42]
play = ["RA E8 R9"]

[hands]
1 = "RA EA GA"
2 = "E8 E7 SA"
3 = "R9 R7 S7"
4 = "G8 G7 SK"
"""


def test_a_partner_who_must_beat_takes_the_lead_away_from_the_leaders_top_cards(tmp_path):
    """The leader's top cards are not sure tricks one after the other when a void partner
    must beat them with a trump and then lead (the same as a duty to trump); worked out in
    the deal's comment: 30 + 22 against 42 + 26."""
    write(tmp_path, "einwerfen_beat.toml", PARTNERS_MUST_BEAT)
    deal = stich.load(write(tmp_path, "ending.toml", PARTNERS_MUST_BEAT_DEAL))
    result = stich.solve(deal, objective="total")
    assert result.totals == (52, 68)


FREE_FOLLOW = """
extends = "einwerfen"
name = "einwerfen_free"
sources = ["[test] Einwerfen where nobody must follow suit, written for this test"]
[play]
follow = "free"
"""

# Rot trump, seat 1 to lead his RA and EA, each the top card of its suit; seat 2 holds one
# trump, lower.  Nobody must follow suit, so seat 2 keeps his R7 under the trump Ace and ruffs
# the Eichel Ace (or takes it first): seats 1+3 win one Ace's trick, not two.
FREE_FOLLOW_DEAL = """
game = "einwerfen_free.toml"
trump = "rot"
leader = 1
taken = [49, 49]

[hands]
1 = "RA EA"
2 = "R7 E7"
3 = "G7 G8"
4 = "S7 S8"
"""


def test_top_trumps_draw_no_trump_from_a_hand_free_not_to_follow(tmp_path):
    """Leading top trumps draws the other side's trumps only from hands that must follow
    suit; worked out in the deal's comment: 49 + 11 each."""
    write(tmp_path, "einwerfen_free.toml", FREE_FOLLOW)
    deal = stich.load(write(tmp_path, "ending.toml", FREE_FOLLOW_DEAL))
    assert stich.solve(deal, objective="total").totals == (60, 60)

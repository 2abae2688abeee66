"""`stich deal`: seeded, reproducible random deals, and the --where / --predicate constraints.

The constraint checks compare the compiled language with oracles written here straight from
rules.md (which cards are trumps, what the effective suits are), never with the parser's own
helpers, on every candidate of the stream: accepted deals must satisfy the oracle and refused
ones must not.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from clirun import one_line_error
from clirun import run as cli_run

from stich.cli.deal import deal_command
from stich.deals.constraints import ConstraintError, parse_constraint
from stich.deals.deal import load, loads
from stich.deals.dealing import candidate_seed, generate_deals, random_deal
from stich.games import GAMES
from stich.model.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    QUEEN,
    SEVEN,
    SPADES,
    TEN,
    Card,
    parse_card,
)

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str):
    return CliRunner().invoke(deal_command, list(args), catch_exceptions=False)


# --- random_deal itself is unchanged ----------------------------------------------------------------

# sha256 of random_deal(...).dump(), recorded with the implementation before the stream
# functions were added: the refactoring must not change a single existing deal
PINNED = [
    ("scharwenzel", 0, {}, "d37f39fdb15d93217b242ebda03ded2d7731b9a608381950a6aab2887083537a"),
    ("scharwenzel", 0, {"players": 6}, "1579fd8d3c1bc7d0819af6d9b8510949f63daba0df95321d80563580780e5f0a"),
    ("scharwenzel", 0, {"players": 8, "trump": HEARTS},
     "9b5b23d2729487ff7d49d40d67604bb6a81efd4338c9ed613b0acd7b2df24683"),
    ("schafkopf2", 0, {}, "2a29a56e91565281dd043244eb291c1faae1080db2308368ab8c10a143d2c9d1"),
    ("schafkopf2", 0, {"rules": {"trump_mode": "card17"}},
     "7360074a6f927e0ddc9b1672cec043d7aa2a78404c59ec07d1a282a1d600689d"),
    ("schafkopf2", 0, {"rules": {"mariage": True}, "notation": "french"},
     "2e258c54f54b085c994771c9cb0968f133f9392399c867b8249695c7af1effff"),
    ("elfern", 0, {}, "3f4a0ae8a9f8edcd08cc1021842e3550fa0b835f006d2327ca40eb1cf1b44a63"),
    ("elfern", 0, {"rules": {"must_head": True}}, "0cb398bf2a192ac87990073f8de75c1ce4675410ca4225f79eb0b77560a6839d"),
]


@pytest.mark.parametrize("game,seed,kwargs,digest", PINNED)
def test_random_deal_output_is_unchanged(game, seed, kwargs, digest):
    deal = random_deal(game, seed, **kwargs)
    assert hashlib.sha256(deal.dump().encode()).hexdigest() == digest
    assert deal.source == f"<{game} seed {seed}>"


# --- reproducibility --------------------------------------------------------------------------------

def test_same_arguments_same_files_byte_for_byte(tmp_path):
    args = ["--game", "scharwenzel", "--seed", "7", "-n", "5"]
    first = run(*args, "--out", str(tmp_path / "a"))
    second = run(*args, "--out", str(tmp_path / "b"))
    assert first.exit_code == 0 and second.exit_code == 0, first.stderr + second.stderr
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == [f"scharwenzel-7-{k:04d}.toml" for k in range(1, 6)]
    assert names == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in names:
        data = (tmp_path / "a" / name).read_bytes()
        assert data == (tmp_path / "b" / name).read_bytes()
        deal = load(tmp_path / "a" / name)                 # a valid whole deal ...
        assert deal.dump().encode("utf-8") == data         # ... written by Deal.dump()
        assert sorted(c for h in deal.hands.values() for c in h) == sorted(deal.rule_set.deck)
    # printed and written deals are the same; a shorter run is a prefix of a longer one
    printed = run(*args)
    assert printed.exit_code == 0
    blocks = printed.stdout.split("# === ")[1:]
    assert len(blocks) == 5
    for name, block in zip(names, blocks):
        header, text = block.split("\n", 1)
        assert header.startswith(name[:-5] + " ")
        assert text.rstrip("\n") + "\n" == (tmp_path / "a" / name).read_text(encoding="utf-8")
    shorter = run("--game", "scharwenzel", "--seed", "7", "-n", "2")
    assert printed.stdout.startswith(shorter.stdout)
    other = run("--game", "scharwenzel", "--seed", "8", "-n", "5")
    assert other.stdout != printed.stdout


def test_unconstrained_stream_is_random_deal_of_candidate_seeds():
    for game, players in (("scharwenzel", 6), ("schafkopf2", 2), ("elfern", 2)):
        dealt = list(generate_deals(game, 3, 4, players=players))
        for k, d in enumerate(dealt):
            assert d.candidate == k and d.deal_seed == candidate_seed(3, k)
            kwargs = {"players": players} if game == "scharwenzel" else {}
            assert d.deal == random_deal(game, candidate_seed(3, k), **kwargs)
    assert candidate_seed(3, 0) == int.from_bytes(hashlib.sha256(b"stich-deal:3:0").digest()[:8], "big")


def test_json_output_and_options(tmp_path):
    result = run("--game", "scharwenzel", "--players", "6", "--trump", "diamonds", "--seed", "2",
                 "-n", "3", "--json", "--rule", "plain_order=A10KQ")
    assert result.exit_code == 0, result.stderr
    records = json.loads(result.stdout)
    assert [r["id"] for r in records] == [f"scharwenzel6-2-{k:04d}" for k in (1, 2, 3)]
    for r in records:
        deal = loads(r["deal"])
        assert deal.players == 6 and deal.trump == DIAMONDS and deal.options["plain_order"] == "A10KQ"
        assert deal == random_deal("scharwenzel", r["deal_seed"], players=6, trump=DIAMONDS,
                                   rules={"plain_order": "A10KQ"})
    german = run("--game", "elfern", "--cards", "german", "--json")
    assert loads(json.loads(german.stdout)[0]["deal"]).notation == "german"


def test_subprocess_run_matches_cli_runner():
    args = ["--game", "schafkopf2", "--seed", "11", "-n", "2", "--where", "seat 1 up holds EO"]
    proc = subprocess.run([sys.executable, "-c", "from stich.cli.deal import deal_command; deal_command()", *args],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == run(*args).stdout


# --- constraints hold ---------------------------------------------------------------------------------

def sw_suit(card: Card, trump: int) -> int:
    """Scharwenzel's effective suit, from rules.md §1: ♣Q, T7, ♠Q and the Jacks are trumps."""
    if card in (Card(CLUBS, QUEEN), Card(trump, SEVEN), Card(SPADES, QUEEN)) or card.rank == JACK:
        return trump
    return card.suit


def sk_trump(card: Card, deal) -> bool:
    """Schafkopf2 trumps, rules.md §2: schellen mode Ober, Unter, Schellen; card17 EO, GO, the
    Unter and every card of the 17th card's suit."""
    if deal.options["trump_mode"] == "schellen":
        return card.rank in (QUEEN, JACK) or card.suit == DIAMONDS
    t = deal.piles[1][0].up.suit
    return card in (Card(CLUBS, QUEEN), Card(SPADES, QUEEN)) or card.rank == JACK or card.suit == t


def hand(deal, seat):
    return deal.hands[seat]


def pile_cards(deal, seat, part=None):
    piles = deal.piles[seat]
    if part == "up":
        return [p.up for p in piles]
    return [p.up for p in piles] + [p.down for p in piles]


def sk_points(card: Card) -> int:
    return {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2}.get(card.rank, 0)


def bare(cards, rank, suit_of) -> bool:
    return any(c.rank == rank and sum(suit_of(x) == suit_of(c) for x in cards) == 1 for c in cards)


def sw_matadors(cards, t) -> int:
    order = [Card(CLUBS, QUEEN), Card(t, SEVEN), Card(SPADES, QUEEN), Card(CLUBS, JACK), Card(SPADES, JACK),
             Card(HEARTS, JACK), Card(DIAMONDS, JACK), Card(t, ACE), Card(t, KING)]
    n = 0
    for card in order:
        if card not in cards:
            break
        n += 1
    return n


C = lambda text: parse_card(text)                    # noqa: E731 - French notation
G = lambda text: parse_card(text, "german")          # noqa: E731

CASES = [
    ("scharwenzel", {}, "seat 1 holds a bare ten",
     lambda d: bare(hand(d, 1), TEN, lambda c: sw_suit(c, d.trump))),
    ("scharwenzel", {}, "seat 2 holds at least 4 trumps",
     lambda d: sum(sw_suit(c, d.trump) == d.trump for c in hand(d, 2)) >= 4),
    ("scharwenzel", {}, "seat 1 holds ♣Q", lambda d: C("♣Q") in hand(d, 1)),
    ("scharwenzel", {"players": 8}, "seat 4 holds a ♠Q or seat 4 holds an ace",
     lambda d: C("♠Q") in hand(d, 4) or any(c.rank == ACE for c in hand(d, 4))),
    ("scharwenzel", {}, "seats 1+3 hold the top 3 trumps",
     lambda d: {C("♣Q"), Card(d.trump, SEVEN), C("♠Q")} <= set(hand(d, 1) + hand(d, 3))),
    ("scharwenzel", {}, "seat 1 has no hearts",
     lambda d: all(sw_suit(c, d.trump) != HEARTS for c in hand(d, 1))),
    ("scharwenzel", {}, "seats 2+4 hold at least 4 matadors",
     lambda d: sw_matadors(set(hand(d, 2) + hand(d, 4)), d.trump) >= 4),
    ("scharwenzel", {"players": 6}, "some seat holds a bare ace or (seat 1 holds between 3 and 5 "
                                    "trumps and not seat 3 holds ♣Q)",
     lambda d: any(bare(hand(d, s), ACE, lambda c: sw_suit(c, d.trump)) for s in range(1, 7))
     or (3 <= sum(sw_suit(c, d.trump) == d.trump for c in hand(d, 1)) <= 5 and C("♣Q") not in hand(d, 3))),
    ("scharwenzel", {"trump": HEARTS}, "every seat holds a heart and no seat holds exactly 0 jacks",
     lambda d: all(any(sw_suit(c, HEARTS) == HEARTS for c in hand(d, s)) for s in range(1, 5))
     and all(any(c.rank == JACK for c in hand(d, s)) for s in range(1, 5))),
    ("scharwenzel", {}, "seat 1 holds a bare ♥10 or seat 1 holds none of ♣A ♠A ♥A ♦A",
     lambda d: (C("♥10") in hand(d, 1) and sum(sw_suit(c, d.trump) == sw_suit(C("♥10"), d.trump)
                                                for c in hand(d, 1)) == 1)
     or not ({C("♣A"), C("♠A"), C("♥A"), C("♦A")} & set(hand(d, 1)))),
    ("elfern", {}, "seat 1 holds at most 2 honours",
     lambda d: sum(c.rank in (ACE, KING, QUEEN, JACK, TEN) for c in hand(d, 1)) <= 2),
    ("elfern", {}, "stock holds at least 13 honours and seat 2 has no spades",
     lambda d: sum(c.rank in (ACE, KING, QUEEN, JACK, TEN) for c in d.stock) >= 13
     and all(c.suit != SPADES for c in hand(d, 2))),
    ("schafkopf2", {}, "seat 1 up holds EO and seat 2 holds at least 60 points",
     lambda d: G("EO") in pile_cards(d, 1, "up") and sum(sk_points(c) for c in pile_cards(d, 2)) >= 60),
    ("schafkopf2", {}, "seat 2 holds more than 8 trumps",
     lambda d: sum(sk_trump(c, d) for c in pile_cards(d, 2)) > 8),
    ("schafkopf2", {"rules": {"trump_mode": "card17"}}, "seat 1 holds at least 9 trumps",
     lambda d: sum(sk_trump(c, d) for c in pile_cards(d, 1)) >= 9),
    ("schafkopf2", {}, "seat 1 holds ♣Q ♠Q",            # symbols with French ranks read too
     lambda d: {G("EO"), G("GO")} <= set(pile_cards(d, 1))),
]


@pytest.mark.parametrize("game,kwargs,text,oracle", CASES, ids=[c[2] for c in CASES])
def test_constraints_hold_and_refused_candidates_fail(game, kwargs, text, oracle):
    accept = parse_constraint(text, game, kwargs.get("players"))
    dealt = list(generate_deals(game, 5, 6, accept=accept, **kwargs))
    accepted = {d.candidate for d in dealt}
    for d in dealt:
        assert oracle(d.deal), (text, d.deal.dump())
    refused = 0
    for j in range(dealt[-1].candidate + 1):
        if j in accepted:
            continue
        deal = random_deal(game, candidate_seed(5, j), **kwargs)
        assert not oracle(deal), (text, deal.dump())
        refused += 1
    assert refused > 0                                 # the constraint did filter


def test_where_on_the_command_line_holds_on_every_file(tmp_path):
    result = run("--game", "scharwenzel", "--seed", "3", "-n", "8", "--out", str(tmp_path),
                 "--where", "seat 1 holds a bare ten", "--where", "seat 2 holds at least 4 trumps")
    assert result.exit_code == 0, result.stderr
    files = sorted(tmp_path.glob("*.toml"))
    assert len(files) == 8
    for path in files:
        d = load(path)
        assert bare(hand(d, 1), TEN, lambda c: sw_suit(c, d.trump))  # noqa: B023 - called at once
        assert sum(sw_suit(c, d.trump) == d.trump for c in hand(d, 2)) >= 4


def test_predicate_file(tmp_path):
    predicate = tmp_path / "pred.py"
    predicate.write_text(
        "from stich.model.cards import CLUBS, QUEEN, Card\n"
        "def accept(deal):\n"
        "    rules = deal.rule_set\n"
        "    trumps = [c for c in deal.hands[1] if rules.is_trump(c)]\n"
        "    return Card(CLUBS, QUEEN) in trumps and len(trumps) >= 3\n", encoding="utf-8")
    result = run("--game", "scharwenzel", "--seed", "1", "-n", "5", "--json", "--predicate", str(predicate),
                 "--where", "seat 3 has no clubs")
    assert result.exit_code == 0, result.stderr
    for record in json.loads(result.stdout):
        d = loads(record["deal"])
        assert C("♣Q") in hand(d, 1)
        assert sum(sw_suit(c, d.trump) == d.trump for c in hand(d, 1)) >= 3
        assert all(sw_suit(c, d.trump) != CLUBS for c in hand(d, 3))
    (tmp_path / "none.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "bad.py").write_text("def accept(deal):\n    return deal.nothing\n", encoding="utf-8")
    for name, words in (("none.py", "defines no function accept"), ("bad.py", "AttributeError"),
                        ("missing.py", "no such file")):
        bad = run("--game", "elfern", "--predicate", str(tmp_path / name))
        assert bad.exit_code == 2 and words in bad.stderr and "Traceback" not in bad.stderr


# --- errors -----------------------------------------------------------------------------------------------

GRAMMAR_ERRORS = [
    ("scharwenzel", "seat 1 holds a bare tin", "tin", "found 'tin'"),
    ("scharwenzel", "seat 5 holds ♣Q", "5", "no seat 5"),
    ("scharwenzel", "seat 1 holds ♣6", "♣6", "not in the 32-card pack"),
    ("scharwenzel", "seat 1 holds at least 9 trumps", "at least 9", "impossible"),
    ("scharwenzel", "seat 1 holds at most 2 honours", "honours", "only in Elfern"),
    ("scharwenzel", "seat 1 holds 40 points", "points", "no points"),
    ("scharwenzel", "seat 1 holds ♣Q seat 2", "seat", "unexpected 'seat'"),
    ("scharwenzel", "seat 1 grabs ♣Q", "grabs", "expected 'holds'"),
    ("scharwenzel", "seat 1 up holds ♣Q", "up", "only for Schafkopf2"),
    ("scharwenzel", "stock holds ♣Q", "stock", "only Elfern and Bohemian Schneider have a stock"),
    ("scharwenzel", "seat 1 holds at lest 2 trumps", "lest", "'at least' or 'at most'"),
    ("elfern", "seat 1 holds 3 trumps", "trumps", "Elfern has no trumps"),
    ("elfern", "seat 1 holds the top 2 trumps", "trumps", "Elfern has no trumps"),
]


@pytest.mark.parametrize("game,text,bad,words", GRAMMAR_ERRORS, ids=[e[1] for e in GRAMMAR_ERRORS])
def test_grammar_errors_exit_2_and_point_at_the_bad_part(game, text, bad, words, monkeypatch):
    result = run("--game", game, "--where", text)
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert words in result.stderr
    [line] = result.stderr.splitlines()           # one line off a terminal
    at = int(re.search(r"at character (\d+): ", line).group(1)) - 1
    assert text[at:at + len(bad)] == bad and f"{bad!r}" in line
    monkeypatch.setattr("stich.cli.deal.on_terminal", lambda: True)   # on a terminal: underlined
    lines = run("--game", game, "--where", text).stderr.splitlines()
    shown, marks = lines[-2], lines[-1]
    assert len(lines) == 3 and shown == "  " + text
    assert shown[marks.index("^"):marks.rindex("^") + 1] == bad


def test_incomplete_and_empty_constraints_exit_2():
    for text in ("", "seat 1 holds", "seat 1 holds ♣Q and", "(seat 1 holds ♣Q", "not"):
        result = run("--game", "scharwenzel", "--where", text)
        assert result.exit_code == 2 and "stich: --where" in result.stderr, text
    with pytest.raises(ConstraintError):
        parse_constraint("seats 1+1 hold ♣Q", "scharwenzel")
    # bounds a seat can meet are not "impossible"
    for text in ("seat 1 holds at most 9 trumps", "seat 1 holds exactly 8 cards",
                 "seats 1+3 hold at least 16 cards", "seat 1 holds fewer than 20 trumps"):
        parse_constraint(text, "scharwenzel")


def test_impossible_constraint_gives_up_with_a_clear_error():
    result = run("--game", "scharwenzel", "--where", "seat 1 holds ♣Q and seat 2 holds ♣Q",
                 "--max-tries", "300")
    assert result.exit_code == 2
    assert "300 candidates in a row were refused" in result.stderr
    assert "impossible or too rare" in result.stderr
    assert result.stderr.startswith("stich: --where: ")     # names what was given, no --predicate


@pytest.mark.parametrize("args,words", [
    (["--game", "scharwenzel", "--players", "5"], "--players"),
    (["--game", "elfern", "--trump", "hearts"], "Elfern has no trumps"),
    (["--game", "scharwenzel", "--trump", "roses"], "unknown suit"),
    (["--game", "schafkopf2", "--trump", "hearts"], "trump_mode"),
    (["--game", "scharwenzel", "--rule", "must_head=true"], "unknown option"),
    (["--game", "scharwenzel", "--rule", "must_trump"], "NAME=VALUE"),
])
def test_bad_settings_exit_2(args, words):
    result = run(*args)
    assert result.exit_code == 2 and words in result.stderr and "Traceback" not in result.stderr


def test_deeply_nested_where_is_bad_input_and_many_nots_are_fine():
    deep = "(" * 400 + "seat 1 holds a bare ten" + ")" * 400
    result = cli_run("deal", "--game", "scharwenzel", "--where", deep)
    assert result.exit_code == 2 and "internal error" not in result.output
    assert "nested" in result.stderr
    nots = "not " * 3000 + "seat 1 holds a bare ten"
    result = cli_run("deal", "--game", "scharwenzel", "--where", nots, "--json")
    assert result.exit_code == 0, result.output


def test_where_honours_are_the_games_own_honours(tmp_path):
    """`--where ... honours` counts (not Elfern's honour ranks in every game)
    the cards that carry a value in a game scored in honours (here the sevens too)."""
    from stich.deals.constraints import parse_constraint
    from stich.deals.dealing import random_deal
    from stich.games import register
    rules = tmp_path / "sevens.toml"
    rules.write_text('extends = "bohemian_schneider"\nname = "sevens"\ntitle = "Sevens"\n'
                     '[values]\nA = 1\nK = 1\nQ = 1\nJ = 1\n10 = 1\n7 = 1\n')
    register(GAMES, rules)
    sevens = 0
    try:
        for seed in range(1, 20):
            deal = random_deal("sevens", seed)
            held = deal.hands[1]
            want = sum(1 for c in held if c.rank in (14, 13, 12, 11, 10, 7))
            old = sum(1 for c in held if c.rank in (14, 13, 12, 11, 10))
            assert parse_constraint(f"seat 1 holds exactly {want} honours", "sevens")(deal)
            if old != want:
                sevens += 1
                assert not parse_constraint(f"seat 1 holds exactly {old} honours", "sevens")(deal)
        assert sevens > 0
    finally:
        GAMES.pop("sevens")


def test_where_errors_are_one_line():
    line = one_line_error(cli_run("deal", "--game", "elfern", "--where", "seat 1 holds ("), "--where", "'('")
    assert "^" not in line

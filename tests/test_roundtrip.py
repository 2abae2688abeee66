"""The writer and the reader agree (deal-format.md: "its own writer must produce files its reader
takes back unchanged"): ``loads(deal.dump()) == deal``, and ``dump`` is a fixed point.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from stich import Deal, load, loads
from stich.deals.deal import Pile
from stich.deals.dealing import random_deal
from stich.games import GAMES
from stich.model.cards import FRENCH, GERMAN, HEARTS, SPADES, Card

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def assert_round_trip(deal: Deal) -> str:
    text = deal.dump()
    tomllib.loads(text)                       # the writer writes TOML
    again = loads(text, "<dump>")
    assert again == deal, text
    assert again.notation == deal.notation
    assert again.dump() == text               # a fixed point
    # and every derived thing agrees too
    assert again.options == deal.options
    assert again.trump_suit == deal.trump_suit
    assert again.position().to_move == deal.position().to_move
    assert again.position().points == deal.position().points
    return text


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_examples_round_trip(path):
    deal = load(path)
    assert_round_trip(deal)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_examples_round_trip_in_the_other_notation(path):
    deal = load(path)
    other = GERMAN if deal.notation == FRENCH else FRENCH
    text = assert_round_trip(replace(deal, notation=other))
    assert loads(text) == replace(deal, notation=other)


# (game, keyword arguments of random_deal); every game, mode and notation
CONFIGS = [
    ("scharwenzel", dict(players=4)),
    ("scharwenzel", dict(players=6)),
    ("scharwenzel", dict(players=8)),
    ("scharwenzel", dict(players=4, notation=GERMAN)),
    ("scharwenzel", dict(players=6, notation=GERMAN)),
    ("scharwenzel", dict(players=8, rules={"plain_order": "A10KQ", "must_trump": True})),
    ("scharwenzel", dict(players=4, trump=HEARTS, rules={"first_leader": "forehand"})),
    ("schafkopf2", dict()),
    ("schafkopf2", dict(notation=FRENCH)),
    ("schafkopf2", dict(rules={"trump_mode": "card17"})),
    ("schafkopf2", dict(rules={"trump_mode": "card17"}, trump=SPADES)),
    ("schafkopf2", dict(rules={"trump_mode": "card17"}, notation=FRENCH)),
    ("schafkopf2", dict(rules={"mariage": True})),
    ("schafkopf2", dict(rules={"must_beat": True, "schneider_at": 29})),
    ("elfern", dict()),
    ("elfern", dict(notation=GERMAN)),
    ("elfern", dict(rules={"must_head": True, "scoring": "graded"})),
    ("elfern", dict(notation=GERMAN, rules={"must_head": True})),
]


def config_id(config):
    game, kwargs = config
    return game + "-" + "-".join(f"{k}={v}" for k, v in kwargs.items())


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@pytest.mark.parametrize("seed", range(4))
def test_random_whole_deals_round_trip(config, seed):
    game, kwargs = config
    deal = random_deal(game, seed, **kwargs)
    assert deal.game == game
    assert deal.notation == kwargs.get("notation", FRENCH if game != "schafkopf2" else GERMAN)
    # a whole deal: every card of the pack once
    position = deal.start()
    cards = position.in_play()
    assert len(cards) == len(set(cards)) == len(deal.rule_set.deck)
    assert_round_trip(deal)


def _random_play(deal: Deal, rng: random.Random, cards: int) -> tuple[tuple[Card, ...], ...]:
    """Up to ``cards`` random legal cards from the start, grouped into tricks."""
    position = deal.start()
    tricks: list[list[Card]] = []
    for _ in range(cards):
        moves = position.legal_moves()
        if not moves:
            break
        if not position.trick:
            tricks.append([])
        card = rng.choice(moves)
        tricks[-1].append(card)
        position.play(card)
    return tuple(tuple(t) for t in tricks)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
@pytest.mark.parametrize("seed", range(3))
def test_deals_with_play_round_trip(config, seed):
    game, kwargs = config
    deal = random_deal(game, seed, **kwargs)
    rng = random.Random(seed)
    n = deal.players
    for cards in (1, n - 1, n, 2 * n + 1, 5 * n):
        play = _random_play(deal, rng, cards)
        played = loads(replace(deal, play=play).dump(), "<played>")
        assert played.play == play
        assert_round_trip(played)


def ending_of(deal: Deal) -> Deal:
    """The position of ``deal`` after its play, written as an ending with ``taken``/``leader``."""
    position = deal.position()
    assert not position.trick
    n = deal.players
    hands, piles = {}, {}
    if deal.game_spec.layout.stacked:     # piles of a face-up card on a face-down one
        piles = {s + 1: tuple(Pile(p[-1], p[0] if len(p) == 2 else None) for p in position.piles[s] if p)
                 for s in range(n)}
    else:
        hands = {s + 1: tuple(position.hands[s]) for s in range(n)}
    return loads(replace(deal, hands=hands, piles=piles, stock=tuple(position.stock), play=(),
                         leader=position.leader + 1, taken=tuple(position.points),
                         trump=deal.trump_suit).dump(), "<ending>")


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_endings_with_taken_and_leader_round_trip(config):
    game, kwargs = config
    deal = random_deal(game, 7, **kwargs)
    rng = random.Random(7)
    n = deal.players
    for tricks in (1, 3):
        played = loads(replace(deal, play=_random_play(deal, rng, tricks * n)).dump())
        ending = ending_of(played)
        assert_round_trip(ending)
        # the ending is the same position as the deal with its play
        a, b = played.position(), ending.position()
        assert a.to_move == b.to_move and a.points == b.points
        assert [sorted(a.held(s)) for s in range(n)] == [sorted(b.held(s)) for s in range(n)]
        assert [a.playable(s) for s in range(n)] == [b.playable(s) for s in range(n)]
        assert a.stock == b.stock
        # and with some cards of the ending played as well
        assert_round_trip(loads(replace(ending, play=_random_play(ending, rng, n + 1)).dump()))


HAND_WRITTEN = [
    # German Scharwenzel with a German trump name and an unfinished trick
    'game = "scharwenzel"\ncards = "german"\ntrump = "grün"\nleader = 2\ntaken = [1, 3]\n'
    'play = ["EA"]\n[hands]\n1 = "GU RA"\n2 = "EA R7"\n3 = "SO E7"\n4 = "GA S8"\n'
    '[rules]\nmust_trump = true\nplain_order = "A10KQ"\n',
    # trump as a symbol, T for ten, lower case, first_leader = declarer
    'game = "scharwenzel"\ntrump = "♦"\ndeclarer = 4\n[hands]\n1 = "ht ca"\n2 = "c7 d8"\n'
    '3 = "s9 sk"\n4 = "hq h7"\n[rules]\nfirst_leader = "declarer"\n',
    # Schafkopf in French letters with card17 and an explicit trump, a bare pile
    'game = "schafkopf2"\ncards = "french"\ntrump = "hearts"\ntaken = [30, 40]\n'
    'play = ["♥A ♥K"]\n[piles]\n1 = "HA/H7 SA"\n2 = "HK/CJ C10"\n[rules]\ntrump_mode = "card17"\n'
    'must_beat = true\n',
    # Elfern with a stock, German letters, Daus spelt D
    'game = "elfern"\ncards = "german"\nstock = "RD R7"\nleader = 2\ntaken = [3, 4]\n'
    'play = ["GK G7"]\n[hands]\n1 = "G7 E9"\n2 = "GK S8"\n[rules]\nscoring = "graded"\n',
]


@pytest.mark.parametrize("text", HAND_WRITTEN)
def test_hand_written_deals_round_trip(text):
    deal = loads(text)
    assert deal.rules
    assert_round_trip(deal)


def test_declarer_leads_round_trip():
    # first_leader = declarer and no `leader`: seat 4 (the declarer) leads, after a round trip too
    deal = loads(HAND_WRITTEN[1])
    assert deal.leader == 4 and deal.position().to_move == 3
    assert loads(deal.dump()).position().to_move == 3


def test_dump_keeps_what_was_read():
    deal = loads(HAND_WRITTEN[0])
    again = loads(deal.dump())
    assert again.notation == GERMAN and again.trump_suit == SPADES
    assert again.leader == 2 and again.taken == (1, 3)
    assert again.rules == {"must_trump": True, "plain_order": "A10KQ"}
    assert again.play == deal.play


def test_source_does_not_matter_for_equality():
    text = HAND_WRITTEN[3]
    assert loads(text, "a.toml") == loads(text, "b.toml")


ROOT = Path(__file__).resolve().parent.parent


def test_the_taken_reading_is_written_for_every_game_it_applies_to():
    """The rule "a side with points in `taken` has won a trick" is not for Schafkopf2 only:
    rules.md states it for every game whose outcome asks whether a side took no trick."""
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    reading = next(p for p in rules.split("\n- ") if "has won a trick, a side with none" in p)
    for game in GAMES.values():
        if game.no_trick_level(game.resolve_options({})) and game.name != "schafkopf2":
            assert game.title.split(" (")[0] in reading, game.name

"""stich.games.scharwenzel_dds: four-player Scharwenzel as bridge (for checking against DDS)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

import stich
from stich.deals.deal import load, loads
from stich.deals.dealing import random_deal
from stich.games import GAMES
from stich.games.scharwenzel_dds import (
    BRIDGE_RANKS,
    MappingError,
    card_map,
    from_bridge,
    from_bridge_card,
    to_bridge,
    to_bridge_card,
    tricks_to_totals,
)
from stich.model.cards import CLUBS, DIAMONDS, HEARTS, QUEEN, SPADES, SUITS, Card

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _ruleset(trump, plain_order="AKQ10"):
    spec = GAMES["scharwenzel"]
    return spec.build(trump, spec.resolve_options({"plain_order": plain_order}), 4)


def _with(deal, **changes):
    return loads(replace(deal, **changes).dump())


@pytest.mark.parametrize("trump", SUITS)
@pytest.mark.parametrize("plain_order", ["AKQ10", "A10KQ"])
def test_every_card_maps_to_a_distinct_bridge_card(trump, plain_order):
    mapping = card_map(trump, {"plain_order": plain_order})
    assert len(mapping) == 32
    assert len(set(mapping.values())) == 32
    for card, bridge in mapping.items():
        assert from_bridge_card(bridge, trump, {"plain_order": plain_order}) == card


@pytest.mark.parametrize("trump", SUITS)
@pytest.mark.parametrize("plain_order", ["AKQ10", "A10KQ"])
def test_order_is_preserved_in_every_suit(trump, plain_order):
    rules = _ruleset(trump, plain_order)
    mapping = card_map(trump, {"plain_order": plain_order})
    letter = "CSHD"[trump]
    trumps = [mapping[c] for c in rules.trumps]
    # the whole trump set is one bridge suit, the one with T's symbol, ranked A down
    assert {b[0] for b in trumps} == {letter}
    assert [b[1] for b in trumps] == list(BRIDGE_RANKS[:len(trumps)])
    assert len(trumps) == (13 if trump in (HEARTS, DIAMONDS) else 12)
    assert trumps[-1][1] == ("2" if trump in (HEARTS, DIAMONDS) else "3")
    assert mapping[Card(CLUBS, QUEEN)] == letter + "A"
    for suit, cards in rules.plain.items():
        bridge = [mapping[c] for c in cards]
        assert {b[0] for b in bridge} == {"CSHD"[suit]}       # same symbol
        ranks = [BRIDGE_RANKS.index(b[1]) for b in bridge]
        assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)   # high to low kept


def _bridge_winner(cards: list[str], trump: str) -> int:
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if c[0] == b[0] and BRIDGE_RANKS.index(c[1]) < BRIDGE_RANKS.index(b[1]) or c[0] == trump and b[0] != trump:
            best = i
    return best


@pytest.mark.parametrize("seed", range(12))
def test_random_play_has_the_same_legal_cards_and_winners_in_bridge(seed):
    """Play random legal cards: at every step the legal cards are bridge's (follow the mapped
    suit if able, else any) and every trick goes to the card bridge would give it to."""
    rng = random.Random(seed)
    deal = random_deal("scharwenzel", seed, trump=seed % 4)
    mapping = card_map(deal.trump)
    trump = "CSHD"[deal.trump]
    position = deal.position()
    trick: list[Card] = []
    while not position.is_over():
        seat = position.to_move
        hand = [mapping[c] for c in position.held(seat)]
        led = mapping[trick[0]][0] if trick else None
        bridge_legal = sorted([h for h in hand if h[0] == led] or hand)
        assert sorted(mapping[c] for c in position.legal_moves()) == bridge_legal
        card = rng.choice(position.legal_moves())
        trick.append(card)
        record = position.play(card)
        if record is not None:
            cards = [mapping[c] for c in record.cards]
            assert record.cards[_bridge_winner(cards, trump)] == record.cards[
                (record.winner - record.leader) % 4]
            trick = []


@pytest.mark.parametrize("trump", SUITS)
@pytest.mark.parametrize("leader", [1, 2, 3, 4])
def test_round_trip(trump, leader):
    deal = _with(random_deal("scharwenzel", 7 + trump, trump=trump), leader=leader)
    bridge = to_bridge(deal)
    assert bridge.trump == "CSHD"[trump]
    assert bridge.leader == "NESW"[leader - 1]
    assert bridge.pbn.startswith("N:") and len(bridge.pbn.split()) == 4
    assert bridge.tricks == 8
    back = stich.loads(from_bridge(bridge.pbn, bridge.trump, bridge.leader))
    assert back.trump == trump and back.leader == leader and back.players == 4
    assert {s: set(h) for s, h in back.hands.items()} == {s: set(h) for s, h in deal.hands.items()}
    assert to_bridge(back) == bridge


def test_ending_round_trip_keeps_taken():
    deal = load(EXAMPLES / "scharwenzel-ending.toml")
    bridge = to_bridge(deal)
    assert bridge.tricks == 3 and bridge.taken == (3, 2) and bridge.leader == "S" and bridge.trump == "H"
    back = stich.loads(from_bridge(bridge.pbn, bridge.trump, bridge.leader, taken=bridge.taken))
    assert back.taken == (3, 2)
    assert {s: set(h) for s, h in back.hands.items()} == {s: set(h) for s, h in deal.hands.items()}
    # leader South is seat 3, seat 1's side: DDS's tricks count for it
    assert tricks_to_totals(bridge, 3) == (6, 2)
    assert tricks_to_totals(bridge, 0) == (3, 5)


def test_pbn_with_another_first_seat():
    deal = random_deal("scharwenzel", 3, trump=SPADES)
    bridge = to_bridge(deal)
    hands = bridge.pbn[2:].split()
    rotated = "E:" + " ".join(hands[1:] + hands[:1])
    back = stich.loads(from_bridge(rotated, "S", "N"))
    assert {s: set(h) for s, h in back.hands.items()} == {s: set(h) for s, h in deal.hands.items()}


def test_card_examples():
    # hearts trump: ♣Q is the ace of trumps, ♥7 the king, ♥8 the deuce
    assert to_bridge_card(Card(CLUBS, QUEEN), HEARTS) == "HA"
    assert to_bridge_card(Card(HEARTS, 7), HEARTS) == "HK"
    assert to_bridge_card(Card(HEARTS, 8), HEARTS) == "H2"
    # clubs plain (spades trump): A K 10 9 8 7 -> A K Q J T 9
    assert [to_bridge_card(Card(CLUBS, r), SPADES) for r in (14, 13, 10, 9, 8, 7)] == \
        ["CA", "CK", "CQ", "CJ", "CT", "C9"]
    assert from_bridge_card("♥10", DIAMONDS) == from_bridge_card("HT", DIAMONDS)


@pytest.mark.parametrize("players", [6, 8])
def test_six_and_eight_players_are_refused(players):
    deal = random_deal("scharwenzel", 1, players=players)
    with pytest.raises(MappingError, match="four seats"):
        to_bridge(deal)
    if players == 6:
        with pytest.raises(MappingError, match="36-card"):
            to_bridge(deal)


def test_other_refusals():
    with pytest.raises(MappingError, match="only Scharwenzel"):
        to_bridge(random_deal("elfern", 1))
    with pytest.raises(MappingError, match="must_trump"):
        to_bridge(random_deal("scharwenzel", 1, rules={"must_trump": True}))
    with pytest.raises(MappingError, match="play"):
        to_bridge(load(EXAMPLES / "scharwenzel-played.toml"))
    with pytest.raises(MappingError, match="no Scharwenzel counterpart"):
        from_bridge("N:2... 3... 4... 5...", "C", "N")   # C3 and below do not exist with C trump
    with pytest.raises(MappingError, match="four hands"):
        from_bridge("N:A... K...", "S", "N")


# --- against DDS itself (endplay is the optional extra `bench`) ---------------------------------

def _dds_cards(bridge):
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    from stich.games.scharwenzel_dds import to_endplay
    return {"SHDC"[int(c.suit)] + c.rank.abbr: t
            for c, t in solve_board(to_endplay(bridge), SolveMode.Default)}


@pytest.mark.parametrize("trump", SUITS)
@pytest.mark.parametrize("leader", [1, 2])
def test_dds_agrees_on_every_card(trump, leader):
    import endplay  # noqa: F401 - DDS is in the test extra: a missing one fails, never skips

    from stich.search.solve import solve

    for seed in range(3):
        deal = _with(random_deal("scharwenzel", 100 + seed, trump=trump), leader=leader)
        bridge = to_bridge(deal)
        ours = {m.card: m.totals for m in solve(deal, objective="total").moves}
        theirs = {from_bridge_card(c, trump): tricks_to_totals(bridge, t)
                  for c, t in _dds_cards(bridge).items()}
        assert theirs == ours, deal.dump()


def test_dds_agrees_on_the_example_ending():
    import endplay  # noqa: F401 - DDS is in the test extra: a missing one fails, never skips

    from stich.search.solve import solve

    deal = load(EXAMPLES / "scharwenzel-ending.toml")
    bridge = to_bridge(deal)
    ours = {m.card: m.totals for m in solve(deal, objective="total").moves}
    theirs = {from_bridge_card(c, deal.trump): tricks_to_totals(bridge, t)
              for c, t in _dds_cards(bridge).items()}
    assert theirs == ours

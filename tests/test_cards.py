"""Card notation (deal-format.md "Cards", rules.md §0).

A card is suit first, then rank, case-insensitive.  French letters: suits C S H D, ranks
A K Q J 10 (or T) 9 8 7 6.  German letters: suits E (Eichel = clubs) G (Grün = spades)
R (Rot = hearts) S (Schellen = diamonds), ranks A or D (Daus) K O (Ober = Queen)
U (Unter = Jack) 10 9 8 7 6.  The symbols ♣ ♠ ♥ ♦ mean the same in both notations; the letter
S is spades in French and Schellen (diamonds) in German.
"""

from __future__ import annotations

import pytest

from stich.model.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    EIGHT,
    FRENCH,
    GERMAN,
    HEARTS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SEVEN,
    SIX,
    SPADES,
    SUITS,
    TEN,
    Card,
    CardError,
    format_cards,
    parse_card,
    parse_cards,
    parse_suit,
)

ALL_RANKS = (ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN, SIX)
ALL_CARDS = [Card(s, r) for s in SUITS for r in ALL_RANKS]       # 36: the six-player pack

# --- every spelling the spec allows ---------------------------------------------------------

# (text, notation, expected card): worked out from the letter tables above.
SPELLINGS = [
    # the spec's own French examples
    ("♣Q", FRENCH, Card(CLUBS, QUEEN)),
    ("CQ", FRENCH, Card(CLUBS, QUEEN)),
    ("H10", FRENCH, Card(HEARTS, TEN)),
    ("HT", FRENCH, Card(HEARTS, TEN)),
    ("♥10", FRENCH, Card(HEARTS, TEN)),
    # every French suit letter and rank letter
    ("SA", FRENCH, Card(SPADES, ACE)),           # S = spades in French
    ("DK", FRENCH, Card(DIAMONDS, KING)),
    ("CJ", FRENCH, Card(CLUBS, JACK)),
    ("H9", FRENCH, Card(HEARTS, NINE)),
    ("D8", FRENCH, Card(DIAMONDS, EIGHT)),
    ("S7", FRENCH, Card(SPADES, SEVEN)),
    ("C6", FRENCH, Card(CLUBS, SIX)),
    ("♦T", FRENCH, Card(DIAMONDS, TEN)),
    ("♠J", FRENCH, Card(SPADES, JACK)),
    # the spec's own German examples
    ("EO", GERMAN, Card(CLUBS, QUEEN)),          # Eichel-Ober = ♣Q
    ("GU", GERMAN, Card(SPADES, JACK)),          # Grün-Unter = ♠J
    ("S10", GERMAN, Card(DIAMONDS, TEN)),        # S = Schellen in German
    ("RA", GERMAN, Card(HEARTS, ACE)),
    ("RD", GERMAN, Card(HEARTS, ACE)),           # D = Daus = Ace
    # every German suit letter and rank letter
    ("EK", GERMAN, Card(CLUBS, KING)),
    ("GD", GERMAN, Card(SPADES, ACE)),
    ("SO", GERMAN, Card(DIAMONDS, QUEEN)),
    ("RU", GERMAN, Card(HEARTS, JACK)),
    ("E9", GERMAN, Card(CLUBS, NINE)),
    ("G8", GERMAN, Card(SPADES, EIGHT)),
    ("S7", GERMAN, Card(DIAMONDS, SEVEN)),       # same text as French S7 above, another card
    ("R6", GERMAN, Card(HEARTS, SIX)),
    # suit symbols are read in either notation, with the notation's rank letters
    ("♣O", GERMAN, Card(CLUBS, QUEEN)),
    ("♠U", GERMAN, Card(SPADES, JACK)),
    ("♥D", GERMAN, Card(HEARTS, ACE)),
    ("♦10", GERMAN, Card(DIAMONDS, TEN)),
    ("♦10", FRENCH, Card(DIAMONDS, TEN)),
    ("♠A", GERMAN, Card(SPADES, ACE)),
    ("♠A", FRENCH, Card(SPADES, ACE)),
]


@pytest.mark.parametrize("text,notation,card", SPELLINGS)
def test_spelling(text, notation, card):
    assert parse_card(text, notation) == card


@pytest.mark.parametrize("text,notation,card", SPELLINGS)
def test_spelling_is_case_insensitive(text, notation, card):
    assert parse_card(text.lower(), notation) == card
    assert parse_card(text.upper(), notation) == card
    # mixed case: suit one way, rank the other
    mixed = text[0].lower() + text[1:].upper() if text[0].isalpha() else text[0] + text[1:].lower()
    assert parse_card(mixed, notation) == card


def test_s_means_spades_in_french_and_schellen_in_german():
    assert parse_card("S9", FRENCH) == Card(SPADES, NINE)
    assert parse_card("S9", GERMAN) == Card(DIAMONDS, NINE)
    assert parse_card("s9", GERMAN) == Card(DIAMONDS, NINE)
    # and the symbols are the same in both
    for symbol, suit in (("♣", CLUBS), ("♠", SPADES), ("♥", HEARTS), ("♦", DIAMONDS)):
        assert parse_card(symbol + "9", FRENCH) == parse_card(symbol + "9", GERMAN) == Card(suit, NINE)


def test_default_notation_is_french():
    # parse_card without a notation reads French letters (S = spades)
    assert parse_card("SQ") == Card(SPADES, QUEEN)


def test_letters_are_read_in_the_files_notation_only():
    # E and G are no French suits; C, H and D are no German suits
    for text in ("EO", "GU", "EA"):
        with pytest.raises(CardError):
            parse_card(text, FRENCH)
    for text in ("CQ", "H10", "DA"):
        with pytest.raises(CardError):
            parse_card(text, GERMAN)
    # O and U are German ranks only; Q and J French only
    with pytest.raises(CardError):
        parse_card("♥O", FRENCH)
    with pytest.raises(CardError):
        parse_card("♥U", FRENCH)
    with pytest.raises(CardError):
        parse_card("♥Q", GERMAN)
    with pytest.raises(CardError):
        parse_card("♥J", GERMAN)


def test_parse_cards_splits_on_any_white_space():
    assert parse_cards("♣Q  CQ\tH10\nht ♥10", FRENCH) == [
        Card(CLUBS, QUEEN), Card(CLUBS, QUEEN), Card(HEARTS, TEN), Card(HEARTS, TEN), Card(HEARTS, TEN)]
    assert parse_cards("EO GU S10 RA RD", GERMAN) == [
        Card(CLUBS, QUEEN), Card(SPADES, JACK), Card(DIAMONDS, TEN), Card(HEARTS, ACE), Card(HEARTS, ACE)]
    assert parse_cards("", FRENCH) == []
    assert parse_cards("   ", GERMAN) == []


@pytest.mark.parametrize("text", ["EA", "GU"])
def test_parse_suit_names_match_card_letters(text):
    # the German suit names name the same suits as the German letters
    names = {"E": "eichel", "G": "gruen"}
    assert parse_suit(names[text[0]]) == parse_card(text, GERMAN).suit


@pytest.mark.parametrize("name,suit", [
    ("clubs", CLUBS), ("spades", SPADES), ("hearts", HEARTS), ("diamonds", DIAMONDS),
    ("eichel", CLUBS), ("gruen", SPADES), ("grün", SPADES), ("rot", HEARTS), ("schellen", DIAMONDS),
    ("♣", CLUBS), ("♠", SPADES), ("♥", HEARTS), ("♦", DIAMONDS),
])
def test_suit_names(name, suit):
    assert parse_suit(name) == suit


@pytest.mark.parametrize("name", ["", "club s", "stars", "C", "♣Q", "trump"])
def test_unknown_suit_names(name):
    with pytest.raises(CardError):
        parse_suit(name)


# --- format -> parse round trip -------------------------------------------------------------

@pytest.mark.parametrize("notation", [FRENCH, GERMAN])
def test_every_card_round_trips(notation):
    texts = set()
    for card in ALL_CARDS:
        text = card.text(notation)
        assert parse_card(text, notation) == card, text
        assert parse_card(text.lower(), notation) == card, text
        texts.add(text)
    assert len(texts) == len(ALL_CARDS)          # no two cards written alike
    # a whole list of cards, too
    assert parse_cards(format_cards(ALL_CARDS, notation), notation) == ALL_CARDS


def test_formatting_uses_the_notation():
    # German text uses only the German letters, so it reads back in German but not in French
    card = Card(CLUBS, QUEEN)
    assert parse_card(card.text(GERMAN), GERMAN) == card
    assert card.text(GERMAN).upper() == "EO"
    with pytest.raises(CardError):
        parse_card(card.text(GERMAN), FRENCH)
    # Schellen 9 written in German reads as Schellen, never as spades, in German
    assert parse_card(Card(DIAMONDS, NINE).text(GERMAN), GERMAN) == Card(DIAMONDS, NINE)


def test_cards_are_values():
    assert Card(CLUBS, QUEEN) == parse_card("♣Q") == parse_card("EO", GERMAN)
    assert len({parse_card("♣Q"), parse_card("CQ"), parse_card("eo", GERMAN)}) == 1


# --- errors ---------------------------------------------------------------------------------

BAD = [
    ("XQ", FRENCH),      # no suit X
    ("♣X", FRENCH),      # no rank X
    ("H11", FRENCH),
    ("H1", FRENCH),
    ("H100", FRENCH),
    ("HQQ", FRENCH),
    ("H", FRENCH),       # a suit alone
    ("♥", GERMAN),
    ("Q♣", FRENCH),      # rank first
    ("10H", FRENCH),
    ("EO", FRENCH),
    ("H10", GERMAN),
    ("RQ", GERMAN),
    ("GJ", GERMAN),
    ("R5", GERMAN),
    ("♣1", GERMAN),
    ("♣Z", GERMAN),
]


@pytest.mark.parametrize("text,notation", BAD)
def test_unknown_card_names_the_token(text, notation):
    with pytest.raises(CardError) as info:
        parse_card(text, notation)
    message = str(info.value)
    assert text in message
    assert "\n" not in message


def test_unknown_card_in_a_list_names_that_token():
    with pytest.raises(CardError) as info:
        parse_cards("♣Q ♥10 ♠X ♦A", FRENCH)
    assert "♠X" in str(info.value)


def test_empty_card_is_an_error():
    with pytest.raises(CardError):
        parse_card("", FRENCH)
    with pytest.raises(CardError):
        parse_card("  ", GERMAN)


def test_card_error_is_a_value_error():
    # callers catching ValueError (e.g. a CLI) see card errors too
    assert issubclass(CardError, ValueError)

"""The deal file reader (deal-format.md): what it accepts and how it rejects bad input.

Every malformed input must raise ``stich.DealError`` whose ``str()`` is one line naming the
source, the key and the problem.  The small positions below are written by hand; each comment
says why the input is (il)legal under rules.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from clirun import one_line_error, run

import stich
from stich import DealError, load, loads
from stich.deals.deal import Pile
from stich.deals.deal import load as deal_load
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
    TEN,
    Card,
)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def expect_error(text: str, key: str | None, *words: str, source: str = "case.toml") -> str:
    """Read ``text``; it must fail with a one-line DealError naming source, key and words."""
    with pytest.raises(DealError) as info:
        loads(text, source)
    message = str(info.value)
    assert "\n" not in message and "\r" not in message, message
    assert source in message, message
    if key is not None:
        assert key in message, message
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    return message


# --- the examples of deal-format.md, exactly as written there ------------------------------

SPEC_ELFERN = """\
# Elfern, a whole deal: forehand (seat 1) leads
game = "elfern"
stock = "♠7 ♦K ♣10 ♥9 ♦A ♣Q ♠J ♦8 ♥A ♣7 ♥J ♠9 ♦10 ♣K ♥8 ♦Q ♠A ♣9 ♦7 ♥Q"

[hands]
1 = "♠10 ♥K ♥10 ♦J ♣A ♣8"
2 = "♠K ♠Q ♠8 ♦9 ♥7 ♣J"
"""

SPEC_SCHAFKOPF = """\
# Two-handed Wendish Schafkopf with Schellen trump, after two tricks (seat 2 won both and leads)
game = "schafkopf2"
play = ["E9 S8", "RA R9"]

[piles]
1 = "SK/S9 EU/RU R9/R10 G7/G9 S7/E10 E9/G10 E8/R7 RO/E7"
2 = "RA/R8 SO/EA G8/GO SA/GU S8/GA RK/EK SU/EO S10/GK"
"""

SPEC_SCHARWENZEL = """\
# Scharwenzel, four players, hearts trump: an ending of three tricks
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

SPEC_EXAMPLES = [SPEC_ELFERN, SPEC_SCHAFKOPF, SPEC_SCHARWENZEL]


def test_spec_example_elfern():
    deal = loads(SPEC_ELFERN, "elfern.toml")
    assert deal.game == "elfern" and deal.notation == FRENCH and deal.players == 2
    assert deal.leader == 1 and deal.taken == (0, 0) and deal.play == ()
    assert len(deal.stock) == 20
    assert deal.stock[0] == Card(SPADES, SEVEN) and deal.stock[-1] == Card(HEARTS, QUEEN)  # top first
    assert deal.hands[1] == (Card(SPADES, TEN), Card(HEARTS, KING), Card(HEARTS, TEN),
                             Card(DIAMONDS, JACK), Card(CLUBS, ACE), Card(CLUBS, EIGHT))
    assert len(deal.hands[2]) == 6
    # the 32 cards of the pack, each once
    cards = set(deal.stock) | set(deal.hands[1]) | set(deal.hands[2])
    assert len(cards) == 32
    position = deal.position()
    assert position.to_move == 0            # forehand (seat 1) leads


def test_spec_example_schafkopf():
    deal = loads(SPEC_SCHAFKOPF, "schafkopf.toml")
    assert deal.game == "schafkopf2" and deal.notation == GERMAN     # German is the default here
    assert deal.piles[1][0] == Pile(Card(DIAMONDS, KING), Card(DIAMONDS, NINE))   # SK on S9
    assert deal.piles[2][7] == Pile(Card(DIAMONDS, TEN), Card(SPADES, KING))      # S10 on GK
    assert deal.play == ((Card(CLUBS, NINE), Card(DIAMONDS, EIGHT)),
                         (Card(HEARTS, ACE), Card(HEARTS, NINE)))
    # Trick 1: seat 1 leads E9; seat 2 has no Eichel face up (RA SO G8 SA S8 RK SU S10), must
    # trump and plays S8 (a Schellen trump), winning 0 points.  Trick 2: seat 2 leads RA, seat 1
    # follows R9 (its only face-up Rot; RO is a trump): 11 points.  Seat 2 won both and leads.
    position = deal.position()
    assert position.to_move == 1
    assert list(position.points) == [0, 11]


def test_spec_example_scharwenzel():
    deal = loads(SPEC_SCHARWENZEL, "scharwenzel.toml")
    assert deal.game == "scharwenzel" and deal.players == 4        # players default: the hands
    assert deal.trump_suit == HEARTS and deal.leader == 3 and deal.taken == (3, 2)
    assert deal.hands[4] == (Card(HEARTS, ACE), Card(HEARTS, KING), Card(DIAMONDS, KING))
    assert deal.position().to_move == 2


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.toml")), ids=lambda p: p.name)
def test_every_example_file_reads(path):
    deal = load(path)
    assert deal.source == str(path)
    deal.position()                          # and its play replays


def test_examples_exist():
    assert len(list(EXAMPLES.glob("*.toml"))) >= 3


# --- what the reader fills in ----------------------------------------------------------------

ELFERN_2 = 'game = "elfern"\n[hands]\n1 = "♠A ♠9"\n2 = "♠K ♥8"\n'


def test_defaults():
    deal = loads(ELFERN_2)
    assert deal.leader == 1 and deal.taken == (0, 0) and deal.play == () and deal.stock == ()
    assert deal.notation == FRENCH
    deal = loads('game = "schafkopf2"\n[piles]\n1 = "EA"\n2 = "EK"\n')
    assert deal.notation == GERMAN and deal.piles[1] == (Pile(Card(CLUBS, ACE)),)


def test_cards_key_switches_the_letters():
    # S is spades in French and Schellen in German
    french = loads('game = "schafkopf2"\ncards = "french"\n[piles]\n1 = "SA"\n2 = "CA"\n')
    assert french.piles[1][0].up == Card(SPADES, ACE)
    german = loads('game = "elfern"\ncards = "german"\n[hands]\n1 = "SA"\n2 = "EA"\n')
    assert german.hands[1] == (Card(DIAMONDS, ACE),)
    assert german.hands[2] == (Card(CLUBS, ACE),)


@pytest.mark.parametrize("name,suit", [
    ("clubs", CLUBS), ("spades", SPADES), ("hearts", HEARTS), ("diamonds", DIAMONDS),
    ("eichel", CLUBS), ("gruen", SPADES), ("grün", SPADES), ("rot", HEARTS), ("schellen", DIAMONDS),
    ("♣", CLUBS), ("♠", SPADES), ("♥", HEARTS), ("♦", DIAMONDS)])
def test_trump_names(name, suit):
    deal = loads(f'game = "scharwenzel"\ntrump = "{name}"\n'
                 '[hands]\n1 = "♣A"\n2 = "♣K"\n3 = "♣9"\n4 = "♣8"\n')
    assert deal.trump_suit == suit


def test_card17_trump_from_forehands_first_pile():
    # schafkopf2-card17.toml: seat 1's first pile is GA/RK, so the 17th card is GA: Grün trump
    deal = load(EXAMPLES / "schafkopf2-card17.toml")
    assert deal.trump is None and deal.trump_suit == SPADES
    # a Wenzel as the 17th card sets trump by its printed suit: RO -> Rot
    deal = loads('game = "schafkopf2"\n[piles]\n1 = "RO/E7 GA"\n2 = "EK/E8 G10"\n'
                 '[rules]\ntrump_mode = "card17"\n')
    assert deal.trump_suit == HEARTS
    # an explicit trump wins over the 17th card
    deal = loads('game = "schafkopf2"\ntrump = "eichel"\n[piles]\n1 = "RO/E7 GA"\n2 = "EK/E8 G10"\n'
                 '[rules]\ntrump_mode = "card17"\n')
    assert deal.trump_suit == CLUBS


def test_six_is_in_the_six_player_pack():
    deal = loads('game = "scharwenzel"\ntrump = "hearts"\n[hands]\n'
                 '1 = "♣6"\n2 = "♣7"\n3 = "♠6"\n4 = "♥6"\n5 = "♦6"\n6 = "♣A"\n')
    assert deal.players == 6 and deal.hands[1] == (Card(CLUBS, SIX),)


def test_players_key():
    hands = {1: "♣A", 2: "♣K", 3: "♣Q", 4: "♣J", 5: "♣10", 6: "♣9", 7: "♣8", 8: "♣7"}
    deal = loads(scharwenzel(hands, "players = 8"))
    assert deal.players == 8 and deal.hands[5] == (Card(CLUBS, TEN),)
    # players given and equal to the number of hands
    assert loads(scharwenzel(BASE4, "players = 4")) == loads(scharwenzel(BASE4))


def test_rules_are_read():
    deal = loads(ELFERN_2 + "[rules]\nmust_head = true\nscoring = \"graded\"\n")
    assert deal.options["must_head"] is True and deal.options["scoring"] == "graded"


def test_a_legal_play_is_accepted():
    # stock gone, seat 2 holds ♠K and ♥8: it must follow ♠9 with ♠K
    deal = loads('game = "elfern"\nplay = ["♠9 ♠K"]\n[hands]\n1 = "♠A ♠9"\n2 = "♠K ♥8"\n')
    assert deal.play == ((Card(SPADES, NINE), Card(SPADES, KING)),)
    # seat 2 won the trick (♠K over ♠9) and leads the last trick
    assert deal.position().to_move == 1


# --- file-level errors -----------------------------------------------------------------------

def _message(path) -> str:
    with pytest.raises(DealError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message
    assert str(path) in message
    return message


def test_missing_file(tmp_path):
    message = _message(tmp_path / "nothing-here.toml")
    assert "no such file" in message.lower()


def test_directory(tmp_path):
    message = _message(tmp_path)
    assert "directory" in message.lower()


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('game = "elfern"\n# Grün\n'.encode("latin-1"))
    message = _message(path)
    assert "utf-8" in message.lower()


def test_unreadable_symlink_loop(tmp_path):
    # a file that exists as a name but cannot be opened (ELOOP): an OSError other than the above
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    _message(tmp_path / "a.toml")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads every file")
def test_unreadable_permissions(tmp_path):
    path = tmp_path / "secret.toml"
    path.write_text(ELFERN_2, encoding="utf-8")
    path.chmod(0)
    _message(path)


def test_load_reads_a_good_file(tmp_path):
    path = tmp_path / "good.toml"
    path.write_text(ELFERN_2, encoding="utf-8")
    assert load(path) == loads(ELFERN_2)
    # CRLF line ends are TOML newlines too
    path.write_bytes(ELFERN_2.replace("\n", "\r\n").encode("utf-8"))
    assert load(path) == loads(ELFERN_2)


def test_error_in_a_file_names_the_file(tmp_path):
    path = tmp_path / "bad-card.toml"
    path.write_text(ELFERN_2.replace("♠9", "♠X"), encoding="utf-8")
    message = _message(path)
    assert "hands.1" in message and "♠X" in message


def test_toml_syntax_error_has_line_and_column():
    message = expect_error('game = "elfern"\nstock = = "♠7"\n', None, "toml", "line 2", "column")
    assert "line 2" in message


def test_toml_syntax_error_at_end_has_line_and_column():
    # an array left open runs to the end of the document
    expect_error('game = "elfern"\nplay = ["♠9 ♠K",\n', None, "toml", "line", "column")


def test_toml_unclosed_string():
    expect_error('game = "elfern\n[hands]\n', None, "toml", "line 1", "column")


# --- key-level errors ------------------------------------------------------------------------

HANDS4 = '[hands]\n1 = "♣Q ♥9"\n2 = "♥7 ♦10"\n3 = "♥J ♦A"\n4 = "♥A ♦K"\n'
SCHARWENZEL = 'game = "scharwenzel"\ntrump = "hearts"\n' + HANDS4


def test_missing_game():
    expect_error(HANDS4, "game", "missing")


@pytest.mark.parametrize("value", ['"skat"', '""', "3", "true", '["elfern"]'])
def test_unknown_game(value):
    expect_error(f"game = {value}\n" + HANDS4, "game")


def test_unknown_top_level_key():
    expect_error('game = "elfern"\nsocks = 2\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "socks", "unknown")


def test_misspelt_table():
    expect_error('game = "elfern"\n[hand]\n1 = "♠A"\n2 = "♠K"\n', "hand", "unknown")


@pytest.mark.parametrize("value", ['"italian"', "1", '"frensh"'])
def test_bad_cards_notation(value):
    expect_error(f'game = "elfern"\ncards = {value}\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "cards")


def test_unknown_card():
    expect_error('game = "elfern"\n[hands]\n1 = "♠A ♠X"\n2 = "♠K ♠Q"\n', "hands.1", "♠X")


def test_unknown_card_in_stock():
    expect_error('game = "elfern"\nstock = "♥7 ♥1"\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "stock", "♥1")


def test_unknown_card_in_a_pile():
    expect_error('game = "schafkopf2"\n[piles]\n1 = "EA/EZ"\n2 = "GA/GK"\n', "piles.1", "EZ")


def test_card_in_the_wrong_notation():
    # H is no German suit: a German deal cannot say H10
    expect_error('game = "elfern"\ncards = "german"\n[hands]\n1 = "H10"\n2 = "RK"\n', "hands.1", "H10")
    # EO is German; in a French Elfern deal E is no suit
    expect_error('game = "elfern"\n[hands]\n1 = "EO"\n2 = "♠K"\n', "hands.1", "EO")


@pytest.mark.parametrize("pile", ["EA/", "/EA", "EA/EK/E9", "EA//EK"])
def test_malformed_pile(pile):
    expect_error(f'game = "schafkopf2"\n[piles]\n1 = "{pile} GA"\n2 = "GK/G9 G8"\n', "piles.1")


def test_card_not_in_the_pack():
    # 4-player Scharwenzel uses the 32-card pack (7..A): no sixes
    expect_error(SCHARWENZEL.replace("♦K", "♣6"), "hands.4", "♣6", "pack")
    # Elfern and Schafkopf use 32 cards too
    expect_error('game = "elfern"\n[hands]\n1 = "♠6"\n2 = "♠K"\n', "hands.1", "♠6")
    expect_error('game = "schafkopf2"\n[piles]\n1 = "E6"\n2 = "GK"\n', "piles.1", "E6")


def test_card_not_in_the_eight_player_pack():
    hands = "".join(f'{s} = "♣{r}"\n' for s, r in zip(range(1, 9), ["A", "K", "Q", "J", "10", "9", "8", "6"]))
    expect_error(f'game = "scharwenzel"\nplayers = 8\ntrump = "hearts"\n[hands]\n{hands}', "hands.8", "♣6")


def test_duplicate_within_a_hand():
    expect_error('game = "elfern"\n[hands]\n1 = "♠A ♠A"\n2 = "♠K ♠Q"\n', "hands.1", "duplicate", "♠A")


def test_duplicate_with_two_spellings():
    # CQ and ♣Q are the same card
    expect_error('game = "elfern"\n[hands]\n1 = "CQ ♣Q"\n2 = "♠K ♠8"\n', "hands.1", "duplicate")


def test_duplicate_across_hands():
    expect_error('game = "elfern"\n[hands]\n1 = "♠A ♠J"\n2 = "♠K ♠A"\n', "hands", "duplicate", "♠A")


def test_duplicate_hand_and_stock():
    expect_error('game = "elfern"\nstock = "♥7 ♠A"\n[hands]\n1 = "♠A ♠J"\n2 = "♠K ♠Q"\n',
                 "stock", "duplicate", "♠A")


def test_duplicate_pile_up_and_down():
    expect_error('game = "schafkopf2"\n[piles]\n1 = "EO/EO"\n2 = "GO/GU"\n', "piles.1", "duplicate", "EO")
    # up in one pile, down in another of the same seat
    expect_error('game = "schafkopf2"\n[piles]\n1 = "EO/GU GU/GA"\n2 = "GO/G7 G8/G9"\n',
                 "piles.1", "duplicate", "GU")
    # across seats
    expect_error('game = "schafkopf2"\n[piles]\n1 = "EO/GU"\n2 = "GO/EO"\n', "piles", "duplicate", "EO")


def test_unequal_hands():
    expect_error('game = "elfern"\n[hands]\n1 = "♠A ♠J"\n2 = "♠K"\n', "hands")
    expect_error(SCHARWENZEL.replace('4 = "♥A ♦K"', '4 = "♥A"'), "hands")
    expect_error('game = "schafkopf2"\n[piles]\n1 = "EA/E7 GA"\n2 = "EK/E8"\n', "piles")


def test_missing_seat():
    expect_error('game = "elfern"\n[hands]\n1 = "♠A"\n', "hands", "seat 2")
    expect_error('game = "schafkopf2"\n[piles]\n2 = "EA"\n', "piles", "seat 1")
    # six players declared, four hands given
    expect_error(SCHARWENZEL.replace("trump", "players = 6\ntrump"), "hands", "seat 5")


def test_missing_hands_table():
    expect_error('game = "elfern"\n', "hands")


def test_seat_out_of_range():
    expect_error('game = "elfern"\n[hands]\n1 = "♠A"\n2 = "♠K"\n3 = "♠Q"\n', "hands.3")
    expect_error('game = "elfern"\n[hands]\n0 = "♠A"\n1 = "♠K"\n2 = "♠Q"\n', "hands.0")
    expect_error(SCHARWENZEL.replace("trump", "players = 4\ntrump") + '5 = "♠A ♠K"\n', "hands.5")
    # without `players`, five hands are simply a wrong number of hands
    expect_error(SCHARWENZEL + '5 = "♠A ♠K"\n', "hands")
    expect_error('game = "schafkopf2"\n[piles]\n1 = "EA"\n2 = "EK"\n3 = "E9"\n', "piles.3")


def test_seat_not_a_number():
    expect_error('game = "elfern"\n[hands]\n1 = "♠A"\n2 = "♠K"\nthree = "♠Q"\n', "hands.three")


def test_seat_given_twice():
    # "01" is seat 1 again: one of the two hands would be lost silently
    expect_error('game = "elfern"\n[hands]\n1 = "♠A"\n"01" = "♠Q"\n2 = "♠K"\n', "hands", "twice")


def test_odd_elfern_stock():
    expect_error('game = "elfern"\nstock = "♥7"\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "stock", "even")
    expect_error('game = "elfern"\nstock = "♥7 ♥8 ♥9"\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "stock", "even")


def test_stock_with_empty_hands():
    expect_error('game = "elfern"\nstock = "♥7 ♥8"\n[hands]\n1 = ""\n2 = ""\n', "hands")


def test_too_many_cards_per_seat():
    # Elfern: six cards each while the stock lasts ...
    expect_error('game = "elfern"\nstock = "♥7 ♥8"\n[hands]\n1 = "♠A ♠K ♠Q ♠J ♠10 ♠9 ♠8"\n'
                 '2 = "♣A ♣K ♣Q ♣J ♣10 ♣9 ♣8"\n', "hands", "7")
    # ... and without it only the last six tricks are left (rules.md §3)
    expect_error('game = "elfern"\n[hands]\n1 = "♠A ♠K ♠Q ♠J ♠10 ♠9 ♠8"\n'
                 '2 = "♣A ♣K ♣Q ♣J ♣10 ♣9 ♣8"\n', "hands", "7")


def test_too_many_piles():
    expect_error('game = "schafkopf2"\n[piles]\n1 = "EA E10 EK E9 E8 E7 GA G10 GK"\n'
                 '2 = "RA R10 RK R9 R8 R7 SA S10 SK"\n', "piles", "9")


def test_elfern_with_six_each_and_a_stock_is_fine():
    loads('game = "elfern"\nstock = "♥7 ♥8"\n[hands]\n1 = "♠A ♠K ♠Q ♠J ♠10 ♠9"\n'
          '2 = "♣A ♣K ♣Q ♣J ♣10 ♣9"\n')


def test_layout_of_another_game():
    expect_error('game = "elfern"\n[piles]\n1 = "♠A"\n2 = "♠K"\n', "piles")
    expect_error('game = "schafkopf2"\n[hands]\n1 = "EA"\n2 = "EK"\n', "hands")
    expect_error('game = "scharwenzel"\ntrump = "hearts"\nstock = "♠A ♠K"\n' + HANDS4, "stock")


def test_hands_not_a_table():
    expect_error('game = "elfern"\nhands = "♠A ♠K"\n', "hands")
    expect_error('game = "elfern"\n[hands]\n1 = ["♠A"]\n2 = ["♠K"]\n', "hands.1")


def test_scharwenzel_without_trump():
    expect_error(SCHARWENZEL.replace('trump = "hearts"\n', ""), "trump", "missing")


@pytest.mark.parametrize("value", ["5", "2", "0", '"4"', "true", "4.0"])
def test_bad_players(value):
    expect_error(SCHARWENZEL.replace("trump", f"players = {value}\ntrump"), "players")


def test_players_for_a_two_player_game():
    expect_error('game = "elfern"\nplayers = 4\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "players")


def test_wrong_number_of_hands_without_players():
    # five hands: Scharwenzel is for 4, 6 or 8
    expect_error('game = "scharwenzel"\ntrump = "hearts"\n[hands]\n'
                 '1 = "♣A"\n2 = "♣K"\n3 = "♣9"\n4 = "♣8"\n5 = "♣7"\n', "hands")


def test_trump_for_elfern():
    expect_error('game = "elfern"\ntrump = "hearts"\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "trump")


@pytest.mark.parametrize("value", ['"stars"', '"H"', "3", '""', '"♣Q"'])
def test_bad_trump_name(value):
    expect_error(SCHARWENZEL.replace('"hearts"', value), "trump")


def test_trump_other_than_schellen_in_schellen_mode():
    # trump_mode = schellen (default): trump is always Schellen, so "eichel" contradicts it
    expect_error('game = "schafkopf2"\ntrump = "eichel"\n[piles]\n1 = "EA"\n2 = "EK"\n', "trump")


@pytest.mark.parametrize("game,layout", [
    ("elfern", '[hands]\n1 = "♠A"\n2 = "♠K"\n'),
    ("schafkopf2", '[piles]\n1 = "EA"\n2 = "EK"\n'),
    ("scharwenzel", 'trump = "clubs"\n' + HANDS4)])
def test_unknown_option(game, layout):
    text = f'game = "{game}"\n' + layout
    expect_error(text + "[rules]\nmust_fly = true\n", "rules.must_fly", "unknown")


@pytest.mark.parametrize("game,layout,option", [
    ("elfern", '[hands]\n1 = "♠A"\n2 = "♠K"\n', "must_head = 3"),
    ("elfern", '[hands]\n1 = "♠A"\n2 = "♠K"\n', 'must_head = "perhaps"'),
    ("elfern", '[hands]\n1 = "♠A"\n2 = "♠K"\n', 'scoring = "points"'),
    ("schafkopf2", '[piles]\n1 = "EA"\n2 = "EK"\n', 'trump_mode = "eichel"'),
    ("schafkopf2", '[piles]\n1 = "EA"\n2 = "EK"\n', "schneider_at = 31"),
    ("schafkopf2", '[piles]\n1 = "EA"\n2 = "EK"\n', "must_beat = 1.5"),
    ("scharwenzel", 'trump = "clubs"\n' + HANDS4, 'plain_order = "KQA"'),
    ("scharwenzel", 'trump = "clubs"\n' + HANDS4, 'first_leader = "dealer"'),
    ("scharwenzel", 'trump = "clubs"\n' + HANDS4, "must_trump = []"),
])
def test_bad_option_value(game, layout, option):
    name = option.split(" ")[0]
    expect_error(f'game = "{game}"\n{layout}[rules]\n{option}\n', f"rules.{name}")


def test_option_of_another_game():
    # must_head is an Elfern option, not a Scharwenzel one
    expect_error(SCHARWENZEL + "[rules]\nmust_head = true\n", "rules.must_head")


def test_rules_not_a_table():
    expect_error('game = "elfern"\nrules = "must_head"\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "rules")


# --- play --------------------------------------------------------------------------------------

def scharwenzel(hands: dict[int, str], extra: str = "", trump: str = "hearts", rules: str = "") -> str:
    text = f'game = "scharwenzel"\ntrump = "{trump}"\n{extra}\n[hands]\n'
    text += "".join(f'{seat} = "{cards}"\n' for seat, cards in hands.items())
    return text + (f"[rules]\n{rules}\n" if rules else "")


# Hearts trump.  Trumps: ♣Q ♥7 ♠Q ♣J ♠J ♥J ♦J ♥A ♥K ♥Q ♥10 ♥9 ♥8; ♦ and ♠ below are plain.
BASE4 = {1: "♣Q ♥9", 2: "♥7 ♦10", 3: "♥J ♦A", 4: "♥A ♦K"}


def test_play_card_not_held():
    expect_error(scharwenzel(BASE4, 'play = ["♠A"]'), "play", "♠A", "not held", "trick 1")
    # ♥J is held, but by seat 3, and seat 1 leads
    expect_error(scharwenzel(BASE4, 'play = ["♥J"]'), "play", "not held")


def test_play_must_follow_suit():
    # seat 3 leads ♦A; seat 4 holds ♦K and must follow with it, not ♥A
    expect_error(scharwenzel(BASE4, 'leader = 3\nplay = ["♦A ♥A"]'), "play", "♥A", "follow")
    # and ♦K is fine; seat 1 then has no ♦ and may play anything
    loads(scharwenzel(BASE4, 'leader = 3\nplay = ["♦A ♦K ♣Q"]'))


def test_play_follows_the_effective_suit_in_scharwenzel():
    # hearts trump: ♣Q is a trump, not a club.  Seat 1 leads ♣A; seat 2 holds ♣K and ♣Q:
    # it must follow with ♣K; ♣Q does not follow clubs.
    hands = {1: "♣A ♦7", 2: "♣K ♣Q", 3: "♦8 ♦9", 4: "♦10 ♠7"}
    expect_error(scharwenzel(hands, 'play = ["♣A ♣Q"]'), "play", "follow")
    loads(scharwenzel(hands, 'play = ["♣A ♣K"]'))
    # with ♣Q and no plain club, seat 2 cannot follow and may play either card
    hands = {1: "♣A ♦7", 2: "♣Q ♠8", 3: "♦8 ♦9", 4: "♦10 ♠7"}
    loads(scharwenzel(hands, 'play = ["♣A ♠8"]'))
    # the Jacks are trumps too: ♠J led is a trump lead, seat 2's ♥9 (trump) must follow it
    hands = {1: "♠J ♦7", 2: "♥9 ♠8", 3: "♦8 ♦9", 4: "♦10 ♠7"}
    expect_error(scharwenzel(hands, 'play = ["♠J ♠8"]'), "play", "follow")


def test_must_trump_in_scharwenzel_only_when_enabled():
    # seat 1 leads ♦10; seat 2 has no ♦ but holds the trump ♥9 and plays ♠K
    hands = {1: "♦10 ♠A", 2: "♥9 ♠K", 3: "♦A ♣8", 4: "♦K ♣9"}
    deal = loads(scharwenzel(hands, 'play = ["♦10 ♠K"]'))          # default: no duty to trump
    assert deal.play
    expect_error(scharwenzel(hands, 'play = ["♦10 ♠K"]', rules="must_trump = true"),
                 "play", "trump")
    loads(scharwenzel(hands, 'play = ["♦10 ♥9"]', rules="must_trump = true"))


SK = 'game = "schafkopf2"\n{extra}\n[piles]\n1 = "{p1}"\n2 = "{p2}"\n{rules}'


def schafkopf(p1: str, p2: str, extra: str = "", rules: str = "") -> str:
    return SK.format(p1=p1, p2=p2, extra=extra, rules=f"[rules]\n{rules}\n" if rules else "")


def test_play_face_down_card():
    # E7 lies face down under EA
    expect_error(schafkopf("EA/E7 GA", "EK/E8 G10", 'play = ["E7"]'), "play", "E7", "face down")


def test_play_must_follow_in_schafkopf():
    # seat 1 leads EA; seat 2 has E10 face up and must follow Eichel
    expect_error(schafkopf("EA/E7 GA", "E10/E8 G10", 'play = ["EA G10"]'), "play", "G10", "follow")


def test_play_must_trump_in_schafkopf():
    # seat 1 leads GA.  Seat 2's face-up cards are SA (a Schellen trump) and EK; its G10 is face
    # down, and following is judged on face-up cards only, so it cannot follow and must trump.
    expect_error(schafkopf("GA/G7 E9", "SA/G10 EK", 'play = ["GA EK"]'), "play", "EK", "trump")
    loads(schafkopf("GA/G7 E9", "SA/G10 EK", 'play = ["GA SA"]'))


def test_play_ober_is_a_trump_in_schafkopf():
    # seat 1 leads EA; seat 2 holds EO (a trump, not an Eichel) and GK: it cannot follow Eichel
    # and must trump with EO.
    expect_error(schafkopf("EA E7", "GK EO", 'play = ["EA GK"]'), "play", "GK", "trump")
    loads(schafkopf("EA E7", "GK EO", 'play = ["EA EO"]'))


def test_must_beat_in_schafkopf():
    # seat 1 leads E10; seat 2 holds EA and E7 face up.  It must follow Eichel; with
    # must_beat it must also beat E10, so only EA is allowed.
    loads(schafkopf("E10 G9", "EA E7", 'play = ["E10 E7"]'))
    expect_error(schafkopf("E10 G9", "EA E7", 'play = ["E10 E7"]', rules="must_beat = true"),
                 "play", "E7", "beat")
    loads(schafkopf("E10 G9", "EA E7", 'play = ["E10 EA"]', rules="must_beat = true"))


ELFERN3 = 'game = "elfern"\n{extra}\n[hands]\n1 = "♠A ♠9 ♠10"\n2 = "♠7 ♠K ♥8"\n{rules}'


def elfern(extra: str = "", rules: str = "", stock: str = "") -> str:
    if stock:
        extra += f'\nstock = "{stock}"'
    return ELFERN3.format(extra=extra, rules=f"[rules]\n{rules}\n" if rules else "")


def test_elfern_follow_only_without_stock():
    # stock gone: seat 2 holds spades and must follow ♠9
    expect_error(elfern('play = ["♠9 ♥8"]'), "play", "♥8", "follow")
    # while the stock lasts, any card
    loads(elfern('play = ["♠9 ♥8"]', stock="♦7 ♦8"))


def test_elfern_must_head():
    # must_head: follow and beat ♠9 if able; seat 2 has ♠K, so ♠7 is illegal
    loads(elfern('play = ["♠9 ♠7"]'))
    expect_error(elfern('play = ["♠9 ♠7"]', rules="must_head = true"), "play", "♠7", "beat")
    loads(elfern('play = ["♠9 ♠K"]', rules="must_head = true"))
    # over ♠A nobody can beat: any spade
    loads(elfern('play = ["♠A ♠7"]', rules="must_head = true"))
    # while the stock lasts must_head does not apply
    loads(elfern('play = ["♠9 ♠7"]', rules="must_head = true", stock="♦7 ♦8"))


def test_elfern_play_draws_from_the_stock():
    # seat 1 leads ♠9, seat 2 plays ♥8 (stock: any card); ♠9 wins (♥8 is off suit), so seat 1
    # draws ♦7 and seat 2 ♦8; the stock is gone and seat 1 may now play the drawn ♦7.
    deal = loads(elfern('play = ["♠9 ♥8", "♦7"]', stock="♦7 ♦8"))
    position = deal.position()
    assert position.stock == [] and position.to_move == 1
    # a card still in the stock cannot be played
    expect_error(elfern('play = ["♠9 ♥8", "♦9"]', stock="♦7 ♦8"), "play", "♦9", "not held")


def test_trick_with_too_many_cards():
    expect_error(elfern('play = ["♠9 ♠7 ♠A"]'), "play", "3 cards")
    expect_error(scharwenzel(BASE4, 'leader = 3\nplay = ["♦A ♦K ♣Q ♦10 ♥9"]'), "play")


def test_non_final_trick_unfinished():
    expect_error(elfern('play = ["♠9", "♠7 ♠A"]'), "play", "trick 1")
    expect_error(scharwenzel(BASE4, 'leader = 3\nplay = ["♦A ♦K ♣Q", "♥9"]'), "play", "trick 1")


def test_more_cards_played_than_held():
    expect_error(elfern('play = ["♠9 ♠7", "♠K ♠A", "♥8 ♠10", "♠A"]'), "play")


def test_play_malformed():
    expect_error(elfern('play = "♠9 ♠7"'), "play")
    expect_error(elfern('play = [["♠9", "♠7"]]'), "play")
    expect_error(elfern('play = ["♠9 ♠Z"]'), "play", "♠Z")
    expect_error(elfern('play = ["", "♠9 ♠7"]'), "play")


def test_play_in_the_wrong_notation():
    # German letters: H is no suit
    expect_error(schafkopf("EA E7", "GK EO", 'play = ["H10"]'), "play", "H10")


# --- taken and leader ------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["[1, 2, 3]", "[1]", "[1, -2]", '"1 2"', "[1.0, 2]", "[true, 0]",
                                   '["1", "2"]', "3"])
def test_taken_malformed(value):
    expect_error(f'game = "elfern"\ntaken = {value}\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "taken")


def test_taken_inconsistent_honours():
    # Elfern: 20 honours in the pack.  ♠A and ♠K (2 honours) are still out, so at most 18 can
    # have been taken before.
    loads('game = "elfern"\ntaken = [10, 8]\n[hands]\n1 = "♠A"\n2 = "♠K"\n')
    expect_error('game = "elfern"\ntaken = [10, 9]\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "taken")
    # low cards carry no honours: 20 may have been taken around ♠7 / ♠8
    loads('game = "elfern"\ntaken = [11, 9]\n[hands]\n1 = "♠7"\n2 = "♠8"\n')
    expect_error('game = "elfern"\ntaken = [21, 0]\n[hands]\n1 = "♠7"\n2 = "♠8"\n', "taken")


def test_taken_inconsistent_tricks():
    # Scharwenzel, 4 players: 8 tricks a deal.  Two cards each still out = 2 tricks, so at most
    # 6 were taken before.
    loads(scharwenzel(BASE4, "taken = [3, 3]"))
    expect_error(scharwenzel(BASE4, "taken = [3, 4]"), "taken")
    # 6 players: 36 cards, 6 tricks; one card each still out leaves 5
    six = {1: "♣6", 2: "♣7", 3: "♠6", 4: "♥6", 5: "♦6", 6: "♣A"}
    loads(scharwenzel(six, "taken = [5, 0]"))
    expect_error(scharwenzel(six, "taken = [5, 1]"), "taken")


def test_taken_inconsistent_card_points():
    # Schafkopf: 120 card points.  EA (11) and E10 (10) still out: at most 99 taken before.
    loads(schafkopf("EA", "E10", "taken = [50, 49]"))
    expect_error(schafkopf("EA", "E10", "taken = [50, 50]"), "taken")
    # the cards of `play` count as still out at the start of play
    loads(schafkopf("EA/E7", "E10/EK", 'taken = [40, 55]\nplay = ["EA E10"]'))     # 95 + 25
    expect_error(schafkopf("EA/E7", "E10/EK", 'taken = [40, 56]\nplay = ["EA E10"]'), "taken")


def test_whole_deal_leaves_nothing_to_have_taken():
    expect_error(SPEC_ELFERN.replace("[hands]", "taken = [1, 0]\n[hands]"), "taken")
    expect_error(SPEC_SCHAFKOPF.replace("[piles]", "taken = [0, 1]\n[piles]"), "taken")


@pytest.mark.parametrize("value", ["3", "0", "-1", '"1"', "true", "1.0"])
def test_leader_out_of_range_elfern(value):
    expect_error(f'game = "elfern"\nleader = {value}\n[hands]\n1 = "♠A"\n2 = "♠K"\n', "leader")


def test_leader_out_of_range_scharwenzel():
    expect_error(scharwenzel(BASE4, "leader = 5"), "leader")
    loads(scharwenzel(BASE4, "leader = 4"))
    six = {**BASE4, 5: "♠A ♠K", 6: "♠10 ♠9"}
    loads(scharwenzel(six, "leader = 6"))
    expect_error(scharwenzel(six, "leader = 7"), "leader")


def test_leader_sets_who_plays_first():
    # with leader = 2, seat 2 leads the first trick of play: ♠K by seat 2 is fine,
    # and ♠A (seat 1's card) as the first card is not held by the leader
    loads('game = "elfern"\nleader = 2\nplay = ["♠K ♠A"]\n[hands]\n1 = "♠A"\n2 = "♠K"\n')
    expect_error('game = "elfern"\nleader = 2\nplay = ["♠A ♠K"]\n[hands]\n1 = "♠A"\n2 = "♠K"\n',
                 "play", "not held")


# --- messages stay on one line -----------------------------------------------------------------

def test_message_with_a_line_break_in_a_key_stays_one_line():
    # a quoted TOML key may hold a line break; the message must still be one line
    expect_error('game = "elfern"\n"so\\ncks" = 1\n[hands]\n1 = "♠A"\n2 = "♠K"\n', None, "unknown")
    expect_error('game = "elfern"\n[hands]\n"x\\ny" = "♠A"\n2 = "♠K"\n', "hands")


def test_deal_error_is_a_value_error_with_its_parts():
    with pytest.raises(DealError) as info:
        loads('game = "elfern"\n[hands]\n1 = "♠A ♠X"\n2 = "♠K ♠Q"\n', "x.toml")
    error = info.value
    assert isinstance(error, ValueError)
    assert error.source == "x.toml" and error.key == "hands.1"
    assert stich.DealError is DealError


def test_nothing_but_deal_errors_escape():
    # a grab bag of odd inputs: each must be a DealError, never another exception
    odd = [
        "", "\n", "[hands]", 'game = "elfern"\n[hands]\n1 = 1\n2 = 2\n',
        'game = "elfern"\n[hands.1]\nx = "♠A"\n',
        'game = "schafkopf2"\n[piles]\n1 = 7\n2 = "EA"\n',
        'game = "elfern"\nstock = 5\n[hands]\n1 = "♠A"\n2 = "♠K"\n',
        'game = "elfern"\nplay = [1, 2]\n[hands]\n1 = "♠A"\n2 = "♠K"\n',
        'game = "scharwenzel"\ntrump = ["hearts"]\n' + HANDS4,
        'game = "scharwenzel"\ntrump = "hearts"\nplayers = 99999999999999999999999\n' + HANDS4,
        'game = "elfern"\nleader = 99999999999999999999999\n[hands]\n1 = "♠A"\n2 = "♠K"\n',
        'game = "elfern"\n[hands]\n99999999999999999999999 = "♠A"\n2 = "♠K"\n',
        'game = "scharwenzel"\ntrump = "hearts"\ndeclarer = 9\n' + HANDS4,
        'game = "scharwenzel"\ntrump = "hearts"\n' + HANDS4 + '[rules]\nfirst_leader = "declarer"\n',
        'game = "elfern"\n[hands]\n1 = "♠A"\n2 = "♠K"\n[rules]\nmust_head = {a = 1}\n',
    ]
    for text in odd:
        with pytest.raises(DealError) as info:
            loads(text, "odd.toml")
        assert "\n" not in str(info.value) and "odd.toml" in str(info.value)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


SCHARWENZEL_END = ('game = "scharwenzel"\n{extra}\n[hands]\n1 = "♣Q ♥9 ♠A"\n2 = "♥7 ♦10 ♠K"\n'
                   '3 = "♥J ♦A ♣8"\n4 = "♥A ♥K ♦K"\n')


@pytest.mark.parametrize("trump", ['"x"', "5", "[1]"])
def test_all_passed_with_a_bad_trump_is_bad_input(tmp_path, trump):
    path = write(tmp_path, "d.toml", SCHARWENZEL_END.format(extra=f"all_passed = true\ntrump = {trump}"))
    one_line_error(run("solve", path), "d.toml", "trump")


@pytest.mark.parametrize("value", ['"x"', "5", "{}", "4", "true"])
def test_players_is_checked_in_every_game(tmp_path, value):
    for example in ("schafkopf2-ending.toml", "elfern-ending.toml"):
        text = f"players = {value}\n" + (EXAMPLES / example).read_text(encoding="utf-8")
        one_line_error(run("solve", write(tmp_path, example, text)), example, "players")


def test_players_two_is_accepted_in_the_two_player_games(tmp_path):
    text = "players = 2\n" + (EXAMPLES / "schafkopf2-ending.toml").read_text(encoding="utf-8")
    assert deal_load(write(tmp_path, "p.toml", text)).players == 2


@pytest.mark.parametrize("game,deal_lines,rules,ok", [
    ("einwerfen", 'trump = "rot"\n[hands]\n1 = "RA"\n2 = "RK"\n3 = "RO"\n4 = "RU"\n', "", False),
    ("elfern", '[hands]\n1 = "♠A"\n2 = "♠K"\n', "", False),
    ("officers_skat", 'trump = "rot"\n[piles]\n1 = "RA"\n2 = "RK"\n', "", True),
    ("officers_skat", 'trump = "rot"\n[piles]\n1 = "RA"\n2 = "RK"\n', '[rules]\nschwarz = "no_points"\n', False),
    ("schafkopf2", '[piles]\n1 = "RA"\n2 = "RK"\n', "", True),
])
def test_won_trick_only_where_the_game_asks_who_won_a_trick(tmp_path, game, deal_lines, rules, ok):
    """`won_trick` is refused in an Einwerfen file: it is a key of the games whose
    play or outcome asks whether a side has won a trick (Schwarz as no trick, a pair)."""
    path = tmp_path / "d.toml"
    path.write_text(f'game = "{game}"\ntaken = [10, 0]\nwon_trick = [true, false]\n{deal_lines}{rules}')
    result = run("solve", str(path))
    if ok:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code == 2
        assert len(result.stderr.strip().splitlines()) == 1 and "won_trick" in result.stderr


def test_a_byte_order_mark_first_is_not_part_of_the_text(tmp_path):
    """Some editors begin a UTF-8 file with a byte-order mark: the deal, a rule file and a deal
    on standard input read the same with it as without."""
    source = EXAMPLES / "elfern-ending.toml"
    marked = tmp_path / "marked.toml"
    marked.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())
    assert load(marked).dump() == load(source).dump()
    # text pasted with its mark (the explorer's deal input, ``loads``) reads the same too
    assert loads("\ufeff" + source.read_text(encoding="utf-8")).dump() == load(source).dump()
    piped = run("solve", "-", "--json", input=b"\xef\xbb\xbf" + source.read_bytes())
    assert piped.exit_code == 0, piped.stderr
    rules = tmp_path / "mine.toml"
    shipped = (EXAMPLES.parent / "solver" / "games" / "rules" / "einwerfen.toml").read_text(encoding="utf-8")
    assert 'name = "einwerfen"' in shipped
    rules.write_bytes(b"\xef\xbb\xbf" + shipped.replace('name = "einwerfen"', 'name = "mine"').encode("utf-8"))
    deal = tmp_path / "deal.toml"
    deal.write_text((EXAMPLES / "einwerfen-played.toml").read_text(encoding="utf-8")
                    .replace('game = "einwerfen"', f'game = "{rules}"'), encoding="utf-8")
    assert 'mine.toml' in deal.read_text(encoding="utf-8")
    assert run("solve", deal).exit_code == 0

"""Scharwenzel card play as bridge card play, so a bridge double-dummy solver (DDS) can check us.

Four-player Scharwenzel with the default follow rule (follow the effective suit if able,
otherwise any card, no duty to trump or to beat) plays exactly like bridge once the cards
are renamed:

- the whole trump set in Scharwenzel order (♣Q, T7, ♠Q, ♣J, ♠J, ♥J, ♦J, TA, TK, (TQ), T10,
  T9, T8) becomes the bridge suit with the same symbol as T, ranked A K Q J T 9 ... from the
  top: down to 2 with 13 trumps (T red), down to 3 with 12 (T black);
- each plain suit keeps its symbol and its cards in order, mapped high to low onto
  A K Q J T 9 ... (so ♣ without ♣Q and ♣J, A K 10 9 8 7, becomes A K Q J T 9); ``plain_order
  = "A10KQ"`` is followed as well, since only the order matters;
- seats 1, 2, 3, 4 are N, E, S, W: the odd seats (seat 1's side) are North-South;
- the trump suit of the contract is the bridge suit of T; the leader keeps his seat.

The trick winner and the legal cards are then the same in both games, so the double-dummy
tricks agree.  A 6-player deal (36 cards) or an 8-player one has no bridge counterpart, and
``must_trump = true`` is not bridge's rule: those are refused with a ``MappingError``.

Everything here is pure Python on strings: the bridge side is a PBN deal string
(``"N:S.H.D.C E... S... W..."``) and letters; ``to_endplay`` alone imports endplay, lazily.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from stich.model.cards import CLUBS, DIAMONDS, HEARTS, SPADES, Card, format_cards, suit_name
from stich.model.protocols import DealFacts

from . import GAMES

__all__ = ["BRIDGE_RANKS", "BRIDGE_SEATS", "BRIDGE_SUITS", "BridgeDeal", "MappingError", "card_map",
           "from_bridge", "from_bridge_card", "to_bridge", "to_bridge_card", "to_endplay",
           "tricks_to_totals"]

GAME = "scharwenzel"                  # the game bridge deals map onto (4 players, the bridge pack's top)
BRIDGE_SEATS = "NESW"                 # seat 1..4
BRIDGE_SUITS = "SHDC"                 # the order of the suits inside a PBN hand
BRIDGE_RANKS = "AKQJT98765432"        # high to low
SUIT_LETTER = {CLUBS: "C", SPADES: "S", HEARTS: "H", DIAMONDS: "D"}   # same symbol both sides
LETTER_SUIT = {letter: suit for suit, letter in SUIT_LETTER.items()}


class MappingError(ValueError):
    """The deal has no bridge counterpart (or the bridge deal no Scharwenzel one)."""


@dataclass(frozen=True)
class BridgeDeal:
    """A Scharwenzel position as bridge: ``pbn`` (North first), the trump and leader letters.

    ``taken`` are the tricks each Scharwenzel side won before the position; ``tricks`` the
    tricks still to play (cards per hand)."""

    pbn: str
    trump: str                  # "S", "H", "D" or "C": the bridge trump suit
    leader: str                 # "N", "E", "S" or "W"
    scharwenzel_trump: int
    taken: tuple[int, int] = (0, 0)
    tricks: int = 8

    @property
    def leader_side(self) -> int:
        """0 when the leader is North or South (seat 1's side), 1 for East-West."""
        return BRIDGE_SEATS.index(self.leader) % 2


def _ruleset(trump: int, rules: Mapping[str, Any] | None):
    spec = GAMES[GAME]
    options = spec.resolve_options(dict(rules or {}))
    if options["must_trump"]:
        raise MappingError("must_trump = true is not bridge's rule (bridge never forces a trump): "
                           "DDS cannot solve it")
    return spec.build(trump, options, 4)


def card_map(trump: int, rules: Mapping[str, Any] | None = None) -> dict[Card, str]:
    """Every card of the 32-card pack with ``trump`` as T -> its bridge card, e.g. ``"SA"``."""
    rule_set = _ruleset(trump, rules)
    mapping = {card: SUIT_LETTER[trump] + BRIDGE_RANKS[i] for i, card in enumerate(rule_set.trumps)}
    for suit, cards in rule_set.plain.items():
        for i, card in enumerate(cards):
            mapping[card] = SUIT_LETTER[suit] + BRIDGE_RANKS[i]
    return mapping


def to_bridge_card(card: Card, trump: int, rules: dict[str, Any] | None = None) -> str:
    """One Scharwenzel card as a bridge card (suit letter, rank letter), e.g. ♣Q -> ``"SA"``
    with spades trump."""
    return card_map(trump, rules)[card]


def from_bridge_card(text: str, trump: int, rules: dict[str, Any] | None = None) -> Card:
    """The inverse of ``to_bridge_card``: a bridge card such as ``"SA"`` or ``"S10"``."""
    key = _bridge_card_key(text)
    for card, bridge in card_map(trump, rules).items():
        if bridge == key:
            return card
    raise MappingError(f"bridge card {text!r} has no Scharwenzel counterpart with "
                       f"{SUIT_LETTER[trump]} trump")


def _bridge_card_key(text: str) -> str:
    raw = text.strip().upper()
    symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    suit = symbols.get(raw[:1], raw[:1])
    rank = raw[1:].replace("10", "T")
    if suit not in BRIDGE_SUITS or len(rank) != 1 or rank not in BRIDGE_RANKS:
        raise MappingError(f"not a bridge card: {text!r}")
    return suit + rank


def to_bridge(deal: DealFacts) -> BridgeDeal:
    """A four-player Scharwenzel deal (whole, or an ending with equal hands, no ``play``) as a
    bridge deal: PBN string with North (seat 1) first, trump and leader letters.  ``deal`` is a
    ``stich.Deal``, read only (the deal layer sits above the games, so it is not imported)."""
    if deal.game != GAME:
        raise MappingError(f"only Scharwenzel maps onto bridge, not {deal.game}")
    if deal.players != 4:
        pack = "36-card pack" if deal.players == 6 else "32-card pack"
        raise MappingError(f"bridge has four seats: a {deal.players}-player Scharwenzel deal "
                           f"({pack}) has no bridge counterpart, only 4 players map onto N E S W")
    if deal.play:
        raise MappingError("the deal has cards in `play`: map the position before play, or write "
                           "the position reached as an ending (hands of equal size)")
    trump = deal.trump_suit
    if trump is None:
        raise MappingError("Scharwenzel needs a trump suit")
    mapping = card_map(trump, deal.rules)
    hands = [tuple(deal.hands.get(seat, ())) for seat in range(1, 5)]
    sizes = {len(h) for h in hands}
    if len(sizes) != 1 or 0 in sizes:
        raise MappingError(f"bridge needs four hands of equal size, not {[len(h) for h in hands]}")
    pbn_hands = []
    for hand in hands:
        by_suit: dict[str, list[int]] = {s: [] for s in BRIDGE_SUITS}
        for card in hand:
            bridge = mapping[card]
            by_suit[bridge[0]].append(BRIDGE_RANKS.index(bridge[1]))
        pbn_hands.append(".".join("".join(BRIDGE_RANKS[r] for r in sorted(by_suit[s]))
                                  for s in BRIDGE_SUITS))
    return BridgeDeal("N:" + " ".join(pbn_hands), SUIT_LETTER[trump], BRIDGE_SEATS[deal.leader - 1],
                      trump, (deal.taken[0], deal.taken[1]), sizes.pop())


def from_bridge(pbn: str, trump: str, leader: str = "N", *, taken: tuple[int, int] = (0, 0),
                rules: dict[str, Any] | None = None) -> str:
    """The Scharwenzel deal file (text; ``stich.loads`` reads it) of a bridge deal made of
    mapped cards.  ``pbn``: ``"N:..."`` (or another first seat, or no prefix for North);
    ``trump`` and ``leader`` are letters."""
    trump_letter = trump.strip().upper()[:1]
    if trump_letter not in LETTER_SUIT:
        raise MappingError(f"bridge trump must be S, H, D or C, not {trump!r}")
    lead_letter = leader.strip().upper()[:1]
    if lead_letter not in BRIDGE_SEATS:
        raise MappingError(f"leader must be N, E, S or W, not {leader!r}")
    suit = LETTER_SUIT[trump_letter]
    inverse = {bridge: card for card, bridge in card_map(suit, rules).items()}
    text = pbn.strip()
    first = 0
    if len(text) > 1 and text[1] == ":":
        if text[0].upper() not in BRIDGE_SEATS:
            raise MappingError(f"PBN deal starts with an unknown seat: {pbn!r}")
        first, text = BRIDGE_SEATS.index(text[0].upper()), text[2:]
    parts = text.split()
    if len(parts) != 4:
        raise MappingError(f"a PBN deal has four hands, not {len(parts)}: {pbn!r}")
    hands: dict[int, tuple[Card, ...]] = {}
    for k, part in enumerate(parts):
        seat = (first + k) % 4 + 1
        suits = part.split(".")
        if len(suits) != 4:
            raise MappingError(f"a PBN hand has four suits (S.H.D.C), not {part!r}")
        cards = []
        for letter, ranks in zip(BRIDGE_SUITS, suits):
            for rank in ranks.upper().replace("10", "T"):
                card = inverse.get(letter + rank)
                if card is None:
                    raise MappingError(f"bridge card {letter}{rank} has no Scharwenzel counterpart "
                                       f"with {trump_letter} trump")
                cards.append(card)
        hands[seat] = tuple(cards)
    return deal_text(hands, suit, BRIDGE_SEATS.index(lead_letter) + 1, taken, rules or {})


def deal_text(hands: dict[int, tuple[Card, ...]], trump: int, leader: int, taken: tuple[int, int],
              rules: dict[str, Any]) -> str:
    """A four-player Scharwenzel deal file in French notation."""
    lines = [f'game = "{GAME}"', "players = 4", f'trump = "{suit_name(trump, "french")}"',
             f"leader = {leader}", f"taken = [{taken[0]}, {taken[1]}]", "", "[hands]"]
    lines += [f'{seat} = "{format_cards(hands[seat], "french")}"' for seat in sorted(hands)]
    if rules:
        lines += ["", "[rules]"]
        lines += [f"{k} = {str(v).lower() if isinstance(v, bool) else repr(str(v)).replace(chr(39), chr(34))}"
                  for k, v in rules.items()]
    return "\n".join(lines) + "\n"


def tricks_to_totals(bridge: BridgeDeal, tricks: int) -> tuple[int, int]:
    """DDS's tricks for the side on lead (or to play) -> our final totals (seat 1's side, the
    other side), counting ``taken``."""
    totals = [0, 0]
    totals[bridge.leader_side] = bridge.taken[bridge.leader_side] + tricks
    other = 1 - bridge.leader_side
    totals[other] = bridge.taken[other] + bridge.tricks - tricks
    return totals[0], totals[1]


def to_endplay(bridge: BridgeDeal):
    """An ``endplay.types.Deal`` ready for ``endplay.dds.solve_board`` (needs endplay, the
    optional extra ``bench``)."""
    from endplay.types import Deal as EndplayDeal
    from endplay.types import Denom, Player

    return EndplayDeal(bridge.pbn, first=Player.find(bridge.leader), trump=Denom.find(bridge.trump))

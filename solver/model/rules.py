"""The rules of one deal as data: the pack, effective suits, trick-taking power, card values,
the follow rule and the layout.

A game (``stich.games``) builds a ``RuleSet`` for a deal; ``stich.model.position`` plays by
it and ``stich.core.tables`` compiles it into the flat arrays of the search core.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, suit_name


@dataclass(frozen=True)
class FollowRule:
    """What a follower must play: the led suit, else a trump, and whether he must beat."""

    follow_suit: bool = True
    must_trump: bool = False
    must_beat: bool = False


FREE = FollowRule(follow_suit=False, must_trump=False, must_beat=False)


# who beats the card winning a trick (``RuleSet.beat``): any higher card of its effective suit
# (or a trump), or only the next higher card of its suit (Bohemian Schneider; no trumps)
HIGHER, NEXT_HIGHER = "higher", "next_higher"


@dataclass(frozen=True)
class RuleSet:
    """The complete rules of one deal as data.

    Seats are 0-based here (seat 1 of the file is 0); side = seat % 2.  ``trumps`` runs high to
    low, ``plain[suit]`` runs high to low; every trump belongs to the effective suit ``trump``.
    """

    game: str
    unit: str                       # "tricks", "points" or "honours"
    seats: int
    layout: Any                     # a layout object of ``stich.games.layouts``
    deck: tuple[Card, ...]
    trump: int | None
    trumps: tuple[Card, ...]
    plain: dict[int, tuple[Card, ...]]
    values: dict[Card, int]
    follow: FollowRule              # once the stock is gone, or always without a stock
    stock_follow: FollowRule = FREE  # while the stock lasts
    trick_bonus: int = 0            # added to every trick (Scharwenzel counts tricks)
    last_trick_bonus: int = 0
    # Pair bonus: (a, b, worth): the seat on lead, once its side has won a trick, may show a
    # pair whose two cards lie face up among its playable cards, once, with any lead card.
    pairs: tuple[tuple[Card, Card, int], ...] = ()
    pair_word: str = "pair"         # how a player calls a pair ("marriage")
    run_bonus: tuple[int, int] = (0, 0)   # (n, worth): winning all of the last n tricks earns worth
    # True: the bonuses add to the points; False: they are scored apart (strokes), and the
    # score objective plays for ``final_payoff`` plus the bonuses
    bonus_in_points: bool = True
    # (final points of side 0, of side 1, side 0 won a trick, side 1 won one) -> what the game
    # scores to side 0 minus side 1, bonuses apart; only with bonus_in_points False
    final_payoff: Callable[[int, int, bool, bool], int] | None = field(default=None, compare=False)
    options: dict[str, Any] = field(default_factory=dict)
    beat: str = HIGHER
    effective_suit: dict[Card, int] = field(init=False, repr=False, compare=False)
    power: dict[Card, int] = field(init=False, repr=False, compare=False)
    # effective suit -> its cards: who may follow is a membership test (``allowed``)
    suit_cards: dict[int, frozenset[Card]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        suits: dict[Card, int] = {}
        power: dict[Card, int] = {}
        for i, card in enumerate(self.trumps):
            suits[card] = self.trump  # type: ignore[assignment]
            power[card] = 100 + len(self.trumps) - i
        for suit, cards in self.plain.items():
            for i, card in enumerate(cards):
                suits[card] = suit
                power[card] = len(cards) - i
        missing = set(self.deck) - set(suits)
        if missing:  # a game module bug, not user input
            raise AssertionError(f"cards without a suit order: {sorted(missing)}")
        object.__setattr__(self, "effective_suit", suits)
        object.__setattr__(self, "power", power)
        cards_of: dict[int, set[Card]] = {}
        for card, suit in suits.items():
            cards_of.setdefault(suit, set()).add(card)
        object.__setattr__(self, "suit_cards", {suit: frozenset(cards) for suit, cards in cards_of.items()})

    @staticmethod
    def side_of(seat: int) -> int:
        """The side (0 or 1) of seat number ``seat`` as a deal file counts them (from 1): the
        seats alternate between the two sides round the table."""
        return (seat - 1) % 2

    def side(self, seat: int) -> int:
        """The side of a 0-based seat (``side_of`` of its number)."""
        return seat % 2

    @property
    def constant_sum(self) -> bool:
        """Whatever one side wins the other loses (no bonuses added to the points)."""
        return not (self.bonus_in_points and self.has_bonuses)

    @property
    def has_bonuses(self) -> bool:
        return bool(self.pairs or self.run_bonus[0])

    def pair_of_suit(self, suit: int) -> int | None:
        """The number of the pair whose cards are of ``suit`` (None: no pair)."""
        for p, (a, b, _) in enumerate(self.pairs):
            if a.suit == suit and b.suit == suit:
                return p
        return None

    def is_trump(self, card: Card) -> bool:
        return self.trump is not None and self.effective_suit[card] == self.trump

    def beats(self, card: Card, best: Card) -> bool:
        """Does ``card`` beat ``best``, the card currently winning a trick?"""
        suit, best_suit = self.effective_suit[card], self.effective_suit[best]
        if self.beat == NEXT_HIGHER:
            return suit == best_suit and self.power[card] == self.power[best] + 1
        if suit == best_suit:
            return self.power[card] > self.power[best]
        return self.trump is not None and suit == self.trump

    def allowed(self, options: list[Card], trick: list[Card], stock_phase: bool) -> tuple[list[Card], tuple[str, ...]]:
        """The cards of ``options`` a follower may play to ``trick`` (all of them at a lead),
        and the duties that narrowed them ("follow", "trump", "beat")."""
        if not trick:
            return list(options), ()
        rule = self.stock_follow if stock_phase else self.follow
        allowed: list[Card] = list(options)
        duties: tuple[str, ...] = ()
        if rule.follow_suit:
            same = list(filter(self.suit_cards[self.effective_suit[trick[0]]].__contains__, options))
            if same:
                allowed, duties = same, ("follow",)
            elif rule.must_trump and self.trump is not None:
                trumps = list(filter(self.suit_cards.get(self.trump, frozenset()).__contains__, options))
                if trumps:
                    allowed, duties = trumps, ("trump",)
        if rule.must_beat:
            best = trick[self.trick_winner(trick)]
            beaters = [c for c in allowed if self.beats(c, best)]
            if beaters:
                allowed, duties = beaters, duties + ("beat",)
        return allowed, duties

    def trick_winner(self, cards: list[Card]) -> int:
        """Index in ``cards`` (play order) of the card that wins the trick."""
        best = 0
        for i in range(1, len(cards)):
            if self.beats(cards[i], cards[best]):
                best = i
        return best

    def suit_label(self, suit: int, notation: str) -> str:
        label = suit_name(suit, notation)
        return f"{label} (trump)" if suit == self.trump else label


def side_label(rules: RuleSet, side: int) -> str:
    """'seats 1+3' for a partnership, 'seat 1' for a lone player."""
    seats = [s + 1 for s in range(rules.seats) if rules.side(s) == side]
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + "+".join(map(str, seats))

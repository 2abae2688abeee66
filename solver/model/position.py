"""A position in play and the referee that steps it card by card.

This is the readable statement of the rules: which cards a seat may play and why a card is
illegal, what happens after a trick (piles turn up, the stock is drawn winner first) and who
has won what, and the pairs a leader may show (Mariage's marriages) and the run bonus (the
Wäsche).  It is used to replay a deal file's ``play``, to follow a solver line and to
report; the search core plays by the same rule set compiled to bitmasks (``stich.core.tables``),
and the history it needs comes from ``Position.history_tag``.
Seats are 0-based here; the side of a seat is ``seat % 2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from stich.model.rules import RuleSet

from .cards import Card, suit_name, suit_symbol


class IllegalMove(ValueError):
    """A card that the rules do not allow here; the message says why."""


class Move(NamedTuple):
    """A card played; at a lead maybe with a pair shown (the pair bonus: Mariage's marriage
    announced with any lead)."""

    card: Card
    pair: int | None = None


@dataclass
class TrickRecord:
    leader: int
    cards: list[Card]
    winner: int
    points: int                     # what the trick itself brought its winner (bonuses included)
    pair: int | None = None         # the pair the leader showed with the lead (rules.pairs)
    pair_bonus: int = 0             # what showing it earned the leader's side
    run_bonus: int = 0              # what winning all of the last tricks earned the winner


@dataclass
class Position:
    """Mutable game state: hands (or piles), stock, the trick in progress and the score."""

    rules: RuleSet
    hands: list[list[Card]]                  # hands/stock layout: cards held; piles: unused
    piles: list[list[list[Card]]]            # piles layout: per seat, piles bottom..top
    stock: list[Card]                        # top card first
    leader: int
    points: list[int] = field(default_factory=lambda: [0, 0])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    trick: list[Card] = field(default_factory=list)
    history: list[TrickRecord] = field(default_factory=list)
    notation: str = "french"                 # only for the wording of reasons
    prior_tricks: list[int] = field(default_factory=lambda: [0, 0])  # won before the history
    shown: frozenset = frozenset()           # pairs shown already (numbers in rules.pairs)
    showing: int | None = None               # the pair shown with this trick's lead
    bonus: list[int] = field(default_factory=lambda: [0, 0])  # bonuses scored apart (strokes)

    # --- what is where ---------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.rules.seats

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.rules.seats

    def held(self, seat: int) -> list[Card]:
        """Every card a seat still has, face-down pile cards included."""
        return self.rules.layout.held(self, seat)

    def playable(self, seat: int) -> list[Card]:
        """The cards a seat could play if no follow rule applied (face-up tops of piles)."""
        return self.rules.layout.playable(self, seat)

    def in_play(self) -> list[Card]:
        """Cards not yet won in a finished trick: hands, piles, stock and the current trick."""
        cards = [c for s in range(self.seats) for c in self.held(s)]
        return cards + list(self.stock) + list(self.trick)

    def cards_left(self) -> int:
        return self.rules.layout.cards_left(self)

    def tricks_left(self) -> int:
        """Tricks still to be completed, the current one included."""
        return (self.cards_left() + len(self.trick)) // self.seats

    def is_over(self) -> bool:
        return self.cards_left() == 0 and not self.trick

    def stock_phase(self) -> bool:
        return bool(self.stock)

    def has_won(self, side: int) -> bool:
        """Has ``side`` won a trick, in the known history or before it (``taken``)?"""
        return self.tricks_won[side] + self.prior_tricks[side] > 0

    def showable_pairs(self) -> list[int]:
        """The pairs the seat to move may show now (the pair bonus, RuleSet.pairs)."""
        return [p for p in range(len(self.rules.pairs)) if self.why_cannot_show(p) is None]

    def why_cannot_show(self, pair: int) -> str | None:
        """None if the seat to move may show ``pair`` with its lead now, else why not: only
        on lead, once its side has won a trick, both cards face up in its playable cards,
        and once per pair."""
        rules = self.rules
        word = rules.pair_word
        if not 0 <= pair < len(rules.pairs):
            return f"there is no such {word}"
        a, b, _ = rules.pairs[pair]
        seat = self.to_move
        name = self._suit_text(a.suit) if a.suit == b.suit else f"{self._text(a)} {self._text(b)}"
        if self.is_over():
            return "the deal is over"
        if self.trick:
            return f"a {word} is announced only by the player on lead (seat {self.leader + 1})"
        if not self.has_won(rules.side(seat)):
            return f"seat {seat + 1} may announce a {word} only after winning a trick"
        if pair in self.shown:
            return f"the {word} in {name} was already announced"
        face_up = self.playable(seat)
        if a not in face_up or b not in face_up:
            return (f"seat {seat + 1} has no intact {word} in {name} (both {self._text(a)} and "
                    f"{self._text(b)} must lie face up in its hand)")
        return None

    def run_state(self) -> int:
        """The last-tricks window of the run bonus as far as it is played: 0 not reached,
        1 + side: that side won all of it so far, 3 broken (or begun before the known tricks).
        The one encoding of it, for the referee and the core's tag."""
        n = self.rules.run_bonus[0]
        if not n:
            return 0
        done = n - self.tricks_left()             # window tricks already finished
        if done <= 0:
            return 0
        window = self.history[-done:] if len(self.history) >= done else []
        sides = {self.rules.side(r.winner) for r in window}
        return 1 + sides.pop() if len(sides) == 1 else 3

    def history_tag(self) -> int:
        """The history the rest of the deal depends on, as the core keeps it
        (core/objective.pxi): bits 0-1 the sides that have won a trick, 2-3 the run state,
        4.. the pairs shown.  0 in games without bonuses."""
        rules = self.rules
        if not rules.has_bonuses:
            return 0
        tag = sum(1 << side for side in (0, 1) if self.has_won(side))
        tag |= self.run_state() << 2
        tag |= sum(1 << (4 + p) for p in self.shown)
        return tag

    # --- the follow rule -------------------------------------------------------------------

    def legal_moves(self) -> list[Card]:
        seat = self.to_move
        return [card for card in self.playable(seat) if self.why_illegal(card) is None]

    def is_legal(self, card: Card) -> bool:
        """May the player to move play ``card``?  The one place that decides it;
        ``why_illegal`` puts a refusal into words, wanted only for an illegal card."""
        options = self.playable(self.to_move)
        if card not in options:
            return False
        return not self.trick or card in self.rules.allowed(options, self.trick, self.stock_phase())[0]

    def why_illegal(self, card: Card) -> str | None:
        """None if the player to move may play ``card`` (``is_legal``), else the reason in
        plain words."""
        if self.is_legal(card):
            return None
        rules, seat = self.rules, self.to_move
        options = self.playable(seat)
        if card not in options:
            if self.is_over():
                return "the deal is over"
            if card not in self.held(seat):
                return f"{self._text(card)} is not held by seat {seat + 1}"
            return f"{self._text(card)} is face down under another card of seat {seat + 1}"
        allowed, duties = rules.allowed(options, self.trick, self.stock_phase())
        led = rules.effective_suit[self.trick[0]]
        words = {"follow": f"must follow {self._suit_text(led)}", "trump": "cannot follow and must trump",
                 "beat": f"must beat {self._text(self.trick[rules.trick_winner(self.trick)])}"}
        duty = " and ".join(words[d] for d in duties)
        return f"seat {seat + 1} {duty} (holds {' '.join(self._text(c) for c in allowed)})"

    def _text(self, card: Card) -> str:
        return card.text(self.notation)

    def _suit_text(self, suit: int) -> str:
        if suit == self.rules.trump:
            return "trump"
        return suit_name(suit, self.notation).capitalize() if self.notation == "german" else suit_symbol(suit)

    # --- playing ---------------------------------------------------------------------------

    def play(self, card: Card, check: bool = True, pair: int | None = None) -> TrickRecord | None:
        """Play a card for the seat to move, at a lead maybe showing ``pair`` (the pair
        bonus); returns the trick record if it completed one.  ``check=False`` skips the
        legality checks, for moves the engine already checked."""
        if check and not self.is_legal(card):
            raise IllegalMove(self.why_illegal(card))
        if check and pair is not None:
            reason = self.why_cannot_show(pair)
            if reason is not None:
                raise IllegalMove(reason)
        rules, trick, seat = self.rules, self.trick, self.to_move
        if pair is not None:
            worth = rules.pairs[pair][2]
            side = rules.side(seat)
            (self.points if rules.bonus_in_points else self.bonus)[side] += worth
            self.shown = self.shown | {pair}
            self.showing = pair
        rules.layout.take(self, seat, card)
        trick.append(card)
        if len(trick) < rules.seats:
            return None
        return self._finish_trick()

    def _finish_trick(self) -> TrickRecord:
        rules = self.rules
        seats = rules.seats
        winner = (self.leader + rules.trick_winner(self.trick)) % seats
        points = sum(map(rules.values.__getitem__, self.trick)) + rules.trick_bonus
        record = TrickRecord(self.leader, self.trick, winner, 0, pair=self.showing)   # a new trick below
        if self.showing is not None:
            record.pair_bonus = rules.pairs[self.showing][2]
        self.showing = None
        self.trick = []
        if self.stock:                       # the winner draws first, then the others in turn
            for k in range(seats):
                self.hands[(winner + k) % seats].append(self.stock.pop(0))
        last = self.cards_left() == 0
        if last:
            points += rules.last_trick_bonus
        record.points = points
        side = rules.side(winner)
        self.points[side] += points
        self.tricks_won[side] += 1
        self.leader = winner
        self.history.append(record)
        if last and rules.run_bonus[0] and self.run_state() == 1 + side:
            record.run_bonus = rules.run_bonus[1]
            (self.points if rules.bonus_in_points else self.bonus)[side] += record.run_bonus
        return record

    def copy(self) -> Position:
        return Position(self.rules, list(map(list, self.hands)),
                        [list(map(list, piles)) for piles in self.piles], list(self.stock),
                        self.leader, list(self.points), list(self.tricks_won), list(self.trick),
                        list(self.history), self.notation, list(self.prior_tricks), self.shown,
                        self.showing, list(self.bonus))

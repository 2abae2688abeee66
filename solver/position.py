"""A position in play and the referee that steps it card by card.

This is the readable statement of the rules: which cards a seat may play and why a card is
illegal, what happens after a trick (piles turn up, the stock is drawn winner first) and who
has won what.  It is used to replay a deal file's ``play``, to follow a solver line and to
report; the search core plays by the same rule set compiled to bitmasks (``solver.tables``).
Seats are 0-based here; the side of a seat is ``seat % 2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, suit_name, suit_symbol
from .games.base import RuleSet


class IllegalMove(ValueError):
    """A card that the rules do not allow here; the message says why."""


@dataclass
class TrickRecord:
    leader: int
    cards: list[Card]
    winner: int
    points: int                     # what the trick itself brought its winner (bonuses included)
    marriage: int = 0               # points the leader announced with its lead card
    wasche: int = 0                 # points for winning all of the last tricks (Mariage)


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
    announced: int = 0                       # marriage announced with this trick's lead

    # --- what is where ---------------------------------------------------------------------

    @property
    def seats(self) -> int:
        return self.rules.seats

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.seats

    def held(self, seat: int) -> list[Card]:
        """Every card a seat still has, face-down pile cards included."""
        if self.rules.layout == "piles":
            return [card for pile in self.piles[seat] for card in pile]
        return list(self.hands[seat])

    def playable(self, seat: int) -> list[Card]:
        """The cards a seat could play if no follow rule applied (face-up tops of piles)."""
        if self.rules.layout == "piles":
            return [pile[-1] for pile in self.piles[seat] if pile]
        return list(self.hands[seat])

    def in_play(self) -> list[Card]:
        """Cards not yet won in a finished trick: hands, piles, stock and the current trick."""
        cards = [c for s in range(self.seats) for c in self.held(s)]
        return cards + list(self.stock) + list(self.trick)

    def cards_left(self) -> int:
        return sum(len(self.held(s)) for s in range(self.seats)) + len(self.stock)

    def tricks_left(self) -> int:
        """Tricks still to be completed, the current one included."""
        return (self.cards_left() + len(self.trick)) // self.seats

    def is_over(self) -> bool:
        return self.cards_left() == 0 and not self.trick

    def stock_phase(self) -> bool:
        return bool(self.stock)

    def marriage_announced(self, card: Card) -> int:
        """What leading ``card`` now would announce: a marriage is announced by leading its
        King or Ober while the other lies face up, once the leader's side has won a trick."""
        if self.trick or not self.rules.marriages:
            return 0
        seat = self.to_move
        if not self.has_won(self.rules.side(seat)):
            return 0
        face_up = self.playable(seat)
        for king, ober, worth in self.rules.marriages:
            if card in (king, ober) and king in face_up and ober in face_up:
                return worth
        return 0

    def has_won(self, side: int) -> bool:
        """Has ``side`` won a trick, in the known history or before it (``taken``)?"""
        return self.tricks_won[side] + self.prior_tricks[side] > 0

    def wasche_run(self) -> int | None:
        """The side that has won every trick of the last-tricks window so far (None: nobody,
        or the window has not started, or it started before the tricks we know)."""
        n, _ = self.rules.wasche
        if not n:
            return None
        total = len(self.history) + self.tricks_left()
        first = total - n                       # index of the first trick of the window
        if first < 0 or len(self.history) <= first:
            return None
        sides = {self.rules.side(r.winner) for r in self.history[first:]}
        return sides.pop() if len(sides) == 1 else None

    # --- the follow rule -------------------------------------------------------------------

    def legal_moves(self) -> list[Card]:
        seat = self.to_move
        return [card for card in self.playable(seat) if self.why_illegal(card) is None]

    def why_illegal(self, card: Card) -> str | None:
        """None if the player to move may play ``card``, else the reason in plain words."""
        rules, seat = self.rules, self.to_move
        if self.is_over():
            return "the deal is over"
        if card not in self.held(seat):
            return f"{self._text(card)} is not held by seat {seat + 1}"
        options = self.playable(seat)
        if card not in options:
            return f"{self._text(card)} is face down under another card of seat {seat + 1}"
        if not self.trick:
            return None
        rule = rules.stock_follow if self.stock_phase() else rules.follow
        led = rules.effective_suit[self.trick[0]]
        allowed = options
        duty = ""
        if rule.follow_suit:
            same = [c for c in options if rules.effective_suit[c] == led]
            if same:
                allowed, duty = same, f"must follow {self._suit_text(led)}"
            elif rule.must_trump and rules.trump is not None:
                trumps = [c for c in options if rules.is_trump(c)]
                if trumps:
                    allowed, duty = trumps, "cannot follow and must trump"
        if rule.must_beat:
            best = self.trick[self.rules.trick_winner(self.trick)]
            beaters = [c for c in allowed if rules.beats(c, best)]
            if beaters:
                allowed = beaters
                duty = (duty + " and " if duty else "") + f"must beat {self._text(best)}"
        if card in allowed:
            return None
        return f"seat {seat + 1} {duty} (holds {' '.join(self._text(c) for c in allowed)})"

    def _text(self, card: Card) -> str:
        return card.text(self.notation)

    def _suit_text(self, suit: int) -> str:
        if suit == self.rules.trump:
            return "trump"
        return suit_name(suit, self.notation).capitalize() if self.notation == "german" else suit_symbol(suit)

    # --- playing ---------------------------------------------------------------------------

    def play(self, card: Card, check: bool = True) -> TrickRecord | None:
        """Play a card for the seat to move; returns the trick record if it completed one.
        ``check=False`` skips the legality check, for cards the engine already checked."""
        if check:
            reason = self.why_illegal(card)
            if reason is not None:
                raise IllegalMove(reason)
        seat = self.to_move
        if not self.trick:                  # a lead: it may announce a marriage
            self.announced = self.marriage_announced(card)
            self.points[self.rules.side(seat)] += self.announced
        if self.rules.layout == "piles":
            for pile in self.piles[seat]:
                if pile and pile[-1] == card:
                    pile.pop()
                    break
        else:
            self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) < self.seats:
            return None
        return self._finish_trick()

    def _finish_trick(self) -> TrickRecord:
        rules = self.rules
        winner = (self.leader + rules.trick_winner(self.trick)) % self.seats
        points = sum(rules.values[c] for c in self.trick) + rules.trick_bonus
        record = TrickRecord(self.leader, list(self.trick), winner, 0, marriage=self.announced)
        self.announced = 0
        self.trick = []
        if self.stock:                       # the winner draws first, then the others in turn
            for k in range(self.seats):
                self.hands[(winner + k) % self.seats].append(self.stock.pop(0))
        if self.cards_left() == 0:
            points += rules.last_trick_bonus
        record.points = points
        side = rules.side(winner)
        self.points[side] += points
        self.tricks_won[side] += 1
        self.leader = winner
        self.history.append(record)
        if self.cards_left() == 0 and rules.wasche[0] and self.wasche_run() == side:
            record.wasche = rules.wasche[1]
            self.points[side] += record.wasche
        return record

    def copy(self) -> "Position":
        return Position(self.rules, [list(h) for h in self.hands],
                        [[list(p) for p in piles] for piles in self.piles], list(self.stock),
                        self.leader, list(self.points), list(self.tricks_won), list(self.trick),
                        list(self.history), self.notation, list(self.prior_tricks), self.announced)

"""A deal: the layout as written (hands, piles or stock), the cards already played, and the
rule options; ``Deal.dump()`` writes it as a deal file in the format of ``docs/deal-format.md``
(``stich.deals.dealfile_write``) and ``load``/``loads`` read one (``stich.deals.dealfile_read``),
each to an equal ``Deal``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from stich.games import GAMES, Game, OptionError
from stich.games.layouts import Pile
from stich.model.cards import Card, suit_name
from stich.model.position import IllegalMove, Position
from stich.model.rules import RuleSet

from .dealfile_read import MAX_DEAL_BYTES, DealError, asks_who_won_a_trick, deal_text, read_file, read_text
from .dealfile_write import dump as write_deal
from .dealfile_write import show_text

__all__ = ["MAX_DEAL_BYTES", "Deal", "DealError", "Pile", "asks_who_won_a_trick", "deal_text", "load", "loads", "show_text"]


@dataclass(frozen=True)
class Deal:
    """A position to solve: the layout as written, the cards played since, and the rules."""

    game: str
    notation: str
    players: int
    leader: int                                   # 1-based seat leading the first trick of play
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    piles: dict[int, tuple[Pile, ...]] = field(default_factory=dict)
    stock: tuple[Card, ...] = ()
    play: tuple[tuple[Card, ...], ...] = ()
    taken: tuple[int, int] = (0, 0)
    trump: int | None = None                      # as written; see ``trump_suit``
    rules: dict[str, Any] = field(default_factory=dict)   # options as written
    declarer: int | None = None
    all_passed: bool = False                      # Scharwenzel: clubs trump because all passed
    # pairs shown in ``play`` (a Mariage marriage announced with a lead): (trick, card, suit),
    # 0-based positions in ``play``; written "(marriage R) R9"
    shows: tuple[tuple[int, int, int], ...] = ()
    announced: tuple[int, ...] = ()               # suits of the pairs shown before the position
    won_trick: tuple[bool, bool] | None = None    # has each side won a trick before it
    source: str = field(default="<deal>", compare=False)

    # --- derived -----------------------------------------------------------------------------

    @property
    def game_spec(self) -> Game:
        return GAMES[self.game]

    @cached_property
    def options(self) -> dict[str, Any]:
        """Every option of the game, defaults filled in."""
        return self.game_spec.resolve_options(self.rules)

    @property
    def trump_suit(self) -> int | None:
        """The trump suit in force: as written, or from forehand's first face-up card (card17)."""
        return self.game_spec.trump_in_force(self)

    @cached_property
    def rule_set(self) -> RuleSet:
        return self.game_spec.build(self.trump_suit, self.options, self.players)

    def start(self) -> Position:
        """The position before the cards of ``play``."""
        n = self.players
        hands = [list(self.hands.get(s + 1, ())) for s in range(n)]
        piles = [[[p.up] if p.down is None else [p.down, p.up] for p in self.piles.get(s + 1, ())]
                 for s in range(n)]
        # Scharwenzel counts tricks, so `taken` says how many each side won; in the point games
        # a side with points in `taken` has won at least one trick (and, we assume, none if 0).
        prior = list(self.taken) if self.rule_set.unit == "tricks" else [int(t > 0) for t in self.taken]
        if self.won_trick is not None:
            prior = [int(w) for w in self.won_trick]
        shown = frozenset(p for p in map(self.rule_set.pair_of_suit, self.announced) if p is not None)
        return Position(self.rule_set, hands, piles, list(self.stock), self.leader - 1,
                        points=list(self.taken), notation=self.notation, prior_tricks=prior,
                        shown=shown)

    def position(self) -> Position:
        """The position to solve: the start with every card of ``play`` played."""
        return self._replay(self.start()).copy()

    def _replay(self, position: Position) -> Position:
        shows = {(t, k): suit for t, k, suit in self.shows}
        for t, trick in enumerate(self.play):
            for k, card in enumerate(trick):
                seat = position.to_move
                try:
                    position.play(card, pair=self._pair(shows[t, k]) if (t, k) in shows else None)
                except IllegalMove as exc:
                    where = f"trick {t + 1}, card {k + 1} ({card.text(self.notation)} by seat {seat + 1})"
                    raise DealError(f"{where}: {exc}", "play", self.source) from None
        return position

    def _pair(self, suit: int) -> int:
        """The pair shown by "(marriage SUIT)"; a suit without one cannot be announced."""
        rules = self.rule_set
        pair = rules.pair_of_suit(suit)
        if pair is None:
            name = suit_name(suit, self.notation).capitalize()
            why = "nothing can be announced in this game" if not rules.pairs else f"no {rules.pair_word} in {name}"
            if rules.pairs:
                wenzel = Card(suit, rules.pairs[0][1].rank)
                if rules.is_trump(wenzel):      # a trump Ober that cannot marry
                    why += f": {wenzel.text(self.notation)} is a Wenzel, a trump"
            raise IllegalMove(why)
        return pair

    def with_play(self, play: tuple[tuple[Card, ...], ...],
                  shows: tuple[tuple[int, int, int], ...] | None = None) -> Deal:
        """The same deal with another ``play`` (checked again); ``shows``: its announcements
        (default: those of the current play that still fit)."""
        if shows is None:
            shows = tuple(s for s in self.shows if s[0] < len(play) and s[1] < len(play[s[0]])
                          and play[s[0]][s[1]] == self.play[s[0]][s[1]])
        return loads(replace(self, play=play, shows=shows).dump(), self.source)

    def after(self, moves) -> Deal:
        """The deal with ``moves`` played on after its own ``play``: cards, or (card, pair)
        moves whose pair (a Mariage marriage, by its number in the rules) is shown with a lead."""
        flat = [c for trick in self.play for c in trick]
        shows = list(self.shows)
        n = self.players
        for move in moves:
            card, pair = (move, None) if isinstance(move, Card) else (move[0], move[1])
            if pair is not None:
                shows.append((len(flat) // n, len(flat) % n, self.rule_set.pairs[pair][0].suit))
            flat.append(card)
        play = tuple(tuple(flat[i:i + n]) for i in range(0, len(flat), n))
        return self.with_play(play, tuple(shows))

    def with_rules(self, overrides: dict[str, Any]) -> Deal:
        """The same deal with some options changed, e.g. from ``--rule must_head=true``."""
        rules = dict(self.rules)
        for name, value in overrides.items():
            try:
                rules[name] = self.game_spec.option(name).parse(value)
            except OptionError as exc:
                raise DealError(str(exc), f"--rule {name}", self.source) from None
        return loads(replace(self, rules=rules).dump(), self.source)

    # --- writing -----------------------------------------------------------------------------

    def dump(self, hidden: frozenset = frozenset()) -> str:
        """The deal as TOML in the format it was read from; ``loads(dump())`` gives it back.
        ``hidden``: start slots (``stich.games.layouts.Slot``) written as ``?``, for the
        player's view's hidden deal files."""
        return write_deal(self, hidden)


def load(path: str | Path, rules: dict[str, Any] | None = None, *, other_games_rules: bool = False) -> Deal:
    """Read a deal file; ``-`` reads standard input.  ``rules`` (e.g. from ``--rule``) override
    the file's ``[rules]`` before anything is checked, exactly as if written there."""
    return read_file(path, Deal, rules, other_games_rules=other_games_rules)


def loads(text: str, source: str = "<string>", rules: dict[str, Any] | None = None, *,
          other_games_rules: bool = False) -> Deal:
    """Read a deal from TOML text; ``source`` names it in error messages.  ``rules`` override
    the ``[rules]`` table (each named ``--rule NAME`` in errors); with ``other_games_rules``
    options the game does not have are skipped (a batch of several games)."""
    return read_text(text, Deal, source, rules, other_games_rules=other_games_rules)

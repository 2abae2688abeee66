"""What every game is made of: a rule set is data, never code the search has to know about.

A ``Game`` knows its options and builds a ``RuleSet`` (``stich.model.rules``) for one deal
(trump, options, players): everything play depends on.  Beside it a game says what a seat sees,
which puzzle goals it knows, how its outcome ladder runs and what its deal files hold.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from stich.model.cards import SUITS, Card
from stich.model.outcome import Outcome, Rung
from stich.model.position import Position
from stich.model.protocols import DealFacts
from stich.model.rules import RuleSet

from .layouts import Hands

# (trump, options, players) -> the rule set of one deal; trump None where the game has none
BuildRules = Callable[[int | None, dict[str, Any], int], RuleSet]


class SearchSettings(TypedDict):
    """``Engine.value``'s driver and first guess for a game's trees (see ``Game.search``)."""

    driver: str
    first: str


# (title, headers, rows): a table the game adds to the report of a deal
Section = tuple[str, list[str], list[list[Any]]]


class OptionError(ValueError):
    """An option name or value is not valid for a game."""


@dataclass(frozen=True)
class Option:
    """One documented rule option with its default and the source of the reading."""

    name: str
    default: Any
    help: str
    source: str = ""
    choices: tuple = ()          # allowed values for a text option; empty means bool

    def parse(self, value: Any) -> Any:
        """Check a value from a deal file (typed) or the command line (text)."""
        if isinstance(self.default, bool):
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
                return False
            raise OptionError(f"option {self.name} takes true or false, not {value!r}")
        text = str(value).strip()
        for choice in self.choices:
            if text.lower() == str(choice).lower():
                return choice
        raise OptionError(f"option {self.name} takes one of {', '.join(map(str, self.choices))}, "
                          f"not {value!r}")

    def describe(self) -> str:
        kind = "true | false" if isinstance(self.default, bool) else " | ".join(map(str, self.choices))
        return f"{self.name} ({kind}; default {str(self.default).lower() if isinstance(self.default, bool) else self.default})"


@dataclass(frozen=True)
class View:
    """What one seat sees of the layout (the player's view, ``stich.view``).  Played cards are
    always seen; a seat always sees the cards it holds in hand and every face-up pile card.
    Failures to follow are read from the follow rules (``RuleSet.follow``/``stock_follow``),
    so they reveal a void only where following is compulsory.  ``why`` gives the reason."""

    other_hands: bool = False       # the other seats' hands (partners included)
    face_down: bool = False         # face-down pile cards, the owner's own included
    stock: bool = False             # the cards of the stock and their order
    why: str = ""


@dataclass(frozen=True)
class GoalWord:
    """What a puzzle goal word (``stich puzzle --goal WORD``) asks of a side.

    ``kind`` "streak": every trick still to play; "total": the side's own final total reaches
    ``target``; "level": an outcome at least as good as a rung of the side whose level is in
    ``levels`` or whose text is in ``texts`` (both empty: any rung the side wins)."""

    kind: str
    target: int = 0
    levels: tuple[str, ...] = ()
    texts: tuple[str, ...] = ()

    def qualifies(self, rung: Rung) -> bool:
        if not (self.levels or self.texts):
            return True
        return rung.level in self.levels or rung.text in self.texts


WIN = GoalWord("level")
# how a player says each outcome level of the built-in games (the reports' sentences)
LEVEL_WORDS = {"simple": "the game", "schneider": "Schneider", "schwarz": "Schwarz", "tie": "the draw",
               "win": "the game", "staender": "a Ständer (10–10)", "no_score": "no score",
               "tout": "tout (every trick)"}
SCHNEIDER = GoalWord("level", levels=("schneider", "schwarz"))
EVERY_TRICK = GoalWord("streak")

# how the trump of a deal is fixed (``Game.trump_rule``)
NAMED, OPTIONAL, NO_TRUMP = "named", "optional", "none"


@dataclass(frozen=True)
class Game:
    """A game: its name, options and how to build the rule set of one deal.

    Everything the reader, writer, dealer, report, table, puzzle and ``--where`` need to know
    about a game is asked here (fields and the short hooks below), never of its name."""

    name: str
    title: str
    default_notation: str
    layout: Hands                   # a layout object of ``stich.games.layouts``
    options: tuple[Option, ...]
    build: BuildRules
    outcome: Callable[[Position, DealFacts], Outcome]    # (final position, deal) -> its outcome
    # the outcome ladder ([] if none); it may read only what a card played inside a trick
    # without showing a pair leaves as it was (the cards in play, points, tricks, history):
    # a search session shares one ladder between such a card's node and its parent's
    ladder: Callable[[Position, DealFacts], list[Rung]]
    seat_counts: tuple[int, ...] = (2,)          # the first is the default
    # How the exact value is best found for this game's trees (measured with `stich bench`):
    # the MTD driver ("mtdf": one point at a time, "step": galloping) and the first guess
    # ("half" of the range, "greedy": a play-out of the move ordering, "greedy+N").  The
    # default, which the rule-file games take: galloping from the greedy play-out, 4-25%
    # fewer value nodes than one point at a time from half the range on eight of nine rule
    # file and seed-range pairs (docs/explanation/performance.md)
    search: SearchSettings = field(default_factory=lambda: SearchSettings(driver="step", first="greedy"))
    view: View = View()             # what a seat sees (player's view)
    # --- the deal file and dealing ---
    trump_rule: str = NO_TRUMP      # NAMED: the deal must name it (a random deal draws one);
    #                                 OPTIONAL: it may (else ``trump_of``); NO_TRUMP: none
    trump_of: Callable[[DealFacts], int | None] | None = field(default=None, compare=False)
    declarer: bool = False          # a deal may name a declarer (option first_leader = declarer)
    all_pass_trump: int | None = None   # a bidding where all can pass (``all_passed``): this trump
    check: Callable[[DealFacts], tuple[str, str] | None] | None = field(default=None, compare=False)
    # does an outcome level ask whether a side took no trick (Schwarz), under these options?
    # Then points in `taken` mean that side has won one, and `won_trick` may say so
    no_trick_level: Callable[[dict[str, Any]], bool] = field(default=lambda options: False, compare=False)
    # --- the analyses ---
    goals: dict[str, GoalWord] = field(default_factory=lambda: {"win": WIN})
    variations: Callable[[DealFacts], list[tuple[int, int, dict[str, Any]]] | None] | None = field(
        default=None, compare=False)
    report_sections: Callable[[DealFacts], list[Section]] | None = field(default=None, compare=False)
    # --- games from rule files (``stich.games.rulefile``) ---
    first_leader: int = 1           # the seat leading when the deal file names no leader
    sources: tuple[str, ...] = ()   # where the rules come from
    rule_file: str | None = None    # the rule file's path (None: a built-in Python definition)
    suits: tuple[int, ...] = SUITS  # the suits of the pack (a rule file may leave some out)

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        known = ", ".join(o.name for o in self.options)
        raise OptionError(f"unknown option {name!r} for {self.name} (options: {known})")

    def resolve_options(self, given: dict[str, Any]) -> dict[str, Any]:
        """All options with defaults filled in; unknown names and bad values raise."""
        values = {option.name: option.default for option in self.options}
        for name, value in given.items():
            values[name] = self.option(name).parse(value)
        return values

    # --- seats and trump ---------------------------------------------------------------------

    @property
    def default_players(self) -> int:
        return self.seat_counts[0]

    @property
    def players_vary(self) -> bool:
        """Several numbers of players: a deal file says which (``players`` or its hands)."""
        return len(self.seat_counts) > 1

    @property
    def has_trumps(self) -> bool:
        return self.trump_rule != NO_TRUMP

    def declarer_leads(self, options: dict[str, Any]) -> bool:
        """Does the declarer lead to the first trick (option first_leader = declarer)?"""
        return self.declarer and options.get("first_leader") == "declarer"

    def trump_in_force(self, deal: DealFacts) -> int | None:
        """The trump of ``deal``: as written, else what the game takes (Schafkopf2's 17th card)."""
        if deal.trump is not None:
            return deal.trump
        return self.trump_of(deal) if self.trump_of is not None else None

    def problem(self, deal: DealFacts) -> tuple[str, str] | None:
        """(key, message) if ``deal`` breaks a rule of this game the generic reader does not know."""
        return self.check(deal) if self.check is not None else None

    # --- dealing -----------------------------------------------------------------------------

    def pack(self, options: dict[str, Any], players: int, trump: int | None = None) -> tuple[Card, ...]:
        """The pack in the order the rule set lists it (the order a dealer shuffles); the
        trump does not change the pack, any one builds it when none is chosen yet."""
        return tuple(self.build(SUITS[-1] if trump is None else trump, options, players).deck)

    def deal(self, rng: random.Random, players: int, trump: int | None, options: dict[str, Any],
             pack: Callable[[int | None], tuple[Card, ...]] | None = None) -> dict[str, Any]:
        """The fields of a whole random deal (``trump`` None: drawn where the deal must name one).
        ``pack(trump)``: the pack (the dealer caches it); default ``self.pack``."""
        if trump is None and self.trump_rule == NAMED:
            trump = rng.choice(self.suits)
        deck = list(pack(trump) if pack is not None else self.pack(options, players, trump))
        rng.shuffle(deck)
        return {"trump": trump if self.has_trumps else None, **self.layout.deal(deck, players)}

    # --- the analyses ------------------------------------------------------------------------

    def table_variations(self, deal: DealFacts) -> list[tuple[int, int, dict[str, Any]]] | None:
        """What ``stich table`` solves: (trump, leader, other Deal fields) per cell, None if the
        game has no trump to choose.  Default: every trump; with a declarer, every leader too."""
        if self.variations is not None:
            return self.variations(deal)
        if not self.has_trumps:
            return None
        leaders = range(1, deal.players + 1) if self.declarer else (deal.leader,)
        extra = {"all_passed": False} if self.all_pass_trump is not None else {}
        return [(suit, leader, extra) for suit in self.suits for leader in leaders]

    def extra_sections(self, deal: DealFacts) -> list[Section]:
        """(title, headers, rows): the tables the game adds to the report of a deal (data; the
        report draws them)."""
        return self.report_sections(deal) if self.report_sections is not None else []

    def where_words(self, rules: RuleSet) -> frozenset[str]:
        """The ``--where`` words this game offers beyond seats, cards, suits and ranks."""
        words = {"cards", *self.layout.where_parts}
        if self.layout.where_subject:
            words.add(self.layout.where_subject)
        if self.has_trumps:
            words |= {"trumps", "matadors"}
        if rules.unit == "honours":
            words.add("honours")
        if rules.unit != "tricks":
            words.add("points")
        return frozenset(words)

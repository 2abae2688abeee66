"""Compiling a rule file's merged table into the same ``Game`` the built-in games are: each
building block (pack, values, trumps, follow rules, layout, outcome thresholds, options) is
checked under the option defaults and under each option value."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, overload

from stich.model.cards import (
    ACE,
    EIGHT,
    FRENCH,
    GERMAN,
    JACK,
    KING,
    NINE,
    NOTATIONS,
    QUEEN,
    SEVEN,
    SIX,
    SUITS,
    TEN,
    Card,
    CardError,
    parse_card,
    parse_suit,
    suit_name,
)
from stich.model.protocols import DealFacts
from stich.model.rules import FREE, FollowRule, RuleSet

from .base import (
    EVERY_TRICK,
    NAMED,
    NO_TRUMP,
    OPTIONAL,
    BuildRules,
    Game,
    GoalWord,
    Option,
    View,
)
from .layouts import Hands, Piles, Stock
from .rulefile_read import SCHEMA, RuleFileError, _check_keys, _merge
from .thresholds import Level, Thresholds

RANK_WORDS = {"A": ACE, "D": ACE, "K": KING, "Q": QUEEN, "O": QUEEN, "J": JACK, "U": JACK,
              "10": TEN, "T": TEN, "9": NINE, "8": EIGHT, "7": SEVEN, "6": SIX}

LEVEL_KEYS = ("name", "score", "loser_at_most", "winner_at_least", "loser_no_trick")
# the puzzle goals every rule-file game has (``_goals``), which a level's name would replace
GOAL_WORDS = {"win": "of any win (--goal win)", "every_trick": "of every trick (--goal every_trick)"}
# the ranges of the numbers of a rule file: what the core's tables and totals can hold
MAX_SEATS = 8
MAX_VALUE = 100                  # a card's value, the last trick's bonus
MAX_TOTAL = 10_000               # a total to win or to reach a level: above any pack's worth
MAX_SCORE = 1_000                # what a win or a level scores
MAX_STOCK = 40                   # cards in a stock (the core's)
OPTION_KEYS = ("default", "choices", "help", "source", "set")


# --- compiling one set of rules -------------------------------------------------------------------

class _Compiler:
    """Reads the merged table of one rule file under one set of option values."""

    def __init__(self, data: dict, source: str):
        self.data, self.source = data, source

    def fail(self, key: str, message: str) -> RuleFileError:
        return RuleFileError(message, key, self.source)

    def get(self, key: str, default: Any = None) -> Any:
        table: Any = self.data
        for part in key.split("."):
            if not isinstance(table, dict) or part not in table:
                return default
            table = table[part]
        return table

    def typed(self, key: str, kind: type, default: Any = None) -> Any:
        value = self.get(key, default)
        if value is None:
            return None
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(key, f"must be a whole number, not {value!r}")
        if kind is not int and not isinstance(value, kind):
            raise self.fail(key, f"must be a {kind.__name__}, not {value!r}")
        return value

    @overload
    def number(self, key: str, low: int, high: int, default: int) -> int: ...
    @overload
    def number(self, key: str, low: int, high: int, default: None = None) -> int | None: ...

    def number(self, key: str, low: int, high: int, default: int | None = None) -> int | None:
        """A whole number from ``low`` to ``high`` (None when missing and no default)."""
        value = self.typed(key, int, default)
        if value is not None and not low <= value <= high:
            raise self.fail(key, f"must be from {low} to {high:,}, not {value!r:.30}")
        return value

    def flag(self, key: str) -> bool:
        return bool(self.typed(key, bool, False))

    def ranks(self, key: str, default: Any = None) -> list[int]:
        text = self.typed(key, str, default)
        if text is None:
            raise self.fail(key, "missing: the ranks, high to low, e.g. \"A 10 K Q J 9 8 7\"")
        out = []
        for word in text.split():
            rank = RANK_WORDS.get(word.upper())
            if rank is None:
                raise self.fail(key, f"unknown rank {word!r} (ranks: A K Q J 10 9 8 7 6; O U D T too)")
            if rank in out:
                raise self.fail(key, f"rank {word!r} is given twice")
            out.append(rank)
        return out

    def card(self, key: str, word: str, trump: int | None) -> Card | None:
        """A card in French letters, or a template ``T7`` (the 7 of the trump suit)."""
        if word[:1].upper() == "T" and len(word) > 1:
            rank = RANK_WORDS.get(word[1:].upper())
            if rank is None:
                raise self.fail(key, f"bad template {word!r}: T and a rank, e.g. T7")
            return None if trump is None else Card(trump, rank)
        try:
            return parse_card(word, FRENCH)
        except CardError as exc:
            raise self.fail(key, f"{exc} (write cards in French letters: CJ SJ HJ DJ, or T7)") from None

    # --- the blocks ---------------------------------------------------------------------------

    def players(self) -> tuple[int, ...]:
        value = self.get("players", 2)
        counts = value if isinstance(value, list) else [value]
        if not counts or any(isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_SEATS
                             or n % 2 for n in counts):
            raise self.fail("players", f"must be an even number of seats (2, 4, ... {MAX_SEATS}) or a "
                                       "list of them: the sides alternate (seats 1, 3, ... against 2, 4, ...)")
        return tuple(counts)

    def suits(self) -> tuple[int, ...]:
        words = self.typed("pack.suits", str, "clubs spades hearts diamonds").split()
        try:
            suits = tuple(sorted({parse_suit(w) for w in words}))
        except CardError as exc:
            raise self.fail("pack.suits", str(exc)) from None
        if not suits or len(suits) != len(words):
            raise self.fail("pack.suits", "must name each suit once, e.g. \"clubs spades hearts\"")
        return suits

    def deck(self) -> tuple[Card, ...]:
        ranks = self.ranks("pack.ranks")
        return tuple(Card(s, r) for s in self.suits() for r in ranks)

    def unit(self) -> str:
        unit = self.typed("play.unit", str, "points")
        if unit not in ("tricks", "points", "honours"):
            raise self.fail("play.unit", f"must be tricks, points or honours, not {unit!r}")
        return unit

    def values(self, deck: tuple[Card, ...], unit: str) -> dict[Card, int]:
        table = self.get("values", {})
        if not isinstance(table, dict):
            raise self.fail("values", "must be a table of rank = points")
        by_rank = {}
        for word, points in table.items():
            rank = RANK_WORDS.get(str(word).upper())
            if rank is None:
                raise self.fail(f"values.{word}", "not a rank (A K Q J 10 9 8 7 6)")
            if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= MAX_VALUE:
                raise self.fail(f"values.{word}", f"must be a whole number from 0 to {MAX_VALUE}, "
                                                  f"not {points!r:.30}")
            by_rank[rank] = points
        if unit == "tricks" and any(by_rank.values()):
            raise self.fail("values", "a game that counts tricks has no card values")
        return {c: by_rank.get(c.rank, 0) for c in deck}

    def trump_rule(self) -> str:
        rule = self.typed("play.trump", str, "none")
        if rule not in ("named", "fixed", "none"):
            raise self.fail("play.trump", f"must be named (the deal names it), fixed (play.trump_suit) "
                                          f"or none, not {rule!r}")
        if rule == "fixed":
            self.fixed_suit()
        return rule

    def fixed_suit(self) -> int:
        word = self.typed("play.trump_suit", str)
        if word is None:
            raise self.fail("play.trump_suit", "missing: play.trump = \"fixed\" needs the suit")
        try:
            suit = parse_suit(word)
        except CardError as exc:
            raise self.fail("play.trump_suit", str(exc)) from None
        if suit not in self.suits():
            raise self.fail("play.trump_suit", f"the pack has no {word}")
        return suit

    def trumps(self, trump: int | None, deck: tuple[Card, ...]) -> tuple[Card, ...]:
        top = self.typed("play.top_trumps", str, "")
        if trump is None:
            if top.strip():
                raise self.fail("play.top_trumps", "permanent trumps need a trump suit (play.trump "
                                                   "named or fixed): the core has four effective suits")
            return ()
        order: list[Card] = []
        for word in top.split():
            card = self.card("play.top_trumps", word, trump)
            if card is None or card in order:
                continue                    # a template's card twice (T7 = ♣7 with ♣7 listed)
            if card not in deck:
                if word[:1].upper() == "T":
                    continue
                raise self.fail("play.top_trumps", f"{word} is not in the pack")
            order.append(card)
        ranks = self.ranks("play.trump_order", self.get("play.plain_order"))
        order += [Card(trump, r) for r in ranks if Card(trump, r) in deck and Card(trump, r) not in order]
        return tuple(order)

    def plain(self, trump: int | None, trumps: tuple[Card, ...],
              deck: tuple[Card, ...]) -> dict[int, tuple[Card, ...]]:
        ranks = self.ranks("play.plain_order")
        plain = {}
        for suit in SUITS:
            if suit != trump:
                plain[suit] = tuple(Card(suit, r) for r in ranks
                                    if Card(suit, r) in deck and Card(suit, r) not in trumps)
        ranked = set(trumps) | {c for cards in plain.values() for c in cards}
        missing = [c for c in deck if c not in ranked]
        if missing:
            key = "play.plain_order" if any(c.suit != trump for c in missing) else "play.trump_order"
            raise self.fail(key, f"leaves {' '.join(map(str, missing))} without a rank")
        return plain

    def follow(self, key: str, default: str) -> FollowRule:
        kind = self.typed(key, str, default)
        if kind == "free":
            return FREE
        if kind != "suit":
            raise self.fail(key, f"must be suit (follow suit if able) or free, not {kind!r}")
        if key == "play.stock_follow":
            return FollowRule(follow_suit=True)
        return FollowRule(follow_suit=True, must_trump=self.flag("play.must_trump"),
                          must_beat=self.flag("play.must_beat"))

    def beat(self, trump_rule: str) -> str:
        beat = self.typed("play.beat", str, "higher")
        if beat not in ("higher", "next_higher"):
            raise self.fail("play.beat", f"must be higher or next_higher, not {beat!r}")
        if beat == "next_higher" and trump_rule != "none":
            raise self.fail("play.beat", "next_higher (only the next higher card of the suit led "
                                         "beats it) is for games without trumps (play.trump = none)")
        return beat

    def layout(self):
        kind = self.typed("layout.kind", str, "hands")
        if kind == "hands":
            return Hands()
        if kind == "piles":
            n = self.typed("layout.piles", int, 8)
            if not 1 <= n <= 16:
                raise self.fail("layout.piles", f"must be 1..16, not {n}")
            return Piles(count=n)
        if kind == "stock":
            n = self.typed("layout.hand", int, 6)
            if not 1 <= n <= 16:
                raise self.fail("layout.hand", f"must be 1..16, not {n}")
            return Stock(hand=n)
        raise self.fail("layout.kind", f"must be hands, piles or stock, not {kind!r}")

    def thresholds(self, total: int) -> Thresholds:
        win = self.get("outcome.win")
        if win is None:
            win = total // 2 + 1
        wins = win if isinstance(win, list) else [win, win]
        if len(wins) != 2 or any(isinstance(w, bool) or not isinstance(w, int) or not 1 <= w <= MAX_TOTAL
                                 for w in wins):
            raise self.fail("outcome.win", f"must be a number from 1 to {MAX_TOTAL:,}, or [side 1's, "
                                           f"side 2's]")
        levels = self.get("outcome.levels", [])
        if not isinstance(levels, list):
            raise self.fail("outcome.levels", "must be a list of tables: [{ name = ..., score = ..., "
                                              "winner_at_least = ... }]")
        score = self.number("outcome.score", 0, MAX_SCORE, 1)
        tie = self.typed("outcome.tie", str, "neither side reached its winning total")
        simple = self.typed("outcome.simple", str, "simple")
        parsed = tuple(self.level(i, t) for i, t in enumerate(levels))
        self.check_level_order(parsed, total)
        return Thresholds((wins[0], wins[1]), score, parsed, tie, simple)

    def check_level_order(self, levels: tuple[Level, ...], total: int) -> None:
        """Levels come lowest first, each asking more of the winner than the one before (a
        trick condition last), under names of their own: the outcome is the last that holds."""
        seen: set[str] = set()
        for i, level in enumerate(levels):
            key = f"outcome.levels[{i + 1}]"
            if level.name in seen:
                raise self.fail(f"{key}.name", f"{level.name!r} names an earlier level too")
            seen.add(level.name)
            if i == 0:
                continue
            before = levels[i - 1]
            need, need_before = level.need(total), before.need(total)
            if need_before is None or (need is not None and need <= need_before):
                raise self.fail(key, f"must ask more of the winner than the level before it "
                                     f"({before.name!r}): levels come lowest first")

    def level(self, i: int, table: Any) -> Level:
        """``outcome.levels[i + 1]``: a name, a score and one condition."""
        key = f"outcome.levels[{i + 1}]"
        if not isinstance(table, dict):
            raise self.fail(key, "must be a table with name, score and a condition")
        for k in table:
            if k not in LEVEL_KEYS:
                raise self.fail(f"{key}.{k}", f"unknown key (known: {', '.join(LEVEL_KEYS)})")
        if not isinstance(table.get("name"), str) or not table["name"].strip():
            raise self.fail(f"{key}.name", "missing: the level's name")
        if table["name"] in GOAL_WORDS:
            raise self.fail(f"{key}.name", f"{table['name']!r} is the puzzle goal "
                                           f"{GOAL_WORDS[table['name']]}: name the level otherwise")
        conds = [k for k in ("loser_at_most", "winner_at_least", "loser_no_trick") if k in table]
        if not conds:
            raise self.fail(key, "needs loser_at_most, winner_at_least or loser_no_trick = true")
        for k, low, high in (("loser_at_most", 0, MAX_TOTAL), ("winner_at_least", 1, MAX_TOTAL),
                             ("score", 0, MAX_SCORE)):
            v = table.get(k, 1)
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise self.fail(f"{key}.{k}", f"must be a whole number from {low} to {high:,}, not {v!r:.30}")
        if "loser_no_trick" in table and (table["loser_no_trick"] is not True or len(conds) > 1):
            raise self.fail(f"{key}.loser_no_trick", "must be true, and the level's only condition")
        return Level(table["name"], table.get("score", 1), table.get("loser_at_most"),
                     table.get("winner_at_least"), bool(table.get("loser_no_trick")))

    def first_leader(self, players: int) -> int:
        seat = self.typed("play.first_leader", int, 1)
        if not 1 <= seat <= players:
            raise self.fail("play.first_leader", f"must be a seat 1..{players}")
        return seat


# --- the Game ---------------------------------------------------------------------------------------

def _options(data: dict, source: str) -> tuple[Option, ...]:
    table = data.get("options", {})
    if not isinstance(table, dict):
        raise RuleFileError("must be a table of [options.NAME] tables", "options", source)
    out = []
    for name, spec in table.items():
        key = f"options.{name}"
        if not isinstance(spec, dict):
            raise RuleFileError("must be a table with default, help, source (and choices)", key, source)
        for k in spec:
            if k not in OPTION_KEYS:
                raise RuleFileError(f"unknown key (known: {', '.join(OPTION_KEYS)})", f"{key}.{k}", source)
        if not name.replace("_", "").replace("-", "").isalnum():
            raise RuleFileError("an option's name is a word (letters, digits, _ and -)", key, source)
        default, choices = _choices(spec, key, source)
        sets = spec.get("set", {})
        if not isinstance(sets, dict):
            raise RuleFileError("must be a table: choice = { rule keys }", f"{key}.set", source)
        allowed = {str(c).lower() for c in choices} if choices else {"true", "false"}
        for choice, over in sets.items():
            if str(choice).lower() not in allowed:
                raise RuleFileError(f"{choice!r} is not a value of the option", f"{key}.set.{choice}", source)
            if not isinstance(over, dict):
                raise RuleFileError("must be a table of rule keys", f"{key}.set.{choice}", source)
            _check_keys(over, SCHEMA, f"{key}.set.{choice}.", source)
            for fixed in ("layout", "players", "name", "options", "extends"):
                if fixed in over:
                    raise RuleFileError(f"an option cannot change {fixed}", f"{key}.set.{choice}.{fixed}", source)
        if not isinstance(spec.get("help", ""), str) or not isinstance(spec.get("source", ""), str):
            raise RuleFileError("help and source must be text", key, source)
        out.append(Option(name, default, spec.get("help", ""), spec.get("source", ""), choices))
    return tuple(out)


def _choices(spec: dict, key: str, source: str) -> tuple[Any, tuple]:
    """An option's default and choices: true/false (no choices), or words or numbers, each
    once, the default among them."""
    if "default" not in spec:
        raise RuleFileError("missing: the default value", f"{key}.default", source)
    default, choices = spec["default"], spec.get("choices", [])
    if isinstance(default, bool):
        if choices:
            raise RuleFileError("a true/false option has no choices", f"{key}.choices", source)
        return default, ()
    if not isinstance(choices, list) or any(isinstance(c, bool) or not isinstance(c, (str, int))
                                            for c in choices):
        raise RuleFileError("must be a list of words or numbers", f"{key}.choices", source)
    words = [str(c).strip().lower() for c in choices]
    if len(set(words)) != len(words) or not all(words):
        raise RuleFileError("must name each choice once", f"{key}.choices", source)
    if isinstance(default, bool) or not isinstance(default, (str, int)) or default not in choices:
        raise RuleFileError(f"the default {default!r:.40} is not one of the choices", f"{key}.choices", source)
    return default, tuple(choices)


def _with_options(data: dict, options: dict[str, Any]) -> dict:
    """The rule data with each option's overrides for its value merged in."""
    out = data
    for name, spec in (data.get("options") or {}).items():
        value = options.get(name, spec.get("default"))
        for choice, over in (spec.get("set") or {}).items():
            if str(choice).lower() == str(value).lower():
                out = _merge(out, over)
    return out


_Compile = Callable[[dict[str, Any]], "_Compiler"]   # options -> the compiler of the rules under them


def compile_game(data: dict, source: str, rule_file: str | None = None) -> Game:
    """The ``Game`` of a merged rule-file table; every block is checked now, under the option
    defaults (and each option value's overrides when a deal uses it)."""
    c = _Compiler(data, source)
    name, title, sources, notation = _header(c)
    seat_counts = c.players()
    layout = c.layout()
    options = _options(data, source)
    trump_rule = c.trump_rule()
    defaults = {o.name: o.default for o in options}

    def compiler(opts: dict) -> _Compiler:
        return _Compiler(_with_options(data, {**defaults, **opts}), source)

    build = _builder(name, layout, seat_counts, compiler)
    rules = _check_every_option(c, build, compiler, options, defaults, trump_rule, seat_counts)

    def thresholds(opts: dict, rules: RuleSet) -> Thresholds:
        return compiler(opts).thresholds(_total(rules))

    fixed = c.fixed_suit() if trump_rule == "fixed" else None
    return Game(name=name, title=title, default_notation=notation, layout=layout, options=options,
                build=build, seat_counts=seat_counts,
                outcome=lambda final, deal: thresholds(deal.options, final.rules).outcome(final, deal),
                ladder=lambda position, deal: thresholds(deal.options, position.rules).ladder(position, deal),
                view=_view(c, title),
                trump_rule={"named": NAMED, "fixed": OPTIONAL, "none": NO_TRUMP}[trump_rule],
                trump_of=(lambda deal: fixed) if fixed is not None else None,
                check=_checker(compiler, trump_rule, title), goals=_goals(c, rules),
                first_leader=c.first_leader(seat_counts[0]), sources=tuple(sources),
                rule_file=rule_file, suits=c.suits(),
                no_trick_level=lambda opts: any(level.loser_no_trick
                                                for level in thresholds(opts, rules).levels))


def _header(c: _Compiler) -> tuple[str, str, list[str], str]:
    """The file's name, title, sources and card notation, each checked."""
    name = c.typed("name", str)
    if not name or not name.replace("_", "").replace("-", "").isalnum() or name != name.lower():
        raise c.fail("name", "missing or not a lower-case word (letters, digits, _ and -)")
    title = c.typed("title", str, name)
    sources = c.get("sources")
    if not isinstance(sources, list) or not sources or not all(isinstance(s, str) for s in sources):
        raise c.fail("sources", "missing: a list of the sources of these rules (a rule file cites them)")
    notation = c.typed("notation", str, FRENCH)
    if notation not in NOTATIONS:
        raise c.fail("notation", f"must be {FRENCH} or {GERMAN}")
    return name, title, sources, notation


def _builder(name: str, layout: Hands, seat_counts: tuple[int, ...], compiler: _Compile) -> BuildRules:
    """The game's ``build(trump, options, players) -> RuleSet``."""
    def build(trump: int | None, opts: dict, players: int = seat_counts[0]) -> RuleSet:
        k = compiler(opts)
        rule = k.trump_rule()
        beat = k.beat(rule)
        if rule == "fixed":
            trump = k.fixed_suit()
        elif rule == "none":
            trump = None
        elif trump not in k.suits():
            trump = k.suits()[-1]           # a pack without the suit asked (never a deal's: check)
        deck = k.deck()
        unit = k.unit()
        trumps = k.trumps(trump, deck)
        stock_follow = k.follow("play.stock_follow", "free") if layout.draws else FREE
        return RuleSet(game=name, unit=unit, seats=players, layout=layout, deck=deck, trump=trump,
                       trumps=trumps, plain=k.plain(trump, trumps, deck), values=k.values(deck, unit),
                       follow=k.follow("play.follow", "suit"), stock_follow=stock_follow,
                       trick_bonus=1 if unit == "tricks" else 0,
                       last_trick_bonus=k.number("play.last_trick", 0, MAX_VALUE, 0), options=dict(opts),
                       beat=beat)
    return build


def _check_every_option(c: _Compiler, build: BuildRules, compiler: _Compile, options: tuple[Option, ...],
                        defaults: dict, trump_rule: str, seat_counts: tuple[int, ...]) -> RuleSet:
    """Build and check the rules under the defaults and under each option value (an error
    names the value); the rule set under the defaults."""
    probe = c.suits()[0] if trump_rule != "none" else None
    _check_layout(c, build(probe, defaults, seat_counts[0]), seat_counts)
    for option in options:
        for value in option.choices or (False, True):
            try:
                rules = build(probe, {**defaults, option.name: value}, seat_counts[0])
                _check_layout(c, rules, seat_counts)
                compiler({option.name: value}).thresholds(_total(rules))
            except RuleFileError as exc:
                raise RuleFileError(f"{exc.message} (with {option.name} = {value})", exc.key, c.source) from None
    rules = build(probe, defaults, seat_counts[0])
    c.thresholds(_total(rules))
    c.first_leader(rules.seats)
    return rules


def _check_layout(c: _Compiler, rules: RuleSet, seat_counts: tuple[int, ...]) -> None:
    """The layout must fit the pack for every number of seats: the cards held at the start,
    and a stock the seats share evenly and the core can hold."""
    pack, layout = len(rules.deck), rules.layout
    for n in seat_counts:
        held = layout.full_hand(pack, n) * n
        if not 0 < held <= pack:
            raise c.fail("layout", f"{n} players hold {held} cards at the start, but the pack has {pack}")
        rest = pack - held
        if layout.draws and (rest % n or rest > MAX_STOCK):
            raise c.fail("layout.hand", f"the stock of {rest} cards with {n} players must be shared "
                                        f"evenly and hold at most {MAX_STOCK}")


def _checker(compiler: _Compile, trump_rule: str,
             title: str) -> Callable[[DealFacts], tuple[str, str] | None]:
    """The game's ``check(deal)``: what the generic reader cannot know of a deal."""
    def check(deal: DealFacts) -> tuple[str, str] | None:
        try:
            k = compiler(deal.options)
            k.beat(k.trump_rule())
            if trump_rule == "fixed" and deal.trump is not None and deal.trump != k.fixed_suit():
                return ("trump", f"{title} always has {k.get('play.trump_suit')} trump")
            if deal.trump is not None and deal.trump not in k.suits():
                return ("trump", f"the {title} pack has no {suit_name(deal.trump)}")
        except RuleFileError as exc:
            return ("rules", str(exc))
        return None
    return check


def _goals(c: _Compiler, rules: RuleSet) -> dict[str, GoalWord]:
    """The puzzle goals: win, each level (or any higher one), every trick."""
    goals = {"win": GoalWord("level")}
    names = [level.name for level in c.thresholds(_total(rules)).levels]
    for i, level in enumerate(names):
        goals[level] = GoalWord("level", levels=tuple(names[i:]))
    goals.setdefault("every_trick", EVERY_TRICK)
    return goals


def _view(c: _Compiler, title: str) -> View:
    return View(other_hands=c.flag("view.other_hands"), face_down=c.flag("view.face_down"),
                stock=c.flag("view.stock"),
                why=c.typed("view.why", str, f"{title}: each seat sees its own cards and every face-up "
                                             f"card, as the rule file says"))


def _total(rules: RuleSet) -> int:
    """The whole pack's worth: card values, or one per trick, plus the last-trick bonus."""
    if rules.unit == "tricks":
        return len(rules.deck) // rules.seats
    return sum(rules.values.values()) + rules.last_trick_bonus

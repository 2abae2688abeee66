"""Reading a deal file: the TOML of ``docs/deal-format.md`` checked key by key.  Every problem
is a ``DealError`` naming the file, the key and what is wrong; nothing else escapes the reader.
The deal is made by the caller's ``make`` (``stich.deals.deal.Deal``), which this module does
not import: the value type re-reads itself through it."""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stich.files.userfile import UserFileError, read_bytes, toml_shape_problem
from stich.games import GAMES, Game, OptionError, RuleFileError, find_game
from stich.games.base import NAMED
from stich.games.layouts import LAYOUTS, Pile
from stich.games.rulefile import NoRuleFile
from stich.model.cards import NOTATIONS, Card, CardError, parse_card, parse_suit, suit_name

from .hidden_marks import hidden_file_problem  # the player's view: files with hidden cards

# a deal as the reader makes and checks it: stich.deals.deal.Deal, given as ``make``
_Deal = Any

MAX_DEAL_BYTES = 1 << 20       # a deal is a few hundred bytes; refuse to read on forever (/dev/zero)

LAYOUT_KEYS = tuple(sorted({key for layout in LAYOUTS for key in layout.keys}))   # a layout uses some
KNOWN_KEYS = ("game", "cards", "trump", "leader", *LAYOUT_KEYS, "play", "taken", "rules", "players",
              "declarer", "all_passed", "announced", "won_trick")


_SHOW = re.compile(r"\(\s*(\w+)\s+([^()\s]+)\s*\)")      # "(marriage R)" in a trick of play
_SHOW_SPLIT = re.compile(r"(\([^()]*\)?)")


# the end of an unknown game's list of games: a deal file may name a rule file instead (a
# reader that opens no files, as the explorer's, leaves it out of what it shows)
RULE_FILE_HINT = ", or a rule file's path"


def _folder_of(source: str) -> Path | None:
    """The folder of the deal file ``source`` (a rule file it names is looked for there), or
    None where ``source`` is no file but a label ("<string>", "<elfern-7-0001>", a name too
    long for a path)."""
    try:
        return Path(source).parent if Path(source).is_file() else None
    except (OSError, ValueError):
        return None


class DealError(ValueError):
    """Bad input: says which file, which key and what is wrong, in one line."""

    def __init__(self, message: str, key: str | None = None, source: str | None = None):
        super().__init__(message)
        self.message, self.key, self.source = message, key, source

    def __str__(self) -> str:
        parts = [p for p in (self.source, self.key) if p]
        return _one_line(": ".join(parts + [self.message]))


_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _one_line(text: str) -> str:
    """Escape line breaks (a quoted TOML key may hold one) so a message stays one line."""
    return "".join(repr(ch)[1:-1] if ch in _LINE_BREAKS else ch for ch in text)


def _parse_suit_word(text: str, notation: str) -> int:
    """A suit by its letter in the file's notation ("R"), its name or its symbol."""
    try:
        return parse_suit(text)
    except CardError:
        if len(text.strip()) == 1:
            try:
                return parse_card(text.strip() + "A", notation).suit
            except CardError:
                pass
        raise


def _shown(value: Any) -> str:
    """A value for a message, cut short: a file may hold huge or deeply nested values."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"a deeply nested {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _either(counts) -> str:
    """4, 6 or 8."""
    words = [str(c) for c in counts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def read_file(path: str | Path, make: Callable[..., _Deal], rules: dict[str, Any] | None = None, *,
              other_games_rules: bool = False) -> _Deal:
    """Read a deal file; ``-`` reads standard input.  ``rules`` (e.g. from ``--rule``) override
    the file's ``[rules]`` before anything is checked, exactly as if written there."""
    text, source = deal_text(path)
    return read_text(text, make, source, rules, other_games_rules=other_games_rules)


def deal_text(path: str | Path) -> tuple[str, str]:
    """(text, source) of a deal file, read with its limit; ``-`` reads standard input once."""
    source = str(path) if str(path) else "''"
    try:
        if str(path) == "-":
            source = "<stdin>"
            stdin = getattr(sys.stdin, "buffer", None)
            data = (stdin.read(MAX_DEAL_BYTES + 1) if stdin is not None
                    else sys.stdin.read(MAX_DEAL_BYTES + 1).encode("utf-8", "surrogateescape"))
        else:           # the bounded reader of every user file: a device is not a deal file
            data = read_bytes(path, "deal file", MAX_DEAL_BYTES)
        if len(data) > MAX_DEAL_BYTES:
            raise DealError(f"larger than {MAX_DEAL_BYTES >> 20} MB: not a deal file", None, source)
        # utf-8-sig: a byte-order mark some editors put first is not part of the text
        text = data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")  # as text mode reads
    except UserFileError as exc:
        raise DealError(exc.problem, None, source) from None
    except MemoryError:
        raise DealError("out of memory while reading", None, source) from None
    except UnicodeDecodeError as exc:
        raise DealError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", None, source) from None
    except OSError as exc:
        raise DealError(f"cannot read: {exc.strerror}", None, source) from None
    return text, source


def read_text(text: str, make: Callable[..., _Deal], source: str = "<string>",
              rules: dict[str, Any] | None = None, *, other_games_rules: bool = False) -> _Deal:
    """Read a deal from TOML text; ``source`` names it in error messages.  ``rules`` override
    the ``[rules]`` table (each named ``--rule NAME`` in errors); with ``other_games_rules``
    options the game does not have are skipped (a batch of several games)."""
    if len(text) > MAX_DEAL_BYTES:
        raise DealError(f"larger than {MAX_DEAL_BYTES >> 20} MB: not a deal file", None, source)
    text = text.removeprefix("\ufeff")      # a byte-order mark pasted with the text, as in a file
    problem = toml_shape_problem(text)
    if problem:
        raise DealError(problem, None, source)
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise DealError("TOML nested too deeply", None, source) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        if message.endswith("(at end of document)"):   # say where that is, like other errors
            line = text.count("\n") + 1
            column = len(text) - (text.rfind("\n") + 1) + 1
            message = message[:-1] + f", line {line}, column {column})"
        raise DealError(f"TOML syntax error: {message}", None, source) from None
    return _Reader(data, source, make, rules or {}, other_games_rules).read()


def asks_who_won_a_trick(deal: _Deal) -> bool:
    """Does play or the outcome depend on whether a side has won a trick before the position
    (a pair announced once its side has won one; Schwarz as "no trick")?  Then ``taken`` with
    points means that side has won one, and ``won_trick`` may say so where points do not."""
    return bool(deal.rule_set.pairs) or deal.game_spec.no_trick_level(deal.options)


class _Reader:
    """Checks one parsed TOML table key by key, so each error can name its key."""

    def __init__(self, data: dict, source: str, make: Callable[..., Any],
                 overrides: dict[str, Any] | None = None, other_games_rules: bool = False):
        self.data, self.source, self.make = data, source, make
        self.overrides, self.other_games_rules = overrides or {}, other_games_rules

    def fail(self, key: str | None, message: str) -> DealError:
        return DealError(message, key, self.source)

    def read(self) -> _Deal:
        data = self.data
        problem = hidden_file_problem(data)
        if problem:
            raise self.fail(*problem)
        for key in data:
            if key not in KNOWN_KEYS:
                raise self.fail(key, f"unknown key (known keys: {', '.join(KNOWN_KEYS)})")
        game = self._game()
        spec = GAMES[game]
        notation = self._notation(spec)
        rules = self._rules(spec)
        layout = spec.layout
        for key in LAYOUT_KEYS:
            if key in data and key not in layout.keys:
                raise self.fail(key, f"{game} has no {key} (it uses [{layout.section}])")
        section = layout.section
        table = self._table(section)
        players = self._players(game, table)
        seats = {seat: layout.read_seat(self, f"{section}.{key}", value, notation)
                 for seat, key, value in self._seats(section, table, players)}
        hands, piles = ({}, seats) if layout.stacked else (seats, {})
        stock = layout.read_stock(self, data, notation)
        declarer = self._seat_key("declarer", players, spec.declarer)
        all_passed = self._all_passed(game)
        leader = self._leader(game, players, rules, declarer, spec)
        trump = self._trump(game, rules, spec, all_passed)
        play, shows = self._play(notation)
        taken = self._taken()
        announced = self._announced(notation)
        won_trick = self._won_trick()
        deal = self.make(game=game, notation=notation, players=players, leader=leader, hands=hands,
                         piles=piles, stock=stock, play=play, taken=taken, trump=trump, rules=rules,
                         declarer=declarer, all_passed=all_passed, shows=shows, announced=announced,
                         won_trick=won_trick, source=self.source)
        problem = spec.problem(deal)
        if problem:
            raise self.fail(*problem)
        self._check_cards(deal)
        self._check_counts(deal)
        try:
            deal.rule_set  # noqa: B018 - reading the property checks the options
        except OptionError as exc:  # pragma: no cover - options were checked above
            raise self.fail("rules", str(exc)) from None
        self._check_history(deal)
        deal._replay(deal.start())
        return deal

    def _check_history(self, deal: _Deal) -> None:
        """``announced`` and ``won_trick`` must fit the game and ``taken``."""
        rules = deal.rule_set
        for suit in deal.announced:
            if rules.pair_of_suit(suit) is None:
                what = "nothing can be announced in this game" if not rules.pairs else \
                    f"there is no {rules.pair_word} in {suit_name(suit, deal.notation).capitalize()}"
                raise self.fail("announced", what)
        if deal.won_trick is not None:
            if rules.unit == "tricks":
                raise self.fail("won_trick", "`taken` already counts the tricks won in this game")
            if not asks_who_won_a_trick(deal):
                raise self.fail("won_trick", f"{deal.game_spec.title} never asks whether a side has "
                                             f"won a trick (no pair to announce, no outcome by tricks "
                                             f"with these rules)")
            for side in (0, 1):
                if deal.taken[side] > 0 and not deal.won_trick[side]:
                    raise self.fail("won_trick", f"side {side + 1} has points in `taken`, so it "
                                                 f"has won a trick")

    # --- single keys ---------------------------------------------------------------------------

    def _game(self) -> str:
        if "game" not in self.data:
            raise self.fail("game", f"missing (one of {', '.join(GAMES)}{RULE_FILE_HINT})")
        game = self.data["game"]
        if not isinstance(game, str):
            raise self.fail("game", f"unknown game {_shown(game)} (one of {', '.join(GAMES)})")
        folder = _folder_of(self.source)
        try:
            spec = find_game(GAMES, game, folder)
        except NoRuleFile as exc:
            raise self.fail("game", f"no game {_shown(game)} and no rule file {exc.source} "
                                    f"(games: {', '.join(GAMES)})") from None
        except RuleFileError as exc:        # the deal file's key, then the rule file's problem
            raise self.fail("game", str(exc)) from None
        if spec is None:
            raise self.fail("game", f"unknown game {_shown(game)} (one of {', '.join(GAMES)}"
                                    f"{RULE_FILE_HINT})")
        return spec.name

    def _notation(self, spec: Game) -> str:
        value = self.data.get("cards", spec.default_notation)
        if not isinstance(value, str) or value.strip().lower() not in NOTATIONS:
            raise self.fail("cards", f"must be \"french\" or \"german\", not {_shown(value)}")
        return value.strip().lower()

    def _rules(self, spec: Game) -> dict[str, Any]:
        table = self._table("rules")
        rules = {}
        for name, value in table.items():
            try:
                rules[name] = spec.option(name).parse(value)
            except OptionError as exc:
                raise self.fail(f"rules.{name}", str(exc)) from None
        for name, value in self.overrides.items():     # --rule: as if written in [rules]
            if self.other_games_rules and name not in {o.name for o in spec.options}:
                continue
            try:
                rules[name] = spec.option(name).parse(value)
            except OptionError as exc:
                raise self.fail(f"--rule {name}", str(exc)) from None
        return rules

    def _table(self, key: str) -> dict:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a table ([{key}]), not {type(value).__name__}")
        return value

    def _players(self, game: str, hands: dict) -> int:
        spec = GAMES[game]
        if "players" in self.data:
            players = self.data["players"]
            if not spec.players_vary:
                if type(players) is int and players == spec.default_players:
                    return players
                raise self.fail("players", f"{game} is always played by {spec.default_players}, "
                                           f"not {_shown(players)}")
            if not isinstance(players, int) or isinstance(players, bool) or players not in spec.seat_counts:
                raise self.fail("players", f"must be {_either(spec.seat_counts)}, not {_shown(players)}")
            return players
        if spec.players_vary:
            if len(hands) not in spec.seat_counts:
                raise self.fail(spec.layout.section, f"{len(hands)} {spec.layout.section} given; "
                                                     f"{spec.title} needs {_either(spec.seat_counts)} "
                                                     f"(or set `players`)")
            return len(hands)
        return spec.default_players

    def _seats(self, key: str, table: dict, players: int):
        seats: list[tuple[int, str, Any]] = []
        for name, value in table.items():
            try:
                seat = int(name)
            except ValueError:
                raise self.fail(f"{key}.{name}", f"not a seat number (seats are 1..{players})") from None
            if not 1 <= seat <= players:
                raise self.fail(f"{key}.{name}", f"no seat {seat} with {players} players")
            if any(seat == other for other, _, _ in seats):
                raise self.fail(f"{key}.{name}", f"seat {seat} is given twice")
            seats.append((seat, name, value))
        given = {seat for seat, _, _ in seats}
        for seat in range(1, players + 1):
            if seat not in given:
                raise self.fail(key, f"seat {seat} is missing (every seat 1..{players} needs one)")
        return sorted(seats)

    def _cards(self, key: str, value: Any, notation: str) -> list[Card]:
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string of cards, not {type(value).__name__}")
        try:
            return [parse_card(token, notation) for token in value.split()]
        except CardError as exc:
            raise self.fail(key, str(exc)) from None

    def _piles(self, key: str, value: Any, notation: str) -> tuple[Pile, ...]:
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string of piles like \"UP/DOWN UP\", not {type(value).__name__}")
        piles = []
        for token in value.split():
            parts = token.split("/")
            if len(parts) > 2 or not all(parts):
                raise self.fail(key, f"bad pile {token!r}: write UP/DOWN or a lone UP")
            try:
                cards = [parse_card(p, notation) for p in parts]
            except CardError as exc:
                raise self.fail(key, str(exc)) from None
            piles.append(Pile(cards[0], cards[1] if len(cards) == 2 else None))
        return tuple(piles)

    def _seat_key(self, key: str, players: int, allowed: bool) -> int | None:
        if key not in self.data:
            return None
        if not allowed:
            raise self.fail(key, f"{GAMES[self._game()].title} has no {key}")
        value = self.data[key]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= players:
            raise self.fail(key, f"must be a seat 1..{players}, not {_shown(value)}")
        return value

    def _leader(self, game: str, players: int, rules: dict, declarer: int | None, spec: Game) -> int:
        if "leader" in self.data:
            value = self.data["leader"]
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= players:
                raise self.fail("leader", f"must be a seat 1..{players}, not {_shown(value)}")
            return value
        if spec.declarer_leads(spec.resolve_options(rules)):
            if declarer is None:
                raise self.fail("leader", "first_leader = \"declarer\" needs a `declarer` key "
                                          "(or give `leader`)")
            return declarer
        return spec.first_leader if spec.first_leader <= players else 1

    def _all_passed(self, game: str) -> bool:
        if "all_passed" not in self.data:
            return False
        value = self.data["all_passed"]
        if GAMES[game].all_pass_trump is None:
            raise self.fail("all_passed", f"{GAMES[game].title} has no bidding where all can pass")
        if not isinstance(value, bool):
            raise self.fail("all_passed", f"must be true or false, not {_shown(value)}")
        return value

    def _trump(self, game: str, rules: dict, spec: Game, all_passed: bool = False) -> int | None:
        if all_passed:
            clubs = spec.all_pass_trump
            if clubs is None:           # _all_passed refuses the key in such a game first
                raise self.fail("all_passed", f"{game} has no trump for a deal all passed")
            if "trump" in self.data:
                value = self.data["trump"]
                try:
                    suit = parse_suit(value) if isinstance(value, str) else None
                except CardError:
                    suit = None
                if suit != clubs:
                    raise self.fail("trump", f"all_passed = true means {suit_name(clubs, 'french')} are "
                                             f"trump, not {_shown(value)}")
            return clubs
        if "trump" not in self.data:
            if spec.trump_rule == NAMED:
                raise self.fail("trump", f"missing: {spec.title} needs the trump suit named by the declarer")
            return None
        value = self.data["trump"]
        if not isinstance(value, str):
            raise self.fail("trump", f"must be a suit name or symbol, not {_shown(value)}")
        try:
            suit = parse_suit(value)
        except CardError as exc:
            raise self.fail("trump", str(exc)) from None
        if not spec.has_trumps:
            raise self.fail("trump", f"{spec.title} has no trumps")
        return suit

    def _play(self, notation: str) -> tuple[tuple[tuple[Card, ...], ...], tuple]:
        """The tricks of ``play`` and the pairs shown in it: "(marriage R) R9" announces the
        marriage in Rot with the lead R9."""
        if "play" not in self.data:
            return (), ()
        value = self.data["play"]
        if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
            raise self.fail("play", "must be a list of strings, one per trick")
        tricks, shows = [], []
        for i, text in enumerate(value):
            cards: list[Card] = []
            pending = None
            for token in _SHOW_SPLIT.split(text):
                show = _SHOW.fullmatch(token)
                if token.startswith("(") and not show:
                    raise self.fail("play", f"trick {i + 1}: {token.strip()}: write (marriage SUIT)")
                if show:
                    if pending is not None:
                        raise self.fail("play", f"trick {i + 1}: one marriage per turn: "
                                                f"{token.strip()} follows another announcement")
                    if show.group(1).lower() != "marriage":
                        raise self.fail("play", f"trick {i + 1}: {token.strip()}: write (marriage SUIT)")
                    try:
                        pending = _parse_suit_word(show.group(2), notation)
                    except CardError as exc:
                        raise self.fail("play", f"trick {i + 1}: {token.strip()}: {exc}") from None
                    continue
                for word in token.split():
                    try:
                        cards.append(parse_card(word, notation))
                    except CardError as exc:
                        raise self.fail("play", f"trick {i + 1}: {exc}") from None
                    if pending is not None:
                        shows.append((i, len(cards) - 1, pending))
                        pending = None
            if pending is not None:
                raise self.fail("play", f"trick {i + 1}: an announcement must come before the "
                                        f"card led with it")
            if not cards:
                raise self.fail("play", f"trick {i + 1} is empty")
            tricks.append(tuple(cards))
        return tuple(tricks), tuple(shows)

    def _announced(self, notation: str) -> tuple[int, ...]:
        if "announced" not in self.data:
            return ()
        value = self.data["announced"]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail("announced", f"must be a list of suits, e.g. [\"R\"], not {value!r}")
        suits = []
        for text in value:
            try:
                suit = _parse_suit_word(text, notation)
            except CardError as exc:
                raise self.fail("announced", str(exc)) from None
            if suit in suits:
                raise self.fail("announced", f"{text!r} is given twice")
            suits.append(suit)
        return tuple(suits)

    def _won_trick(self) -> tuple[bool, bool] | None:
        if "won_trick" not in self.data:
            return None
        value = self.data["won_trick"]
        if not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, bool) for v in value):
            raise self.fail("won_trick", f"must be two booleans [a, b], not {value!r}")
        return (value[0], value[1])

    def _taken(self) -> tuple[int, int]:
        if "taken" not in self.data:
            return (0, 0)
        value = self.data["taken"]
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value)):
            raise self.fail("taken", f"must be two numbers [a, b] of 0 or more, not {_shown(value)}")
        return (value[0], value[1])

    # --- whole-deal checks -----------------------------------------------------------------------

    def _check_cards(self, deal: _Deal) -> None:
        rules = deal.rule_set
        pack = set(rules.deck)
        seen: dict[Card, str] = {}
        places = deal.game_spec.layout.card_places(deal)
        for key, card in places:
            text = card.text(deal.notation)
            if card not in pack:
                raise self.fail(key, f"{text} is not in the {len(pack)}-card pack of this game")
            if card in seen:
                where = "twice in " + key if seen[card] == key else f"in {seen[card]} and in {key}"
                raise self.fail(key, f"duplicate card {text}: {where}")
            seen[card] = key

    def _check_counts(self, deal: _Deal) -> None:
        n = deal.players
        rules = deal.rule_set
        counts = [len(deal.start().held(s)) for s in range(n)]
        key = deal.game_spec.layout.section
        if len(set(counts)) != 1:
            listing = ", ".join(f"seat {s + 1}: {c}" for s, c in enumerate(counts))
            raise self.fail(key, f"every seat must hold the same number of cards at the start of "
                                 f"a trick ({listing})")
        size = counts[0]
        layout = deal.game_spec.layout
        full = layout.full_hand(len(rules.deck), n)   # a stock refills the hands up to this
        layout.check(self, deal, size)
        if size > full:
            raise self.fail(key, f"{size} cards per seat; at most {full} in {deal.game}"
                                 + (" while the stock lasts" if layout.draws and deal.stock else ""))
        if size == 0 and deal.play:
            raise self.fail("play", "there are no cards to play")
        played = sum(len(t) for t in deal.play)
        for i, trick in enumerate(deal.play[:-1]):
            if len(trick) != n:
                raise self.fail("play", f"trick {i + 1} has {len(trick)} cards; only the last trick "
                                        f"may be unfinished ({n} cards per trick)")
        if deal.play and len(deal.play[-1]) > n:
            raise self.fail("play", f"trick {len(deal.play)} has {len(deal.play[-1])} cards "
                                    f"({n} cards per trick)")
        if played > size * n + len(deal.stock):
            raise self.fail("play", f"{played} cards played but only {size * n + len(deal.stock)} dealt")
        self._check_taken(deal, size)

    def _check_taken(self, deal: _Deal, size: int) -> None:
        """What was won before plus what is still out cannot exceed what the pack holds."""
        rules = deal.rule_set
        if rules.unit == "tricks":
            whole, out, word = len(rules.deck) // deal.players, size, "tricks"
        else:
            start = deal.start()
            whole = sum(rules.values.values()) + rules.last_trick_bonus
            if rules.bonus_in_points:         # every pair shown and the run bonus won
                whole += sum(worth for _, _, worth in rules.pairs) + rules.run_bonus[1]
            out = sum(rules.values[c] for c in start.in_play()) + rules.last_trick_bonus
            word = rules.unit
        if sum(deal.taken) + out > whole:
            raise self.fail("taken", f"{list(deal.taken)} plus the {out} {word} still in play exceed "
                                     f"the {whole} {word} of a whole deal")

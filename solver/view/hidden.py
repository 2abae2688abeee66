"""Deal files with hidden cards: ``?`` for an unknown card, an ``unknown`` pool, a ``seat``.

A hidden deal file is a deal file (``docs/deal-format.md``) in which

- any card of a hand, any face-down pile card (``SK/?``) and any stock card may be ``?``: a
  card the viewing seat does not know (a stock of ``? ? ? ?`` has no known order);
- ``unknown = "cards"`` lists the cards behind the ``?`` (as a set; default: every card of
  the pack not named anywhere in the file, ``play`` included), one card per ``?``;
- ``seat = N`` names the seat whose view it is (default: the seat to move).

Cards that were played are named where they came from (any place consistent with the play
will do).  Each ``?`` must be a card the seat cannot see in the position after ``play``.
``read_hidden`` returns the information set; ``write_hidden`` writes it back so that
``read_hidden(write_hidden(info))`` describes the same information set (round trip).
A plain deal file read with a seat gives that seat's information set of the deal.
"""

from __future__ import annotations

import contextlib
import tomllib
from dataclasses import replace
from pathlib import Path

from stich.deals.deal import MAX_DEAL_BYTES, Deal, DealError, deal_text, load, loads
from stich.deals.hidden_marks import EXTRA_KEYS, HIDDEN, hidden_file_problem, is_hidden_data  # noqa: F401
from stich.files.userfile import UserFileError, read_text, toml_shape_problem
from stich.games import GAMES, RuleFileError, find_game
from stich.model.cards import CLUBS, Card, CardError, format_cards, parse_card

from .infoset import InfoSet, information, start_slots
from .sampling import count_layouts, sample_layouts


def is_hidden_text(text: str) -> bool:
    """Does a deal file use the hidden-card syntax (``?`` cards or the ``unknown`` key)?"""
    if toml_shape_problem(text):
        return False                    # read_deal says why
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return is_hidden_data(data)


def read_view(path: str, seat: int | None = None, overrides: dict | None = None) -> InfoSet:
    """The information set of a file: a hidden deal file, or a plain one seen from ``seat``
    (default: the file's ``seat``, else the seat to move)."""
    source = str(path)
    if source == "-":                 # standard input, read once: a plain or a hidden deal file
        text, source = deal_text(path)
        deal: Deal | None = None if is_hidden_text(text) else loads(text, source)
    else:
        try:            # the bounded reader; what it refuses, ``load`` names below
            text = read_text(path, "deal file", MAX_DEAL_BYTES)
        except UserFileError:
            text = None
        deal = None if text is not None and is_hidden_text(text) else load(path)
    if deal is not None:
        if overrides:
            deal = deal.with_rules(overrides)
        return information(deal, seat or _seat_to_move(deal))
    assert text is not None             # no deal read: the text is a hidden file's
    return read_hidden(text, source, seat, overrides)


def _seat_to_move(deal: Deal) -> int:
    position = deal.position()
    if position.is_over():
        raise DealError("the deal is over: no seat is to move", "play", deal.source)
    return position.to_move + 1


def read_hidden(text: str, source: str = "<string>", seat: int | None = None,
                overrides: dict | None = None) -> InfoSet:
    """Read a hidden deal file; errors are ``DealError``s naming the file and the key."""
    problem = toml_shape_problem(text)
    if problem:
        raise DealError(problem, None, source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DealError(f"TOML syntax error: {exc}", None, source) from None
    except RecursionError:
        raise DealError("TOML nested too deeply", None, source) from None
    extra = {key: data.pop(key) for key in EXTRA_KEYS if key in data}
    play = data.pop("play", None)
    spec = _game(data, source)
    notation = str(data.get("cards", spec.default_notation)).strip().lower()
    places = _hidden_places(data, spec.layout, source)
    named = _named_cards(data, play, spec.layout, notation)
    pool = _pool(extra.get("unknown"), data, named, len(places), notation, source, spec)
    for (_key, path), card in zip(places, pool):   # a first filling, to read the rest
        spec.layout.reveal(data, path, card.text(notation))
    filled = loads(_toml(data), source)          # every check but the play's
    if overrides:
        filled = filled.with_rules(overrides)
    deal = replace(filled, play=_parse_play(play, notation, source))
    slots = start_slots(deal)
    must_hide = frozenset(slots[card] for card in pool)
    if "seat" in extra and seat is None:
        seat = extra["seat"]
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise DealError(f"must be a seat number, not {seat!r}", "seat", source)
    if seat is None:
        from .infoset import relaxed_replay
        position, _ = relaxed_replay(deal, frozenset(pool))
        if position.is_over():
            raise DealError("the deal is over: no seat is to move", "play", source)
        seat = position.to_move + 1
    info = information(deal, seat, must_hide)
    if count_layouts(info) == 0:
        raise DealError("no hidden layout is consistent with the visible cards and the play "
                        "(a void contradicts every placing of the unknown cards)", "unknown", source)
    consistent = info.fill(sample_layouts(info, 1, 0)[0])
    return replace(info, deal=consistent)


def _hidden_places(data: dict, layout, source: str) -> list[tuple[str, tuple]]:
    """Every ``?`` as (key, path to its token), in file order (the layout knows where)."""
    return layout.marked(data, lambda key, message: DealError(message, key, source))


def _named_cards(data: dict, play, layout, notation: str) -> dict[Card, str]:
    named: dict[Card, str] = {}
    sources = layout.texts(data)
    if isinstance(play, list):
        sources += [("play", t) for t in play]
    for key, text in sources:
        if not isinstance(text, str):
            continue
        for token in text.split():
            if token == HIDDEN:
                continue
            with contextlib.suppress(CardError):     # the deal reader names it later
                named.setdefault(parse_card(token, notation), key)
    return named


def _pool(unknown, data: dict, named: dict, places: int, notation: str, source: str, spec) -> list[Card]:
    if unknown is None and not places:
        return []
    if unknown is None:
        deck = spec.build(CLUBS, spec.resolve_options({}), _players(data, spec)).deck
        pool = [c for c in deck if c not in named]
        if len(pool) != places:
            raise DealError(f"{places} `?` cards but {len(pool)} cards of the pack are not named; "
                            f"list the hidden cards in `unknown`", "unknown", source)
        return sorted(pool)
    if not isinstance(unknown, str):
        raise DealError("must be a string of cards", "unknown", source)
    try:
        pool = [parse_card(t, notation) for t in unknown.split()]
    except CardError as exc:
        raise DealError(str(exc), "unknown", source) from None
    for card in pool:
        if card in named:
            raise DealError(f"{card.text(notation)} is unknown but also named in {named[card]}",
                            "unknown", source)
    if len(set(pool)) != len(pool):
        raise DealError("a card is listed twice", "unknown", source)
    if len(pool) != places:
        raise DealError(f"{len(pool)} cards for {places} `?` places", "unknown", source)
    return sorted(pool)


def _players(data: dict, spec) -> int:
    if "players" in data and isinstance(data["players"], int):
        return data["players"]
    seats = data.get(spec.layout.section)
    if spec.players_vary and isinstance(seats, dict) and len(seats) in spec.seat_counts:
        return len(seats)
    return spec.default_players


def _parse_play(play, notation: str, source: str) -> tuple[tuple[Card, ...], ...]:
    if play is None:
        return ()
    if not isinstance(play, list) or not all(isinstance(t, str) for t in play):
        raise DealError("must be a list of strings, one per trick", "play", source)
    tricks = []
    for i, text in enumerate(play):
        try:
            cards = tuple(parse_card(token, notation) for token in text.split())
        except CardError as exc:
            raise DealError(f"trick {i + 1}: {exc}", "play", source) from None
        if not cards:
            raise DealError(f"trick {i + 1} is empty", "play", source)
        tricks.append(cards)
    return tuple(tricks)


def _game(data: dict, source: str):
    """The file's game as the plain reader finds it (a name or a rule file), else the plain
    reader's message about the ``game`` key (not about the ``?`` it was not meant to read)."""
    value = data.get("game")
    if isinstance(value, str):
        try:
            spec = find_game(GAMES, value, Path(source).parent)
        except RuleFileError:
            spec = None
        if spec is not None:
            return spec
    loads(_toml({"game": value} if "game" in data else {}), source)
    raise DealError("not a game", "game", source)       # pragma: no cover - loads raised


def _toml(data: dict) -> str:
    """A flat TOML writer for the deal keys (strings, ints, bools, lists, one-level tables)."""
    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'
    lines: list[str] = []
    tables: list[str] = []
    for key, v in data.items():
        (tables if isinstance(v, dict) else lines).append(key)
    out = [f"{k} = {value(data[k])}" for k in lines]
    for t in tables:
        out += ["", f"[{t}]"] + [f'"{k}" = {value(v)}' for k, v in data[t].items()]
    return "\n".join(out) + "\n"


def write_hidden(info: InfoSet) -> str:
    """The information set as a hidden deal file: the seat's hidden cards written ``?``."""
    deal = info.deal
    hidden = frozenset(slot for _, slots in info.regions for slot in slots)
    lines = []
    for line in deal.dump(hidden).splitlines():
        lines.append(line)
        if line.startswith("leader = "):
            lines.append(f"seat = {info.seat}")
            if info.pool:
                lines.append(f'unknown = "{format_cards(info.pool, deal.notation)}"')
    return "\n".join(lines) + "\n"

"""A line of play in the explorer: the moves a page sends, checked into a position, and the
table the page draws of it.

The page keeps the deal before any card is played (its *start*, as deal-file text) and the
line of moves from there, each a card in the deal's notation, a lead maybe with its
announcement: ``"(marriage R) RA"``.  The moves become the ``play`` of a deal file and the
deal reader checks them, so a bad move gets the reader's own message ("play: trick 2, card 1
(R9 by seat 1): seat 1 must follow ...") and the position is exactly the one ``stich solve``
reads from the copied text.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from stich.deals.deal import Deal, DealError, loads, show_text
from stich.deals.dealing import MAX_SEED
from stich.files.userfile import toml_shape_problem
from stich.games import GAMES
from stich.games.rulefile import RULES_DIR
from stich.model.cards import Card, suit_name
from stich.model.position import Position
from stich.model.rules import side_label
from stich.report.common import ONE_UNIT, UNIT_WORDS, headline, shown_suit

MAX_MOVES = 400          # more than any deal has cards
MAX_START = 64 * 1024    # a deal file is a few hundred bytes
# one card, maybe after one announcement: "RA", "(marriage R) RA"
_MOVE = re.compile(r"(?:\(\s*\w+\s+[^()\s]+\s*\)\s*)?[^\s()]+")


class RequestError(ValueError):
    """A request the explorer cannot answer; its message is shown on the page."""


def check_seed(seed) -> int:
    """A request's seed: a whole number within ``MAX_SEED`` either way, as the commands take it."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED <= seed <= MAX_SEED:
        raise RequestError(f"seed: must be a whole number from {-MAX_SEED} to {MAX_SEED}")
    return seed


_GAME_LINE = re.compile(r"^[ \t]*game[ \t]*=.*$", re.M)


def shared_text(deal: Deal) -> str:
    """The deal as a deal file for the page's address and its copy button: a user's rule file
    is named by its file name only (no folder of the user's goes into a shared link; the copy
    works next to the rule file)."""
    text = deal.dump()
    rule_file = deal.game_spec.rule_file
    if rule_file is None or Path(rule_file).parent == RULES_DIR.resolve():
        return text
    return _GAME_LINE.sub(lambda m: f"game = {json.dumps(Path(rule_file).name)}", text, count=1)


def start_text(deal: Deal) -> str:
    """The deal before its ``play``, as a deal file: where every line of the page starts."""
    return shared_text(replace(deal, play=(), shows=()))


def known_games() -> dict[str, str]:
    """What a page's deal may name as its ``game``: each game known now (when the server
    starts: the built-in ones and the rule files it was given) by its name, and a rule file's
    game by its file name too; never a path, so a link cannot make the server open a file."""
    games = {}
    for name, spec in GAMES.items():
        games[name.lower()] = name
        if spec.rule_file is not None and Path(spec.rule_file).parent != RULES_DIR.resolve():
            games.setdefault(Path(spec.rule_file).name.lower(), name)
    return games


def named_start(text: str, games: Mapping[str, str]) -> str:
    """``text`` with its ``game`` checked against ``games`` and written as the game's name."""
    problem = toml_shape_problem(text)
    if problem:
        raise RequestError(f"start: {problem}")
    try:
        game = tomllib.loads(text).get("game")
    except (tomllib.TOMLDecodeError, RecursionError):
        return text                                    # the deal reader says what is wrong
    if not isinstance(game, str):
        return text
    name = games.get(game.strip().lower())
    if name is None:
        raise RequestError(f"game: {json.dumps(game[:60], ensure_ascii=False)} is not one of the games "
                           f"this server was started with ({', '.join(sorted(set(games.values())))})")
    if game.strip().lower() == name.lower():
        return text
    named, found = _GAME_LINE.subn(f"game = {json.dumps(name)}", text, count=1)
    if not found:
        raise RequestError("game: write it as a line `game = \"NAME\"`")
    return named


def file_line(deal: Deal) -> list[str]:
    """The moves of the deal's ``play`` as the page writes them (announcements included)."""
    shows = {(t, k): suit for t, k, suit in deal.shows}
    word = deal.rule_set.pair_word
    return [(show_text(word, shows[t, k], deal.notation) + " " if (t, k) in shows else "")
            + card.text(deal.notation)
            for t, trick in enumerate(deal.play) for k, card in enumerate(trick)]


def read_start(text, games: Mapping[str, str] | None = None) -> Deal:
    """The start a page sent, read by the deal reader (a start has no ``play``); its game
    must be one of ``games`` (default: ``known_games()``)."""
    return _read_start(checked_start(text, games))


def checked_start(text, games: Mapping[str, str] | None = None) -> str:
    """The start a page sent, its size and game checked, its game written by name."""
    if not isinstance(text, str) or len(text) > MAX_START:
        raise RequestError(f"start: must be a deal file of at most {MAX_START} characters")
    return named_start(text, known_games() if games is None else games)


@lru_cache(maxsize=64)        # every request of a page sends the same start
def _read_start(text: str) -> Deal:
    try:
        deal = loads(text, "start")
    except DealError as exc:
        raise RequestError(str(exc)) from None
    if deal.play:
        raise RequestError("start: must not have `play` (the moves come apart)")
    return deal


def check_moves(moves) -> list[str]:
    """The moves a page sent: a list of at most ``MAX_MOVES`` strings, one card each."""
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise RequestError(f"moves: must be a list of at most {MAX_MOVES} moves")
    for k, move in enumerate(moves):
        if not isinstance(move, str) or not _MOVE.fullmatch(move.strip()):
            raise RequestError(f"moves: move {k + 1} ({json.dumps(move, ensure_ascii=False)[:40]}) "
                               f"is not one card, e.g. \"RA\" or \"(marriage R) RA\"")
    return [move.strip() for move in moves]


def position_deal(start: str, moves, games: Mapping[str, str] | None = None) -> Deal:
    """The deal file of the position after ``moves`` from ``start``, checked by the reader."""
    start = checked_start(start, games)
    base = _read_start(start)
    moves = check_moves(moves)
    n = base.players
    tricks = [" ".join(moves[i:i + n]) for i in range(0, len(moves), n)]
    if not tricks:
        return base
    try:
        return loads(f"play = {json.dumps(tricks, ensure_ascii=False)}\n{start}", "moves")
    except DealError as exc:
        raise RequestError(str(exc)) from None


# --- the table the page draws -----------------------------------------------------------------

def card_json(card: Card, deal: Deal, hidden: frozenset = frozenset()) -> dict:
    """A card for the page: its text, suit (for its colour) and whether it is a trump; a card
    the viewing seat cannot see is only a back."""
    if card in hidden:
        return {"hidden": True}
    return {"text": card.text(deal.notation), "suit": card.suit,
            "trump": deal.rule_set.is_trump(card)}


def seats_json(deal: Deal, position: Position, hidden: frozenset) -> list[dict]:
    """Each seat's cards as they lie: a hand, or piles of a face-up card on a face-down one
    (``null`` where a pile is gone), so a pile keeps its place as it is played."""
    rules = position.rules
    return [{"seat": s + 1, "side": rules.side(s),
             **rules.layout.seat_json(position, s, lambda c: card_json(c, deal, hidden))}
            for s in range(position.seats)]


def history_json(deal: Deal, position: Position) -> list[dict]:
    """The tricks taken: leader, cards, winner, what the trick brought, any announcement."""
    return [{"leader": r.leader + 1, "winner": r.winner + 1, "points": r.points,
             "cards": [card_json(c, deal) for c in r.cards],
             "announce": None if r.pair is None else _pair_text(r.pair, deal),
             "pair_bonus": r.pair_bonus, "run_bonus": r.run_bonus} for r in position.history]


def _pair_text(pair: int, deal: Deal) -> str:
    rules = deal.rule_set
    return show_text(rules.pair_word, rules.pairs[pair][0].suit, deal.notation)


def legal_json(deal: Deal, position: Position) -> dict:
    """The cards the seat to move may play, and the announcements it may make with a lead:
    the text and the suit letter ``stich analyze --json`` gives as ``announce``.  The first
    is what the solver plays with a plain lead (announcing never costs)."""
    if position.is_over():
        return {"legal": [], "announce": []}
    return {"legal": [c.text(deal.notation) for c in position.legal_moves()],
            "announce": [{"text": _pair_text(p, deal), "suit": shown_suit(p, deal)}
                         for p in position.showable_pairs()]}


def describe(deal: Deal, hidden: frozenset = frozenset()) -> dict:
    """Everything the page draws of a position (no search): the layout, trump, who is to
    move, the trick in progress, the tricks taken, the totals so far, the announcements, the
    legal moves, and the position as a deal file."""
    position = deal.position()
    rules = position.rules
    over = position.is_over()
    trick_leader = position.leader
    return {
        "title": headline(deal), "game": deal.game, "layout": rules.layout.name,
        "players": deal.players, "unit": UNIT_WORDS[rules.unit], "unit_one": ONE_UNIT[UNIT_WORDS[rules.unit]], "notation": deal.notation,
        # how stich replay counts what a card cost: the loss of its side's total, or where
        # bonuses make the game not constant-sum (Mariage) the loss of its side's lead
        "cost_of": "total" if rules.constant_sum else "lead",
        "sides": [side_label(rules, 0), side_label(rules, 1)],
        "trump": None if rules.trump is None else suit_name(rules.trump, deal.notation),
        "seats": seats_json(deal, position, hidden),
        **rules.layout.table_json(position, lambda c: card_json(c, deal, hidden)),
        "to_move": None if over else position.to_move + 1,
        "trick": [{"seat": (trick_leader + k) % position.seats + 1, "card": card_json(c, deal)}
                  for k, c in enumerate(position.trick)],
        "tricks": history_json(deal, position),
        "points": list(position.points), "tricks_won": list(position.tricks_won),
        "bonus": list(position.bonus),
        "announced": [_pair_text(p, deal) for p in sorted(position.shown)],
        **legal_json(deal, position),
        "over": over,
        "final": deal.game_spec.outcome(position, deal).as_json() if over else None,
        "file": shared_text(deal),
    }

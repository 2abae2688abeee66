"""Random deals, seeded and reproducible: the same (game, seed, options) always gives the same deal.

Dealing follows the games: Scharwenzel deals the whole pack round the table; two-handed
Schafkopf deals 16 face-down cards first (8 per player), then 16 face-up ones, so the 17th
card dealt lies face up on forehand's first pile; Elfern gives six cards each and leaves a
stock of twenty.

Streams of deals (``stich deal``, ``stich batch --generate``): deal ``k`` (1, 2, ...) of seed
``S`` is the ``k``-th *candidate* that the constraints accept, and candidate ``j`` (0, 1, ...)
is ``random_deal(game, candidate_seed(S, j), ...)`` (with ``players`` for Scharwenzel, the
default for the two-player games, and the stream's trump, rules and notation).  Without constraints deal ``k`` is
candidate ``k - 1``.  Each candidate depends only on (game, players, S, j), so the first
deals of a longer run are those of a shorter one, and a run is the same on every machine.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from stich.games import GAMES
from stich.model.cards import Card

from .deal import Deal, loads

DEFAULT_MAX_TRIES = 100_000
MAX_TRIES = 1_000_000         # refused candidates in a row: a minute or two of drawing
MAX_DEALS = 100_000           # deals of one stream (deal -n, batch --generate, tactic --deals):
                              # a run holds every deal's text in memory
MAX_SEED = 2**63 - 1          # a seed's size either way (a deal's id and its file name hold it)


def random_deal(game: str, seed: int, *, players: int = 4, trump: int | None = None,
                rules: dict[str, Any] | None = None, notation: str | None = None) -> Deal:
    """A whole deal of ``game`` from ``seed``.  ``trump`` None picks one at random where the
    game needs one (Scharwenzel; Schafkopf2 in card17 mode takes the 17th card)."""
    return loads(_draw(game, seed, players=players, trump=trump, rules=rules, notation=notation).dump(),
                 f"<{game} seed {seed}>")


def _draw(game: str, seed: Any, *, players: int = 4, trump: int | None = None,
          rules: dict[str, Any] | None = None, notation: str | None = None) -> Deal:
    """The deal of ``random_deal`` before it is checked (written and read back)."""
    rng = random.Random(f"{game}:{seed}:{players}")
    spec = GAMES.get(game)
    if spec is None:
        raise ValueError(f"unknown game {game!r}")
    rules = dict(rules or {})
    options = spec.resolve_options(rules)
    notation = notation or spec.default_notation
    players = players if spec.players_vary else spec.default_players
    fields = spec.deal(rng, players, trump, options,
                       pack=lambda suit: _pack(game, suit, options, players))
    return Deal(game=game, notation=notation, players=players, leader=1, rules=rules, **fields)


def _pack(game: str, trump: int | None, options: dict[str, Any], players: int) -> tuple[Card, ...]:
    """The pack in the order the game's rule set lists it (the order shuffled), cached."""
    key = (game, trump, tuple(sorted(options.items())), players)
    deck = _PACKS.get(key)
    if deck is None:
        deck = _PACKS[key] = GAMES[game].pack(options, players, trump)
    return deck


_PACKS: dict[tuple, tuple[Card, ...]] = {}


def with_source(deal: Deal, source: str) -> Deal:
    return replace(deal, source=source)


# --- streams of deals ----------------------------------------------------------------------------

def candidate_seed(seed: int, candidate: int) -> int:
    """The ``random_deal`` seed of candidate ``candidate`` (0, 1, ...) of stream ``seed``: the
    first 8 bytes of SHA-256 of ``"stich-deal:SEED:CANDIDATE"``, big-endian (the same on every
    machine and Python)."""
    digest = hashlib.sha256(f"stich-deal:{seed}:{candidate}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def default_players(game: str) -> int:
    return GAMES[game].default_players


def stream_label(game: str, players: int | None = None) -> str:
    """``scharwenzel`` for 4 players (``scharwenzel6``, ``scharwenzel8`` otherwise), else the game."""
    players = players or default_players(game)
    return game if players == default_players(game) else f"{game}{players}"


def parse_label(label: str) -> tuple[str, int]:
    """The inverse of ``stream_label``: ``scharwenzel6`` -> ("scharwenzel", 6)."""
    text = label.strip().lower()
    for game in GAMES:
        if text == game:
            return game, default_players(game)
        if text.startswith(game) and text[len(game):].lstrip("-").isdigit():
            players = int(text[len(game):].lstrip("-"))
            if players not in GAMES[game].seat_counts:
                counts = ", ".join(map(str, GAMES[game].seat_counts))
                raise ValueError(f"{game} is played by {counts}, not {players}")
            return game, players
    raise ValueError(f"unknown game {label!r} (one of {', '.join(GAMES)}; scharwenzel6 and "
                     f"scharwenzel8 for 6 or 8 players)")


def deal_id(game: str, players: int | None, seed: int, number: int) -> str:
    """The id (and file name stem) of deal ``number`` (1-based) of a stream: ``scharwenzel-7-0001``."""
    return f"{stream_label(game, players)}-{seed}-{number:04d}"


@dataclass(frozen=True)
class DealtDeal:
    """One deal of a stream: its id, its place in the stream and the checked deal."""

    id: str
    number: int            # 1-based among the accepted deals
    candidate: int         # 0-based among all candidates drawn
    deal_seed: int         # the random_deal seed: candidate_seed(seed, candidate)
    deal: Deal


class NoDealFound(ValueError):
    """The constraints accepted too few candidates: impossible or far too rare."""


def parse_rules(game: str, rules: dict[str, Any] | None) -> dict[str, Any]:
    """Options as the deal reader stores them (checked, typed); OptionError if bad."""
    spec = GAMES[game]
    return {name: spec.option(name).parse(value) for name, value in (rules or {}).items()}


def generate_deals(game: str, seed: int, count: int, *, players: int | None = None,
                   trump: int | None = None, rules: dict[str, Any] | None = None,
                   notation: str | None = None, accept: Callable[[Deal], bool] | None = None,
                   max_tries: int = DEFAULT_MAX_TRIES) -> Iterator[DealtDeal]:
    """Deals 1..``count`` of stream ``seed``: the candidates (see the module doc) that
    ``accept`` takes, in order.  ``accept`` gets a ``Deal`` equal to the checked one (its
    ``rule_set`` is shared between candidates with the same trump).  If ``max_tries``
    candidates in a row are refused, raise ``NoDealFound``.  Bad options raise ``DealError``
    or ``OptionError`` before anything is drawn."""
    players = players or default_players(game)
    rules = parse_rules(game, rules)
    # the two-player games take random_deal's default `players` (it only seeds the shuffle)
    kwargs: dict[str, Any] = dict(players=players if GAMES[game].players_vary else 4, trump=trump,
                                  rules=rules, notation=notation)
    loads(_draw(game, candidate_seed(seed, 0), **kwargs).dump(), f"--game {game}")  # bad settings fail here
    rule_sets: dict[Any, Any] = {}
    candidate = 0
    for number in range(1, count + 1):
        tries = 0
        while True:
            if tries >= max_tries:
                raise NoDealFound(
                    f"{max_tries:,} candidates in a row were refused while looking for deal "
                    f"{number} of {count}: the constraints are impossible or too rare "
                    f"(loosen them or raise --max-tries)")
            tries += 1
            deal_seed = candidate_seed(seed, candidate)
            candidate += 1
            raw = _draw(game, deal_seed, **kwargs)
            if accept is not None:
                key = raw.trump_suit
                if key not in rule_sets:
                    rule_sets[key] = raw.rule_set
                raw.__dict__["rule_set"] = rule_sets[key]    # the cached_property's slot
                if not accept(raw):
                    continue
            ident = deal_id(game, players, seed, number)
            deal = with_source(loads(raw.dump(), f"<{ident}>"), ident)
            yield DealtDeal(ident, number, candidate - 1, deal_seed, deal)
            break


def holding(deal: Deal, seat: int, part: str | None = None) -> tuple[Card, ...]:
    """The cards seat ``seat`` (1-based) holds as dealt: its hand, or every card of its piles
    (``part``: one of the layout's ``where_parts``, "up" or "down")."""
    return deal.game_spec.layout.holding(deal, seat, part)
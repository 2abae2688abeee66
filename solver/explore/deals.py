"""Any deal from the page: a pasted deal file, a random deal as ``stich deal`` makes it (with
its ``--where`` constraints), and the whole-deal table as ``stich table`` computes it.

The answers are a new *start* (and the file's play as a line) that the page then explores
like the deal it was started with; the server keeps no deal of its own for them.  Errors
are the one-line messages of the commands, shown on the page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from stich.analysis.table import dd_table
from stich.deals.constraints import ConstraintError, all_of, parse_constraint
from stich.deals.deal import DealError, loads
from stich.deals.dealfile_read import RULE_FILE_HINT
from stich.deals.dealing import NoDealFound, generate_deals
from stich.games import GAMES, OptionError
from stich.report.common import headline
from stich.report.table import table_json, table_report

from .position import (
    MAX_START,
    RequestError,
    check_seed,
    file_line,
    known_games,
    named_start,
    read_start,
    start_text,
)

_GAME = re.compile(r"^\s*game\s*=\s*(.*)$", re.M)
MAX_WHERE = 8              # constraints per random deal
MAX_TRIES = 20_000         # candidates refused in a row before giving up (stich deal: --max-tries)


def opened(deal) -> dict:
    """What the page needs to explore a deal: its start, the file's play, its title."""
    return {"start": start_text(deal), "line": file_line(deal), "title": headline(deal)}


def pasted_deal(text, games: Mapping[str, str] | None = None) -> dict:
    """A pasted deal file, checked by the reader as ``stich solve`` checks a file; its game
    must be one the server knows (``games``, default ``known_games()``), never a path."""
    if isinstance(text, str) and not text.strip():
        raise RequestError("the pasted deal: the box is empty (paste a deal file's text)")
    if not isinstance(text, str) or len(text) > MAX_START:
        raise RequestError(f"the pasted deal: must be a deal file of at most {MAX_START} characters")
    try:
        text = named_start(text, known_games() if games is None else games)
    except RequestError:
        if _names_a_file(text):         # the reader would open it: refused here, as in a link
            raise
    try:                                # an unknown game name: the reader's own one line
        return opened(loads(text, "the pasted deal"))
    except DealError as exc:            # (without the rule-file paths a page cannot name)
        raise RequestError(str(exc).replace(RULE_FILE_HINT, "")) from None


def _names_a_file(text: str) -> bool:
    """Whether a deal's ``game`` line names a rule file (a path or a ``.toml`` name)."""
    game = _GAME.search(text)
    return game is not None and any(mark in game.group(1) for mark in ("/", "\\", ".toml"))


def random_deal(data: dict) -> dict:
    """``stich deal --game GAME --seed SEED [--players N] --where ...``: the first deal."""
    game, seed, players, wheres = data.get("game"), data.get("seed", 0), data.get("players"), data.get("where", [])
    if not isinstance(game, str) or game.lower() not in GAMES:
        raise RequestError(f"game: must be one of {', '.join(GAMES)}")
    spec = GAMES[game.lower()]
    check_seed(seed)
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                or players not in spec.seat_counts):
        raise RequestError(f"players: {spec.name} is played by {', '.join(map(str, spec.seat_counts))}")
    players = players or spec.default_players
    if (not isinstance(wheres, list) or len(wheres) > MAX_WHERE
            or not all(isinstance(w, str) and len(w) <= 500 for w in wheres)):
        raise RequestError(f"where: must be a list of at most {MAX_WHERE} constraints")
    try:
        accept = all_of(parse_constraint(w, spec.name, players) for w in wheres if w.strip())
        dealt = next(generate_deals(spec.name, seed, 1, players=players, accept=accept, max_tries=MAX_TRIES))
    except ConstraintError as exc:
        raise RequestError(f"--where: {exc}") from None
    except NoDealFound as exc:
        raise RequestError(f"--where: {exc}") from None
    except (DealError, OptionError) as exc:
        raise RequestError(str(exc)) from None
    return opened(dealt.deal)


def whole_table(start, tt_megabytes: int) -> dict:
    """``stich table`` of the deal as dealt: its report text and its JSON."""
    deal = read_start(start)
    try:
        table = dd_table(deal, tt_megabytes=tt_megabytes)
    except DealError as exc:
        raise RequestError(str(exc)) from None
    return {"text": table_report(table), "table": table_json(table)}

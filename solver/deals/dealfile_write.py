"""Writing a deal file: the TOML of ``docs/deal-format.md`` for a ``Deal``, read back by
``stich.deals.dealfile_read`` to an equal deal (round trip)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from stich.games import Game
from stich.games.rulefile import RULES_DIR
from stich.model.cards import Card, suit_name
from stich.model.protocols import DealFacts


class DealToWrite(DealFacts, Protocol):
    """What the writer reads of a deal (``stich.deals.deal.Deal`` has it all)."""

    @property
    def game_spec(self) -> Game: ...
    @property
    def declarer(self) -> int | None: ...
    @property
    def won_trick(self) -> tuple[bool, bool] | None: ...
    @property
    def announced(self) -> tuple[int, ...]: ...
    @property
    def shows(self) -> tuple[tuple[int, int, int], ...]: ...


def dump(deal: DealToWrite, hidden: frozenset = frozenset()) -> str:
    """The deal as TOML in the format it was read from; ``loads(dump())`` gives it back.
    ``hidden``: start slots (``stich.games.layouts.Slot``) written as ``?``, for the
    player's view's hidden deal files."""
    n = deal.notation
    spec = deal.game_spec
    builtin = spec.rule_file is None or Path(spec.rule_file).parent == RULES_DIR.resolve()
    lines = [f"game = {_q(deal.game if builtin or spec.rule_file is None else spec.rule_file)}"]
    if n != deal.game_spec.default_notation:
        lines.append(f"cards = {_q(n)}")
    if deal.game_spec.players_vary:
        lines.append(f"players = {deal.players}")
    if deal.trump is not None:
        lines.append(f"trump = {_q(suit_name(deal.trump, n))}")
    if deal.declarer is not None:
        lines.append(f"declarer = {deal.declarer}")
    if deal.all_passed:
        lines.append("all_passed = true")
    lines.append(f"leader = {deal.leader}")
    if deal.taken != (0, 0):
        lines.append(f"taken = [{deal.taken[0]}, {deal.taken[1]}]")
    if deal.won_trick is not None:
        lines.append(f"won_trick = [{_toml_value(deal.won_trick[0])}, {_toml_value(deal.won_trick[1])}]")
    if deal.announced:
        lines.append("announced = [" + ", ".join(_q(_suit_letter(s, n)) for s in deal.announced) + "]")
    lines += deal.game_spec.layout.head_lines(deal, hidden)
    if deal.play:
        lines.append("play = [" + ", ".join(_q(trick_text(deal, i)) for i in range(len(deal.play))) + "]")
    lines.append("")
    lines += deal.game_spec.layout.write(deal, hidden)
    if deal.rules:
        lines += ["", "[rules]"]
        for name, value in deal.rules.items():
            lines.append(f"{name} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"

def trick_text(deal: DealToWrite, t: int) -> str:
    """One trick of ``play`` with its announcement: "(marriage R) R9 S8"."""
    shows = {k: suit for i, k, suit in deal.shows if i == t}
    word = deal.rule_set.pair_word
    return " ".join((show_text(word, shows[k], deal.notation) + " " if k in shows else "")
                    + card.text(deal.notation) for k, card in enumerate(deal.play[t]))


def _suit_letter(suit: int, notation: str) -> str:
    return Card(suit, 14).text(notation)[:-1]


def show_text(word: str, suit: int, notation: str) -> str:
    """How a pair shown with a lead is written: "(marriage R)"."""
    return f"({word} {_suit_letter(suit, notation)})"


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _q(str(value))

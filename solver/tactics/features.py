"""Features of a decision: the situation in which a piece of advice was followed.

Each feature is read from what the mover sees (the ``PlayerView``), so a breakdown by it
("by trick", "leading or following") is one a player can use at the table.  A tactic file may
add its own in ``FEATURES = {"name": function(view) -> value}``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from stich.files.interrupt import USER_RAISES
from stich.files.userfile import shown, users_fault

from .base import TacticError


def trick(view) -> int:
    """The trick being played, from 1."""
    return len(view.history) + 1


def stock_left(view) -> int | None:
    """Cards left in the stock (games with a stock; None without one)."""
    return view.stock_size if view.rules.layout.draws else None


def lead(view) -> str:
    """Whether the mover leads or follows."""
    return "lead" if view.is_lead else "follow"


def seat(view) -> int:
    """The mover's seat, from 1."""
    return view.seat + 1


def trumps(view) -> int:
    """Trumps among the mover's cards he sees."""
    return sum(1 for c in view.own() if view.is_trump(c))


def suit_seen(view, advised=()) -> int | None:
    """Cards the mover has seen of the suit in question (the suit led when following, else
    the suit of the advised cards if they share one): his own, face-up ones, the played ones."""
    if view.trick:
        suit = view.suit(view.trick[0])
    else:
        suits = {view.suit(c) for c in advised}
        if len(suits) != 1:
            return None
        suit = suits.pop()
    seen = set(view.own()) | view.gone()
    seen |= {c for s in range(view.rules.seats) if s != view.seat for c in view.seen(s)}
    return sum(1 for c in seen if view.suit(c) == suit)


BUILTIN: dict[str, Callable] = {"trick": trick, "stock_left": stock_left, "lead": lead, "seat": seat,
                                "trumps": trumps, "suit_seen": suit_seen}


def describe(view, advised, extra: dict[str, Callable] | None = None) -> dict[str, object]:
    """Every feature of a decision (``None`` where one does not apply, e.g. no stock)."""
    out = {name: (f(view, advised) if name == "suit_seen" else f(view)) for name, f in BUILTIN.items()}
    for name, function in (extra or {}).items():
        out[name] = _user_feature(name, function, view)
    return out


def _user_feature(name: str, function: Callable, view) -> object:
    """A tactic file's feature: a number, a word, true/false or None, else ``TacticError``.
    NaN is None (it applies not): a NaN equals nothing, so each would be a group of its own."""
    try:
        value = function(view)
    except USER_RAISES as exc:          # the user's code; Ctrl-C stops the run
        raise TacticError(f"feature {name} raised {users_fault(exc)}") from None
    if value is not None and not isinstance(value, (str, int, float, bool)):
        raise TacticError(f"feature {name} returned {shown(value)}: give a number, a word, "
                          f"true/false or None")
    if isinstance(value, float) and math.isnan(value):
        return None
    return value

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
from stich.model.cards import ACE, Card

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


# --- what the opponents show against a lead --------------------------------------------------------

SHOWS = ("holds the Ace", "void with a trump", "can beat it", "must follow under", "nothing seen")


def shows_against(view, seat: int, card: Card) -> str:
    """What ``seat`` shows against ``card`` led now, from the cards the mover sees (the first
    that holds): a higher card of the suit that is its Ace ("holds the Ace"); no card of the
    suit but a trump ("void with a trump"); anything else that may beat it, a hidden card in
    hand included ("can beat it"); a card of the suit, every one lower ("must follow under");
    none of these ("nothing seen": no card of the suit and no trump in sight)."""
    answers = view.answers(seat, card)
    suit = view.suit(card)
    same = [c for c in answers if view.suit(c) == suit]
    higher = [c for c in same if view.beats(c, card)]
    if any(c.rank == ACE for c in higher):
        return SHOWS[0]
    if not same and not view.is_trump(card) and any(view.is_trump(c) for c in answers):
        return SHOWS[1]
    if higher or view.may_beat(seat, card):
        return SHOWS[2]
    return SHOWS[3] if same else SHOWS[4]


def opponent_shows(view, advised=()) -> str | None:
    """At a lead: what the opponents show against the advised card (``shows_against``; of
    several opponents the most dangerous answer); "mixed" when the advised cards differ.
    None when following or when nothing is advised."""
    if view.trick or not advised:
        return None
    answers = {min((shows_against(view, s, c) for s in view.opponents()), key=SHOWS.index) for c in advised}
    return answers.pop() if len(answers) == 1 else "mixed"


# --- following ---------------------------------------------------------------------------------------

def card_wins(view, advised=()) -> str | None:
    """When following: whether the advised card beats the card now winning the trick ("yes",
    "no", or "some" of several).  None at a lead."""
    if not view.trick or not advised:
        return None
    wins = {view.would_win(c) for c in advised}
    return "some" if len(wins) > 1 else ("yes" if wins.pop() else "no")


def partner_winning(view) -> str | None:
    """When following with a partner: whether a partner's card now wins the trick."""
    if not view.trick or not view.partners():
        return None
    return "yes" if view.winning_seat() in view.partners() else "no"


def points_on_table(view) -> int:
    """The value of the cards in the trick in progress (0 at a lead)."""
    return sum(view.value(c) for c in view.trick)


def trumps_seen(view) -> int | None:
    """Trumps the mover has seen: his own, face-up ones, the played ones (None: no trumps)."""
    if view.rules.trump is None:
        return None
    seen = set(view.own()) | view.gone()
    seen |= {c for s in range(view.rules.seats) if s != view.seat for c in view.seen(s)}
    return sum(1 for c in seen if view.is_trump(c))


def trumps_unseen(view) -> int | None:
    """Trumps still in play that the mover has not seen (None: no trumps)."""
    if view.rules.trump is None:
        return None
    return sum(1 for c in view.unseen if view.is_trump(c))


BUILTIN: dict[str, Callable] = {"trick": trick, "stock_left": stock_left, "lead": lead, "seat": seat,
                                "trumps": trumps, "suit_seen": suit_seen, "opponent_shows": opponent_shows,
                                "card_wins": card_wins, "partner_winning": partner_winning,
                                "points_on_table": points_on_table, "trumps_seen": trumps_seen,
                                "trumps_unseen": trumps_unseen}
WITH_ADVICE = ("suit_seen", "opponent_shows", "card_wins")      # features of the advised cards too


def of_advice(view, advised) -> dict[str, object]:
    """The features that depend on the advised cards (``WITH_ADVICE``), for one tactic's advice."""
    return {name: BUILTIN[name](view, advised) for name in WITH_ADVICE}


def describe(view, advised, extra: dict[str, Callable] | None = None) -> dict[str, object]:
    """Every feature of a decision (``None`` where one does not apply, e.g. no stock)."""
    advice = of_advice(view, advised)
    out = {name: (advice[name] if name in WITH_ADVICE else f(view)) for name, f in BUILTIN.items()}
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

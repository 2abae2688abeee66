"""Built-in tactics for Scharwenzel: partnership play (seats 1+3 against 2+4, ...).

The old sources give no tactics for Scharwenzel; these are the partnership habits players of
related games (Schafkopf, whist) use, written down so that they can be tested.  Each tactic
reads only what the mover sees: his own hand, the cards played and what play revealed (a
failure to follow shows a void).  The mover's side is known to hold the matadors when each of
them is in his hand, or was played by him or by a partner; the other side may still hold a
trump unless every unseen trump is ruled out of its hands.  The old readings from the hands
as dealt are kept as ``double_dummy.scharwenzel.*``.
"""

from __future__ import annotations

from stich.games.scharwenzel import matador_order, matadors

from .base import tactic


def _trumps(view, cards) -> list:
    return [c for c in cards if view.is_trump(c)]


def _matadors_known(view) -> bool:
    """At a lead: the mover's side is known to hold ♣Q, T7 and ♠Q (in his hand, or played by
    him or a partner), the other side may still hold a trump, and the mover can lead one."""
    if not view.is_lead or view.rules.trump is None or not _trumps(view, view.legal):
        return False
    ours = set(view.own()) | {c for s in [view.seat, *view.partners()] for c in view.played_by(s)}
    if not set(matador_order(view.rules.trump)[:3]) <= ours:
        return False
    return any(_trumps(view, view.may_hold(s)) for s in view.opponents())


@tactic("scharwenzel.matadors_lead_trumps", "scharwenzel")
def matadors_lead_trumps(view):
    """A side holding the matadors leads trumps first.

    Source: partnership practice ("wer die Matadore hat, spielt Trumpf aus"), no old source.
    Formalisation: applies at a lead when the mover's side is known to hold the matadors (♣Q,
    T7, ♠Q each in the mover's hand or played by him or a partner), the other side may still
    hold a trump and the mover has one; advises every trump the mover holds.
    """
    return _trumps(view, view.legal) if _matadors_known(view) else None


@tactic("scharwenzel.matadors_lead_high_trump", "scharwenzel")
def matadors_lead_high_trump(view):
    """A side holding the matadors leads its highest trump first.

    Source: as scharwenzel.matadors_lead_trumps.
    Formalisation: as matadors_lead_trumps, advising only the mover's highest trump.
    """
    if not _matadors_known(view):
        return None
    return [max(_trumps(view, view.legal), key=lambda c: view.rules.power[c])]


@tactic("scharwenzel.no_overtake_partner", "scharwenzel")
def no_overtake_partner(view):
    """Do not overtake a trick your partner is already winning.

    Source: partnership practice ("dem Partner nicht überstechen"), no old source.
    Formalisation: applies when a partner's card is winning the trick in progress and the mover
    has both cards that would win it and cards that would not; advises those that would not.
    """
    if view.is_lead or view.winning_seat() not in view.partners():
        return None
    return [c for c in view.legal if not view.would_win(c)]


@tactic("scharwenzel.return_partner_suit", "scharwenzel")
def return_partner_suit(view):
    """Return the suit your partner led.

    Source: partnership practice ("Partners Farbe zurückspielen"), no old source.
    Formalisation: applies at a lead when a partner led a plain (non-trump) suit in an earlier
    trick and the mover can lead that suit (the partner's most recent plain lead); advises the
    mover's cards of that suit.
    """
    if not view.is_lead:
        return None
    partners = set(view.partners())
    for trick in reversed(view.history):
        lead = trick.cards[0]
        if trick.leader in partners and not view.is_trump(lead):
            return view.same_suit(lead, view.legal)
    return None


# --- the old double-dummy readings (the hands as dealt) ----------------------------------------------

def _dd_matador_side_leads(view) -> bool:
    if not view.is_lead or view.rules.trump is None:
        return False
    side, _, _ = matadors(view.deal.hands, view.rules.trump)
    if side != view.side:
        return False
    theirs = [c for s in view.opponents() for c in view.held(s) if view.is_trump(c)]
    return bool(theirs) and bool(_trumps(view, view.legal))


@tactic("double_dummy.scharwenzel.matadors_lead_trumps", "scharwenzel")
def dd_matadors_lead_trumps(view):
    """A side holding the matadors leads trumps first (reading every card: for comparison only).

    Source: as scharwenzel.matadors_lead_trumps.
    Formalisation: the old reading, double dummy: the side holds the matadors in the hands as
    dealt (the partner's hand included) and the other side holds a trump.
    """
    return _trumps(view, view.legal) if _dd_matador_side_leads(view) else None


@tactic("double_dummy.scharwenzel.matadors_lead_high_trump", "scharwenzel")
def dd_matadors_lead_high_trump(view):
    """A side holding the matadors leads its highest trump (reading every card: comparison only).

    Source: as scharwenzel.matadors_lead_trumps.
    Formalisation: as double_dummy.scharwenzel.matadors_lead_trumps, advising the highest trump.
    """
    if not _dd_matador_side_leads(view):
        return None
    return [max(_trumps(view, view.legal), key=lambda c: view.rules.power[c])]

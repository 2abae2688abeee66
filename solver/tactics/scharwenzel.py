"""Built-in tactics for Scharwenzel: partnership play (seats 1+3 against 2+4, ...).

The old sources give no tactics for Scharwenzel; these are the partnership habits players of
related games (Schafkopf, whist) use, written down so that they can be tested.
"""

from __future__ import annotations

from solver.games.scharwenzel import matadors

from .base import View, tactic


def _matador_side_leads(view: View) -> bool:
    if not view.is_lead or view.rules.trump is None:
        return False
    side, count, _ = matadors(view.deal.hands, view.rules.trump)
    if side != view.side:
        return False
    theirs = [c for s in view.opponents() for c in view.held(s) if view.rules.is_trump(c)]
    return bool(theirs) and any(view.rules.is_trump(c) for c in view.legal)


@tactic("scharwenzel.matadors_lead_trumps", "scharwenzel")
def matadors_lead_trumps(view: View):
    """A side holding the matadors leads trumps first.

    Source: partnership practice ("wer die Matadore hat, spielt Trumpf aus"), no old source.
    Formalisation: applies at a lead when the mover's side holds the matadors (♣Q, T7, ♠Q
    between its players, as dealt), the other side still holds a trump and the mover has one;
    advises every trump the mover holds.
    """
    return [c for c in view.legal if view.rules.is_trump(c)] if _matador_side_leads(view) else None


@tactic("scharwenzel.matadors_lead_high_trump", "scharwenzel")
def matadors_lead_high_trump(view: View):
    """A side holding the matadors leads its highest trump first.

    Source: as scharwenzel.matadors_lead_trumps.
    Formalisation: as matadors_lead_trumps, advising only the mover's highest trump.
    """
    if not _matador_side_leads(view):
        return None
    trumps = [c for c in view.legal if view.rules.is_trump(c)]
    return [max(trumps, key=lambda c: view.rules.power[c])]


@tactic("scharwenzel.no_overtake_partner", "scharwenzel")
def no_overtake_partner(view: View):
    """Do not overtake a trick your partner is already winning.

    Source: partnership practice ("dem Partner nicht überstechen"), no old source.
    Formalisation: applies when a partner's card is winning the trick in progress and the mover
    has both cards that would win it and cards that would not; advises those that would not.
    """
    if view.is_lead or view.winning_seat() not in view.partners():
        return None
    low = [c for c in view.legal if not view.would_win(c)]
    return low if 0 < len(low) < len(view.legal) else None


@tactic("scharwenzel.return_partner_suit", "scharwenzel")
def return_partner_suit(view: View):
    """Return the suit your partner led.

    Source: partnership practice ("Partners Farbe zurückspielen"), no old source.
    Formalisation: applies at a lead when a partner led a plain (non-trump) suit in an earlier
    trick and the mover can lead that suit (the partner's most recent plain lead); advises the
    mover's cards of that suit.
    """
    if not view.is_lead:
        return None
    partners = set(view.partners())
    for record in reversed(view.position.history):
        lead = record.cards[0]
        if record.leader in partners and not view.rules.is_trump(lead):
            same = view.same_suit(lead, view.legal)
            return same if 0 < len(same) < len(view.legal) else None
    return None

"""Built-in tactics for two-handed Wendish Schafkopf (Schafkopf zu zweien).

Source of the sentences: the old German rule text of "Schafkopf zu zweien" quoted in the issue
(issue 8) and rules.md §2.  Double dummy: "held" means every card of the seat's piles, the
face-down ones included; "playable" the face-up tops.
"""

from __future__ import annotations

from solver.model.cards import ACE, TEN, Card

from .base import View, tactic


def _bare_tens(view: View) -> list[Card]:
    """The mover's legal plain tens that are bare (the only card of their suit it holds) and
    not yet the highest of their suit (the Ace of the suit has not been played)."""
    held = view.held()
    gone = set(view.played()) | set(view.trick)
    tens = []
    for card in view.legal:
        if card.rank != TEN or view.rules.is_trump(card):
            continue
        if len(view.same_suit(card, held)) != 1:
            continue
        if Card(card.suit, ACE) in gone:
            continue
        tens.append(card)
    return tens


@tactic("schafkopf2.bare_ten.lead_at_once", "schafkopf2")
def bare_ten_lead_at_once(view: View):
    """Bring a bare ten to safety: lead it at once.

    Source: "man merke sich, daß man eine blanke Zehn möglichst schnell in Sicherheit bringt"
    (remember to bring a bare ten to safety as quickly as possible).
    Formalisation: applies at every lead where the mover can lead (face up) a plain ten that is
    the only card of its suit among all 16-or-fewer cards it still holds (face-down included)
    and whose Ace has not been played; advises leading such tens.
    """
    return _bare_tens(view) if view.is_lead else None


@tactic("schafkopf2.bare_ten.first_winning_trick", "schafkopf2")
def bare_ten_first_winning_trick(view: View):
    """Bring a bare ten to safety: play it to the first trick it wins.

    Source: as schafkopf2.bare_ten.lead_at_once ("... eine blanke Zehn möglichst schnell in
    Sicherheit bringt").
    Formalisation: applies when the mover follows (second to a trick) and may play a bare ten
    (as in lead_at_once) that beats the card led, so the trick is certainly its own; advises
    those tens.  In this game that is nearly always a forced card (a bare ten that beats the
    card led is the mover's only card of the suit led), and forced cards are not decisions,
    so this reading is rarely tested; see lead_when_it_wins.
    """
    if view.is_lead:
        return None
    return [c for c in _bare_tens(view) if view.would_win(c)]


@tactic("schafkopf2.bare_ten.lead_when_it_wins", "schafkopf2")
def bare_ten_lead_when_it_wins(view: View):
    """Bring a bare ten to safety: lead it as soon as the lead wins the trick.

    Source: as schafkopf2.bare_ten.lead_at_once.
    Formalisation: applies at a lead where the mover can lead a bare ten (as in lead_at_once)
    that no legal reply of the opponent (its face-up cards, under the follow rule) beats;
    advises those tens.
    """
    if not view.is_lead:
        return None
    safe = []
    for ten in _bare_tens(view):
        trial = view.position.copy()
        trial.play(ten)
        if not any(view.beats(reply, ten) for reply in trial.legal_moves()):
            safe.append(ten)
    return safe


@tactic("schafkopf2.bare_ten.asap", "schafkopf2")
def bare_ten_asap(view: View):
    """Bring a bare ten to safety at the first chance: lead it, or win a trick with it.

    Source: as schafkopf2.bare_ten.lead_at_once.
    Formalisation: the union of lead_at_once (at a lead) and first_winning_trick (following).
    """
    if view.is_lead:
        return _bare_tens(view)
    return [c for c in _bare_tens(view) if view.would_win(c)]


def _trumps(view: View, cards) -> list[Card]:
    return [c for c in cards if view.rules.is_trump(c)]


def _can_pull(view: View) -> bool:
    """At a lead: the opponent still holds a trump and the mover holds more trumps than it."""
    if not view.is_lead:
        return False
    mine = _trumps(view, view.held())
    theirs = [c for s in view.opponents() for c in _trumps(view, view.held(s))]
    return bool(theirs) and len(mine) > len(theirs)


@tactic("schafkopf2.pull_trumps.any", "schafkopf2")
def pull_trumps_any(view: View):
    """Pull the opponent's trumps when you can: lead any trump.

    Source: "Kann man die Trümpfe des Gegners abholen, so besorgt man dies nach Möglichkeit"
    (if you can fetch the opponent's trumps, do so whenever possible).
    Formalisation: applies at a lead when the opponent holds at least one trump and the mover
    holds more trumps than the opponent (all held cards, face-down included) and can lead one;
    advises every trump it can lead.
    """
    return _trumps(view, view.legal) if _can_pull(view) else None


@tactic("schafkopf2.pull_trumps.highest", "schafkopf2")
def pull_trumps_highest(view: View):
    """Pull the opponent's trumps when you can: lead your highest playable trump.

    Source: as schafkopf2.pull_trumps.any.
    Formalisation: as pull_trumps.any, advising only the highest trump the mover can lead.
    """
    if not _can_pull(view):
        return None
    trumps = _trumps(view, view.legal)
    return [max(trumps, key=lambda c: view.rules.power[c])] if trumps else None


@tactic("schafkopf2.pull_trumps.master", "schafkopf2")
def pull_trumps_master(view: View):
    """Pull the opponent's trumps when you surely can: lead a trump it cannot beat.

    Source: as schafkopf2.pull_trumps.any ("kann man ... abholen": only when one can).
    Formalisation: as pull_trumps.any, but applies only when the mover's highest playable trump
    beats every trump the opponent holds; advises that trump.
    """
    if not _can_pull(view):
        return None
    trumps = _trumps(view, view.legal)
    if not trumps:
        return None
    top = max(trumps, key=lambda c: view.rules.power[c])
    theirs = [c for s in view.opponents() for c in _trumps(view, view.held(s))]
    return [top] if all(view.beats(top, c) for c in theirs) else None

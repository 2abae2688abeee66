"""Built-in tactics for two-handed Wendish Schafkopf (Schafkopf zu zweien).

Source of the sentences: the old German rule text of "Schafkopf zu zweien" quoted
in rules.md §2.  Each tactic reads only what the mover sees: his face-up cards (his own
face-down cards are as unknown to him as the opponent's), the opponent's face-up cards, the
cards played.  "Bare" means bare among the mover's face-up cards.  The opponent "may still
hold" a trump when one lies face up in his piles or a trump is unseen (it may lie face down
under his cards); he is "known to hold" one only when it lies face up.

The double-dummy readings of the old studies (every card, face-down ones included) are kept
under ``double_dummy.schafkopf2.*``: they read cards nobody at the table has seen, so they are
for comparison only.
"""

from __future__ import annotations

from stich.model.cards import ACE, TEN, Card

from .base import tactic

# --- bring a bare ten to safety ------------------------------------------------------------------


def bare_tens(view, cards: list[Card]) -> list[Card]:
    """The mover's legal plain tens that are the only card of their suit among ``cards`` and
    not yet the highest of their suit (its Ace has not been played)."""
    gone = view.gone()
    tens = []
    for card in view.legal:
        if card.rank != TEN or view.is_trump(card):
            continue
        if len(view.same_suit(card, cards)) != 1 or Card(card.suit, ACE) in gone:
            continue
        tens.append(card)
    return tens


def _leads_that_win(view, tens: list[Card]) -> list[Card]:
    return [ten for ten in tens if not any(view.may_beat(s, ten) for s in view.opponents())]


@tactic("schafkopf2.bare_ten.lead_at_once", "schafkopf2")
def bare_ten_lead_at_once(view):
    """Bring a bare ten to safety: lead it at once.

    Source: "man merke sich, daß man eine blanke Zehn möglichst schnell in Sicherheit bringt"
    (remember to bring a bare ten to safety as quickly as possible).
    Formalisation: applies at a lead where the mover can lead a plain ten that is the only
    card of its suit among his face-up cards, and whose Ace has not been played; advises
    leading such tens.
    """
    return bare_tens(view, view.own()) if view.is_lead else None


@tactic("schafkopf2.bare_ten.first_winning_trick", "schafkopf2")
def bare_ten_first_winning_trick(view):
    """Bring a bare ten to safety: play it to the first trick it wins.

    Source: as schafkopf2.bare_ten.lead_at_once.
    Formalisation: applies when the mover follows and may play a bare ten (as in
    lead_at_once) that beats the card led; advises those tens.  In this game that is nearly
    always a forced card, and forced cards are not decisions, so this reading is rarely tested.
    """
    if view.is_lead:
        return None
    return [c for c in bare_tens(view, view.own()) if view.would_win(c)]


@tactic("schafkopf2.bare_ten.lead_when_it_wins", "schafkopf2")
def bare_ten_lead_when_it_wins(view):
    """Bring a bare ten to safety: lead it as soon as the lead wins the trick.

    Source: as schafkopf2.bare_ten.lead_at_once.
    Formalisation: applies at a lead where the mover can lead a bare ten (as in lead_at_once)
    that none of the opponent's face-up cards may beat under the follow rule; advises those tens.
    """
    return _leads_that_win(view, bare_tens(view, view.own())) if view.is_lead else None


@tactic("schafkopf2.bare_ten.asap", "schafkopf2")
def bare_ten_asap(view):
    """Bring a bare ten to safety at the first chance: lead it, or win a trick with it.

    Source: as schafkopf2.bare_ten.lead_at_once.
    Formalisation: the union of lead_at_once (at a lead) and first_winning_trick (following).
    """
    tens = bare_tens(view, view.own())
    return tens if view.is_lead else [c for c in tens if view.would_win(c)]


# --- pull the opponent's trumps ----------------------------------------------------------------------

def _trumps(view, cards) -> list[Card]:
    return [c for c in cards if view.is_trump(c)]


def _can_pull(view, known: bool) -> bool:
    """At a lead: the opponent may still hold a trump (``known``: holds one face up), and the
    mover has more face-up trumps than the opponent shows, one of which he can lead."""
    if not view.is_lead or not _trumps(view, view.legal):
        return False
    opponent = view.opponents()[0]
    theirs = _trumps(view, view.surely_holds(opponent) if known else view.may_hold(opponent))
    return bool(theirs) and len(_trumps(view, view.own())) > len(_trumps(view, view.seen(opponent)))


def _highest(view, cards: list[Card]) -> Card:
    return max(cards, key=lambda c: view.rules.power[c])


@tactic("schafkopf2.pull_trumps.any", "schafkopf2")
def pull_trumps_any(view):
    """Pull the opponent's trumps when you can: lead any trump.

    Source: "Kann man die Trümpfe des Gegners abholen, so besorgt man dies nach Möglichkeit"
    (if you can fetch the opponent's trumps, do so whenever possible).
    Formalisation: applies at a lead when the opponent may still hold a trump (face up, or an
    unseen trump that may lie face down in his piles) and the mover has more face-up trumps
    than the opponent shows; advises every trump the mover can lead.
    """
    return _trumps(view, view.legal) if _can_pull(view, known=False) else None


@tactic("schafkopf2.pull_trumps.any_known", "schafkopf2")
def pull_trumps_any_known(view):
    """Pull the opponent's trumps when he is known to hold one: lead any trump.

    Source: as schafkopf2.pull_trumps.any.
    Formalisation: as pull_trumps.any, but applies only when the opponent surely holds a trump
    (one lies face up in his piles).
    """
    return _trumps(view, view.legal) if _can_pull(view, known=True) else None


@tactic("schafkopf2.pull_trumps.highest", "schafkopf2")
def pull_trumps_highest(view):
    """Pull the opponent's trumps when you can: lead your highest playable trump.

    Source: as schafkopf2.pull_trumps.any.
    Formalisation: as pull_trumps.any, advising only the highest trump the mover can lead.
    """
    return [_highest(view, _trumps(view, view.legal))] if _can_pull(view, known=False) else None


@tactic("schafkopf2.pull_trumps.highest_known", "schafkopf2")
def pull_trumps_highest_known(view):
    """Pull the opponent's trumps when he is known to hold one: lead your highest trump.

    Source: as schafkopf2.pull_trumps.any.
    Formalisation: as pull_trumps.any_known, advising only the highest trump the mover can lead.
    """
    return [_highest(view, _trumps(view, view.legal))] if _can_pull(view, known=True) else None


@tactic("schafkopf2.pull_trumps.master", "schafkopf2")
def pull_trumps_master(view):
    """Pull the opponent's trumps when you surely can: lead a trump he cannot beat.

    Source: as schafkopf2.pull_trumps.any ("kann man ... abholen": only when one can).
    Formalisation: as pull_trumps.any, but applies only when the mover's highest playable trump
    beats every trump the opponent may hold (face up or unseen); advises that trump.
    """
    if not _can_pull(view, known=False):
        return None
    top = _highest(view, _trumps(view, view.legal))
    theirs = _trumps(view, view.may_hold(view.opponents()[0]))
    return [top] if all(view.beats(top, c) for c in theirs) else None


# --- the old double-dummy readings (every card, face-down ones included) ----------------------------

def _dd_can_pull(view) -> bool:
    if not view.is_lead:
        return False
    theirs = [c for s in view.opponents() for c in _trumps(view, view.held(s))]
    return bool(theirs) and len(_trumps(view, view.held())) > len(theirs)


@tactic("double_dummy.schafkopf2.bare_ten.lead_at_once", "schafkopf2")
def dd_bare_ten_lead_at_once(view):
    """Bring a bare ten to safety: lead it at once (reading every card: for comparison only).

    Source: as schafkopf2.bare_ten.lead_at_once.
    Formalisation: the old reading, double dummy: "bare" counts the mover's face-down cards
    too, which nobody at the table has seen.
    """
    return bare_tens(view, view.held()) if view.is_lead else None


@tactic("double_dummy.schafkopf2.pull_trumps.any", "schafkopf2")
def dd_pull_trumps_any(view):
    """Pull the opponent's trumps: lead any trump (reading every card: for comparison only).

    Source: as schafkopf2.pull_trumps.any.
    Formalisation: the old reading, double dummy: the opponent holds a trump and the mover more
    trumps than he, counting every face-down card.
    """
    return _trumps(view, view.legal) if _dd_can_pull(view) else None


@tactic("double_dummy.schafkopf2.pull_trumps.highest", "schafkopf2")
def dd_pull_trumps_highest(view):
    """Pull the opponent's trumps: lead the highest (reading every card: for comparison only).

    Source: as schafkopf2.pull_trumps.any.
    Formalisation: as double_dummy.schafkopf2.pull_trumps.any, advising the highest trump.
    """
    trumps = _trumps(view, view.legal)
    return [_highest(view, trumps)] if _dd_can_pull(view) and trumps else None

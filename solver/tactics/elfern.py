"""Built-in tactics for Elfern: the seven pieces of advice of the tactics section.

Source: Wikipedia "Elfern" (tactics section, German article; the English article carries
the same advice, e.g. "One should try to use these near the end of the game because, by
then, most of the blanks have been discarded and one can now reckon on winning an honour
with almost every trick").  The German sentences could not be retrieved verbatim while this
was written; each docstring gives the advice as the sources state it (English) and the exact
formalisation.  Words: an *honour* (Figur) is A K Q J 10; a *non-counter* (blank, leere
Karte) is 9 8 7; *early* is while at least half the stock (10 cards) is left; *near the end*
is when the stock has at most 4 cards (two draws) or is gone.  Each tactic reads only what the
mover sees: his hand, the cards played, the size of the stock; the opponent "surely cannot
beat" a card when no card he may hold beats it.  The old double-dummy reading of
``late_take_lead`` is kept as ``double_dummy.elfern.late_take_lead``.
"""

from __future__ import annotations

from stich.model.cards import ACE, TEN

from .base import tactic

EARLY_STOCK = 10
LATE_STOCK = 4


def honour(view, card) -> bool:
    return view.value(card) > 0


def early(view) -> bool:
    return view.stock_size >= EARLY_STOCK


def late(view) -> bool:
    return view.stock_size <= LATE_STOCK


@tactic("elfern.singleton_ten", "elfern")
def singleton_ten(view):
    """A singleton ten is played the first time the opponent plays a non-counter of its suit.

    Source: Wikipedia "Elfern", tactics (a bare ten is safe only when it wins a blank).
    Formalisation: applies when the mover follows a non-counter (9 8 7) led by the opponent,
    holds the ten of that suit as its only card of the suit, and may play it; advises the ten.
    """
    if view.is_lead:
        return None
    led = view.trick[0]
    if honour(view, led):
        return None
    suit = view.same_suit(led, view.own())
    if len(suit) == 1 and suit[0].rank == TEN and suit[0] in view.legal:
        return suit
    return None


@tactic("elfern.no_win_on_noncounter", "elfern")
def no_win_on_noncounter(view):
    """Do not win a trick in which the opponent played a non-counter.

    Source: Wikipedia "Elfern", tactics ("do not win a trick in which the opponent played a
    non-counter, but take an honour at once"), first half.
    Formalisation: applies when the mover follows a non-counter and has both cards that win
    the trick and cards that do not; advises the cards that do not win.
    """
    if view.is_lead or honour(view, view.trick[0]):
        return None
    losing = [c for c in view.legal if not view.would_win(c)]
    return losing


@tactic("elfern.take_honour", "elfern")
def take_honour(view):
    """Take an honour at once.

    Source: Wikipedia "Elfern", tactics, second half of the sentence above.
    Formalisation: applies when the mover follows an honour and can win the trick; advises
    the cards that win it.
    """
    if view.is_lead or not honour(view, view.trick[0]):
        return None
    return [c for c in view.legal if view.would_win(c)] or None


@tactic("elfern.follow_sequence", "elfern")
def follow_sequence(view):
    """With two or more cards in sequence, keep playing the suit once the first has won an honour.

    Source: Wikipedia "Elfern", tactics.
    Formalisation: applies at a lead right after the mover won the previous trick by leading a
    card that captured an honour of the opponent in its suit, when the mover holds the next
    lower card of that suit still in play (cards already played do not break a sequence);
    advises leading the cards of that suit.
    """
    if not view.is_lead or not view.history:
        return None
    last = view.history[-1]
    if last.leader != view.seat or last.winner != view.seat:
        return None
    lead, reply = last.cards[0], last.cards[1]
    if not honour(view, reply) or view.suit(reply) != view.suit(lead):
        return None
    gone = view.gone()
    order = view.rules.plain[view.suit(lead)]
    below = [c for c in order[order.index(lead) + 1:] if c not in gone]
    if not below or below[0] not in view.legal:
        return None
    return view.same_suit(lead, view.legal)


@tactic("elfern.early_lose_noncounters", "elfern")
def early_lose_noncounters(view):
    """Early on, lose the non-counters (and keep the suits the opponent cannot beat).

    Source: Wikipedia "Elfern", tactics ("early on, lose the non-counters and keep suits the
    opponent cannot beat").
    Formalisation: applies early (stock of 10 or more) when the mover has both non-counters and
    honours it may play; advises its non-counters.
    """
    if not early(view):
        return None
    blanks = [c for c in view.legal if not honour(view, c)]
    return blanks


def _take_lead(view, theirs) -> list | None:
    """Following: the cards that win; leading: the cards no card of ``theirs`` beats."""
    if not view.is_lead:
        return [c for c in view.legal if view.would_win(c)] or None
    safe = [c for c in view.legal if not any(view.beats(o, c) for o in theirs)]
    return safe or None


@tactic("elfern.late_take_lead", "elfern")
def late_take_lead(view):
    """Near the end, gain the lead and keep it.

    Source: Wikipedia "Elfern", tactics ("near the end, gain the lead and keep it"; the English
    article: "by then, most of the blanks have been discarded and one can now reckon on
    winning an honour with almost every trick").
    Formalisation: applies near the end (stock of 4 or fewer).  Following: advises the cards
    that win the trick, if any.  Leading: advises the cards the opponent surely cannot beat
    (no card he may hold beats them), if any.
    """
    if not late(view):
        return None
    return _take_lead(view, view.may_hold(view.opponents()[0]))


@tactic("double_dummy.elfern.late_take_lead", "elfern")
def dd_late_take_lead(view):
    """Near the end, gain the lead and keep it (reading every card: for comparison only).

    Source: as elfern.late_take_lead.
    Formalisation: the old reading, double dummy: leading, the cards the opponent's actual
    hand cannot beat, which the mover does not see while the stock lasts.
    """
    if not late(view):
        return None
    return _take_lead(view, [c for s in view.opponents() for c in view.held(s)])


@tactic("elfern.no_early_ace", "elfern")
def no_early_ace(view):
    """Do not play the Ace early without capturing an honour.

    Source: Wikipedia "Elfern", tactics.
    Formalisation: applies early (stock of 10 or more) when the mover may play an Ace and has
    other cards, unless it follows an honour of an Ace's suit (then the Ace captures it);
    advises every legal card but the Aces.
    """
    if not early(view):
        return None
    aces = [c for c in view.legal if c.rank == ACE]
    if not aces:
        return None
    if not view.is_lead and honour(view, view.trick[0]) and \
            any(view.suit(a) == view.suit(view.trick[0]) for a in aces):
        return None
    return [c for c in view.legal if c.rank != ACE]

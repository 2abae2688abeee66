"""An example tactic file for `stich tactic --tactic-file examples/my_tactic.py`.

A tactic is a function of one argument, what the mover sees at a decision, that returns the
cards it advises (a subset of ``view.legal``), or None when it does not apply.  Advice that
names every legal card says nothing and counts as not applying.  Its docstring's first line is
the advice the reports quote (its name where it has none).  List the functions in TACTICS,
under the names used on the command line (a built-in tactic's name is refused):

    stich tactic cash_aces --tactic-file examples/my_tactic.py --game scharwenzel --deals 200

What the view offers (solver/tactics/view.py; seats are 0-based, seat 1 of the deal file is 0).
It holds only what the mover sees: asking for a hidden card (another seat's hand, a face-down
card, view.deal) stops the study with one line saying so.  The view is read, never changed:
its course of play (seat, rules, legal, trick, leader, history, stock_size) cannot be set.

    view.legal            the legal cards of the mover (tuple of Card)
    view.seat, view.side  the mover and its side (seat % 2);  view.partners(), view.opponents()
    view.is_lead          True at the start of a trick;  view.trick: the cards played to it
    view.own()            the mover's cards he can see (his hand; of piles, the face-up cards)
    view.seen(seat)       the cards of a seat the mover can see (face-up cards)
    view.may_hold(seat)   what a seat may hold: seen, or unseen and not ruled out by play
    view.surely_holds(seat)  what it holds on every layout the mover cannot tell apart
    view.may_beat(seat, card)  might that seat beat ``card`` if it were led now?
    view.unseen           every card still in play that the mover cannot see
    view.history          finished tricks (leader, cards, winner);  view.played(), view.gone()
    view.winning()        the card now winning the trick;  view.would_win(card)
    view.suit(card), view.is_trump(card), view.rules.power[card], view.value(card)
    view.stock_size       cards left in the stock

A Card has .suit and .rank (stich.model.cards: ACE=14, KING=13, QUEEN=12, JACK=11, TEN=10, ...).
FEATURES adds features of a decision that `stich tactic --by NAME` breaks the tables down by.
"""

from stich.model.cards import ACE


def play_high_on_lead(view):
    """Lead your highest card (by trick-taking power); applies at every lead."""
    if not view.is_lead:
        return None
    return [max(view.legal, key=lambda card: view.rules.power[card])]


def cash_aces(view):
    """Lead an Ace that no opponent may trump or beat in its suit."""
    if not view.is_lead:
        return None
    return [card for card in view.legal if card.rank == ACE and not view.is_trump(card)
            and not any(view.may_beat(s, card) for s in view.opponents())] or None


def aces_seen(view):
    """How many Aces the mover has seen: his own, face up and played."""
    seen = set(view.own()) | view.gone() | {c for s in view.opponents() for c in view.seen(s)}
    return sum(1 for card in seen if card.rank == ACE)


TACTICS = {"play_high_on_lead": play_high_on_lead, "cash_aces": cash_aces}
FEATURES = {"aces_seen": aces_seen}

"""An example tactic file for `stich tactic --tactic-file examples/my_tactic.py`.

A tactic is a function of one argument, a read-only view of the position where a card is to
be played, that returns the cards it advises (a subset of ``view.legal``), or None when it
does not apply.  List the functions in TACTICS, under the names used on the command line:

    stich tactic play_high_on_lead --tactic-file examples/my_tactic.py --game scharwenzel --deals 200

What the view offers (see solver/tactics/base.py; seats are 0-based, seat 1 of the deal
file is 0):

    view.legal          the legal cards of the player to move (tuple of Card)
    view.seat           the seat to move;  view.side: its side (seat % 2)
    view.is_lead        True at the start of a trick;  view.trick: the cards played to it
    view.held(seat)     every card a seat holds (default: the mover; face-down cards included)
    view.winning()      the card now winning the trick;  view.would_win(card)
    view.suit(card)     the effective suit;  view.rules.is_trump(card), view.rules.power[card]
    view.value(card)    the card's value in the game (points, honours; 0 in Scharwenzel)
    view.played()       the cards of finished tricks;  view.position: the referee itself
    view.deal           the deal (solver.deals.deal.Deal);  view.opponents(), view.partners()

A Card has .suit and .rank (solver.model.cards: ACE=14, KING=13, QUEEN=12, JACK=11, TEN=10, ...).
"""

from solver.model.cards import ACE


def play_high_on_lead(view):
    """Lead your highest card (by trick-taking power); applies at every lead."""
    if not view.is_lead:
        return None
    return [max(view.legal, key=lambda card: view.rules.power[card])]


def cash_aces(view):
    """Lead an Ace when you have one that is not a trump."""
    if not view.is_lead:
        return None
    return [card for card in view.legal if card.rank == ACE and not view.rules.is_trump(card)] or None


TACTICS = {"play_high_on_lead": play_high_on_lead, "cash_aces": cash_aces}

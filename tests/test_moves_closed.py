"""A Ctrl-C that arrives while a loop over ``Session.moves`` is left early is not lost.

Such a loop pops its child move when the generator is closed.  Closed by the garbage
collector, Python would print "Exception ignored" and swallow the KeyboardInterrupt, and the
command would go on and exit 0; the callers that leave the loop early close it themselves."""

from __future__ import annotations

import sys

import pytest

from stich.deals.dealing import random_deal
from stich.search import lines
from stich.search import session as session_module
from stich.search.session import Session
from stich.search.solve import new_engine, solve


def ctrl_c_when_moves_pops(monkeypatch):
    """Ctrl-C (a KeyboardInterrupt) just as a loop over ``Session.moves`` left early pops
    its child (the generator is being closed)."""
    real_exit = session_module._After.__exit__

    def exit_then_interrupt(self, exc_type, *rest):
        real_exit(self, exc_type, *rest)
        if exc_type is GeneratorExit and sys._getframe(1).f_code.co_name == "moves":
            raise KeyboardInterrupt

    monkeypatch.setattr(session_module._After, "__exit__", exit_then_interrupt)


def test_ctrl_c_as_the_line_leaves_its_loop_is_raised():
    """The line's step returns from inside its loop over the cards (Mariage: the score's
    line is walked card by card): the Ctrl-C reaches the caller."""
    deal = random_deal("schafkopf2", 1, players=2, rules={"mariage": True})
    engine = new_engine(4)
    rank = solve(deal, engine=engine, threads=1).outcome.rank
    session = Session(deal, deal.position(), engine)
    value = session.value()
    assert lines._step(session, value, rank, False)        # the step itself finds a card
    with pytest.raises(KeyboardInterrupt), pytest.MonkeyPatch.context() as patch:
        ctrl_c_when_moves_pops(patch)
        lines._step(session, value, rank, False)

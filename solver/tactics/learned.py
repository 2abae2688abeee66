"""A learned rule as a tactic: follow a piece of advice only where a condition on what the
mover sees holds, and otherwise play one of the other cards.

A rule is an old tactic (its *base*) and a condition in disjunctive form: a list of paths,
each a list of tests ``(feature, op, value)`` on the decision's features
(``features.describe`` of the base's advised cards), ``op`` one of ``==``, ``!=``, ``<=``,
``>``.  Where the base is silent the rule is silent; where it advises and some path holds,
the rule advises the same cards; elsewhere it advises the *fallback*: at a lead, the other
cards that no card the opponents may hold can beat (``PlayerView.may_beat``), or every other
card when there is none; when following, every other card (a player who leaves the advice
aside still has to play something he can see, so the rule is never silent where its base
speaks).  ``stich tactic --learn`` writes rules as tactic files made of
``learned_tactic`` calls; they rerun like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import Tactic
from .features import describe

Test = tuple[str, str, object]
MISSING = -1.0                       # a number feature that does not apply (None) compares as this


def holds(features: dict, test: Sequence) -> bool:
    """Does one test hold on a decision's features?"""
    name, op, value = test
    have = features.get(name)
    if op == "==":
        return have == value
    if op == "!=":
        return have != value
    number = MISSING if have is None or isinstance(have, str) else float(have)
    if op == "<=":
        return number <= float(value)
    if op == ">":
        return number > float(value)
    raise ValueError(f"unknown test {op!r} (use ==, !=, <= or >)")


def follows(features: dict, paths: Sequence[Sequence[Sequence]]) -> bool:
    """Does the rule say to follow the advice here (some path holds in full)?"""
    return any(all(holds(features, test) for test in path) for path in paths)


def fallback(view, advised) -> list:
    """What the rule plays where it leaves the advice aside (see the module doc)."""
    others = [c for c in view.legal if c not in advised]
    if view.is_lead:
        safe = [c for c in others if not any(view.may_beat(s, c) for s in view.opponents())]
        return safe or others
    return others


def learned_tactic(name: str, base: str, paths: list, sentence: str = "", game: str | None = None,
                   base_file: str | None = None) -> Tactic:
    """The rule as a tactic (see the module doc); ``base_file``: the tactic file of the base."""
    from . import get
    from .loader import load_file
    extra = load_file(base_file).tactics if base_file else None
    old = get(base, extra)
    if old.sees_all:
        raise ValueError(f"{base} reads every card: a rule for players cannot follow it")

    def advise(view):
        advised = old(view)
        if not advised:
            return None
        if follows(describe(view, advised), paths):
            return advised
        return fallback(view, advised) or None

    return Tactic(name, game if game is not None else old.game, advise, sentence or f"Learned from {base}.")

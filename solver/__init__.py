"""stich: exact double-dummy solving of Scharwenzel, two-handed Wendish Schafkopf and Elfern.

    >>> import stich
    >>> deal = stich.load("examples/elfern-ending.toml")        # doctest: +SKIP
    >>> result = stich.solve(deal)                               # doctest: +SKIP
    >>> result.totals, result.line[:2], result.nodes              # doctest: +SKIP

The names below are imported on first use (PEP 562), not by ``import stich``: the command line
imports this package before it can install its Ctrl-C handling, so importing it must be quick.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:       # what __getattr__ gives, for type checkers and the API docs (never run)
    from stich.core.anytime import Limits
    from stich.deals.deal import Deal, DealError, Pile, load, loads
    from stich.games import GAMES
    from stich.model.cards import Card, parse_card, parse_cards
    from stich.model.outcome import Outcome
    from stich.model.position import IllegalMove, Position
    from stich.search.objectives import SolverError
    from stich.search.solve import MoveValue, Result, solve

_WHERE = {"Limits": "stich.core.anytime",
          **dict.fromkeys(["Deal", "DealError", "Pile", "load", "loads"], "stich.deals.deal"),
          **dict.fromkeys(["Card", "parse_card", "parse_cards"], "stich.model.cards"),
          "Outcome": "stich.model.outcome",
          **dict.fromkeys(["IllegalMove", "Position"], "stich.model.position"),
          "SolverError": "stich.search.objectives",
          **dict.fromkeys(["MoveValue", "Result", "solve"], "stich.search.solve"),
          "GAMES": "stich.games"}

__all__ = ["Card", "Deal", "DealError", "GAMES", "IllegalMove", "Limits", "MoveValue", "Pile",
           "Position", "Outcome", "Result", "SolverError", "load", "loads", "parse_card", "parse_cards",
           "solve"]
__version__ = "0.1.0"


def core_not_built(exc: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error to raise for ``exc``: what to do when the compiled core is missing (e.g. after
    `pip install .`, Python finds the checkout's folder before the installed package)."""
    if exc.name != f"{__name__}.core._search":
        return exc
    return ModuleNotFoundError(
        f"{exc.name} (the compiled search core) is not built in {__path__[0]}/core: run "
        f"`pip install -e .` in the checkout (or `python setup.py build_ext --inplace`), or "
        f"run Python outside the checkout to use the installed stich", name=exc.name)


# the compiled core is looked for (not loaded: that is the slow part) when stich is imported
if importlib.util.find_spec(f"{__name__}.core._search") is None:
    raise core_not_built(ModuleNotFoundError(f"No module named '{__name__}.core._search'",
                                             name=f"{__name__}.core._search"))


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        module = importlib.import_module(_WHERE[name])
    except ModuleNotFoundError as exc:
        raise core_not_built(exc) from None
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])

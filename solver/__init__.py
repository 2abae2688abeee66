"""stich: exact double-dummy solving of Scharwenzel, two-handed Wendish Schafkopf and Elfern.

    >>> import stich
    >>> deal = stich.load("examples/elfern-ending.toml")        # doctest: +SKIP
    >>> result = stich.solve(deal)                               # doctest: +SKIP
    >>> result.totals, result.line[:2], result.nodes              # doctest: +SKIP
"""

try:
    from stich.core.anytime import Limits
    from stich.deals.deal import Deal, DealError, Pile, load, loads
    from stich.model.cards import Card, parse_card, parse_cards
    from stich.model.outcome import Outcome
    from stich.model.position import IllegalMove, Position
    from stich.search.objectives import SolverError
    from stich.search.solve import MoveValue, Result, solve

    from .games import GAMES
except ModuleNotFoundError as _exc:
    if _exc.name != f"{__name__}.core._search":
        raise
    # A checkout whose compiled core was never built here (e.g. after `pip install .`, Python
    # finds this folder before the installed package): say what to do, not just what is missing.
    raise ModuleNotFoundError(
        f"{_exc.name} (the compiled search core) is not built in {__path__[0]}/core: run "
        f"`pip install -e .` in the checkout (or `python setup.py build_ext --inplace`), or "
        f"run Python outside the checkout to use the installed stich", name=_exc.name) from None

__all__ = ["Card", "Deal", "DealError", "GAMES", "IllegalMove", "Limits", "MoveValue", "Pile",
           "Position", "Outcome", "Result", "SolverError", "load", "loads", "parse_card", "parse_cards",
           "solve"]
__version__ = "0.1.0"

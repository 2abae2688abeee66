"""stich: exact double-dummy solving of Scharwenzel, two-handed Wendish Schafkopf and Elfern.

    >>> import solver
    >>> deal = solver.load("examples/elfern-ending.toml")        # doctest: +SKIP
    >>> result = solver.solve(deal)                               # doctest: +SKIP
    >>> result.totals, result.line[:2], result.nodes              # doctest: +SKIP
"""

from .cards import Card, parse_card, parse_cards
from .deal import Deal, DealError, Pile, load, loads
from .games import GAMES
from .position import IllegalMove, Position
from .objectives import SolverError
from .outcome import Outcome
from .solve import MoveValue, Result, solve

__all__ = ["Card", "Deal", "DealError", "GAMES", "IllegalMove", "MoveValue", "Pile", "Position",
           "Outcome", "Result", "SolverError", "load", "loads", "parse_card", "parse_cards", "solve"]
__version__ = "0.1.0"

"""The player's view: a seat's information set, its hidden layouts, and hidden deal files."""

from .hidden import read_hidden, read_view, write_hidden
from .infoset import InfoSet, information
from .sampling import EXACT_LIMIT, count_layouts, every_layout, sample_layouts

__all__ = ["EXACT_LIMIT", "InfoSet", "count_layouts", "every_layout", "information", "read_hidden",
           "read_view", "sample_layouts", "write_hidden"]

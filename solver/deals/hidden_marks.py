"""How a deal file shows hidden cards (``?``, ``unknown``, ``seat``), known to the plain reader
without importing the player's view (``stich.view.hidden`` reads such files).  Where a ``?``
may stand is the layouts' to say (``stich.games.layouts``)."""

from __future__ import annotations

from stich.games.layouts import HIDDEN, LAYOUTS

EXTRA_KEYS = ("unknown", "seat")


def hidden_file_problem(data: dict) -> tuple[str, str] | None:
    """(key, message) when a plain reader meets a hidden deal file (hook in ``stich.deals.deal``)."""
    if not is_hidden_data(data):
        return None
    key = next((k for k in EXTRA_KEYS if k in data), None) or _marked_keys(data)[0]
    return key, ("the file has hidden cards (`?`, `unknown`, `seat`): only the player's view "
                 "reads it (stich suggest FILE); name every card for this command")


def is_hidden_data(data: dict) -> bool:
    return any(key in data for key in EXTRA_KEYS) or bool(_marked_keys(data))


def _marked_keys(data: dict) -> list[str]:
    """The keys of the file whose card strings hold a ``?``, in any layout's sections."""
    keys = []
    for layout in LAYOUTS:
        for key, text in layout.texts(data):
            if HIDDEN in text and key not in keys:
                keys.append(key)
    return keys

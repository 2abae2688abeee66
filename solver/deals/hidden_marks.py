"""How a deal file shows hidden cards (``?``, ``unknown``, ``seat``), known to the plain reader
without importing the player's view (``solver.view.hidden`` reads such files)."""

from __future__ import annotations

HIDDEN = "?"
EXTRA_KEYS = ("unknown", "seat")


def hidden_file_problem(data: dict) -> tuple[str, str] | None:
    """(key, message) when a plain reader meets a hidden deal file (hook in ``solver.deals.deal``)."""
    if not is_hidden_data(data):
        return None
    key = next((k for k in EXTRA_KEYS if k in data), "hands" if "hands" in data else
               "piles" if "piles" in data else "stock")
    return key, ("the file has hidden cards (`?`, `unknown`, `seat`): only the player's view "
                 "reads it (stich suggest FILE); name every card for this command")


def is_hidden_data(data: dict) -> bool:
    if any(key in data for key in EXTRA_KEYS):
        return True
    texts = [v for table in ("hands", "piles") if isinstance(data.get(table), dict)
             for v in data[table].values()]
    texts.append(data.get("stock", ""))
    return any(isinstance(t, str) and HIDDEN in t for t in texts)

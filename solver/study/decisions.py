"""The layouts of one decision of a study, and the per-deal memory of decisions.

A study meets the same position many times (every tactic's runs, the perfect and the
player's frames), and a decision must not depend on which worker met it, or when.  So a
decision's layouts are drawn once per position, from a seed fixed by the study's seed, the
deal and the cards played before (``decision_seed``): every layout of the mover's
information set when there are at most ``samples``, else ``samples`` uniform draws.  The
player's view of the study (``judge``) and the PIMC player (``pimc``) both draw them here.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Generic, TypeVar

from stich.deals.deal import Deal
from stich.view import count_layouts, every_layout, information, sample_layouts
from stich.view.suggest import layout_set

Made = TypeVar("Made")


def decision_seed(seed: int, deal_text: str, line: tuple[str, ...]) -> int:
    """The sampling seed of one decision: fixed by the study's seed, the deal and the cards
    played before it (so a record never depends on which worker studied it, or when)."""
    key = f"{seed}\0{' '.join(line)}\0{deal_text}"
    return int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:16], 16)


@dataclass(frozen=True)
class DecisionLayouts:
    """What the mover of one decision cannot tell apart: the layouts drawn of his information
    set (deal texts, in order), how many there are in all, whether the drawn ones are every one
    of them, and the name of the set (``layout_set``: what scoring may share)."""
    seat: int
    texts: list[str]
    count: int
    exact: bool
    share: str


def decision_layouts(here: Deal, objective: str, samples: int, seed: int) -> DecisionLayouts:
    """The layouts of the decision of the seat to move in ``here``."""
    seat = here.position().to_move + 1
    info = information(here, seat)
    count = count_layouts(info)
    exact = count <= samples
    layouts = list(every_layout(info)) if exact else sample_layouts(info, samples, seed)
    return DecisionLayouts(seat, [info.fill(layout).dump() for layout in layouts], count, exact,
                           layout_set(info, objective))


class PerPosition(Generic[Made]):
    """One deal's decisions for a study, each position decided once (``made``, by the cards
    played to it): the deal and how its decisions' layouts are drawn and scored."""

    def __init__(self, deal: Deal, objective: str, samples: int, seed: int, tt_megabytes: int):
        self.deal = deal
        self.objective = objective
        self.samples = samples
        self.seed = seed
        self.tt = tt_megabytes
        self.text = deal.dump()
        self.made: dict[tuple[str, ...], Made] = {}

    def layouts(self, here: Deal, line: tuple[str, ...]) -> DecisionLayouts:
        """The layouts of the decision in ``here``, reached by the cards ``line``."""
        return decision_layouts(here, self.objective, self.samples,
                                decision_seed(self.seed, self.text, line))

"""The summary of a tactics study as typed values: what the report reads, and ``as_json`` for
``stich tactic --json`` (its keys are the report's contract with scripts).

Every table names its estimand (``Estimand``); every figure is an ``Estimate`` (a mean over
deals with its interval) or a ``Test`` (a paired difference over deals with its sign-flip
test and, where a family of tests was formed, Holm's adjusted p).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from .stats import Comparison, Estimate


class Estimand(StrEnum):
    """What a figure averages, over which population (the words are printed)."""

    WHOLE_DEAL = ("whole deal played by the advice (each deal: the mean over the seats it applied to; "
                  "deals weighted equally)")
    FIRST = "first decision"
    EVERY = "every decision, deals weighted equally"
    PAIRED = ("whole deal played by each tactic, on the same deals by the same seats from the same start "
              "(each deal: the mean over those seats of the difference in cost; deals weighted equally)")
    HELD_OUT = ("whole deal played by the rule, on held-out deals (never used to learn it), by the seats "
                "the old advice applied to; each deal once, the mean over those seats")

    def __str__(self) -> str:
        return self.value


def _json(x: Any) -> Any:
    return x.as_json() if hasattr(x, "as_json") else x


@dataclass
class Test:
    """A paired difference over deals (``Comparison``) and its Holm-adjusted p, once known."""

    comparison: Comparison
    p_holm: float | None = None

    @property
    def estimate(self) -> Estimate:
        return self.comparison.estimate

    @property
    def mean(self) -> float:
        return self.comparison.estimate.mean

    @property
    def p(self) -> float:
        return self.comparison.p

    @property
    def shown_p(self) -> float:
        """Holm's p where a family was formed, else the raw one."""
        return self.p if self.p_holm is None else self.p_holm

    def as_json(self) -> dict:
        out = self.comparison.as_json()
        if self.p_holm is not None:
            out["p_holm"] = self.p_holm
        return out


@dataclass
class PlayerCost:
    """From the mover's chair: the expected loss of following the advice and of a random card
    at the same moments, and the test between them (paired by deal).  ``ADVICE``: the name the
    study's JSON gives the advice's figure."""

    advice: Estimate
    random: Estimate
    vs_random: Test
    ADVICE: ClassVar[str] = "advised"

    def as_json(self) -> dict:
        return {self.ADVICE: self.advice.as_json(), "random": self.random.as_json(),
                "vs_random": self.vs_random.as_json()}


class PlayerPolicy(PlayerCost):
    """The whole deal, the advice followed wherever it applies (the "uniform" policy)."""

    ADVICE = "uniform"


class PlayerOneOff(PlayerCost):
    """One decision, the advised card played and every other card perfect."""


@dataclass
class PolicyTable:
    """Following the advice for a whole deal, per policy (uniform, best, worst, random)."""

    runs: int
    deals: int
    cost: dict[str, Estimate] = field(default_factory=dict)
    worse_outcome: dict[str, Estimate] = field(default_factory=dict)
    worse_outcomes: dict[str, dict[str, float]] = field(default_factory=dict)  # "from → to": share
    vs_random: Test | None = None
    player: PlayerPolicy | None = None
    estimand: Estimand = Estimand.WHOLE_DEAL
    deal_ids: frozenset[str] = frozenset()    # the deals it applied to (not in --json: the report's own)

    def as_json(self) -> dict:
        out: dict = {"estimand": self.estimand.value, "runs": self.runs, "deals": self.deals,
                     "cost": {p: e.as_json() for p, e in self.cost.items()},
                     "worse_outcome": {p: e.as_json() for p, e in self.worse_outcome.items()},
                     "worse_outcomes": self.worse_outcomes}
        if self.vs_random is not None:
            out["vs_random"] = self.vs_random.as_json()
        if self.player is not None:
            out["player"] = self.player.as_json()
        return out


@dataclass
class OneOffRow:
    """The one-off decisions under one estimand (``FIRST`` or ``EVERY``)."""

    estimand: Estimand
    decisions: int
    deals: int
    keeps_outcome: dict[str, Estimate]     # advised, every_advised, random, random_subset
    best_by_points: dict[str, Estimate]    # advised, random
    regret: dict[str, Estimate]            # advised, random, hindsight
    vs_random: Test | None = None
    player: PlayerOneOff | None = None

    def as_json(self) -> dict:
        out: dict = {"estimand": self.estimand.value, "decisions": self.decisions, "deals": self.deals,
                     "keeps_outcome": {k: e.as_json() for k, e in self.keeps_outcome.items()},
                     "best_by_points": {k: e.as_json() for k, e in self.best_by_points.items()},
                     "regret": {k: e.as_json() for k, e in self.regret.items()}}
        if self.vs_random is not None:
            out["vs_random"] = self.vs_random.as_json()
        if self.player is not None:
            out["player"] = self.player.as_json()
        return out


@dataclass
class ByGroup:
    value: Any
    policy: PolicyTable
    oneoff: list[OneOffRow]

    def as_json(self) -> dict:
        return {"value": self.value, "policy": self.policy.as_json(), "oneoff": [r.as_json() for r in self.oneoff]}


@dataclass
class ConditionalRow:
    """A situation (one feature's value) where one decision by the advice beats a random card
    or loses to one, the interval over deals leaving out 0."""

    feature: str
    value: Any
    deals: int
    decisions: int
    advice_minus_random: Estimate
    verdict: str

    def as_json(self) -> dict:
        return {"feature": self.feature, "value": self.value, "deals": self.deals, "decisions": self.decisions,
                "advice_minus_random": self.advice_minus_random.as_json(), "verdict": self.verdict}


@dataclass
class Situation:
    """The whole-deal cost where the mover saw ``value`` at his first use of the advice."""

    value: Any
    deals: int
    cost: Estimate
    random: Estimate

    def as_json(self) -> dict:
        return {"value": self.value, "deals": self.deals, "cost": self.cost.as_json(),
                "random": self.random.as_json()}


@dataclass
class NotExact:
    deals: int
    decisions: int
    runs: int

    def any(self) -> bool:
        return bool(self.deals or self.decisions or self.runs)

    def as_json(self) -> dict:
        return {"deals": self.deals, "decisions": self.decisions, "runs": self.runs}


@dataclass
class TacticSummary:
    """One tactic's statistics in a study."""

    tactic: str
    summary: str
    sees_all: bool
    objective: str
    unit: str | None
    deals: int
    not_exact: NotExact
    policy: PolicyTable
    oneoff: list[OneOffRow]
    by: tuple[str, list[ByGroup]] | None = None
    conditional: list[ConditionalRow] | None = None
    situations: list[Situation] | None = None
    same_as: str | None = None

    def as_json(self) -> dict:
        out: dict = {"tactic": self.tactic, "summary": self.summary, "sees_all": self.sees_all,
                     "objective": self.objective, "unit": self.unit, "deals": self.deals,
                     "not_exact": self.not_exact.as_json(), "policy": self.policy.as_json(),
                     "oneoff": [r.as_json() for r in self.oneoff]}
        if self.by is not None:
            out["by"] = {"feature": self.by[0], "groups": [g.as_json() for g in self.by[1]]}
        if self.conditional is not None:
            out["conditional"] = [c.as_json() for c in self.conditional]
        if self.situations is not None:
            out["situations"] = [g.as_json() for g in self.situations]
        if self.same_as is not None:
            out["same_as"] = self.same_as
        return out


@dataclass
class StudySummary:
    """Every tactic's statistics, and what ``--paired`` and ``--learn`` add."""

    deals: int
    objective: str
    seed: int
    unit: str | None
    tactics: list[TacticSummary]
    stopped_early: bool = False
    paired: list | None = None             # summary.PairedRow
    learned: list | None = None            # learn.LearnedRule
    files: dict[str, list[str]] = field(default_factory=dict)   # examples / counterexamples written
    player_game: dict | None = None        # with --opponent/--mover player: study.pimc's table
    first_only: bool = False               # --first: only each deal's first decision recorded

    def as_json(self) -> dict:
        out: dict = {"deals": self.deals, "objective": self.objective, "seed": self.seed, "unit": self.unit,
                     "tactics": [t.as_json() for t in self.tactics], "stopped_early": self.stopped_early}
        if self.paired is not None:
            out["paired"] = [_json(p) for p in self.paired]
        if self.learned is not None:
            out["learned"] = [_json(r) for r in self.learned]
        if self.player_game is not None:
            out["player_game"] = self.player_game
        if self.first_only:                # the "every" estimand is then of first decisions
            out["first_only"] = True
        out.update(self.files)
        return out

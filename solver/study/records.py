"""The records a tactics study keeps per deal, as typed values that read back from JSON.

One convention throughout: seats are 1-based (as in deal files), totals and ranks are from
the mover's side (a higher rank is a better outcome for it), plies count from the deal's
start (0 is the first card), card lists are in the deal's notation.

* ``Decision``: a decision on the deal's optimal line where some tactic applied, with every
  legal card's final total and outcome under perfect play (the one-off statistics);
* ``Run``: the whole deal played with one seat following one tactic by one policy, every
  other card played perfectly (the headline: what following the advice costs);
* ``DealRecord``: a deal's line, its perfect result per seat, its decisions and its runs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

POLICIES = ("uniform", "best", "worst", "random")   # uniform: a seeded pick among the advised cards


@dataclass(frozen=True)
class Result:
    """How a deal ended for one side: its final total and the outcome (rank from its side)."""

    total: int
    rank: int | None
    outcome: str                 # the outcome's words from that side: "own schneider", "tie", ...


@dataclass
class Judgement:
    """A decision seen from the mover's chair: per legal card (in the decision's order) the
    expected final total over the layouts he cannot tell apart, and the expected rung."""

    layouts: int
    consistent: int
    exact: bool
    totals: list[float]
    ranks: list[float] | None
    best: int


@dataclass
class Decision:
    ply: int
    seat: int
    cards: list[str]
    totals: list[int]                      # the mover's side's final total after each card
    ranks: list[int] | None                # the outcome's rank from the mover's side (score)
    advice: dict[str, list[int]]           # tactic -> the advised cards (indices into cards)
    features: dict[str, Any] = field(default_factory=dict)   # of the cards any tactic advised
    exact: bool = True                     # False: a limit stopped the scoring (no values)
    player: Judgement | None = None
    # tactic -> the features of its own advised cards (those of ``WITH_ADVICE``): the cards
    # another tactic advised here do not change what this one met
    own: dict[str, dict[str, Any]] = field(default_factory=dict)

    def features_for(self, tactic: str) -> dict[str, Any]:
        """The decision's features as ``tactic`` met them (its own advice's, where recorded)."""
        return {**self.features, **self.own.get(tactic, {})}


@dataclass
class Run:
    tactic: str
    seat: int
    policy: str
    result: Result | None                  # None: a limit stopped the run
    applied: list[int]                     # plies where the seat followed the policy
    advised: list[int]                     # how many cards were advised there (random: legal)
    chosen: list[str]                      # the cards it played there
    line: list[str]                        # every card of the run, from the deal's start
    features: dict[str, Any] = field(default_factory=dict)   # at the first application
    player_cost: float | None = None       # player's view: sum of expected losses at applied


@dataclass
class DealRecord:
    totals: list[int] | None               # both sides' final totals on the optimal line
    line: list[str]                        # the optimal line walked (from the deal's start)
    perfect: dict[int, Result]             # per seat: perfect play's result from its side
    decisions: list[Decision]
    runs: list[Run]
    levels: list[tuple[int, str, int | None]]   # the outcome ladder: (rank for side 1, words, side)
    nodes: int = 0
    exact: bool = True
    stopped: str | None = None
    player_game: list[Run] = field(default_factory=list)   # --opponent/--mover player: the runs
                                                           # of the player's game (study.pimc)

    def as_json(self) -> dict:
        data = asdict(self)
        data["perfect"] = {str(seat): value for seat, value in data["perfect"].items()}
        return data

    @staticmethod
    def from_json(data: dict) -> DealRecord:
        perfect = {int(seat): Result(**value) for seat, value in data["perfect"].items()}
        decisions = [_decision(d) for d in data["decisions"]]
        runs = [_run(r) for r in data["runs"]]
        game = [_run(r) for r in data.get("player_game", [])]
        rest = {f.name: data[f.name] for f in fields(DealRecord)
                if f.name not in ("perfect", "decisions", "runs", "player_game") and f.name in data}
        rest["levels"] = [tuple(level) for level in rest.get("levels", [])]
        return DealRecord(perfect=perfect, decisions=decisions, runs=runs, player_game=game, **rest)


def _run(data: dict) -> Run:
    return Run(**{**data, "result": Result(**data["result"]) if data["result"] else None})


def _decision(data: dict) -> Decision:
    player = data.get("player")
    return Decision(**{**data, "player": Judgement(**player) if player else None})

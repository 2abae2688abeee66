"""A player who cannot see: Perfect Information Monte Carlo (PIMC) play, and the advice's cost
in the game where the other side (and, if asked, the mover) plays that way.

PIMC is the player of Ginsberg's bridge program GIB (Ginsberg 2001, "GIB: Imperfect
information in a computationally challenging game", JAIR 14): at each decision, deal the
cards one cannot see in K ways consistent with what one has seen, solve each layout
double dummy, and play the card with the best expected value over them.  Its known flaw is
strategy fusion (Frank & Basin 1998, "Search in games with incomplete information: a case
study using Bridge card play", Artificial Intelligence 100): on each layout it assumes it
will know the cards from then on.  Long, Sturtevant, Buro & Furtak (2010, "Understanding the
success of perfect information Monte Carlo sampling in game tree search", AAAI) explain why
it still plays well in trick-taking games.

Here a decision's layouts are those of the mover's information set (``stich.view``): every
one when there are at most K, else K uniform draws seeded by the study's seed, the deal and
the cards played before (``decisions.decision_seed``), so a card never depends on the worker or
the order.  Each layout is scored by ``stich suggest``'s own evaluation (``score_layouts_here``,
``aggregate``): the card is the one ``stich suggest`` would name on the same layouts.

In the *player's game* of a study (``--opponent player``, ``--mover player``) a deal is
played from its start: the other side's seats by PIMC (or perfectly), the advised seat by
the advice where it applies and elsewhere by PIMC (or perfectly), its partners perfectly.
Three runs per seat: ``own`` (the seat never follows the advice), ``uniform`` (it follows
it) and ``random`` (a random legal card where the advice applies).  The advice's cost in
that game, per deal: the ``own`` run's final total of the seat's side minus the ``uniform``
run's, on the same deal against the same opponents.
"""

from __future__ import annotations

import math
import threading

from stich.deals.deal import Deal
from stich.model.cards import Card
from stich.view.suggest import aggregate, score_layouts_here

from .decisions import DecisionLayouts, PerPosition
from .records import DealRecord, Run
from .stats import mean_over_deals

PLAYS = ("perfect", "player")
OWN = "own"                          # the run where the seat plays without the advice
GAME_POLICIES = ("uniform", "random")

_layouts = threading.local()


def layout_engine(tt_megabytes: int):
    """The engine the layouts are scored on: the worker's engine is the study's walk's, busy
    at that moment, so the layouts get one of their own (one per thread, reused)."""
    from stich.search.solve import new_engine
    mine = getattr(_layouts, "engine", None)
    if mine is None or _layouts.tt_megabytes != tt_megabytes:
        mine, _layouts.tt_megabytes = new_engine(tt_megabytes), tt_megabytes
        _layouts.engine = mine
    return mine


class Pimc(PerPosition[Card]):
    """The PIMC player of one deal: ``card(moves)`` for the seat to move after ``moves``
    (cards or (card, pair) moves from the deal's ``play``); each position is decided once."""

    def card(self, moves: tuple, key: tuple[str, ...]) -> Card | None:
        """The card PIMC plays after ``moves`` (``key``: their texts); None when only one
        card is legal."""
        if key not in self.made:
            here = self.deal.after(moves)
            legal = here.position().legal_moves()
            if len(legal) < 2:
                return None
            self.made[key] = _best(here, self.layouts(here, key), self.objective, self.tt)
        return self.made[key]


def _best(here: Deal, drawn: DecisionLayouts, objective: str, tt_megabytes: int) -> Card:
    """The card with the best expected value over the mover's ``drawn`` layouts (``stich
    suggest``'s choice on them)."""
    rows = score_layouts_here(drawn.texts, drawn.seat, objective, tt_megabytes, drawn.share,
                              layout_engine(tt_megabytes))
    best = aggregate([r for r in rows if r is not None], drawn.exact, objective).best
    return next(c for c in here.position().legal_moves() if c.text(here.notation) == best)


# --- the advice's cost in the player's game --------------------------------------------------------

def game_costs(records: list[tuple[str, str, DealRecord]], name: str) -> dict[str, list[float]]:
    """Per policy, one cost per deal: the mean over the deal's advised seats of the ``own``
    run's total minus the policy's run's total (the seat's side's final totals)."""
    out: dict[str, list[float]] = {p: [] for p in GAME_POLICIES}
    for _, _, record in records:
        own = {r.seat: r.result for r in record.player_game if r.policy == OWN and r.result}
        per: dict[str, list[float]] = {p: [] for p in GAME_POLICIES}
        for run in record.player_game:
            if run.tactic == name and run.policy in per and run.result and run.seat in own:
                per[run.policy].append(own[run.seat].total - run.result.total)
        if all(per.values()):
            for policy, costs in per.items():
                out[policy].append(sum(costs) / len(costs))
    return out


def player_game_table(records: list[tuple[str, str, DealRecord]], names: list[str], seed: int,
                      opponent: str, mover: str, samples: int) -> dict:
    """The advice's cost in the player's game, per tactic, with deal-level intervals."""
    rows = []
    for name in names:
        costs = game_costs(records, name)
        row = {"tactic": name, "deals": len(costs["uniform"])}
        for policy, values in costs.items():
            est = mean_over_deals(values, f"{seed}:pimc:{name}:{policy}")
            row[policy] = _json(est)
        diffs = [r - a for a, r in zip(costs["uniform"], costs["random"])]
        est = mean_over_deals(diffs, f"{seed}:pimc:{name}:vs")
        row["random_minus_advice"] = _json(est)
        rows.append(row)
    return {"opponent": opponent, "mover": mover, "layouts": samples,
            "estimand": "per deal, the advised seat's side's final total when it plays without "
                        "the advice (own) minus when it follows it, the same deal against the "
                        "same opponents; mean over deals where the seat was advised on the "
                        "optimal line", "tactics": rows}


def own_run(seat: int) -> Run:
    return Run("", seat, OWN, None, [], [], [], [])


def _json(est) -> dict:
    def num(x: float) -> float | None:
        return None if math.isnan(x) else x
    return {"mean": num(est.mean), "interval": [num(est.low), num(est.high)]}

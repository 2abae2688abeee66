"""The tactics study from the player's view (``stich tactic --view player``).

The double-dummy study judges advice by what a player who sees every card should do.  Here
each decision where a tactic advised is judged again from what the mover could see there:
the mover's information set (``solver.view``) is filled with hidden layouts (every one when
there are at most ``samples``, else ``samples`` uniform draws, seeded per decision), each
layout is solved exactly with every legal card scored (``suggest.score_layout``), and every
card gets its expected total and expected outcome rung over the same layouts (paired).

Per decision and tactic (mirroring the double-dummy definitions of ``tactic``):

* player's-view regret of a card = the highest expected total of any card minus its expected
  total (mean over the advised cards); the card the player's view recommends is ``advise``'s
  best (``suggest.aggregate``);
* the advice is player's-view optimal when every advised card reaches the best expected rung
  (objective ``score``) or the best expected total (``total``).

The **double-dummy bias** of a tactic is the double-dummy verdict minus the player's-view
verdict on the same decisions: regret (dd − pv) and share optimal (dd − pv), with 95%
intervals from a bootstrap over whole deals (``solver.study.stats.paired``).  Where the mover sees
every card both verdicts coincide and the bias is exactly 0.
"""

from __future__ import annotations

import hashlib

from solver.deals.deal import Deal
from solver.view import count_layouts, every_layout, information, sample_layouts
from solver.view.suggest import aggregate, layout_set, score_layout

TOLERANCE = 1e-9


def decision_seed(seed: int, deal_text: str, ply: int) -> int:
    """The sampling seed of one decision: fixed by the study's seed, the deal and the ply (so
    a record never depends on which worker studied it, or when)."""
    digest = hashlib.sha256(f"{seed}\0{ply}\0{deal_text}".encode("utf-8")).hexdigest()
    return int(digest[:16], 16)


def player_view(deal_here: Deal, seat: int, cards: list[str], objective: str, samples: int,
                seed: int, tt_megabytes: int) -> dict:
    """The mover's view of one decision: per card (in the order of ``cards``) the expected
    total and rung over the layouts the mover cannot tell apart, and the recommended card."""
    info = information(deal_here, seat)
    count = count_layouts(info)
    exact = count <= samples
    layouts = list(every_layout(info)) if exact else sample_layouts(info, samples, seed)
    share = layout_set(info, objective)
    rows = [score_layout(info.fill(layout).dump(), seat, objective, tt_megabytes, share=share)
            for layout in layouts]
    advice = aggregate(rows, exact, objective)
    by_card = {v.card: v for v in advice.cards}
    if set(by_card) != set(cards):
        raise ValueError("the player's view and the double-dummy study disagree on the legal cards")
    ranked = advice.measure == "rung"
    return {"layouts": advice.layouts, "consistent": count, "exact": exact,
            "totals": [by_card[c].mean for c in cards],
            "ranks": [by_card[c].mean_rank for c in cards] if ranked else None,
            "p_best": [by_card[c].p_best for c in cards],
            "best": cards.index(advice.best)}


def verdicts(decision: dict, advised: list[int]) -> tuple[float, bool]:
    """(player's-view regret, player's-view optimal) of the advised cards at a decision."""
    view = decision["player"]
    totals, ranks = view["totals"], view["ranks"]
    top = max(totals)
    regret = sum(top - totals[i] for i in advised) / len(advised)
    measure = ranks if ranks is not None and decision.get("ranks") is not None else totals
    best = max(measure)
    return regret, all(measure[i] >= best - TOLERANCE for i in advised)


def summarise_view(scored, records: list[dict], seed: str) -> dict | None:
    """The player's-view verdicts of one tactic beside its double-dummy ones, and the bias
    (None when the records hold no player's view)."""
    from .stats import cluster_bootstrap_interval, group_by, mean, paired, wilson
    decisions = {(r["id"], d["ply"]): d for r in records for d in r["result"]["decisions"]}
    rows = []
    for s in scored:
        decision = decisions[(s.deal_id, s.ply)]
        if "player" not in decision:
            return None
        pv_regret, pv_optimal = verdicts(decision, list(s.advised))
        rows.append((s.deal_id, s.regret, pv_regret, s.optimal, pv_optimal, decision["player"]))
    if not rows:
        return {"decisions": 0}
    deals = [r[0] for r in rows]
    pv_regrets = [r[2] for r in rows]
    k = sum(1 for r in rows if r[4])
    return {
        "decisions": len(rows),
        "layouts": mean([r[5]["layouts"] for r in rows]),
        "exact": sum(1 for r in rows if r[5]["exact"]),
        "optimal": {"share": k / len(rows), "interval": list(wilson(k, len(rows))), "k": k, "n": len(rows)},
        "regret": {"mean": mean(pv_regrets), "n": len(rows),
                   "interval": list(cluster_bootstrap_interval(group_by(pv_regrets, deals),
                                                               seed=seed + ":pv_regret"))},
        "bias_regret": paired([r[1] for r in rows], pv_regrets, seed=seed + ":bias_regret",
                              groups=deals).as_json(),
        "bias_optimal": paired([float(r[3]) for r in rows], [float(r[4]) for r in rows],
                               seed=seed + ":bias_optimal", groups=deals).as_json(),
    }

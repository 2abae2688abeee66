"""Example positions of a study, as deal files that ``stich analyze`` reads.

Each file is the deal with ``play`` stopping at a decision where the tactic applied, with the
advice, the best cards and what each advised card gives away in comments.  Three kinds: the
*worst* decisions (the most an advised card gives away), and *typical* ones where the advice
was right and where it was wrong (a seeded draw among them, so they show what usually
happens, not the extremes).  Under the score objective "right" means every advised card
keeps the outcome; under the total objective, that every advised card is best by points.
"""

from __future__ import annotations

import random

from stich.deals.deal import loads
from stich.model.cards import parse_card

from .records import DealRecord, Decision

KINDS = ("worst", "right", "wrong")


def _right(d: Decision, name: str) -> bool:
    measure = d.ranks if d.ranks is not None else d.totals
    return all(measure[i] == max(measure) for i in d.advice[name])


def _loss(d: Decision, name: str) -> float:
    return sum(max(d.totals) - d.totals[i] for i in d.advice[name]) / len(d.advice[name])


def chosen(records: list[tuple[str, str, DealRecord]], name: str, kind: str, count: int,
           seed: int) -> list[tuple[str, str, DealRecord, Decision]]:
    """The decisions of one kind (see the module doc), each deal's decisions in order."""
    pool = [(i, t, r, d) for i, t, r in records for d in r.decisions
            if name in d.advice and d.exact and d.advice[name]]
    if kind == "worst":
        pool = [x for x in pool if _loss(x[3], name) > 0 or not _right(x[3], name)]
        return sorted(pool, key=lambda x: -_loss(x[3], name))[:count]
    pool = [x for x in pool if _right(x[3], name) == (kind == "right")]
    rng = random.Random(f"stich-examples:{seed}:{name}:{kind}")
    return sorted(rng.sample(pool, min(count, len(pool))), key=lambda x: pool.index(x))


def example_files(records: list[tuple[str, str, DealRecord]], name: str, kinds=KINDS,
                  count: int = 3, seed: int = 0) -> list[tuple[str, str]]:
    """(file name, deal file text) for the chosen decisions of each kind."""
    files = []
    for kind in kinds:
        for rank, (deal_id, text, record, d) in enumerate(chosen(records, name, kind, count, seed), 1):
            deal = loads(text, deal_id)
            here = deal.after([parse_card(c, deal.notation) for c in record.line[:d.ply]])
            body = "\n".join(_header(name, kind, deal_id, d, deal.rule_set.unit)) + "\n" + here.dump()
            files.append((f"{name.replace('.', '_')}-{kind}-{rank:02d}-{deal_id}-ply{d.ply + 1}.toml", body))
    return files


def _header(name: str, kind: str, deal_id: str, d: Decision, unit: str) -> list[str]:
    top = max(d.totals)
    ranks = d.ranks
    best = [i for i in range(len(d.cards))
            if (ranks[i] == max(ranks) if ranks is not None else d.totals[i] == top)]
    what = "keeps the outcome" if ranks is not None else "is best by points"

    def verdict(i: int) -> str:
        words = []
        if ranks is not None:
            words.append("keeps the outcome" if ranks[i] == max(ranks) else "loses the outcome")
        words.append("best by points" if d.totals[i] == top else f"gives away {top - d.totals[i]} {unit}")
        return f"{d.cards[i]} ({', '.join(words)})"
    return [f"# stich tactic example ({kind}): {name}",
            f"# deal {deal_id}, decision at ply {d.ply + 1} of the optimal line, seat {d.seat} to move",
            f"# advised: {'; '.join(verdict(i) for i in d.advice[name])}",
            f"# best:    {' '.join(d.cards[i] for i in best)} (each {what})",
            "# the mover's side's final total after each card, with perfect play after it: "
            + ", ".join(f"{c} {t}" for c, t in zip(d.cards, d.totals)),
            f"# ({_loss(d, name):g} {unit} given away by a uniformly chosen advised card; "
            f"stich analyze FILE shows the same)"]

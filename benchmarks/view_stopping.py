"""Would the player's view need fewer layouts if it stopped once the best card is clear?

    python benchmarks/view_stopping.py GAME FIRST_SEED LAST_SEED [K]

For each deal ``random_deal(GAME, seed, players=2)`` and the decisions at plies 0, 6 and 12
of its optimal line (the seat to move), K layouts (default 100) are drawn as ``stich
suggest`` draws them and solved with every card's exact total.  Then a stopping rule is
replayed on them: look after 20, 40, 60 and 80 layouts; stop when the card in front (the
advice's own order: expected rung, then expected total) is ahead of every other card on the
paired per-layout differences (the rung, or the total where the two cards force the same
rung on every layout so far) by z >= ``Z``, the one-sided 5% level shared (Bonferroni) over
4 looks and 7 other cards.  Cards equal on every layout so far count as tied, not as a
reason to go on.  Printed: one line per decision, then how often the rule stopped, on which
card, and the mean number of layouts it used.
"""

from __future__ import annotations

import math
import sys

LOOKS = (20, 40, 60, 80)
PLIES = (0, 6, 12)
Z = 2.91                  # one-sided, 0.05 / (4 looks x 7 other cards)


def key_differences(rows: list[list[tuple]], best: str, other: str) -> list[float]:
    """Per layout, ``best``'s rung minus ``other``'s; where those are all equal, the totals'."""
    mine = [next(r for r in layout if r[0] == best) for layout in rows]
    theirs = [next(r for r in layout if r[0] == other) for layout in rows]
    rungs = [a[4] - b[4] for a, b in zip(mine, theirs)]
    return rungs if any(rungs) else [a[1] - b[1] for a, b in zip(mine, theirs)]


def z_ahead(differences: list[float]) -> float:
    """How clearly the mean difference is above 0 (inf: equal and positive everywhere, or
    equal to 0 everywhere, a tie)."""
    n = len(differences)
    mean = sum(differences) / n
    if all(d == differences[0] for d in differences):
        return math.inf if mean >= 0 else -math.inf
    sd = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1))
    return mean / (sd / math.sqrt(n))


def stopping_point(rows: list[list[tuple]]) -> tuple[int, str]:
    """(layouts used, card named) under the rule, on the layouts in their drawn order."""
    from stich.view.suggest import aggregate
    for n in LOOKS:
        if n >= len(rows):
            break
        best = aggregate(rows[:n], False, "score").best
        others = [r[0] for r in rows[0] if r[0] != best]
        if all(z_ahead(key_differences(rows[:n], best, c)) >= Z for c in others):
            return n, best
    return len(rows), aggregate(rows, False, "score").best


def decisions(game: str, seeds: range, k: int):
    """(seed, ply, rows of every layout with every card's total) per decision."""
    from stich.deals.dealing import random_deal
    from stich.search.solve import solve
    from stich.view import information
    from stich.view.suggest import choose_layouts, solve_layouts
    for seed in seeds:
        deal = random_deal(game, seed, players=2)
        line = solve(deal, objective="score").line
        for ply in PLIES:
            if ply >= len(line):
                continue
            here = deal.after(list(line[:ply]))
            seat = here.position().to_move + 1
            info = information(here, seat)
            layouts, _, _ = choose_layouts(info, k, seed, False)
            texts = [info.fill(layout).dump() for layout in layouts]
            yield seed, ply, solve_layouts([(t, seat) for t in texts], "score", None, None, 64, totals=True)


def main() -> None:
    from stich.view.suggest import aggregate
    game, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    k = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    used, stopped, other, front_at_20, count = [], 0, 0, 0, 0
    for seed, ply, rows in decisions(game, range(first, last + 1), k):
        full = aggregate(rows, False, "score").best
        n, card = stopping_point(rows)
        front = aggregate(rows[:LOOKS[0]], False, "score").best
        count += 1
        used.append(n)
        stopped += n < k
        other += n < k and card != full
        front_at_20 += front == full
        print(f"deal {seed} ply {ply}: K = {k} names {full}; the rule used {n} layouts and names {card}; "
              f"in front after {LOOKS[0]}: {front}", flush=True)
    print(f"{game}: {count} decisions, stopped before {k}: {stopped}, on another card: {other}, "
          f"mean layouts used {sum(used) / count:.1f}, card in front after {LOOKS[0]} layouts is "
          f"K's card: {front_at_20} of {count}")


if __name__ == "__main__":
    main()

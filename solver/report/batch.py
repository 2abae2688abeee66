"""The summary of a batch's results file: outcomes and the distribution of totals per game."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from tabulate import tabulate

from stich.deals.dealing import parse_label
from stich.model.rules import RuleSet
from stich.run.results import is_partial


def dropped_note(out: str, recovery) -> str:
    """The one line that says which lines of the results file ``out`` were moved aside
    (to ``OUT.dropped``) or cut off (a torn last line) before the run went on."""
    def lines(count: int, what: str) -> str:
        return f"{count} " + what.format("line" if count == 1 else "lines")
    parts = [lines(n, what) for n, what in ((1 if recovery.torn else 0, "torn last {}"),
                                            (recovery.invalid, "invalid {}"),
                                            (recovery.stale, "{} of other deals or settings"),
                                            (recovery.duplicate, "duplicate {}")) if n]
    return f"stich: {out}: dropped {', '.join(parts)}"


def _winner_text(label: str, winner: int | None) -> str:
    if winner is None:
        return "nobody"
    game, players = parse_label(label)
    seats = [s for s in range(1, players + 1) if RuleSet.side_of(s) == winner - 1]
    return ("seat " if len(seats) == 1 else "seats ") + "+".join(map(str, seats))


def summary(records: Iterable[dict]) -> str:
    """Tables of a batch's results: per game, the outcomes and the distribution of totals.
    Partial lines (a deal that hit its limit) are counted apart, never in the tables."""
    by_label: dict[str, list[dict]] = defaultdict(list)
    partial = 0
    for record in records:
        if is_partial(record):
            partial += 1
            continue
        by_label[record.get("label") or record.get("game", "?")].append(record)
    note = (f"{partial} deal{'s' if partial != 1 else ''} hit the limit: partial lines "
            f'("exact": false, with bounds), left out of these tables') if partial else ""
    if not by_label:
        return note or "no results"
    overview, outcomes, totals = [], [], []
    for label in sorted(by_label):
        group = by_label[label]
        n = len(group)
        first = [r["result"]["totals"][0] for r in group]
        second = [r["result"]["totals"][1] for r in group]
        unit = group[0]["result"].get("unit", "")
        wins = Counter(r["result"]["outcome"].get("winner") for r in group)
        overview.append([label, n, unit, f"{sum(first) / n:.2f} – {sum(second) / n:.2f}",
                         f"{100 * wins[1] / n:.1f}%", f"{100 * wins[2] / n:.1f}%",
                         f"{100 * wins[None] / n:.1f}%",
                         f"{sum(r['result'].get('seconds', 0) for r in group) / n:.3f}"])
        levels: dict[tuple, list[int]] = defaultdict(list)
        for r in group:
            outcome = r["result"]["outcome"]
            levels[(outcome.get("winner") or 0, outcome.get("level", "?"))].append(outcome.get("score", 0))
        for (winner, level), scores in sorted(levels.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            outcomes.append([label, _winner_text(label, winner or None), level, len(scores),
                             f"{100 * len(scores) / n:.1f}%", f"{sum(scores) / len(scores):.2f}"])
        values = Counter(first)
        if len(values) <= 21:
            buckets = sorted(values.items())
            rows = [(f"{v}", c) for v, c in buckets]
        else:
            binned = Counter(min(v // 10, 11) for v in first)
            rows = [(f"{10 * b}–{10 * b + 9}" if b < 11 else "110+", c) for b, c in sorted(binned.items())]
        for text, count in rows:
            totals.append([label, text, count, f"{100 * count / n:.1f}%", "#" * round(40 * count / n)])
    parts = [tabulate(overview, headers=["game", "deals", "unit", "mean totals (side 1 – side 2)",
                                         "side 1 wins", "side 2 wins", "neither", "mean s"],
                      tablefmt="simple"),
             "",
             tabulate(outcomes, headers=["game", "winner", "outcome", "deals", "share", "mean score"],
                      tablefmt="simple"),
             "",
             tabulate(totals, headers=["game", "total of side 1", "deals", "share", "histogram"],
                      tablefmt="simple")]
    if note:
        parts += ["", note]
    return "\n".join(parts)

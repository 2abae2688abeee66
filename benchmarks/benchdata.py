"""The benchmark deal sets and per-deal records, shared by conftest.py and the test files."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from stich.run.bench import DealSet, percentile

# The deal sets: name -> DealSet (seeds fixed here; the deals are the same on every machine).
SETS = {s.name: s for s in (
    DealSet("scharwenzel-4", "scharwenzel", tuple(range(100))),
    DealSet("scharwenzel-6", "scharwenzel", tuple(range(50)), players=6),
    DealSet("scharwenzel-8", "scharwenzel", tuple(range(50)), players=8),
    DealSet("schafkopf2-schellen", "schafkopf2", tuple(range(20)), players=2),
    DealSet("schafkopf2-card17", "schafkopf2", tuple(range(20)), players=2,
            rules={"trump_mode": "card17"}),
    DealSet("elfern", "elfern", tuple(range(10)), players=2),
)}
TABLE_SET = DealSet("scharwenzel-4", "scharwenzel", tuple(range(5)))   # `stich table` deals
DDS_SET = SETS["scharwenzel-4"]
WARMUP_SEED = 99_999          # a deal solved before measuring, never measured itself


@dataclass
class Record:
    """One set under one measure: per-deal seconds and nodes (DDS: its own node count)."""

    name: str
    measure: str
    seconds: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    agree: tuple[int, int] | None = None        # (deals agreeing, deals compared) with DDS
    mismatches: list[str] = field(default_factory=list)

    def stats(self) -> dict:
        ms = [s * 1000 for s in self.seconds]
        return {"deals": len(ms), "median_ms": statistics.median(ms), "p90_ms": percentile(ms, 90),
                "max_ms": max(ms), "total_s": sum(self.seconds),
                "median_nodes": statistics.median(self.nodes), "p90_nodes": percentile(self.nodes, 90),
                "total_nodes": sum(self.nodes)}


RECORDS: dict[tuple[str, str], Record] = {}
VERSION_ROWS: dict[str, dict] = {}      # test_versions.py: row -> the old and new figures


def finish(benchmark, rec: Record) -> None:
    """Per-deal statistics into pytest-benchmark's extra_info (and its --benchmark-json)."""
    if rec.seconds:
        for key, value in rec.stats().items():
            benchmark.extra_info[key] = round(value, 4) if isinstance(value, float) else value
    if rec.agree is not None:
        benchmark.extra_info["agree_with_stich"] = f"{rec.agree[0]}/{rec.agree[1]}"


# The growth curve: positions with 8 to 16 tricks left, reached from whole seeded deals by
# playing seeded random legal cards (so the positions are fixed, and typical of mid-game).
GROWTH_GAMES = (("schafkopf2", {}), ("elfern", {}))
GROWTH_TRICKS = (8, 10, 12, 14, 16)
GROWTH_SEEDS = tuple(range(300, 310))


def growth_deal(game: str, seed: int, tricks_left: int, rules: dict | None = None):
    """Seeded whole deal ``seed`` of ``game`` played at random until ``tricks_left`` remain."""
    import random

    from stich.deals.dealing import random_deal

    deal = random_deal(game, seed, players=2, rules=dict(rules or {}))
    position = deal.start()
    rng = random.Random(seed * 100 + tricks_left)
    tricks: list[list] = []
    while position.tricks_left() > tricks_left or position.trick:
        if not position.trick:
            tricks.append([])
        card = rng.choice(sorted(position.legal_moves()))
        tricks[-1].append(card)
        position.play(card)
    return deal.with_play(tuple(tuple(t) for t in tricks))

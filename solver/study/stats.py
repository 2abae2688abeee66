"""Statistics for studies: Wilson intervals, seeded bootstrap intervals, paired differences,
the exact sign test and Holm's correction.  Pure Python; each is tested against an exact
computation on small cases (tests/test_stats.py).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Sequence

Z95 = 1.959963984540054          # the 97.5% point of the standard normal
DEFAULT_RESAMPLES = 1000


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default); (0, 1) when n is 0."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def percentile_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The percentile interval of a sample of statistics: the order statistics at
    floor(a B) and ceil((1 - a) B) - 1 (0-based, a = (1 - level) / 2) of the B sorted values."""
    ordered = sorted(values)
    b = len(ordered)
    if b == 0:
        return (math.nan, math.nan)
    alpha = (1 - level) / 2
    low = min(b - 1, int(math.floor(alpha * b + 1e-9)))
    high = max(0, int(math.ceil((1 - alpha) * b - 1e-9)) - 1)
    return (ordered[low], ordered[high])


def bootstrap_means(values: Sequence[float], resamples: int = DEFAULT_RESAMPLES, seed: int | str = 0
                    ) -> list[float]:
    """Means of ``resamples`` resamples with replacement, from a seeded generator (the same
    seed and data always give the same means)."""
    n = len(values)
    if n == 0:
        return []
    rng = random.Random(f"stich-bootstrap:{seed}")
    data = list(values)
    return [sum(rng.choices(data, k=n)) / n for _ in range(resamples)]


def bootstrap_interval(values: Sequence[float], resamples: int = DEFAULT_RESAMPLES,
                       seed: int | str = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval (95% by default) for the mean, seeded and reproducible.
    A sample whose values are all equal gives that value at both ends."""
    if not values:
        return (math.nan, math.nan)
    if min(values) == max(values):
        return (float(values[0]), float(values[0]))
    return percentile_interval(bootstrap_means(values, resamples, seed), level)


def cluster_bootstrap_means(groups: Sequence[Sequence[float]], resamples: int = DEFAULT_RESAMPLES,
                            seed: int | str = 0) -> list[float]:
    """Means over resamples of whole groups (e.g. the decisions of one deal, which are not
    independent): each resample draws as many groups as there are, with replacement, and
    takes the mean of all their values (sum over count).  Seeded and reproducible."""
    sized = [(sum(g), len(g)) for g in groups if len(g)]
    m = len(sized)
    if m == 0:
        return []
    rng = random.Random(f"stich-cluster-bootstrap:{seed}")
    out = []
    for _ in range(resamples):
        picks = rng.choices(sized, k=m)
        out.append(sum(p[0] for p in picks) / sum(p[1] for p in picks))
    return out


def cluster_bootstrap_interval(groups: Sequence[Sequence[float]], resamples: int = DEFAULT_RESAMPLES,
                               seed: int | str = 0, level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval for the mean of all values, resampling whole groups."""
    values = [v for g in groups for v in g]
    if not values:
        return (math.nan, math.nan)
    if min(values) == max(values):
        return (float(values[0]), float(values[0]))
    return percentile_interval(cluster_bootstrap_means(groups, resamples, seed), level)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def sign_test(better: int, worse: int) -> float:
    """Exact two-sided sign test p-value (ties dropped): the chance of a split at least this
    uneven if better and worse were equally likely."""
    m = better + worse
    if m == 0:
        return 1.0
    k = min(better, worse)
    tail = sum(math.comb(m, i) for i in range(k + 1)) / 2 ** m
    return min(1.0, 2 * tail)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values (step-down, monotone), in the order given."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class Paired:
    """The paired difference a - b over the same decisions."""

    n: int
    mean: float
    interval: tuple[float, float]
    lower: int          # a < b
    equal: int
    higher: int         # a > b
    p_sign: float       # exact sign test of lower against higher

    def as_json(self) -> dict:
        return {"n": self.n, "mean": self.mean, "interval": list(self.interval), "lower": self.lower,
                "equal": self.equal, "higher": self.higher, "p_sign": self.p_sign}


def paired(a: Sequence[float], b: Sequence[float], seed: int | str = 0,
           resamples: int = DEFAULT_RESAMPLES, groups: Sequence | None = None) -> Paired:
    """The paired difference a - b; ``groups`` (one key per pair, e.g. its deal): resample
    whole groups for the interval."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    diffs = [x - y for x, y in zip(a, b)]
    lower = sum(1 for d in diffs if d < 0)
    higher = sum(1 for d in diffs if d > 0)
    if groups is None:
        interval = bootstrap_interval(diffs, resamples, seed)
    else:
        interval = cluster_bootstrap_interval(group_by(diffs, groups), resamples, seed)
    return Paired(len(diffs), mean(diffs), interval, lower, len(diffs) - lower - higher, higher,
                  sign_test(lower, higher))


def group_by(values: Sequence[float], keys: Sequence) -> list[list[float]]:
    """Values grouped by key, groups in order of first appearance."""
    groups: dict = {}
    for value, key in zip(values, keys):
        groups.setdefault(key, []).append(value)
    return list(groups.values())

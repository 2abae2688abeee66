"""Statistics for the tactics study, at the level of deals.

The decisions of one deal are not independent (the same cards, the same line), so every
figure here takes one value per deal: a mean over deals, an interval from a bootstrap that
resamples deals (``scipy.stats.bootstrap``, bias-corrected and accelerated; a share whose
deals each give 0 or 1 has Clopper and Pearson's exact interval), and a test of a paired
difference that flips the sign of each deal's difference (``scipy.stats.permutation_test``,
exact up to 15 deals with a difference).  Holm's correction, which scipy lacks, is the one
piece written here.  Everything is seeded, so a report depends only on its records and the
study's seed.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

# numpy and scipy.stats are imported where a figure is computed, not here: scipy.stats alone
# takes seconds to import, and every command reaches this module (the tactic report) at start.

RESAMPLES = 9999              # the figures of a study
BREAKDOWN_RESAMPLES = 1999    # its breakdowns by a feature (many small groups, exploratory)
LEVEL = 0.95


def rng_for(seed: int | str) -> np.random.Generator:
    """A generator fixed by any seed text (the study's seed and what is being estimated)."""
    import numpy as np
    digest = hashlib.sha256(f"stich-stats:{seed}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


@dataclass(frozen=True)
class Estimate:
    """A mean over deals with its 95% bootstrap interval (NaN ends when fewer than 2 deals)."""

    mean: float
    low: float
    high: float
    deals: int

    def as_json(self) -> dict:
        return {"mean": _num(self.mean), "interval": [_num(self.low), _num(self.high)], "deals": self.deals}


def _num(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def mean_over_deals(values: Sequence[float], seed: int | str, resamples: int = RESAMPLES,
                    bounds: tuple[float, float] | None = None) -> Estimate:
    """The mean of one value per deal, with a bootstrap interval over deals: BCa, which
    corrects for skew (costs are mostly 0 with a few large ones, and there the percentile
    interval covers the true mean too rarely: ``tests/test_stats_coverage.py``).  ``bounds``:
    the range a deal's value can take (a share: 0 to 1), which gives an interval where every
    deal has the same value (``same_everywhere``)."""
    import numpy as np
    data = np.asarray(values, dtype=float)
    n = len(data)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean = float(data.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    if bounds == SHARE and np.all((data == 0) | (data == 1)):
        return share_interval(data, mean)
    if np.all(data == data[0]):
        return same_everywhere(float(data[0]), n, bounds)
    low, high = _bootstrap(data, seed, resamples, "BCa")
    if math.isnan(low) or math.isnan(high):     # BCa undefined (every resample on one side)
        low, high = _bootstrap(data, seed, resamples, "percentile")
    return Estimate(mean, low, high, n)


def _bootstrap(data: np.ndarray, seed: int | str, resamples: int, method: str) -> tuple[float, float]:
    """The ends of scipy's 95% bootstrap interval of the mean by ``method``, seeded by ``seed``
    (NaN where the method is undefined)."""
    import warnings

    import numpy as np
    from scipy import stats
    with warnings.catch_warnings():             # BCa's "cannot be calculated": NaN, handled above
        warnings.simplefilter("ignore")
        result = stats.bootstrap((data,), np.mean, n_resamples=resamples, confidence_level=LEVEL,
                                 method=method, random_state=rng_for(seed), vectorized=True)
    low, high = result.confidence_interval
    return float(low), float(high)


SHARE = (0.0, 1.0)


def share_interval(data: np.ndarray, mean: float) -> Estimate:
    """A share where each deal gives 0 or 1 (the advised card best, or not): Clopper and
    Pearson's exact interval for that many successes.  A percentile bootstrap is narrower than
    it should be on few deals (7 of 8 gave 62–100%, where the exact interval is 47–100%).
    Shares with values between 0 and 1 per deal keep the bootstrap: the binomial's width, the
    most such a share can vary, would make them far wider than their spread."""
    from scipy import stats
    n, k = len(data), float(data.sum())
    tail = (1 - LEVEL) / 2
    low = 0.0 if k <= 0 else float(stats.beta.ppf(tail, k, n - k + 1))
    high = 1.0 if k >= n else float(stats.beta.ppf(1 - tail, k + 1, n - k))
    return Estimate(mean, low, high, n)


def same_everywhere(value: float, n: int, bounds: tuple[float, float] | None) -> Estimate:
    """Every one of ``n`` deals gave ``value``: a bootstrap has nothing to resample, and its
    interval of width 0 would read as exact.  At an end of the range ``bounds`` the exact end
    of Clopper and Pearson holds for any value in that range, not only 0 or 1: with mean m
    in [0, 1], P(value = 0) <= 1 - m, so n deals all at 0 have chance at most (1 - m)^n, and
    every m up to 1 - (0.025)^(1/n) keeps that at least 2.5%.  Elsewhere there is no
    interval (NaN ends)."""
    if bounds is not None:
        low, high = bounds
        reach = (high - low) * (1 - ((1 - LEVEL) / 2) ** (1 / n))
        if value == low:
            return Estimate(value, low, low + reach, n)
        if value == high:
            return Estimate(value, high - reach, high, n)
    return Estimate(value, math.nan, math.nan, n)


@dataclass(frozen=True)
class Comparison:
    """A paired difference a - b, one value per deal: its mean and interval, how many deals
    it is below / equal to / above zero, and the sign-flip test's two-sided p."""

    estimate: Estimate
    lower: int
    equal: int
    higher: int
    p: float
    p_floor: float | None = None      # the least p the resamples can show (None: every flip counted)

    @property
    def p_at_floor(self) -> bool:
        """The test drew its flips and none reached the observed mean: the true p is at most
        about this, not this (``p_text(..., at_most=True)``)."""
        return self.p_floor is not None and self.p <= self.p_floor * (1 + 1e-9)

    def as_json(self) -> dict:
        return {**self.estimate.as_json(), "lower": self.lower, "equal": self.equal,
                "higher": self.higher, "p": self.p, "p_at_floor": self.p_at_floor}


def compare(a: Sequence[float], b: Sequence[float], seed: int | str, resamples: int = RESAMPLES) -> Comparison:
    """The paired difference of two per-deal values."""
    import numpy as np
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    diffs = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    lower, higher = int((diffs < 0).sum()), int((diffs > 0).sum())
    return Comparison(mean_over_deals(diffs, seed, resamples), lower, len(diffs) - lower - higher, higher,
                      sign_flip_p(diffs, seed, resamples), p_floor(lower + higher, resamples))


EXACT_FLIPS = 2 ** 15        # up to this many sign patterns the test counts every one


def counts_every_flip(nonzero: int, resamples: int = RESAMPLES) -> bool:
    """Whether the sign-flip test enumerates every pattern (its p is then exact)."""
    return 2 ** min(nonzero, 64) <= max(resamples, EXACT_FLIPS)


def p_floor(nonzero: int, resamples: int = RESAMPLES) -> float | None:
    """The least two-sided p the sign-flip test can give on ``nonzero`` differences when it
    draws ``resamples`` flips, (1 + 0) / (resamples + 1) each side; None when it counts every
    flip (``counts_every_flip``: the p is exact)."""
    if nonzero < 2 or counts_every_flip(nonzero, resamples):
        return None
    return 2 / (resamples + 1)


def sign_flip_p(diffs: Sequence[float], seed: int | str, resamples: int = RESAMPLES) -> float:
    """Two-sided p of "the mean difference is 0": each deal's difference keeps or flips its
    sign with equal chance under the null (every flip when there are few deals)."""
    import numpy as np
    from scipy import stats
    data = np.asarray(diffs, dtype=float)
    data = data[data != 0]
    if len(data) < 2:            # no flip, or one: every sign gives the same |mean|
        return 1.0
    draws = np.inf if counts_every_flip(len(data), resamples) else resamples     # inf: every pattern
    result = stats.permutation_test((data,), np.mean, permutation_type="samples", vectorized=True,
                                    n_resamples=draws, alternative="two-sided",
                                    random_state=rng_for(seed))
    return float(min(1.0, result.pvalue))


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


def p_text(p: float | None, at_most: bool = False) -> str:
    """A p-value as printed: never 0 (a p below what a double holds is "< 1e-300"), and
    "≤ 0.0002" where the drawn flips could show no smaller one (``Comparison.p_at_floor``)."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "-"
    if p < 1e-300:
        return "< 1e-300"
    return ("≤ " if at_most else "") + (f"{p:.2g}" if p < 0.01 else f"{p:.2f}")


def subset_all_optimal(optimal: int, cards: int, size: int) -> float:
    """The chance that a uniformly drawn ``size``-card subset of ``cards`` legal cards holds
    only optimal ones, when ``optimal`` of them are: C(optimal, size) / C(cards, size)."""
    return comb(optimal, size) / comb(cards, size)

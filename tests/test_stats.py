"""The study's statistics (``stich.study.stats``, scipy underneath) against exact computation
on small cases: every resample of a bootstrap, every sign flip of a test, every subset."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from stich.study.stats import (
    RESAMPLES,
    compare,
    holm,
    mean_over_deals,
    p_text,
    sign_flip_p,
    subset_all_optimal,
)


def exact_bootstrap(values):
    """Every one of the n^n equally likely resamples: its mean, as an exact fraction."""
    n = len(values)
    return sorted(Fraction(sum(pick), n) for pick in itertools.product(values, repeat=n))


def cdf(means, x) -> float:
    return sum(1 for m in means if m <= x) / len(means)


def exact_bca_levels(values, means) -> tuple[float, float]:
    """The two levels of the exact bootstrap distribution at which a 95% BCa interval ends
    (Efron and Tibshirani 14.3): the bias from the share of resample means below the mean
    (ties counted half), the acceleration from the exact jackknife."""
    from statistics import NormalDist
    normal = NormalDist()
    n, mean = len(values), Fraction(sum(values), len(values))
    below = (sum(1 for m in means if m < mean) + sum(1 for m in means if m <= mean)) / (2 * len(means))
    z0 = normal.inv_cdf(below)
    leave_one_out = [Fraction(sum(values) - v, n - 1) for v in values]
    centre = sum(leave_one_out) / n
    u = [float(centre - t) for t in leave_one_out]
    a = sum(x ** 3 for x in u) / (6 * sum(x ** 2 for x in u) ** 1.5)
    levels = []
    for q in (0.025, 0.975):
        z = z0 + normal.inv_cdf(q)
        levels.append(normal.cdf(z0 + z / (1 - a * z)))
    return levels[0], levels[1]


@pytest.mark.parametrize("values", [[0, 1, 1, 3], [2, 2, 5, 9, 0], [1, 0, 0, 0, 0, 4], [7, -3, 1, 1, 2]])
def test_bootstrap_interval_sits_at_the_exact_bca_percentiles(values):
    """The interval's ends are means a resample can have, at the levels of the exact bootstrap
    distribution that bias correction and acceleration give (within the sampling error of
    9,999 draws)."""
    est = mean_over_deals(values, "t")
    means = exact_bootstrap([Fraction(v) for v in values])
    assert est.mean == pytest.approx(sum(values) / len(values))
    low_level, high_level = exact_bca_levels(values, means)
    skewed = [1, 0, 0, 0, 0, 4]
    if values == skewed:                      # the case where BCa moves the ends: a check that can fail
        assert abs(low_level - 0.025) > 0.01 or abs(high_level - 0.975) > 0.01
    for end, q in ((est.low, low_level), (est.high, high_level)):
        x = Fraction(end).limit_denominator(1000)
        assert x in means                                       # a mean some resample has
        below = sum(1 for m in means if m < x) / len(means)
        assert below <= q + 0.01 and cdf(means, x) >= q - 0.01   # at the exact level


def test_bootstrap_edge_cases():
    assert math.isnan(mean_over_deals([], "t").mean)
    one = mean_over_deals([3.0], "t")
    assert one.mean == 3 and math.isnan(one.low) and one.deals == 1
    same = mean_over_deals([2, 2, 2], "t")            # no interval of width 0: it would read as exact
    assert same.mean == 2 and math.isnan(same.low) and math.isnan(same.high)
    assert mean_over_deals([1, 5, 2, 8], "seed") == mean_over_deals([1, 5, 2, 8], "seed")   # seeded


def exact_sign_flip(diffs) -> float:
    observed = abs(sum(diffs))
    flips = list(itertools.product((1, -1), repeat=len(diffs)))
    return sum(1 for s in flips if abs(sum(a * b for a, b in zip(s, diffs))) >= observed - 1e-12) / len(flips)


@pytest.mark.parametrize("diffs", [[1, 2, 0.5, -0.2, 3], [1, 1, 1, 1, 1, 1], [2, -2, 3, -1, 0.5, 4, 1],
                                   [0.1, -0.3, 0.2], [5, 4, 6, 5, 3, 7, 2, 8, 9, 4]])
def test_sign_flip_test_is_the_exact_enumeration(diffs):
    assert sign_flip_p(diffs, "t") == pytest.approx(exact_sign_flip(diffs), abs=1e-12)


def test_sign_flip_ignores_zero_differences_and_needs_two():
    assert sign_flip_p([0, 0, 0], "t") == 1.0
    assert sign_flip_p([0, 3], "t") == 1.0                    # one non-zero difference: no evidence
    assert sign_flip_p([0, 1, 2, 3], "t") == pytest.approx(exact_sign_flip([1, 2, 3]))


def test_compare_counts_and_mean():
    c = compare([3, 1, 2, 5], [1, 1, 4, 0], "t")
    assert (c.lower, c.equal, c.higher) == (1, 1, 2)
    assert c.estimate.mean == pytest.approx((2 + 0 - 2 + 5) / 4)
    assert c.p == pytest.approx(exact_sign_flip([2, -2, 5]))
    with pytest.raises(ValueError):
        compare([1], [1, 2], "t")


def test_holm_known_values():
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([]) == []
    assert holm([0.5]) == [0.5]
    assert holm([0.9, 0.8]) == [1.0, 1.0]                    # 2 x 0.8 capped at 1, then monotone
    assert holm([0.3, 0.01, 0.04]) == pytest.approx([0.3, 0.03, 0.08])


@pytest.mark.parametrize("optimal,cards,size", [(2, 5, 2), (3, 3, 2), (0, 4, 1), (4, 6, 3), (1, 6, 1)])
def test_random_subset_all_optimal_is_the_share_of_subsets(optimal, cards, size):
    flags = [True] * optimal + [False] * (cards - optimal)
    subsets = list(itertools.combinations(range(cards), size))
    share = sum(all(flags[i] for i in s) for s in subsets) / len(subsets)
    assert subset_all_optimal(optimal, cards, size) == pytest.approx(share)


def test_p_is_never_printed_as_zero():
    assert p_text(0.0) == "< 1e-300"
    assert p_text(1e-320) == "< 1e-300"
    assert p_text(2e-47) == "2e-47"
    assert p_text(0.5) == "0.50"


@pytest.mark.parametrize("n", [2, 5, 30, 400])
def test_a_share_the_same_on_every_deal_gets_the_exact_clopper_pearson_end(n):
    """All deals at 0 (or all at 1): the interval is Clopper and Pearson's exact one for 0 of n
    (n of n), scaled to the range given; the same value inside the range gets none."""
    from scipy import stats
    high = stats.binomtest(0, n).proportion_ci(0.95, method="exact").high
    low = stats.binomtest(n, n).proportion_ci(0.95, method="exact").low
    zero, one = mean_over_deals([0] * n, "t", bounds=(0, 1)), mean_over_deals([1] * n, "t", bounds=(0, 1))
    assert (zero.low, zero.high) == (0, pytest.approx(high, rel=1e-9))
    assert (one.low, one.high) == (pytest.approx(low, rel=1e-9), 1)
    cost = mean_over_deals([0] * n, "t", bounds=(0, 120))
    assert (cost.low, cost.high) == (0, pytest.approx(120 * high, rel=1e-9))
    assert math.isnan(mean_over_deals([3] * n, "t", bounds=(0, 120)).high)   # inside the range: none


@pytest.mark.parametrize("k,n", [(7, 8), (3, 10), (50, 60), (1, 2)])
def test_a_share_gets_clopper_and_pearsons_interval(k, n):
    """Deals that each give 0 or 1: the interval is the exact binomial one for k of n (the
    percentile bootstrap gave 62–100% for 7 of 8, where the exact one is 47–100%)."""
    from scipy import stats
    est = mean_over_deals([1] * k + [0] * (n - k), "t", bounds=(0, 1))
    ci = stats.binomtest(k, n).proportion_ci(0.95, method="exact")
    assert est.mean == pytest.approx(k / n)
    assert (est.low, est.high) == (pytest.approx(ci.low, rel=1e-9), pytest.approx(ci.high, rel=1e-9))


def test_a_p_the_drawn_flips_cannot_go_below_is_printed_as_at_most():
    """Twenty differences of one sign: 2^20 flips, more than are counted one by one, none of
    the drawn ones as extreme as the data, so the p printed is the least the draws can show,
    as "≤"; ten or fifteen such differences are counted flip by flip, and their p (2 / 2^10,
    2 / 2^15) is exact."""
    drawn = compare([1.0] * 20, [0.0] * 20, "t")
    assert drawn.p == pytest.approx(2 / (RESAMPLES + 1)) and drawn.p_at_floor
    assert p_text(drawn.p, drawn.p_at_floor) == "≤ 0.0002"
    counted = compare([1.0] * 10, [0.0] * 10, "t")
    assert counted.p == pytest.approx(2 / 2 ** 10) and not counted.p_at_floor
    assert p_text(counted.p, counted.p_at_floor) == "0.002"
    spread = compare([1.0, -1.0] * 10, [0.0] * 20, "t")
    assert not spread.p_at_floor
    fifteen = compare([1.0] * 15, [0.0] * 15, "t")         # 2^15 patterns: still counted one by one
    assert fifteen.p == pytest.approx(2 / 2 ** 15) and not fifteen.p_at_floor

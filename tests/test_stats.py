"""The statistics of studies against exact computation on small cases."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from solver.study.stats import (
    Z95,
    bootstrap_interval,
    bootstrap_means,
    holm,
    paired,
    percentile_interval,
    sign_test,
    wilson,
)


def wilson_by_quadratic(k: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson interval as the roots in p of (k/n - p)^2 = z^2 p (1 - p) / n, solved with
    the quadratic formula: (1 + z²/n) p² - (2 k/n + z²/n) p + (k/n)² = 0."""
    h = k / n
    a = 1 + z * z / n
    b = -(2 * h + z * z / n)
    c = h * h
    root = math.sqrt(b * b - 4 * a * c)
    return ((-b - root) / (2 * a), (-b + root) / (2 * a))


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 10), (3, 10), (5, 10), (10, 10), (17, 40), (1, 2000)])
def test_wilson_is_the_root_of_the_score_equation(k, n):
    low, high = wilson(k, n)
    want = wilson_by_quadratic(k, n, Z95)
    assert low == pytest.approx(max(0.0, want[0]), abs=1e-12)
    assert high == pytest.approx(min(1.0, want[1]), abs=1e-12)
    assert low <= k / n <= high


def test_wilson_known_value():
    # 8 of 10: the textbook Wilson interval is [0.4902, 0.9433]
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)


def exact_bootstrap_means(values):
    """Every one of the n^n equally likely resamples, enumerated: its mean (exact fractions;
    sorted as integer sums, which order the same way)."""
    n = len(values)
    sums = sorted(map(sum, itertools.product(values, repeat=n)))
    return [Fraction(total, n) for total in sums]


def exact_quantile(means, q):
    ordered = sorted(means)
    return ordered[min(len(ordered) - 1, math.floor(q * len(ordered)))]


@pytest.mark.parametrize("values", [[0, 1, 3], [0, 0, 2, 5], [1, 2, 2, 4, 7], [0, 0, 0, 1, 1, 9]])
def test_bootstrap_interval_matches_the_exact_bootstrap_distribution(values):
    exact = exact_bootstrap_means(values)
    # the percentile rule on the enumerated distribution is the exact bootstrap interval
    low, high = percentile_interval(exact)
    ordered = sorted(exact)
    b = len(ordered)
    assert low == ordered[math.floor(0.025 * b)]
    assert high == ordered[math.ceil(0.975 * b) - 1]
    # a seeded Monte Carlo bootstrap lands within the exact quantiles 1.5% to either side
    mc_low, mc_high = bootstrap_interval(values, resamples=20000, seed=7)
    eps = 1e-9
    assert float(exact_quantile(exact, 0.01)) - eps <= mc_low <= float(exact_quantile(exact, 0.04)) + eps
    assert float(exact_quantile(exact, 0.96)) - eps <= mc_high <= float(exact_quantile(exact, 0.99)) + eps


def test_bootstrap_means_have_the_exact_mean_and_variance():
    values = [0, 1, 1, 4, 9]
    means = bootstrap_means(values, resamples=40000, seed=3)
    n = len(values)
    mu = sum(values) / n
    var = sum((v - mu) ** 2 for v in values) / n / n          # variance of a resample mean
    got = sum(means) / len(means)
    assert got == pytest.approx(mu, abs=4 * math.sqrt(var / len(means)))
    got_var = sum((m - got) ** 2 for m in means) / len(means)
    assert got_var == pytest.approx(var, rel=0.05)


def test_bootstrap_is_reproducible_and_seed_dependent():
    values = [0, 2, 3, 3, 8, 1, 0, 4]
    assert bootstrap_interval(values, seed="a") == bootstrap_interval(values, seed="a")
    assert bootstrap_means(values, 50, seed="a") != bootstrap_means(values, 50, seed="b")
    assert bootstrap_interval([2, 2, 2]) == (2.0, 2.0)


def test_holm_hand_worked():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> monotone 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_sign_test_against_binomial_by_hand():
    # 9 of 10 one way: P(X<=1) = 11/1024, two-sided 22/1024
    assert sign_test(1, 9) == pytest.approx(22 / 1024)
    assert sign_test(9, 1) == pytest.approx(22 / 1024)
    assert sign_test(5, 5) == 1.0
    assert sign_test(0, 0) == 1.0


def test_paired_counts_and_mean():
    result = paired([1, 2, 3, 0], [1, 0, 5, 0], seed=1)
    assert (result.lower, result.equal, result.higher) == (1, 2, 1)
    assert result.mean == 0.0
    assert result.n == 4


@pytest.mark.parametrize("groups", [[[0, 1], [3], [2, 2, 5]], [[0], [0, 0, 4], [1, 1], [7], [2, 0]]])
def test_cluster_bootstrap_matches_the_exact_distribution(groups):
    """All m^m equally likely picks of whole groups, enumerated: the ratio of sums (exact
    fractions); the seeded Monte Carlo interval lies within the exact quantiles 1.5% either side."""
    from solver.study.stats import cluster_bootstrap_interval, cluster_bootstrap_means, group_by
    m = len(groups)
    exact = sorted(Fraction(sum(sum(groups[i]) for i in pick), sum(len(groups[i]) for i in pick))
                   for pick in itertools.product(range(m), repeat=m))
    low, high = cluster_bootstrap_interval(groups, resamples=20000, seed=5)
    eps = 1e-9
    assert float(exact_quantile(exact, 0.01)) - eps <= low <= float(exact_quantile(exact, 0.04)) + eps
    assert float(exact_quantile(exact, 0.96)) - eps <= high <= float(exact_quantile(exact, 0.99)) + eps
    means = cluster_bootstrap_means(groups, 20000, seed=5)
    assert sum(means) / len(means) == pytest.approx(float(sum(exact) / len(exact)), abs=0.05)
    # groups of one value each: the ordinary bootstrap distribution
    assert group_by([1, 2, 3, 4], ["a", "b", "a", "c"]) == [[1, 3], [2], [4]]


def test_paired_with_groups_resamples_groups():
    a, b = [1, 2, 0, 5, 3, 3], [0, 2, 1, 1, 3, 0]
    flat = paired(a, b, seed=2)
    grouped = paired(a, b, seed=2, groups=["x", "x", "y", "y", "z", "z"])
    assert (flat.mean, flat.lower, flat.equal, flat.higher) == (grouped.mean, grouped.lower, grouped.equal,
                                                                 grouped.higher)
    # three groups with differences (1, 0), (-1, 4), (0, 3): a resample mean is a ratio of their sums
    assert grouped.interval[0] >= 0.5 - 1e-9 and grouped.interval[1] <= 1.5 + 1e-9

"""Interval estimates: textbook values, scipy agreement, edge cases, vectorisation, coverage."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardsim import stats

scipy_stats = pytest.importorskip("scipy.stats")


def scipy_ci(k: int, n: int, method: str, confidence: float = 0.95) -> tuple[float, float]:
    ci = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method=method)
    return float(ci.low), float(ci.high)


# ------------------------------------------------------------------------------ known values


def test_wilson_textbook_81_of_263():
    low, high = stats.wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert (low, high) == pytest.approx(scipy_ci(81, 263, "wilson"), abs=1e-12)


def test_clopper_pearson_textbook_81_of_263():
    low, high = stats.clopper_pearson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2527, 0.3676)
    assert (low, high) == pytest.approx(scipy_ci(81, 263, "exact"), abs=1e-10)


@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 10), (3, 10), (10, 10), (7, 29), (50, 100), (41_200, 100_000)])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_agrees_with_scipy(k, n, confidence):
    assert stats.wilson_interval(k, n, confidence) == pytest.approx(scipy_ci(k, n, "wilson", confidence), abs=1e-10)
    exact = scipy_ci(k, n, "exact", confidence)
    assert stats.clopper_pearson_interval(k, n, confidence) == pytest.approx(exact, abs=1e-9)
    assert stats.clopper_pearson_interval(k, n, confidence, use_scipy=False) == pytest.approx(exact, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 5000), frac=st.floats(0, 1), confidence=st.sampled_from([0.8, 0.95, 0.999]))
def test_pure_python_clopper_pearson_matches_scipy(n, frac, confidence):
    k = int(round(frac * n))
    ours = stats.clopper_pearson_interval(k, n, confidence, use_scipy=False)
    theirs = stats.clopper_pearson_interval(k, n, confidence, use_scipy=True)
    assert ours == pytest.approx(theirs, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 10**6), frac=st.floats(0, 1))
def test_intervals_are_ordered_and_contain_the_estimate(n, frac):
    k = int(round(frac * n))
    p = k / n
    for low, high in (stats.wilson_interval(k, n), stats.clopper_pearson_interval(k, n)):
        assert 0.0 <= low <= p <= high <= 1.0


def test_t_value_matches_scipy():
    for df in (1, 2, 5, 29, 1000):
        for confidence in (0.9, 0.95, 0.99):
            assert stats.t_value(df, confidence) == pytest.approx(
                scipy_stats.t.ppf(0.5 + confidence / 2, df), rel=1e-9
            )
    assert stats.z_value(0.95) == pytest.approx(1.959963984540054)


# ------------------------------------------------------------------------------ edge cases


@pytest.mark.parametrize("n", [1, 7, 100, 100_000])
def test_zero_and_all_successes(n):
    for interval in (stats.wilson_interval, stats.clopper_pearson_interval):
        low, high = interval(0, n)
        assert low == 0.0 and 0.0 < high < 1.0
        low, high = interval(n, n)
        assert high == 1.0 and 0.0 < low < 1.0
    # exact: 0/n has upper bound 1 - (alpha/2)^(1/n)
    assert stats.clopper_pearson_interval(0, n)[1] == pytest.approx(1 - 0.025 ** (1 / n), rel=1e-9)


def test_no_trials_is_the_whole_interval():
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)
    assert stats.clopper_pearson_interval(0, 0) == (0.0, 1.0)
    rate, low, high, method = stats.rate_interval(0, 0)
    assert math.isnan(rate) and (low, high, method) == (0.0, 1.0, "none")
    assert stats.format_rate(0, 0) == "n/a (n=0)"


@pytest.mark.parametrize("k,n", [(-1, 10), (11, 10), (1.5, 10)])
def test_bad_counts_raise(k, n):
    with pytest.raises(ValueError):
        stats.wilson_interval(k, n)
    with pytest.raises(ValueError):
        stats.clopper_pearson_interval(k, n)


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1])
def test_bad_confidence_raises(confidence):
    with pytest.raises(ValueError):
        stats.wilson_interval(1, 10, confidence)


# --------------------------------------------------------------------------- vectorisation


def test_vectorised_matches_scalar():
    k = np.array([0, 3, 50, 81, 263])
    n = np.array([10, 10, 100, 263, 263])
    for interval in (stats.wilson_interval, stats.clopper_pearson_interval):
        low, high = interval(k, n)
        assert isinstance(low, np.ndarray) and low.shape == k.shape
        for i in range(k.size):
            assert (low[i], high[i]) == pytest.approx(interval(int(k[i]), int(n[i])), abs=1e-12)


def test_vectorised_broadcasts_scalar_n_and_2d():
    k = np.arange(12).reshape(3, 4)
    low, high = stats.wilson_interval(k, 11)
    assert low.shape == high.shape == (3, 4)
    assert low[0, 0] == 0.0 and high[2, 3] == 1.0
    low, high = stats.clopper_pearson_interval(k, 11, use_scipy=False)
    assert low.shape == (3, 4) and high[2, 3] == 1.0


def test_scalar_in_gives_floats_out():
    low, high = stats.wilson_interval(np.int64(5), np.int64(10))
    assert type(low) is float and type(high) is float


# -------------------------------------------------------------------------- rate_interval


def test_rate_interval_picks_exact_for_small_or_lopsided_samples():
    assert stats.rate_interval(10, 20)[3] == "Clopper-Pearson"  # n < 30
    assert stats.rate_interval(4, 1000)[3] == "Clopper-Pearson"  # few successes
    assert stats.rate_interval(996, 1000)[3] == "Clopper-Pearson"  # few failures
    rate, low, high, method = stats.rate_interval(81, 263)
    assert method == "Wilson" and rate == pytest.approx(81 / 263)
    assert (low, high) == pytest.approx(scipy_ci(81, 263, "wilson"))
    rate, low, high, method = stats.rate_interval(2, 1000)
    assert (low, high) == pytest.approx(scipy_ci(2, 1000, "exact"))


def test_format_rate():
    assert stats.format_rate(41_200, 100_000) == "41.2% [40.9%, 41.5%] (95% Wilson, n=100000)"
    assert stats.format_rate(3, 10) == "30.0% [6.7%, 65.2%] (95% Clopper-Pearson, n=10)"
    assert stats.format_rate(5, 10, confidence=0.9, digits=0) == "50% [22%, 78%] (90% Clopper-Pearson, n=10)"
    # narrow intervals get more decimals so they stay visible
    assert stats.format_rate(1_090, 200_000) == "0.55% [0.51%, 0.58%] (95% Wilson, n=200000)"
    assert stats.format_rate(3, 1_000_000) == "0.000% [0.000%, 0.001%] (95% Clopper-Pearson, n=1000000)"
    assert stats.format_rate(109, 20_000) == "0.55% [0.45%, 0.66%] (95% Wilson, n=20000)"
    assert stats.format_rate(109, 20_000, digits=1) == "0.5% [0.5%, 0.7%] (95% Wilson, n=20000)"


# -------------------------------------------------------------------------- mean_interval


def test_mean_interval_small_sample_uses_t():
    values = [1.0, 2.0, 3.0, 4.0]
    mean, low, high = stats.mean_interval(values)
    expected = scipy_stats.t.interval(0.95, 3, loc=2.5, scale=scipy_stats.sem(values))
    assert mean == 2.5
    assert (low, high) == pytest.approx(expected, rel=1e-9)


def test_mean_interval_large_sample_is_normal():
    rng = np.random.default_rng(3)
    x = rng.normal(10.0, 2.0, size=100_000)
    mean, low, high = stats.mean_interval(x)
    half = 1.959964 * x.std(ddof=1) / math.sqrt(x.size)
    assert high - mean == pytest.approx(half, rel=1e-4)
    assert low < 10.0 < high


def test_mean_interval_degenerate():
    assert all(math.isnan(v) for v in stats.mean_interval([]))
    mean, low, high = stats.mean_interval([3])
    assert mean == 3 and math.isnan(low) and math.isnan(high)
    assert stats.mean_interval([2, 2, 2]) == (2.0, 2.0, 2.0)


# ---------------------------------------------------------------------------------- coverage


@pytest.mark.parametrize("p", [0.05, 0.2, 0.5, 0.77])
def test_wilson_coverage_is_near_nominal(p):
    rng = np.random.default_rng(20240611)
    n, reps = 400, 2000
    k = rng.binomial(n, p, size=reps)
    low, high = stats.wilson_interval(k, n)
    coverage = np.mean((low <= p) & (p <= high))
    assert 0.93 <= coverage <= 0.97, coverage


def test_clopper_pearson_is_conservative():
    rng = np.random.default_rng(7)
    n, reps, p = 25, 2000, 0.3
    k = rng.binomial(n, p, size=reps)
    low, high = stats.clopper_pearson_interval(k, n)
    assert np.mean((low <= p) & (p <= high)) >= 0.95

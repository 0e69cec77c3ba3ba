"""Interval estimates, paired comparisons, multiplicity, planning and character models: textbook
values, agreement with scipy/statsmodels, edge cases, vectorisation, coverage and power by simulation."""
from __future__ import annotations

import itertools
import math
from unittest import mock

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
import statsmodels.formula.api as smf
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_effectsize

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


@pytest.mark.parametrize("p,n", [(0.5, 100), (0.1, 400), (0.02, 2000), (0.3, 50), (0.3, 30)])
def test_coverage_of_wilson_rate_interval_and_clopper_pearson(p, n):
    """Wilson is near nominal here except at (0.3, 30), where its exact coverage dips to 0.930 (its
    known oscillation at small n); rate_interval switches to Clopper-Pearson for the lopsided
    counts there and stays near nominal; Clopper-Pearson never undercovers."""
    rng = np.random.default_rng(1998)
    k = rng.binomial(n, p, size=4000)
    values, times = np.unique(k, return_counts=True)

    def coverage(low, high):
        return np.sum(times * ((low <= p) & (p <= high))) / k.size

    wilson = coverage(*stats.wilson_interval(values, n))
    rate = coverage(*np.array([stats.rate_interval(int(v), n)[1:3] for v in values]).T)
    exact = coverage(*stats.clopper_pearson_interval(values, n))
    if (p, n) != (0.3, 30):
        assert 0.93 <= wilson <= 0.97, wilson
    assert 0.93 <= rate <= 0.97, rate
    assert exact >= 0.94, exact


# --------------------------------------------------------------------------------- McNemar


def test_mcnemar_exact_textbook_values():
    # Bentur et al. airway data used by Fagerland, Lydersen & Laake (BMC Med Res Methodol 2013):
    # 1 vs 7 discordant pairs, exact p = 2 * P(Bin(8, 1/2) <= 1) = 2 * 9 / 256.
    assert stats.mcnemar_exact(1, 7) == pytest.approx(18 / 256, rel=1e-12)
    assert stats.mcnemar_exact(7, 1) == stats.mcnemar_exact(1, 7)
    # Altman et al., Statistics with Confidence, Table 6.2: 5 vs 0 -> 2 / 2^5
    assert stats.mcnemar_exact(5, 0) == pytest.approx(1 / 16, rel=1e-12)
    assert stats.mcnemar_exact(0, 0) == 1.0
    assert stats.mcnemar_exact(4, 4) == 1.0


@pytest.mark.parametrize("b,c", [(1, 0), (3, 3), (5, 12), (12, 5), (40, 61), (150, 86), (1000, 1100), (0, 25)])
def test_mcnemar_exact_agrees_with_statsmodels_and_scipy(b, c):
    ours = stats.mcnemar_exact(b, c)
    assert ours == pytest.approx(mcnemar([[20, b], [c, 30]], exact=True).pvalue, rel=1e-10)
    assert ours == pytest.approx(scipy_stats.binomtest(b, b + c, 0.5).pvalue, rel=1e-10)


@pytest.mark.parametrize("b,c", [(-1, 3), (1.5, 2), (2, -4)])
def test_mcnemar_exact_rejects_bad_counts(b, c):
    with pytest.raises(ValueError):
        stats.mcnemar_exact(b, c)


# ------------------------------------------------------------------------ paired difference


def test_paired_difference_published_example():
    # Cavo et al. (2012) complete response before/after consolidation: 59, 6, 16, 80. The Newcombe
    # square-and-add interval -0.0621 (-0.1186 to -0.0046) is the value asserted by the test suite of
    # the contingencytables R package (Fagerland, Lydersen & Laake). Without Newcombe's adjustment of
    # phi the limits would be -0.1174 and -0.0059, so this also pins down that adjustment.
    result = stats.paired_difference_counts(59, 6, 16, 80)
    assert result.n == 161 and (result.only_a, result.only_b) == (6, 16)
    assert result.rate_a == pytest.approx(65 / 161) and result.rate_b == pytest.approx(75 / 161)
    assert round(result.diff, 4) == -0.0621
    assert (round(result.low, 4), round(result.high, 4)) == (-0.1186, -0.0046)
    assert result.p_value == stats.mcnemar_exact(6, 16)
    assert result.method == "Newcombe hybrid score"


@pytest.mark.parametrize("cells", [(40_000, 6_000, 5_000, 49_000), (10, 2_500, 2_100, 95_390), (30_000, 0, 300, 69_700)])
def test_paired_difference_matches_wald_for_large_n(cells):
    both, only_a, only_b, neither = cells
    n = sum(cells)
    result = stats.paired_difference_counts(*cells)
    half = stats.z_value() * math.sqrt((only_a + only_b) - (only_a - only_b) ** 2 / n) / n
    assert result.diff == pytest.approx((only_a - only_b) / n)
    assert result.low == pytest.approx(result.diff - half, abs=1e-3)
    assert result.high == pytest.approx(result.diff + half, abs=1e-3)


@settings(max_examples=300, deadline=None)
@given(cells=st.tuples(*[st.integers(0, 300)] * 4), confidence=st.sampled_from([0.9, 0.95, 0.99]))
def test_paired_difference_properties(cells, confidence):
    if sum(cells) == 0:
        return
    result = stats.paired_difference_counts(*cells, confidence=confidence)
    assert -1.0 <= result.low <= result.diff <= result.high <= 1.0
    assert result.high - result.low > 0.0  # finite data never pin the difference down exactly
    both, only_a, only_b, neither = cells
    swapped = stats.paired_difference_counts(both, only_b, only_a, neither, confidence=confidence)
    assert (swapped.low, swapped.high) == pytest.approx((-result.high, -result.low), abs=1e-12)
    assert swapped.p_value == result.p_value


def test_paired_difference_without_discordant_games_is_narrow_around_zero():
    for cells in [(500, 0, 0, 500), (1000, 0, 0, 0), (0, 0, 0, 1000)]:
        result = stats.paired_difference_counts(*cells)
        assert result.diff == 0.0 and result.p_value == 1.0
        assert result.low < 0.0 < result.high and result.high - result.low < 0.01


def test_paired_difference_from_game_arrays():
    rng = np.random.default_rng(11)
    wins_a = rng.random(5000) < 0.5
    wins_b = np.where(rng.random(5000) < 0.1, ~wins_a, wins_a)  # 10% of games change result
    result = stats.paired_difference(wins_a, wins_b)
    cells = [np.sum(wins_a & wins_b), np.sum(wins_a & ~wins_b), np.sum(~wins_a & wins_b), np.sum(~wins_a & ~wins_b)]
    assert result == stats.paired_difference_counts(*(int(c) for c in cells))
    assert stats.paired_difference(wins_a.astype(int), wins_b.astype(int)) == result
    # pairing pays: with 10% of results changing, the interval is under half as wide as for
    # independent games (whose widths would add in quadrature)
    low_a, high_a = stats.wilson_interval(int(wins_a.sum()), 5000)
    low_b, high_b = stats.wilson_interval(int(wins_b.sum()), 5000)
    assert result.high - result.low < 0.5 * math.hypot(high_a - low_a, high_b - low_b)


def test_paired_difference_edge_cases():
    empty = stats.paired_difference([], [])
    assert empty.n == 0 and (empty.low, empty.high, empty.method) == (-1.0, 1.0, "none")
    with pytest.raises(ValueError, match="same games"):
        stats.paired_difference([True, False], [True])
    with pytest.raises(ValueError, match="booleans"):
        stats.paired_difference([0.5, 1.0], [1, 0])
    with pytest.raises(ValueError):
        stats.paired_difference_counts(1, 2, -3, 4)


def test_paired_difference_coverage():
    rng = np.random.default_rng(2635)
    n, rate_a, rate_b, discordance = 200, 0.45, 0.40, 0.25
    only_a = (discordance + rate_a - rate_b) / 2
    only_b = (discordance - rate_a + rate_b) / 2
    probabilities = [rate_a - only_a, only_a, only_b, 1 - rate_a - only_b]
    tables = rng.multinomial(n, probabilities, size=3000)
    covered = [r.low <= rate_a - rate_b <= r.high for r in (stats.paired_difference_counts(*t) for t in tables)]
    assert 0.93 <= np.mean(covered) <= 0.975, np.mean(covered)


# ------------------------------------------------------------------------------------ Holm


def test_holm_hand_example():
    adjusted = stats.holm([0.01, 0.04, 0.03, 0.005])
    # sorted: 4 * 0.005, 3 * 0.01, 2 * 0.03, then 1 * 0.04 lifted to the running maximum 0.06
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(stats.holm([0.5, 0.9]), [1.0, 1.0])
    assert stats.holm([]).shape == (0,)


def test_holm_passes_nans_through():
    adjusted = stats.holm([0.01, np.nan, 0.02])
    assert np.isnan(adjusted[1])
    np.testing.assert_allclose(adjusted[[0, 2]], [0.02, 0.02])
    with pytest.raises(ValueError):
        stats.holm([0.1, 1.5])


@settings(max_examples=100, deadline=None)
@given(p=st.lists(st.floats(0, 1), min_size=1, max_size=40))
def test_holm_matches_statsmodels(p):
    # multipletests runs a full garbage collection on every call (~0.1 s each here); skip it
    with mock.patch("gc.collect", return_value=0):
        expected = multipletests(p, method="holm")[1]
    np.testing.assert_allclose(stats.holm(p), expected, rtol=1e-12, atol=1e-15)


# -------------------------------------------------------------------------------- planning


def test_games_for_precision():
    # At p = 1/2 the Wilson half-width is z / (2 sqrt(n + z^2)): n >= (z / 2h)^2 - z^2 = 9599.8
    assert stats.games_for_precision(0.5, 0.01) == 9600
    # At p = 0 (or 1) it is z^2 / (2 (n + z^2)): n >= z^2 / 2h - z^2 = 188.2, not the normal formula's 0
    assert stats.games_for_precision(0.0, 0.01) == stats.games_for_precision(1.0, 0.01) == 189
    assert stats.wilson_interval(0, 189)[1] / 2 <= 0.01 < stats.wilson_interval(0, 188)[1] / 2
    normal = stats.z_value() ** 2 * 0.3 * 0.7 / 0.01**2
    assert stats.games_for_precision(0.3, 0.01) == pytest.approx(normal, rel=0.01)
    assert stats.games_for_precision(0.3, 0.01, confidence=0.99) > stats.games_for_precision(0.3, 0.01)
    assert stats.games_for_precision(0.5, 0.45) == 1
    for p, h in [(1.5, 0.01), (0.5, 0.0), (0.5, 0.5)]:
        with pytest.raises(ValueError):
            stats.games_for_precision(p, h)


def test_games_to_distinguish_textbook_values():
    # 48% vs 50%: (1.95996 sqrt(2 * .49 * .51) + 0.84162 sqrt(.48 * .52 + .5 * .5))^2 / .02^2 = 9805.98
    assert stats.games_to_distinguish(0.48, 0.50) == 9806
    assert stats.games_to_distinguish(0.50, 0.48) == 9806
    # against a fixed 50%: (1.95996 * .5 + 0.84162 sqrt(.48 * .52))^2 / .02^2 = 4903.2
    assert stats.games_to_distinguish(0.48, 0.50, design="one-sample") == 4904
    # Connor (1987), paired: (1.95996 sqrt(.2) + 0.84162 sqrt(.2 - .01))^2 / .1^2 = 154.6
    assert stats.games_to_distinguish(0.3, 0.4, design="paired", discordance=0.2) == 155


def test_games_to_distinguish_agrees_with_statsmodels_arcsine_power():
    # statsmodels uses Cohen's arcsine effect size, so the answers agree only approximately
    effect = proportion_effectsize(0.48, 0.50)
    independent = NormalIndPower().solve_power(effect_size=effect, alpha=0.05, power=0.8, ratio=1)
    one_sample = NormalIndPower().solve_power(effect_size=effect, alpha=0.05, power=0.8, ratio=0)
    assert stats.games_to_distinguish(0.48, 0.50) == pytest.approx(independent, rel=0.02)
    assert stats.games_to_distinguish(0.48, 0.50, design="one-sample") == pytest.approx(one_sample, rel=0.02)
    effect = proportion_effectsize(0.3, 0.4)
    independent = NormalIndPower().solve_power(effect_size=effect, alpha=0.01, power=0.9, ratio=1)
    assert stats.games_to_distinguish(0.3, 0.4, alpha=0.01, power=0.9) == pytest.approx(independent, rel=0.03)


def test_games_to_distinguish_monotone_and_pairing_pays():
    for design, discordance in [("independent", None), ("one-sample", None), ("paired", 0.2)]:
        needs = [stats.games_to_distinguish(0.4 + gap, 0.4, design=design, discordance=discordance)
                 for gap in (0.1, 0.05, 0.02, 0.01)]
        assert needs == sorted(needs) and len(set(needs)) == 4
    assert stats.games_to_distinguish(0.3, 0.4, power=0.9) > stats.games_to_distinguish(0.3, 0.4)
    assert stats.games_to_distinguish(0.3, 0.4, alpha=0.01) > stats.games_to_distinguish(0.3, 0.4)
    independent = stats.games_to_distinguish(0.48, 0.50)
    paired = stats.games_to_distinguish(0.48, 0.50, design="paired", discordance=0.05)
    assert paired == 979 and paired < independent / 10
    # more games changing result -> less gained from pairing
    assert stats.games_to_distinguish(0.48, 0.50, design="paired", discordance=0.5) > paired


@pytest.mark.parametrize("design,discordance", [("independent", None), ("one-sample", None), ("paired", 0.3)])
def test_power_to_distinguish_inverts_games_to_distinguish(design, discordance):
    for p1, p2, power in [(0.48, 0.5, 0.8), (0.3, 0.4, 0.9), (0.6, 0.45, 0.5)]:
        n = stats.games_to_distinguish(p1, p2, power=power, design=design, discordance=discordance)
        assert stats.power_to_distinguish(n, p1, p2, design=design, discordance=discordance) >= power
        assert stats.power_to_distinguish(n - 1, p1, p2, design=design, discordance=discordance) < power


@pytest.mark.parametrize("kwargs,message", [
    ({"p1": 0.0, "p2": 0.5}, "p1 must be strictly between 0 and 1"),
    ({"p1": 0.5, "p2": 1.2}, "p2 must be strictly between 0 and 1"),
    ({"p1": 0.5, "p2": 0.5}, "equal"),
    ({"p1": 0.4, "p2": 0.5, "alpha": 0.0}, "alpha"),
    ({"p1": 0.4, "p2": 0.5, "power": 1.0}, "power"),
    ({"p1": 0.4, "p2": 0.5, "design": "crossover"}, "design must be one of"),
    ({"p1": 0.4, "p2": 0.5, "design": "paired"}, "needs discordance"),
    ({"p1": 0.4, "p2": 0.5, "design": "paired", "discordance": 0.05}, "between \\|p1 - p2\\| = 0.1 and 0.9"),
    ({"p1": 0.4, "p2": 0.5, "design": "paired", "discordance": 0.95}, "discordance must lie between"),
    ({"p1": 0.4, "p2": 0.5, "discordance": 0.2}, "only applies to design='paired'"),
])
def test_games_to_distinguish_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        stats.games_to_distinguish(**kwargs)


def test_planned_games_give_the_planned_power_independent():
    rng = np.random.default_rng(356)
    n = stats.games_to_distinguish(0.3, 0.4)
    assert n == 356
    k1, k2 = rng.binomial(n, 0.3, size=2000), rng.binomial(n, 0.4, size=2000)
    pooled = (k1 + k2) / (2 * n)
    z = (k2 - k1) / n / np.sqrt(pooled * (1 - pooled) * 2 / n)
    assert abs(np.mean(np.abs(z) > stats.z_value()) - 0.8) <= 0.04


def test_planned_games_give_the_planned_power_paired():
    """Connor's formula is a normal approximation and the exact McNemar test is conservative: its
    exact power at the planned n here is 0.783 (0.776 at discordance 0.15, 0.762 at 0.2)."""
    rng = np.random.default_rng(1987)
    p1, p2, discordance = 0.3, 0.4, 0.5
    n = stats.games_to_distinguish(p1, p2, design="paired", discordance=discordance)
    only_1 = (discordance + p1 - p2) / 2
    only_2 = (discordance - p1 + p2) / 2
    tables = rng.multinomial(n, [p1 - only_1, only_1, only_2, 1 - p1 - only_2], size=2000)
    rejected = [stats.mcnemar_exact(t[1], t[2]) <= 0.05 for t in tables]
    assert abs(np.mean(rejected) - 0.8) <= 0.04


# ------------------------------------------------------------------- character combinations


CREW = ("spike", "jet", "faye", "ed")
TRUE_MAIN = dict(zip(CREW, (0.6, -0.2, -0.1, -0.3)))
PAIRS = list(itertools.combinations(CREW, 2))
ALL_TEAMS = [team for size in (2, 3, 4) for team in itertools.combinations(CREW, size)]


def crew_counts(teams, games, synergy=0.0, rng=None):
    """Per-team counts from logit P(win) = size baseline + sum of main effects + synergy on spike+jet."""
    rows = []
    for team in teams:
        eta = {2: 0.1, 3: -0.4, 4: -0.9}[len(team)] + sum(TRUE_MAIN[c] for c in team)
        eta += synergy if {"spike", "jet"} <= set(team) else 0.0
        p = 1 / (1 + math.exp(-eta))
        wins = int(rng.binomial(games, p)) if rng is not None else round(games * p)
        rows.append({"team": team, "wins": wins, "games": games})
    return pd.DataFrame(rows)


def test_team_ranking():
    counts = pd.DataFrame({"team": [("spike", "jet"), "jet+faye", "faye, spike", "jet,spike", "ed+spike"],
                           "wins": [5, 50, 40, 45, 2], "games": [10, 100, 100, 90, 20]})
    ranking = stats.team_ranking(counts)
    assert list(ranking.columns) == ["team", "size", "games", "wins", "rate", "low", "high", "method", "rank"]
    # the two spike+jet rows are one team; names are ordered by first appearance
    assert ranking["team"].tolist() == ["spike+jet", "jet+faye", "spike+faye", "spike+ed"]
    assert ranking["rank"].tolist() == [1, 1, 3, 4]
    assert ranking.loc[0, ["games", "wins", "size"]].tolist() == [100, 50, 2]
    rate, low, high, method = stats.rate_interval(2, 20)
    assert ranking.iloc[3][["rate", "low", "high", "method"]].tolist() == [rate, low, high, method]


@pytest.mark.parametrize("counts,message", [
    (pd.DataFrame({"team": ["a+b"], "wins": [1]}), "missing games"),
    (pd.DataFrame({"team": ["a+a"], "wins": [1], "games": [2]}), "distinct"),
    (pd.DataFrame({"team": ["a+"], "wins": [1], "games": [2]}), "non-empty"),
    (pd.DataFrame({"team": ["a+b"], "wins": [3], "games": [2]}), "wins <= games"),
    (pd.DataFrame({"team": ["a+b"], "wins": [0], "games": [0]}), "games > 0"),
    (pd.DataFrame({"team": ["a+b"], "wins": [1.5], "games": [2]}), "whole number"),
])
def test_team_counts_are_validated(counts, message):
    with pytest.raises(ValueError, match=message):
        stats.team_ranking(counts)


@pytest.mark.parametrize("teams", [PAIRS, ALL_TEAMS], ids=["pairs", "all sizes"])
def test_character_effects_recover_known_main_effects(teams):
    model = stats.character_effects(crew_counts(teams, 10**7))
    assert model.fit_method == "binomial GLM (maximum likelihood)"
    main = model.main.set_index("character")
    assert list(main.index) == list(CREW)
    np.testing.assert_allclose(main["coef"], [TRUE_MAIN[c] for c in CREW], atol=0.02)
    assert main["coef"].sum() == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(main["odds_ratio"], np.exp(main["coef"]))
    assert (main["low"] < main["coef"]).all() and (main["coef"] < main["high"]).all()
    assert main["teams"].tolist() == [sum(c in t for t in teams) for c in CREW]
    assert main["games"].tolist() == [10**7 * sum(c in t for t in teams) for c in CREW]
    interactions = model.interactions
    assert interactions["pair"].tolist() == [f"{a}+{b}" for a, b in PAIRS]
    assert interactions["estimable"].all()
    np.testing.assert_allclose(interactions["coef"], 0.0, atol=0.01)
    assert (interactions["p_holm"] > 0.5).all()


def test_character_effects_find_the_one_true_synergy():
    model = stats.character_effects(crew_counts(ALL_TEAMS, 200_000, synergy=0.8, rng=np.random.default_rng(42)))
    interactions = model.interactions.set_index("pair")
    significant = interactions.index[interactions["p_holm"] < 0.01].tolist()
    assert significant == ["spike+jet"]
    assert interactions.loc["spike+jet", "coef"] == pytest.approx(0.8, abs=0.05)
    assert interactions.loc["spike+jet", "low"] < 0.8 < interactions.loc["spike+jet", "high"]
    # models that leave the real synergy out fit far worse than chance allows
    assert (interactions.drop("spike+jet")["dispersion"] > 100).all()
    assert any("main effects alone fit the teams worse" in note for note in model.notes)
    assert any("team sizes 2, 3, 4" in note for note in model.notes)


def test_character_effects_flag_confounded_pairs():
    """With pairs only, spike+jet and faye+ed are complementary teams: given the main effects, a
    synergy of one is the same model as a synergy of the other, so both show up and a note says so."""
    model = stats.character_effects(crew_counts(PAIRS, 200_000, synergy=0.8, rng=np.random.default_rng(42)))
    interactions = model.interactions.set_index("pair")
    assert sorted(interactions.index[interactions["p_holm"] < 0.01]) == ["faye+ed", "spike+jet"]
    assert interactions.loc["spike+jet", "coef"] == pytest.approx(interactions.loc["faye+ed", "coef"], rel=1e-6)
    assert any(note.startswith("spike+jet and faye+ed: their interactions are confounded") for note in model.notes)


def test_character_effects_match_per_game_logistic_regression():
    rng = np.random.default_rng(7)
    counts = crew_counts(PAIRS, 300, rng=rng)
    games = pd.DataFrame([{**{c: int(c in row.team) for c in CREW}, "win": int(g < row.wins)}
                          for row in counts.itertuples() for g in range(row.games)])
    model = stats.character_effects(counts)
    main = model.main.set_index("character")
    # effect coding written out: beta_ed is minus the sum of the other three
    effect = smf.glm("win ~ I(spike - ed) + I(jet - ed) + I(faye - ed)", games, family=sm.families.Binomial()).fit()
    np.testing.assert_allclose(main["coef"][:3], effect.params.iloc[1:], atol=1e-6)
    np.testing.assert_allclose(main["se"][:3] / np.sqrt(main["dispersion"][:3]), effect.bse.iloc[1:], rtol=1e-6)
    # treatment coding, with ed as the reference, re-centred to sum to zero
    treatment = smf.glm("win ~ spike + jet + faye", games, family=sm.families.Binomial()).fit()
    relative = np.append(treatment.params[["spike", "jet", "faye"]].to_numpy(), 0.0)
    np.testing.assert_allclose(main["coef"], relative - relative.mean(), atol=1e-6)


def test_character_effects_zero_cells_use_haldane_correction():
    counts = crew_counts(PAIRS, 400, rng=np.random.default_rng(3))
    counts.loc[0, "wins"] = 0
    counts.loc[5, "wins"] = 400
    model = stats.character_effects(counts)
    assert "Haldane-Anscombe" in model.fit_method
    assert any("won all or none" in note and "spike+jet" in note and "faye+ed" in note for note in model.notes)
    numbers = model.main[["coef", "se", "low", "high", "p_value"]].to_numpy()
    assert np.isfinite(numbers).all()
    assert np.isfinite(model.interactions[["coef", "se"]].to_numpy()).all()


def test_character_effects_team_strings_and_tuples_agree():
    counts = crew_counts(ALL_TEAMS, 1000, rng=np.random.default_rng(5))
    as_strings = counts.assign(team=["+".join(t) for t in counts["team"]])
    as_commas = counts.assign(team=[", ".join(t) for t in counts["team"]])
    ours = stats.character_effects(counts)
    for other in (stats.character_effects(as_strings), stats.character_effects(as_commas)):
        pd.testing.assert_frame_equal(ours.main, other.main)
        pd.testing.assert_frame_equal(ours.interactions, other.interactions)
        assert ours.notes == other.notes


def test_character_effects_report_what_the_teams_cannot_estimate():
    # spike and jet always play together: only their sum is identified
    counts = pd.DataFrame({"team": ["spike+jet", "spike+jet+faye", "spike+jet+ed", "faye+ed", "spike+jet+faye+ed"],
                           "wins": [50, 60, 40, 30, 45], "games": [100] * 5})
    model = stats.character_effects(counts)
    main = model.main.set_index("character")
    assert main.loc[["spike", "jet"], "coef"].isna().all()
    assert main.loc[["faye", "ed"], "coef"].notna().all()
    assert any("cannot separate the effects of spike, jet" in note for note in model.notes)
    # three pairs of three characters: the main effects already fit every team
    saturated = stats.character_effects(pd.DataFrame({"team": ["a+b", "a+c", "b+c"], "wins": [50, 60, 40],
                                                      "games": [100] * 3}))
    assert saturated.main["coef"].notna().all()
    assert not saturated.interactions["estimable"].any() and saturated.interactions["coef"].isna().all()
    assert any("a+b: no interaction estimate" in note for note in saturated.notes)
    with pytest.raises(ValueError, match="two different characters"):
        stats.character_effects(pd.DataFrame({"team": ["a"], "wins": [1], "games": [2]}))


def test_character_effects_work_on_counts_so_ten_times_the_games_keeps_the_coefficients():
    """The model is fitted to per-team counts (never to one row per game): scaling every count by
    10 keeps the coefficients, and the standard errors never grow (with a misfit of the main-effects
    model they stay put: the dispersion scaling grows with the counts too)."""
    counts = crew_counts(ALL_TEAMS, 20_000, rng=np.random.default_rng(1))
    scaled = counts.assign(wins=counts["wins"] * 10, games=counts["games"] * 10)
    small, large = stats.character_effects(counts), stats.character_effects(scaled)
    assert large.main["coef"].to_numpy() == pytest.approx(small.main["coef"].to_numpy(), abs=1e-8)
    assert np.all(large.main["se"].to_numpy() <= small.main["se"].to_numpy() * (1 + 1e-9))

"""Confidence intervals, tests and planning for Monte Carlo estimates.

Pure numpy + math at import time. `clopper_pearson_interval` uses `scipy.stats.beta` when scipy is
installed and an exact pure-Python fallback (regularised incomplete beta by continued fraction,
inverted by bisection) otherwise; `mean_interval` uses the same machinery for Student's t.
The paired comparisons (`paired_difference`, `mcnemar_exact`) need scipy and the character models
(`team_ranking`, `character_effects`) need pandas and statsmodels; they import them when called.

Conventions: `confidence` is two-sided (0.95 -> 2.5% in each tail); with n == 0 an interval is the
whole of [0, 1] (no data rules nothing out).
"""
from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "wilson_interval",
    "clopper_pearson_interval",
    "rate_interval",
    "mean_interval",
    "format_rate",
    "rate_digits",
    "z_value",
    "t_value",
    "mcnemar_exact",
    "PairedDifference",
    "paired_difference",
    "paired_difference_counts",
    "holm",
    "games_for_precision",
    "games_to_distinguish",
    "power_to_distinguish",
    "team_ranking",
    "CharacterModel",
    "character_effects",
]

EXACT_BELOW_N = 30
EXACT_BELOW_COUNT = 5


def _check_confidence(confidence: float) -> float:
    confidence = float(confidence)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return confidence


def _counts(successes: Any, n: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """Broadcast (successes, n) to float arrays; also report whether both were scalars."""
    scalar = np.ndim(successes) == 0 and np.ndim(n) == 0
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    k, m = np.broadcast_arrays(k, m)
    if np.any(m < 0) or np.any(k < 0) or np.any(k > m):
        raise ValueError("need 0 <= successes <= n")
    if np.any(k != np.floor(k)) or np.any(m != np.floor(m)):
        raise ValueError("successes and n must be whole numbers")
    return k, m, scalar


def _out(low: np.ndarray, high: np.ndarray, scalar: bool):
    if scalar:
        return float(low), float(high)
    return low, high


def z_value(confidence: float = 0.95) -> float:
    """Two-sided standard normal quantile: 1.959963... for 0.95."""
    confidence = _check_confidence(confidence)
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


# --------------------------------------------------------------------------------------- Wilson


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval for a binomial proportion (no continuity correction).

    Works on scalars (returns a pair of floats) and on numpy arrays (returns a pair of arrays,
    broadcast). 0/n gives a lower bound of exactly 0 and n/n an upper bound of exactly 1.
    """
    z = z_value(confidence)
    k, m, scalar = _counts(successes, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / m
        z2n = z * z / m
        denom = 1.0 + z2n
        centre = (p + z2n / 2.0) / denom
        half = (z / denom) * np.sqrt(p * (1.0 - p) / m + z2n / (4.0 * m))
        low = np.clip(centre - half, 0.0, 1.0)
        high = np.clip(centre + half, 0.0, 1.0)
    low = np.where(k == 0, 0.0, low)
    high = np.where(k == m, 1.0, high)
    low = np.where(m == 0, 0.0, low)
    high = np.where(m == 0, 1.0, high)
    return _out(low, high, scalar)


# ------------------------------------------------------------- incomplete beta (pure python)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction for the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = tiny if abs(d) < tiny else d
    d = 1.0 / d
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = tiny if abs(d) < tiny else d
        c = 1.0 + aa / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b) for a, b > 0."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _beta_ppf(q: float, a: float, b: float) -> float:
    """Inverse of I_x(a, b) in x, by bisection (monotone, so always converges)."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _betainc(a, b, mid) < q:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return 0.5 * (lo + hi)


def t_value(df: float, confidence: float = 0.95) -> float:
    """Two-sided Student's t quantile with `df` degrees of freedom (pure python, exact)."""
    confidence = _check_confidence(confidence)
    if df <= 0:
        raise ValueError(f"df must be positive, got {df}")
    # P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2); solve for x = df/(df+t^2) = alpha.
    alpha = 1.0 - confidence
    x = _beta_ppf(alpha, df / 2.0, 0.5)
    if x <= 0.0:
        return math.inf
    return math.sqrt(df * (1.0 - x) / x)


# ------------------------------------------------------------------------- Clopper-Pearson


def _clopper_pearson_python(k: np.ndarray, m: np.ndarray, alpha: float):
    low = np.empty(k.shape)
    high = np.empty(k.shape)
    for idx in np.ndindex(k.shape):
        ki, mi = float(k[idx]), float(m[idx])
        low[idx] = 0.0 if ki == 0 else _beta_ppf(alpha / 2.0, ki, mi - ki + 1.0)
        high[idx] = 1.0 if ki == mi else _beta_ppf(1.0 - alpha / 2.0, ki + 1.0, mi - ki)
    return low, high


def clopper_pearson_interval(successes, n, confidence: float = 0.95, *, use_scipy: bool | None = None):
    """Exact (Clopper-Pearson) interval for a binomial proportion, via beta quantiles.

    Uses scipy.stats.beta when available (or when `use_scipy=True`), else a pure-Python inversion
    of the regularised incomplete beta (`use_scipy=False` forces it). Scalars in -> floats out,
    arrays in -> arrays out.
    """
    alpha = 1.0 - _check_confidence(confidence)
    k, m, scalar = _counts(successes, n)
    beta = None
    if use_scipy is None or use_scipy:
        try:
            from scipy.stats import beta  # type: ignore[no-redef]
        except ImportError:
            if use_scipy:
                raise
            beta = None
    if beta is not None:
        with np.errstate(divide="ignore", invalid="ignore"):
            low = beta.ppf(alpha / 2.0, k, m - k + 1.0)
            high = beta.ppf(1.0 - alpha / 2.0, k + 1.0, m - k)
        low = np.where(k == 0, 0.0, low)
        high = np.where(k == m, 1.0, high)
    else:
        low, high = _clopper_pearson_python(k, m, alpha)
    low = np.where(m == 0, 0.0, np.asarray(low, dtype=float))
    high = np.where(m == 0, 1.0, np.asarray(high, dtype=float))
    return _out(low, high, scalar)


# ---------------------------------------------------------------------------- conveniences


def rate_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float, float, str]:
    """(rate, low, high, method) for one count.

    The exact Clopper-Pearson interval when the sample is small or lopsided (n < 30, or fewer than 5
    successes or failures), where Wilson's normal approximation is least trustworthy; Wilson
    otherwise. method is "Clopper-Pearson" or "Wilson" ("none" for n == 0, rate NaN).
    """
    k, m = int(successes), int(n)
    if m < 0 or not 0 <= k <= m:
        raise ValueError(f"need 0 <= successes <= n, got {k}/{m}")
    if m == 0:
        return math.nan, 0.0, 1.0, "none"
    if m < EXACT_BELOW_N or k < EXACT_BELOW_COUNT or m - k < EXACT_BELOW_COUNT:
        low, high = clopper_pearson_interval(k, m, confidence)
        method = "Clopper-Pearson"
    else:
        low, high = wilson_interval(k, m, confidence)
        method = "Wilson"
    return k / m, float(low), float(high), method


def mean_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): the t interval mean +- t_{n-1} * s / sqrt(n).

    For large n this is the normal approximation; the t quantile matters for small n. With one
    value the bounds are NaN; with no values everything is NaN. NaNs in `values` are not dropped.
    """
    x = np.asarray(values, dtype=float).ravel()
    count = x.size
    if count == 0:
        return math.nan, math.nan, math.nan
    mean = float(x.mean())
    if count == 1:
        return mean, math.nan, math.nan
    sd = float(x.std(ddof=1))
    half = t_value(count - 1, confidence) * sd / math.sqrt(count)
    return mean, mean - half, mean + half


def rate_digits(low: float, high: float) -> int:
    """Decimals (1..3) for a rate in percent: the interval's half-width spans >= 1.5 last digits."""
    half = 50.0 * (high - low)
    if not math.isfinite(half) or half <= 0:
        return 1
    return int(min(3, max(1, math.ceil(-math.log10(half / 1.5)))))


def _pct(x: float, digits: int) -> str:
    return f"{100.0 * x:.{digits}f}%"


def format_rate(successes: int, n: int, confidence: float = 0.95, digits: int | None = None) -> str:
    """'41.2% [40.9%, 41.5%] (95% Wilson, n=100000)'.

    `digits` decimals in the percentages; by default 1, or 2-3 when the interval is narrower than
    0.15 percentage point either side (so that it stays visible).
    """
    rate, low, high, method = rate_interval(successes, n, confidence)
    if method == "none":
        return f"n/a (n={int(n)})"
    d = rate_digits(low, high) if digits is None else int(digits)
    level = f"{100.0 * confidence:g}%"
    return f"{_pct(rate, d)} [{_pct(low, d)}, {_pct(high, d)}] ({level} {method}, n={int(n)})"


# ----------------------------------------------------------------------- paired comparisons


def _count(value: Any, name: str) -> int:
    """A non-negative whole number, or ValueError naming the argument."""
    number = int(value)
    if number != value or number < 0:
        raise ValueError(f"{name} must be a whole number >= 0, got {value!r}")
    return number


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts.

    b = games A won and B lost, c = games A lost and B won. If A and B are equally strong, each
    discordant game is a fair coin flip, so b ~ Bin(b + c, 1/2) and p = min(1, 2 P(X <= min(b, c))).
    Games both won or both lost say nothing about which is stronger and do not enter.
    """
    b, c = _count(b, "b"), _count(c, "c")
    if b + c == 0:
        return 1.0
    from scipy.stats import binom

    return float(min(1.0, 2.0 * binom.cdf(min(b, c), b + c, 0.5)))


@dataclass(frozen=True)
class PairedDifference:
    """Win rates of settings A and B played on the same games, and the difference A - B.

    low/high bound `diff`; only_a/only_b are the discordant games (won by A only / by B only), the
    only ones that carry information about the difference; p_value is the exact McNemar test.
    """

    n: int
    rate_a: float
    rate_b: float
    diff: float
    low: float
    high: float
    only_a: int
    only_b: int
    p_value: float
    method: str


def _paired_phi(both: int, only_a: int, only_b: int, neither: int) -> float:
    """Phi correlation of the paired outcomes, as Newcombe's interval uses it.

    0 when a margin is empty (phi undefined). A positive association is first reduced by n/2 and
    floored at 0 (Newcombe's adjustment): a continuity-style shrinkage that widens the interval a
    little when the games are positively correlated, as they are under common random numbers.
    """
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    if margins == 0:
        return 0.0
    n = both + only_a + only_b + neither
    cross = both * neither - only_a * only_b
    if cross > 0:
        cross = max(cross - n / 2.0, 0.0)
    return cross / math.sqrt(margins)


def paired_difference_counts(both: int, only_a: int, only_b: int, neither: int,
                             confidence: float = 0.95) -> PairedDifference:
    """Difference of two paired win rates from the 2x2 table of game outcomes.

    both / only_a / only_b / neither count the games that A and B both won, only A won, only B
    won, and neither won. The interval is Newcombe's hybrid score interval for paired data (1998,
    method 10): the two Wilson intervals combined through the correlation of the pairs. Unlike the
    Wald interval it stays inside [-1, 1] and does not collapse when discordant games are few.
    With no games at all the interval is the whole of [-1, 1].
    """
    confidence = _check_confidence(confidence)
    a, b, c, d = (_count(v, name) for v, name in
                  ((both, "both"), (only_a, "only_a"), (only_b, "only_b"), (neither, "neither")))
    n = a + b + c + d
    p_value = mcnemar_exact(b, c)
    if n == 0:
        return PairedDifference(0, math.nan, math.nan, math.nan, -1.0, 1.0, 0, 0, p_value, "none")
    rate_a, rate_b = (a + b) / n, (a + c) / n
    low_a, high_a = wilson_interval(a + b, n, confidence)
    low_b, high_b = wilson_interval(a + c, n, confidence)
    phi = _paired_phi(a, b, c, d)
    # How far each rate's Wilson limits reach below and above it; the difference's lower limit
    # combines A's reach down with B's reach up (and vice versa), discounted by the correlation.
    down_a, up_a = rate_a - low_a, high_a - rate_a
    down_b, up_b = rate_b - low_b, high_b - rate_b
    diff = rate_a - rate_b
    low = diff - math.sqrt(down_a**2 - 2.0 * phi * down_a * up_b + up_b**2)
    high = diff + math.sqrt(up_a**2 - 2.0 * phi * up_a * down_b + down_b**2)
    # The limits lie in [low_a - high_b, high_a - low_b] exactly; the clamp only absorbs rounding.
    return PairedDifference(n, rate_a, rate_b, diff, max(-1.0, low), min(1.0, high), b, c, p_value,
                            "Newcombe hybrid score")


def _win_flags(values: Any, name: str) -> np.ndarray:
    flags = np.asarray(values)
    if flags.ndim != 1 or not np.isin(flags, (0, 1)).all():
        raise ValueError(f"{name} must be a 1-d array of booleans (one per game)")
    return flags.astype(bool)


def paired_difference(wins_a, wins_b, confidence: float = 0.95) -> PairedDifference:
    """Compare two settings played on the same games (common random numbers), game by game.

    wins_a[i] and wins_b[i] are the results of game i under settings A and B. Pairing removes the
    luck of the deal that both share, so the interval is much narrower than for independent games
    whenever most games end the same way under both settings.
    """
    a, b = _win_flags(wins_a, "wins_a"), _win_flags(wins_b, "wins_b")
    if a.shape != b.shape:
        raise ValueError(f"wins_a and wins_b must cover the same games, got {a.size} and {b.size}")
    return paired_difference_counts(int(np.sum(a & b)), int(np.sum(a & ~b)), int(np.sum(~a & b)),
                                    int(np.sum(~a & ~b)), confidence)


def independent_difference(wins_a: int, n_a: int, wins_b: int, n_b: int, confidence: float = 0.95) -> PairedDifference:
    """Win rate A - B from two independent samples (different games): Newcombe's hybrid score
    interval from the two Wilson intervals (Newcombe 1998, method 10) and the two-sided pooled
    z-test. Returned in the PairedDifference shape with no discordant counts (only_a = only_b = 0)."""
    from scipy.stats import norm

    k1, n1, k2, n2 = (_count(v, name) for v, name in ((wins_a, "wins_a"), (n_a, "n_a"), (wins_b, "wins_b"), (n_b, "n_b")))
    if n1 == 0 or n2 == 0 or k1 > n1 or k2 > n2:
        raise ValueError(f"need 0 <= wins <= games and games > 0, got {k1}/{n1} and {k2}/{n2}")
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson_interval(k1, n1, confidence)
    l2, u2 = wilson_interval(k2, n2, confidence)
    diff = p1 - p2
    low = diff - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = diff + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p_value = 1.0 if se == 0 else float(2 * norm.sf(abs(diff) / se))
    return PairedDifference(n1 + n2, p1, p2, diff, low, high, 0, 0, p_value, "Newcombe hybrid score (independent)")


def holm(pvalues) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values, in the input order and shape.

    Keeps the chance of any false positive among the family at alpha whatever the dependence
    between the tests, and never rejects less than plain Bonferroni. NaNs are passed through and
    do not count as tests.
    """
    p = np.asarray(pvalues, dtype=float)
    flat = p.ravel()
    tested = ~np.isnan(flat)
    if np.any((flat[tested] < 0.0) | (flat[tested] > 1.0)):
        raise ValueError("p-values must lie in [0, 1]")
    order = np.flatnonzero(tested)[np.argsort(flat[tested], kind="stable")]
    m = order.size
    # The i-th smallest p-value is scaled by the number of hypotheses still standing; the running
    # maximum keeps the adjusted values in the same order as the raw ones.
    scaled = (m - np.arange(m)) * flat[order]
    adjusted = flat.copy()
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return adjusted.reshape(p.shape)


# ---------------------------------------------------------------------------------- planning


DESIGNS = ("independent", "one-sample", "paired")


def _wilson_half_width(p: float, n: float, z: float) -> float:
    """Half-width of the Wilson interval around an observed rate p after n games."""
    return z * math.sqrt(p * (1.0 - p) * n + z * z / 4.0) / (n + z * z)


def games_for_precision(p: float, half_width: float, confidence: float = 0.95) -> int:
    """Fewest games for which the Wilson interval around a win rate p is within +-half_width.

    Starts from the normal formula n = z^2 p (1 - p) / h^2 and corrects it by bisection, since the
    Wilson half-width differs from the normal one, most near rates of 0 or 1 (where the normal
    formula would say 0 games).
    """
    p, half_width = float(p), float(half_width)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must lie in [0, 1], got {p}")
    if not 0.0 < half_width < 0.5:
        raise ValueError(f"half_width must be strictly between 0 and 0.5, got {half_width}")
    z = z_value(confidence)
    # The half-width shrinks steadily as n grows (and is 1/2 at n = 0): bracket, then bisect.
    low, high = 0, max(1, math.ceil(z * z * p * (1.0 - p) / half_width**2))
    while _wilson_half_width(p, high, z) > half_width:
        low, high = high, 2 * high
    while high - low > 1:
        mid = (low + high) // 2
        if _wilson_half_width(p, mid, z) <= half_width:
            high = mid
        else:
            low = mid
    return high


def _planning_spreads(p1: float, p2: float, design: str, discordance: float | None) -> tuple[float, float]:
    """Per-game standard deviations (s0, s1) of the tested difference under "no difference" and at
    p1 vs p2, after validating the planning arguments.

    Every design's sample size is then n = (z_{alpha/2} s0 + z_power s1)^2 / (p1 - p2)^2.
    """
    for name, value in (("p1", p1), ("p2", p2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"{name} must be strictly between 0 and 1, got {value}")
    if p1 == p2:
        raise ValueError("p1 and p2 are equal: no number of games tells them apart")
    if design not in DESIGNS:
        raise ValueError(f"design must be one of {', '.join(DESIGNS)}, got {design!r}")
    if design != "paired" and discordance is not None:
        raise ValueError("discordance only applies to design='paired'")
    if design == "independent":
        mean = (p1 + p2) / 2.0
        return math.sqrt(2.0 * mean * (1.0 - mean)), math.sqrt(p1 * (1.0 - p1) + p2 * (1.0 - p2))
    if design == "one-sample":
        return math.sqrt(p2 * (1.0 - p2)), math.sqrt(p1 * (1.0 - p1))
    if discordance is None:
        raise ValueError("design='paired' needs discordance: the share of games whose result differs "
                         "between the two settings (measure it in a pilot run)")
    psi, gap = float(discordance), abs(p1 - p2)
    # Games won only at p1 minus games won only at p2 must make up the gap, and neither kind can
    # outnumber what the rates allow.
    most = min(p1 + p2, 2.0 - p1 - p2)
    if not gap <= psi <= most:
        raise ValueError(f"discordance must lie between |p1 - p2| = {gap:g} and {most:g} for these rates, "
                         f"got {psi:g}")
    return math.sqrt(psi), math.sqrt(psi - gap * gap)


def _check_alpha(alpha: float) -> float:
    alpha = float(alpha)
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be strictly between 0 and 1, got {alpha}")
    return alpha


def games_to_distinguish(p1: float, p2: float, *, alpha: float = 0.05, power: float = 0.8,
                         design: str = "independent", discordance: float | None = None) -> int:
    """Games per grid point for a two-sided level-alpha test to tell win rates p1 and p2 apart.

    design "independent": each point plays its own games; two-proportion z test (Fleiss).
    "one-sample": p2 is a fixed target, not an estimate; is the true rate p1 different from it?
    "paired": both points play the same games (common random numbers); McNemar test, Connor (1987).
    Needs `discordance`, the share of games whose result differs between the points: the fewer
    games change outcome, the fewer are needed. Connor's formula is a normal approximation; the
    exact McNemar test (`mcnemar_exact`) is conservative, so at this n its power falls a few points
    short of the target (0.76 to 0.78 instead of 0.80 for 30% vs 40%, depending on discordance).
    """
    alpha = _check_alpha(alpha)
    power = float(power)
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be strictly between 0 and 1, got {power}")
    s0, s1 = _planning_spreads(p1, p2, design, discordance)
    z_alpha, z_power = z_value(1.0 - alpha), NormalDist().inv_cdf(power)
    return max(1, math.ceil(((z_alpha * s0 + z_power * s1) / (p1 - p2)) ** 2))


def power_to_distinguish(n: int, p1: float, p2: float, *, alpha: float = 0.05, design: str = "independent",
                         discordance: float | None = None) -> float:
    """Approximate power of the test behind `games_to_distinguish` with n games per grid point."""
    alpha = _check_alpha(alpha)
    if not n > 0:
        raise ValueError(f"n must be positive, got {n}")
    s0, s1 = _planning_spreads(p1, p2, design, discordance)
    # The far rejection region (the wrong sign) adds a negligible amount and is left out, as in the
    # sample-size formula this inverts.
    return NormalDist().cdf((abs(p1 - p2) * math.sqrt(n) - z_value(1.0 - alpha) * s0) / s1)


# -------------------------------------------------------------------- character combinations


@dataclass(frozen=True)
class _Teams:
    """Per-team counts, validated: one entry per distinct team."""

    labels: list[str]  # "spike+jet", members in character order
    sizes: np.ndarray
    wins: np.ndarray
    games: np.ndarray
    characters: list[str]  # in order of first appearance
    members: np.ndarray  # teams x characters, 1.0 where the character is in the team


def _team_members(team: Any) -> tuple[str, ...]:
    names = team.replace(",", "+").split("+") if isinstance(team, str) else list(team)
    members = tuple(str(name).strip() for name in names)
    if not members or "" in members or len(set(members)) != len(members):
        raise ValueError(f"team {team!r} must list distinct, non-empty character names")
    return members


def _teams(counts: pd.DataFrame) -> _Teams:
    """Validate per-team counts; rows naming the same team (in any order or spelling) are added up."""
    missing = {"team", "wins", "games"} - set(counts.columns)
    if missing:
        raise ValueError(f"counts needs columns team, wins and games; missing {', '.join(sorted(missing))}")
    totals: dict[frozenset[str], list[int]] = {}
    characters: dict[str, None] = {}
    for team, wins, games in zip(counts["team"], counts["wins"], counts["games"]):
        members = _team_members(team)
        wins, games = _count(wins, "wins"), _count(games, "games")
        if games == 0 or wins > games:
            raise ValueError(f"team {team!r}: need 0 <= wins <= games and games > 0, got {wins}/{games}")
        characters.update(dict.fromkeys(members))
        total = totals.setdefault(frozenset(members), [0, 0])
        total[0] += wins
        total[1] += games
    if not totals:
        raise ValueError("counts has no teams")
    names = list(characters)
    members = np.array([[name in team for name in names] for team in totals], dtype=float)
    wins, games = np.array(list(totals.values()), dtype=np.int64).T
    labels = ["+".join(name for name in names if name in team) for team in totals]
    return _Teams(labels, members.sum(axis=1).astype(int), wins, games, names, members)


def team_ranking(counts: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """One row per team, best win rate first.

    `counts` has one row per team: `team` (a tuple of character names, or "a+b" / "a,b"), `wins`
    and `games`; rows for the same team are added together. Columns: team ("a+b"), size, games,
    wins, rate, low, high, method (as `rate_interval`) and rank (equal rates share a rank).
    """
    import pandas as pd

    teams = _teams(counts)
    rows = []
    for label, size, wins, games in zip(teams.labels, teams.sizes, teams.wins, teams.games):
        rate, low, high, method = rate_interval(wins, games, confidence)
        rows.append({"team": label, "size": int(size), "games": int(games), "wins": int(wins),
                     "rate": rate, "low": low, "high": high, "method": method})
    ranking = pd.DataFrame(rows).sort_values(["rate", "low"], ascending=False, kind="stable", ignore_index=True)
    ranking["rank"] = ranking["rate"].rank(method="min", ascending=False).astype(int)
    return ranking


@dataclass(frozen=True)
class CharacterModel:
    """Logistic model of who wins: per-character effects and pairwise synergies, in log-odds.

    main: one row per character; coef is its effect relative to the average character (the
    coefficients sum to zero). interactions: one row per pair seen in some team; coef > 0 means the
    pair does better together than their separate effects predict. notes: caveats (corrected zero
    cells, lack of fit, terms the teams cannot estimate or tell apart, fit problems).
    """

    main: pd.DataFrame
    interactions: pd.DataFrame
    notes: tuple[str, ...]
    fit_method: str


def _fit_binomial(successes: np.ndarray, failures: np.ndarray, design: np.ndarray, residual_df: int,
                  label: str, notes: list[str]) -> tuple[np.ndarray, np.ndarray, float] | None:
    """(params, covariance, dispersion) of a binomial GLM on per-team counts; problems become notes.

    The covariance is scaled by dispersion = max(1, Pearson X^2 / residual df): never below binomial
    noise, and above it when the model misses an effect that the counts show.
    """
    import statsmodels.api as sm
    from statsmodels.tools.sm_exceptions import PerfectSeparationError, PerfectSeparationWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # The caller checks the rank itself and says which terms it affects.
        warnings.filterwarnings("ignore", message="The design matrix is rank-deficient")
        # Zero cells are corrected before any fit, so true separation cannot happen; statsmodels
        # also raises this warning whenever the fitted rates equal the observed ones, which for
        # per-team counts just means an exact fit.
        warnings.filterwarnings("ignore", category=PerfectSeparationWarning)
        if residual_df == 0:
            # An internal least-squares step divides by the residual df, unused for the binomial.
            warnings.filterwarnings("ignore", message="divide by zero", category=RuntimeWarning)
        try:
            result = sm.GLM(np.column_stack([successes, failures]), design,
                            family=sm.families.Binomial()).fit()
        except (PerfectSeparationError, np.linalg.LinAlgError, ValueError) as error:
            notes.append(f"{label}: the fit failed ({error})")
            return None
    notes.extend(f"{label}: {caught_warning.category.__name__}: {caught_warning.message}"
                 for caught_warning in caught)
    if not result.converged:
        notes.append(f"{label}: the fit did not converge; treat its numbers with caution")
    dispersion = max(1.0, float(result.pearson_chi2) / residual_df) if residual_df > 0 else 1.0
    return np.asarray(result.params), np.asarray(result.cov_params()) * dispersion, dispersion


def _estimable(design: np.ndarray, rank: int, contrast: np.ndarray) -> bool:
    """Whether contrast @ params is pinned down by the data (a combination of the design's rows)."""
    return int(np.linalg.matrix_rank(np.vstack([design, contrast]))) == rank


def _wald_columns(coef: np.ndarray, se: np.ndarray, z: float) -> dict[str, np.ndarray]:
    from scipy.stats import norm

    p_value = 2.0 * norm.sf(np.abs(coef / se))
    return {"coef": coef, "se": se, "low": coef - z * se, "high": coef + z * se,
            "odds_ratio": np.exp(coef), "p_value": p_value, "p_holm": holm(p_value)}


def character_effects(counts: pd.DataFrame, confidence: float = 0.95) -> CharacterModel:
    """Which characters, and which pairs of characters, win more than the rest?

    Fits logit P(win) = mu + sum_c beta_c x_c (x_c = 1 when character c is in the team) as a
    binomial GLM on the per-team counts of `counts` (see `team_ranking`), with a separate baseline
    per team size when sizes differ, since a bigger crew changes the game a lot. The betas are
    effect-coded: they sum to zero and each reads "this character vs the average character". With
    a single team size that contrast is all the data can identify anyway (the sum of x_c is fixed).
    Every character gets a Wald interval and z-test, with Holm-adjusted p-values across characters.

    Then for each pair seen in some team, the same model plus the single column x_c x_d gives the
    pair's interaction (Holm across pairs). A pair is reported as not estimable when its column
    adds nothing the main effects do not already determine, or leaves no residual degrees of
    freedom. If some team won all or none of its games the maximum likelihood fit diverges, so 0.5
    is added to every team's wins and losses (Haldane-Anscombe) and `fit_method` says so.

    Standard errors are binomial, scaled up by the Pearson dispersion X^2/df (column `dispersion`)
    when a model fits the teams worse than binomial noise allows. Simulated counts are exactly
    binomial, so such a misfit means a missing effect; without the scaling one real synergy would
    make every pair that shares a character look significant too, since each pair is tested in a
    model that leaves the others out.
    """
    import pandas as pd

    z = z_value(confidence)
    teams = _teams(counts)
    names, x = teams.characters, teams.members
    if len(names) < 2:
        raise ValueError("character effects need at least two different characters")
    n_teams, n_chars = x.shape
    notes: list[str] = []

    successes = teams.wins.astype(float)
    failures = (teams.games - teams.wins).astype(float)
    extreme = (teams.wins == 0) | (teams.wins == teams.games)
    if extreme.any():
        successes, failures = successes + 0.5, failures + 0.5
        fit_method = "binomial GLM, 0.5 added to every team's wins and losses (Haldane-Anscombe)"
        notes.append("won all or none of their games, so the uncorrected fit would diverge: "
                     + ", ".join(label for label, flag in zip(teams.labels, extreme) if flag))
    else:
        fit_method = "binomial GLM (maximum likelihood)"

    sizes = sorted(set(teams.sizes.tolist()))
    columns = [np.ones(n_teams)] + [(teams.sizes == size).astype(float) for size in sizes[1:]]
    if len(sizes) > 1:
        notes.append(f"team sizes {', '.join(map(str, sizes))} each have their own baseline, so the "
                     "character effects compare teams of the same size")
    first = len(columns)
    # Effect coding: a column x_c - x_last for every character but the last, whose beta is minus
    # the sum of the others.
    columns += [x[:, k] - x[:, -1] for k in range(n_chars - 1)]
    design = np.column_stack(columns)
    contrasts = np.zeros((n_chars, design.shape[1]))
    contrasts[np.arange(n_chars - 1), first + np.arange(n_chars - 1)] = 1.0
    contrasts[-1, first:] = -1.0
    rank = int(np.linalg.matrix_rank(design))
    estimable = np.array([_estimable(design, rank, row) for row in contrasts])
    if not estimable.all():
        notes.append("these teams cannot separate the effects of "
                     + ", ".join(name for name, ok in zip(names, estimable) if not ok)
                     + " (reported as NaN); they need more varied teams")

    coef, se = np.full(n_chars, math.nan), np.full(n_chars, math.nan)
    dispersion = math.nan
    fit = _fit_binomial(successes, failures, design, n_teams - rank, "main effects", notes)
    if fit is not None:
        params, cov, dispersion = fit
        rows = contrasts[estimable]
        coef[estimable] = rows @ params
        se[estimable] = np.sqrt(np.einsum("ij,jk,ik->i", rows, cov, rows))
        if rank == n_teams:
            notes.append("the main effects have as many parameters as there are teams, so they fit "
                         "exactly and the fit cannot be checked against binomial noise")
        if dispersion > 1.0:
            notes.append(f"the main effects alone fit the teams worse than chance allows (dispersion "
                         f"{dispersion:.3g}), so some pair or bigger combination matters; their standard "
                         "errors are scaled up to match")
    main = pd.DataFrame({"character": names, **_wald_columns(coef, se, z),
                         "teams": x.sum(axis=0).astype(int), "games": (teams.games @ x).astype(np.int64),
                         "dispersion": dispersion})

    labels, gammas, gamma_ses, dispersions = [], [], [], []
    extra_columns: dict[str, np.ndarray] = {}
    for i, j in itertools.combinations(range(n_chars), 2):
        column = x[:, i] * x[:, j]
        if not column.any():
            continue
        label = f"{names[i]}+{names[j]}"
        augmented = np.column_stack([design, column])
        new_rank = int(np.linalg.matrix_rank(augmented))
        gamma = gamma_se = pair_dispersion = math.nan
        if new_rank == rank:
            notes.append(f"{label}: no interaction estimate, the main effects already fix how its teams do")
        elif new_rank >= n_teams:
            notes.append(f"{label}: no interaction estimate, the model would fit every team exactly "
                         "and leave nothing to test it against")
        else:
            fit = _fit_binomial(successes, failures, augmented, n_teams - new_rank, f"interaction {label}", notes)
            if fit is not None:
                params, cov, pair_dispersion = fit
                gamma, gamma_se = float(params[-1]), math.sqrt(cov[-1, -1])
                extra_columns[label] = column
        labels.append(label)
        gammas.append(gamma)
        gamma_ses.append(gamma_se)
        dispersions.append(pair_dispersion)
    # Two pairs are confounded when either column spans the other given the main effects: then
    # both models are the same model and no data on these teams can say which pair it is.
    for one, other in itertools.combinations(extra_columns, 2):
        both = np.column_stack([design, extra_columns[one], extra_columns[other]])
        if np.linalg.matrix_rank(both) == rank + 1:
            notes.append(f"{one} and {other}: their interactions are confounded; with these teams a "
                         "synergy of one looks exactly like a synergy of the other")
    interactions = pd.DataFrame({"pair": labels,
                                 **_wald_columns(np.array(gammas, dtype=float), np.array(gamma_ses, dtype=float), z),
                                 "dispersion": np.array(dispersions, dtype=float),
                                 "estimable": np.array([label in extra_columns for label in labels], dtype=bool)})
    return CharacterModel(main, interactions, tuple(dict.fromkeys(notes)), fit_method)

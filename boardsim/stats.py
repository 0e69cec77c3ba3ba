"""Confidence intervals for Monte Carlo estimates.

Pure numpy + math at import time. `clopper_pearson_interval` uses `scipy.stats.beta` when scipy is
installed and an exact pure-Python fallback (regularised incomplete beta by continued fraction,
inverted by bisection) otherwise; `mean_interval` uses the same machinery for Student's t.

Conventions: `confidence` is two-sided (0.95 -> 2.5% in each tail); with n == 0 an interval is the
whole of [0, 1] (no data rules nothing out).
"""
from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import numpy as np

__all__ = [
    "wilson_interval",
    "clopper_pearson_interval",
    "rate_interval",
    "mean_interval",
    "format_rate",
    "rate_digits",
    "z_value",
    "t_value",
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

"""A generic text summary of a simulate() result frame (works for any game).

Uses only conventional columns when present: `win` (bool), `outcome` (labels), `turns` (int);
every other numeric column except `seed` and `game_index` gets a mean with a 95% interval.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from boardsim import stats

SKIP_MEANS = {"seed", "game_index", "win", "turns"}
PERCENTILES = (10, 25, 50, 75, 90)


def _format_value(spec, name: str, value: Any) -> str:
    if spec is not None:
        try:
            param = spec.param(name)
            return param.format(param.parse(value))
        except Exception:  # a value the spec cannot re-parse: show it as recorded
            pass
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def format_rules(rules: dict[str, Any], spec=None) -> str:
    return "  ".join(f"{name}={_format_value(spec, name, value)}" for name, value in rules.items())


def _decimals(half_width: float) -> int:
    """Enough decimals to show the interval's half-width to about two significant digits."""
    if not math.isfinite(half_width) or half_width <= 0:
        return 2
    return int(min(6, max(0, 1 - math.floor(math.log10(half_width)))))


def format_mean(values) -> str:
    mean, low, high = stats.mean_interval(values)
    if math.isnan(mean):
        return "n/a"
    if math.isnan(low):
        return f"{mean:g}"
    d = _decimals((high - low) / 2)
    return f"{mean:.{d}f} [{low:.{d}f}, {high:.{d}f}]"


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def _num(x: float) -> str:
    return f"{x:g}"


def header_lines(df: pd.DataFrame, spec=None) -> list[str]:
    prov = df.attrs.get("provenance", {}) or {}
    game = prov.get("game", getattr(spec, "name", "?"))
    title = getattr(spec, "title", "")
    versions = []
    if prov.get("game_version") is not None:
        versions.append(f"game version {prov['game_version']}")
    if prov.get("package_version") is not None:
        versions.append(f"boardsim {prov['package_version']}")
    lines = [f"game      {game}" + (f" - {title}" if title else "") + (f" ({', '.join(versions)})" if versions else "")]
    rules = prov.get("rules")
    if rules:
        lines.append(f"rules     {format_rules(rules, spec)}")
    if prov.get("policy") is not None:
        lines.append(f"policy    {prov['policy']}")
    if prov.get("seed") is not None:
        lines.append(f"seed      {prov['seed']}")
    n = prov.get("n", len(df))
    extra = []
    if prov.get("threads") is not None:
        extra.append(f"{prov['threads']} thread{'s' if prov['threads'] != 1 else ''}")
    seconds = prov.get("seconds")
    if isinstance(seconds, (int, float)) and seconds > 0:
        extra.append(f"{seconds:.2f} s, {len(df) / seconds:,.0f} games/s")
    lines.append(f"games     {n}" + (f" ({', '.join(extra)})" if extra else ""))
    if prov.get("cards_hash") is not None:
        note = " (includes reconstructed cards)" if prov.get("cards_reconstructed") else ""
        lines.append(f"cards     {prov['cards_hash']}{note}")
    return lines


def summary_lines(df: pd.DataFrame, spec=None) -> list[str]:
    """Header, win rate, outcome shares, turn distribution, means of other numeric columns."""
    lines = header_lines(df, spec)
    total = len(df)
    if total == 0:
        return lines + ["", "no games"]

    if "win" in df.columns:
        wins = int(df["win"].astype(bool).sum())
        lines += ["", f"win rate  {stats.format_rate(wins, total)}"]

    if "outcome" in df.columns:
        counts = df["outcome"].astype("object").fillna("<missing>").astype(str).value_counts().to_dict()
        if isinstance(df["outcome"].dtype, pd.CategoricalDtype):  # show unseen categories as 0
            for cat in df["outcome"].cat.categories:
                counts.setdefault(str(cat), 0)
        counts = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        width = max(len(name) for name, _ in counts)
        lines += ["", "outcomes  share [95% CI]"]
        for name, count in counts:
            rate, low, high, method = stats.rate_interval(int(count), total)
            d = stats.rate_digits(low, high)
            lines.append(
                f"  {name:<{width}}  {_pct(rate, d):>7} [{_pct(low, d)}, {_pct(high, d)}]"
                f"  ({int(count)} games, {method})"
            )

    if "turns" in df.columns:
        turns = df["turns"].to_numpy(dtype=float)
        qs = np.percentile(turns, PERCENTILES)
        lines += [
            "",
            f"turns     mean {format_mean(turns)}",
            "          min " + _num(turns.min()) + "  "
            + "  ".join(f"p{p} {_num(q)}" for p, q in zip(PERCENTILES, qs))
            + "  max " + _num(turns.max()),
        ]

    numeric = [
        name for name in df.columns
        if name not in SKIP_MEANS
        and (pd.api.types.is_numeric_dtype(df[name]) or pd.api.types.is_bool_dtype(df[name]))
    ]
    if numeric:
        width = max(len(str(name)) for name in numeric)
        lines += ["", "means     [95% CI]"]
        for name in numeric:
            lines.append(f"  {str(name):<{width}}  {format_mean(df[name].to_numpy(dtype=float))}")
    return lines

"""Tables from a result store: a row per grid point with CIs, paired comparisons, character effects.

Reads one point at a time and only the columns it needs, so summarising a store of many millions
of games keeps memory at one point's `win` and `turns` columns.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import stats
from .errors import BoardsimError
from .store import ResultStore, point_columns

SUMMARY_COLUMNS = ["games", "wins", "win_rate", "win_low", "win_high", "ci_method",
                   "turns_mean", "turns_low", "turns_high"]


def _point_row(frame: pd.DataFrame) -> dict[str, Any]:
    games = len(frame)
    wins = int(frame["win"].sum()) if games else 0
    rate, low, high, method = stats.rate_interval(wins, games)
    turns_mean, turns_low, turns_high = stats.mean_interval(frame["turns"].to_numpy(dtype=float))
    return dict(zip(SUMMARY_COLUMNS, [games, wins, rate, low, high, method, turns_mean, turns_low, turns_high]))


def point_summary(store: ResultStore, points: list[dict[str, Any]], keys: list[str], axes, seed: int) -> pd.DataFrame:
    """A row per grid point (in grid order) of a sweep: its axis values and its games' statistics."""
    rows = []
    cache: dict[str, dict[str, Any]] = {}
    for point, key in zip(points, keys):
        if key not in cache:
            cache[key] = _point_row(store.read_point(key, ["win", "turns"], seed))
        # integers stay integers (they sort and plot as numbers); teams, presets, policies as text
        labels = {axis.name: value if isinstance(value, int) else label
                  for axis in axes for value, label in zip(axis.values, axis.labels) if point[axis.name] == value}
        rows.append({**labels, **cache[key], "point": key})
    return pd.DataFrame(rows)


def _team_params(game: str) -> list[str]:
    from .registry import get_game

    try:
        return [p.name for p in get_game(game).params if p.kind == "team"]
    except BoardsimError:  # a store written by a game this installation does not have
        return []


def store_summary(path: str | Path, game: str | None = None) -> pd.DataFrame:
    """A row per point in a store (all seeds pooled): the rule columns that differ between points,
    the policy, and the statistics. Columns that are the same everywhere go to attrs["fixed"]."""
    store = ResultStore(path, create=False)
    rows = []
    seeds: dict[str, list[int]] = {}
    for point in store.points():
        if game is not None and point["identity"]["game"] != game:
            continue
        frame = store.read_point(point["key"], ["win", "turns"])
        if frame.empty:
            continue
        seeds[point["key"]] = sorted(int(s) for s in frame["seed"].unique())
        columns = point_columns(point)
        for name in _team_params(columns["game"]):
            if isinstance(columns.get(name), str):
                columns[name] = columns[name].replace(",", "+")
        rows.append({**columns, **_point_row(frame)})
    if not rows:
        raise BoardsimError(f"{path}: the store holds no finished games" + (f" of game '{game}'" if game else ""))
    df = pd.DataFrame(rows)
    labels = [c for c in df.columns if c not in SUMMARY_COLUMNS and c != "point"]
    varying = [c for c in labels if df[c].astype(str).nunique() > 1]
    fixed = {c: df[c].iloc[0] for c in labels if c not in varying}
    df = df[varying + SUMMARY_COLUMNS + ["point"]].sort_values(varying or ["point"], kind="stable")
    df = df.reset_index(drop=True)
    df.attrs["fixed"] = fixed
    df.attrs["seeds"] = seeds
    return df


def paired_wins(store: ResultStore, key_a: str, key_b: str, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Win columns of two points on the games both have played (same seed and game index)."""
    a = store.read_point(key_a, ["win"], seed)
    b = store.read_point(key_b, ["win"], seed)
    both = a.merge(b, on=["seed", "game_index"], suffixes=("_a", "_b"))
    return both["win_a"].to_numpy(bool), both["win_b"].to_numpy(bool)


def paired_comparisons(path: str | Path, baseline: str, others: list[str] | None = None,
                       seed: int | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """Each point vs the `baseline` point on their common games: win-rate difference with CI,
    exact McNemar p-value, and Holm-adjusted p-values across all the comparisons."""
    store = ResultStore(path, create=False)
    keys = [p["key"] for p in store.points()]
    if others is None:
        others = [k for k in keys if k != baseline]
    rows = []
    for key in others:
        wins_a, wins_b = paired_wins(store, key, baseline, seed)
        if len(wins_a) == 0:
            continue
        cmp = stats.paired_difference(wins_a, wins_b, confidence)
        rows.append({"point": key, "baseline": baseline, "games": cmp.n, "rate": cmp.rate_a,
                     "baseline_rate": cmp.rate_b, "diff": cmp.diff, "diff_low": cmp.low, "diff_high": cmp.high,
                     "only_point_won": cmp.only_a, "only_baseline_won": cmp.only_b, "p_value": cmp.p_value})
    df = pd.DataFrame(rows)
    if not df.empty:
        df["p_holm"] = stats.holm(df["p_value"].to_numpy())
    return df

"""What a report is built from: studies (a table of grid points each) and the store's per-game rows."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import BoardsimError
from ..spec import GameSpec
from ..store import ResultStore
from ..summarize import SUMMARY_COLUMNS, _point_row


@dataclass
class StudyData:
    """One study: a row per grid point (its axis values, then SUMMARY_COLUMNS and the store key)."""

    name: str
    title: str
    axes: list[str]
    table: pd.DataFrame
    int_axes: list[str] = field(default_factory=list)

    def label(self, row: pd.Series, skip: tuple[str, ...] = ()) -> str:
        parts = []
        for axis in self.axes:
            if axis in skip:
                continue
            value = row[axis]
            parts.append(f"{axis.replace('_', ' ')} {value}" if axis in self.int_axes else str(value))
        return " · ".join(parts) if parts else "all games"


class GameRows:
    """Per-game rows of a store's points, read once per point and kept (a report reads each few times)."""

    def __init__(self, store: ResultStore, seed: int | None) -> None:
        self.store = store
        self.seed = seed
        self._cache: dict[str, pd.DataFrame] = {}

    def point(self, key: str) -> pd.DataFrame:
        if key not in self._cache:
            self._cache[key] = self.store.read_point(key, None, self.seed)
        return self._cache[key]

    def paired_wins(self, key_a: str, key_b: str) -> tuple[np.ndarray, np.ndarray]:
        a = self.point(key_a)[["seed", "game_index", "win"]]
        b = self.point(key_b)[["seed", "game_index", "win"]]
        both = a.merge(b, on=["seed", "game_index"], suffixes=("_a", "_b"))
        return both["win_a"].to_numpy(bool), both["win_b"].to_numpy(bool)


def _int_axes(spec: GameSpec, axes: list[str]) -> list[str]:
    names = {p.name: p for p in spec.params}
    return [a for a in axes if a in names and names[a].kind == "int"]


def study_from_sweep(spec: GameSpec, name: str, title: str, summary: pd.DataFrame) -> StudyData:
    """A study from a sweep's summary: duplicate rows of one point (a preset named twice) are kept."""
    axes = [c for c in summary.columns if c not in SUMMARY_COLUMNS and c != "point"]
    return StudyData(name, title, axes, summary.reset_index(drop=True), _int_axes(spec, axes))


def _preset_name(spec: GameSpec, rules: dict[str, Any]) -> str | None:
    """The preset whose values the rules have, for every parameter some preset sets."""
    controlled = {k for values in spec.presets.values() for k in values}
    for preset in spec.presets:
        resolved = spec.resolve(preset, {})
        if all(resolved[k] == rules.get(k) for k in controlled):
            return preset
    return None


def study_from_store(spec: GameSpec, store: ResultStore, seed: int | None, rows: GameRows) -> StudyData:
    """The whole store as one study: its axes are the rule columns that differ between points.

    When every point's rules match a preset and the presets differ, a `preset` axis replaces the
    preset's own parameters, so a preset sweep reads as one again."""
    records = []
    for point in store.points():
        ident = point["identity"]
        if ident["game"] != spec.name:
            continue
        frame = rows.point(point["key"])
        if frame.empty:
            continue
        rules = dict(ident["rules"])
        for param in spec.params:
            if param.kind == "team" and isinstance(rules.get(param.name), str):
                rules[param.name] = rules[param.name].replace(",", "+")
        record = {**rules, "policy": point["provenance"].get("policy", ident["policy"])}
        parsed = {p.name: p.parse(ident["rules"][p.name]) for p in spec.params if p.name in ident["rules"]}
        record["preset"] = _preset_name(spec, parsed)
        records.append({**record, **_point_row(frame), "point": point["key"]})
    if not records:
        raise BoardsimError(f"{store.path}: the store holds no finished games of game '{spec.name}'"
                            + (f" with seed {seed}" if seed is not None else ""))
    df = pd.DataFrame(records)
    order = [p.name for p in spec.params]
    labels = sorted((c for c in df.columns if c not in SUMMARY_COLUMNS and c != "point"),
                    key=lambda c: order.index(c) if c in order else -1)
    varying = [c for c in labels if df[c].astype(str).nunique() > 1]
    if "preset" in varying and df["preset"].notna().all():
        preset_params = {k for values in spec.presets.values() for k in values}
        varying = ["preset"] + [c for c in varying if c != "preset" and c not in preset_params]
    else:
        varying = [c for c in varying if c != "preset"]
    order = list(spec.presets)
    sort_keys = [df["preset"].map(order.index) if c == "preset" else df[c] for c in varying]
    if varying:
        df = df.assign(**{f"_sort{i}": key for i, key in enumerate(sort_keys)})
        df = df.sort_values([f"_sort{i}" for i in range(len(varying))], kind="stable")
        df = df.drop(columns=[f"_sort{i}" for i in range(len(varying))])
    table = df[varying + SUMMARY_COLUMNS + ["point"]].reset_index(drop=True)
    return StudyData("results", "All results in the store", varying, table, _int_axes(spec, varying))


def store_seed(store: ResultStore) -> int | None:
    """The store's root seed when it holds exactly one (a report pairs games only within a seed)."""
    seeds = set()
    for point in store.points():
        folder = store.point_dir(point["key"])
        seeds.update(int(p.name.split("-", 1)[1]) for p in folder.glob("seed-*"))
    if len(seeds) > 1:
        raise BoardsimError(f"{store.path}: the store holds seeds {sorted(seeds)}; choose one with --seed")
    return seeds.pop() if seeds else None


def open_store(path: str | Path) -> ResultStore:
    return ResultStore(path, create=False)

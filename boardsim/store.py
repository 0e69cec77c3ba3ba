"""The result store: every finished chunk of games as its own parquet file, written as it arrives.

Layout of a store directory:

    boardsim-store.json                       format marker
    points/<key>/point.json                   the grid point's identity (game, code version,
                                              rules, policy and weights, card-data hash)
    points/<key>/seed-<R>/games-<a>-<b>.parquet   games a .. b-1 of root seed R

`key` hashes the identity, so a changed card file, rule parameter, weight or kernel source gets a
new key and is never mixed with older results. A chunk file is written under a temporary name and
renamed, so an interrupted run leaves whole chunks or nothing; a re-run lists the files and plays
only the games that are missing. Memory stays flat however many games a sweep plays: rows live in
memory one chunk at a time.
"""
from __future__ import annotations

import json
import os
import re
import uuid
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import pandas as pd

from .errors import BoardsimError

METADATA_KEY = b"boardsim"
STORE_MARKER = "boardsim-store.json"
STORE_FORMAT = 1
CHUNK_FILE = re.compile(r"games-(\d+)-(\d+)\.parquet$")


# ------------------------------------------------------------------------- single parquet files


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return str(value)


def to_json(value: Any) -> str:
    return json.dumps(value, default=_json_default, sort_keys=True)


def write_parquet(df: pd.DataFrame, path: str | Path) -> Path:
    """Write the rows; store `df.attrs["provenance"]` under the schema metadata key b"boardsim".

    The attrs are also stored the way pandas does it (key b"PANDAS_ATTRS"), so `pd.read_parquet`
    gives the provenance back in `df.attrs` as well. The file appears complete or not at all.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    table = pa.Table.from_pandas(df, preserve_index=False)
    prov = to_json(df.attrs.get("provenance", {}))
    metadata = dict(table.schema.metadata or {})
    metadata[METADATA_KEY] = prov.encode()
    metadata[b"PANDAS_ATTRS"] = to_json({**df.attrs, "provenance": json.loads(prov)}).encode()
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        pq.write_table(table.replace_schema_metadata(metadata), tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def read_parquet(path: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """Read a file written by `write_parquet`; the provenance is in `attrs["provenance"]`."""
    import pyarrow.parquet as pq

    table = pq.read_table(path, columns=columns)
    df = table.to_pandas()
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    df.attrs = {"provenance": json.loads(raw) if raw else {}}
    return df


# ------------------------------------------------------------------------------------- ranges


def missing_ranges(done: Iterable[tuple[int, int]], stop: int, chunk: int) -> list[tuple[int, int]]:
    """Games of [0, stop) not covered by the `done` (first, stop) ranges, as (first, n) pieces of
    at most `chunk` games, cut at multiples of `chunk` (so equal chunk sizes give equal files)."""
    gaps = []
    position = 0
    for a, b in sorted(done):
        if a > position:
            gaps.append((position, min(a, stop)))
        position = max(position, b)
        if position >= stop:
            break
    if position < stop:
        gaps.append((position, stop))
    pieces = []
    for a, b in gaps:
        while a < b:
            end = min(b, (a // chunk + 1) * chunk)
            pieces.append((a, end - a))
            a = end
    return pieces


# -------------------------------------------------------------------------------------- store


class ResultStore:
    """A directory of results (see the module docstring). Safe to re-open and extend."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        marker = self.path / STORE_MARKER
        if marker.exists():
            try:
                fmt = json.loads(marker.read_text()).get("format")
            except (OSError, ValueError):
                fmt = None
            if fmt != STORE_FORMAT:
                raise BoardsimError(f"{marker}: field 'format' is {fmt!r}; allowed: {STORE_FORMAT}")
        elif create:
            if self.path.exists() and any(self.path.iterdir()):
                raise BoardsimError(f"{self.path}: not a boardsim result store and not empty; "
                                    "choose a new or empty directory")
            try:
                (self.path / "points").mkdir(parents=True, exist_ok=True)
                marker.write_text(to_json({"format": STORE_FORMAT}) + "\n")
            except OSError as exc:
                raise BoardsimError(f"{self.path}: cannot create a result store ({exc.strerror or exc})") from None
        else:
            raise BoardsimError(f"{self.path}: no boardsim result store here (no {STORE_MARKER})")

    # -- points

    def point_dir(self, key: str) -> Path:
        return self.path / "points" / key

    def add_point(self, key: str, identity: dict[str, Any], provenance: dict[str, Any]) -> None:
        """Record a grid point's identity once (the first writer's provenance is kept)."""
        folder = self.point_dir(key)
        target = folder / "point.json"
        if target.exists():
            return
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".point.{uuid.uuid4().hex[:8]}.tmp"
        tmp.write_text(to_json({"key": key, "identity": identity, "provenance": provenance}) + "\n")
        os.replace(tmp, target)

    def points(self) -> list[dict[str, Any]]:
        """Every point in the store: {"key", "identity", "provenance"}."""
        out = []
        for info in sorted((self.path / "points").glob("*/point.json")):
            try:
                out.append(json.loads(info.read_text()))
            except (OSError, ValueError) as exc:
                raise BoardsimError(f"{info}: unreadable point description ({exc})") from None
        return out

    # -- chunks

    def chunk_files(self, key: str, seed: int | None = None) -> list[tuple[int, int, int, Path]]:
        """(seed, first, stop, path) of every finished chunk of a point, sorted."""
        out = []
        pattern = f"seed-{seed}" if seed is not None else "seed-*"
        for folder in self.point_dir(key).glob(pattern):
            root = int(folder.name.split("-", 1)[1])
            for path in folder.glob("games-*.parquet"):
                match = CHUNK_FILE.match(path.name)
                if match:
                    out.append((root, int(match.group(1)), int(match.group(2)), path))
        return sorted(out)

    def done_ranges(self, key: str, seed: int) -> list[tuple[int, int]]:
        return [(a, b) for _, a, b, _ in self.chunk_files(key, seed)]

    def write_chunk(self, key: str, seed: int, first: int, frame: pd.DataFrame,
                    provenance: dict[str, Any]) -> Path:
        folder = self.point_dir(key) / f"seed-{seed}"
        folder.mkdir(parents=True, exist_ok=True)
        stop = first + len(frame)
        frame.attrs["provenance"] = {**provenance, "key": key, "seed": seed, "first_game": first, "stop_game": stop}
        return write_parquet(frame, folder / f"games-{first:012d}-{stop:012d}.parquet")

    def read_point(self, key: str, columns: list[str] | None = None, seed: int | None = None) -> pd.DataFrame:
        """All finished games of one point, each (seed, game_index) once, in game order."""
        wanted = None if columns is None else sorted(set(columns) | {"seed", "game_index"})
        frames = [read_parquet(path, wanted) for _, _, _, path in self.chunk_files(key, seed)]
        if not frames:
            return pd.DataFrame(columns=wanted or ["seed", "game_index"])
        df = pd.concat(frames, ignore_index=True)
        # two concurrent runs may both have played a range: count each game once
        df = df.drop_duplicates(["seed", "game_index"]).sort_values(["seed", "game_index"], kind="stable")
        df = df.reset_index(drop=True)
        return df if columns is None else df[[c for c in wanted if c in df.columns]]

    def tally(self, key: str, seed: int) -> tuple[int, int]:
        """(games, wins) of one point and seed."""
        df = self.read_point(key, ["win"], seed)
        return len(df), int(df["win"].sum()) if len(df) else 0


def point_columns(point: dict[str, Any]) -> dict[str, Any]:
    """The columns that say which grid point a row belongs to."""
    ident = point["identity"]
    cols = {"game": ident["game"], **ident["rules"], "policy": point["provenance"].get("policy", ident["policy"]),
            "point": point["key"]}
    return cols


def load_results(path: str | Path, columns: list[str] | None = None, game: str | None = None) -> pd.DataFrame:
    """Every game in a result store as one tidy DataFrame: a row per game with the game's rule
    parameters and policy as columns (`point` is the store key), then the game's outcome columns.

    `columns` limits the outcome columns read (memory: a 10^6-game point is ~30 MB in full).
    `attrs["provenance"]` maps each point key to its identity and provenance.
    """
    store = ResultStore(path, create=False)
    frames = []
    provenance = {}
    for point in store.points():
        if game is not None and point["identity"]["game"] != game:
            continue
        df = store.read_point(point["key"], columns)
        if df.empty:
            continue
        for i, (name, value) in enumerate(point_columns(point).items()):
            df.insert(i, name, value)
        frames.append(df)
        provenance[point["key"]] = {"identity": point["identity"], "provenance": point["provenance"]}
    if not frames:
        raise BoardsimError(f"{path}: the store holds no finished games" + (f" of game '{game}'" if game else ""))
    out = pd.concat(frames, ignore_index=True)
    for name in ("game", "policy", "point"):
        out[name] = out[name].astype("category")
    out.attrs["provenance"] = provenance
    return out

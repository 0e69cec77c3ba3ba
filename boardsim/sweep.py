"""Parameter sweeps: a grid of rule settings x many games, streamed into a resumable result store.

Every grid point plays games 0, 1, 2, ... of the same root seed, and game g is seeded from
(seed, g) alone, so all points see the same deals (common random numbers) and their differences
are paired game by game. What is already in the store is never played again: an interrupted or
extended sweep computes only the missing games.
"""
from __future__ import annotations

import math
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from . import stats
from .errors import BoardsimError, ParamError
from .grid import GridInput, grid_points, parse_grid
from .registry import get_game
from .spec import Batch
from .store import ResultStore, missing_ranges
from .summarize import point_summary

DEFAULT_GAMES = 10_000
DEFAULT_MAX_GAMES = 1_000_000
MAX_CHUNK = 10_000
MIN_CHUNK = 500
FIRST_ROUND_GAMES = 2_000  # adaptive precision starts here, then aims at the estimated need


@dataclass
class Progress:
    """What a progress callback sees after each finished chunk."""

    games_done: int        # games played by this run so far
    games_planned: int     # games this run currently plans to play (grows between adaptive rounds)
    wins: int              # wins among games_done, for a live pooled win-rate estimate
    seconds: float
    round: int
    executor: str


@dataclass
class SweepResult:
    """The outcome of `sweep()`: a summary row per grid point, and where the games are stored."""

    summary: pd.DataFrame
    store: Path
    points: list[dict[str, Any]]
    keys: list[str]
    seed: int
    interrupted: bool = False
    games_played: int = 0
    games_requested: int | None = None
    provenance: dict[str, Any] = field(default_factory=dict)

    def results(self, columns: list[str] | None = None) -> pd.DataFrame:
        """One row per game of this sweep's points and seed, with the grid point's columns."""
        from .store import load_results

        df = load_results(self.store, columns)
        df = df[df["point"].isin(self.keys) & (df["seed"] == self.seed)]
        return df.reset_index(drop=True)


def _point_batches(spec, points, preset, params, policy, cards) -> list[Batch]:
    batches = []
    for point in points:
        overrides = dict(params or {})
        overrides.update({k: v for k, v in point.items() if k not in ("preset", "policy")})
        rules = spec.resolve(point.get("preset", preset), overrides)
        batches.append(spec.prepare(rules, point.get("policy", policy), cards))
    return batches


def _chunk_size(n_per_point: int, n_points: int, workers: int) -> int:
    # enough chunks to keep every worker busy, each large enough that task overhead is negligible
    per_worker = math.ceil(n_per_point * n_points / (4 * workers))
    return int(min(MAX_CHUNK, max(MIN_CHUNK, per_worker)))


def _round_up(n: int, chunk: int) -> int:
    return int(math.ceil(n / chunk) * chunk)


def sweep(
    game: str,
    grid: GridInput,
    n: int | None = None,
    seed: int = 0,
    policy: str = "heuristic",
    preset: str | None = None,
    params: dict[str, Any] | None = None,
    characters: str | list[str] | tuple[str, ...] | None = None,
    cards: str | None = None,
    store: str | Path | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    mode: str = "product",
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    chunk: int | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> SweepResult:
    """Play every point of `grid` and return a summary row per point.

    grid: "vicious=0..8 bounty_deck=7,9,11", a list of such items or a dict; axes are rule
    parameters, `preset` and `policy`; `mode` "product" (default) or "zip". `preset`, `params`
    `characters` and `policy` fix what the grid does not vary.
    n: games per point, or `precision`: play until every point's 95% CI half-width on the win
    rate is at most this (at most `max_games` per point).
    store: result directory (created if needed; re-using it resumes); a temporary one if None.
    workers: local threads (default all cores); `scheduler` ("tcp://host:port", or the
    BOARDSIM_SCHEDULER variable) or `dask_local` (LocalCluster size) run on Dask instead.
    Ctrl-C stops cleanly: finished chunks stay in the store and `interrupted` is True.
    """
    from .runner import Chunk, make_executor  # numba is imported only when games are played

    spec = get_game(game)
    if not 0 <= int(seed) < 2**63:
        raise ParamError(f"seed: {seed}; allowed: an integer 0..2**63-1")
    seed = int(seed)
    if policy.split(":")[0] not in spec.policies:
        raise ParamError(f"policy '{policy}' unknown for {spec.name}; allowed: {', '.join(spec.policies)}")
    if n is not None and precision is not None:
        raise ParamError("give either n (games per point) or precision, not both")
    if precision is not None and not 0 < float(precision) < 0.5:
        raise ParamError(f"precision: {precision}; allowed: a CI half-width between 0 and 0.5, e.g. 0.01")
    if n is None and precision is None:
        n = DEFAULT_GAMES
    if n is not None and int(n) < 1:
        raise ParamError(f"n: {n} games per point; allowed: an integer >= 1")
    max_games = int(max_games or (n if n is not None else DEFAULT_MAX_GAMES))
    if max_games < 1:
        raise ParamError(f"max_games: {max_games}; allowed: an integer >= 1")
    if chunk is not None and int(chunk) < 1:
        raise ParamError(f"chunk: {chunk}; allowed: an integer >= 1")

    params = dict(params or {})
    if characters is not None:
        params[spec.team_param()] = characters
    axes = parse_grid(spec, grid)
    points = grid_points(axes, mode)
    batches = _point_batches(spec, points, preset, params, policy, cards)
    keys = [batch.key for batch in batches]
    # points that resolve to the same rules (a preset and its explicit values) share one set of games
    unique: dict[str, Batch] = {}
    for batch in batches:
        unique.setdefault(batch.key, batch)
    work_keys = list(unique)
    work_batches = [unique[k] for k in work_keys]

    # the executor first: a missing Dask or a wrong address must not leave an empty store behind
    executor = make_executor(workers, scheduler, dask_local)
    try:
        result_store = ResultStore(store if store is not None else tempfile.mkdtemp(prefix="boardsim-store-"))
    except BoardsimError:
        executor.close()
        raise
    for key, batch in unique.items():
        result_store.add_point(key, batch.identity, batch.provenance)
    first_target = int(n) if n is not None else min(max_games, FIRST_ROUND_GAMES)
    # size chunks for the games a point will likely need: with --precision, the worst case p = 1/2
    expected = first_target if n is not None else min(max_games, stats.games_for_precision(0.5, precision))
    chunk = int(chunk or _chunk_size(expected, len(work_keys), executor.workers))
    tallies = {key: list(result_store.tally(key, seed)) for key in work_keys}
    targets = {key: first_target if n is not None else _round_up(first_target, chunk) for key in work_keys}

    started = time.perf_counter()
    status = Progress(0, 0, 0, 0.0, 0, executor.description)
    interrupted = False
    try:
        while True:
            status.round += 1
            todo = []
            for index, key in enumerate(work_keys):
                target = min(targets[key], max_games)
                for first, count in missing_ranges(result_store.done_ranges(key, seed), target, chunk):
                    todo.append(Chunk(index, seed, first, count))
            if not todo:
                break
            # game-major order: all points advance together, so a stopped sweep is still balanced
            todo.sort(key=lambda c: (c.first, c.point))
            status.games_planned += sum(c.n for c in todo)
            runs = executor.run(todo, work_batches)
            try:
                for done, rows in runs:
                    key = work_keys[done.point]
                    batch = work_batches[done.point]
                    frame = spec.frame(rows, seed, done.first)
                    result_store.write_chunk(key, seed, done.first, frame,
                                             {**batch.identity, **batch.provenance, "executor": executor.description})
                    wins = int(frame["win"].sum())
                    tallies[key][0] += len(frame)
                    tallies[key][1] += wins
                    status.games_done += len(frame)
                    status.wins += wins
                    status.seconds = time.perf_counter() - started
                    if progress is not None:
                        progress(status)
            except KeyboardInterrupt:
                interrupted = True
                runs.close()
                break
            if precision is None:
                break
            for key in work_keys:
                games, wins = tallies[key]
                # the interval the summary shows (exact where counts are small), so what stops is what is shown
                _, low, high, _ = stats.rate_interval(wins, games)
                if (high - low) / 2 > precision and games < max_games:
                    need = stats.games_for_precision(max(wins, 0.5) / games, precision)
                    # aim a little past the estimate so one more round usually suffices
                    targets[key] = min(max_games, _round_up(max(int(need * 1.1), games + chunk), chunk))
    finally:
        executor.close()

    summary = point_summary(result_store, points, keys, axes, seed)
    summary.attrs["provenance"] = {
        "game": spec.name,
        "game_version": spec.version,
        "seed": seed,
        "policy": policy,
        "precision": precision,
        "max_games": max_games if precision is not None else None,
        "games_per_point": n,
        "executor": executor.description,
        "store": str(result_store.path),
        "interrupted": interrupted,
        "points": {key: {**unique[key].identity, **unique[key].provenance} for key in work_keys},
    }
    return SweepResult(summary, result_store.path, points, keys, seed, interrupted,
                       status.games_done, n, summary.attrs["provenance"])

"""What every game's bridge from Python to its kernels shares: reading a policy and its weights
file, building a Batch's identity and provenance, turning outcome rows into the result frame, and
simulating one prepared Batch. A game's `game.py` keeps only what is its own (records, rules)."""
from __future__ import annotations

import hashlib
import json
import time
import tomllib
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

import boardsim

from .errors import ParamError
from .spec import Batch


def read_policy(policy: str, policy_ids: dict[str, int], weight_names: list[str], default_weights: np.ndarray,
                policy_dir: Path) -> tuple[int, np.ndarray, str]:
    """Policy id, weight vector and canonical description of "NAME" or "NAME:FILE".

    FILE is TOML with a [weights] table of name = value (unnamed weights keep their defaults); it
    may also name a shipped file in `policy_dir` without its extension ("heuristic:boogie")."""
    name, _, path = policy.partition(":")
    if name not in policy_ids:
        raise ParamError(f"policy '{policy}' unknown; allowed: {', '.join(policy_ids)} (heuristic:FILE for tuned weights)")
    weights = default_weights.copy()
    if path:
        if name == "random":
            raise ParamError(f"policy '{policy}': random takes no weights file")
        shipped = policy_dir / f"{path}.toml"
        if not Path(path).exists() and shipped.exists():
            path = str(shipped)
        try:
            table = tomllib.loads(Path(path).read_text()).get("weights", {})
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ParamError(f"{path}: cannot read weights ({str(exc).splitlines()[0]})") from None
        for key, value in table.items():
            if key not in weight_names:
                raise ParamError(f"{path}: field 'weights.{key}' unknown; allowed: {', '.join(weight_names)}")
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ParamError(f"{path}: field 'weights.{key}' must be a number, got {value!r}")
            weights[weight_names.index(key)] = float(value)
    described = name if not path else f"{name}:{Path(path).name}"
    return policy_ids[name], weights, described


def override_weights(vector: np.ndarray, weight_names: list[str], overrides: dict[str, float] | None) -> None:
    """Set single weights by name (what `tune` searches over), in place."""
    for name, value in (overrides or {}).items():
        if name not in weight_names:
            raise ParamError(f"weight '{name}' unknown; allowed: {', '.join(weight_names)}")
        vector[weight_names.index(name)] = float(value)


def make_batch(*, game: str, version: str, code_hash: str, kernel: str, rules: dict[str, Any], described: str,
               vector: np.ndarray | None, weight_names: list[str], tuned: bool, card_set, args: tuple,
               state_dtype: np.dtype, out_dtype: np.dtype) -> Batch:
    """A Batch with the identity the result store keys on and the provenance shown beside it.

    `vector` is None for a policy without weights (random); `tuned` says single weights were
    overridden."""
    rules_plain = {k: (",".join(v) if isinstance(v, tuple) else v) for k, v in rules.items()}
    identity = {
        "game": game,
        "game_version": version,
        "code_hash": code_hash,
        "rules": rules_plain,
        "policy": described.split(":")[0],
        "weights": {} if vector is None else dict(zip(weight_names, map(float, vector))),
        "cards_hash": card_set.data_hash,
    }
    # rules_hash: rules + card data + game and code version (the store key adds the policy)
    rules_hash = hashlib.sha256(json.dumps(
        [rules_plain, card_set.data_hash, version, code_hash], sort_keys=True).encode()).hexdigest()[:16]
    provenance = {
        "policy": described + (" with tuned weights" if tuned else ""),
        "rules_hash": rules_hash,
        "package_version": boardsim.__version__,
        "cards_reconstructed": any(len(v) > 0 for v in card_set.reconstructed.values()),
    }
    return Batch(kernel, args, state_dtype, out_dtype, identity, provenance)


def outcome_frame(rows: np.ndarray, seed: int, first_index: int, outcome_names: tuple[str, ...]) -> pd.DataFrame:
    """A game's outcome rows as the result frame: seed, game_index, outcome (named), win, then the rest."""
    df = pd.DataFrame({name: rows[name] for name in rows.dtype.names})
    df.insert(0, "game_index", np.arange(first_index, first_index + len(rows), dtype=np.int64))
    df.insert(0, "seed", np.full(len(rows), seed, dtype=np.int64))
    df["outcome"] = pd.Categorical.from_codes(rows["outcome"].astype(np.int8), categories=list(outcome_names))
    df.insert(3, "win", rows["outcome"] == 0)
    return df


def simulate_batch(batch: Batch, frame: Callable[[np.ndarray, int, int], pd.DataFrame], n: int, seed: int,
                   threads: int | None, progress: Callable[[int], None] | None, first_index: int = 0) -> pd.DataFrame:
    """Play games first_index.. of a prepared Batch; the frame's attrs["provenance"] says what was played."""
    from .runner import resolve_kernel, run_batch

    kernel = resolve_kernel(batch.kernel)
    # compile (or load from the cache) before the clock starts, so `seconds` times games only
    run_batch(kernel, batch.args, batch.state_dtype, batch.out_dtype, 0, seed, threads=1)
    started = time.perf_counter()
    rows = run_batch(kernel, batch.args, batch.state_dtype, batch.out_dtype, n, seed,
                     first_index=first_index, threads=threads, progress=progress)
    df = frame(rows, seed, first_index)
    ident = batch.identity
    df.attrs["provenance"] = {
        "game": ident["game"],
        "game_version": ident["game_version"],
        "code_hash": ident["code_hash"],
        "package_version": boardsim.__version__,
        "seed": seed,
        "n": n,
        "policy": batch.provenance["policy"],
        "weights": ident["weights"],
        "rules": ident["rules"],
        "rules_hash": batch.provenance["rules_hash"],
        "cards_hash": ident["cards_hash"],
        "cards_reconstructed": batch.provenance["cards_reconstructed"],
        "threads": threads,
        "seconds": round(time.perf_counter() - started, 3),
    }
    return df


def play_logged(batch: Batch, play_game: Callable, log_width: int, seed: int, game_index: int,
                log_capacity: int) -> tuple[np.void, np.ndarray, np.ndarray]:
    """Play one game of a prepared Batch through the game's single-game kernel `play_game`, with its
    event log; returns (outcome row, log rows, final state). What trace and trajectories replay."""
    from .runner import kernel_view

    cards_arr, rules_arr, weights, pol = batch.args
    state = kernel_view(np.zeros(1, dtype=batch.state_dtype))
    log = np.zeros((log_capacity, log_width), dtype=np.int32)
    out = kernel_view(np.zeros(1, dtype=batch.out_dtype))
    with np.errstate(over="ignore"):
        play_game(state[0], kernel_view(cards_arr)[0], kernel_view(rules_arr)[0], weights, np.int64(pol),
                  np.uint64(seed), np.int64(game_index), log, out[0])
    return out[0], log[: state[0]["log_n"]], state

"""Tuning a heuristic's weights for the highest win rate: the cross-entropy method.

Each generation samples candidate weight vectors around the current mean, plays every candidate on
the same games (common random numbers, so candidates are compared on equal deals), and moves the
mean towards the best quarter. Each generation plays fresh games (train seed + generation), so the
search cannot settle on luck with one set of deals. At the end the tuned mean and the default
weights meet on a validation seed, and the better of the two is reported on a held-out seed neither
the search nor the choice has seen: a tiny budget can therefore keep the defaults, never do worse
than them on the games it chose with.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from . import stats
from .errors import ParamError
from .registry import get_game
from .spec import Batch, GameSpec


@dataclass
class TuneProgress:
    generation: int
    generations: int
    games_done: int
    games_budget: int
    best_rate: float         # best candidate's win rate in this generation
    mean_rate: float         # the current mean vector's win rate in this generation
    seconds: float


@dataclass
class TuneResult:
    weights: dict[str, float]          # the chosen weights (tuned, or the defaults if they held up better)
    tuned: dict[str, float]            # the search's final mean, whether chosen or not
    chose_tuned: bool
    default_holdout: tuple[int, int]   # (wins, games) on the held-out seed
    chosen_holdout: tuple[int, int]
    comparison: stats.PairedDifference  # chosen minus default, paired on the held-out games
    history: list[dict[str, Any]] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)

    def toml(self) -> str:
        """A weights file for `--policy heuristic:FILE`, with how it was made as comments and a table."""
        prov = self.provenance
        lines = [
            f"# boardsim tune {prov['game']}: {prov['rules_text']}",
            f"# held-out seed {prov['holdout_seed']}, {self.chosen_holdout[1]:,} games: "
            f"default {100 * self.default_holdout[0] / self.default_holdout[1]:.2f}%, "
            f"{'tuned' if self.chose_tuned else 'kept default'} {100 * self.chosen_holdout[0] / self.chosen_holdout[1]:.2f}%",
            "",
            "[weights]",
        ]
        lines += [f"{name} = {value:.4g}" for name, value in self.weights.items()]
        lines += ["", "[tuned]"]
        for key in ("game", "game_version", "package_version", "policy", "train_seed", "validation_seed",
                    "holdout_seed", "generations", "population", "games_per_candidate", "games_played"):
            value = prov[key]
            lines.append(f"{key} = {value!r}" if not isinstance(value, str) else f'{key} = "{value}"')
        lines.append("rules = { " + ", ".join(
            f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in prov["rules"].items()) + " }")
        lines.append(f'chose = "{"tuned" if self.chose_tuned else "default"}"')
        return "\n".join(lines) + "\n"


def win_flags(spec: GameSpec, executor, batches: list[Batch], seed: int, n: int,
              chunk: int | None = None) -> list[np.ndarray]:
    """Per-game win flags of each batch on games 0..n-1 of `seed` (every batch on the same games)."""
    from .runner import Chunk

    chunk = chunk or max(250, math.ceil(n / 8))
    flags = [np.zeros(n, dtype=bool) for _ in batches]
    todo = [Chunk(i, seed, first, min(chunk, n - first)) for first in range(0, n, chunk) for i in range(len(batches))]
    for done, rows in executor.run(todo, batches):
        flags[done.point][done.first:done.first + done.n] = spec.frame(rows, seed, done.first)["win"].to_numpy(bool)
    return flags


def tune(
    game: str,
    preset: str | None = None,
    params: dict[str, Any] | None = None,
    characters: str | list[str] | tuple[str, ...] | None = None,
    policy: str = "heuristic",
    cards: str | None = None,
    budget_games: int = 400_000,
    minutes: float | None = None,
    population: int = 16,
    games_per_candidate: int = 2_000,
    train_seed: int = 1000,
    validation_games: int = 10_000,
    validation_seed: int = 555,
    holdout_games: int = 20_000,
    holdout_seed: int = 777,
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    progress: Callable[[TuneProgress], None] | None = None,
) -> TuneResult:
    """Search the heuristic's weights (the game's `weights`) for the highest win rate.

    The search stops when `budget_games` (games played by the search itself) or `minutes` runs out;
    validation and held-out games come on top. Every game of the search, validation and held-out
    evaluation is seeded from its own seed, so the search is reproducible.
    """
    from .runner import make_executor

    spec = get_game(game)
    if not spec.weights:
        raise ParamError(f"game '{spec.name}' declares no tunable weights")
    if policy.split(":")[0] not in spec.policies or policy.startswith("random"):
        raise ParamError(f"policy '{policy}': tune needs a weighted policy of {spec.name}; "
                         f"allowed: {', '.join(p for p in spec.policies if p != 'random')}")
    for name, value, low in (("population", population, 4), ("games_per_candidate", games_per_candidate, 1),
                             ("budget_games", budget_games, 1), ("validation_games", validation_games, 1),
                             ("holdout_games", holdout_games, 1)):
        if int(value) < low:
            raise ParamError(f"{name}: {value}; allowed: an integer >= {low}")
    params = dict(params or {})
    if characters is not None:
        params[spec.team_param()] = characters
    rules = spec.resolve(preset, params)
    names = [w.name for w in spec.weights]
    low = np.array([w.low for w in spec.weights])
    high = np.array([w.high for w in spec.weights])
    base = spec.prepare(rules, policy, cards)
    start_weights = base.identity.get("weights") or {}
    mean = np.array([float(start_weights.get(w.name, w.default)) for w in spec.weights])
    std = (high - low) / 4.0
    rng = np.random.default_rng(train_seed)
    generations = max(1, int(budget_games) // (population * games_per_candidate))
    elite = max(2, population // 4)
    history: list[dict[str, Any]] = []

    def batch_for(vector: np.ndarray) -> Batch:
        return spec.prepare(rules, policy, cards, dict(zip(names, map(float, vector))))

    executor = make_executor(workers, scheduler, dask_local)
    chunk = max(250, math.ceil(games_per_candidate / 2))
    started = time.perf_counter()
    played = 0
    try:
        for generation in range(generations):
            if minutes is not None and time.perf_counter() - started > 60 * minutes:
                break
            samples = np.clip(rng.normal(mean, std, size=(population, len(names))), low, high)
            samples[0] = mean  # the current mean competes too, so a generation never loses it
            flags = win_flags(spec, executor, [batch_for(v) for v in samples], train_seed + generation,
                              games_per_candidate, chunk)
            wins = np.array([f.sum() for f in flags])
            played += population * games_per_candidate
            best = np.argsort(-wins, kind="stable")[:elite]
            # smoothed update: move most of the way to the elite, and never let the spread collapse
            mean = 0.7 * samples[best].mean(axis=0) + 0.3 * mean
            std = np.maximum(0.7 * samples[best].std(axis=0) + 0.3 * std, (high - low) / 50.0)
            history.append({"generation": generation + 1, "seed": train_seed + generation,
                            "best_rate": wins[best[0]] / games_per_candidate,
                            "mean_rate": wins[0] / games_per_candidate})
            if progress is not None:
                progress(TuneProgress(generation + 1, generations, played, int(budget_games),
                                      wins[best[0]] / games_per_candidate, wins[0] / games_per_candidate,
                                      time.perf_counter() - started))
        default_vector = np.array([float(start_weights.get(w.name, w.default)) for w in spec.weights])
        tuned = dict(zip(names, (round(float(v), 4) for v in mean)))
        pair = [base, batch_for(np.array(list(tuned.values())))]
        validation = [int(f.sum()) for f in win_flags(spec, executor, pair, validation_seed, validation_games)]
        chose_tuned = bool(validation[1] > validation[0])
        chosen = pair[1] if chose_tuned else pair[0]
        holdout = win_flags(spec, executor, [base, chosen], holdout_seed, holdout_games)
    finally:
        executor.close()
    comparison = stats.paired_difference(holdout[1], holdout[0])
    weights = tuned if chose_tuned else dict(zip(names, map(float, default_vector)))
    prov = {
        "game": spec.name, "game_version": spec.version, "package_version": base.provenance.get("package_version"),
        "policy": policy, "rules": {k: (",".join(v) if isinstance(v, tuple) else v) for k, v in rules.items()},
        "rules_text": " ".join(f"{k}={','.join(v) if isinstance(v, tuple) else v}" for k, v in rules.items()),
        "cards_hash": base.identity.get("cards_hash"), "train_seed": train_seed,
        "validation_seed": validation_seed, "validation_games": validation_games,
        "validation_wins": {"default": int(validation[0]), "tuned": int(validation[1])},
        "holdout_seed": holdout_seed, "generations": len(history), "population": population,
        "games_per_candidate": games_per_candidate, "games_played": played,
        "seconds": round(time.perf_counter() - started, 1),
    }
    return TuneResult(weights, tuned, chose_tuned, (int(holdout[0].sum()), holdout_games),
                      (int(holdout[1].sum()), holdout_games), comparison, history, prov)


def save_weights(result: TuneResult, path: str | Path) -> Path:
    path = Path(path)
    try:
        path.write_text(result.toml())
    except OSError as exc:
        raise ParamError(f"{path}: cannot write the weights file ({exc.strerror or exc})") from None
    return path

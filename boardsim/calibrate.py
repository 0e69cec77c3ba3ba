"""Rule tuning: find the value of one numeric rule parameter whose win rate is closest to a target.

Bisection on a response that is monotone in the parameter (more Vicious, fewer wins). Every value
is played on the same games of one seed (common random numbers, through the sweep machinery and
its result store), and each probe plays only as many games as it takes to tell which side of the
target it is on: games go where the answer is decided. The values probed are then checked for
monotonicity, and the final pair of neighbours is played to the requested precision.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from . import stats
from .errors import ParamError
from .registry import get_game
from .store import ResultStore
from .summarize import paired_wins

FIRST_PROBE_GAMES = 1_000


@dataclass
class CalibrateResult:
    parameter: str
    target: float
    value: Any                    # the value whose win rate is closest to the target
    rate: float
    low: float
    high: float
    games: int
    probes: pd.DataFrame          # every value probed: value, games, wins, win_rate, win_low, win_high
    monotone: bool
    notes: list[str] = field(default_factory=list)
    store: Path | None = None


def calibrate(
    game: str,
    vary: str,
    target: float = 0.5,
    preset: str | None = None,
    params: dict[str, Any] | None = None,
    characters: str | list[str] | tuple[str, ...] | None = None,
    policy: str = "heuristic",
    cards: str | None = None,
    low: int | None = None,
    high: int | None = None,
    precision: float = 0.01,
    max_games: int = 200_000,
    seed: int = 0,
    store: str | Path | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> CalibrateResult:
    """The value of integer parameter `vary` (between `low` and `high`, default its whole range)
    whose win rate is closest to `target`, with its 95% interval and every probe made."""
    from .sweep import sweep

    spec = get_game(game)
    param = spec.param(vary)
    if param.kind != "int":
        raise ParamError(f"calibrate: parameter '{vary}' is not numeric; allowed: "
                         + ", ".join(p.name for p in spec.params if p.kind == "int"))
    if not 0.0 < float(target) < 1.0:
        raise ParamError(f"target: win_rate={target}; allowed: a rate strictly between 0 and 1")
    lo = param.parse(param.low if low is None else low, "calibrate: ")
    hi = param.parse(param.high if high is None else high, "calibrate: ")
    if lo >= hi:
        raise ParamError(f"calibrate: range {lo}..{hi} of '{vary}' is empty; give LOW < HIGH")
    fixed = dict(params or {})
    fixed.pop(vary, None)
    seen: dict[int, tuple[int, int]] = {}
    keys: dict[int, str] = {}
    notes: list[str] = []
    common = dict(seed=seed, policy=policy, preset=preset, params=fixed, characters=characters, cards=cards,
                  workers=workers, scheduler=scheduler, dask_local=dask_local)
    store_path = store

    def play(value: int, n: int) -> tuple[int, int]:
        nonlocal store_path
        result = sweep(game, {vary: [value]}, n=n, store=store_path, **common)
        store_path = result.store
        row = result.summary.iloc[0]
        seen[value] = (int(row["wins"]), int(row["games"]))
        keys[value] = result.keys[0]
        if progress is not None:
            progress(f"{vary}={value}: {stats.format_rate(*seen[value])}")
        return seen[value]

    def probe(value: int) -> int:
        """Which side of the target `value` is on (-1 below, +1 above, 0 undecided at max_games or precision)."""
        n = FIRST_PROBE_GAMES
        while True:
            wins, games = play(value, n)
            _, lo_ci, hi_ci, _ = stats.rate_interval(wins, games)
            if hi_ci < target:
                return -1
            if lo_ci > target:
                return 1
            if (hi_ci - lo_ci) / 2 <= precision or games >= max_games:
                return 0
            n = min(max_games, 2 * games)

    side_lo, side_hi = probe(lo), probe(hi)
    rate = {v: w / g for v, (w, g) in seen.items()}
    increasing = rate[hi] >= rate[lo]
    below, above = (lo, hi) if increasing else (hi, lo)
    if (side_lo == side_hi) and side_lo != 0:
        notes.append(f"the target {target:.1%} is outside the win rates of the whole range "
                     f"({vary}={lo}: {rate[lo]:.1%}, {vary}={hi}: {rate[hi]:.1%}); the nearest end is reported")
    else:
        # invariant: `below` is on the low-rate side of the target, `above` on the high-rate side
        while abs(above - below) > 1:
            mid = (below + above) // 2
            side = probe(mid)
            if side == 0:
                below = above = mid
                break
            if side < 0:
                below = mid
            else:
                above = mid
        # the final neighbours get the full precision, so the choice between them is as sure as asked
        for value in {below, above}:
            wins, games = seen[value]
            n = games
            while True:
                _, lo_ci, hi_ci, _ = stats.rate_interval(wins, games)
                if (hi_ci - lo_ci) / 2 <= precision or games >= max_games:
                    break
                n = min(max_games, max(2 * games, stats.games_for_precision(max(wins, 0.5) / games, precision)))
                wins, games = play(value, n)

    probes = pd.DataFrame(
        [{"value": v, "games": g, "wins": w, **_interval(w, g)} for v, (w, g) in sorted(seen.items())])
    monotone = _check_monotone(store_path, probes, keys, increasing, notes, vary)
    probes["distance"] = (probes["win_rate"] - target).abs()
    best = probes.sort_values(["distance", "games"], ascending=[True, False]).iloc[0]
    return CalibrateResult(vary, float(target), int(best["value"]), float(best["win_rate"]), float(best["win_low"]),
                           float(best["win_high"]), int(best["games"]), probes.drop(columns="distance"),
                           monotone, notes, Path(store_path) if store_path else None)


def _interval(wins: int, games: int) -> dict[str, float]:
    rate, low, high, _ = stats.rate_interval(wins, games)
    return {"win_rate": rate, "win_low": low, "win_high": high}


def _check_monotone(store, probes: pd.DataFrame, keys: dict[int, str], increasing: bool,
                    notes: list[str], vary: str) -> bool:
    """Neighbouring probes whose paired difference goes the wrong way, significantly (Holm), break
    the bisection's assumption: say so, naming them."""
    values = probes["value"].tolist()
    tests = []
    for a, b in zip(values, values[1:]):
        wins_a, wins_b = paired_wins(ResultStore(store, create=False), keys[b], keys[a])
        if len(wins_a) == 0:
            continue
        cmp = stats.paired_difference(wins_a, wins_b)
        wrong_way = cmp.diff < 0 if increasing else cmp.diff > 0
        tests.append((a, b, cmp, wrong_way))
    if not tests:
        return True
    adjusted = stats.holm([t[2].p_value for t in tests])
    broken = [(a, b, cmp, p) for (a, b, cmp, wrong), p in zip(tests, adjusted) if wrong and p < 0.05]
    for a, b, cmp, p in broken:
        notes.append(f"not monotone: the win rate {'falls' if increasing else 'rises'} from {vary}={a} to "
                     f"{vary}={b} ({100 * cmp.diff:+.2f} pp on the same games, Holm p {p:.2g}); "
                     "bisection assumes a monotone response and may have missed a closer value")
    return not broken

"""Cowboy Bebop policies compared: speed and strength (run by hand; prints figures, asserts nothing).

    python benchmarks/bench_policies.py [--n 20000] [--n-rollout 1000] [--timed-rollout 200]
                                        [--seed 2024] [--presets boogie,waltz] [--characters spike,jet]

For each preset and each policy (random, heuristic, rollout), one set of games of one seed:
  * games/s on 1 thread, timed on the first games of the set (all of them for random and heuristic,
    the first --timed-rollout for rollout), the rest played on every thread;
  * the win rate with its 95% Wilson interval over the whole set (rollout plays fewer games: --n-rollout);
  * rollout against heuristic on the games both played (the same deals: common random numbers): the
    paired difference of win rates with its 95% interval and McNemar p, the ratio of win rates and
    the ratio of games/s.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import sys
import time

import numba
import numpy as np
import pandas as pd

import boardsim
from boardsim import stats
from boardsim.games.bebop import game as G
from boardsim.games.bebop.policies_nb import DEFAULT_WEIGHTS, WEIGHT_NAMES

POLICIES = ("random", "heuristic", "rollout")


def play(policy: str, preset: str, characters: str, n: int, timed: int, seed: int):
    """n games of `seed`: the first `timed` on 1 thread (timed), the rest on every thread.
    Returns (frame of all n games, games/s on 1 thread, mean turns of the timed games)."""
    kw = dict(preset=preset, characters=characters, seed=seed, policy=policy)
    start = time.perf_counter()
    first = boardsim.simulate("bebop", n=timed, threads=1, **kw)
    rate = timed / (time.perf_counter() - start)
    frames = [first]
    if n > timed:
        rules = G.GAME.resolve(preset, {"characters": characters})
        frames.append(G.simulate(rules, n - timed, seed, policy, None, None, None, first_index=timed))
    return pd.concat(frames, ignore_index=True), rate, float(first["turns"].mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000, help="games for random and heuristic")
    ap.add_argument("--n-rollout", type=int, default=1_000, help="games for rollout")
    ap.add_argument("--timed-rollout", type=int, default=200, help="rollout games timed on 1 thread")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--presets", default="boogie,waltz")
    ap.add_argument("--characters", default="spike,jet")
    args = ap.parse_args()

    print("command  :", " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]))
    print("arguments:", json.dumps(vars(args)))
    print(f"machine  : {platform.machine()} {platform.processor() or ''}, {os.cpu_count()} cpus "
          f"({len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'} usable), "
          f"python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}, "
          f"boardsim {boardsim.__version__}")
    rollout = {name: DEFAULT_WEIGHTS[i] for i, name in enumerate(WEIGHT_NAMES) if name.startswith("rollout_")}
    print("rollout  :", ", ".join(f"{k[len('rollout_'):]}={v:g}" for k, v in rollout.items()))
    if hasattr(os, "getloadavg"):
        print("load average before the run: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    started = time.perf_counter()
    for policy in POLICIES:          # compile or load the kernel outside the timings
        boardsim.simulate("bebop", n=1, seed=0, policy=policy, threads=1)

    for preset in args.presets.split(","):
        print()
        print(f"== {preset}, {args.characters}, seed {args.seed}")
        print(f"{'policy':<11}{'games/s (1 thread)':>19}{'turns':>7}   win rate")
        results = {}
        for policy in POLICIES:
            n = args.n_rollout if policy == "rollout" else args.n
            timed = min(n, args.timed_rollout) if policy == "rollout" else n
            df, rate, turns = play(policy, preset, args.characters, n, timed, args.seed)
            results[policy] = (df, rate)
            wins = int(df["win"].sum())
            print(f"{policy:<11}{rate:>19,.1f}{turns:>7.1f}   {stats.format_rate(wins, n)}"
                  + (f"   (games/s timed on the first {timed})" if timed < n else ""))
        (r_df, r_rate), (h_df, h_rate) = results["rollout"], results["heuristic"]
        m = len(r_df)
        pair = stats.paired_difference(r_df["win"].to_numpy(), h_df["win"].to_numpy()[:m])
        print(f"rollout - heuristic on the same {m} games: {100 * pair.diff:+.1f} points "
              f"[{100 * pair.low:+.1f}, {100 * pair.high:+.1f}] (95% {pair.method}; won by rollout only "
              f"{pair.only_a}, by heuristic only {pair.only_b}; McNemar p = {pair.p_value:.2g})")
        ratio = pair.rate_a / pair.rate_b if pair.rate_b > 0 else float("inf")
        print(f"win rate ratio rollout / heuristic (same games): {ratio:.2f}x; "
              f"games/s ratio heuristic / rollout: {h_rate / r_rate:,.0f}x (rollout is that much slower)")
    print()
    print(f"total benchmark time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

"""Cowboy Bebop throughput benchmark (run by hand; prints figures, asserts nothing).

    python benchmarks/bench_bebop.py [--n 20000] [--n-threads 40000] [--n-interpreted 20] [--no-cold]

Measures, in one run:
  * games/s of the compiled kernel for each policy (random, heuristic), 1 thread;
  * games/s with the JIT disabled (NUMBA_DISABLE_JIT=1, in a subprocess, timing only the games, not the
    imports) and the compiled / interpreted speed-up;
  * 2 threads against 1 thread on the compiled heuristic;
  * the cold compile against loading the kernel from the cache in a new process (the cold compile is
    this process's warm-up when it found no cache for the current kernel source, else a new process
    with an empty cache directory).
Everything is played at the given preset and crew; the compiled figures exclude compilation.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import textwrap
import time

import numba
import numpy as np

import boardsim

# Played in a subprocess with NUMBA_DISABLE_JIT=1. It calls the batch kernel directly with record-array
# views (what boardsim.runner.kernel_view hands the interpreted kernels), one game at a time, so only
# the games are timed, not imports or setup; a game that raises is counted apart.
INTERPRETED = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    from boardsim.games.bebop import game as G
    from boardsim.games.bebop.batch_nb import play_games
    from boardsim.games.bebop.state_nb import OUTCOME_DTYPE, STATE_DTYPE
    policy, n, seed, preset, characters = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    rules = G.GAME.resolve(preset, {"characters": characters})
    pol, weights, _ = G.policy_weights(policy)
    cards = G.cards_record(G.load_cards()).view(np.recarray)
    rules_rec = G.rules_record(rules).view(np.recarray)
    state = np.zeros(1, STATE_DTYPE).view(np.recarray)
    log = np.zeros((0, 6), np.int32)
    seconds, played, turns, errors = 0.0, 0, 0, []
    for g in range(n):
        out = np.zeros(1, OUTCOME_DTYPE).view(np.recarray)
        start = time.perf_counter()
        try:
            with np.errstate(over="ignore"):
                play_games(cards, rules_rec, weights, np.int64(pol), np.uint64(seed), np.int64(g), state, log, out)
        except Exception as exc:
            errors.append(f"game {g}: {type(exc).__name__}: {exc}")
            continue
        seconds += time.perf_counter() - start
        played += 1
        turns += int(out[0]["turns"])
    print(json.dumps({"seconds": seconds, "played": played, "turns": turns, "errors": errors}))
""")

# cold compile vs cached load: the first simulate() call in a fresh process, timed from before the import
FIRST_CALL = textwrap.dedent("""
    import json, sys, time
    start = time.perf_counter()
    import boardsim
    imported = time.perf_counter()
    boardsim.simulate("bebop", n=1, seed=0, policy="heuristic", threads=1)
    done = time.perf_counter()
    print(json.dumps({"import": imported - start, "first_call": done - imported}))
""")


def compiled_rate(policy, n, seed, preset, characters, threads=1):
    start = time.perf_counter()
    df = boardsim.simulate("bebop", preset=preset, characters=characters, n=n, seed=seed, policy=policy,
                           threads=threads)
    seconds = time.perf_counter() - start
    return n / seconds, seconds, float(df["turns"].mean())


def run_json(args, env, timeout=900):
    proc = subprocess.run([sys.executable, "-c", *args], capture_output=True, text=True, env=env, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "failed")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000, help="games per policy, compiled, 1 thread")
    ap.add_argument("--n-threads", type=int, default=40_000, help="heuristic games for the 1 vs 2 threads ratio")
    ap.add_argument("--n-interpreted", type=int, default=20, help="games per policy with the JIT disabled")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--preset", default="boogie")
    ap.add_argument("--characters", default="spike,jet")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-compile measurement (about 2 minutes on 2 cores)")
    args = ap.parse_args()

    print("command  :", " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]))
    print("arguments:", json.dumps(vars(args)))
    print(f"machine  : {platform.machine()} {platform.processor() or ''}, {os.cpu_count()} cpus "
          f"({len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'} usable), "
          f"python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}, "
          f"boardsim {boardsim.__version__}")
    print(f"NUMBA_CACHE_DIR={os.environ.get('NUMBA_CACHE_DIR', '(default)')}")
    if hasattr(os, "getloadavg"):
        print("load average before the run: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())
              + "  (other work on the machine skews the thread ratio)")
    started = time.perf_counter()

    # warm the compiled kernel (compile or load from the cache) outside the timings
    t0 = time.perf_counter()
    for policy in ("random", "heuristic"):
        boardsim.simulate("bebop", preset=args.preset, characters=args.characters, n=4, seed=0, policy=policy,
                          threads=1)
    warm = time.perf_counter() - t0

    rows = []
    compiled = {}
    for policy in ("random", "heuristic"):
        rate, seconds, mean_turns = compiled_rate(policy, args.n, args.seed, args.preset, args.characters)
        compiled[policy] = rate
        rows.append((f"compiled {policy}, 1 thread", args.n, seconds, rate, rate * mean_turns))

    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    interpreted = {}
    notes = []
    for policy in ("random", "heuristic"):
        try:
            res = run_json([INTERPRETED, policy, str(args.n_interpreted), str(args.seed), args.preset,
                            args.characters], env)
        except Exception as exc:  # report, do not stop the benchmark
            notes.append(f"interpreted {policy}: failed ({exc})")
            continue
        if res["errors"]:
            notes.append(f"interpreted {policy}: {len(res['errors'])} of {args.n_interpreted} games raised, "
                         f"e.g. {res['errors'][0]} (timed over the {res['played']} games that finished)")
        if res["played"]:
            rate = res["played"] / res["seconds"]
            interpreted[policy] = rate
            rows.append((f"JIT disabled {policy}, 1 thread", res["played"], res["seconds"], rate,
                         res["turns"] / res["seconds"]))

    threads = {}
    for t in (1, 2):
        rate, seconds, mean_turns = compiled_rate("heuristic", args.n_threads, args.seed + 1, args.preset,
                                                  args.characters, threads=t)
        threads[t] = rate
        rows.append((f"compiled heuristic, {t} thread{'s' if t > 1 else ''}", args.n_threads, seconds, rate,
                     rate * mean_turns))

    print()
    print(f"{'run':<34}{'games':>8}{'seconds':>10}{'games/s':>12}{'turns/s':>13}")
    for name, n, seconds, rate, turns in rows:
        print(f"{name:<34}{n:>8}{seconds:>10.2f}{rate:>12,.0f}{turns:>13,.0f}")
    print()
    for policy in ("random", "heuristic"):
        if policy in interpreted:
            print(f"speed-up compiled / JIT disabled, {policy:<9}: {compiled[policy] / interpreted[policy]:,.0f}x")
        else:
            print(f"speed-up compiled / JIT disabled, {policy:<9}: n/a")
    print(f"2 threads / 1 thread, compiled heuristic  : {threads[2] / threads[1]:.2f}x")
    print(f"kernel warm-up in this process (load or compile, both policies): {warm:.1f} s")

    if not args.no_cold:
        try:
            # the first simulate() of a fresh process, loading the kernel from this run's cache
            cached = run_json([FIRST_CALL], {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"})
            if warm > 20:
                # this process found no cache for this kernel version: its warm-up was the cold compile
                cold_s, how = warm, "this process's warm-up (no cache for this kernel version)"
            else:
                with tempfile.TemporaryDirectory() as cache:
                    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
                    env.pop("NUMBA_DISABLE_JIT", None)
                    cold_s, how = run_json([FIRST_CALL], env)["first_call"], "a new process, empty cache"
            print(f"first simulate(): cold compile {cold_s:.1f} s ({how}); "
                  f"cached load {cached['first_call']:.2f} s (new process; import {cached['import']:.2f} s)")
        except Exception as exc:
            notes.append(f"cold/cached measurement failed ({exc})")
    for note in notes:
        print("note:", note)
    print(f"total benchmark time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

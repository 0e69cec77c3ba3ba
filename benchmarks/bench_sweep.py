"""Sweep benchmark: executors and memory (run by hand; prints figures, asserts nothing).

    python benchmarks/bench_sweep.py [--games 1000000] [--scaling-games 40000]
                                     [--memory-games 100000,1000000] [--quick]

Measures, in one run, on the bebop grid vicious=4,8 (2 points, games split evenly between them):
  (i)   the same sweep (--scaling-policy, default heuristic) on 2 local worker threads against 1:
        games/s each and the ratio (expected >= 1.8x on 2 cores);
  (ii)  the same sweep of --games games in total (--dask-policy, default random to keep the run to
        minutes) on a Dask LocalCluster of 2 worker processes against 2 local worker threads: seconds
        each and the ratio (expected within 15%). The cluster is started and its workers load the
        kernel before the clock starts (those times are printed apart); the timed sweep connects
        to it with scheduler=ADDRESS, which runs exactly as dask_local=2 does;
  (iii) peak memory (max RSS) of a sweep of 10^5 against 10^6 games, each in a fresh process on
        2 local threads: the peak while playing and the peak after the summary (expected flat
        while playing; the summary reads one point's win and turns columns at a time).
Every sweep writes to its own temporary result store, deleted afterwards. Timings are of the
whole boardsim.sweep() call (store writes and the summary included), with the kernel already loaded.
--quick runs everything with small game counts (a smoke test of the script, not figures to quote).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

import numba
import numpy as np

import boardsim
from boardsim.registry import get_game
from boardsim.runner import play_chunk

GAME = "bebop"
GRID = "vicious=4,8"
POINTS = 2

# (iii): one sweep in a fresh process; prints its peak RSS while playing and after the summary
MEMORY = textwrap.dedent("""
    import json, resource, sys, time
    import psutil
    import boardsim
    n, policy, seed, store = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    boardsim.simulate("bebop", n=2, seed=0, policy=policy, threads=1)   # load the kernel first
    peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    rss_before = psutil.Process().memory_info().rss
    playing = [0]
    def progress(status):
        playing[0] = peak()
    start = time.perf_counter()
    result = boardsim.sweep("bebop", "vicious=4,8", n=n // 2, seed=seed, policy=policy, store=store,
                            workers=2, progress=progress)
    seconds = time.perf_counter() - start
    print(json.dumps({"games": int(result.summary["games"].sum()), "seconds": seconds,
                      "rss_before": rss_before, "peak_playing": playing[0], "peak_total": peak()}))
""")


def timed_sweep(n_total: int, seed: int, policy: str, **executor) -> tuple[float, object]:
    """Seconds of one sweep of n_total games into a fresh temporary store (deleted afterwards)."""
    store = tempfile.mkdtemp(prefix="bench-sweep-")
    try:
        start = time.perf_counter()
        result = boardsim.sweep(GAME, GRID, n=n_total // POINTS, seed=seed, policy=policy, store=store, **executor)
        seconds = time.perf_counter() - start
        assert int(result.summary["games"].sum()) == n_total
        return seconds, result
    finally:
        shutil.rmtree(store, ignore_errors=True)


def mib(n_bytes: float) -> str:
    return f"{n_bytes / 2**20:,.0f} MiB"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scaling-games", type=int, default=40_000, help="(i) games in total, 1 vs 2 local workers")
    ap.add_argument("--scaling-policy", default="heuristic")
    ap.add_argument("--games", type=int, default=1_000_000, help="(ii) games in total, Dask vs local")
    ap.add_argument("--dask-policy", default="random")
    ap.add_argument("--memory-games", default="100000,1000000", help="(iii) games in total per sweep, comma-separated")
    ap.add_argument("--memory-policy", default="random")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--quick", action="store_true", help="small game counts: a smoke test of this script")
    args = ap.parse_args()
    if args.quick:
        args.scaling_games, args.games, args.memory_games = 4_000, 20_000, "10000,40000"
    memory_games = [int(x) for x in args.memory_games.split(",")]

    print("command  :", " ".join(shlex.quote(a) for a in [sys.executable, *sys.argv]))
    print("arguments:", json.dumps(vars(args)))
    try:
        import distributed
        dask_version = distributed.__version__
    except ImportError:
        distributed, dask_version = None, "not installed"
    print(f"machine  : {platform.machine()}, {os.cpu_count()} cpus "
          f"({len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'} usable), "
          f"python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}, "
          f"distributed {dask_version}, boardsim {boardsim.__version__}")
    print(f"NUMBA_CACHE_DIR={os.environ.get('NUMBA_CACHE_DIR', '(default)')}")
    if hasattr(os, "getloadavg"):
        print("load average before the run: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    started = time.perf_counter()

    # load (or compile) the kernel in this process, outside every timing
    t0 = time.perf_counter()
    for policy in {args.scaling_policy, args.dask_policy}:
        boardsim.simulate(GAME, n=2, seed=0, policy=policy, threads=1)
    print(f"kernel load in this process: {time.perf_counter() - t0:.1f} s (not timed below)")

    # ------------------------------------------------------------------ (i) 2 local workers vs 1
    print(f"\n(i) {GAME} {GRID}, {args.scaling_games:,} games in total, policy {args.scaling_policy}, "
          "local worker threads, default chunk size")
    rates = {}
    for workers in (1, 2):
        seconds, result = timed_sweep(args.scaling_games, args.seed, args.scaling_policy, workers=workers)
        rates[workers] = args.scaling_games / seconds
        print(f"    workers={workers}: {seconds:7.2f} s  {rates[workers]:10,.0f} games/s")
    print(f"    2 workers / 1 worker: {rates[2] / rates[1]:.2f}x   (expected >= 1.8x)")

    # ------------------------------------------------------ (ii) Dask LocalCluster vs 2 local workers
    print(f"\n(ii) {GAME} {GRID}, {args.games:,} games in total, policy {args.dask_policy}, default chunk size")
    if distributed is None:
        print("    skipped: dask.distributed is not installed (pip install 'boardsim[dask]')")
    else:
        local_s, _ = timed_sweep(args.games, args.seed, args.dask_policy, workers=2)
        print(f"    local, 2 worker threads       : {local_s:7.2f} s  {args.games / local_s:10,.0f} games/s")
        t0 = time.perf_counter()
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=40)
        client = distributed.Client(cluster)
        startup = time.perf_counter() - t0
        try:
            t0 = time.perf_counter()
            spec = get_game(GAME)
            batch = spec.prepare(spec.resolve(None, {}), args.dask_policy, None)
            client.run(play_chunk, batch, 0, 0, 2)  # every worker loads the kernel from the cache
            warm = time.perf_counter() - t0
            dask_s, result = timed_sweep(args.games, args.seed, args.dask_policy,
                                         scheduler=cluster.scheduler_address)
        finally:
            client.close()
            cluster.close()
        print(f"    Dask LocalCluster, 2 processes: {dask_s:7.2f} s  {args.games / dask_s:10,.0f} games/s"
              f"   ({result.provenance['executor']})")
        print(f"    Dask / local time: {dask_s / local_s:.2f}x   (expected <= 1.15x)")
        print(f"    not timed: cluster start-up {startup:.1f} s, kernel load in the workers {warm:.1f} s")

    # ----------------------------------------------------------------- (iii) peak memory, fresh process
    print(f"\n(iii) peak RSS of one sweep in a fresh process, {GAME} {GRID}, policy {args.memory_policy}, "
          "2 local worker threads")
    for n_total in memory_games:
        store = tempfile.mkdtemp(prefix="bench-sweep-mem-")
        try:
            proc = subprocess.run([sys.executable, "-c", MEMORY, str(n_total), args.memory_policy, str(args.seed),
                                   store], capture_output=True, text=True, timeout=3600)
        finally:
            shutil.rmtree(store, ignore_errors=True)
        if proc.returncode != 0:
            print(f"    {n_total:>9,} games: failed ({(proc.stderr.strip().splitlines() or ['?'])[-1]})")
            continue
        m = json.loads(proc.stdout.strip().splitlines()[-1])
        print(f"    {m['games']:>9,} games: peak while playing {mib(m['peak_playing'])}, "
              f"after the summary {mib(m['peak_total'])} (RSS before the sweep {mib(m['rss_before'])}; "
              f"{m['seconds']:.1f} s)")
    print(f"\ntotal benchmark time: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

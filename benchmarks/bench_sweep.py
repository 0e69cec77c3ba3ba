"""Sweep benchmark: executors and memory (run by hand; prints figures, asserts nothing).

    python benchmarks/bench_sweep.py [--games 1000000] [--scaling-games 40000] [--repeat 2]
                                     [--memory-games 100000,1000000] [--quick]

Measures, in one run, on the bebop grid vicious=4,8 (2 points, games split evenly between them):
  (i)   the same sweep (--scaling-policy, default heuristic) on 2 local worker threads against 1:
        games/s each and the ratio (expected >= 1.8x on 2 cores); for reference, the same games
        with the kernel alone (boardsim.simulate, 2 threads against 1: no chunks, no store);
  (ii)  the same sweep of --games games in total (--dask-policy, default random to keep the run to
        minutes) on a Dask LocalCluster of 2 worker processes against 2 local worker threads: seconds
        each and the ratio (expected within 15%). The cluster is started and its workers load the
        kernel before the clock starts (those times are printed apart); the timed sweep connects
        to it with scheduler=ADDRESS, which runs exactly as dask_local=2 does;
  (iii) peak memory (max RSS) of a sweep of 10^5 against 10^6 games, each in a fresh process on
        2 local threads: the peak while playing and the peak after the summary (expected flat
        while playing; the summary reads one point's win and turns columns at a time).
(i) and (ii) run --repeat times, interleaved (A B A B), and compare the best run of each: on a
shared 2-core VM the speed of a core drifts by 20-30% from one run to the next. Each run also
shows the CPU seconds it used (this process plus the Dask workers), "cores busy" = CPU / wall and
the machine's steal time: a 2-worker run with ~2 cores busy but a poor ratio lost to slower cores
(more CPU per game), not to idle workers. Timings are of the whole boardsim.sweep() call (store writes and the summary
included), with the kernel already loaded. Every sweep writes to its own temporary result store,
deleted afterwards. --quick runs everything with small game counts (a smoke test, not figures).
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
import psutil

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


def cpu_seconds(pids=()) -> float:
    """CPU seconds (user + system) of this process and of the given other processes so far."""
    total = 0.0
    for proc in [psutil.Process(), *(psutil.Process(pid) for pid in pids)]:
        times = proc.cpu_times()
        total += times.user + times.system
    return total


def measured(n_total: int, play, pids=()) -> dict:
    """Wall seconds, CPU seconds (this process and `pids`) and the machine's steal time of play()."""
    cpu0, steal0, start = cpu_seconds(pids), psutil.cpu_times().steal, time.perf_counter()
    out = play()
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "cpu": cpu_seconds(pids) - cpu0, "steal": psutil.cpu_times().steal - steal0,
            "rate": n_total / seconds, "out": out}


def timed_sweep(n_total: int, seed: int, policy: str, pids=(), **executor) -> dict:
    """One sweep of n_total games into a fresh temporary store (deleted afterwards)."""
    store = tempfile.mkdtemp(prefix="bench-sweep-")
    try:
        run = measured(n_total, lambda: boardsim.sweep(GAME, GRID, n=n_total // POINTS, seed=seed, policy=policy,
                                                       store=store, **executor), pids)
        assert int(run["out"].summary["games"].sum()) == n_total
        run["executor"] = run.pop("out").provenance["executor"]
        return run
    finally:
        shutil.rmtree(store, ignore_errors=True)


def timed_simulate(n: int, seed: int, policy: str, threads: int) -> dict:
    """The kernel alone (boardsim.simulate: no chunks, no store), for reference."""
    return measured(n, lambda: boardsim.simulate(GAME, n=n, seed=seed, policy=policy, threads=threads))


def show(name: str, run: dict, n_total: int) -> None:
    print(f"    {name:<32}{run['seconds']:8.2f} s {run['rate']:10,.0f} games/s   cpu {run['cpu']:7.2f} s "
          f"({1e6 * run['cpu'] / n_total:4.0f} us/game, {run['cpu'] / run['seconds']:.2f} cores busy, "
          f"steal {run['steal']:.1f} s)")


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
    ap.add_argument("--repeat", type=int, default=2, help="(i) and (ii): interleaved runs of each executor")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--quick", action="store_true", help="small game counts: a smoke test of this script")
    args = ap.parse_args()
    if args.quick:
        args.scaling_games, args.games, args.memory_games, args.repeat = 4_000, 20_000, "10000,40000", 1
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

    # outside every timing: load (or compile) the kernel, and the lazy imports of a first sweep
    # (pyarrow; scipy.stats, which an exact interval at a win rate near 0 or 1 imports in ~1.5 s)
    t0 = time.perf_counter()
    for policy in sorted({args.scaling_policy, args.dask_policy}):
        boardsim.simulate(GAME, n=2, seed=0, policy=policy, threads=1)
        timed_sweep(200, args.seed, policy, workers=1)
    print(f"warm-up in this process (kernel load, first-sweep imports): {time.perf_counter() - t0:.1f} s "
          "(not timed below)")

    # ------------------------------------------------------------------ (i) 2 local workers vs 1
    print(f"\n(i) {GAME} {GRID}, {args.scaling_games:,} games in total, policy {args.scaling_policy}, "
          f"local worker threads, default chunk size, {args.repeat} interleaved run(s) each")
    runs: dict[int, list[dict]] = {1: [], 2: []}
    kernel: dict[int, list[dict]] = {1: [], 2: []}
    for rep in range(args.repeat):
        for workers in (1, 2):
            runs[workers].append(timed_sweep(args.scaling_games, args.seed, args.scaling_policy, workers=workers))
            show(f"sweep workers={workers}, run {rep + 1}", runs[workers][-1], args.scaling_games)
        for threads in (1, 2):
            kernel[threads].append(timed_simulate(args.scaling_games, args.seed, args.scaling_policy, threads))
            show(f"simulate threads={threads}, run {rep + 1}", kernel[threads][-1], args.scaling_games)
    best = {w: max(r, key=lambda run: run["rate"]) for w, r in runs.items()}
    print(f"    best: workers=1 {best[1]['rate']:,.0f} games/s, workers=2 {best[2]['rate']:,.0f} games/s")
    per_run = ", ".join(f"{b['rate'] / a['rate']:.2f}x" for a, b in zip(runs[1], runs[2]))
    print(f"    2 workers / 1 worker (best runs): {best[2]['rate'] / best[1]['rate']:.2f}x   (expected >= 1.8x); "
          f"per run: {per_run}")
    k_best = {t: max(r["rate"] for r in k) for t, k in kernel.items()}
    per_run = ", ".join(f"{b['rate'] / a['rate']:.2f}x" for a, b in zip(kernel[1], kernel[2]))
    print(f"    reference, the kernel alone (simulate, no store) 2 threads / 1: {k_best[2] / k_best[1]:.2f}x; "
          f"per run: {per_run}")

    # ------------------------------------------------------ (ii) Dask LocalCluster vs 2 local workers
    print(f"\n(ii) {GAME} {GRID}, {args.games:,} games in total, policy {args.dask_policy}, default chunk size, "
          f"{args.repeat} interleaved run(s) each")
    if distributed is None:
        print("    skipped: dask.distributed is not installed (pip install 'boardsim[dask]')")
    else:
        t0 = time.perf_counter()
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                           dashboard_address=None, silence_logs=40)
        client = distributed.Client(cluster)
        startup = time.perf_counter() - t0
        local_runs, dask_runs = [], []
        try:
            t0 = time.perf_counter()
            spec = get_game(GAME)
            batch = spec.prepare(spec.resolve(None, {}), args.dask_policy, None)
            client.run(play_chunk, batch, 0, 0, 2)  # every worker loads the kernel from the cache
            warm = time.perf_counter() - t0
            pids = list(client.run(os.getpid).values())
            for rep in range(args.repeat):
                local_runs.append(timed_sweep(args.games, args.seed, args.dask_policy, workers=2))
                show(f"local, 2 threads, run {rep + 1}", local_runs[-1], args.games)
                dask_runs.append(timed_sweep(args.games, args.seed, args.dask_policy, pids=pids,
                                             scheduler=cluster.scheduler_address))
                show(f"Dask, 2 processes, run {rep + 1}", dask_runs[-1], args.games)
        finally:
            client.close()
            cluster.close()
        local_best = min(r["seconds"] for r in local_runs)
        dask_best = min(r["seconds"] for r in dask_runs)
        print(f"    best: local {local_best:.2f} s, Dask LocalCluster {dask_best:.2f} s ({dask_runs[0]['executor']})")
        per_run = ", ".join(f"{d['seconds'] / l['seconds']:.2f}x" for l, d in zip(local_runs, dask_runs))
        print(f"    Dask / local time (best runs): {dask_best / local_best:.2f}x   (expected <= 1.15x); "
              f"per run: {per_run}")
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

"""Bossin' Space throughput benchmark (run by hand; prints figures, asserts nothing).

    python benchmarks/bench_bossin.py [--n 20000] [--n-interpreted 20] [--players 2] [--cold]

Measures, in one run: games/s of the compiled kernel for each policy (1 thread, compilation
excluded); games/s with NUMBA_DISABLE_JIT=1 in a subprocess (timing only the games, not imports);
their ratio; with --cold also the first simulate() call of a new process with an empty numba cache
directory (the cold compile) against one that loads the cache.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

import boardsim

INTERPRETED = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    from boardsim.games.bossin import game as G
    from boardsim.games.bossin.batch_nb import play_games
    from boardsim.games.bossin.state_nb import OUTCOME_DTYPE, STATE_DTYPE
    policy, n, seed, players = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rules = G.GAME.resolve("normal", {"players": players})
    pol, weights, _ = G.policy_weights(policy)
    cards = G.cards_record(G.load_cards()).view(np.recarray)
    rules_rec = G.rules_record(rules).view(np.recarray)
    state = np.zeros(1, STATE_DTYPE).view(np.recarray)
    log = np.zeros((0, 6), np.int32)
    seconds = 0.0
    for g in range(n):
        out = np.zeros(1, OUTCOME_DTYPE).view(np.recarray)
        start = time.perf_counter()
        with np.errstate(over="ignore"):
            play_games(cards, rules_rec, weights, np.int64(pol), np.uint64(seed), np.int64(g), state, log, out)
        seconds += time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "played": n}))
""")

FIRST_CALL = textwrap.dedent("""
    import json, time
    start = time.perf_counter()
    import boardsim
    boardsim.simulate("bossin", n=1, seed=0, policy="heuristic", threads=1)
    print(json.dumps({"first_call": time.perf_counter() - start}))
""")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--n-interpreted", type=int, default=20)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cold", action="store_true", help="also time a cold compile in a new process")
    args = ap.parse_args()
    print(f"Bossin' Space, normal, {args.players} players, seed {args.seed}")
    for policy in ("random", "heuristic", "open-hands"):
        boardsim.simulate("bossin", n=1, seed=0, policy=policy, params={"players": args.players}, threads=1)
        start = time.perf_counter()
        df = boardsim.simulate("bossin", n=args.n, seed=args.seed, policy=policy, params={"players": args.players},
                               threads=1)
        compiled = args.n / (time.perf_counter() - start)
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        out = subprocess.run([sys.executable, "-c", INTERPRETED, policy, str(args.n_interpreted), str(args.seed),
                              str(args.players)], env=env, capture_output=True, text=True, check=True)
        res = json.loads(out.stdout)
        interpreted = res["played"] / res["seconds"]
        print(f"  {policy:<10} compiled {compiled:9,.0f} games/s (win {df['win'].mean():.2%}, "
              f"{df['turns'].mean():.1f} rounds)  interpreted {interpreted:7,.1f} games/s  "
              f"ratio {compiled / interpreted:6,.0f}x")
    if args.cold:
        for label, cache in (("cold (empty cache)", tempfile.mkdtemp(prefix="bossin-bench-")), ("cached", None)):
            env = dict(os.environ)
            if cache:
                env["NUMBA_CACHE_DIR"] = cache
            out = subprocess.run([sys.executable, "-c", FIRST_CALL], env=env, capture_output=True, text=True, check=True)
            print(f"  first simulate() in a new process, {label}: {json.loads(out.stdout)['first_call']:.1f} s")


if __name__ == "__main__":
    np.seterr(over="ignore")
    main()

"""The embedded executor: a game's nogil batch kernel over chunks of games on local threads.

Every game is seeded from (root seed, game index) alone, so chunk size, thread count and the order
in which chunks finish never change a number. Chunks also bound memory and drive the progress bar.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numpy as np


def default_threads() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def run_batch(
    kernel: Callable,
    args: tuple,
    state_dtype: np.dtype,
    out_dtype: np.dtype,
    n: int,
    seed: int,
    first_index: int = 0,
    threads: int | None = None,
    chunk: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Call kernel(*args, seed, first, state, log, out_chunk) per chunk; return all outcome rows."""
    threads = max(1, threads or default_threads())
    if chunk is None:
        # several chunks per thread balance the load; 5000 games keep progress updates frequent
        chunk = max(1, min(5000, -(-n // (4 * threads))))
    out = np.zeros(n, dtype=out_dtype)
    no_log = np.zeros((0, 6), dtype=np.int32)

    def play(start: int) -> int:
        stop = min(n, start + chunk)
        state = np.zeros(1, dtype=state_dtype)
        # uint64 arithmetic wraps by design; only the JIT-disabled path would warn about it
        with np.errstate(over="ignore"):
            kernel(*args, np.uint64(seed), np.int64(first_index + start), state, no_log, out[start:stop])
        return stop - start

    starts = range(0, n, chunk)
    if threads == 1:
        for start in starts:
            done = play(start)
            if progress is not None:
                progress(done)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            for done in pool.map(play, starts):
                if progress is not None:
                    progress(done)
    return out

"""The embedded executor: a game's nogil batch kernel over chunks of games on local threads.

Every game is seeded from (root seed, game index) alone, so chunk size, thread count and the order
in which chunks finish never change a number. Chunks also bound memory and drive the progress bar.
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numba
import numpy as np


def kernel_view(arr: np.ndarray) -> np.ndarray:
    """Structured arrays as the kernels see them.

    Compiled kernels read record fields as attributes (`st.res`). With NUMBA_DISABLE_JIT=1 the same
    code runs as plain Python, where only np.recarray elements have attribute access, so record
    arrays are handed over as recarray views there (same memory, no copy).
    """
    if numba.config.DISABLE_JIT and arr.dtype.names is not None:
        return arr.view(np.recarray)
    return arr


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
    args = tuple(kernel_view(a) if isinstance(a, np.ndarray) else a for a in args)
    threads = max(1, threads or default_threads())
    if chunk is None:
        # several chunks per thread balance the load; 5000 games keep progress updates frequent
        chunk = max(1, min(5000, -(-n // (4 * threads))))
    out = np.zeros(n, dtype=out_dtype)
    no_log = np.zeros((0, 6), dtype=np.int32)

    def play(start: int) -> int:
        stop = min(n, start + chunk)
        state = kernel_view(np.zeros(1, dtype=state_dtype))
        # uint64 arithmetic wraps by design; only the JIT-disabled path would warn about it
        with np.errstate(over="ignore"):
            kernel(*args, np.uint64(seed), np.int64(first_index + start), state, no_log,
                   kernel_view(out[start:stop]))
        return stop - start

    if n == 0:
        # no games: still call the kernel once, which compiles it (or loads it from the cache)
        kernel(*args, np.uint64(seed), np.int64(first_index), kernel_view(np.zeros(1, dtype=state_dtype)),
               no_log, kernel_view(out))
        return out
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

"""Executors: a game's nogil batch kernel over chunks of games, on local threads or on Dask.

Every game is seeded from (root seed, game index) alone, so chunk size, thread count, the executor
and the order in which chunks finish never change a number. Chunks also bound memory and drive the
progress bar.
"""
from __future__ import annotations

import importlib
import os
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

import numba
import numpy as np

from .errors import BoardsimError, ParamError
from .spec import Batch


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


# ----------------------------------------------------------------------------- chunks of a sweep


def resolve_kernel(name: str) -> Callable:
    """"package.module:function" -> the function (imported where the chunk runs)."""
    module, _, attr = name.partition(":")
    return getattr(importlib.import_module(module), attr)


def play_chunk(batch: Batch, seed: int, first_index: int, n: int) -> np.ndarray:
    """Outcome rows of games first_index .. first_index + n - 1 of `seed`, on the calling thread.

    This is the unit of work on every executor; on Dask it runs inside a worker process.
    """
    return run_batch(resolve_kernel(batch.kernel), batch.args, batch.state_dtype, batch.out_dtype,
                     n, seed, first_index=first_index, threads=1, chunk=max(1, n))


@dataclass(frozen=True)
class Chunk:
    """Games [first, first + n) of root seed `seed` at grid point `point` (an index)."""

    point: int
    seed: int
    first: int
    n: int


class LocalExecutor:
    """Chunks on a pool of local threads (the kernels release the GIL)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, int(workers or default_threads()))
        self.description = f"local, {self.workers} worker thread{'s' if self.workers != 1 else ''}"
        self._pool = ThreadPoolExecutor(max_workers=self.workers)

    def run(self, chunks: Iterable[Chunk], batches: list[Batch]) -> Iterator[tuple[Chunk, np.ndarray]]:
        """Yield (chunk, rows) as chunks finish, with a few chunks per worker in flight.

        Closing the generator early (Ctrl-C, an error) cancels what has not started and waits for
        the running chunks, so no thread outlives the sweep.
        """
        pending: dict = {}
        todo = iter(chunks)
        try:
            while True:
                while len(pending) < 2 * self.workers:
                    chunk = next(todo, None)
                    if chunk is None:
                        break
                    future = self._pool.submit(play_chunk, batches[chunk.point], chunk.seed, chunk.first, chunk.n)
                    pending[future] = chunk
                if not pending:
                    return
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield pending.pop(future), future.result()
        finally:
            for future in pending:
                future.cancel()
            wait(pending)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


DASK_MISSING = "Dask is not installed; install it with: python -m pip install 'boardsim[dask]'"


def _distributed():
    try:
        import distributed
    except ImportError:
        raise BoardsimError(DASK_MISSING) from None
    return distributed


class DaskExecutor:
    """Chunks as tasks on a dask.distributed cluster: an existing scheduler, or a LocalCluster.

    Workers receive the Batch (numpy values only) and import the kernel themselves. If a worker
    dies, the scheduler runs its chunks elsewhere; since a chunk's rows depend only on (batch,
    seed, game range), the numbers are the same wherever and however often a chunk runs.
    """

    # a scheduler that is up answers in milliseconds; a wrong address should not keep the user waiting
    connect_timeout = "5s"
    worker_timeout = 60

    def __init__(self, scheduler: str | None = None, local_workers: int | None = None) -> None:
        distributed = _distributed()
        self._cluster = None
        if scheduler:
            try:
                self.client = distributed.Client(scheduler, timeout=self.connect_timeout)
            except (OSError, TimeoutError) as exc:
                raise BoardsimError(f"cannot reach the Dask scheduler at {scheduler} ({exc})") from None
            try:
                self.client.wait_for_workers(1, timeout=self.worker_timeout)
            except TimeoutError:
                self.client.close()
                raise BoardsimError(f"no worker joined the Dask scheduler at {scheduler} within "
                                    f"{self.worker_timeout} s; start one with: dask worker {scheduler}") from None
            self.description = f"dask scheduler {scheduler}"
        else:
            workers = max(1, int(local_workers or default_threads()))
            # one process per worker, one thread each: the kernel is single-threaded per chunk
            self._cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                     dashboard_address=":0", silence_logs=40)
            self.client = distributed.Client(self._cluster)
            self.description = f"dask LocalCluster, {workers} worker process{'es' if workers != 1 else ''}"
        self.workers = self._threads()

    def _threads(self) -> int:
        # chunks run one per worker thread: count threads, not worker processes (workers may join later)
        return max(1, sum(self.client.nthreads().values()))

    def run(self, chunks: Iterable[Chunk], batches: list[Batch]) -> Iterator[tuple[Chunk, np.ndarray]]:
        distributed = _distributed()
        from distributed.client import FutureCancelledError
        from distributed.comm.core import CommClosedError
        from distributed.scheduler import KilledWorker

        # a chunk that keeps killing workers, or a scheduler that went away
        lost_work = (FutureCancelledError, KilledWorker, CommClosedError)
        # the Batch (~10 KB of numpy values) travels inside each task, not scattered: scattered data
        # lives only on the workers that hold it, so a dead worker would take a point's Batch with it
        in_flight = distributed.as_completed()
        chunk_of: dict[str, tuple[Chunk, object]] = {}
        todo = iter(chunks)

        def submit_more() -> None:
            self.workers = self._threads()
            while in_flight.count() < 4 * self.workers:
                chunk = next(todo, None)
                if chunk is None:
                    return
                future = self.client.submit(play_chunk, batches[chunk.point], chunk.seed, chunk.first, chunk.n,
                                            pure=False, retries=2)
                chunk_of[future.key] = (chunk, future)
                in_flight.add(future)

        submit_more()
        try:
            while in_flight.count():
                future = next(in_flight)
                try:
                    rows = future.result()
                except lost_work as exc:
                    chunk, _ = chunk_of[future.key]
                    raise BoardsimError(
                        f"the Dask cluster lost games {chunk.first}..{chunk.first + chunk.n - 1} of point "
                        f"{chunk.point} ({type(exc).__name__}: {exc}); finished chunks are in the store, "
                        "run the same command again to resume") from None
                chunk, _ = chunk_of.pop(future.key)
                future.release()
                submit_more()
                yield chunk, rows
        finally:
            # stopped early (Ctrl-C, an error): nothing left on the cluster keeps computing for us
            in_flight.clear()
            if chunk_of:
                self.client.cancel([future for _, future in chunk_of.values()])

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(workers: int | None = None, scheduler: str | None = None, dask_local: int | None = None):
    """The executor a sweep asked for: a Dask scheduler address, a LocalCluster size, or local threads.

    BOARDSIM_SCHEDULER stands in for `scheduler` when neither Dask option is given.
    """
    if workers is not None and int(workers) < 1:
        raise ParamError(f"workers: {workers}; allowed: an integer >= 1")
    scheduler = scheduler or (None if dask_local else os.environ.get("BOARDSIM_SCHEDULER") or None)
    if scheduler and dask_local:
        raise ParamError("choose one of --scheduler and --dask-local, not both")
    if scheduler or dask_local:
        return DaskExecutor(scheduler=scheduler, local_workers=dask_local)
    return LocalExecutor(workers)

"""Sweeps on dask.distributed: the same numbers as local threads, a worker killed mid-sweep, and the
errors a user sees when Dask is missing or the scheduler cannot be reached.

Workers are separate processes that inherit this process's environment (NUMBA_CACHE_DIR), so the
module fixture below compiles (or loads) the batch kernel here first: the workers then only load it.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import boardsim
from boardsim.errors import BoardsimError

try:
    from boardsim.cli.main import cli
except ImportError:  # running from a checkout that is not installed
    from cli.main import cli

from bebop_support import bebop_kernels  # noqa: F401  (bebop_kernels is a fixture)

distributed = pytest.importorskip("distributed")

GRID = ["vicious=4,8"]
N = 2_000            # games per point in the equality test: 4 chunks of 500 per point
CHUNK = 500
KILL_N = 8_000       # games per point in the kill test: 2 x 16 chunks, several seconds on two workers
CLI_CODE = ("import sys\n"
            "try:\n    from boardsim.cli.main import cli\nexcept ImportError:\n    from cli.main import cli\n"
            "sys.exit(cli.main(sys.argv[1:], prog_name='boardsim'))\n")
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def warm_batch_kernel(bebop_kernels, tmp_path_factory):  # noqa: F811
    """The batch kernel in the on-disk cache before any worker process starts (a worker that had
    to compile it would take minutes), through the very call a worker makes (runner.play_chunk)."""
    boardsim.sweep("bebop", GRID, n=1, seed=0, workers=1, store=tmp_path_factory.mktemp("warm"))


pytestmark = pytest.mark.usefixtures("warm_batch_kernel")


@pytest.fixture(autouse=True)
def no_scheduler_from_the_environment(monkeypatch):
    """BOARDSIM_SCHEDULER would send every sweep here to that cluster."""
    monkeypatch.delenv("BOARDSIM_SCHEDULER", raising=False)


def run_sweep(store: Path, **executor):
    return boardsim.sweep("bebop", GRID, n=N, seed=11, chunk=CHUNK, store=store, **executor)


def game_rows(result_or_store) -> pd.DataFrame:
    """Per-game rows with their grid point, sorted by point and game."""
    if isinstance(result_or_store, Path):
        df = boardsim.load_results(result_or_store)
    else:
        df = result_or_store.results()
    for name in ("game", "policy", "point"):
        df[name] = df[name].astype(str)
    return df.sort_values(["point", "game_index"], kind="stable").reset_index(drop=True)


def chunk_rows(store: Path) -> pd.DataFrame:
    """Every row of every chunk file in the store as written (no de-duplication), with its point."""
    frames = []
    for path in sorted(Path(store).glob("points/*/seed-*/games-*.parquet")):
        df = pd.read_parquet(path, columns=["seed", "game_index", "win", "turns"])
        df.insert(0, "point", path.parts[-3])
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ================================================================= same numbers on every executor


def test_same_rows_on_one_and_two_threads_and_a_local_cluster(tmp_path):
    runs = {
        "workers=1": run_sweep(tmp_path / "w1", workers=1),
        "workers=2": run_sweep(tmp_path / "w2", workers=2),
        "dask_local=2": run_sweep(tmp_path / "dask", dask_local=2),
    }
    assert "LocalCluster, 2 worker processes" in runs["dask_local=2"].provenance["executor"]
    base = runs["workers=1"]
    assert base.summary["games"].tolist() == [N, N]
    base_rows = game_rows(base)
    assert len(base_rows) == 2 * N
    for name, result in runs.items():
        assert result.games_played == 2 * N, name
        pd.testing.assert_frame_equal(result.summary, base.summary, obj=name)
        pd.testing.assert_frame_equal(game_rows(result), base_rows, obj=name)
        # every game written exactly once, in 2 x N / CHUNK files
        raw = chunk_rows(result.store)
        assert len(raw) == 2 * N and not raw.duplicated(["point", "seed", "game_index"]).any(), name
        assert len(list(Path(result.store).glob("points/*/seed-*/games-*.parquet"))) == 2 * N // CHUNK


# ============================================================ a real cluster that loses a worker


def _start(args: list[str], log: Path, env: dict) -> subprocess.Popen:
    # own session: a worker's nanny and its worker process die together with os.killpg
    with log.open("wb") as out:
        return subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=log.parent,
                                start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # leftovers of the group (a worker under a nanny)
    except ProcessLookupError:
        pass
    proc.wait(timeout=10)


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return f"--- {path.name}\n" + "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


@pytest.fixture
def cluster(tmp_path):
    """`dask scheduler` and two `dask worker` processes on loopback, as a user would start them."""
    logs = tmp_path / "logs"
    logs.mkdir()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "dask"]  # the `dask` command of this environment
    procs = {"scheduler": _start([*dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
                                  # the scheduler's HTTP endpoints still listen (on :8787 by default)
                                  "--dashboard-address", "127.0.0.1:0"],
                                 logs / "scheduler.log", env)}
    try:
        for i in (1, 2):
            procs[f"worker{i}"] = _start(
                [*dask, "worker", address, "--nthreads", "1",
                 "--no-dashboard", "--name", f"worker{i}", "--death-timeout", "60"],
                logs / f"worker{i}.log", env)
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=60)
            yield address, procs, logs, client
    finally:
        for proc in reversed(list(procs.values())):
            _stop(proc)


def test_cli_sweep_on_a_scheduler_survives_a_killed_worker(tmp_path, cluster):
    address, procs, logs, client = cluster
    names = {info["name"]: addr for addr, info in client.scheduler_info()["workers"].items()}
    store = tmp_path / "store"
    chunks_total = 2 * KILL_N // CHUNK
    args = ["sweep", "bebop", "--grid", GRID[0], "-n", str(KILL_N), "--seed", "3", "--chunk", str(CHUNK),
            "--store", str(store), "--scheduler", address, "--no-progress"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    out_path, err_path = logs / "sweep.out", logs / "sweep.err"  # files, not pipes: nothing can block
    with out_path.open("wb") as out_file, err_path.open("wb") as err_file:
        sweep = subprocess.Popen([sys.executable, "-c", CLI_CODE, *args], stdout=out_file, stderr=err_file,
                                 env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        files = []
        while not files and sweep.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
            files = list(store.glob("points/*/seed-*/games-*.parquet"))
        assert files, (f"no chunk file within 120 s (sweep exit code {sweep.poll()})\n"
                       + _tail(err_path) + _tail(logs / "worker1.log"))
        running_on_victim = client.processing([names["worker1"]])[names["worker1"]]
        os.killpg(procs["worker1"].pid, signal.SIGKILL)
        done_at_kill = len(list(store.glob("points/*/seed-*/games-*.parquet")))
        # the kill lands mid-sweep, and takes chunks that were running on that worker with it
        assert done_at_kill < chunks_total, "the sweep finished before the worker was killed"
        assert running_on_victim, "worker1 had no chunk running when it was killed"
        sweep.wait(timeout=240)
    finally:
        if sweep.poll() is None:
            os.killpg(sweep.pid, signal.SIGKILL)
            sweep.wait()
    diagnostics = "\n".join([_tail(err_path, 60), _tail(logs / "scheduler.log"), _tail(logs / "worker2.log")])
    assert sweep.returncode == 0, diagnostics
    assert procs["worker1"].wait(timeout=10) == -signal.SIGKILL
    assert f"on dask scheduler {address}" in out_path.read_text(), out_path.read_text()

    # every game of every point written exactly once, nothing missing, nothing twice
    raw = chunk_rows(store)
    assert len(raw) == 2 * KILL_N
    assert not raw.duplicated(["point", "seed", "game_index"]).any()
    assert raw["point"].nunique() == 2 and (raw["seed"] == 3).all()
    for _, part in raw.groupby("point"):
        assert sorted(part["game_index"]) == list(range(KILL_N))

    # the same rows as a local run of the same sweep
    local = boardsim.sweep("bebop", GRID, n=KILL_N, seed=3, chunk=CHUNK * 4, store=tmp_path / "local", workers=2)
    pd.testing.assert_frame_equal(game_rows(store), game_rows(local))


# =================================================================================== errors


def test_missing_dask_is_a_one_line_error_saying_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    with pytest.raises(BoardsimError, match="pip install") as info:
        boardsim.sweep("bebop", GRID, n=10, seed=1, store=tmp_path / "api", dask_local=2)
    assert "\n" not in str(info.value)

    result = CliRunner().invoke(cli, ["sweep", "bebop", "--grid", GRID[0], "-n", "10", "--store",
                                      str(tmp_path / "cli"), "--dask-local", "2", "--no-progress"])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and "pip install" in lines[0], result.output


def test_unreachable_scheduler_is_a_quick_clear_error(tmp_path):
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    start = time.monotonic()
    with pytest.raises(BoardsimError, match="cannot reach the Dask scheduler") as info:
        boardsim.sweep("bebop", GRID, n=10, seed=1, store=tmp_path / "s", scheduler=address)
    assert time.monotonic() - start < 15
    assert address in str(info.value) and "\n" not in str(info.value)

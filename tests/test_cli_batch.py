"""`boardsim sweep`, `summarize` and `plan` against the fake "coin" game (numba-free, fast)."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import boardsim
from boardsim import stats

try:
    from boardsim.cli.main import cli
except ImportError:  # running from a checkout that is not installed
    from cli.main import cli

pytestmark = pytest.mark.usefixtures("coin_game")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def one_error_line(result) -> str:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    return errors[0]


def test_sweep_prints_every_point_with_its_interval_and_paired_differences(tmp_path):
    store = str(tmp_path / "s")
    result = run("sweep", "coin", "--grid", "bias=40,50,60", "-n", "3000", "--seed", "2", "--store", store,
                 "--no-progress")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "seed      2" in out and "3,000 games per point" in out and f"store {store}" in out
    expected = boardsim.simulate("coin", params={"bias": 60}, n=3000, seed=2)
    wins = int(expected["win"].sum())
    rate, low, high, _ = stats.rate_interval(wins, 3000)
    assert re.search(rf"^\s+60\s+3,000\s+{100 * rate:.1f}% \[{100 * low:.1f}%, {100 * high:.1f}%\]", out, re.M), out
    assert "paired differences vs bias=40" in out
    assert "McNemar p" in out and "Holm p" in out
    assert len(re.findall(r"^\s+bias=(50|60)\s+3,000\s+\+", out, re.M)) == 2, out


def test_sweep_rerun_plays_nothing_and_summarize_reads_the_store(tmp_path):
    store = str(tmp_path / "s")
    args = ("sweep", "coin", "--grid", "characters=all-teams", "-n", "2000", "--store", store, "--no-progress")
    assert run(*args).exit_code == 0
    again = run(*args)
    assert again.exit_code == 0 and "ran       0 new games" in again.output
    summary = run("summarize", store, "--csv", str(tmp_path / "table.csv"))
    assert summary.exit_code == 0, summary.output
    out = summary.output
    assert "teams ranked" in out and "character effects" in out
    for team in ("alice", "bob", "carol", r"alice\+bob", r"alice\+carol", r"bob\+carol"):
        assert re.search(rf"^\s+{team}\s+2,000\s", out, re.M), team
    assert (tmp_path / "table.csv").read_text().count("\n") == 7


def test_sweep_baseline_choice(tmp_path):
    result = run("sweep", "coin", "--grid", "bias=40,60", "-n", "500", "--store", str(tmp_path / "s"),
                 "--baseline", "bias=60", "--no-progress")
    assert result.exit_code == 0, result.output
    assert "paired differences vs bias=60" in result.output
    bad = run("summarize", str(tmp_path / "s"), "--baseline", "flips=3")
    assert "not a column that varies" in one_error_line(bad)


@pytest.mark.parametrize("args, fragment", [
    (["--grid", "colour=1"], "no parameter 'colour'"),
    (["--grid", "bias=0..200"], "out of range"),
    (["--grid", "bias=50", "-n", "10", "--precision", "0.1"], "not both"),
    (["--grid", "bias=50", "--workers", "0"], "workers: 0"),
])
def test_sweep_errors_are_one_line(tmp_path, args, fragment):
    line = one_error_line(run("sweep", "coin", "--store", str(tmp_path / "s"), "--no-progress", *args))
    assert fragment in line


def test_summarize_of_a_directory_that_is_not_a_store(tmp_path):
    assert "no boardsim result store" in one_error_line(run("summarize", str(tmp_path)))


def test_plan_answers_how_many_games(tmp_path):
    result = run("plan", "--rate", "0.48", "--vs", "0.50", "--discordance", "0.1")
    assert result.exit_code == 0, result.output
    independent = stats.games_to_distinguish(0.48, 0.50, design="independent")
    paired = stats.games_to_distinguish(0.48, 0.50, design="paired", discordance=0.1)
    assert f"{independent:,} games per setting, two settings on independent games" in result.output
    assert f"{paired:,} games per setting, paired" in result.output
    assert paired < independent
    precise = run("plan", "--rate", "0.3", "--precision", "0.01")
    assert f"{stats.games_for_precision(0.3, 0.01):,} games" in precise.output
    assert "one of them" in one_error_line(run("plan", "--rate", "0.3"))
    assert "Error:" in one_error_line(run("plan", "--rate", "1.5", "--vs", "0.5"))


def test_sweep_ctrl_c_exits_130_and_the_same_command_resumes(tmp_path, monkeypatch):
    from boardsim import runner

    real_play_chunk = runner.play_chunk
    calls = []

    def interrupted_on_third_chunk(*args):
        calls.append(args)
        if len(calls) == 3:
            raise KeyboardInterrupt  # what Ctrl-C does to the main thread, raised where a chunk runs
        return real_play_chunk(*args)

    monkeypatch.setattr(runner, "play_chunk", interrupted_on_third_chunk)
    args = ("sweep", "coin", "--grid", "bias=40,60", "-n", "3000", "--chunk", "1000", "--workers", "1",
            "--store", str(tmp_path / "s"), "--no-progress")
    stopped = run(*args)
    assert stopped.exit_code == 130, stopped.output
    assert "interrupted: finished chunks are in" in stopped.output
    # chunks 1 and 2 were played before the interrupt; whether chunk 2 was written first is a race
    kept = len(list((tmp_path / "s").rglob("*.parquet")))
    assert kept in (1, 2)
    assert re.search(r"3,000 games per point \((0|1,000) finished\)", stopped.output), stopped.output
    monkeypatch.setattr(runner, "play_chunk", real_play_chunk)
    resumed = run(*args)
    assert resumed.exit_code == 0 and f"ran       {6000 - 1000 * kept:,} new games" in resumed.output

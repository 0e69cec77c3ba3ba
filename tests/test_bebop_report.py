"""Bebop's report hooks: traced trajectories replay the stored games, and a small Bebop report
has the sections that need them (near misses, trajectories)."""
import numpy as np
import pytest

import boardsim
from boardsim.games.bebop import game as G
from boardsim.report import run_and_report


def test_trajectory_replays_the_simulated_games():
    spec = boardsim.get_game("bebop")
    rules = spec.resolve("boogie", {"characters": "spike,ed"})
    batch = spec.prepare(rules, "heuristic", None)
    rows = boardsim.simulate("bebop", n=12, seed=2, preset="boogie", characters="spike,ed")
    for index, row in rows.iterrows():
        path = G.trajectory(batch, 2, index)
        assert list(path["turn"]) == list(range(1, int(row["turns"]) + 1))
        last = path.iloc[-1]
        for column in ("food", "fuel", "woolongs", "session_parts_done", "bounties_caught"):
            assert last[column] == row[column], column
        # progress only ever grows; resources stay in the game's range
        assert (np.diff(path["session_parts_done"]) >= 0).all() and (np.diff(path["bounties_caught"]) >= 0).all()
        assert path[["food", "fuel", "woolongs"]].min().min() >= 0


def test_a_small_bebop_report_has_near_misses_and_trajectories(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "small.toml").write_text("""
title = "Small Bebop"
game = "bebop"
seed = 3
games = 300
[trace]
games = 6
points = 2
[[study]]
name = "presets"
grid = { preset = "waltz,boogie" }
""")
    report, interrupted, _ = run_and_report(tmp_path / "small.toml", workers=2)
    assert not interrupted
    assert "trajectories" in report.sections and "losses" in report.sections
    page = (report.path / "index.html").read_text()
    assert "one session part short (% of lost)" in page
    assert "Replays of games 0-5 of seed 3" in page
    assert (report.path / "figures" / "trajectories.png").stat().st_size > 10_000
    # the near-miss finding's share is the one the stored rows give
    games = boardsim.load_results("runs/small")
    waltz = games[games["vicious"] == 4]
    lost = waltz[~waltz["win"]]
    share = float(np.mean(lost["session_parts_done"] >= 3))
    near = next(f.text for f in report.findings if f.text.startswith("Near misses at waltz"))
    assert f"{100 * share:.1f}% of lost games" in near

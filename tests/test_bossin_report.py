"""Bossin' Space report hooks: traced rounds replay the simulated games; near misses use the Boss's
remaining health."""
import numpy as np

import boardsim
from boardsim.games.bossin import game as G


def test_trajectory_replays_the_simulated_games():
    spec = boardsim.get_game("bossin")
    rules = spec.resolve("normal", {"players": 3})
    batch = spec.prepare(rules, "heuristic", None)
    rows = boardsim.simulate("bossin", n=12, seed=4, preset="normal", params={"players": 3})
    for index, row in rows.iterrows():
        path = G.trajectory(batch, 4, index)
        assert list(path["turn"]) == list(range(1, int(row["turns"]) + 1))
        last = path.iloc[-1]
        for column in ("health", "xp", "enemies_destroyed"):
            assert last[column] == row[column], column
        assert (np.diff(path["enemies_destroyed"]) >= 0).all()
        assert path["health"].between(0, 5).all()


def test_boss_health_left_is_the_near_miss_margin():
    spec = boardsim.get_game("bossin")
    margin = spec.margins[0]
    assert margin.column == "boss_health_left" and margin.remaining
    values = np.array([0.0, 3.0, 7.0])
    assert list(margin.shortfall(values, spec.resolve(None, {}))) == [0.0, 3.0, 7.0]
    rows = boardsim.simulate("bossin", n=200, seed=1, preset="normal", params={"players": 3})
    assert (rows.loc[rows["win"], "boss_health_left"] == 0).all()

"""Bossin' Space through the public API: parameters, presets, policies, common random numbers,
the open-hands cheat, traces."""
from __future__ import annotations

import pytest

import boardsim
from boardsim.errors import ParamError
from boardsim.games.bossin import game as G

from bossin_support import bossin_kernels  # noqa: F401  (a session fixture)

pytestmark = pytest.mark.usefixtures("bossin_kernels")


@pytest.mark.parametrize("params,words", [
    ({"players": 0}, ["players", "allowed: an integer 1..5"]),
    ({"boss": 6}, ["boss", "0..5"]),
    ({"crew": "pilot,cook"}, ["unknown name 'cook'", "pilot, mechanic"]),
    ({"crew": "pilot,pilot"}, ["distinct"]),
    ({"colour": 1}, ["no parameter 'colour'", "players, boss"]),
])
def test_bad_parameters_are_one_line_errors(params, words):
    with pytest.raises(ParamError) as err:
        boardsim.simulate("bossin", n=1, params=params)
    assert "\n" not in str(err.value) and all(w in str(err.value) for w in words)


def test_bad_policy_and_weights_file(tmp_path):
    with pytest.raises(ParamError, match="allowed: random, heuristic, open-hands"):
        boardsim.simulate("bossin", n=1, policy="greedy")
    bad = tmp_path / "w.toml"
    bad.write_text("[weights]\nv_helth = 1\n")
    with pytest.raises(ParamError, match="v_helth.*allowed: v_health"):
        boardsim.simulate("bossin", n=1, policy=f"heuristic:{bad}")


def test_outcome_columns_and_ranges():
    df = boardsim.simulate("bossin", n=300, seed=4, policy="heuristic", params={"players": 3})
    assert list(df.columns[:3]) == ["seed", "game_index", "outcome"]
    for column in G.OUTCOME_COLUMNS:
        assert column in df.columns
    assert set(df["outcome"].cat.categories) == {"win", "destroyed", "overheated", "round_cap"}
    assert df["boss"].between(1, 5).all() and df["overheat"].between(0, 3).all()
    assert df["health"].between(0, 5).all()
    lost = df[df["outcome"] == "destroyed"]
    assert (lost["health"] == 0).all()
    assert (df.loc[df["outcome"] == "overheated", "overheat"] == 3).all()
    won = df[df["win"]]
    assert (won["boss_health_left"] == 0).all() and (won["boss_reached_round"] > 0).all()


def test_round_cap_is_its_own_outcome():
    df = boardsim.simulate("bossin", n=50, seed=4, policy="heuristic", params={"round_cap": 2})
    assert (df["turns"] <= 2).all()
    assert (df["outcome"] == "round_cap").sum() == (df["turns"] == 2).sum() - (
        (df["turns"] == 2) & (df["outcome"] != "round_cap")).sum()
    assert (df["outcome"] == "round_cap").any()


def test_policies_differ_and_heuristic_beats_random():
    rnd = boardsim.simulate("bossin", n=400, seed=8, policy="random", params={"players": 4})
    heu = boardsim.simulate("bossin", n=400, seed=8, policy="heuristic", params={"players": 4})
    assert heu["turns"].mean() > rnd["turns"].mean() + 2
    assert heu["enemies_destroyed"].mean() > rnd["enemies_destroyed"].mean()


def test_open_hands_is_the_heuristic_in_solo_but_not_with_hidden_hands():
    solo = [boardsim.simulate("bossin", n=100, seed=2, policy=p, params={"players": 1}) for p in
            ("heuristic", "open-hands")]
    assert solo[0].drop(columns=[]).equals(solo[1])
    duo = [boardsim.simulate("bossin", n=100, seed=2, policy=p, params={"players": 2}) for p in
           ("heuristic", "open-hands")]
    assert not duo[0].equals(duo[1])


def test_a_fixed_boss_keeps_the_random_boss_deals():
    """Common random numbers: fixing the Boss changes no other draw, so the games whose random Boss
    happened to be Boss 2 are the very games played with boss=2."""
    rnd = boardsim.simulate("bossin", n=200, seed=5, policy="heuristic", params={"boss": 0})
    fixed = boardsim.simulate("bossin", n=200, seed=5, policy="heuristic", params={"boss": 2})
    same = rnd["boss"] == 2
    assert same.any() and not same.all()
    cols = ["outcome", "turns", "xp", "enemies_destroyed"]
    assert rnd.loc[same, cols].equals(fixed.loc[same, cols])


def test_easy_preset_shuffles_in_help_cards_and_wins_at_least_as_often():
    easy = boardsim.simulate("bossin", preset="easy", n=600, seed=3, policy="heuristic", params={"players": 4})
    normal = boardsim.simulate("bossin", preset="normal", n=600, seed=3, policy="heuristic", params={"players": 4})
    assert easy.attrs["provenance"]["rules"]["easy"] == 1
    assert easy["xp"].mean() > normal["xp"].mean()


def test_trace_reads_as_a_game():
    lines = boardsim.trace("bossin", seed=3, game_index=1, policy="heuristic", params={"players": 3})
    text = "\n".join(lines)
    assert lines[0].startswith("Bossin' Space: seed 3, game 1, 3 players")
    assert "-- round 1 (captain: seat 1)" in text and "-- round 2 (captain: seat 2)" in text
    assert "hazard 1:" in text and "plays a card face down" in text and "column 4:" in text
    row = boardsim.simulate("bossin", n=2, seed=3, policy="heuristic", params={"players": 3}).iloc[1]
    assert lines[-1] == f"== game over after {int(row['turns'])} turns: {row['outcome']}"


def test_characters_sets_the_crew_and_a_game_without_a_team_says_so():
    df = boardsim.simulate("bossin", characters="gunner+pilot", n=5, seed=1, policy="random")
    assert df.attrs["provenance"]["rules"]["crew"] == "gunner,pilot"
    spec = boardsim.get_game("bossin")
    assert spec.team_param() == "crew" and boardsim.get_game("bebop").team_param() == "characters"


def test_trajectory_follows_the_simulated_game():
    rules = G.GAME.resolve(None, {"players": 3})
    batch = G.prepare(rules, "heuristic", None)
    row = boardsim.simulate("bossin", n=3, seed=6, policy="heuristic", params={"players": 3}).iloc[2]
    traj = G.trajectory(batch, 6, 2)
    assert list(traj["turn"]) == list(range(1, int(row["turns"]) + 1))
    assert traj["enemies_destroyed"].is_monotonic_increasing
    assert traj["enemies_destroyed"].iloc[-1] <= row["enemies_destroyed"]
    assert traj["health"].between(0, 5).all()
    assert row["boss_damage"] + row["boss_health_left"] == G.load_cards().arrays["boss_health"][row["boss"] - 1]

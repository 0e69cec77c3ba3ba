"""Sweeps, grids and the result store, on the fake numpy "coin" game (fast) and on Bebop."""
from __future__ import annotations

import json

import pandas as pd
import pytest

import boardsim
from boardsim.errors import BoardsimError, ParamError
from boardsim.grid import grid_points, parse_grid
from boardsim.store import ResultStore, load_results, missing_ranges

from bebop_support import bebop_kernels  # noqa: F401  (a session fixture)

# ------------------------------------------------------------------------------------------ grid


def test_int_axes_ranges_lists_and_steps(coin_game):
    (axis,) = parse_grid(coin_game, "flips=3..6")
    assert axis.values == (3, 4, 5, 6)
    assert parse_grid(coin_game, ["bias=0..100..25"])[0].values == (0, 25, 50, 75, 100)
    assert parse_grid(coin_game, {"bias": "10,20,30..32"})[0].values == (10, 20, 30, 31, 32)
    assert parse_grid(coin_game, {"bias": [5, 7]})[0].labels == ("5", "7")


def test_team_axes(coin_game):
    pairs = parse_grid(coin_game, "characters=all-pairs")[0].values
    assert pairs == (("alice", "bob"), ("alice", "carol"), ("bob", "carol"))
    assert len(parse_grid(coin_game, "characters=all-teams")[0].values) == 3 + 3
    assert parse_grid(coin_game, "characters=all-teams:1")[0].values == (("alice",), ("bob",), ("carol",))
    assert parse_grid(coin_game, "characters=alice+bob,carol")[0].values == (("alice", "bob"), ("carol",))


def test_bebop_team_axes_count_the_combinations():
    spec = boardsim.get_game("bebop")
    assert len(parse_grid(spec, "characters=all-pairs")[0].values) == 6
    assert len(parse_grid(spec, "characters=all-teams:3")[0].values) == 4
    assert len(parse_grid(spec, "characters=all-teams")[0].values) == 6 + 4 + 1
    assert len(grid_points(parse_grid(spec, "vicious=0..8 bounty_deck=7,9,11"))) == 27


@pytest.mark.parametrize("grid, fragments", [
    ("colour=1,2", ["no parameter 'colour'", "allowed: flips, bias, characters, preset, policy"]),
    ("bias=90..101", ["'bias'", "101 is out of range", "0..100"]),
    ("bias=", ["axis 'bias' has no values"]),
    ("bias=9..3", ["empty range"]),
    ("bias=1..x", ["not a range"]),
    ("", ["the grid is empty"]),
    ("bias=1 bias=2", ["given twice"]),
    ("bias=1,1", ["repeats a value"]),
    ("characters=all-teams:3", ["team size '3' is not allowed", "1..2"]),
    ("characters=alice+dave", ["unknown name 'dave'"]),
    ("preset=hard", ["no preset 'hard'", "fair, rigged, short"]),
    ("policy=magic", ["policy 'magic' unknown", "random, heuristic"]),
    ("flips", ["expected NAME=VALUES"]),
])
def test_grid_errors_are_one_line_and_name_the_allowed_values(coin_game, grid, fragments):
    with pytest.raises(ParamError) as err:
        parse_grid(coin_game, grid)
    message = str(err.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message


def test_product_and_zip(coin_game):
    axes = parse_grid(coin_game, "bias=10,20,30 flips=5,6,7")
    assert len(grid_points(axes)) == 9
    assert grid_points(axes, "zip") == [{"bias": 10, "flips": 5}, {"bias": 20, "flips": 6}, {"bias": 30, "flips": 7}]
    with pytest.raises(ParamError, match="equal length"):
        grid_points(parse_grid(coin_game, "bias=10,20 flips=5"), "zip")


# ----------------------------------------------------------------------------------------- store


@pytest.mark.parametrize("done, stop, chunk, expected", [
    ([], 25, 10, [(0, 10), (10, 10), (20, 5)]),
    ([(0, 10), (15, 20)], 25, 10, [(10, 5), (20, 5)]),
    ([(0, 30)], 25, 10, []),
    ([(5, 8)], 12, 10, [(0, 5), (8, 2), (10, 2)]),
    ([(10, 20), (0, 10)], 20, 7, []),
])
def test_missing_ranges(done, stop, chunk, expected):
    assert missing_ranges(done, stop, chunk) == expected


def test_store_refuses_a_foreign_directory_and_a_wrong_format(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(BoardsimError, match="not a boardsim result store and not empty"):
        ResultStore(tmp_path)
    store_dir = tmp_path / "store"
    ResultStore(store_dir)
    (store_dir / "boardsim-store.json").write_text(json.dumps({"format": 99}))
    with pytest.raises(BoardsimError, match="field 'format' is 99; allowed: 1"):
        ResultStore(store_dir)
    with pytest.raises(BoardsimError, match="no boardsim result store"):
        load_results(tmp_path / "nowhere")


def test_load_results_of_an_empty_store_says_so(tmp_path):
    ResultStore(tmp_path / "s")
    with pytest.raises(BoardsimError, match="holds no finished games"):
        load_results(tmp_path / "s")


# ------------------------------------------------------------------------------ sweeps on coin


def test_each_point_equals_simulate_with_the_same_seed(coin_game, tmp_path):
    result = boardsim.sweep("coin", "bias=30,70 characters=alice,bob+carol", n=2500, seed=4,
                            store=tmp_path / "s", chunk=1000)
    assert len(result.summary) == 4
    rows = result.results()
    for _, point in result.summary.iterrows():
        team = point["characters"]
        expected = boardsim.simulate("coin", params={"bias": point["bias"]}, characters=team, n=2500, seed=4)
        # the summary writes a team as in the grid ("bob+carol"), the per-game rows as the rules do
        got = rows[(rows["bias"] == point["bias"]) & (rows["characters"] == team.replace("+", ","))]
        assert got["game_index"].tolist() == list(range(2500))
        assert got["win"].tolist() == expected["win"].tolist()
        assert got["turns"].tolist() == expected["turns"].tolist()
        assert point["wins"] == expected["win"].sum() and point["games"] == 2500


def test_workers_and_chunking_do_not_change_a_number(coin_game, tmp_path):
    runs = [boardsim.sweep("coin", "bias=40,60", n=3000, seed=1, store=tmp_path / f"s{i}", workers=w, chunk=c)
            for i, (w, c) in enumerate([(1, 3000), (2, 700), (2, 1000)])]
    tables = [r.results().drop(columns=["point"]).sort_values(["bias", "game_index"]).reset_index(drop=True)
              for r in runs]
    pd.testing.assert_frame_equal(tables[0], tables[1])
    pd.testing.assert_frame_equal(tables[0], tables[2])


def test_resume_plays_only_what_is_missing_and_extends(coin_game, tmp_path):
    store = tmp_path / "s"
    first = boardsim.sweep("coin", "bias=40,60", n=3000, seed=1, store=store, chunk=1000)
    assert first.games_played == 6000
    reference = first.results()
    # a lost chunk (say the run was killed while writing it) is played again, and only it
    victim = sorted((store / "points").glob("*/seed-1/games-000000001000-*.parquet"))[0]
    victim.unlink()
    again = boardsim.sweep("coin", "bias=40,60", n=3000, seed=1, store=store, chunk=1000)
    assert again.games_played == 1000
    pd.testing.assert_frame_equal(again.results(), reference)
    # extending to 5000 games plays games 3000..4999 of each point
    more = boardsim.sweep("coin", "bias=40,60", n=5000, seed=1, store=store, chunk=1000)
    assert more.games_played == 4000
    rows = more.results()
    assert (rows.groupby("bias")["game_index"].nunique() == 5000).all()
    assert not rows.duplicated(["point", "seed", "game_index"]).any()
    assert list(store.rglob("*.tmp")) == []


def test_ctrl_c_keeps_finished_chunks_and_a_rerun_completes(coin_game, tmp_path):
    store = tmp_path / "s"
    seen = []

    def stop_after_two(status):
        seen.append(status.games_done)
        if len(seen) == 2:
            raise KeyboardInterrupt

    stopped = boardsim.sweep("coin", "bias=40,60", n=4000, seed=3, store=store, chunk=1000, workers=1,
                             progress=stop_after_two)
    assert stopped.interrupted
    kept = sum(1 for _ in (store / "points").rglob("*.parquet"))
    assert kept == 2 and stopped.summary["games"].sum() == 2000
    finished = boardsim.sweep("coin", "bias=40,60", n=4000, seed=3, store=store, chunk=1000)
    assert not finished.interrupted and finished.games_played == 6000
    fresh = boardsim.sweep("coin", "bias=40,60", n=4000, seed=3, store=tmp_path / "fresh", chunk=1000)
    pd.testing.assert_frame_equal(finished.results(), fresh.results())


def test_changed_cards_get_their_own_key_and_are_never_mixed(coin_game, tmp_path, card_dirs):
    store = tmp_path / "s"
    default = boardsim.sweep("coin", "bias=50", n=500, seed=1, store=store)
    custom = boardsim.sweep("coin", "bias=50", n=500, seed=1, store=store, cards=card_dirs.good)
    assert default.keys != custom.keys and custom.games_played == 500
    assert len(ResultStore(store).points()) == 2
    rows = load_results(store)
    assert rows.groupby("point", observed=True).size().tolist() == [500, 500]


def test_points_with_the_same_rules_share_their_games(coin_game, tmp_path):
    # the "rigged" preset is bias=80 with alice,bob: two labels, one rule setting, played once
    result = boardsim.sweep("coin", "preset=fair,rigged", n=400, seed=2, store=tmp_path / "s",
                            params={"bias": 80, "characters": "alice,bob"})
    assert result.keys[0] == result.keys[1]
    assert result.games_played == 400


def test_precision_stops_each_point_when_its_interval_is_narrow_enough(coin_game, tmp_path):
    result = boardsim.sweep("coin", "bias=0,5,50", precision=0.02, seed=1, store=tmp_path / "s", chunk=500)
    for _, row in result.summary.iterrows():
        assert (row["win_high"] - row["win_low"]) / 2 <= 0.02
    # a rarer outcome needs fewer games for the same half-width
    games = dict(zip(result.summary["bias"], result.summary["games"]))
    assert games[5] < games[50]
    capped = boardsim.sweep("coin", "bias=50", precision=0.001, max_games=1500, seed=1, store=tmp_path / "c")
    assert capped.summary["games"].tolist() == [1500]


@pytest.mark.parametrize("kwargs, fragment", [
    ({"n": 10, "precision": 0.01}, "not both"),
    ({"precision": 0.7}, "between 0 and 0.5"),
    ({"n": 0}, "integer >= 1"),
    ({"seed": -1}, "0..2**63-1"),
    ({"policy": "magic"}, "policy 'magic' unknown"),
    ({"workers": 0}, "workers: 0"),
    ({"scheduler": "tcp://127.0.0.1:1", "dask_local": 2}, "not both"),
])
def test_sweep_argument_errors(coin_game, tmp_path, kwargs, fragment):
    with pytest.raises(ParamError, match=fragment.replace("*", r"\*").replace(".", r"\.")):
        boardsim.sweep("coin", "bias=50", store=tmp_path / "s", **kwargs)


def test_chunk_files_record_their_provenance(coin_game, tmp_path):
    from boardsim.store import read_parquet

    boardsim.sweep("coin", "bias=50", n=1200, seed=9, store=tmp_path / "s", chunk=1000)
    files = sorted((tmp_path / "s" / "points").rglob("*.parquet"))
    assert [f.name for f in files] == ["games-000000000000-000000001000.parquet",
                                       "games-000000001000-000000001200.parquet"]
    meta = read_parquet(files[1]).attrs["provenance"]
    assert meta["seed"] == 9 and (meta["first_game"], meta["stop_game"]) == (1000, 1200)
    assert meta["game"] == "coin" and meta["rules"]["bias"] == 50 and meta["cards_hash"] == "coin-default-cards-0001"
    assert meta["package_version"] == boardsim.__version__ and meta["game_version"] == "1"
    assert meta["policy"] == "heuristic" and "code_hash" in meta


def test_bebop_chunk_files_record_rules_hash_and_weights(bebop_kernels, tmp_path):
    from boardsim.store import read_parquet

    boardsim.sweep("bebop", "vicious=5", n=50, seed=3, store=tmp_path / "s")
    (path,) = (tmp_path / "s" / "points").rglob("*.parquet")
    meta = read_parquet(path).attrs["provenance"]
    simulated = boardsim.simulate("bebop", params={"vicious": 5}, n=50, seed=3).attrs["provenance"]
    for field in ("rules", "rules_hash", "cards_hash", "weights", "game_version", "code_hash", "package_version"):
        assert meta[field] == simulated[field], field
    assert len(meta["weights"]) > 10 and (meta["first_game"], meta["stop_game"]) == (0, 50)


def test_paired_comparisons_pair_the_same_games(coin_game, tmp_path):
    result = boardsim.sweep("coin", "bias=45,55", n=4000, seed=5, store=tmp_path / "s")
    low, high = result.keys
    cmp = boardsim.paired_comparisons(tmp_path / "s", baseline=low, others=[high])
    rows = result.results()
    a = rows[rows["point"] == high]["win"].to_numpy()
    b = rows[rows["point"] == low]["win"].to_numpy()
    (row,) = cmp.to_dict("records")
    assert row["games"] == 4000
    assert row["only_point_won"] == int((a & ~b).sum()) and row["only_baseline_won"] == int((~a & b).sum())
    assert row["diff"] == pytest.approx(a.mean() - b.mean())
    assert row["diff_low"] < row["diff"] < row["diff_high"] and row["p_value"] < 0.05


# ----------------------------------------------------------------------------- sweeps on bebop


def test_bebop_sweep_points_are_simulate_runs_on_common_random_numbers(bebop_kernels, tmp_path):
    result = boardsim.sweep("bebop", "vicious=4,8", n=1500, seed=11, store=tmp_path / "s", chunk=600,
                            preset="boogie", characters="faye,ed")
    rows = result.results()
    for vicious in (4, 8):
        expected = boardsim.simulate("bebop", preset="boogie", characters="faye,ed", params={"vicious": vicious},
                                     n=1500, seed=11)
        got = rows[rows["vicious"] == vicious].reset_index(drop=True)
        for column in ("win", "turns", "outcome", "vicious_drawn", "food"):
            assert got[column].astype(str).tolist() == expected[column].astype(str).tolist(), column


def test_bebop_card_edits_change_the_key(bebop_kernels, tmp_path):
    import shutil

    from boardsim.games.bebop import cards as cards_mod

    edited = tmp_path / "cards"
    shutil.copytree(cards_mod.DATA_DIR, edited)
    bounties = edited / "bounties.toml"
    bounties.write_text(bounties.read_text() + "\n# a designer's comment changes the hash\n")
    spec = boardsim.get_game("bebop")
    rules = spec.resolve("boogie")
    assert spec.prepare(rules, "heuristic", None).key != spec.prepare(rules, "heuristic", str(edited)).key
    assert spec.prepare(rules, "heuristic", None).key != spec.prepare(rules, "random", None).key
    assert spec.prepare(rules, "heuristic", None).key == spec.prepare(dict(rules), "heuristic", None).key

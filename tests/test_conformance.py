"""The shared contract every registered game must honour (run against each game in the registry)."""
import pytest

import boardsim
from boardsim.registry import GAME_MODULES

GAMES = sorted(GAME_MODULES)


@pytest.mark.parametrize("name", GAMES)
def test_spec_declares_parameters_presets_and_policies(name):
    game = boardsim.get_game(name)
    assert game.name == name and game.title and game.version
    assert game.default_preset in game.presets
    for preset, values in game.presets.items():
        for param, value in values.items():
            game.param(param).parse(value)          # every preset value is in range
    for spec in game.params:
        assert spec.parse(spec.default) is not None  # every default is valid
    assert "random" in game.policies and "heuristic" in game.policies


@pytest.mark.parametrize("name", GAMES)
def test_simulate_contract_and_reproducibility(name):
    a = boardsim.simulate(name, n=64, seed=5, policy="random")
    b = boardsim.simulate(name, n=64, seed=5, policy="random", threads=1)
    c = boardsim.simulate(name, n=64, seed=6, policy="random")
    for column in ("seed", "game_index", "outcome", "win", "turns"):
        assert column in a.columns
    assert list(a["game_index"]) == list(range(64))
    assert (a["win"] == (a["outcome"] == "win")).all()
    assert a.equals(b)
    assert not a.drop(columns="seed").equals(c.drop(columns="seed"))
    prov = a.attrs["provenance"]
    for key in ("game", "seed", "n", "policy", "rules", "cards_hash", "package_version", "game_version"):
        assert key in prov


@pytest.mark.parametrize("name", GAMES)
def test_trace_replays_the_simulated_game(name):
    row = boardsim.simulate(name, n=3, seed=9, policy="heuristic").iloc[2]
    lines = boardsim.trace(name, seed=9, game_index=2, policy="heuristic")
    assert lines and f"after {int(row['turns'])} turns: {row['outcome']}" in lines[-1]


@pytest.mark.parametrize("name", GAMES)
def test_default_card_data_is_valid(name):
    game = boardsim.get_game(name)
    assert game.validate_cards(None) == []          # None means the shipped data
    assert len(game.load_cards().data_hash) >= 8


@pytest.mark.parametrize("name", GAMES)
def test_batches_are_picklable_and_chunks_add_up(name):
    """What sweeps rely on: a Batch travels to a worker, and a game's rows do not depend on its chunk."""
    import pickle

    import pandas as pd

    from boardsim.runner import play_chunk

    game = boardsim.get_game(name)
    batch = pickle.loads(pickle.dumps(game.prepare(game.resolve(), "random", None)))
    assert batch.key == game.prepare(game.resolve(), "random", None).key
    assert {"game", "game_version", "code_hash", "rules", "policy", "cards_hash"} <= set(batch.identity)
    whole = game.frame(play_chunk(batch, 3, 0, 40), 3, 0)
    parts = pd.concat([game.frame(play_chunk(batch, 3, 0, 15), 3, 0),
                       game.frame(play_chunk(batch, 3, 15, 25), 3, 15)], ignore_index=True)
    pd.testing.assert_frame_equal(whole, parts)
    simulated = boardsim.simulate(name, n=40, seed=3, policy="random")
    assert whole["win"].tolist() == simulated["win"].tolist()
    assert whole["turns"].tolist() == simulated["turns"].tolist()


@pytest.mark.parametrize("name", GAMES)
def test_tunable_weights_are_in_range_and_change_the_key(name):
    game = boardsim.get_game(name)
    rules = game.resolve()
    for weight in game.weights:
        assert weight.low <= weight.default <= weight.high and weight.low < weight.high, weight
    if game.weights:
        first = game.weights[0]
        changed = game.prepare(rules, "heuristic", None, {first.name: first.high})
        assert changed.key != game.prepare(rules, "heuristic", None).key
        assert changed.identity["weights"][first.name] == first.high

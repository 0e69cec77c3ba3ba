"""`tune`: the cross-entropy search over the heuristic's weights, on Bebop with tiny budgets."""
from __future__ import annotations

import pytest

import boardsim
from boardsim.errors import ParamError
from boardsim.tune import save_weights, tune

from bebop_support import bebop_kernels  # noqa: F401  (a session fixture)

pytestmark = pytest.mark.usefixtures("bebop_kernels")

TINY = dict(preset="boogie", characters="spike,jet", budget_games=4_800, population=8, games_per_candidate=300,
            validation_games=1_500, holdout_games=3_000)


def test_tuning_from_poor_weights_improves_the_held_out_win_rate(tmp_path):
    poor = tmp_path / "poor.toml"
    # a crew that never shops for Food in an emergency and barely values its own Sessions
    poor.write_text("[weights]\nshop_priority = 0.5\nsession_priority = 1.0\nfood_low = 0.5\n")
    result = tune("bebop", policy=f"heuristic:{poor}", **TINY)
    assert result.chose_tuned
    assert result.comparison.diff > 0 and result.comparison.p_value < 0.05, result.comparison
    assert result.chosen_holdout[0] > result.default_holdout[0]


def test_a_tiny_budget_keeps_or_improves_the_defaults_and_the_file_loads(tmp_path):
    result = tune("bebop", **TINY)
    assert result.comparison.diff >= 0
    if not result.chose_tuned:  # kept the defaults: the very same games, so exactly the same wins
        assert result.chosen_holdout == result.default_holdout
    path = save_weights(result, tmp_path / "tuned.toml")
    played = boardsim.simulate("bebop", preset="boogie", characters="spike,jet", n=50, seed=777,
                               policy=f"heuristic:{path}")
    loaded = played.attrs["provenance"]["weights"]
    assert {name: loaded[name] for name in result.weights} == pytest.approx(result.weights)
    assert "[tuned]" in path.read_text() and "holdout_seed = 777" in path.read_text()


def test_tune_is_reproducible():
    small = dict(TINY, budget_games=1_600, validation_games=500, holdout_games=500)
    assert tune("bebop", **small).tuned == tune("bebop", **small).tuned


@pytest.mark.parametrize("kwargs, fragment", [
    ({"policy": "random"}, "needs a weighted policy"),
    ({"population": 2}, "population: 2"),
    ({"budget_games": 0}, "budget_games: 0"),
])
def test_tune_errors(kwargs, fragment):
    with pytest.raises(ParamError, match=fragment):
        tune("bebop", **kwargs)


@pytest.mark.parametrize("preset", ["waltz", "boogie", "blues", "real-folk-blues"])
def test_shipped_weight_files_load_by_name_and_were_tuned_for_their_preset(preset):
    import tomllib

    from boardsim.games.bebop import game as G

    path = G.POLICY_DIR / f"{preset}.toml"
    table = tomllib.loads(path.read_text())
    rules = boardsim.get_game("bebop").resolve(preset, {"characters": "spike,jet"})
    assert table["tuned"]["rules"]["vicious"] == rules["vicious"]
    assert table["tuned"]["rules"]["bounty_deck"] == rules["bounty_deck"]
    _, weights, described = G.policy_weights(f"heuristic:{preset}")
    assert described == f"heuristic:{preset}.toml"
    from boardsim.games.bebop.policies_nb import WEIGHT_NAMES

    for name, value in table["weights"].items():
        assert weights[WEIGHT_NAMES.index(name)] == pytest.approx(value), name


def test_tune_command_reports_the_held_out_comparison(tmp_path):
    from click.testing import CliRunner

    try:
        from boardsim.cli.main import cli
    except ImportError:  # running from a checkout that is not installed
        from cli.main import cli

    out = tmp_path / "w.toml"
    result = CliRunner().invoke(cli, ["tune", "bebop", "--preset", "boogie", "--budget-games", "1600",
                                      "--population", "4", "--games-per-candidate", "400",
                                      "--holdout-games", "1000", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "held-out seed 777, 1,000 games each:" in result.output
    assert "McNemar p" in result.output and out.exists()

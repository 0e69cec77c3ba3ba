"""`calibrate`: the value of a rule parameter whose win rate is closest to a target."""
from __future__ import annotations

import pytest

from boardsim.calibrate import calibrate
from boardsim.errors import ParamError


def test_recovers_the_known_answer_of_a_monotone_response(ladder_game, tmp_path):
    result = calibrate("ladder", "level", target=0.5, precision=0.02, seed=3, store=tmp_path / "s")
    assert result.value == 5 and result.monotone and not result.notes
    assert result.low <= 0.5 <= result.high and (result.high - result.low) / 2 <= 0.02
    # bisection: a handful of probes, not the whole range
    assert len(result.probes) <= 6
    assert set(result.probes["value"]) >= {0, 10, 5}


def test_falling_response_and_a_target_between_two_values(ladder_game, tmp_path):
    # 0.33 lies between level 3 (0.3) and level 4 (0.4); 3 is closer
    result = calibrate("ladder", "level", target=0.33, low=1, high=9, precision=0.01, seed=1,
                       store=tmp_path / "s")
    assert result.value == 3
    probed = result.probes.set_index("value")
    assert {3, 4} <= set(probed.index) and (probed.loc[[3, 4], "games"] > 1000).all()


def test_a_target_outside_the_range_reports_the_nearest_end(ladder_game, tmp_path):
    result = calibrate("ladder", "level", target=0.8, low=1, high=4, seed=1, store=tmp_path / "s")
    assert result.value == 4 and "outside the win rates of the whole range" in result.notes[0]


def test_a_response_that_is_not_monotone_is_reported(ladder_game, tmp_path):
    result = calibrate("ladder", "level", target=0.05, low=0, high=7, params={"shape": 1}, seed=2,
                       store=tmp_path / "s")
    assert not result.monotone
    assert any("not monotone" in note and "level=3 to level=7" in note for note in result.notes), result.notes


@pytest.mark.parametrize("kwargs, fragment", [
    ({"vary": "colour"}, "no parameter 'colour'"),
    ({"vary": "level", "target": 1.5}, "strictly between 0 and 1"),
    ({"vary": "level", "low": 6, "high": 6}, "is empty"),
    ({"vary": "level", "low": 6, "high": 12}, "out of range"),
])
def test_calibrate_errors(ladder_game, tmp_path, kwargs, fragment):
    with pytest.raises(ParamError, match=fragment):
        calibrate("ladder", store=tmp_path / "s", **kwargs)


def test_calibrate_command_prints_the_answer_and_its_probes(ladder_game, tmp_path):
    from click.testing import CliRunner

    try:
        from boardsim.cli.main import cli
    except ImportError:  # running from a checkout that is not installed
        from cli.main import cli

    result = CliRunner().invoke(cli, ["calibrate", "ladder", "--target", "win_rate=0.7", "--vary", "level",
                                      "--precision", "0.02", "--store", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    assert "\nlevel = 7: win rate 7" in result.output and "  probe level=10: 100.0%" in result.output
    assert "probes (same games at every value):" in result.output
    assert "\n  10     1,000" in result.output
    bad = CliRunner().invoke(cli, ["calibrate", "ladder", "--target", "loss_rate=0.7", "--vary", "level"])
    assert bad.exit_code == 2 and "allowed: win_rate" in bad.output

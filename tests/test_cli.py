"""The click CLI, against the fake "coin" game from conftest (numba-free, fast)."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import boardsim

try:
    from boardsim.cli.main import cli
    from boardsim.store import read_parquet
    from boardsim.cli.params import ASSIGNMENT
except ImportError:  # running from a checkout that is not installed
    from cli.main import cli
    from boardsim.store import read_parquet
    from cli.params import ASSIGNMENT

pytestmark = pytest.mark.usefixtures("coin_game")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def assert_user_error(result, *fragments: str) -> str:
    """Exit code 2, exactly one `Error:` line, no traceback; returns that line."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    for fragment in fragments:
        assert fragment in errors[0], errors[0]
    return errors[0]


# ------------------------------------------------------------------------------------- games


def test_games_lists_params_presets_and_policies():
    result = run("games")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "coin - Coin Streaks" in out
    assert "Flip until three heads" in out
    # parameter table: name, allowed range, default, help
    assert re.search(r"flips\s+an integer 3\.\.40\s+12\s+Turn cap", out)
    assert re.search(r"characters\s+1-2 distinct of alice, bob, carol\s+alice\s+Who flips", out)
    assert "presets (default: fair)" in out
    assert re.search(r"rigged\s+bias=80, characters=alice,bob", out)
    assert re.search(r"fair\s+\(the defaults\)", out)
    assert "policies: random, heuristic" in out


def test_games_by_name_and_unknown_name():
    assert run("games", "coin").exit_code == 0
    assert_user_error(run("games", "chess"), "unknown game 'chess'", "coin")


def test_games_reports_a_game_that_fails_to_load_but_lists_the_others(monkeypatch):
    from boardsim import registry

    monkeypatch.setitem(registry.GAME_MODULES, "broken", "boardsim_no_such_module.game")
    result = run("games")
    assert result.exit_code == 1
    assert "coin - Coin Streaks" in result.stdout
    assert "game 'broken' could not be loaded" in result.stderr


def test_version_and_help():
    assert boardsim.__version__ in run("--version").output
    result = run("--help")
    assert result.exit_code == 0
    for command in ("games", "simulate", "trace", "cards"):
        assert command in result.output


# ---------------------------------------------------------------------------------- simulate


def test_simulate_prints_win_rate_outcomes_turns_and_means():
    result = run("simulate", "coin", "-n", "3000", "--seed", "5")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "game      coin - Coin Streaks (game version 1, boardsim" in out
    assert "rules     flips=12  bias=50  characters=alice" in out
    assert "policy    heuristic" in out and "seed      5" in out
    assert "cards     coin-default-cards-0001 (includes reconstructed cards)" in out
    assert re.search(r"win rate  \d+\.\d% \[\d+\.\d%, \d+\.\d%\] \(95% Wilson, n=3000\)", out)
    for outcome in ("win", "bust", "turn_cap"):
        assert re.search(rf"^  {outcome}\s+\d+\.\d% \[\d+\.\d%, \d+\.\d%\]", out, re.M), outcome
    assert re.search(r"turns     mean \d+\.\d+ \[\d+\.\d+, \d+\.\d+\]", out)
    assert re.search(r"min 3  p10 \S+  p25 \S+  p50 \S+  p75 \S+  p90 \S+  max 12", out)
    assert re.search(r"^  heads\s+\d", out, re.M) and re.search(r"^  team_size\s+1", out, re.M)
    assert "game_index" not in out and "  seed " not in out


def test_simulate_win_rate_matches_the_frame():
    df = boardsim.simulate("coin", n=2000, seed=3)
    out = run("simulate", "coin", "-n", "2000", "--seed", "3").output
    assert f"win rate  {100 * df['win'].mean():.1f}%" in out


def test_simulate_preset_characters_and_params_reach_the_game():
    result = run("simulate", "coin", "--preset", "rigged", "--param", "flips=20", "-n", "500")
    assert "rules     flips=20  bias=80  characters=alice,bob" in result.output, result.output
    result = run("simulate", "coin", "--characters", "carol+bob", "--param", "bias=10", "-n", "500")
    assert "rules     flips=12  bias=10  characters=carol,bob" in result.output, result.output


def test_simulate_is_reproducible_from_the_seed():
    first = run("simulate", "coin", "-n", "800", "--seed", "9").output
    second = run("simulate", "coin", "-n", "800", "--seed", "9").output
    other = run("simulate", "coin", "-n", "800", "--seed", "10").output
    strip = lambda text: [line for line in text.splitlines() if not line.startswith("games")]
    assert strip(first) == strip(second) != strip(other)


def test_simulate_output_parquet_round_trips_rows_and_provenance(tmp_path):
    path = tmp_path / "coin.parquet"
    result = run("simulate", "coin", "-n", "1500", "--seed", "4", "-o", str(path))
    assert result.exit_code == 0, result.output
    assert f"wrote 1500 rows to {path}" in result.output

    expected = boardsim.simulate("coin", n=1500, seed=4)
    back = pd.read_parquet(path)
    pd.testing.assert_frame_equal(back, expected, check_dtype=False)
    meta = json.loads(pq.read_schema(path).metadata[b"boardsim"])
    assert meta["seed"] == 4 and meta["n"] == 1500 and meta["game"] == "coin"
    assert meta["rules"] == {"flips": 12, "bias": 50, "characters": ["alice"]}
    assert meta["cards_hash"] == "coin-default-cards-0001" and meta["cards_reconstructed"] is True
    assert back.attrs["provenance"]["seed"] == 4  # pandas restores attrs too
    assert read_parquet(path).attrs["provenance"] == meta


def test_simulate_output_to_unwritable_place_is_one_line(tmp_path):
    result = run("simulate", "coin", "-n", "10", "-o", str(tmp_path / "missing-dir" / "x.parquet"))
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1].startswith("Error:")


def test_simulate_progress_bar_on_stderr_for_large_runs(monkeypatch):
    import tqdm

    updates: list[int] = []

    class Recording(tqdm.tqdm):
        def update(self, k=1):
            updates.append(k)
            return super().update(k)

    monkeypatch.setattr(tqdm, "tqdm", Recording)
    result = run("simulate", "coin", "-n", "20000", "--param", "flips=3")
    assert result.exit_code == 0
    assert sum(updates) == 20000 and len(updates) == 2  # the game reports in chunks of 10000
    assert "coin:" in result.stderr and "/20.0k" in result.stderr
    assert "Error" not in result.stderr

    updates.clear()
    quiet = run("simulate", "coin", "-n", "20000", "--param", "flips=3", "--no-progress")
    assert quiet.stderr == "" and updates == []
    small = run("simulate", "coin", "-n", "19999", "--param", "flips=3")
    assert small.stderr == "" and updates == []


def test_simulate_with_card_dir(card_dirs):
    result = run("simulate", "coin", "-n", "100", "--cards", card_dirs.good)
    assert result.exit_code == 0, result.output
    assert "reconstructed" not in result.output
    assert_user_error(run("simulate", "coin", "-n", "100", "--cards", card_dirs.bad), "bad.toml", "explode")


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["simulate", "chess"], ["unknown game 'chess'", "allowed: coin"]),
        (["simulate", "coin", "--preset", "impossible"], ["no preset 'impossible'", "fair, rigged, short"]),
        (["simulate", "coin", "--param", "flips=99"], ["'flips'", "99 is out of range", "3..40"]),
        (["simulate", "coin", "--param", "flips=lots"], ["'lots' is not an integer"]),
        (["simulate", "coin", "--param", "colour=red"], ["no parameter 'colour'", "flips, bias, characters"]),
        (["simulate", "coin", "--param", "flips"], ["expected NAME=VALUE"]),
        (["simulate", "coin", "--param", "=3"], ["expected NAME=VALUE"]),
        (["simulate", "coin", "--characters", "alice,zed"], ["unknown name 'zed'", "alice, bob, carol"]),
        (["simulate", "coin", "--characters", "alice,bob,carol"], ["3 given", "1-2 distinct"]),
        (["simulate", "coin", "--characters", "bob,bob"], ["distinct"]),
        (["simulate", "coin", "--policy", "psychic"], ["policy 'psychic'", "random, heuristic"]),
        (["simulate", "coin", "-n", "0"], ["n: 0 games"]),
        (["simulate", "coin", "--seed", "-1"], ["seed"]),
        (["simulate", "coin", "--threads", "0"], ["threads"]),
        (["simulate", "coin", "-n", "many"], ["'many' is not a valid integer"]),
        (["simulate", "coin", "--cards", "/no/such/dir"], ["/no/such/dir"]),
        (["trace", "coin", "--preset", "nope"], ["no preset 'nope'"]),
        (["trace", "coin", "--game-index", "-1"], ["--game-index", "-1"]),
        (["trace", "coin", "--seed", "-3"], ["--seed"]),
        (["trace", "coin", "--param", "bias=101"], ["101 is out of range"]),
        (["cards", "validate", "/no/such/dir", "--game", "coin"], ["/no/such/dir"]),
    ],
)
def test_user_errors_are_one_line_with_exit_code_2(args, fragments):
    assert_user_error(run(*args), *fragments)


def test_library_errors_have_no_usage_noise():
    """BoardsimErrors (as opposed to click's own usage errors) print exactly one line."""
    result = run("simulate", "coin", "--param", "flips=99")
    assert result.stdout == ""
    assert result.stderr.strip().count("\n") == 0


def test_assignment_param_type():
    assert ASSIGNMENT.convert("turn-cap = 12", None, None) == ("turn_cap", "12")
    assert ASSIGNMENT.convert("team=spike,jet", None, None) == ("team", "spike,jet")
    assert ASSIGNMENT.convert("x=a=b", None, None) == ("x", "a=b")


# ------------------------------------------------------------------------------------- trace


def test_trace_prints_the_same_game_simulate_played():
    df = boardsim.simulate("coin", n=50, seed=7)
    for index in (0, 13, 49):
        result = run("trace", "coin", "--seed", "7", "--game-index", str(index))
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert lines[0] == f"coin game {index} of seed 7: team alice, policy heuristic"
        row = df.iloc[index]
        assert lines[-1] == f"result: {row['outcome']} after {row['turns']} flips"
        assert len(lines) == row["turns"] + 2


def test_trace_options():
    result = run("trace", "coin", "--preset", "rigged", "--policy", "random", "-s", "2", "-g", "1")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "coin game 1 of seed 2: team alice,bob, policy random"


# ------------------------------------------------------------------------------------- cards


def test_cards_validate_valid_dir(card_dirs):
    result = run("cards", "validate", card_dirs.good, "--game", "coin")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{card_dirs.good}: valid (game coin, 1 card file, cards hash ")


def test_cards_validate_problems_exit_1(card_dirs):
    result = run("cards", "validate", card_dirs.bad, "--game", "coin")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [f"{card_dirs.bad}/bad.toml: line 1: unknown effect 'explode'"]
    assert "1 problem" in result.stderr


def test_cards_validate_unknown_game(card_dirs):
    assert_user_error(run("cards", "validate", card_dirs.good, "--game", "chess"), "unknown game 'chess'")


# ------------------------------------------------------------------------------ import cost


def test_importing_the_cli_does_not_import_any_game():
    """`boardsim --help`, `games` errors etc. must not pay for loading (or compiling) game kernels."""
    code = (
        "import sys\n"
        "try:\n    import boardsim.cli.main\nexcept ImportError:\n    import cli.main\n"
        "bad = [m for m in sys.modules if m.startswith('boardsim.games.')]\n"
        "print(bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr

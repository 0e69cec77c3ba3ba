"""Cowboy Bebop end to end: boardsim.simulate, reproducibility, the interpreted kernel, common random
numbers, the heuristic against the random baseline, and the CLI against the real game."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import boardsim
from boardsim import stats
from boardsim.games.bebop import game as G
from boardsim.games.bebop.cards import DATA_DIR
from boardsim.games.bebop.state_nb import N_NORMAL_EVENTS, OUTCOME_DTYPE, STATE_DTYPE
from boardsim.runner import resolve_kernel, run_batch

try:
    from boardsim.cli.main import cli
except ImportError:  # running from a checkout that is not installed
    from cli.main import cli

from bebop_support import bebop_kernels, new_state  # noqa: F401  (bebop_kernels is a fixture)

pytestmark = pytest.mark.usefixtures("bebop_kernels")

COLUMNS = ["seed", "game_index", "outcome", "win", "turns", "session_parts_done", "bounties_caught",
           "bounties_escaped", "min_food", "food", "fuel", "woolongs", "vicious_drawn"]
PROVENANCE_KEYS = {"game", "game_version", "package_version", "seed", "n", "policy", "weights", "rules",
                   "rules_hash", "cards_hash", "cards_reconstructed", "threads", "seconds"}
SMALL_CAP = {"turn_cap": 60}


def sim(**kw):
    args = dict(preset="boogie", n=200, seed=5, policy="heuristic", threads=1)
    args.update(kw)
    return boardsim.simulate("bebop", **args)


# ================================================================================ simulate
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_simulate_columns_rows_and_provenance(policy):
    df = sim(policy=policy, n=300, characters="spike,jet,faye", params={"vicious": 7})
    assert list(df.columns) == COLUMNS == ["seed", "game_index", *G.OUTCOME_COLUMNS]
    assert len(df) == 300
    assert df["game_index"].tolist() == list(range(300))
    assert (df["seed"] == 5).all()
    assert set(df["outcome"].astype(str)) <= {"win", "starve", "turn_cap"}
    assert (df["win"] == (df["outcome"] == "win")).all()
    assert df["win"].dtype == bool
    assert ((df["turns"] >= 1) & (df["turns"] <= 300)).all()
    assert df["session_parts_done"].between(0, 6).all()
    for col in ("food", "fuel", "woolongs"):
        assert df[col].between(0, 20).all()
    assert (df["min_food"] <= df["food"]).all()
    # a won game has every part done; a starved one ends on 0 Food
    assert (df.loc[df["win"], "session_parts_done"] == 6).all()
    assert (df.loc[df["outcome"] == "starve", "food"] == 0).all()
    assert (df["vicious_drawn"] >= 0).all() and (df["bounties_caught"] <= 9).all()
    assert (df["bounties_caught"] + df["bounties_escaped"] <= 9).all()
    prov = df.attrs["provenance"]
    assert PROVENANCE_KEYS <= set(prov)
    assert prov["game"] == "bebop" and prov["seed"] == 5 and prov["n"] == 300 and prov["policy"] == policy
    assert prov["rules"]["characters"] == "spike,jet,faye" and prov["rules"]["vicious"] == 7
    assert prov["rules"]["bounty_deck"] == 9
    assert prov["cards_hash"] == G.load_cards().data_hash
    assert bool(prov["weights"]) == (policy == "heuristic")


def test_turn_cap_outcome():
    df = sim(policy="random", n=200, params={"turn_cap": 4})
    assert (df["turns"] <= 4).all()
    capped = df[df["outcome"] == "turn_cap"]
    assert len(capped) > 0 and (capped["turns"] == 4).all()


def test_same_seed_same_frame_whatever_the_threads():
    one = sim(n=600, seed=21, threads=1)
    two = sim(n=600, seed=21, threads=2)
    pd.testing.assert_frame_equal(one, two)
    again = sim(n=600, seed=21, threads=1)
    pd.testing.assert_frame_equal(one, again)


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_same_rows_whatever_the_chunk_size(policy):
    rules = G.GAME.resolve("boogie", {"characters": "jet,faye,ed"})
    batch = G.prepare(rules, policy, None)
    kernel = resolve_kernel(batch.kernel)
    runs = [run_batch(kernel, batch.args, STATE_DTYPE, OUTCOME_DTYPE, 250, 9, threads=t, chunk=c)
            for t, c in ((1, None), (1, 1), (1, 7), (2, 13), (2, 250))]
    for rows in runs[1:]:
        assert np.array_equal(rows, runs[0])


def test_first_index_plays_the_same_games():
    full = sim(n=40, seed=8)
    rules = G.GAME.resolve("boogie", {})
    tail = G.simulate(rules, 15, 8, "heuristic", None, 1, None, first_index=25)
    assert tail["game_index"].tolist() == list(range(25, 40))
    pd.testing.assert_frame_equal(full.iloc[25:].reset_index(drop=True), tail.reset_index(drop=True))


def test_different_seeds_differ():
    a = sim(n=200, seed=1, policy="random")
    b = sim(n=200, seed=2, policy="random")
    cols = [c for c in COLUMNS if c not in ("seed",)]
    assert not a[cols].equals(b[cols])
    assert (a["turns"].to_numpy() != b["turns"].to_numpy()).any()


def test_trace_is_the_simulated_game():
    rules = G.GAME.resolve("boogie", {"characters": "faye,ed"})
    df = sim(n=4, seed=13, characters="faye,ed")
    for gi in range(4):
        row, _, _, _ = G.play_one(rules, 13, gi, "heuristic", None)
        assert row["turns"] == df["turns"][gi] and row["outcome"] == df["outcome"].cat.codes[gi]
    lines = boardsim.trace("bebop", seed=13, game_index=3, characters="faye,ed")
    assert f"after {df['turns'][3]} turns: {df['outcome'][3]}" in lines[-1]


# ============================================================ the kernel with the JIT disabled
_ROWS_SCRIPT = textwrap.dedent("""
    import json, sys
    import boardsim
    df = boardsim.simulate("bebop", preset="boogie", n=3, seed=3, policy=sys.argv[1], threads=1,
                           params={"turn_cap": 60})
    df["outcome"] = df["outcome"].astype(str)
    print(json.dumps(df.to_dict(orient="records")))
""")

_KERNEL_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    from boardsim.games.bebop import game as G
    from boardsim.games.bebop.batch_nb import play_games
    from boardsim.games.bebop.state_nb import OUTCOME_DTYPE, STATE_DTYPE
    # plain structured arrays index to numpy.void (no attribute access) when interpreted: use
    # record arrays, whose elements are numpy.record
    rules = G.GAME.resolve("boogie", {"turn_cap": 60})
    pol, weights, _ = G.policy_weights(sys.argv[1])
    out = np.zeros(3, OUTCOME_DTYPE).view(np.recarray)
    with np.errstate(over="ignore"):
        play_games(G.cards_record(G.load_cards()).view(np.recarray), G.rules_record(rules).view(np.recarray),
                   weights, np.int64(pol), np.uint64(3), np.int64(0),
                   np.zeros(1, STATE_DTYPE).view(np.recarray), np.zeros((0, 6), np.int32), out)
    print(json.dumps([[int(x) for x in row] for row in out.tolist()]))
""")


def _interpreted(script: str, policy: str):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", script, policy], capture_output=True, text=True, env=env,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_jit_disabled_simulate_gives_the_compiled_rows(policy):
    compiled = sim(n=3, seed=3, policy=policy, params=SMALL_CAP)
    compiled["outcome"] = compiled["outcome"].astype(str)
    assert _interpreted(_ROWS_SCRIPT, policy) == json.loads(json.dumps(compiled.to_dict(orient="records"),
                                                                        default=lambda x: x.item()))


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_jit_disabled_kernel_gives_the_compiled_rows(policy):
    compiled = sim(n=3, seed=3, policy=policy, params=SMALL_CAP)
    rows = [[int(compiled["outcome"].cat.codes[i])] + [int(compiled[c][i]) for c in COLUMNS[4:]]
            for i in range(3)]
    assert _interpreted(_KERNEL_SCRIPT, policy) == rows


# ============================================================== common random numbers (setup)
def _deck(st, name):
    return [int(x) for x in st[name][: st[name + "_n"]]]


def test_crn_setup_shares_everything_but_the_vicious_cards_across_vicious_counts():
    for seed in range(6):
        base, _, _ = new_state(seed=seed, characters="spike,jet,faye,ed", vicious=0)
        b = base[0]
        for v in range(1, 9):
            other, _, _ = new_state(seed=seed, characters="spike,jet,faye,ed", vicious=v)
            o = other[0]
            assert o["session"].tolist() == b["session"].tolist()
            assert o["bounty_deck"].tolist() == b["bounty_deck"].tolist()
            assert o["track_bounty"].tolist() == b["track_bounty"].tolist()
            assert o["contact_deck"].tolist() == b["contact_deck"].tolist()
            assert o["lead_deck"].tolist() == b["lead_deck"].tolist()
            assert o["event_deck_n"] == N_NORMAL_EVENTS + v


def test_crn_event_deck_gains_exactly_one_vicious_card_per_step():
    for seed in range(8):
        decks = [_deck(new_state(seed=seed, game_index=seed * 3, vicious=v)[0][0], "event_deck") for v in range(9)]
        assert [e for e in decks[0] if e >= N_NORMAL_EVENTS] == []
        for v in range(8):
            small, big = decks[v], decks[v + 1]
            added = [e for e in big if e not in small]
            assert len(added) == 1 and added[0] >= N_NORMAL_EVENTS
            assert [e for e in big if e != added[0]] == small      # the others keep their order
        assert sorted(e for e in decks[8] if e >= N_NORMAL_EVENTS) == list(range(40, 48))


def test_crn_bounty_decks_of_different_sizes_share_their_first_cards():
    for seed in range(6):
        draws = {}
        for nb in (3, 7, 9, 11, 18):
            st = new_state(seed=seed, bounty_deck=nb)[0][0]
            track = [int(b) for b in st["track_bounty"]]
            rest = [int(b) for b in st["bounty_deck"][: st["bounty_deck_n"]]][::-1]   # drawing order
            draws[nb] = track + rest
        for nb in (3, 7, 9, 11):
            assert draws[18][:nb] == draws[nb]


def test_crn_sessions_do_not_depend_on_the_team():
    for seed in range(10):
        by_team = {}
        for team in ("spike,jet", "jet,spike", "faye,spike,ed", "ed,faye,jet,spike"):
            st = new_state(seed=seed, characters=team)[0][0]
            for p, name in enumerate(team.split(",")):
                by_team.setdefault(name, set()).add(int(st["session"][p]))
        assert all(len(s) == 1 for s in by_team.values())


# ========================================================= heuristic against the random baseline
@pytest.mark.slow
def test_heuristic_beats_random_by_a_wide_margin():
    dfs = {p: sim(policy=p, n=2000, seed=11, threads=2) for p in ("random", "heuristic")}
    wins = {p: int(df["win"].sum()) for p, df in dfs.items()}
    lo_h, _ = stats.wilson_interval(wins["heuristic"], 2000)
    _, hi_r = stats.wilson_interval(wins["random"], 2000)
    assert wins["heuristic"] > wins["random"]
    assert lo_h > hi_r, (wins, lo_h, hi_r)
    assert dfs["heuristic"]["session_parts_done"].mean() > dfs["random"]["session_parts_done"].mean()


# ==================================================================================== CLI
def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_cli_simulate_bebop_prints_a_win_rate():
    result = run("simulate", "bebop", "--preset", "boogie", "--characters", "spike,jet", "-n", "500",
                 "--seed", "1", "--no-progress", "--threads", "1")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(r"^win rate\s+\d+(\.\d+)?%", out, re.M), out
    assert re.search(r"^rules\s+.*characters=spike,jet", out, re.M)
    assert "starve" in out and "games     500" in out
    df = sim(n=500, seed=1, characters="spike,jet")          # the same games, in-process
    assert f"win rate  {stats.format_rate(int(df['win'].sum()), 500)}" in out


def test_cli_trace_bebop():
    result = run("trace", "bebop", "--seed", "7")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Cowboy Bebop: seed 7, game 0")
    assert any(line.startswith("-- turn 1: Spike") for line in lines)
    assert any(line.startswith("-- turn 2: Jet") for line in lines)
    assert re.match(r"== game over after \d+ turns: (win|starve|turn_cap)", lines[-1])


def test_cli_games_lists_bebop():
    result = run("games")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "bebop - Cowboy Bebop: Boardgame Boogie" in out
    for param in ("characters", "vicious", "bounty_deck", "start_food", "start_fuel", "start_woolongs",
                  "actions", "turn_cap"):
        assert re.search(rf"^\s+{param}\s", out, re.M), param
    assert re.search(r"vicious\s+an integer 0\.\.8\s+6", out)
    assert "presets (default: boogie)" in out
    for preset, shown in (("waltz", "bounty_deck=11, vicious=4"), ("boogie", "bounty_deck=9, vicious=6"),
                          ("blues", "bounty_deck=9, vicious=8"), ("real-folk-blues", "bounty_deck=7, vicious=8")):
        assert re.search(rf"^\s+{preset}\s+{shown}$", out, re.M), preset
    assert "policies: random, heuristic" in out


def test_cli_cards_validate_default_data():
    result = run("cards", "validate", str(DATA_DIR))
    assert result.exit_code == 0, result.output
    assert "valid" in result.stdout and G.load_cards().data_hash in result.stdout


def _bounties_with(tmp_path, old, new):
    text = (DATA_DIR / "bounties.toml").read_text()
    assert old in text
    d = tmp_path / "cards"
    d.mkdir()
    (d / "bounties.toml").write_text(text.replace(old, new, 1))
    return d


def test_cli_cards_validate_broken_bounty_is_one_line(tmp_path):
    d = _bounties_with(tmp_path, "jams = 3\n", "jams = 4\n")
    result = run("cards", "validate", str(d))
    assert result.exit_code == 1
    problems = result.stdout.strip().splitlines()
    assert len(problems) == 1, result.stdout
    assert problems[0].startswith("bounties.toml: bounty 'Decker' field 'jams'") and "allowed" in problems[0]


def test_cli_simulate_with_modified_cards_changes_the_cards_hash(tmp_path):
    d = _bounties_with(tmp_path, "payout = { woolongs = 9, fuel = 2 }", "payout = { woolongs = 8, fuel = 2 }")
    args = ["simulate", "bebop", "-n", "50", "--seed", "2", "--no-progress", "--threads", "1"]
    default = run(*args)
    custom = run(*args, "--cards", str(d))
    assert default.exit_code == 0 and custom.exit_code == 0, custom.output

    def cards_hash(out):
        return re.search(r"^cards\s+([0-9a-f]+)", out, re.M).group(1)

    assert cards_hash(default.stdout) == G.load_cards().data_hash
    assert cards_hash(custom.stdout) == G.load_cards(d).data_hash != G.load_cards().data_hash
    df = boardsim.simulate("bebop", n=5, seed=2, cards=str(d), threads=1)
    assert df.attrs["provenance"]["cards_hash"] == G.load_cards(d).data_hash

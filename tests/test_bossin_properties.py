"""Bossin' Space properties over random games (hypothesis): the bookkeeping invariants hold after
every round, games end by their round cap, and the Python round loop is the game the batch kernel
plays."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from boardsim.games.bossin import game as G
from boardsim.games.bossin import state_nb as S

from bossin_support import (  # noqa: F401  (bossin_kernels is a fixture)
    bossin_kernels, check_invariants, new_state, play_round, put,
)

pytestmark = pytest.mark.usefixtures("bossin_kernels")

SETTINGS = settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])

games = hs.fixed_dictionaries({
    "seed": hs.integers(0, 2**63 - 1),
    "game_index": hs.integers(0, 2**40),
    "players": hs.integers(1, 5),
    "boss": hs.integers(0, 5),
    "easy": hs.integers(0, 1),
    "start_health": hs.integers(1, 5),
    "overheat": hs.integers(2, 8),
    "tier1": hs.integers(-1, 10),
    "tier2": hs.sampled_from([-1, 0, 3]),
    "tier3": hs.sampled_from([-1, 0, 2]),
    "crew": hs.lists(hs.sampled_from(S.CREW_NAMES), max_size=5, unique=True).map(",".join),
    "round_cap": hs.sampled_from([2, 60]),
    "policy": hs.sampled_from(["random", "heuristic", "open-hands"]),
})


def _rules(g):
    return {k: v for k, v in g.items() if k not in ("seed", "game_index", "policy")}


@SETTINGS
@given(games)
def test_invariants_hold_after_every_round_and_the_game_ends(g):
    state, cards, rules = new_state(g["seed"], g["game_index"], **_rules(g))
    st = state[0]
    assert check_invariants(state, cards, rules) == []
    rounds = 0
    while st["outcome"] < 0:
        if st["rounds"] >= g["round_cap"]:
            break
        play_round(state, cards, rules, g["policy"])
        rounds += 1
        problems = check_invariants(state, cards, rules)
        assert problems == [], f"round {rounds}: {problems}"
        assert st["rounds"] == rounds
    assert rounds <= g["round_cap"]


@SETTINGS
@given(games)
def test_the_batch_kernel_plays_the_same_game_as_play_one(g):
    rules = G.GAME.resolve(None, _rules(g))
    batch = G.prepare(rules, g["policy"], None)
    from boardsim.runner import play_chunk

    rows = play_chunk(batch, g["seed"] % 2**63, g["game_index"], 1)
    row, log, _, _ = G.play_one(rules, g["seed"] % 2**63, g["game_index"], g["policy"], None)
    assert rows[0].tobytes() == np.asarray(row).tobytes()
    assert row["turns"] <= g["round_cap"]
    assert log[-1][0] == S.LOG_END and log[-1][3] == row["turns"]


@SETTINGS
@given(hs.integers(0, 2**32), hs.lists(hs.integers(0, 27), min_size=0, max_size=12, unique=True),
       hs.sampled_from(["random", "heuristic"]))
def test_crowded_boards_stay_valid_stacks(seed, ids, policy):
    """Any arrangement of enemies on the board (up to full columns) plays on without breaking the
    bookkeeping."""
    state, cards, rules = new_state(seed, 0, players=2)
    for c in range(S.N_COLS):
        put(state, c, ids[3 * c:3 * c + 3])
    assert check_invariants(state, cards, rules) == []
    play_round(state, cards, rules, policy)
    assert check_invariants(state, cards, rules) == []


def _corrupt(kind, st):
    if kind == "duplicate":
        st["board"][0, 0] = st["edeck"][st["edeck_n"] - 1]
        st["blen"][0] = 1
    elif kind == "lost command":
        st["cdeck_n"] -= 1
    elif kind == "gap":
        st["board"][2, 1] = 3
    elif kind == "heat":
        st["heat"] = 9
    elif kind == "boss":
        st["edeck"][0] = 1


@pytest.mark.parametrize("kind", ["duplicate", "lost command", "gap", "heat", "boss"])
def test_check_invariants_notices_corruption(kind):
    state, cards, rules = new_state(4, 0, players=2)
    _corrupt(kind, state[0])
    assert check_invariants(state, cards, rules) != []

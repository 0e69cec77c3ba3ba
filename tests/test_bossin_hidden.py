"""Hidden information: a seat's choice depends on its own hand and public information only, and the
captain's planner cannot see the order of the enemy deck; the open-hands cheat does use the other
hands."""
from __future__ import annotations

import numpy as np
import pytest

from boardsim.games.bossin import play_nb as PL
from boardsim.games.bossin import policies_nb as P
from boardsim.games.bossin import state_nb as S
from boardsim.runner import kernel_view

from bossin_support import (  # noqa: F401  (bossin_kernels is a fixture)
    POLICIES, bossin_kernels, new_log, new_state, play_round, weights,
)

pytestmark = pytest.mark.usefixtures("bossin_kernels")


def _mid_game(seed, players=2, rounds=2):
    state, cards, rules = new_state(seed, 0, players=players)
    for _ in range(rounds):
        if play_round(state, cards, rules) >= 0:
            return None
    st = state[0]
    for seat in range(players):
        PL.refill(st, rules[0], np.int64(seat))
    for i in range(4):
        st["timeline"][i] = PL.draw_hazard(st)
    return state, cards, rules


def _played(state, cards, rules, policy):
    s = state.copy()
    PL.play_commands(s[0], cards[0], rules[0], weights(), POLICIES[policy], new_log())
    return list(s[0]["played"]), s


def _swap_other_hand(state, seat, rng):
    """Give `seat` different cards (swapped with the command deck), keeping everything else."""
    other = state.copy()
    st = other[0]
    for i in range(int(st["hand_n"][seat])):
        j = int(rng.integers(st["cdeck_n"]))
        st["hand"][seat, i], st["cdeck"][j] = st["cdeck"][j], st["hand"][seat, i]
    return other


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_a_seat_plays_the_same_cards_whatever_the_others_hold(policy):
    rng = np.random.default_rng(0)
    compared = 0
    for seed in range(40):
        mid = _mid_game(seed)
        if mid is None:
            continue
        state, cards, rules = mid
        mine, _ = _played(state, cards, rules, policy)
        other = _swap_other_hand(state, 0, rng)
        theirs, _ = _played(other, cards, rules, policy)
        assert mine[2:] == theirs[2:]          # seat 2's two cards do not change with seat 1's hand
        compared += 1
    assert compared >= 10


def test_open_hands_choices_do_depend_on_the_other_hand():
    rng = np.random.default_rng(0)
    differ = 0
    for seed in range(40):
        mid = _mid_game(seed)
        if mid is None:
            continue
        state, cards, rules = mid
        mine, _ = _played(state, cards, rules, "open-hands")
        other = _swap_other_hand(state, 0, rng)
        theirs, _ = _played(other, cards, rules, "open-hands")
        differ += sorted(mine[2:]) != sorted(theirs[2:])
    assert differ > 0


def test_the_captain_cannot_see_the_enemy_deck_order():
    rng = np.random.default_rng(1)
    scratch = kernel_view(np.zeros(1, S.STATE_DTYPE))
    checked = 0
    for seed in range(40):
        mid = _mid_game(seed)
        if mid is None:
            continue
        state, cards, rules = mid
        _, s = _played(state, cards, rules, "heuristic")
        st = s[0]
        if st["edeck_n"] < 3:
            continue
        used = np.zeros(4, np.bool_)
        first = P.plan_column(st, cards[0], rules[0], weights(), POLICIES["heuristic"], np.int64(0), st["played"],
                              used, scratch, new_log())
        shuffled = s.copy()
        n = int(st["edeck_n"])
        top = shuffled[0]["edeck"][1:n].copy()        # keep the Boss card at the bottom
        rng.shuffle(top)
        shuffled[0]["edeck"][1:n] = top
        second = P.plan_column(shuffled[0], cards[0], rules[0], weights(), POLICIES["heuristic"], np.int64(0),
                               shuffled[0]["played"], used, scratch, new_log())
        assert first == second
        checked += 1
    assert checked >= 10

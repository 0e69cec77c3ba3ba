"""The Bossin' Space rollout policy: it leaves the heuristic's games alone, decides from what the
captain can see, is reproducible, and is not weaker than the heuristic it is built on.

Rollout games are slower (tens per second), so the tests play single decisions or a few hundred
games on both threads.
"""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

import boardsim
from boardsim.games.bossin import game as G
from boardsim.games.bossin import play_nb as PL
from boardsim.games.bossin import rollout_nb as RO
from boardsim.games.bossin import state_nb as S
from boardsim.games.bossin.policies_nb import POLICY_HEURISTIC, POLICY_ROLLOUT, WEIGHT_NAMES
from boardsim.runner import kernel_view, resolve_kernel, run_batch

from bossin_support import (  # noqa: F401  (bossin_kernels is a fixture)
    bossin_kernels, check_invariants, new_log, new_state, play_round, rules_dict, weights,
)

pytestmark = pytest.mark.usefixtures("bossin_kernels")

I = np.int64
# (seed, game index, heuristic rounds before the decision): openings and mid-game positions
POSITIONS = [(5, g, r) for g, r in ((0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 1), (6, 2), (7, 5), (8, 3), (9, 6))]


def rollout_weights(**params) -> np.ndarray:
    w = weights()
    for name, value in params.items():
        w[WEIGHT_NAMES.index("rollout_" + name)] = value
    return w


def rows_hash(df) -> str:
    """sha256 (16 hex digits) of every outcome column but the categorical one, as int64."""
    cols = [c for c in df.columns if c != "outcome"]
    arr = np.ascontiguousarray(np.column_stack([df[c].to_numpy().astype(np.int64) for c in cols]))
    return hashlib.sha256(arr.tobytes()).hexdigest()[:16]


def position(seed, game_index, rounds, players=3):
    """(state, cards, rules, n_played) at the start of a round's command phase, after `rounds`
    heuristic rounds; None if the game is over or a Boss EMP skips the first column."""
    state, cards, rules = new_state(seed, game_index, players=players)
    for _ in range(rounds):
        if play_round(state, cards, rules) >= 0:
            return None
    st = state[0]
    with np.errstate(over="ignore"):
        n_played = PL.begin_round(st, cards[0], rules[0], weights(), I(POLICY_HEURISTIC), new_log())
    if st["outcome"] >= 0 or st["skip_cmd"] != 0 or n_played == 0:
        return None
    return state, cards, rules, int(n_played)


def positions():
    found = [p for p in (position(*x) for x in POSITIONS) if p is not None]
    assert len(found) >= 6
    return found


def command_phase(pos, w):
    """A copy of the position after its command phase by the rollout policy, and its log."""
    state, cards, rules, n_played = pos
    s = state.copy()
    scratch = kernel_view(np.zeros(1, S.STATE_DTYPE))
    log = new_log()
    with np.errstate(over="ignore"):
        RO.command_phase_rollout(s[0], cards[0], rules[0], w, I(n_played), scratch, log)
    return s, log[: s[0]["log_n"]]


def rollout_choice(pos, w=None):
    """The captain's first column: (logged row code, command, column, choice a, choice b)."""
    start = int(pos[0][0]["log_n"])
    _, log = command_phase(pos, rollout_weights() if w is None else w)
    for row in log[start:]:
        if row[0] in (S.LOG_CMD, S.LOG_COOL):
            return (int(row[0]), int(row[2]), int(row[3])) + ((int(row[4]), int(row[5])) if row[0] == S.LOG_CMD else ())
    raise AssertionError("no command placed")


def hide_differently(pos, seed):
    """The position with everything the captain cannot see changed: the other seats' hands and the
    command deck dealt differently, the enemy deck reordered with some cards swapped for same-tier
    enemies never dealt, the hazard deck and upgrade pile reordered, the game's random streams changed."""
    state, cards, rules, n_played = pos
    rng = np.random.default_rng(seed)
    s = state.copy()
    st, cd = s[0], cards[0]
    players, captain = int(rules[0]["players"]), int(st["captain"])
    others = [p for p in range(players) if p != captain]
    pool = list(st["cdeck"][: st["cdeck_n"]])
    for p in others:
        pool += list(st["hand"][p, : st["hand_n"][p]])
    pool = list(rng.permutation(pool))
    for p in others:
        for i in range(st["hand_n"][p]):
            st["hand"][p, i] = pool.pop()
    st["cdeck"][: st["cdeck_n"]] = pool
    n = int(st["edeck_n"])
    first = 1 if n > 0 and st["edeck"][0] == S.BOSS_CARD else 0
    deck = [int(e) for e in st["edeck"][first:n]]
    placed = set(deck) | set(st["edisc"][: st["edisc_n"]].tolist())
    for c in range(S.N_COLS):
        placed |= set(st["board"][c, : st["blen"][c]].tolist())
    for i, e in enumerate(deck):
        spare = [x for x in range(int(cd["n_enemies"])) if cd["en_xp"][x] == cd["en_xp"][e] and x not in placed]
        if spare and rng.random() < 0.5:
            deck[i] = int(rng.choice(spare))
            placed.add(deck[i])
    st["edeck"][first:n] = rng.permutation(deck)
    st["hdeck"][: st["hdeck_n"]] = rng.permutation(st["hdeck"][: st["hdeck_n"]])
    st["upile"][: st["upile_n"]] = rng.permutation(st["upile"][: st["upile_n"]])
    for k in range(S.N_STREAMS):
        if k != S.S_ROLLOUT:
            st["rng"][k] = rng.integers(1, 2**63, 4, dtype=np.uint64)
    return s, cards, rules, n_played


def test_heuristic_games_unchanged_by_the_rollout():
    """Adding the rollout (its stream, weights and the play_nb split) leaves every heuristic game as it
    was. The hashes were computed with rows_hash from the code before the rollout (commit 79a43c4,
    `boardsim.simulate("bossin", n=60, seed=11, preset="normal", params={"players": p},
    policy="heuristic", threads=1)`)."""
    before = {1: "64238aa97cee29f4", 2: "b70580080d3f8a4d", 3: "2b1b7c073cfa93ce", 4: "5fc902925e81e71a", 5: "f457dddb852bf3d0"}
    for players, expected in before.items():
        df = boardsim.simulate("bossin", n=60, seed=11, preset="normal", params={"players": players},
                               policy="heuristic", threads=1)
        assert rows_hash(df) == expected, players


def test_one_candidate_is_the_heuristic_game_for_game():
    batch = G.prepare(rules_dict(players=3), "heuristic", None)
    kernel = resolve_kernel(batch.kernel)
    args = list(batch.args)
    args[2] = rollout_weights(candidates=1)
    args[3] = I(POLICY_ROLLOUT)
    a = run_batch(kernel, batch.args, S.STATE_DTYPE, S.OUTCOME_DTYPE, 200, 4, threads=2)
    b = run_batch(kernel, tuple(args), S.STATE_DTYPE, S.OUTCOME_DTYPE, 200, 4, threads=2)
    assert np.array_equal(a, b)


def test_rerandomise_keeps_what_the_captain_knows():
    for pos in positions():
        state, cards, rules, _ = pos
        world = state.copy()
        with np.errstate(over="ignore"):
            RO.rerandomise(world[0], cards[0], rules[0], np.uint64(5), I(0))
        st, wd, cd = state[0], world[0], cards[0]
        captain = int(st["captain"])
        assert np.array_equal(wd["hand"][captain], st["hand"][captain])
        assert np.array_equal(wd["hand_n"], st["hand_n"])
        for deck in ("edeck", "cdeck", "hdeck", "upile"):
            assert wd[deck + "_n"] == st[deck + "_n"]
        for deck in ("hdeck", "upile"):
            n = int(st[deck + "_n"])
            assert sorted(wd[deck][:n]) == sorted(st[deck][:n])

        def unseen_commands(x):
            cards_ = list(x["cdeck"][: x["cdeck_n"]])
            for p in range(int(rules[0]["players"])):
                if p != captain:
                    cards_ += list(x["hand"][p, : x["hand_n"][p]])
            return sorted(cards_)
        assert unseen_commands(wd) == unseen_commands(st)
        n = int(st["edeck_n"])
        real = [int(e) for e in st["edeck"][:n]]
        imagined = [int(e) for e in wd["edeck"][:n]]
        assert [cd["en_xp"][e] if e >= 0 else -1 for e in imagined] == [cd["en_xp"][e] if e >= 0 else -1 for e in real]
        # the books balance as in the real position (whose four played commands lie on the table)
        assert check_invariants(world, cards, rules) == check_invariants(state, cards, rules)


def test_rollout_decision_ignores_what_the_captain_cannot_see():
    for k, pos in enumerate(positions()):
        decision = rollout_choice(pos)
        for variant in range(2):
            assert rollout_choice(hide_differently(pos, 100 * k + variant)) == decision


def test_rollout_decision_is_not_a_constant():
    """In some positions the rollout overrules the heuristic planner."""
    overruled = 0
    for pos in positions():
        overruled += rollout_choice(pos) != rollout_choice(pos, rollout_weights(candidates=1))
    assert overruled >= 1


def test_rollout_same_rows_whatever_the_threads():
    one = boardsim.simulate("bossin", n=16, seed=12, params={"players": 3}, policy="rollout", threads=1)
    two = boardsim.simulate("bossin", n=16, seed=12, params={"players": 3}, policy="rollout", threads=2)
    again = boardsim.simulate("bossin", n=16, seed=12, params={"players": 3}, policy="rollout", threads=2)
    assert one.equals(two) and two.equals(again)


def test_rollout_command_phase_keeps_the_books():
    for pos in positions():
        state, cards, rules = command_phase(pos, rollout_weights())[0], pos[1], pos[2]
        assert check_invariants(state, cards, rules) == []      # the played commands are discarded by now


def test_policy_and_weights_declared():
    assert "rollout" in G.GAME.policies
    assert not any(spec.name.startswith("rollout_") for spec in G.tunable_weights())


STRENGTH_GAMES = 200


def test_rollout_not_weaker_than_the_heuristic():
    """Paired games (same seeds) at 3 players, normal: the rollout wins at least about as often."""
    kw = dict(n=STRENGTH_GAMES, seed=31, preset="normal", params={"players": 3}, threads=2)
    heuristic = boardsim.simulate("bossin", policy="heuristic", **kw)
    rollout = boardsim.simulate("bossin", policy="rollout", **kw)
    h, r = int(heuristic["win"].sum()), int(rollout["win"].sum())
    print(f"\nbossin 3p normal, {STRENGTH_GAMES} paired games: heuristic {h} wins, rollout {r} wins")
    assert r >= h - 5

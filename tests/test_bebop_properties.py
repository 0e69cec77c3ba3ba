"""Cowboy Bebop properties over random games (hypothesis): the bookkeeping invariants hold after
every turn, every game ends by its turn cap, the Python turn loop is the same game as play_game and
as the batch kernel, and plan_payment only ever proposes a real payment."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as hs

from boardsim.games.bebop import game as G
from boardsim.games.bebop import rules_nb as R
from boardsim.games.bebop import state_nb as S
from boardsim.games.bebop.vocab import CHARACTERS

from bebop_support import (  # noqa: F401  (bebop_kernels is a fixture)
    bebop_kernels,
    EIN, POLICIES, check_invariants, new_log, new_state, plan_payment, play_turn, quiet,
    weights,
)

pytestmark = pytest.mark.usefixtures("bebop_kernels")

SETTINGS = settings(deadline=None, max_examples=40,
                    suppress_health_check=[HealthCheck.too_slow])

crews = hs.lists(hs.sampled_from(CHARACTERS), min_size=2, max_size=4, unique=True).map(",".join)
games = hs.fixed_dictionaries({
    "seed": hs.integers(0, 2**63 - 1),
    "game_index": hs.integers(0, 2**40),
    "characters": crews,
    "vicious": hs.integers(0, 8),
    "bounty_deck": hs.integers(3, 18),
    "turn_cap": hs.sampled_from([3, 25, 300]),
    "policy": hs.sampled_from(sorted(POLICIES)),
})


def _setup(g):
    rules = {k: g[k] for k in ("characters", "vicious", "bounty_deck", "turn_cap")}
    return new_state(g["seed"], g["game_index"], **rules)


def _play_loop(g, check=True):
    """Play game g turn by turn from Python; returns (final state, outcome, turns played)."""
    state, cards, rules = _setup(g)
    st = state[0]
    assert check_invariants(state, cards, rules) == []
    pol = POLICIES[g["policy"]]
    outcome, calls = -1, 0
    while outcome < 0:
        outcome = play_turn(state, cards, rules, pol)
        calls += 1
        assert calls <= g["turn_cap"] + 1, "the game did not end by its turn cap"
        if check:
            problems = check_invariants(state, cards, rules)
            assert problems == [], f"turn {int(st['turn'])}: {problems}"
            assert ((st["res"] >= 0) & (st["res"] <= 20)).all()
            assert (st["track_bounty"] >= 0).sum() <= 3
    return state, cards, rules, outcome


def _corrupt(kind):
    def f(st, cd):
        if kind == "lead twice":
            st["leads"][0, 0] = st["lead_deck"][0, st["lead_deck_n"][0] - 1]
        elif kind == "lead lost":
            st["lead_deck_n"][2] -= 1
        elif kind == "event twice":
            st["event_disc"][0] = st["event_deck"][0]
            st["event_disc_n"] = 1
        elif kind == "extra vicious":
            st["event_deck"][0] = 47 if 47 not in st["event_deck"][: st["event_deck_n"]] else 46
        elif kind == "contact lost":
            st["contact_deck_n"] -= 1
        elif kind == "bounty twice":
            st["track_bounty"][0] = st["track_bounty"][1]
        elif kind == "bounty lost":
            st["track_bounty"][2] = -1
        elif kind == "track position":
            st["track_pos"][1] = 0
        elif kind == "card in hand and tableau":
            st["tab"][0, 0] = 3
            st["tab_n"][0] = 1
        elif kind == "card nowhere":
            st["hand"][1, 5] = 0
        elif kind == "ein field":
            st["ein"] = 0
        elif kind == "food":
            st["res"][0] = -1
        elif kind == "woolongs":
            st["res"][2] = 21
        elif kind == "used count":
            st["used"][3, 2] = 1
        elif kind == "aboard elsewhere":
            st["sector"][1] = 0
        elif kind == "zip apart":
            st["in_zip"][0] = 1
            st["zip_place"][0] = 2
        elif kind == "part order":
            st["part"][0] = 2
    return f


CORRUPTIONS = ["lead twice", "lead lost", "event twice", "extra vicious", "contact lost", "bounty twice",
               "bounty lost", "track position", "card in hand and tableau", "card nowhere", "ein field",
               "food", "woolongs", "used count", "aboard elsewhere", "zip apart", "part order"]


@pytest.mark.parametrize("kind", CORRUPTIONS)
def test_check_invariants_notices_corruption(kind):
    state, cards, rules = new_state(seed=4, characters="spike,jet,faye", vicious=6)
    assert check_invariants(state, cards, rules) == []
    _corrupt(kind)(state[0], cards[0])
    assert check_invariants(state, cards, rules) != []


def _outcome_row(st, outcome):
    n = int(st["n_seats"])
    return (outcome, int(st["turn"]), int(st["part"][:n].sum()), int(st["caught"]), int(st["escaped"]),
            int(st["min_food"]), int(st["res"][0]), int(st["res"][1]), int(st["res"][2]),
            int(st["vicious_drawn"]))


@SETTINGS
@given(g=games)
def test_invariants_hold_after_every_turn_and_the_game_ends(g):
    state, cards, rules, outcome = _play_loop(g)
    st = state[0]
    assert outcome in (S.OUT_WIN, S.OUT_STARVE, S.OUT_TURN_CAP)
    assert 1 <= st["turn"] <= g["turn_cap"]
    if outcome == S.OUT_STARVE:
        assert st["starved"] and st["res"][0] == 0
    elif outcome == S.OUT_WIN:
        assert (st["part"][: st["n_seats"]] == 2).all() and not st["starved"]
    else:
        assert st["turn"] == g["turn_cap"] and not st["starved"]
        assert (st["part"][: st["n_seats"]] < 2).any()


@SETTINGS
@given(g=games)
def test_turn_loop_is_the_same_game_as_play_game_and_the_batch_kernel(g):
    state, cards, rules, outcome = _play_loop(g, check=False)
    looped = _outcome_row(state[0], outcome)

    other = np.zeros(1, S.STATE_DTYPE)
    out = np.zeros(1, S.OUTCOME_DTYPE)
    pol = POLICIES[g["policy"]]
    with quiet():
        R.play_game(other[0], cards[0], rules[0], weights(), pol, np.uint64(g["seed"]),
                    np.int64(g["game_index"]), new_log(), out[0])
    assert tuple(int(x) for x in out[0].tolist()) == looped
    # the whole final state agrees too (play_game logs one more row: the end of the game)
    for name in S.STATE_DTYPE.names:
        if name != "log_n":
            assert np.array_equal(other[0][name], state[0][name]), name

    rules_dict = G.GAME.resolve(None, {k: g[k] for k in ("characters", "vicious", "bounty_deck", "turn_cap")})
    df = G.simulate(rules_dict, 1, g["seed"], g["policy"], None, 1, None, first_index=g["game_index"])
    batch = (int(df["outcome"].cat.codes[0]),) + tuple(int(df[c][0]) for c in G.OUTCOME_COLUMNS[2:])
    assert batch == looped


# ------------------------------------------------------------------------------- plan_payment
def _cover(cards, req, ein):
    """Exhaustive: can these (icons, is_or) cards, plus Ein as one wild icon if `ein`, cover req?"""
    def rec(k, need, ein):
        if all(x <= 0 for x in need):
            return True
        if k == len(cards):
            return ein and sum(max(x, 0) for x in need) == 1
        if rec(k + 1, need, ein):
            return True
        icons, is_or = cards[k]
        if is_or:
            return any(rec(k + 1, [n - (i == s) for i, n in enumerate(need)], ein)
                       for s in range(4) if icons[s] and need[s] > 0)
        if any(icons[s] and need[s] > 0 for s in range(4)):
            return rec(k + 1, [need[s] - icons[s] for s in range(4)], ein)
        return False
    return rec(0, list(req), ein)


payments = hs.fixed_dictionaries({
    "payers": hs.lists(hs.integers(0, 3), min_size=1, max_size=4, unique=True),
    "hands": hs.lists(hs.lists(hs.booleans(), min_size=8, max_size=8), min_size=4, max_size=4),
    "ein_free": hs.booleans(),
    "req": hs.lists(hs.integers(0, 4), min_size=4, max_size=4),
})


def _payment_case(case):
    state, cards, _ = new_state(characters="spike,jet,faye,ed")
    st, cd = state[0], cards[0]
    st["hand"][:, :] = np.array(case["hands"], np.uint8)
    if not case["ein_free"]:
        st["ein"] = case["payers"][-1]
    held = [(list(map(int, cd["skill_icons"][st["char"][p], c])), bool(cd["skill_is_or"][st["char"][p], c]))
            for p in case["payers"] for c in range(8) if st["hand"][p, c]]
    return state, cards, held


@SETTINGS
@given(case=payments)
def test_plan_payment_only_proposes_real_payments(case):
    state, cards, held = _payment_case(case)
    st, cd = state[0], cards[0]
    count, sel = plan_payment(state, cards, case["payers"], case["req"])
    if count < 0:
        return
    assert len(set(sel)) == len(sel)
    chosen = []
    for seat, card in sel:
        assert seat in case["payers"]
        if card == EIN:
            assert case["ein_free"] and seat == case["payers"][0]
        else:
            assert st["hand"][seat, card]
            chosen.append((list(map(int, cd["skill_icons"][st["char"][seat], card])),
                           bool(cd["skill_is_or"][st["char"][seat], card])))
    assert _cover(chosen, case["req"], any(c == EIN for _, c in sel))
    assert _cover(held, case["req"], case["ein_free"])


SPIKE_OR_AND = {"payers": [0], "hands": [[False] * 4 + [True, False, True, False]] + [[False] * 8] * 3,
                "ein_free": False, "req": [1, 0, 0, 1]}


@SETTINGS
@example(case=SPIKE_OR_AND)
@given(case=payments)
def test_plan_payment_finds_every_payment_that_exists(case):
    state, cards, held = _payment_case(case)
    count, _ = plan_payment(state, cards, case["payers"], case["req"])
    assert (count >= 0) == _cover(held, case["req"], case["ein_free"])

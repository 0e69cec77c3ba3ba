"""Helpers for the Bossin' Space kernel tests: build a state, script it, apply one rule, check it.

Every kernel call passes the same argument types (records as `array[0]`, ints as np.int64, the log
as an int32 (1000, 6) array) so each rule function compiles once per session (then loads from
NUMBA_CACHE_DIR). States are one-element STATE_DTYPE arrays; tests edit `state[0]` fields directly.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from boardsim.games.bossin import game as G
from boardsim.games.bossin import play_nb as PL
from boardsim.games.bossin import policies_nb as P
from boardsim.games.bossin import rules_nb as R
from boardsim.games.bossin import state_nb as S
from boardsim.runner import kernel_view

POLICIES = {"random": np.int64(P.POLICY_RANDOM), "heuristic": np.int64(P.POLICY_HEURISTIC),
            "open-hands": np.int64(P.POLICY_OPEN)}
LOG_ROWS = 1000
I = np.int64


@lru_cache(maxsize=1)
def card_set():
    return G.load_cards()


def cards_rec() -> np.ndarray:
    return kernel_view(G.cards_record(card_set()))


def rules_dict(**params) -> dict:
    return G.GAME.resolve(params.pop("preset", None), params)


def rules_rec(**params) -> np.ndarray:
    return kernel_view(G.rules_record(rules_dict(**params)))


def weights() -> np.ndarray:
    return P.DEFAULT_WEIGHTS.copy()


def new_log() -> np.ndarray:
    return np.zeros((LOG_ROWS, S.LOG_WIDTH), dtype=np.int32)


def new_state(seed: int = 1, game_index: int = 0, **params):
    """A freshly set-up game: (state, cards, rules), each a one-element record array."""
    state = kernel_view(np.zeros(1, S.STATE_DTYPE))
    cards, rules = cards_rec(), rules_rec(**params)
    with np.errstate(over="ignore"):
        PL.setup(state[0], cards[0], rules[0], np.uint64(seed), I(game_index))
    return state, cards, rules


def blank(**params):
    """A set-up game with an empty board, ship in column 2 (index 1), no hazards on the timeline."""
    state, cards, rules = new_state(**params)
    st = state[0]
    st["board"][:] = -1
    st["blen"][:] = 0
    return state, cards, rules


def enemy(name: str, nth: int = 0) -> int:
    ids = [i for i, n in enumerate(card_set().enemy_names) if n == name]
    return ids[nth]


def put(state, col: int, names_or_ids) -> None:
    """Column `col` (0-based) holds these cards, farthest from the ship first."""
    st = state[0]
    ids = [enemy(x) if isinstance(x, str) else x for x in names_or_ids]
    st["board"][col, :] = -1
    st["board"][col, :len(ids)] = ids
    st["blen"][col] = len(ids)
    # the cards on the board are no longer in the enemy deck or discard pile
    deck = [int(e) for e in st["edeck"][:st["edeck_n"]] if e not in ids]
    st["edeck"][:len(deck)] = deck
    st["edeck_n"] = len(deck)


def column(state, col: int) -> list[str]:
    st = state[0]
    return [card_set().enemy_names[int(e)] for e in st["board"][col, :st["blen"][col]]]


def stack_enemy_deck(state, names, boss_below: bool = True) -> None:
    """The enemy deck holds exactly these cards, the first name on top (the Boss card under them)."""
    st = state[0]
    ids = [enemy(n) if isinstance(n, str) else n for n in names]
    deck = ([S.BOSS_CARD] if boss_below else []) + list(reversed(ids))
    st["edeck"][:len(deck)] = deck
    st["edeck_n"] = len(deck)


def boss_in_play(state, cards, boss: int = 0, col: int = 1, hp: int | None = None, side: int = 0) -> None:
    st = state[0]
    st["boss"] = boss
    st["boss_state"] = S.BOSS_IN_PLAY
    st["boss_col"] = col
    st["boss_hp"] = cards[0]["boss_health"][boss] if hp is None else hp
    st["boss_side"] = side


def hazard_id(label: str) -> int:
    return card_set().hazard_labels.index(label)


# ------------------------------------------------------------------------------ single rules
def command(state, cards, rules, kind: int, a: int = 0, b: int = 0) -> bool:
    return bool(R.resolve_command(state[0], cards[0], rules[0], I(kind), I(a), I(b), new_log()))


def hazard(state, cards, rules, label: str) -> None:
    R.resolve_hazard(state[0], cards[0], rules[0], I(hazard_id(label)), new_log())


def effect(state, cards, rules, name: str, fx: int) -> bool:
    return bool(R.enemy_effect(state[0], cards[0], rules[0], I(enemy(name) if isinstance(name, str) else name),
                               I(fx), new_log()))


def boss_effect(state, cards, rules, fx: int) -> None:
    R.boss_effect(state[0], cards[0], rules[0], I(fx), new_log())


def play_round(state, cards, rules, policy: str = "heuristic") -> int:
    scratch = kernel_view(np.zeros(1, S.STATE_DTYPE))
    with np.errstate(over="ignore"):
        PL.play_round(state[0], cards[0], rules[0], weights(), POLICIES[policy], scratch, new_log())
    return int(state[0]["outcome"])


def warm() -> None:
    state, cards, rules = blank()
    command(state, cards, rules, S.C_SHOOT)
    hazard(state, cards, rules, "silence")
    effect(state, cards, rules, 0, S.F_HEAT)
    boss_effect(state, cards, rules, S.F_HEAT)
    play_round(*new_state())


@pytest.fixture(scope="session")
def bossin_kernels():
    """Session fixture: compile/load the kernels once before the first test that needs them."""
    warm()


# ------------------------------------------------------------------------------ invariants
def check_invariants(state, cards, rules) -> list[str]:
    """Bookkeeping that must hold between rounds; returns the problems found."""
    st, cd, ru = state[0], cards[0], rules[0]
    problems = []
    cap = S.N_ROWS - int(st["blocked"])
    on_board = []
    for c in range(S.N_COLS):
        n = int(st["blen"][c])
        if not 0 <= n <= cap:
            problems.append(f"column {c} holds {n} cards, room for {cap}")
        col = [int(x) for x in st["board"][c]]
        if any(x < 0 or x >= int(cd["n_enemies"]) for x in col[:n]) or any(x != -1 for x in col[n:]):
            problems.append(f"column {c} is not a packed stack: {col} (len {n})")
        on_board += col[:n]
    deck = [int(x) for x in st["edeck"][:st["edeck_n"]]]
    disc = [int(x) for x in st["edisc"][:st["edisc_n"]]]
    enemies = on_board + [x for x in deck if x != S.BOSS_CARD] + disc
    if len(enemies) != len(set(enemies)):
        problems.append("an enemy card is in two places")
    big = 0 if int(ru["players"]) <= 2 else 1
    tiers = [int(t) if t >= 0 else int(cd["tiers"][big, i]) for i, t in enumerate(ru["tiers"])]
    if len(enemies) != sum(tiers):
        problems.append(f"{len(enemies)} enemy cards in play, {sum(tiers)} dealt")
    if deck.count(S.BOSS_CARD) + (st["boss_state"] != S.BOSS_UNSEEN) != 1:
        problems.append("the Boss card is lost or doubled")
    hands = sum(int(st["hand_n"][s]) for s in range(int(ru["players"])))
    cmds = int(st["cdeck_n"]) + int(st["cdisc_n"]) + hands + int(st["upile_n"])
    if cmds != int(cd["n_base"]) + int(cd["n_upg"]):
        problems.append(f"{cmds} command cards, {int(cd['n_base']) + int(cd['n_upg'])} in the game")
    in_game = sum(1 for h in range(int(cd["n_haz"])) if cd["hz_kind"][h] != S.H_HELP or ru["easy"])
    hz = int(st["hdeck_n"]) + int(st["hdisc_n"]) + int((st["timeline"] >= 0).sum())
    if hz != in_game:
        problems.append(f"{hz} hazard cards, {in_game} in the game")
    if not 0 <= st["heat"] <= ru["overheat"] - 1:
        problems.append(f"heat {st['heat']}")
    if not 0 <= st["health"] <= st["max_health"] <= ru["start_health"] + cd["extra_health"]:
        problems.append(f"health {st['health']} of {st['max_health']}")
    if st["outcome"] < 0 and st["health"] == 0:
        problems.append("health 0 but the game goes on")
    if st["cubes"] != sum(int(x) for x in st["levels"]) + int(st["pending"]) and st["cubes"] < S.N_CUBES:
        problems.append(f"{st['cubes']} cubes, levels {list(st['levels'])}")
    return problems

"""Cowboy Bebop: Boardgame Boogie: parameters, presets, and the bridge from Python to the kernels."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from boardsim._jit import kernel_source_hash
from boardsim.game_bridge import make_batch, override_weights, read_policy, simulate_batch
from boardsim.game_bridge import outcome_frame as bridge_outcome_frame
from boardsim.game_bridge import play_logged as bridge_play_logged
from boardsim.spec import Batch, GameSpec, Margin, ParamSpec, WeightSpec

from . import cards as cards_mod
from .vocab import CHARACTERS

GAME_VERSION = "1.0"

PARAMS = (
    ParamSpec("characters", "team", ("spike", "jet"),
              "the crew, one character per player in turn order; solo play is a team of two", 2, 4, CHARACTERS),
    ParamSpec("vicious", "int", 6, "Vicious cards shuffled into the event deck", 0, 8),
    ParamSpec("bounty_deck", "int", 9, "bounties dealt to form the bounty deck", 3, 18),
    ParamSpec("start_food", "int", 5, "starting Food", 0, 20),
    ParamSpec("start_fuel", "int", 5, "starting Fuel", 0, 20),
    ParamSpec("start_woolongs", "int", 5, "starting Woolongs (thousands)", 0, 20),
    ParamSpec("actions", "int", 3, "actions per turn", 1, 6),
    ParamSpec("turn_cap", "int", 300, "player turns before a game is stopped and recorded as turn_cap", 1, 5000),
)

PRESETS = {
    "waltz": {"bounty_deck": 11, "vicious": 4},
    "boogie": {"bounty_deck": 9, "vicious": 6},
    "blues": {"bounty_deck": 9, "vicious": 8},
    "real-folk-blues": {"bounty_deck": 7, "vicious": 8},
}

POLICIES = ("random", "heuristic", "custom", "rollout")
POLICY_DIR = Path(__file__).parent / "policies"   # shipped tuned weight files (`boardsim tune` output)

OUTCOME_COLUMNS = ("outcome", "win", "turns", "session_parts_done", "bounties_caught", "bounties_escaped",
                   "min_food", "food", "fuel", "woolongs", "vicious_drawn")


@lru_cache(maxsize=8)
def _cards(directory: str | None):
    return cards_mod.load_cards(directory)


def load_cards(directory: str | Path | None = None):
    return _cards(None if directory is None else str(Path(directory).resolve()))


def cards_record(cards) -> np.ndarray:
    """The card set as a one-element CARDS_DTYPE array (the kernels' view of the data)."""
    from .state_nb import CARDS_DTYPE

    rec = np.zeros(1, dtype=CARDS_DTYPE)
    for name in CARDS_DTYPE.names:
        rec[0][name] = getattr(cards, name)
    return rec


def rules_record(rules: dict[str, Any]) -> np.ndarray:
    from .state_nb import RULES_DTYPE

    rec = np.zeros(1, dtype=RULES_DTYPE)
    team = rules["characters"]
    rec["n_seats"] = len(team)
    for seat, name in enumerate(team):
        rec["seat_char"][0, seat] = CHARACTERS.index(name)
    rec["vicious"] = rules["vicious"]
    rec["bounty_deck"] = rules["bounty_deck"]
    rec["start"][0] = (rules["start_food"], rules["start_fuel"], rules["start_woolongs"])
    rec["actions"] = rules["actions"]
    rec["turn_cap"] = rules["turn_cap"]
    return rec


def policy_weights(policy: str) -> tuple[int, np.ndarray, str]:
    """Policy id, weight vector and description of a policy name, or "NAME:FILE" with a weights file
    (or a shipped one in policies/ named without its extension)."""
    from .policies_nb import DEFAULT_WEIGHTS, POLICY_IDS, WEIGHT_NAMES

    return read_policy(policy, POLICY_IDS, list(WEIGHT_NAMES), DEFAULT_WEIGHTS, POLICY_DIR)


KERNEL = "boardsim.games.bebop.batch_nb:play_games"
CODE_HASH = kernel_source_hash(Path(__file__).parent)


def prepare(rules: dict[str, Any], policy: str, cards: str | None,
            weights: dict[str, float] | None = None) -> Batch:
    """The kernel arguments and the identity of one rule setting + policy + card set.

    `weights` overrides single weights of the policy's vector by name (what `tune` searches)."""
    from .policies_nb import POLICY_IDS, WEIGHT_NAMES
    from .state_nb import OUTCOME_DTYPE, STATE_DTYPE

    card_set = load_cards(cards)
    pol, vector, described = policy_weights(policy)
    override_weights(vector, list(WEIGHT_NAMES), weights)
    args = (cards_record(card_set), rules_record(rules), vector, np.int64(pol))
    return make_batch(game="bebop", version=GAME_VERSION, code_hash=CODE_HASH, kernel=KERNEL, rules=rules,
                      described=described, vector=None if pol == POLICY_IDS["random"] else vector,
                      weight_names=list(WEIGHT_NAMES), tuned=bool(weights), card_set=card_set, args=args,
                      state_dtype=STATE_DTYPE, out_dtype=OUTCOME_DTYPE)


def outcome_frame(rows: np.ndarray, seed: int, first_index: int) -> pd.DataFrame:
    from .state_nb import OUTCOME_NAMES

    return bridge_outcome_frame(rows, seed, first_index, OUTCOME_NAMES)


def simulate(rules: dict[str, Any], n: int, seed: int, policy: str, cards: str | None,
             threads: int | None, progress: Callable[[int], None] | None, first_index: int = 0) -> pd.DataFrame:
    return simulate_batch(prepare(rules, policy, cards), outcome_frame, n, seed, threads, progress, first_index)


def play_logged(batch: Batch, seed: int, game_index: int, log_capacity: int = 200_000):
    """Play one game of a prepared Batch with its event log; returns (outcome row, log rows, state)."""
    from .rules_nb import play_game
    from .state_nb import LOG_WIDTH

    return bridge_play_logged(batch, play_game, LOG_WIDTH, seed, game_index, log_capacity)


def play_one(rules: dict[str, Any], seed: int, game_index: int, policy: str, cards: str | None,
             log_capacity: int = 200_000):
    """Play one game with its event log; returns (outcome row, log rows, card set, state)."""
    row, log, state = play_logged(prepare(rules, policy, cards), seed, game_index, log_capacity)
    return row, log, load_cards(cards), state


def trajectory(batch: Batch, seed: int, game_index: int) -> pd.DataFrame:
    """Resources and progress at the end of every player turn of one game (for report figures)."""
    from .state_nb import LOG_RES, LOG_RESULT, LOG_TURN

    _, log, _ = play_logged(batch, seed, game_index)
    rows = []
    turn = parts = caught = 0
    for code, _seat, a, b, c, _d in log.tolist():
        if code == LOG_TURN:
            turn = a
        elif code == LOG_RESULT and c:  # a = 0: a session part, a = 1: a chase, c = 1 if it succeeded
            parts += a == 0
            caught += a == 1
        elif code == LOG_RES:
            rows.append((turn, a, b, c, parts, caught))
    return pd.DataFrame(rows, columns=["turn", "food", "fuel", "woolongs", "session_parts_done", "bounties_caught"])


def trace(rules: dict[str, Any], seed: int, game_index: int, policy: str, cards: str | None) -> list[str]:
    from .trace import describe_game

    row, log, card_set, _ = play_one(rules, seed, game_index, policy, cards)
    header = (f"Cowboy Bebop: seed {seed}, game {game_index}, crew {','.join(rules['characters'])}, "
              f"{rules['bounty_deck']} bounties, {rules['vicious']} Vicious, policy {policy}")
    return [header] + describe_game(log, card_set, rules)


def tunable_weights() -> tuple[WeightSpec, ...]:
    """The heuristic's weights with the range `tune` explores: 0 up to twice the default (at least 1);
    weights read as on/off switches (above 0.5 means on) get exactly 0..1."""
    from .policies_nb import WEIGHTS

    out = []
    for name, default, meaning in WEIGHTS:
        if name.startswith("rollout_"):  # the rollout's own budget is a cost choice, not a style
            continue
        high = 1.0 if meaning.startswith("above 0.5") else max(2.0 * default, 1.0)
        out.append(WeightSpec(name, float(default), 0.0, high, meaning))
    return tuple(out)


GAME = GameSpec(
    name="bebop",
    title="Cowboy Bebop: Boardgame Boogie",
    description="Co-operative bounty hunting: complete every character's Session before the crew starves.",
    version=GAME_VERSION,
    params=PARAMS,
    presets=PRESETS,
    default_preset="boogie",
    policies=POLICIES,
    simulate=simulate,
    trace=trace,
    load_cards=load_cards,
    validate_cards=cards_mod.validate_dir,
    prepare=prepare,
    frame=outcome_frame,
    weights=tunable_weights(),
    margins=(
        Margin("session_parts_done", "Session parts", goal=lambda rules: 2 * len(rules["characters"])),
        Margin("bounties_caught", "bounties caught"),
        Margin("food", "Food left"),
    ),
    trajectory=trajectory,
)

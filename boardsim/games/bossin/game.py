"""Bossin' Space: parameters, presets, and the bridge from Python to the kernels."""
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
from .state_nb import CREW_NAMES

GAME_VERSION = "1.0"

PARAMS = (
    ParamSpec("players", "int", 2, "players (1 = solo: draw 3 play 2, draw 4 play 2, no crew)", 1, 5),
    ParamSpec("boss", "int", 0, "the Boss (1-5); 0 = a random Boss each game", 0, 5, ordered=False),
    ParamSpec("easy", "int", 0, "1 = Easy difficulty (the Help hazard cards are shuffled in)", 0, 1),
    ParamSpec("start_health", "int", 3, "health tokens at the start", 1, 5),
    ParamSpec("overheat", "int", 4, "position of the Overheat track that loses (the track starts at 1)", 2, 8),
    ParamSpec("tier1", "int", -1, "1 XP enemies in the deck; -1 = the rulebook's count for the players", -1, 10),
    ParamSpec("tier2", "int", -1, "2 XP enemies in the deck; -1 = the rulebook's count for the players", -1, 10),
    ParamSpec("tier3", "int", -1, "3 XP enemies in the deck; -1 = the rulebook's count for the players", -1, 8),
    ParamSpec("crew", "team", CREW_NAMES,
              "crew cards dealt in seat order (seat 1 gets the first; seats beyond the list get none)",
              0, 5, CREW_NAMES),
    ParamSpec("round_cap", "int", 60, "rounds before a game is stopped and recorded as round_cap", 1, 1000),
)

PRESETS = {
    "easy": {"easy": 1},
    "normal": {"easy": 0},
}

POLICIES = ("random", "heuristic", "open-hands", "rollout")
POLICY_DIR = Path(__file__).parent / "policies"

OUTCOME_COLUMNS = ("outcome", "win", "turns", "boss", "boss_health_left", "boss_damage", "boss_reached_round", "health",
                   "overheat", "xp", "upgrades_bought", "enemies_destroyed", "enemies_left")


@lru_cache(maxsize=8)
def _cards(directory: str | None):
    return cards_mod.load_cards(directory)


def load_cards(directory: str | Path | None = None):
    return _cards(None if directory is None else str(Path(directory).resolve()))


def cards_record(cards) -> np.ndarray:
    from .state_nb import CARDS_DTYPE

    rec = np.zeros(1, dtype=CARDS_DTYPE)
    for name in CARDS_DTYPE.names:
        rec[0][name] = cards.arrays[name]
    return rec


def rules_record(rules: dict[str, Any]) -> np.ndarray:
    from .state_nb import RULES_DTYPE

    rec = np.zeros(1, dtype=RULES_DTYPE)
    rec["players"] = rules["players"]
    rec["boss"] = rules["boss"]
    rec["easy"] = rules["easy"]
    rec["start_health"] = rules["start_health"]
    rec["overheat"] = rules["overheat"]
    rec["tiers"][0] = (rules["tier1"], rules["tier2"], rules["tier3"])
    rec["seat_crew"][0] = -1
    for seat, name in enumerate(rules["crew"][:5]):
        rec["seat_crew"][0, seat] = CREW_NAMES.index(name)
    rec["round_cap"] = rules["round_cap"]
    return rec


def policy_weights(policy: str) -> tuple[int, np.ndarray, str]:
    """Policy id, weight vector and description of a policy name, or "NAME:FILE" with a weights file
    (or a shipped one in policies/ named without its extension)."""
    from .policies_nb import DEFAULT_WEIGHTS, POLICY_IDS, WEIGHT_NAMES

    return read_policy(policy, POLICY_IDS, list(WEIGHT_NAMES), DEFAULT_WEIGHTS, POLICY_DIR)


KERNEL = "boardsim.games.bossin.batch_nb:play_games"
CODE_HASH = kernel_source_hash(Path(__file__).parent)


def prepare(rules: dict[str, Any], policy: str, cards: str | None,
            weights: dict[str, float] | None = None) -> Batch:
    """Kernel arguments and identity of one rule setting + policy + card set."""
    from .policies_nb import POLICY_IDS, WEIGHT_NAMES
    from .state_nb import OUTCOME_DTYPE, STATE_DTYPE

    card_set = load_cards(cards)
    pol, vector, described = policy_weights(policy)
    override_weights(vector, list(WEIGHT_NAMES), weights)
    args = (cards_record(card_set), rules_record(rules), vector, np.int64(pol))
    return make_batch(game="bossin", version=GAME_VERSION, code_hash=CODE_HASH, kernel=KERNEL, rules=rules,
                      described=described, vector=None if pol == POLICY_IDS["random"] else vector,
                      weight_names=list(WEIGHT_NAMES), tuned=bool(weights), card_set=card_set, args=args,
                      state_dtype=STATE_DTYPE, out_dtype=OUTCOME_DTYPE)


def outcome_frame(rows: np.ndarray, seed: int, first_index: int) -> pd.DataFrame:
    from .state_nb import OUTCOME_NAMES

    return bridge_outcome_frame(rows, seed, first_index, OUTCOME_NAMES)


def simulate(rules: dict[str, Any], n: int, seed: int, policy: str, cards: str | None,
             threads: int | None, progress: Callable[[int], None] | None, first_index: int = 0) -> pd.DataFrame:
    return simulate_batch(prepare(rules, policy, cards), outcome_frame, n, seed, threads, progress, first_index)


def play_logged(batch: Batch, seed: int, game_index: int, log_capacity: int = 100_000):
    """Play one game of a prepared Batch with its event log; returns (outcome row, log rows, state)."""
    from .play_nb import play_game
    from .state_nb import LOG_WIDTH

    return bridge_play_logged(batch, play_game, LOG_WIDTH, seed, game_index, log_capacity)


def play_one(rules: dict[str, Any], seed: int, game_index: int, policy: str, cards: str | None,
             log_capacity: int = 100_000):
    """Play one game with its event log; returns (outcome row, log rows, card set, final state)."""
    row, log, state = play_logged(prepare(rules, policy, cards), seed, game_index, log_capacity)
    return row, log, load_cards(cards), state


def trajectory(batch: Batch, seed: int, game_index: int) -> pd.DataFrame:
    """Health, heat, XP and the Boss's health at the end of every round of one game (for reports)."""
    from .state_nb import LOG_KILL, LOG_STATUS

    _, log, _ = play_logged(batch, seed, game_index)
    rows, rnd, kills = [], 0, 0
    for code, _seat, a, b, c, d in log.tolist():
        if code == LOG_KILL:
            kills += 1
        elif code == LOG_STATUS:
            rnd += 1
            rows.append((rnd, a, b, c, d, kills))
    return pd.DataFrame(rows, columns=["turn", "health", "overheat", "xp", "boss_health", "enemies_destroyed"])


def trace(rules: dict[str, Any], seed: int, game_index: int, policy: str, cards: str | None) -> list[str]:
    from .trace import describe_game

    row, log, card_set, _ = play_one(rules, seed, game_index, policy, cards)
    header = (f"Bossin' Space: seed {seed}, game {game_index}, {rules['players']} player"
              f"{'s' if rules['players'] != 1 else ''}, {'easy' if rules['easy'] else 'normal'}, "
              f"Boss {card_set.boss_names[int(row['boss']) - 1]}, policy {policy}")
    return [header] + describe_game(log, card_set, rules)


def tunable_weights() -> tuple[WeightSpec, ...]:
    """The heuristic's weights with the range `tune` explores: 0 up to twice the default (at least 1).
    The rollout_* weights are the rollout's budget and leaf, a cost choice rather than a style: not tuned."""
    from .policies_nb import WEIGHTS

    return tuple(WeightSpec(name, float(default), 0.0, max(2.0 * default, 1.0), meaning)
                 for name, default, meaning in WEIGHTS if not name.startswith("rollout_"))


GAME = GameSpec(
    name="bossin",
    title="Bossin' Space",
    description="Co-operative space shooter with hidden hands: play commands secretly, survive the hazards, "
                "defeat the Boss.",
    version=GAME_VERSION,
    params=PARAMS,
    presets=PRESETS,
    default_preset="normal",
    policies=POLICIES,
    simulate=simulate,
    trace=trace,
    load_cards=load_cards,
    validate_cards=cards_mod.validate_dir,
    prepare=prepare,
    frame=outcome_frame,
    weights=tunable_weights(),
    margins=(
        Margin("boss_health_left", "Boss health points", remaining=True),
        Margin("enemies_destroyed", "enemies destroyed"),
        Margin("upgrades_bought", "upgrades bought"),
    ),
    trajectory=trajectory,
)

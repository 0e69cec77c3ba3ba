"""The friendly API: validate, then hand over to the game's own simulate/trace."""
from __future__ import annotations

from typing import Any, Callable

import pandas as pd

from .errors import ParamError
from .registry import get_game


def _checked(game, preset, params, characters, seed, policy) -> dict[str, Any]:
    """Validate what simulate and trace share; return the resolved rules."""
    merged = dict(params or {})
    if characters is not None:
        merged[game.team_param()] = characters
    rules = game.resolve(preset, merged)
    if not 0 <= int(seed) < 2**63:
        raise ParamError(f"seed: {seed}; allowed: an integer 0..2**63-1")
    if policy.split(":")[0] not in game.policies:
        raise ParamError(f"policy '{policy}' unknown for {game.name}; allowed: {', '.join(game.policies)}")
    return rules


def simulate(
    game: str,
    preset: str | None = None,
    params: dict[str, Any] | None = None,
    characters: str | list[str] | tuple[str, ...] | None = None,
    n: int = 1000,
    seed: int = 0,
    policy: str = "heuristic",
    cards: str | None = None,
    threads: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Simulate `n` games and return one row per game.

    `preset` applies a named difficulty, `params` overrides single parameters, `characters` is a
    team such as "spike,jet" (it sets the game's team parameter: Bebop's characters, Bossin's
    crew). Game g of seed s is the same game whatever `threads` is, so results are reproducible on
    any machine. `cards` is a directory of replacement card-data files.
    `progress(k)` is called with the number of games just finished. The returned frame's
    `attrs["provenance"]` records seed, rules, policy, card-data hash and versions.
    """
    spec = get_game(game)
    rules = _checked(spec, preset, params, characters, seed, policy)
    if int(n) < 1:
        raise ParamError(f"n: {n} games requested; allowed: an integer >= 1")
    if threads is not None and int(threads) < 1:
        raise ParamError(f"threads: {threads}; allowed: an integer >= 1")
    return spec.simulate(rules=rules, n=int(n), seed=int(seed), policy=policy, cards=cards,
                         threads=threads, progress=progress)


def trace(
    game: str,
    seed: int = 0,
    game_index: int = 0,
    preset: str | None = None,
    params: dict[str, Any] | None = None,
    characters: str | list[str] | tuple[str, ...] | None = None,
    policy: str = "heuristic",
    cards: str | None = None,
) -> list[str]:
    """Play game `game_index` of `seed` once and return its turn-by-turn account as lines.

    The traced game is the very game that `simulate(..., seed=seed)` plays as row `game_index`.
    """
    spec = get_game(game)
    rules = _checked(spec, preset, params, characters, seed, policy)
    if int(game_index) < 0:
        raise ParamError(f"game_index: {game_index}; allowed: an integer >= 0")
    return spec.trace(rules=rules, seed=int(seed), game_index=int(game_index), policy=policy, cards=cards)

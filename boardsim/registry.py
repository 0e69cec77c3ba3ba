"""The one place a game is registered.

Games are imported lazily, so `boardsim games` or a CLI error does not pay for compiling kernels.
"""
from __future__ import annotations

import importlib

from .errors import BoardsimError
from .spec import GameSpec

# name -> module that defines `GAME: GameSpec`
GAME_MODULES = {
    "bebop": "boardsim.games.bebop.game",
    "bossin": "boardsim.games.bossin.game",
}

_loaded: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    """Register a game object directly (used by tests and by third-party games)."""
    _loaded[spec.name] = spec


def get_game(name: str) -> GameSpec:
    key = name.strip().lower()
    if key not in _loaded:
        if key not in GAME_MODULES:
            raise BoardsimError(f"unknown game '{name}'; allowed: {', '.join(game_names())}")
        _loaded[key] = importlib.import_module(GAME_MODULES[key]).GAME
    return _loaded[key]


def game_names() -> list[str]:
    return sorted(set(GAME_MODULES) | set(_loaded))


def list_games() -> list[GameSpec]:
    return [get_game(name) for name in game_names()]

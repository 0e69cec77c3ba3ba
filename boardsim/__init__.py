"""boardsim: Monte Carlo balance analysis for tabletop games."""
from __future__ import annotations

__version__ = "0.1.0"

from .errors import BoardsimError, CardDataError, ParamError  # noqa: E402
from .registry import get_game, list_games  # noqa: E402
from .api import simulate, trace  # noqa: E402
from .store import load_results  # noqa: E402
from .summarize import paired_comparisons, store_summary  # noqa: E402
from .sweep import sweep  # noqa: E402

__all__ = [
    "__version__", "BoardsimError", "CardDataError", "ParamError",
    "get_game", "list_games", "simulate", "trace", "sweep", "load_results", "store_summary",
    "paired_comparisons",
]

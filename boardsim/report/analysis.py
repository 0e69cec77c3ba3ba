"""Declarative analyses: an `analyses/NAME.toml` file says what to play; `run_analysis` plays it
(resuming from its store) and builds its report.

File format (every key is checked; an unknown or malformed one is a one-line AnalysisError):

    title = "..."                 # required
    game = "bebop"                # required
    description = "..."           # optional, shown under the title
    seed = 1                      # root seed shared by every study (common random numbers)
    policy = "heuristic"          # default policy of every study
    games = 2000                  # default games per point, or
    precision = 0.01              #   play until each 95% CI half-width is at most this
    max_games = 50000             #   (cap per point with precision)
    cards = "my-cards/"           # card-data directory, relative to this file (default: shipped)
    sections = ["presets", ...]   # report sections to build (default: all of SECTIONS)

    [target]
    win_rate = [0.15, 0.35]       # band every preset should fall in, and/or per preset:
    presets = { waltz = [0.3, 0.5] }

    [trace]
    games = 40                    # games replayed per point for the trajectory figure
    points = 4                    # how many of the first study's points to trace

    [[study]]                     # one or more; the first is the headline study
    name = "presets"              # required, unique
    title = "..."
    grid = { preset = "waltz,boogie", characters = ["spike+jet", "spike+jet+faye"] }
    zip = false                   # axes side by side instead of the full product
    preset = "boogie"             # fixed rules the grid does not vary
    params = { vicious = 6 }
    policy, games, precision, max_games   # override the file's defaults
"""
from __future__ import annotations

import json
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import BoardsimError

SECTIONS = ("presets", "heatmap", "survival", "losses", "characters", "length", "trajectories",
            "findings", "provenance")

TOP_KEYS = {"title", "game", "description", "seed", "policy", "games", "precision", "max_games", "cards",
            "sections", "target", "trace", "study"}
STUDY_KEYS = {"name", "title", "grid", "zip", "preset", "params", "characters", "policy", "games",
              "precision", "max_games"}
TARGET_KEYS = {"win_rate", "presets"}
TRACE_KEYS = {"games", "points"}


class AnalysisError(BoardsimError):
    """A malformed analysis file."""


@dataclass(frozen=True)
class Study:
    name: str
    title: str
    grid: dict[str, Any]
    zip: bool = False
    preset: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    policy: str = "heuristic"
    games: int | None = None
    precision: float | None = None
    max_games: int | None = None


@dataclass(frozen=True)
class Analysis:
    name: str
    path: Path | None
    title: str
    game: str
    description: str
    seed: int
    studies: tuple[Study, ...]
    sections: tuple[str, ...] = SECTIONS
    cards: str | None = None
    target: tuple[float, float] | None = None
    preset_targets: dict[str, tuple[float, float]] = field(default_factory=dict)
    trace_games: int = 40
    trace_points: int = 4


def _fail(path: Path, key: str, message: str) -> AnalysisError:
    return AnalysisError(f"{path}: field '{key}' {message}")


def _check_keys(path: Path, table: dict, allowed: set[str], where: str) -> None:
    for key in table:
        if key not in allowed:
            raise _fail(path, where + key, f"is unknown; allowed: {', '.join(sorted(allowed))}")


def _int(path: Path, key: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        allowed = f"an integer {low}..{high}" if high is not None else f"an integer >= {low}"
        raise _fail(path, key, f"is {value!r}; allowed: {allowed}")
    return value


def _str(path: Path, key: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(path, key, f"is {value!r}; allowed: a non-empty string")
    return value.strip()


def _band(path: Path, key: str, value: Any) -> tuple[float, float]:
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
          and 0 <= value[0] <= value[1] <= 1)
    if not ok:
        raise _fail(path, key, f"is {value!r}; allowed: [low, high] win rates with 0 <= low <= high <= 1")
    return float(value[0]), float(value[1])


def _games_fields(path: Path, table: dict, where: str, defaults: dict[str, Any]) -> dict[str, Any]:
    out = dict(defaults)
    if "games" in table:
        out["games"] = _int(path, where + "games", table["games"], 1)
        out["precision"] = None
    if "precision" in table:
        value = table["precision"]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 0.5:
            raise _fail(path, where + "precision", f"is {value!r}; allowed: a CI half-width between 0 and 0.5")
        if "games" in table:
            raise _fail(path, where + "precision", "given together with 'games'; allowed: one of the two")
        out["precision"] = float(value)
        out["games"] = None
    if "max_games" in table:
        out["max_games"] = _int(path, where + "max_games", table["max_games"], 1)
    return out


def load_analysis(path: str | Path) -> Analysis:
    """Read and check an analysis file; every problem is a one-line AnalysisError naming the key."""
    from ..grid import parse_grid
    from ..registry import get_game

    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise AnalysisError(f"{path}: cannot read the analysis file ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise AnalysisError(f"{path}: not valid TOML ({exc})") from None
    _check_keys(path, data, TOP_KEYS, "")
    for key in ("title", "game"):
        if key not in data:
            raise _fail(path, key, "is missing; it is required")
    title = _str(path, "title", data["title"])
    try:
        spec = get_game(_str(path, "game", data["game"]))
    except BoardsimError as exc:
        raise _fail(path, "game", str(exc).replace("unknown game", "names an unknown game")) from None
    seed = _int(path, "seed", data.get("seed", 1), 0, 2**63 - 1)
    policy = _str(path, "policy", data.get("policy", "heuristic"))
    defaults = _games_fields(path, data, "", {"games": 2000, "precision": None, "max_games": None})
    cards = None
    if "cards" in data:
        cards_dir = (path.parent / _str(path, "cards", data["cards"])).resolve()
        if not cards_dir.is_dir():
            raise _fail(path, "cards", f"is {data['cards']!r}, not a directory (relative to {path.parent})")
        cards = str(cards_dir)
    sections = data.get("sections", list(SECTIONS))
    if not isinstance(sections, list) or not sections:
        raise _fail(path, "sections", f"is {sections!r}; allowed: a list of {', '.join(SECTIONS)}")
    for section in sections:
        if section not in SECTIONS:
            raise _fail(path, "sections", f"names {section!r}; allowed: {', '.join(SECTIONS)}")

    target = None
    preset_targets: dict[str, tuple[float, float]] = {}
    if "target" in data:
        table = data["target"]
        if not isinstance(table, dict):
            raise _fail(path, "target", "must be a table ([target])")
        _check_keys(path, table, TARGET_KEYS, "target.")
        if "win_rate" in table:
            target = _band(path, "target.win_rate", table["win_rate"])
        presets = table.get("presets", {})
        if not isinstance(presets, dict):
            raise _fail(path, "target.presets", "must be a table of preset = [low, high]")
        for name, band in presets.items():
            if name not in spec.presets:
                raise _fail(path, f"target.presets.{name}", f"is not a preset; allowed: {', '.join(spec.presets)}")
            preset_targets[name] = _band(path, f"target.presets.{name}", band)

    trace = data.get("trace", {})
    if not isinstance(trace, dict):
        raise _fail(path, "trace", "must be a table ([trace])")
    _check_keys(path, trace, TRACE_KEYS, "trace.")
    trace_games = _int(path, "trace.games", trace.get("games", 40), 1, 10_000)
    trace_points = _int(path, "trace.points", trace.get("points", 4), 0, 24)

    raw_studies = data.get("study")
    if not isinstance(raw_studies, list) or not raw_studies:
        raise _fail(path, "study", "is missing; allowed: one or more [[study]] tables")
    studies = []
    for index, raw in enumerate(raw_studies):
        where = f"study[{index}]."
        if not isinstance(raw, dict):
            raise _fail(path, f"study[{index}]", "must be a table ([[study]])")
        _check_keys(path, raw, STUDY_KEYS, where)
        if "name" not in raw or "grid" not in raw:
            raise _fail(path, where + ("name" if "name" not in raw else "grid"), "is missing; it is required")
        name = _str(path, where + "name", raw["name"])
        if any(s.name == name for s in studies):
            raise _fail(path, where + "name", f"{name!r} is used twice; allowed: unique study names")
        grid = raw["grid"]
        if not isinstance(grid, dict) or not grid:
            raise _fail(path, where + "grid", "must be a non-empty table of axis = values")
        grid = {k: (",".join(map(str, v)) if isinstance(v, list) else v) for k, v in grid.items()}
        params = raw.get("params", {})
        if not isinstance(params, dict):
            raise _fail(path, where + "params", "must be a table of parameter = value")
        if "characters" in raw:
            params = {**params, "characters": raw["characters"]}
        preset = raw.get("preset")
        study_policy = _str(path, where + "policy", raw.get("policy", policy))
        counts = _games_fields(path, raw, where, defaults)
        if not isinstance(raw.get("zip", False), bool):
            raise _fail(path, where + "zip", f"is {raw['zip']!r}; allowed: true or false")
        study = Study(name, str(raw.get("title", name)), grid, bool(raw.get("zip", False)),
                      None if preset is None else _str(path, where + "preset", preset), dict(params), study_policy,
                      counts["games"], counts["precision"], counts["max_games"])
        # check the grid, preset and params now, so a typo fails before any game is played
        try:
            parse_grid(spec, grid)
            spec.resolve(study.preset, {k: v for k, v in study.params.items() if k not in grid})
        except BoardsimError as exc:
            raise _fail(path, where + "grid", f"is invalid: {exc}") from None
        if study_policy.split(":")[0] not in spec.policies:
            raise _fail(path, where + "policy", f"is {study_policy!r}; allowed: {', '.join(spec.policies)}")
        studies.append(study)

    return Analysis(path.stem, path, title, spec.name, str(data.get("description", "")), seed, tuple(studies),
                    tuple(sections), cards, target, preset_targets, trace_games, trace_points)


def default_store(analysis: Analysis) -> Path:
    return Path("runs") / analysis.name


def run_analysis(analysis: Analysis, store: str | Path | None = None, workers: int | None = None,
                 scheduler: str | None = None, dask_local: int | None = None,
                 progress: Callable[[str, Any], None] | None = None):
    """Play every study of an analysis into one result store (resuming whatever is there).

    Returns (studies, interrupted, seconds): each study as (Study, SweepResult). A Ctrl-C stops
    after the study being played, keeping its finished chunks."""
    from ..sweep import sweep

    store = Path(store) if store is not None else default_store(analysis)
    results = []
    started = time.perf_counter()
    played = 0
    interrupted = False
    for study in analysis.studies:
        result = sweep(analysis.game, study.grid, n=study.games, seed=analysis.seed, policy=study.policy,
                       preset=study.preset, params=study.params, cards=analysis.cards, store=store,
                       precision=study.precision, max_games=study.max_games,
                       mode="zip" if study.zip else "product", workers=workers, scheduler=scheduler,
                       dask_local=dask_local,
                       progress=None if progress is None else (lambda status, s=study: progress(s.name, status)))
        results.append((study, result))
        played += result.games_played
        if result.interrupted:
            interrupted = True
            break
    seconds = time.perf_counter() - started
    _log_run(store, analysis, played, seconds, interrupted)
    return results, interrupted, seconds


RUN_LOG = "analysis-runs.jsonl"


def _log_run(store: Path, analysis: Analysis, played: int, seconds: float, interrupted: bool) -> None:
    """Append this run to the store's run log: a report's provenance shows the compute time."""
    entry = {"analysis": analysis.name, "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
             "games_played": played, "seconds": round(seconds, 1), "interrupted": interrupted}
    with open(store / RUN_LOG, "a") as handle:
        handle.write(json.dumps(entry) + "\n")


def read_run_log(store: str | Path) -> list[dict[str, Any]]:
    log = Path(store) / RUN_LOG
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out

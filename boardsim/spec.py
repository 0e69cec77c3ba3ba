"""Parameter and game specifications: the single source of truth for a game's rule parameters.

A game declares its parameters (name, kind, range, default) and named presets once; the CLI, the
API and the sweep machinery all validate against that declaration, so an out-of-range value gets
the same one-line error wherever it comes from.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .errors import ParamError


@dataclass(frozen=True)
class ParamSpec:
    """One rule parameter.

    kind is "int" (low..high inclusive) or "team" (distinct names from `choices`, between low and
    high of them; written "spike,jet" or "spike+jet").
    """

    name: str
    kind: str
    default: Any
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    ordered: bool = True  # False for an integer that only labels things (which Boss): no trend along it

    def allowed(self) -> str:
        if self.kind == "int":
            return f"an integer {self.low}..{self.high}"
        if self.kind == "team":
            return f"{self.low}-{self.high} distinct of {', '.join(self.choices)}"
        raise AssertionError(self.kind)

    def parse(self, value: Any, where: str = "") -> Any:
        """Validate and normalise a value (from the CLI, a preset, a dict); raise ParamError."""
        prefix = f"{where}parameter '{self.name}'"
        if self.kind == "int":
            try:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError
                number = int(value)
            except (TypeError, ValueError):
                raise ParamError(f"{prefix}: {value!r} is not an integer; allowed: {self.allowed()}") from None
            if not self.low <= number <= self.high:
                raise ParamError(f"{prefix}: {number} is out of range; allowed: {self.allowed()}")
            return number
        if self.kind == "team":
            if isinstance(value, str):
                names = [part.strip().lower() for part in value.replace("+", ",").split(",") if part.strip()]
            else:
                names = [str(part).strip().lower() for part in value]
            unknown = [n for n in names if n not in self.choices]
            if unknown:
                raise ParamError(f"{prefix}: unknown name {unknown[0]!r}; allowed: {self.allowed()}")
            if len(set(names)) != len(names):
                raise ParamError(f"{prefix}: names must be distinct, got {','.join(names)}; allowed: {self.allowed()}")
            if not self.low <= len(names) <= self.high:
                raise ParamError(f"{prefix}: {len(names)} given; allowed: {self.allowed()}")
            return tuple(names)
        raise AssertionError(self.kind)

    def format(self, value: Any) -> str:
        return ",".join(self.parse(value)) if self.kind == "team" else str(value)


@dataclass(frozen=True)
class WeightSpec:
    """One tunable weight of a game's heuristic policy, with the range a search may explore."""

    name: str
    default: float
    low: float
    high: float
    help: str = ""


@dataclass(frozen=True)
class Margin:
    """An outcome column that says how close a lost game came to winning (a report's near-miss
    section). Either `goal(rules)` is the value a win needs (more is closer), or `remaining` says
    the column already counts what was still missing (0 is a win, less is closer); or neither, and
    the report just shows the column's mean over lost games."""

    column: str
    label: str
    goal: Callable[[dict[str, Any]], float] | None = None
    remaining: bool = False

    def shortfall(self, values, rules: dict[str, Any]):
        """How much each lost game still needed (None when the margin has no goal)."""
        if self.remaining:
            return values
        return None if self.goal is None else self.goal(rules) - values


@dataclass(frozen=True)
class Batch:
    """One grid point made ready to play: everything a worker needs, with no file paths.

    `kernel` names the game's batch kernel as "module:function"; it is called as
    kernel(*args, root_seed, first_index, state, log, out) and fills `out` (one `out_dtype` row
    per game). Only numpy values travel, so a Batch pickles to a Dask worker on another machine.

    `identity` is everything that decides the numbers (game and code version, rules, policy and
    weights, card-data hash); the result store keys results by its hash, so results of changed
    cards or rules are never mixed with old ones. `provenance` adds what is shown but does not
    change a number (package version, whether cards are reconstructed).
    """

    kernel: str
    args: tuple
    state_dtype: np.dtype
    out_dtype: np.dtype
    identity: dict[str, Any]
    provenance: dict[str, Any]

    @property
    def key(self) -> str:
        return identity_key(self.identity)


def identity_key(identity: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class GameSpec:
    """Everything the shared machinery needs to know about one game.

    The callables are the game's own: `simulate(rules, n, seed, policy, cards, threads, progress)`
    returns a DataFrame; `trace(rules, seed, game_index, policy, cards)` returns readable lines;
    `load_cards(dir)` returns the game's card set (with `.data_hash`), `validate_cards(dir)` a list
    of one-line problems; `prepare(rules, policy, cards)` returns a `Batch` and
    `frame(rows, seed, first_index)` turns its outcome rows into the game's result DataFrame (with
    at least `seed`, `game_index`, `outcome`, `win` and `turns`). Sweeps use only the last two.
    `weights` lists the heuristic's tunable weights; `prepare(..., weights={name: value})` plays
    with some of them changed (what `boardsim tune` searches over).

    For reports (optional): `margins` lists the near-miss columns of lost games; `trajectory(batch,
    seed, game_index)` replays one game of a Batch and returns a DataFrame with a row per turn
    (`turn` plus the game's resources and progress counters).
    """

    name: str
    title: str
    description: str
    version: str
    params: tuple[ParamSpec, ...]
    presets: dict[str, dict[str, Any]]
    default_preset: str
    policies: tuple[str, ...]
    simulate: Callable[..., Any] = field(repr=False)
    trace: Callable[..., Any] = field(repr=False)
    load_cards: Callable[..., Any] = field(repr=False)
    validate_cards: Callable[..., Any] = field(repr=False)
    prepare: Callable[..., Batch] = field(repr=False)
    frame: Callable[..., Any] = field(repr=False)
    weights: tuple[WeightSpec, ...] = ()
    margins: tuple[Margin, ...] = ()
    trajectory: Callable[..., Any] | None = field(default=None, repr=False)

    def param(self, name: str) -> ParamSpec:
        for spec in self.params:
            if spec.name == name:
                return spec
        raise ParamError(
            f"game '{self.name}' has no parameter '{name}'; allowed: {', '.join(p.name for p in self.params)}"
        )

    def team_param(self) -> str:
        """The parameter that `characters=` / `--characters` sets: the game's first "team" parameter
        (Bebop's `characters`, Bossin' Space's `crew`)."""
        for spec in self.params:
            if spec.kind == "team":
                return spec.name
        raise ParamError(f"game '{self.name}' has no team parameter for --characters; "
                         f"allowed: {', '.join(p.name for p in self.params)} with --param")

    def resolve(self, preset: str | None = None, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Defaults, then the preset (the game's default preset if none), then explicit params."""
        rules = {spec.name: spec.default for spec in self.params}
        if preset is None:
            preset = self.default_preset
        if preset is not None:
            key = preset.strip().lower()
            if key not in self.presets:
                raise ParamError(
                    f"game '{self.name}' has no preset '{preset}'; allowed: {', '.join(self.presets)}"
                )
            rules.update(self.presets[key])
        for name, value in (params or {}).items():
            rules[name] = self.param(name).parse(value)
        return {spec.name: spec.parse(rules[spec.name]) for spec in self.params}


def parse_assignments(items: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Turn ["vicious=4", "bounty_deck=9"] into a dict; a malformed item is a ParamError."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ParamError(f"parameter {item!r}: expected NAME=VALUE, e.g. vicious=6")
        out[name.strip().replace("-", "_")] = value.strip()
    return out

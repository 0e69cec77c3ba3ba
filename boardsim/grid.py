"""Sweep grids: `vicious=0..8`, `bounty_deck=7,9,11`, `characters=all-pairs`, `preset=...`, `policy=...`.

An axis is a rule parameter of the game, `preset` or `policy`; values are checked against the
game's own ParamSpec, so a grid gets the same one-line errors as `simulate`. Points are the full
product of the axes by default, or the axes taken side by side with mode="zip".
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from .errors import ParamError
from .spec import GameSpec, ParamSpec

GridInput = str | list[str] | tuple[str, ...] | dict[str, Any]


@dataclass(frozen=True)
class Axis:
    name: str
    values: tuple[Any, ...]
    labels: tuple[str, ...]


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _int_values(param: ParamSpec, raw: Any) -> list[int]:
    if not isinstance(raw, str):
        items = list(raw) if isinstance(raw, (list, tuple, range)) else [raw]
        return [param.parse(v, "grid: ") for v in items]
    values: list[int] = []
    for part in _split(raw):
        if ".." in part:
            bounds = part.split("..")
            if len(bounds) not in (2, 3) or not all(b.strip().lstrip("-").isdigit() for b in bounds):
                raise ParamError(f"grid: parameter '{param.name}': {part!r} is not a range; "
                                 "write LOW..HIGH or LOW..HIGH..STEP, e.g. 0..8")
            low, high = param.parse(bounds[0], "grid: "), param.parse(bounds[1], "grid: ")
            step = int(bounds[2]) if len(bounds) == 3 else 1
            if step < 1 or high < low:
                raise ParamError(f"grid: parameter '{param.name}': {part!r} is an empty range; "
                                 "write LOW..HIGH with LOW <= HIGH and a positive step")
            values += list(range(low, high + 1, step))
        else:
            values.append(param.parse(part, "grid: "))
    return values


def _team_values(param: ParamSpec, raw: Any) -> list[tuple[str, ...]]:
    if not isinstance(raw, str):
        return [param.parse(v, "grid: ") for v in raw]
    text = raw.strip().lower()
    if text == "all-pairs":
        text = "all-teams:2"
    if text.startswith("all-teams"):
        _, _, size = text.partition(":")
        sizes = range(param.low, param.high + 1)
        if size:
            if not size.isdigit() or int(size) not in sizes:
                raise ParamError(f"grid: parameter '{param.name}': team size {size!r} is not allowed; "
                                 f"allowed: {param.low}..{param.high}")
            sizes = [int(size)]
        return [team for k in sizes for team in itertools.combinations(param.choices, k)]
    # "spike+jet,faye+ed": commas separate teams, + joins the members of one team
    return [param.parse(part, "grid: ") for part in _split(text)]


def parse_axis(game: GameSpec, name: str, raw: Any) -> Axis:
    name = name.strip().replace("-", "_")
    if name == "preset":
        values = _split(raw) if isinstance(raw, str) else [str(v) for v in raw]
        for value in values:
            if value.lower() not in game.presets:
                raise ParamError(f"grid: game '{game.name}' has no preset '{value}'; "
                                 f"allowed: {', '.join(game.presets)}")
        values = [v.lower() for v in values]
        labels = values
    elif name == "policy":
        values = _split(raw) if isinstance(raw, str) else [str(v) for v in raw]
        for value in values:
            if value.split(":")[0] not in game.policies:
                raise ParamError(f"grid: policy '{value}' unknown for {game.name}; "
                                 f"allowed: {', '.join(game.policies)}")
        labels = values
    else:
        try:
            param = game.param(name)
        except ParamError:
            allowed = ", ".join([p.name for p in game.params] + ["preset", "policy"])
            raise ParamError(f"grid: game '{game.name}' has no parameter '{name}'; allowed: {allowed}") from None
        values = _team_values(param, raw) if param.kind == "team" else _int_values(param, raw)
        # a team reads "spike+jet" in tables, as in the grid syntax where commas separate teams
        labels = ["+".join(v) if param.kind == "team" else param.format(v) for v in values]
    if not values:
        raise ParamError(f"grid: axis '{name}' has no values")
    if len(set(labels)) != len(labels):
        raise ParamError(f"grid: axis '{name}' repeats a value ({', '.join(labels)})")
    return Axis(name, tuple(values), tuple(labels))


def parse_grid(game: GameSpec, grid: GridInput) -> list[Axis]:
    """Axes from {"vicious": "0..8"}, ["vicious=0..8", "bounty_deck=7,9"] or "vicious=0..8 bounty_deck=7,9"."""
    if isinstance(grid, str):
        grid = grid.split()
    if isinstance(grid, dict):
        items = list(grid.items())
    else:
        items = []
        for item in grid:
            name, sep, raw = str(item).partition("=")
            if not sep or not name.strip():
                raise ParamError(f"grid: {item!r}: expected NAME=VALUES, e.g. vicious=0..8")
            items.append((name, raw))
    axes = [parse_axis(game, name, raw) for name, raw in items]
    if not axes:
        raise ParamError("grid: the grid is empty; give at least one axis, e.g. vicious=0..8")
    names = [axis.name for axis in axes]
    for name in names:
        if names.count(name) > 1:
            raise ParamError(f"grid: axis '{name}' is given twice")
    return axes


def grid_points(axes: list[Axis], mode: str = "product") -> list[dict[str, Any]]:
    """Each point as {axis name: value}, in axis order (the first axis varies slowest)."""
    if mode == "product":
        combos = itertools.product(*(axis.values for axis in axes))
    elif mode == "zip":
        lengths = {axis.name: len(axis.values) for axis in axes}
        if len(set(lengths.values())) > 1:
            shown = ", ".join(f"{k}={v}" for k, v in lengths.items())
            raise ParamError(f"grid: zip needs axes of equal length; got {shown}")
        combos = zip(*(axis.values for axis in axes))
    else:
        raise ParamError(f"grid mode '{mode}' unknown; allowed: product, zip")
    return [dict(zip((axis.name for axis in axes), combo)) for combo in combos]

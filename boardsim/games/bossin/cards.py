"""Load and validate Bossin' Space card data (TOML) into numpy arrays for the kernels.

Every problem is one line naming the file, the card, the field and what is allowed. A directory
given with --cards replaces only the files it holds; the rest come from the shipped data.
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardsim.errors import CardDataError

from . import state_nb as S

DATA_DIR = Path(__file__).parent / "data"
FILES = ("board.toml", "enemies.toml", "bosses.toml", "commands.toml", "hazards.toml", "crew.toml")
_IGNORED_SUFFIXES = {".md", ".txt"}


@dataclass(frozen=True)
class BossinCards:
    enemy_names: tuple[str, ...]
    boss_names: tuple[str, ...]
    hazard_labels: tuple[str, ...]
    crew_names: tuple[str, ...]
    arrays: dict                 # CARDS_DTYPE field -> value
    reconstructed: dict          # file kind -> tuple of reconstructed card names
    data_hash: str
    source: dict


def _one_line(text: str) -> str:
    return re.sub(r"\s*[\r\n]+\s*", " ", str(text)).strip()


class _Rep:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, text: str) -> None:
        self.problems.append(_one_line(text))


def _tname(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


class _Card:
    """One card table being read; problems name file, card and field."""

    def __init__(self, rep: _Rep, file: str, kind: str, name: str, table: Any):
        self.rep, self.file, self.kind, self.name = rep, file, kind, name
        self.t = table if isinstance(table, dict) else {}
        if not isinstance(table, dict):
            self.err("", f"{_tname(table)} where a table is needed", "a table")

    def err(self, key: str, problem: str, allowed: str | None = None) -> None:
        who = f"{self.kind} '{self.name}' " if self.kind else ""
        text = f"{self.file}: {who}field '{key}': {problem}"
        self.rep.add(text + (f"; allowed: {allowed}" if allowed else ""))

    def keys(self, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
        every = required + optional + ("reconstructed", "note")
        for key in self.t:
            if key not in every:
                self.err(key, "unknown key", ", ".join(every))
        for key in required:
            if key not in self.t:
                self.err(key, "missing")
        if "reconstructed" in self.t and not isinstance(self.t["reconstructed"], bool):
            self.err("reconstructed", f"{_tname(self.t['reconstructed'])}, not a boolean", "true, false")

    @property
    def reconstructed(self) -> bool:
        return self.t.get("reconstructed") is True

    def int(self, key: str, low: int, high: int, default: int | None = None, value: Any = None) -> int:
        if value is None:
            if key not in self.t:
                return low if default is None else default  # a missing required key is reported by keys()
            value = self.t[key]
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            self.err(key, f"{value!r} is not allowed", f"an integer {low}..{high}")
            return low
        return value

    def boolean(self, key: str) -> bool:
        value = self.t.get(key, False)
        if not isinstance(value, bool):
            self.err(key, f"{value!r} is not a boolean", "true, false")
            return False
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: str | None = None) -> int:
        value = self.t.get(key, default)
        if value not in choices:
            self.err(key, f"{value!r} is not allowed", ", ".join(choices))
            return 0
        return choices.index(value)

    def int_list(self, key: str, length: int, low: int, high: int, value: Any = None, where: str | None = None) -> list[int]:
        value = self.t.get(key) if value is None else value
        key = where or key
        if value is None:
            return [low] * length
        if not isinstance(value, list) or len(value) != length:
            self.err(key, f"{value!r} is not a list of {length} integers", f"{length} integers {low}..{high}")
            return [low] * length
        return [self.int(key, low, high, value=v) for v in value]

    def effects(self, key: str, choices: tuple[str, ...], value: Any = None, where: str | None = None) -> list[int]:
        value = self.t.get(key, []) if value is None else value
        key = where or key
        if not isinstance(value, list) or len(value) > S.MAX_FX:
            self.err(key, f"{value!r} is not a list of at most {S.MAX_FX} effects", ", ".join(choices))
            return []
        out = []
        for item in value:
            if item not in choices:
                self.err(key, f"unknown effect {item!r}", ", ".join(choices))
                continue
            out.append(S.EFFECT_NAMES.index(item))
        return out


def _cards_list(rep: _Rep, file: str, data: dict, key: str, kind: str) -> list[_Card]:
    items = data.get(key)
    if not isinstance(items, list) or not items:
        rep.add(f"{file}: field '{key}': missing or empty; allowed: a list of {kind} tables")
        return []
    return [_Card(rep, file, kind, str(t.get("name", f"#{i + 1}")) if isinstance(t, dict) else f"#{i + 1}", t)
            for i, t in enumerate(items)]


def _parse_board(rep: _Rep, data: dict, out: dict) -> None:
    b = _Card(rep, "board.toml", "", "", data)
    b.keys(("columns", "enemy_rows", "ship_start_column", "extra_health",
            "tiers_1_2_players", "tiers_3_5_players", "upgrade_costs_1_2_players", "upgrade_costs_3_5_players",
            "rockets", "laser", "cooling", "deck_cards_per_level"))
    b.int("columns", S.N_COLS, S.N_COLS)
    b.int("enemy_rows", S.N_ROWS, S.N_ROWS)
    out["ship_start"] = b.int("ship_start_column", 1, S.N_COLS) - 1
    out["extra_health"] = b.int("extra_health", 0, 2)
    out["tiers"] = [b.int_list("tiers_1_2_players", 3, 0, 20), b.int_list("tiers_3_5_players", 3, 0, 20)]
    out["upgrade_costs"] = [b.int_list("upgrade_costs_1_2_players", S.N_CUBES, 1, 30),
                            b.int_list("upgrade_costs_3_5_players", S.N_CUBES, 1, 30)]
    out["rockets"] = b.int_list("rockets", 4, 1, 9)
    out["laser"] = b.int_list("laser", 4, 1, 9)
    out["cooling"] = b.int_list("cooling", 4, 1, 9)
    out["deck_per_level"] = b.int("deck_cards_per_level", 0, 4)
    out["rec_board"] = ("upgrade costs",)


def _parse_enemies(rep: _Rep, data: dict, out: dict) -> None:
    cards = _cards_list(rep, "enemies.toml", data, "enemy", "enemy")
    if len(cards) > S.MAX_ENEMIES:
        rep.add(f"enemies.toml: field 'enemy': {len(cards)} cards; allowed: at most {S.MAX_ENEMIES}")
        cards = cards[:S.MAX_ENEMIES]
    names, rows, rec = [], [], []
    for c in cards:
        c.keys(("name", "xp", "attack", "health"), ("shield", "effects"))
        names.append(c.name)
        rows.append((c.int("xp", 1, 3), c.int("attack", 0, 9), c.int("health", 1, 9), int(c.boolean("shield")),
                     c.effects("effects", S.ENEMY_EFFECTS)))
        if c.reconstructed:
            rec.append(c.name)
    out["enemy_names"], out["enemy_rows"], out["rec_enemies"] = tuple(names), rows, tuple(rec)


def _parse_bosses(rep: _Rep, data: dict, out: dict) -> None:
    cards = _cards_list(rep, "bosses.toml", data, "boss", "boss")
    if cards and len(cards) != S.N_BOSSES:
        rep.add(f"bosses.toml: field 'boss': {len(cards)} bosses; allowed: exactly {S.N_BOSSES}")
    names, rows, rec = [], [], []
    for c in cards[:S.N_BOSSES]:
        c.keys(("name", "health", "sides", "hazards"))
        names.append(c.name)
        sides = c.t.get("sides")
        attack, shield, prefer = [1, 1], [0, 0], [-1, 1]
        if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(s, dict) for s in sides):
            c.err("sides", f"{sides!r} is not a list of two side tables", "[{attack, shield, prefer}, {...}]")
        else:
            for i, side in enumerate(sides):
                sc = _Card(rep, "bosses.toml", "boss", c.name, side)
                for key in side:
                    if key not in ("attack", "shield", "prefer"):
                        c.err(f"sides[{i}].{key}", "unknown key", "attack, shield, prefer")
                attack[i] = sc.int("attack", 0, 9, default=1)
                shield[i] = int(sc.boolean("shield"))
                prefer[i] = (-1, 1)[sc.choice("prefer", ("left", "right"), "left")]
        fx = [[0, 0] for _ in range(4)]
        hz = c.t.get("hazards")
        if not isinstance(hz, list) or len(hz) != 4 or not all(isinstance(h, dict) for h in hz):
            c.err("hazards", f"{hz!r} is not a list of four hazard tables", "four {position, effects} tables")
        else:
            seen = set()
            for i, h in enumerate(hz):
                pos = c.int(f"hazards[{i}].position", 1, 4, value=h.get("position", 0))
                if pos in seen:
                    c.err(f"hazards[{i}].position", f"position {pos} is used twice", "each of 1, 2, 3, 4 once")
                seen.add(pos)
                codes = c.effects("effects", S.BOSS_EFFECTS, value=h.get("effects", []), where=f"hazards[{i}].effects")
                fx[pos - 1] = codes + [0] * (S.MAX_FX - len(codes))
        rows.append((c.int("health", 1, 30), attack, shield, prefer, fx))
        if c.reconstructed:
            rec.append(c.name)
    out["boss_names"], out["boss_rows"], out["rec_bosses"] = tuple(names), rows, tuple(rec)


def _parse_commands(rep: _Rep, data: dict, out: dict) -> None:
    cards = _cards_list(rep, "commands.toml", data, "command", "command")
    base, upg, rec = [], [], []
    for c in cards:
        c.name = str(c.t.get("kind", c.name))
        c.keys(("kind", "deck", "count"))
        kind = c.choice("kind", S.CMD_NAMES)
        deck = c.choice("deck", ("base", "upgraded"))
        count = c.int("count", 1, 20)
        (base if deck == 0 else upg).extend([kind] * count)
        if c.reconstructed:
            rec.append(f"{c.t.get('deck')} {c.name}")
    if len(base) < 8 or len(base) > S.MAX_CMD:
        rep.add(f"commands.toml: field 'count': {len(base)} base cards in all; allowed: 8..{S.MAX_CMD}")
    if len(upg) > S.MAX_UPG:
        rep.add(f"commands.toml: field 'count': {len(upg)} upgraded cards in all; allowed: at most {S.MAX_UPG}")
    out["base_cmds"], out["upg_cmds"], out["rec_commands"] = base, upg, tuple(rec)


def _parse_hazards(rep: _Rep, data: dict, out: dict) -> None:
    cards = _cards_list(rep, "hazards.toml", data, "hazard", "hazard")
    rows, labels, rec = [], [], []
    for c in cards:
        c.name = str(c.t.get("kind", c.name))
        kind_name = c.t.get("kind")
        optional = {"attack": ("columns", "count"), "move": ("from", "to", "count"),
                    "help": ("columns", "bonus", "count")}.get(kind_name, ("count",))
        c.keys(("kind",), optional)
        kind = c.choice("kind", S.HAZARD_NAMES)
        count = c.int("count", 1, 12, default=1)
        cols = [0, 0, 0, 0]
        frm = to = bonus = 0
        label = kind_name
        if kind in (S.H_ATTACK, S.H_HELP):
            marked = c.t.get("columns")
            if not isinstance(marked, list) or not marked:
                c.err("columns", f"{marked!r} is not a list of columns", "a list of columns 1..4")
            else:
                for col in marked:
                    cols[c.int("columns", 1, 4, value=col) - 1] = 1
            label += " " + "".join(str(i + 1) for i in range(4) if cols[i])
        if kind == S.H_HELP:
            bonus = c.choice("bonus", ("xp", "heal"))
            label += f" ({('xp', 'heal')[bonus]})"
        if kind == S.H_MOVE:
            frm = c.int("from", 1, 4) - 1
            to = c.int("to", 1, 4) - 1
            if abs(frm - to) != 1:
                c.err("to", f"{to + 1} is not next to column {frm + 1}", "an adjacent column")
            label += f" {frm + 1}->{to + 1}"
        rows.extend([(kind, cols, frm, to, bonus)] * count)
        labels.extend([label] * count)
        if c.reconstructed:
            rec.append(label)
    if len(rows) > S.MAX_HAZ:
        rep.add(f"hazards.toml: field 'count': {len(rows)} hazard cards; allowed: at most {S.MAX_HAZ}")
    if rows and sum(1 for r in rows if r[0] != S.H_HELP) < 4:
        rep.add("hazards.toml: field 'kind': fewer than 4 non-Help hazard cards; allowed: at least 4")
    out["hazard_rows"], out["hazard_labels"], out["rec_hazards"] = rows, tuple(labels), tuple(rec)


def _parse_crew(rep: _Rep, data: dict, out: dict) -> None:
    cards = _cards_list(rep, "crew.toml", data, "crew", "crew")
    names = []
    for c in cards:
        c.keys(("name", "ability"))
        name = c.t.get("name")
        if name not in S.CREW_NAMES:
            c.err("name", f"{name!r} is not a crew card the rules know", ", ".join(S.CREW_NAMES))
        names.append(name)
    if sorted(n for n in names if n in S.CREW_NAMES) != sorted(S.CREW_NAMES):
        rep.add(f"crew.toml: field 'name': each crew card must appear once; allowed: {', '.join(S.CREW_NAMES)}")
    out["crew_names"] = tuple(names)


_PARSERS = {"board.toml": _parse_board, "enemies.toml": _parse_enemies, "bosses.toml": _parse_bosses,
            "commands.toml": _parse_commands, "hazards.toml": _parse_hazards, "crew.toml": _parse_crew}


def _sources(directory, rep: _Rep) -> dict[str, Path] | None:
    sources = {name: DATA_DIR / name for name in FILES}
    if directory is None:
        return sources
    path = Path(directory)
    if not path.is_dir():
        rep.add(f"cards directory '{path}' is not a directory; allowed: a directory holding some of {', '.join(FILES)}")
        return None
    for entry in sorted(path.iterdir()):
        if entry.name.startswith(".") or entry.is_dir():
            continue
        if entry.name in FILES:
            sources[entry.name] = entry
        elif entry.suffix.lower() not in _IGNORED_SUFFIXES:
            rep.add(f"{entry.name}: unexpected file in cards directory '{path}'; allowed: {', '.join(FILES)} "
                    "(and .md/.txt notes)")
    return sources


def _arrays(out: dict) -> dict:
    a: dict[str, Any] = {}
    rows = out["enemy_rows"]
    n = len(rows)
    a["n_enemies"] = n
    for key in ("en_xp", "en_attack", "en_health", "en_shield"):
        a[key] = np.zeros(S.MAX_ENEMIES + 1, dtype=np.int8)
    a["en_fx"] = np.zeros((S.MAX_ENEMIES + 1, S.MAX_FX), dtype=np.int8)
    for i, (xp, attack, health, shield, fx) in enumerate(rows):
        a["en_xp"][i], a["en_attack"][i], a["en_health"][i], a["en_shield"][i] = xp, attack, health, shield
        a["en_fx"][i, :len(fx)] = fx
    # the planner's stand-in for an unseen card: an average enemy with no effects
    a["en_xp"][S.PHANTOM] = max(1, round(np.mean([r[0] for r in rows])))
    a["en_attack"][S.PHANTOM] = max(1, round(np.mean([r[1] for r in rows])))
    a["en_health"][S.PHANTOM] = max(1, round(np.mean([r[2] for r in rows])))
    a["n_base"], a["base_cmds"] = len(out["base_cmds"]), np.zeros(S.MAX_CMD, dtype=np.int8)
    a["base_cmds"][:len(out["base_cmds"])] = out["base_cmds"]
    a["n_upg"], a["upg_cmds"] = len(out["upg_cmds"]), np.zeros(S.MAX_UPG, dtype=np.int8)
    a["upg_cmds"][:len(out["upg_cmds"])] = out["upg_cmds"]
    hz = out["hazard_rows"]
    a["n_haz"] = len(hz)
    a["hz_kind"] = np.zeros(S.MAX_HAZ, dtype=np.int8)
    a["hz_cols"] = np.zeros((S.MAX_HAZ, 4), dtype=np.int8)
    a["hz_from"], a["hz_to"], a["hz_bonus"] = (np.zeros(S.MAX_HAZ, dtype=np.int8) for _ in range(3))
    for i, (kind, cols, frm, to, bonus) in enumerate(hz):
        a["hz_kind"][i], a["hz_cols"][i], a["hz_from"][i], a["hz_to"][i], a["hz_bonus"][i] = kind, cols, frm, to, bonus
    b = out["boss_rows"]
    a["boss_health"] = np.array([r[0] for r in b], dtype=np.int8)
    a["boss_attack"] = np.array([r[1] for r in b], dtype=np.int8)
    a["boss_shield"] = np.array([r[2] for r in b], dtype=np.int8)
    a["boss_prefer"] = np.array([r[3] for r in b], dtype=np.int8)
    a["boss_fx"] = np.array([r[4] for r in b], dtype=np.int8)
    for key in ("ship_start", "extra_health", "deck_per_level"):
        a[key] = out[key]
    for key in ("tiers", "upgrade_costs", "rockets", "laser", "cooling"):
        a[key] = np.array(out[key], dtype=np.int8)
    return a


def _load(directory) -> tuple[BossinCards | None, list[str]]:
    rep = _Rep()
    sources = _sources(directory, rep)
    if sources is None:
        return None, rep.problems
    out: dict[str, Any] = {}
    digest = hashlib.sha256()
    for name in FILES:
        try:
            raw = sources[name].read_bytes()
            digest.update(raw)
            data = tomllib.loads(raw.decode("utf-8"))
        except OSError as exc:
            rep.add(f"{name}: cannot read '{sources[name]}': {exc.strerror or exc}")
            continue
        except UnicodeDecodeError as exc:
            rep.add(f"{name}: not valid UTF-8 (byte {exc.start}); allowed: UTF-8 TOML")
            continue
        except tomllib.TOMLDecodeError as exc:
            rep.add(f"{name}: TOML syntax error: {_one_line(str(exc))}")
            continue
        _PARSERS[name](rep, data, out)
    if not rep.problems:
        counts = [sum(1 for r in out["enemy_rows"] if r[0] == xp) for xp in (1, 2, 3)]
        for t, label in ((0, "1-2"), (1, "3-5")):
            for xp in range(3):
                if out["tiers"][t][xp] > counts[xp]:
                    rep.add(f"board.toml: field 'tiers_{label.replace('-', '_')}_players': {out['tiers'][t][xp]} "
                            f"cards of {xp + 1} XP needed but enemies.toml has {counts[xp]}; allowed: at most {counts[xp]}")
    if rep.problems:
        return None, rep.problems
    cards = BossinCards(
        enemy_names=out["enemy_names"], boss_names=out["boss_names"], hazard_labels=out["hazard_labels"],
        crew_names=out["crew_names"], arrays=_arrays(out),
        reconstructed={"board": out["rec_board"], "enemies": out["rec_enemies"], "bosses": out["rec_bosses"],
                       "commands": out["rec_commands"], "hazards": out["rec_hazards"]},
        data_hash=digest.hexdigest()[:16], source={name: str(sources[name]) for name in FILES})
    return cards, []


def load_cards(directory=None) -> BossinCards:
    """The shipped cards with any files found in `directory` replacing theirs; CardDataError (one line)."""
    cards, problems = _load(directory)
    if problems:
        raise CardDataError(problems[0])
    return cards


def validate_dir(directory) -> list[str]:
    """Every problem with the card set `directory` (overlaid on the shipped data), one line each."""
    return list(_load(directory)[1])

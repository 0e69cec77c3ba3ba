"""Load and validate the Bebop card data (TOML) into numpy arrays for the rules kernel.

The data lives in `data/` beside this file (see data/README.md for the format). A designer can
replace any of the seven files by putting a file of the same name in a directory and passing it as
`load_cards(directory)`; files not present there come from the defaults.

Every problem is reported as ONE line:
    "<file>: <kind> '<card name>' field '<field>': <problem>; allowed: <values>"
`validate_dir` returns all problems found; `load_cards` raises CardDataError with the first.

No numba here: this module is imported by the CLI and tests without compiling anything.
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

from . import vocab as V

DATA_DIR = Path(__file__).parent / "data"
FILES = ("board.toml", "characters.toml", "bounties.toml", "events.toml", "vicious.toml", "contacts.toml",
         "sessions.toml")

# Files in a cards directory that are not card data and are ignored (designer notes).
_IGNORED_SUFFIXES = (".md", ".txt")

N_BOUNTIES = 18
N_EVENTS = 40
N_VICIOUS = 8
N_CONTACTS = 20
N_SESSIONS = 12
SESSIONS_PER_CHARACTER = 3
N_SKILL_CARDS = 8
LEAD_DECK_SIZE = 10
N_TERRAINS = 5
RINGS_PER_LOCATION = 2
ICON_MAX = 9
RESOURCE_MAX = 20
JAMS_MAX = 3
TRACK_MIN, TRACK_MAX = 2, 12

EFFECT_USAGE = {
    "spend": "spend food|fuel|woolongs N",
    "gain": "gain food|fuel|woolongs N",
    "discard": "discard SKILL N",
    "discard_random": "discard_random N",
    "discard_leads": "discard_leads N",
    "draw_leads": "draw_leads N",
    "replace_leads": "replace_leads N",
    "bounties_move": "bounties_move N",
    "bounties_back": "bounties_back N",
    "rest": "rest N",
    "no_interact": "no_interact",
    "lose_actions": "lose_actions N",
}


@dataclass(frozen=True)
class BebopCards:
    terrain_names: tuple[str, ...]
    terrain: np.ndarray          # int8 [5 sectors, 4 locations, 2] terrain ids
    track_spaces: int
    lead_deck: np.ndarray        # int8 [3 lead types, 10] value id of each card (sector id / location id / terrain id)
    skill_icons: np.ndarray      # int8 [4 chars, 8 cards, 4 skills] icon counts
    skill_is_or: np.ndarray      # bool [4, 8]   True = OR card (one icon, either skill)
    skill_labels: tuple          # per character tuple of 8 strings as written
    has_zip: np.ndarray          # bool [4]
    ability_cost: np.ndarray     # int8 [4, 3] skill index
    ability_names: tuple         # per character tuple of 3 display names
    bounty_names: tuple[str, ...]
    bounty_start: np.ndarray     # int8 [18]  1-based track space
    bounty_lead: np.ndarray      # int8 [18, 2] (lead type, value id)
    bounty_skills: np.ndarray    # int8 [18, 4]
    bounty_jams: np.ndarray      # int8 [18]
    bounty_payout: np.ndarray    # int8 [18, 3] food, fuel, woolongs
    event_names: tuple[str, ...]  # 48: the 40 normal events then the 8 Vicious
    event_top: np.ndarray        # int8 [48] 0 none 1 spend_food 2 bounties_move (0 for vicious)
    event_jam: np.ndarray        # int8 [48] skill index, -1 for vicious
    event_vicious: np.ndarray    # bool [48]
    event_n_options: np.ndarray  # int8 [48] (1 for vicious)
    event_effects: np.ndarray    # int16 [48, 2, 4, 3]  (vicious: its effects as option 0)
    contact_names: tuple[str, ...]
    contact_n_options: np.ndarray  # int8 [20]
    contact_effects: np.ndarray  # int16 [20, 2, 4, 3]
    session_names: tuple[str, ...]
    session_char: np.ndarray     # int8 [12] character index
    session_place: np.ndarray    # int8 [12, 2 parts, 2] (sector, location)
    session_skills: np.ndarray   # int8 [12, 2, 4]
    session_spend: np.ndarray    # int8 [12, 2, 3]
    session_jams: np.ndarray     # int8 [12, 2]
    reconstructed: dict          # kind -> tuple of names of reconstructed cards ("bounties": (...), ...)
    data_hash: str               # sha256 hex of the seven files' bytes (in FILES order), first 16 chars
    source: dict                 # file name -> path actually loaded


# --------------------------------------------------------------------------------------------
# effects


class EffectError(ValueError):
    """An effect string that cannot be parsed: `problem` and `allowed` make the one-line message."""

    def __init__(self, problem: str, allowed: str):
        super().__init__(f"{problem}; allowed: {allowed}")
        self.problem = problem
        self.allowed = allowed


def parse_effect(text: Any) -> tuple[int, int, int]:
    """'discard hacking 2' -> (OP_DISCARD_SKILL, 1, 2). Raise EffectError."""
    ops = ", ".join(V.OP_NAMES[1:])
    if not isinstance(text, str):
        raise EffectError(f"{text!r} is not a string", f'effect strings such as "spend woolongs 2"; ops {ops}')
    words = text.split()
    if not words:
        raise EffectError("empty effect", f"ops {ops}")
    op_name, rest = words[0], words[1:]
    if op_name not in V.OP_ARG_KIND:
        raise EffectError(f"unknown op '{op_name}' in '{text}'", ops)
    usage = EFFECT_USAGE[op_name]
    arg = 0
    kind = V.OP_ARG_KIND[op_name]
    if kind is not None:
        names = V.RESOURCES if kind == "resource" else V.SKILLS
        if not rest:
            raise EffectError(f"'{text}' is missing its {kind}", f"{usage} with {kind} one of {', '.join(names)}")
        word = rest.pop(0)
        if word not in names:
            raise EffectError(f"unknown {kind} '{word}' in '{text}'", ", ".join(names))
        arg = names.index(word)
    n = 1
    if V.OP_TAKES_N[op_name] and rest:
        word = rest.pop(0)
        if not re.fullmatch(r"[+-]?\d+", word):
            raise EffectError(f"N '{word}' in '{text}' is not an integer", f"{usage} with N {V.N_MIN}..{V.N_MAX}")
        n = int(word)
        if not V.N_MIN <= n <= V.N_MAX:
            raise EffectError(f"N {n} in '{text}' is out of range", f"{V.N_MIN}..{V.N_MAX}")
    if rest:
        raise EffectError(f"wrong number of words in '{text}'", usage)
    return V.OP_INDEX[op_name], arg, n


def describe_effect(effect_row) -> str:
    """(op, arg, n) -> the effect as written in the TOML, e.g. "discard hacking 1"."""
    op, arg, n = (int(x) for x in effect_row)
    if not 0 <= op < len(V.OP_NAMES):
        return f"unknown op {op}"
    name = V.OP_NAMES[op]
    if op == V.OP_NONE:
        return "none"
    if op == V.OP_NO_INTERACT:
        return name
    kind = V.OP_ARG_KIND[name]
    if kind is not None:
        names = V.RESOURCES if kind == "resource" else V.SKILLS
        word = names[arg] if 0 <= arg < len(names) else f"?{arg}"
        return f"{name} {word} {n}"
    return f"{name} {n}"


def parse_skill_card(text: Any) -> tuple[list[int], bool]:
    """'combat|piloting' -> ([1,0,0,1], True); 'combat+combat' -> ([2,0,0,0], False). Raise EffectError."""
    allowed = (f"a skill, 'a|b' (OR card) or 'a+b' (AND card) with skills {', '.join(V.SKILLS)}")
    if not isinstance(text, str) or not text.strip():
        raise EffectError(f"{text!r} is not a skill card string", allowed)
    if "|" in text and "+" in text:
        raise EffectError(f"'{text}' mixes '|' and '+'", allowed)
    is_or = "|" in text
    parts = [p.strip() for p in re.split(r"[|+]", text)]
    icons = [0] * len(V.SKILLS)
    for part in parts:
        if part not in V.SKILLS:
            raise EffectError(f"unknown skill '{part}' in '{text}'", allowed)
        icons[V.SKILLS.index(part)] += 1
    if is_or and max(icons) > 1:
        raise EffectError(f"OR card '{text}' repeats a skill", "distinct skills on an OR card")
    if max(icons) > ICON_MAX:
        raise EffectError(f"'{text}' has more than {ICON_MAX} icons of one skill", f"0..{ICON_MAX}")
    return icons, is_or


# --------------------------------------------------------------------------------------------
# problem collection


def _one_line(text: str) -> str:
    return re.sub(r"\s*[\r\n]+\s*", " ", str(text)).strip()


class _Report:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def add(self, text: str) -> None:
        self.problems.append(_one_line(text))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


class _Table:
    """One card (or section) being read: reports problems with file, kind, card name and field."""

    def __init__(self, rep: _Report, file: str, kind: str, name: str, table: Any, base: str = ""):
        self.rep, self.file, self.kind, self.name, self.base = rep, file, kind, name, base
        self.t = table if isinstance(table, dict) else {}
        self.ok = True

    def field(self, key: str) -> str:
        return f"{self.base}{key}"

    def err(self, key: str, problem: str, allowed: str | None = None) -> None:
        self.ok = False
        who = f"{self.kind} '{self.name}' " if self.kind else ""
        text = f"{self.file}: {who}field '{self.field(key)}': {problem}"
        if allowed is not None:
            text += f"; allowed: {allowed}"
        self.rep.add(text)

    def sub(self, key: str) -> "_Table | None":
        value = self.t.get(key)
        if key not in self.t:
            self.err(key, "missing", "a table")
            return None
        if not isinstance(value, dict):
            self.err(key, f"{_type_name(value)} where a table is needed", "a table")
            return None
        return _Table(self.rep, self.file, self.kind, self.name, value, f"{self.base}{key}.")

    def keys(self, allowed: dict[str, str], optional: tuple[str, ...] = ("reconstructed", "note")) -> None:
        """Report unknown keys (typos) and missing required keys. `allowed` maps key -> description."""
        every = list(allowed) + [k for k in optional if k not in allowed]
        for key in self.t:
            if key not in every:
                self.err(key, "unknown key", ", ".join(every))
        for key, what in allowed.items():
            if key not in self.t:
                self.err(key, "missing", what)
        if "reconstructed" in optional and "reconstructed" in self.t and not isinstance(self.t["reconstructed"], bool):
            self.err("reconstructed", f"{_type_name(self.t['reconstructed'])}, not a boolean", "true, false")
        if "note" in optional and "note" in self.t and not isinstance(self.t["note"], str):
            self.err("note", f"{_type_name(self.t['note'])}, not a string", "a string")

    def reconstructed(self) -> bool:
        value = self.t.get("reconstructed", False)
        return value if isinstance(value, bool) else False

    def string(self, key: str) -> str | None:
        if key not in self.t:
            return None  # reported by keys()
        value = self.t[key]
        if not isinstance(value, str) or not value.strip():
            self.err(key, f"{value!r} is not a non-empty string", "a non-empty string")
            return None
        return value

    def integer(self, key: str, lo: int, hi: int | None) -> int | None:
        if key not in self.t:
            return None
        value = self.t[key]
        allowed = f"an integer {lo}..{hi}" if hi is not None else f"an integer >= {lo}"
        if not _is_int(value):
            self.err(key, f"{value!r} is not an integer", allowed)
            return None
        if value < lo or (hi is not None and value > hi):
            self.err(key, f"{value} is out of range", allowed)
            return None
        return value

    def boolean(self, key: str) -> bool | None:
        if key not in self.t:
            return None
        value = self.t[key]
        if not isinstance(value, bool):
            self.err(key, f"{value!r} is not a boolean", "true, false")
            return None
        return value

    def choice(self, key: str, names: tuple[str, ...], what: str) -> int | None:
        if key not in self.t:
            return None
        value = self.t[key]
        if value not in names:
            self.err(key, f"unknown {what} {value!r}", ", ".join(names))
            return None
        return names.index(value)

    def counts(self, key: str, names: tuple[str, ...], what: str, hi: int) -> list[int] | None:
        """A table such as { combat = 2, piloting = 3 } -> counts in `names` order."""
        if key not in self.t:
            return None
        value = self.t[key]
        allowed = f"a table of {', '.join(names)} = 0..{hi}"
        if not isinstance(value, dict):
            self.err(key, f"{_type_name(value)} where a table is needed", allowed)
            return None
        out = [0] * len(names)
        good = True
        for name, number in value.items():
            if name not in names:
                self.err(key, f"unknown {what} '{name}'", ", ".join(names))
                good = False
            elif not _is_int(number) or not 0 <= number <= hi:
                self.err(key, f"{name} = {number!r} is not an integer 0..{hi}", f"0..{hi}")
                good = False
            else:
                out[names.index(name)] = number
        return out if good else None

    def options(self, key: str, single: bool = False) -> list[list[tuple[int, int, int]]] | None:
        """Parse `options` (list of 1..MAX_OPTIONS lists of effect strings) or, with single=True,
        one list of effect strings (Vicious `effects`)."""
        if key not in self.t:
            return None
        value = self.t[key]
        n_opt = "1" if single else f"1..{V.MAX_OPTIONS}"
        eff_allowed = f"1..{V.MAX_EFFECTS} effect strings"
        if single:
            if not isinstance(value, list):
                self.err(key, f"{_type_name(value)} where a list of effect strings is needed", eff_allowed)
                return None
            value = [value]
        else:
            if not isinstance(value, list) or not value:
                self.err(key, "expected a non-empty list of options (each a list of effect strings)",
                         f"{n_opt} options")
                return None
            if len(value) > V.MAX_OPTIONS:
                self.err(key, f"{len(value)} options", f"{n_opt} options")
                return None
        parsed = []
        good = True
        for i, option in enumerate(value, 1):
            where = "" if single else f"option {i}: "
            if not isinstance(option, list):
                self.err(key, f"{where}{_type_name(option)} where a list of effect strings is needed", eff_allowed)
                good = False
                continue
            if not 1 <= len(option) <= V.MAX_EFFECTS:
                self.err(key, f"{where}{len(option)} effects", eff_allowed)
                good = False
                continue
            effects = []
            for text in option:
                try:
                    effects.append(parse_effect(text))
                except EffectError as exc:
                    self.err(key, f"{where}{exc.problem}", exc.allowed)
                    good = False
            parsed.append(effects)
        return parsed if good else None


def _card_list(rep: _Report, file: str, data: dict, key: str, count: int) -> list[dict]:
    """The array of tables `key` (e.g. [[bounty]]): checks top-level keys and the exact count."""
    for top in data:
        if top != key:
            rep.add(f"{file}: field '{top}': unknown top-level key; allowed: {key} (as [[{key}]] tables)")
    cards = data.get(key)
    if cards is None:
        rep.add(f"{file}: field '{key}': missing; allowed: exactly {count} [[{key}]] tables")
        return []
    if not isinstance(cards, list) or not all(isinstance(c, dict) for c in cards):
        rep.add(f"{file}: field '{key}': must be written as [[{key}]] tables; "
                f"allowed: exactly {count} [[{key}]] tables")
        return []
    if len(cards) != count:
        rep.add(f"{file}: field '{key}': {len(cards)} cards; allowed: exactly {count}")
    return cards


def _card_name(card: dict, index: int) -> str:
    name = card.get("name")
    return name if isinstance(name, str) and name.strip() else f"#{index + 1}"


def _check_unique(rep: _Report, file: str, kind: str, names: list[str], seen: dict[str, str] | None = None) -> None:
    seen = {} if seen is None else seen
    for i, name in enumerate(names):
        if name.startswith("#"):
            continue
        if name in seen:
            rep.add(f"{file}: {kind} '{name}' field 'name': duplicate name (already used {seen[name]}); "
                    f"allowed: unique names")
        else:
            seen[name] = f"by {kind} #{i + 1} in {file}"


# --------------------------------------------------------------------------------------------
# per-file parsers (each fills `out` and records problems)


def _parse_board(rep: _Report, data: dict, out: dict) -> None:
    f = "board.toml"
    top = _Table(rep, f, "", "", data)
    top.keys({"track": "a [track] table", "terrains": "a [terrains] table", "sectors": "a [sectors] table",
              "lead_decks": "a [lead_decks] table"}, optional=())
    rec: list[str] = []

    track = top.sub("track") if "track" in data else None
    if track is not None:
        track.kind, track.name, track.base = "section", "track", ""
        track.keys({"bounty_track_spaces": f"an integer {TRACK_MIN}..{TRACK_MAX}"})
        out["track_spaces"] = track.integer("bounty_track_spaces", TRACK_MIN, TRACK_MAX)
        if track.reconstructed():
            rec.append("track")

    terrain_names = None
    terr = top.sub("terrains") if "terrains" in data else None
    if terr is not None:
        terr.kind, terr.name, terr.base = "section", "terrains", ""
        terr.keys({"names": f"a list of {N_TERRAINS} distinct lowercase names"},
                  optional=("colors", "reconstructed", "note"))
        names = terr.t.get("names")
        taken = set(V.SECTORS) | set(V.LOCATIONS)
        allowed = f"a list of {N_TERRAINS} distinct lowercase names, none a sector or location name"
        if "names" in terr.t:
            if (not isinstance(names, list) or len(names) != N_TERRAINS
                    or not all(isinstance(n, str) and re.fullmatch(r"[a-z][a-z0-9_]*", n) for n in names)):
                terr.err("names", f"{names!r} is not {N_TERRAINS} lowercase names", allowed)
            elif len(set(names)) != len(names):
                terr.err("names", "names are not distinct", allowed)
            elif taken & set(names):
                terr.err("names", f"'{sorted(taken & set(names))[0]}' is already a sector or location name", allowed)
            else:
                terrain_names = tuple(names)
        colors = terr.t.get("colors")
        if "colors" in terr.t and (not isinstance(colors, list) or not all(isinstance(c, str) for c in colors)
                                   or (terrain_names is not None and len(colors) != len(terrain_names))):
            terr.err("colors", f"{colors!r} is not one colour string per terrain name",
                     f"a list of {N_TERRAINS} strings")
        if terr.reconstructed():
            rec.append("terrains")
    out["terrain_names"] = terrain_names

    sectors = top.sub("sectors") if "sectors" in data else None
    if sectors is not None:
        sectors.kind, sectors.name, sectors.base = "section", "sectors", ""
        sectors.keys({s: f"a [sectors.{s}] table" for s in V.SECTORS})
        grid = np.full((len(V.SECTORS), len(V.LOCATIONS), RINGS_PER_LOCATION), -1, dtype=np.int8)
        for si, sector in enumerate(V.SECTORS):
            if sector not in sectors.t:
                continue
            sec = sectors.sub(sector)
            if sec is None:
                continue
            sec.keys({loc: f"a list of {RINGS_PER_LOCATION} different terrain names" for loc in V.LOCATIONS},
                     optional=("note",))
            for li, loc in enumerate(V.LOCATIONS):
                if loc not in sec.t:
                    continue
                rings = sec.t[loc]
                known = ", ".join(terrain_names) if terrain_names else "the terrain names"
                allowed = f"{RINGS_PER_LOCATION} different of {known}"
                if not isinstance(rings, list) or len(rings) != RINGS_PER_LOCATION:
                    sec.err(loc, f"{rings!r} is not a list of {RINGS_PER_LOCATION} terrain names", allowed)
                    continue
                if len(set(map(str, rings))) != len(rings):
                    sec.err(loc, f"terrains {rings!r} are not different", allowed)
                    continue
                if terrain_names is None:
                    continue
                for ri, ring in enumerate(rings):
                    if ring not in terrain_names:
                        sec.err(loc, f"unknown terrain {ring!r}", allowed)
                    else:
                        grid[si, li, ri] = terrain_names.index(ring)
        if terrain_names is not None and sectors.ok:
            used = set(int(x) for x in grid.ravel() if x >= 0)
            for ti, name in enumerate(terrain_names):
                if ti not in used:
                    sectors.err("terrain", f"terrain '{name}' appears at no location (its leads could never match)",
                                "every terrain on at least one location")
        out["terrain"] = grid
        if sectors.reconstructed():
            rec.append("sectors")

    decks = top.sub("lead_decks") if "lead_decks" in data else None
    if decks is not None:
        decks.kind, decks.name, decks.base = "section", "lead_decks", ""
        decks.keys({t: f"a list of exactly {LEAD_DECK_SIZE} {t} names" for t in V.LEAD_TYPES})
        lead = np.full((len(V.LEAD_TYPES), LEAD_DECK_SIZE), -1, dtype=np.int8)
        values_by_type = (V.SECTORS, V.LOCATIONS, terrain_names)
        for ti, lead_type in enumerate(V.LEAD_TYPES):
            if lead_type not in decks.t:
                continue
            cards = decks.t[lead_type]
            values = values_by_type[ti]
            allowed = f"exactly {LEAD_DECK_SIZE} of " + (", ".join(values) if values else "the terrain names")
            if not isinstance(cards, list):
                decks.err(lead_type, f"{_type_name(cards)} where a list is needed", allowed)
                continue
            if len(cards) != LEAD_DECK_SIZE:
                decks.err(lead_type, f"{len(cards)} cards", allowed)
                continue
            if values is None:
                continue
            for ci, card in enumerate(cards):
                if card not in values:
                    decks.err(lead_type, f"unknown {lead_type} {card!r}", allowed)
                else:
                    lead[ti, ci] = values.index(card)
        out["lead_deck"] = lead
        if decks.reconstructed():
            rec.append("lead_decks")
    out["rec_board"] = tuple(rec)


def _parse_characters(rep: _Report, data: dict, out: dict) -> None:
    f = "characters.toml"
    top = _Table(rep, f, "", "", data)
    top.keys({"characters": "a [characters.NAME] table per character", "ein": "an [ein] table"}, optional=())
    if "ein" in data:
        ein = top.sub("ein")
        if ein is not None:
            ein.kind, ein.name, ein.base = "section", "ein", ""
            ein.keys({"icons": '"wild"'}, optional=("note",))
            if "icons" in ein.t and ein.t["icons"] != "wild":
                ein.err("icons", f"{ein.t['icons']!r} is not supported", '"wild" (one icon of any skill)')

    icons = np.zeros((len(V.CHARACTERS), N_SKILL_CARDS, len(V.SKILLS)), dtype=np.int8)
    is_or = np.zeros((len(V.CHARACTERS), N_SKILL_CARDS), dtype=bool)
    has_zip = np.zeros(len(V.CHARACTERS), dtype=bool)
    cost = np.zeros((len(V.CHARACTERS), 3), dtype=np.int8)
    labels: list[tuple] = [()] * len(V.CHARACTERS)
    ab_names: list[tuple] = [()] * len(V.CHARACTERS)
    rec: list[str] = []
    chars = top.sub("characters") if "characters" in data else None
    if chars is not None:
        for key in chars.t:
            if key not in V.CHARACTERS:
                rep.add(f"{f}: field 'characters.{key}': unknown character; allowed: {', '.join(V.CHARACTERS)}")
        for ci, cname in enumerate(V.CHARACTERS):
            if cname not in chars.t:
                rep.add(f"{f}: field 'characters.{cname}': missing; allowed: a [characters.{cname}] table")
                continue
            if not isinstance(chars.t[cname], dict):
                rep.add(f"{f}: field 'characters.{cname}': {_type_name(chars.t[cname])} where a table is needed; "
                        f"allowed: a [characters.{cname}] table")
                continue
            c = _Table(rep, f, "character", cname, chars.t[cname])
            c.keys({"name": "a display name", "zip_craft": "true, false",
                    "skill_cards": f"a list of {N_SKILL_CARDS} skill card strings",
                    "abilities": "a table of the three abilities"})
            c.string("name")
            z = c.boolean("zip_craft")
            has_zip[ci] = bool(z)
            cards = c.t.get("skill_cards")
            if "skill_cards" in c.t:
                if not isinstance(cards, list) or len(cards) != N_SKILL_CARDS:
                    c.err("skill_cards", f"{len(cards) if isinstance(cards, list) else _type_name(cards)} cards",
                          f"exactly {N_SKILL_CARDS} skill card strings")
                else:
                    for k, text in enumerate(cards):
                        try:
                            vec, orc = parse_skill_card(text)
                        except EffectError as exc:
                            c.err("skill_cards", f"card {k + 1}: {exc.problem}", exc.allowed)
                            continue
                        icons[ci, k] = vec
                        is_or[ci, k] = orc
                    labels[ci] = tuple(str(x) for x in cards)
            abil = c.sub("abilities") if "abilities" in c.t else None
            if abil is not None:
                expected = V.ABILITIES[cname]
                abil.keys({a: "a table with name, cost, text" for a in expected}, optional=())
                names = []
                for ai, aname in enumerate(expected):
                    if aname not in abil.t:
                        names.append(aname)
                        continue
                    a = abil.sub(aname)
                    if a is None:
                        names.append(aname)
                        continue
                    a.keys({"name": "a display name", "cost": ", ".join(V.SKILLS), "text": "a one-line description"},
                           optional=("note",))
                    names.append(a.string("name") or aname)
                    a.string("text")
                    sk = a.choice("cost", V.SKILLS, "skill")
                    if sk is not None:
                        cost[ci, ai] = sk
                ab_names[ci] = tuple(names)
            if c.reconstructed():
                rec.append(cname)
    out.update(skill_icons=icons, skill_is_or=is_or, has_zip=has_zip, ability_cost=cost,
               skill_labels=tuple(labels), ability_names=tuple(ab_names), rec_characters=tuple(rec))


def _parse_bounties(rep: _Report, data: dict, out: dict) -> None:
    f = "bounties.toml"
    cards = _card_list(rep, f, data, "bounty", N_BOUNTIES)
    n = len(cards)
    names, rec = [], []
    start = np.zeros(n, dtype=np.int8)
    lead = np.zeros((n, 2), dtype=np.int8)
    skills = np.zeros((n, len(V.SKILLS)), dtype=np.int8)
    jams = np.zeros(n, dtype=np.int8)
    payout = np.zeros((n, len(V.RESOURCES)), dtype=np.int8)
    track = out.get("track_spaces")
    terrains = out.get("terrain_names")
    lead_deck = out.get("lead_deck")
    for i, card in enumerate(cards):
        name = _card_name(card, i)
        names.append(name)
        c = _Table(rep, f, "bounty", name, card)
        c.keys({"name": "a unique name", "reward": "flavour text", "start": "an integer 1..track spaces",
                "last_seen": "a sector, location or terrain name", "skills": "a table of skill = icons",
                "jams": f"an integer 0..{JAMS_MAX}", "payout": "a table of resource = amount"})
        c.string("name")
        c.string("reward")
        s = c.integer("start", 1, track if track else None)
        if s is not None:
            start[i] = s
        if "last_seen" in c.t:
            value = c.t["last_seen"]
            choices = [("sector", V.SECTORS), ("location", V.LOCATIONS)]
            if terrains is not None:
                choices.append(("terrain", terrains))
            found = None
            for lead_type, values in choices:
                if value in values:
                    found = (V.LEAD_TYPES.index(lead_type), values.index(value))
            if found is None:
                if terrains is not None:
                    c.err("last_seen", f"unknown lead {value!r}",
                          ", ".join(V.SECTORS + V.LOCATIONS + tuple(terrains)))
            else:
                lead[i] = found
                if lead_deck is not None and int(found[1]) not in [int(x) for x in lead_deck[found[0]]]:
                    c.err("last_seen", f"no card '{value}' in the {V.LEAD_TYPES[found[0]]} lead deck "
                                       f"(the bounty could never be located)",
                          "a value present in board.toml [lead_decks]")
        sk = c.counts("skills", V.SKILLS, "skill", ICON_MAX)
        if sk is not None:
            skills[i] = sk
        j = c.integer("jams", 0, JAMS_MAX)
        if j is not None:
            jams[i] = j
        p = c.counts("payout", V.RESOURCES, "resource", RESOURCE_MAX)
        if p is not None:
            payout[i] = p
        if c.reconstructed():
            rec.append(name)
    _check_unique(rep, f, "bounty", names)
    out.update(bounty_names=tuple(names), bounty_start=start, bounty_lead=lead, bounty_skills=skills,
               bounty_jams=jams, bounty_payout=payout, rec_bounties=tuple(rec))


def _fill_effects(target: np.ndarray, options: list[list[tuple[int, int, int]]]) -> None:
    for oi, effects in enumerate(options):
        for ei, triple in enumerate(effects):
            target[oi, ei] = triple


def _parse_events(rep: _Report, data: dict, out: dict) -> None:
    f = "events.toml"
    cards = _card_list(rep, f, data, "event", N_EVENTS)
    n = len(cards)
    names, rec = [], []
    top = np.zeros(n, dtype=np.int8)
    jam = np.zeros(n, dtype=np.int8)
    n_opt = np.zeros(n, dtype=np.int8)
    effects = np.zeros((n, V.MAX_OPTIONS, V.MAX_EFFECTS, 3), dtype=np.int16)
    for i, card in enumerate(cards):
        name = _card_name(card, i)
        names.append(name)
        c = _Table(rep, f, "event", name, card)
        c.keys({"name": "a unique name", "top": ", ".join(V.TOP_LINES), "jam": ", ".join(V.SKILLS),
                "options": f"1..{V.MAX_OPTIONS} lists of effect strings"})
        c.string("name")
        t = c.choice("top", V.TOP_LINES, "top line")
        if t is not None:
            top[i] = t
        j = c.choice("jam", V.SKILLS, "skill")
        if j is not None:
            jam[i] = j
        opts = c.options("options")
        if opts is not None:
            n_opt[i] = len(opts)
            _fill_effects(effects[i], opts)
        if c.reconstructed():
            rec.append(name)
    seen: dict[str, str] = {}
    _check_unique(rep, f, "event", names, seen)
    out["_event_seen"] = seen
    out.update(ev_names=names, ev_top=top, ev_jam=jam, ev_nopt=n_opt, ev_effects=effects, rec_events=tuple(rec))


def _parse_vicious(rep: _Report, data: dict, out: dict) -> None:
    f = "vicious.toml"
    cards = _card_list(rep, f, data, "vicious", N_VICIOUS)
    n = len(cards)
    names, rec = [], []
    effects = np.zeros((n, V.MAX_OPTIONS, V.MAX_EFFECTS, 3), dtype=np.int16)
    for i, card in enumerate(cards):
        name = _card_name(card, i)
        names.append(name)
        c = _Table(rep, f, "vicious", name, card)
        c.keys({"name": "a unique name", "effects": f"a list of 1..{V.MAX_EFFECTS} effect strings"})
        c.string("name")
        opts = c.options("effects", single=True)
        if opts is not None:
            _fill_effects(effects[i], opts)
        if c.reconstructed():
            rec.append(name)
    _check_unique(rep, f, "vicious", names, dict(out.get("_event_seen", {})))
    out.update(vi_names=names, vi_effects=effects, rec_vicious=tuple(rec))


def _parse_contacts(rep: _Report, data: dict, out: dict) -> None:
    f = "contacts.toml"
    cards = _card_list(rep, f, data, "contact", N_CONTACTS)
    n = len(cards)
    names, rec = [], []
    n_opt = np.zeros(n, dtype=np.int8)
    effects = np.zeros((n, V.MAX_OPTIONS, V.MAX_EFFECTS, 3), dtype=np.int16)
    for i, card in enumerate(cards):
        name = _card_name(card, i)
        names.append(name)
        c = _Table(rep, f, "contact", name, card)
        c.keys({"name": "a unique name", "options": f"1..{V.MAX_OPTIONS} lists of effect strings"})
        c.string("name")
        opts = c.options("options")
        if opts is not None:
            n_opt[i] = len(opts)
            _fill_effects(effects[i], opts)
        if c.reconstructed():
            rec.append(name)
    _check_unique(rep, f, "contact", names)
    out.update(contact_names=tuple(names), contact_n_options=n_opt, contact_effects=effects,
               rec_contacts=tuple(rec))


def _parse_sessions(rep: _Report, data: dict, out: dict) -> None:
    f = "sessions.toml"
    cards = _card_list(rep, f, data, "session", N_SESSIONS)
    n = len(cards)
    names, rec = [], []
    char = np.full(n, -1, dtype=np.int8)
    place = np.zeros((n, 2, 2), dtype=np.int8)
    skills = np.zeros((n, 2, len(V.SKILLS)), dtype=np.int8)
    spend = np.zeros((n, 2, len(V.RESOURCES)), dtype=np.int8)
    jams = np.zeros((n, 2), dtype=np.int8)
    part_keys = {"sector": ", ".join(V.SECTORS), "location": ", ".join(V.LOCATIONS),
                 "skills": "a table of skill = icons", "spend": "a table of resource = amount (may be {})",
                 "jams": f"an integer 0..{JAMS_MAX}"}
    for i, card in enumerate(cards):
        name = _card_name(card, i)
        names.append(name)
        c = _Table(rep, f, "session", name, card)
        c.keys({"name": "a unique name", "character": ", ".join(V.CHARACTERS),
                "part1": "a [session.part1] table", "part2": "a [session.part2] table"})
        c.string("name")
        ch = c.choice("character", V.CHARACTERS, "character")
        if ch is not None:
            char[i] = ch
        for pi, part in enumerate(("part1", "part2")):
            if part not in c.t:
                continue
            p = c.sub(part)
            if p is None:
                continue
            p.keys(part_keys, optional=("note",))
            s = p.choice("sector", V.SECTORS, "sector")
            loc = p.choice("location", V.LOCATIONS, "location")
            if s is not None:
                place[i, pi, 0] = s
            if loc is not None:
                place[i, pi, 1] = loc
            sk = p.counts("skills", V.SKILLS, "skill", ICON_MAX)
            if sk is not None:
                skills[i, pi] = sk
            sp = p.counts("spend", V.RESOURCES, "resource", RESOURCE_MAX)
            if sp is not None:
                spend[i, pi] = sp
            j = p.integer("jams", 0, JAMS_MAX)
            if j is not None:
                jams[i, pi] = j
        if c.reconstructed():
            rec.append(name)
    _check_unique(rep, f, "session", names)
    if n == N_SESSIONS:
        for ci, cname in enumerate(V.CHARACTERS):
            k = int((char == ci).sum())
            if k != SESSIONS_PER_CHARACTER:
                rep.add(f"{f}: field 'session': character '{cname}' has {k} sessions; "
                        f"allowed: exactly {SESSIONS_PER_CHARACTER} per character")
    out.update(session_names=tuple(names), session_char=char, session_place=place, session_skills=skills,
               session_spend=spend, session_jams=jams, rec_sessions=tuple(rec))


_PARSERS = {
    "board.toml": _parse_board,
    "characters.toml": _parse_characters,
    "bounties.toml": _parse_bounties,
    "events.toml": _parse_events,
    "vicious.toml": _parse_vicious,
    "contacts.toml": _parse_contacts,
    "sessions.toml": _parse_sessions,
}


# --------------------------------------------------------------------------------------------
# loading


def _sources(directory: str | Path | None, rep: _Report) -> dict[str, Path] | None:
    sources = {name: DATA_DIR / name for name in FILES}
    if directory is None:
        return sources
    path = Path(directory)
    if not path.exists():
        rep.add(f"cards directory '{path}' does not exist; allowed: a directory holding some of {', '.join(FILES)}")
        return None
    if not path.is_dir():
        rep.add(f"cards directory '{path}' is not a directory; allowed: a directory holding some of {', '.join(FILES)}")
        return None
    for entry in sorted(path.iterdir()):
        if entry.name.startswith(".") or entry.is_dir():
            continue
        if entry.name in FILES:
            sources[entry.name] = entry
        elif entry.suffix.lower() in _IGNORED_SUFFIXES:
            continue
        else:
            rep.add(f"{entry.name}: unexpected file in cards directory '{path}'; allowed: {', '.join(FILES)} "
                    f"(and .md/.txt notes)")
    return sources


def _read(rep: _Report, name: str, path: Path) -> tuple[bytes | None, dict | None]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        rep.add(f"{name}: cannot read '{path}': {exc.strerror or exc}")
        return None, None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        rep.add(f"{name}: not valid UTF-8 (byte {exc.start}); allowed: UTF-8 TOML")
        return raw, None
    try:
        return raw, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        rep.add(f"{name}: TOML syntax error: {_one_line(str(exc))}")
        return raw, None


def _load(directory: str | Path | None) -> tuple[BebopCards | None, list[str]]:
    rep = _Report()
    sources = _sources(directory, rep)
    if sources is None:
        return None, rep.problems
    out: dict[str, Any] = {}
    digest = hashlib.sha256()
    parsed_all = True
    for name in FILES:
        raw, data = _read(rep, name, sources[name])
        if raw is not None:
            digest.update(raw)
        if data is None:
            parsed_all = False
            continue
        _PARSERS[name](rep, data, out)
    if rep.problems or not parsed_all:
        return None, rep.problems

    n_ev, n_vi = len(out["ev_names"]), len(out["vi_names"])
    total = n_ev + n_vi
    event_top = np.zeros(total, dtype=np.int8)
    event_top[:n_ev] = out["ev_top"]
    event_jam = np.full(total, -1, dtype=np.int8)
    event_jam[:n_ev] = out["ev_jam"]
    event_vicious = np.zeros(total, dtype=bool)
    event_vicious[n_ev:] = True
    event_n_options = np.ones(total, dtype=np.int8)
    event_n_options[:n_ev] = out["ev_nopt"]
    event_effects = np.concatenate([out["ev_effects"], out["vi_effects"]]).astype(np.int16)

    cards = BebopCards(
        terrain_names=out["terrain_names"],
        terrain=out["terrain"],
        track_spaces=int(out["track_spaces"]),
        lead_deck=out["lead_deck"],
        skill_icons=out["skill_icons"],
        skill_is_or=out["skill_is_or"],
        skill_labels=out["skill_labels"],
        has_zip=out["has_zip"],
        ability_cost=out["ability_cost"],
        ability_names=out["ability_names"],
        bounty_names=out["bounty_names"],
        bounty_start=out["bounty_start"],
        bounty_lead=out["bounty_lead"],
        bounty_skills=out["bounty_skills"],
        bounty_jams=out["bounty_jams"],
        bounty_payout=out["bounty_payout"],
        event_names=tuple(out["ev_names"]) + tuple(out["vi_names"]),
        event_top=event_top,
        event_jam=event_jam,
        event_vicious=event_vicious,
        event_n_options=event_n_options,
        event_effects=event_effects,
        contact_names=out["contact_names"],
        contact_n_options=out["contact_n_options"],
        contact_effects=out["contact_effects"],
        session_names=out["session_names"],
        session_char=out["session_char"],
        session_place=out["session_place"],
        session_skills=out["session_skills"],
        session_spend=out["session_spend"],
        session_jams=out["session_jams"],
        reconstructed={
            "board": out["rec_board"],
            "characters": out["rec_characters"],
            "bounties": out["rec_bounties"],
            "events": out["rec_events"],
            "vicious": out["rec_vicious"],
            "contacts": out["rec_contacts"],
            "sessions": out["rec_sessions"],
        },
        data_hash=digest.hexdigest()[:16],
        source={name: str(sources[name]) for name in FILES},
    )
    return cards, []


def load_cards(directory: str | Path | None = None) -> BebopCards:
    """Load the default cards, with any of the seven files replaced by those found in `directory`.

    Raise CardDataError (one line) on the first problem found.
    """
    cards, problems = _load(directory)
    if problems:
        raise CardDataError(problems[0])
    assert cards is not None
    return cards


def validate_dir(directory) -> list[str]:
    """All problems with the card set `directory` (overlaid on the defaults), one line each; [] = valid."""
    return list(_load(directory)[1])

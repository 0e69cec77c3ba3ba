"""Bebop card data: the defaults are complete and faithful to the rulebook, and bad data is
reported as one clear line. Fast, no numba."""
from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest

from boardsim.errors import CardDataError
from boardsim.games.bebop import cards as C
from boardsim.games.bebop import vocab as V
from boardsim.games.bebop.cards import DATA_DIR, FILES, describe_effect, load_cards, parse_effect, validate_dir


@pytest.fixture(scope="module")
def cards():
    return load_cards()


def idx(names, name):
    assert name in names, f"{name!r} not in {names}"
    return names.index(name)


def effects_of(arr):
    """[options, effects, 3] -> list of options, each a list of effect strings (padding dropped)."""
    return [[describe_effect(e) for e in opt if e[0] != V.OP_NONE] for opt in arr if (opt[:, 0] != 0).any()]


def can_cover(icons, is_or, need) -> bool:
    """Can these skill cards (alone) discard at least `need` icons of each skill?"""
    icons = [list(map(int, row)) for row in icons]

    def rec(k, need):
        if all(x <= 0 for x in need):
            return True
        if k == len(icons):
            return False
        if rec(k + 1, need):
            return True
        row = icons[k]
        if is_or[k]:
            for s in range(4):
                if row[s] and need[s] > 0:
                    rest = list(need)
                    rest[s] -= 1
                    if rec(k + 1, rest):
                        return True
        elif any(row[s] and need[s] > 0 for s in range(4)):
            if rec(k + 1, [need[s] - row[s] for s in range(4)]):
                return True
        return False

    return rec(0, list(map(int, need)))


# --------------------------------------------------------------------------------------------
# defaults: counts and shapes


def test_vocab_contract():
    assert V.SKILLS == ("combat", "hacking", "investigation", "piloting")
    assert V.RESOURCES == ("food", "fuel", "woolongs")
    assert V.OP_NAMES[V.OP_LOSE_ACTIONS] == "lose_actions" and len(V.OP_NAMES) == 13
    assert V.OP_NAMES.index("discard") == V.OP_DISCARD_SKILL
    assert V.ABILITIES["ed"] == ("net_dive", "feral_child", "remote_control")


def test_no_numba_in_loader_sources():
    for name in ("cards.py", "vocab.py"):
        text = (Path(C.__file__).parent / name).read_text()
        assert not re.search(r"^\s*(import|from)\s+numba", text, re.M), name


def test_defaults_valid_and_shapes(cards):
    assert validate_dir(DATA_DIR) == []
    assert cards.terrain.shape == (5, 4, 2) and cards.terrain.dtype == np.int8
    assert cards.lead_deck.shape == (3, 10) and cards.lead_deck.dtype == np.int8
    assert cards.skill_icons.shape == (4, 8, 4) and cards.skill_icons.dtype == np.int8
    assert cards.skill_is_or.shape == (4, 8) and cards.skill_is_or.dtype == bool
    assert cards.has_zip.tolist() == [True, True, True, False]
    assert cards.ability_cost.shape == (4, 3) and cards.ability_cost.dtype == np.int8
    assert len(cards.bounty_names) == 18 == len(set(cards.bounty_names))
    assert cards.bounty_start.shape == (18,) and cards.bounty_lead.shape == (18, 2)
    assert cards.bounty_skills.shape == (18, 4) and cards.bounty_payout.shape == (18, 3)
    assert len(cards.event_names) == 48 == len(set(cards.event_names))
    assert cards.event_effects.shape == (48, 2, 4, 3) and cards.event_effects.dtype == np.int16
    assert cards.event_vicious.tolist() == [False] * 40 + [True] * 8
    assert (cards.event_jam[40:] == -1).all() and (cards.event_top[40:] == 0).all()
    assert (cards.event_n_options[40:] == 1).all()
    assert set(cards.event_n_options[:40].tolist()) <= {1, 2}
    assert len(cards.contact_names) == 20 and cards.contact_effects.shape == (20, 2, 4, 3)
    assert cards.contact_effects.dtype == np.int16
    assert len(cards.session_names) == 12
    assert np.bincount(cards.session_char, minlength=4).tolist() == [3, 3, 3, 3]
    assert cards.session_place.shape == (12, 2, 2) and cards.session_skills.shape == (12, 2, 4)
    assert cards.session_spend.shape == (12, 2, 3) and cards.session_jams.shape == (12, 2)
    assert (cards.session_jams == [1, 2]).all()
    assert cards.track_spaces == 6
    assert re.fullmatch(r"[0-9a-f]{16}", cards.data_hash)
    assert set(cards.source) == set(FILES)
    assert set(cards.reconstructed) == {"board", "characters", "bounties", "events", "vicious", "contacts",
                                        "sessions"}
    assert all(len(sk) == 8 for sk in cards.skill_labels)


def test_unused_effect_slots_are_zero(cards):
    for arr, nopt in ((cards.event_effects, cards.event_n_options), (cards.contact_effects, cards.contact_n_options)):
        for k in range(len(arr)):
            assert (arr[k, nopt[k]:] == 0).all()
            for o in range(nopt[k]):
                ops = arr[k, o, :, 0]
                used = int((ops != 0).sum())
                assert used >= 1 and (ops[:used] != 0).all() and (arr[k, o, used:] == 0).all()
    assert (cards.event_effects[:, :, :, 2] <= 9).all()


# --------------------------------------------------------------------------------------------
# rulebook facts


def test_decker_exact(cards):
    i = idx(cards.bounty_names, "Decker")
    assert cards.bounty_start[i] == 5
    assert tuple(cards.bounty_lead[i]) == (V.LEAD_TYPES.index("sector"), V.SECTORS.index("belt"))
    assert cards.bounty_skills[i].tolist() == [2, 1, 0, 3]      # combat, hacking, investigation, piloting
    assert cards.bounty_jams[i] == 3
    assert cards.bounty_payout[i].tolist() == [0, 2, 9]         # food, fuel, woolongs
    assert "Decker" not in cards.reconstructed["bounties"]
    for name in ("Asimov Solensan", "Chessmaster Hex", "Twinkle Maria Murdock"):
        assert name in cards.bounty_names and name in cards.reconstructed["bounties"]


def test_named_contacts_exact(cards):
    doc = idx(cards.contact_names, "Doc")
    assert effects_of(cards.contact_effects[doc]) == [["draw_leads 1"], ["spend woolongs 1", "draw_leads 2"]]
    tech = idx(cards.contact_names, "Tech Expert")
    assert effects_of(cards.contact_effects[tech]) == [["discard hacking 1", "draw_leads 1"],
                                                       ["discard hacking 2", "draw_leads 2"]]
    clerk = effects_of(cards.contact_effects[idx(cards.contact_names, "Store Clerk")])
    assert [[e for e in opt if e.startswith("spend woolongs")] for opt in clerk] == [["spend woolongs 1"],
                                                                                   ["spend woolongs 2"]]
    assert (cards.contact_n_options == 2).all()


def test_named_events_exact(cards):
    top = {name: i for i, name in enumerate(V.TOP_LINES)}
    i = idx(cards.event_names, "Overheard Conversation")
    assert cards.event_top[i] == top["spend_food"]
    assert effects_of(cards.event_effects[i]) == [["discard investigation 1", "draw_leads 1"], ["replace_leads 1"]]
    i = idx(cards.event_names, "The Bebop Breaks Down")
    assert cards.event_top[i] == top["spend_food"]
    assert effects_of(cards.event_effects[i]) == [["discard piloting 1", "discard hacking 1"], ["spend woolongs 2"]]
    i = idx(cards.event_names, "What's in the Fridge")
    assert cards.event_top[i] == top["spend_food"] and cards.event_n_options[i] == 2
    assert "spend food 1" in effects_of(cards.event_effects[i])[1]
    assert "What's in the Fridge" in cards.reconstructed["events"]


def test_vicious_example_present(cards):
    vicious = [effects_of(cards.event_effects[k]) for k in range(40, 48)]
    assert [["spend food 1", "no_interact"]] in vicious
    assert all(len(v) == 1 for v in vicious)
    # several Vicious cards force random discards (these can fail a Session or Chase)
    assert sum(any(e.startswith("discard_random") for e in v[0]) for v in vicious) >= 2


def test_honky_tonky_women_part1_exact(cards):
    i = idx(cards.session_names, "Honky Tonky Women")
    assert cards.session_char[i] == V.CHARACTERS.index("faye")
    assert tuple(cards.session_place[i, 0]) == (V.SECTORS.index("mars"), V.LOCATIONS.index("bar"))
    assert cards.session_skills[i, 0].tolist() == [0, 2, 4, 0]
    assert cards.session_spend[i, 0].tolist() == [0, 0, 2]
    assert cards.session_jams[i].tolist() == [1, 2]


def test_faye_alone_cannot_pay_honky_tonky_women(cards):
    i = idx(cards.session_names, "Honky Tonky Women")
    faye = V.CHARACTERS.index("faye")
    assert not can_cover(cards.skill_icons[faye], cards.skill_is_or[faye], cards.session_skills[i, 0])
    # as in the rulebook's wording, she can pay either half, just not both at once
    assert can_cover(cards.skill_icons[faye], cards.skill_is_or[faye], [0, 0, 4, 0])
    assert can_cover(cards.skill_icons[faye], cards.skill_is_or[faye], [0, 2, 0, 0])


def test_every_session_part_needs_help(cards):
    for s, name in enumerate(cards.session_names):
        ch = int(cards.session_char[s])
        for part in range(2):
            need = cards.session_skills[s, part]
            assert not can_cover(cards.skill_icons[ch], cards.skill_is_or[ch], need), (name, part)
            total = int(need.sum())
            assert (4 <= total <= 7) if part == 0 else (5 <= total <= 8), (name, part, total)
            assert 2 <= int((need > 0).sum()) <= 3
            assert int(cards.session_spend[s, part].sum()) <= 3


def test_board_terrains(cards):
    t = cards.terrain
    names = cards.terrain_names
    assert names == ("mountain", "ocean", "desert", "city", "ruins")
    assert (t[:, :, 0] != t[:, :, 1]).all()
    assert np.bincount(t.ravel(), minlength=5).tolist() == [8] * 5
    earth_port = t[V.SECTORS.index("earth"), V.LOCATIONS.index("spaceport")]
    assert {names[x] for x in earth_port} == {"mountain", "ocean"}
    belt_contact = t[V.SECTORS.index("belt"), V.LOCATIONS.index("contact")]
    assert "mountain" in {names[x] for x in belt_contact}


def test_lead_decks(cards):
    assert np.bincount(cards.lead_deck[0], minlength=5).tolist() == [2] * 5
    assert np.bincount(cards.lead_deck[2], minlength=5).tolist() == [2] * 5
    loc = np.bincount(cards.lead_deck[1], minlength=4)
    assert loc.sum() == 10 and (loc >= 1).all()
    # every bounty can be located: its lead value is in its deck
    for b in range(18):
        lt, val = cards.bounty_lead[b]
        assert val in cards.lead_deck[lt]
    assert set(cards.bounty_lead[:, 0].tolist()) == {0, 1, 2}


def test_ability_costs(cards):
    expected = {
        "spike": ("combat", "hacking", "piloting"),
        "jet": ("combat", "investigation", "piloting"),
        "faye": ("combat", "hacking", "investigation"),
        "ed": ("hacking", "investigation", "piloting"),
    }
    for ci, ch in enumerate(V.CHARACTERS):
        assert tuple(V.SKILLS[k] for k in cards.ability_cost[ci]) == expected[ch]
        # each character holds at least one card with each skill their abilities cost
        for k in cards.ability_cost[ci]:
            assert (cards.skill_icons[ci, :, k] > 0).any(), (ch, V.SKILLS[k])
    assert cards.ability_names[V.CHARACTERS.index("jet")] == ("Lean Times", "Well-Connected", "Efficient Pilot")


def test_skill_hands(cards):
    for ci, ch in enumerate(V.CHARACTERS):
        icons, is_or = cards.skill_icons[ci], cards.skill_is_or[ci]
        n_and = int(((icons.sum(axis=1) >= 2) & ~is_or).sum())
        assert 2 <= int(is_or.sum()) <= 3 and 1 <= n_and <= 2, ch
        total = int(np.where(is_or, 1, icons.sum(axis=1)).sum())
        assert 9 <= total <= 11, (ch, total)
    spike = V.CHARACTERS.index("spike")
    k = cards.skill_labels[spike].index("combat|piloting")
    assert cards.skill_is_or[spike, k] and cards.skill_icons[spike, k].tolist() == [1, 0, 0, 1]
    k = cards.skill_labels[spike].index("combat+combat")
    assert not cards.skill_is_or[spike, k] and cards.skill_icons[spike, k].tolist() == [2, 0, 0, 0]


def test_spreads(cards):
    assert np.bincount(cards.event_top[:40], minlength=3).tolist() == [8, 20, 12]
    assert np.bincount(cards.event_jam[:40], minlength=4).tolist() == [10] * 4
    assert set(cards.bounty_start.tolist()) <= set(range(2, 7))
    assert ((cards.bounty_jams >= 1) & (cards.bounty_jams <= 3)).all()
    assert ((cards.bounty_payout[:, 2] >= 3) & (cards.bounty_payout[:, 2] <= 10)).all()
    totals = cards.bounty_skills.sum(axis=1)
    assert ((totals >= 3) & (totals <= 7)).all()
    places = {tuple(p) for p in cards.session_place.reshape(-1, 2).tolist()}
    assert {s for s, _ in places} == set(range(5)) and {l for _, l in places} == set(range(4))


# --------------------------------------------------------------------------------------------
# effects


def test_parse_effect():
    assert parse_effect("spend woolongs 2") == (V.OP_SPEND, 2, 2)
    assert parse_effect("gain food 1") == (V.OP_GAIN, 0, 1)
    assert parse_effect("discard hacking 1") == (V.OP_DISCARD_SKILL, 1, 1)
    assert parse_effect("draw_leads") == (V.OP_DRAW_LEADS, 0, 1)
    assert parse_effect("no_interact") == (V.OP_NO_INTERACT, 0, 1)
    assert parse_effect("bounties_back 1") == (V.OP_BOUNTIES_BACK, 0, 1)
    for bad in ("swap_leads 1", "spend", "spend gold 1", "discard hacking 10", "discard hacking 0",
                "no_interact 1", "rest 2 2", "draw_leads x", "", "discard 1 hacking"):
        with pytest.raises(C.EffectError):
            parse_effect(bad)
    for text in ("spend woolongs 2", "discard hacking 1", "no_interact", "rest 2", "lose_actions 1"):
        assert describe_effect(parse_effect(text)) == text


# --------------------------------------------------------------------------------------------
# overrides and malformed files


def write_override(tmp_path: Path, name: str, old: str, new: str, count: int = 1) -> Path:
    text = (DATA_DIR / name).read_text()
    assert old in text, old
    (tmp_path / name).write_text(text.replace(old, new, count))
    return tmp_path


def test_override_changes_only_that_file(tmp_path, cards):
    write_override(tmp_path, "bounties.toml", "payout = { woolongs = 4 }", "payout = { woolongs = 5 }")
    other = load_cards(tmp_path)
    i = idx(other.bounty_names, "Asimov Solensan")
    assert other.bounty_payout[i].tolist() == [0, 0, 5] and cards.bounty_payout[i].tolist() == [0, 0, 4]
    diff = other.bounty_payout != cards.bounty_payout
    assert diff.sum() == 1
    for f in fields(C.BebopCards):
        if f.name in ("bounty_payout", "data_hash", "source"):
            continue
        a, b = getattr(cards, f.name), getattr(other, f.name)
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b) and a.dtype == b.dtype, f.name
        else:
            assert a == b, f.name
    assert other.data_hash != cards.data_hash
    assert other.source["bounties.toml"] == str(tmp_path / "bounties.toml")
    assert other.source["events.toml"] == str(DATA_DIR / "events.toml")
    # an identical copy gives the identical hash
    (tmp_path / "bounties.toml").write_bytes((DATA_DIR / "bounties.toml").read_bytes())
    assert load_cards(tmp_path).data_hash == cards.data_hash


def assert_one_line_error(directory: Path, *needles: str) -> str:
    with pytest.raises(CardDataError) as info:
        load_cards(directory)
    msg = str(info.value)
    assert "\n" not in msg and "\r" not in msg, msg
    for needle in needles:
        assert needle in msg, (needle, msg)
    problems = validate_dir(directory)
    assert problems and problems[0] == msg and all("\n" not in p for p in problems)
    return msg


BAD_CASES = [
    # (file, old, new, needles in the message)
    ("events.toml", '["replace_leads 1"],', '["swap_leads 1"],',
     ("events.toml:", "event 'Overheard Conversation'", "field 'options'", "unknown op 'swap_leads'", "allowed:")),
    ("events.toml", 'jam = "investigation"', 'jam = "cooking"',
     ("events.toml:", "event 'Overheard Conversation'", "field 'jam'", "cooking",
      "allowed: combat, hacking, investigation, piloting")),
    ("contacts.toml", '["discard hacking 1", "draw_leads 1"]', '["discard haking 1", "draw_leads 1"]',
     ("contacts.toml:", "contact 'Tech Expert'", "field 'options'", "unknown skill 'haking'")),
    ("contacts.toml", '["draw_leads 1"],', '["draw_leads 1", "draw_leads 1", "gain food 1", "gain fuel 1", "rest 1"],',
     ("contacts.toml:", "contact 'Doc'", "field 'options'", "5 effects", "1..4")),
    ("contacts.toml", '["draw_leads 1"],', '["draw_leads 1"], ["rest 1"],',
     ("contacts.toml:", "contact 'Doc'", "field 'options'", "3 options")),
    ("events.toml", '["replace_leads 1"],', '["no_interact 1"],',
     ("events.toml:", "field 'options'", "no_interact")),
    ("events.toml", '["spend woolongs 2"],', '["spend woolongs 12"],',
     ("events.toml:", "event 'The Bebop Breaks Down'", "field 'options'", "out of range", "1..9")),
    ("characters.toml", '"combat|piloting", "hacking|piloting",', '"combat|pilotting", "hacking|piloting",',
     ("characters.toml:", "character 'spike'", "field 'skill_cards'", "pilotting")),
    ("characters.toml", '"combat+combat", "combat+piloting",\n]', '"combat+combat",\n]',
     ("characters.toml:", "character 'spike'", "field 'skill_cards'", "7 cards", "exactly 8")),
    ("characters.toml", 'cost = "hacking"', 'cost = "hackin"',
     ("characters.toml:", "character 'spike'", "field 'abilities.keen_eye.cost'", "hackin")),
    ("bounties.toml", 'reward = "36,000,000 W"', 'reward = "36,000,000 W"\nrewrad = "oops"',
     ("bounties.toml:", "bounty 'Decker'", "field 'rewrad'", "unknown key", "allowed:")),
    ("bounties.toml", "skills = { combat = 2, piloting = 3, hacking = 1 }",
     "skills = { kombat = 2, piloting = 3, hacking = 1 }",
     ("bounties.toml:", "bounty 'Decker'", "field 'skills'", "kombat")),
    ("bounties.toml", "start = 5", "start = 7",
     ("bounties.toml:", "bounty 'Decker'", "field 'start'", "1..6")),
    ("bounties.toml", "jams = 3", "jams = 4",
     ("bounties.toml:", "bounty 'Decker'", "field 'jams'", "0..3")),
    ("bounties.toml", 'last_seen = "belt"', 'last_seen = "saturn"',
     ("bounties.toml:", "bounty 'Decker'", "field 'last_seen'", "saturn")),
    ("bounties.toml", "reconstructed = false", 'reconstructed = "no"',
     ("bounties.toml:", "bounty 'Decker'", "field 'reconstructed'", "true, false")),
    ("contacts.toml", 'name = "Tech Expert"', 'name = "Doc"',
     ("contacts.toml:", "contact 'Doc'", "field 'name'", "duplicate")),
    ("vicious.toml", 'name = "Sabotage"', 'name = "Hangover"',
     ("vicious.toml:", "vicious 'Hangover'", "field 'name'", "duplicate", "events.toml")),
    ("board.toml", 'spaceport = ["mountain", "ocean"]', 'spaceport = ["ocean", "ocean"]',
     ("board.toml:", "section 'sectors'", "field 'earth.spaceport'", "not different")),
    ("board.toml", 'bar = ["ocean", "city"]', 'bar = ["ocean", "swamp"]',
     ("board.toml:", "field 'venus.bar'", "swamp", "allowed:")),
    ("board.toml", 'location = ["bar", "bar", ', 'location = ["bar", ',
     ("board.toml:", "section 'lead_decks'", "field 'location'", "9 cards", "exactly 10")),
    ("sessions.toml", 'character = "spike"', 'character = "faye"',
     ("sessions.toml:", "field 'session'", "'spike' has 2 sessions", "exactly 3")),
    ("sessions.toml", "skills = { hacking = 2, investigation = 4 }", "skills = { hacking = 2, investigation = 10 }",
     ("sessions.toml:", "session 'Honky Tonky Women'", "field 'part1.skills'", "0..9")),
    ("sessions.toml", 'sector = "mars"\nlocation = "bar"', 'sector = "mars"\nlocation = "pub"',
     ("sessions.toml:", "session 'Honky Tonky Women'", "field 'part1.location'", "pub",
      "allowed: bar, contact, shop, spaceport")),
]


@pytest.mark.parametrize("name,old,new,needles", BAD_CASES, ids=[f"{c[0]}:{c[3][-1]}" for c in BAD_CASES])
def test_malformed_file(tmp_path, name, old, new, needles):
    write_override(tmp_path, name, old, new)
    assert_one_line_error(tmp_path, *needles)


def test_toml_syntax_error(tmp_path):
    text = (DATA_DIR / "bounties.toml").read_text()
    line = text[: text.index("start = 5")].count("\n") + 1
    write_override(tmp_path, "bounties.toml", "start = 5", "start = = 5")
    assert_one_line_error(tmp_path, "bounties.toml: TOML syntax error", f"line {line}")


def test_wrong_count(tmp_path):
    text = (DATA_DIR / "contacts.toml").read_text()
    head, sep, _last = text.rpartition("[[contact]]")
    (tmp_path / "contacts.toml").write_text(head)
    assert_one_line_error(tmp_path, "contacts.toml:", "field 'contact'", "19 cards", "exactly 20")
    text = (DATA_DIR / "vicious.toml").read_text()
    (tmp_path / "vicious.toml").write_text(text + '\n[[vicious]]\nname = "Extra"\neffects = ["spend food 1"]\n')
    problems = validate_dir(tmp_path)
    assert any("vicious.toml:" in p and "9 cards" in p for p in problems)


def test_unknown_file_and_missing_dir(tmp_path):
    (tmp_path / "event.toml").write_text("")
    assert_one_line_error(tmp_path, "event.toml", "allowed:", "events.toml")
    (tmp_path / "event.toml").unlink()
    (tmp_path / "NOTES.md").write_text("designer notes are ignored")
    assert validate_dir(tmp_path) == []
    with pytest.raises(CardDataError, match="does not exist"):
        load_cards(tmp_path / "nope")
    assert len(validate_dir(tmp_path / "nope")) == 1


def test_validate_dir_reports_all_problems(tmp_path):
    write_override(tmp_path, "events.toml", 'jam = "investigation"', 'jam = "cooking"')
    write_override(tmp_path, "bounties.toml", "jams = 3", "jams = 9")
    (tmp_path / "sessions.toml").write_text("this is not toml = [")
    problems = validate_dir(tmp_path)
    assert len(problems) >= 3
    assert any(p.startswith("events.toml:") for p in problems)
    assert any(p.startswith("bounties.toml:") for p in problems)
    assert any(p.startswith("sessions.toml: TOML syntax error") for p in problems)
    assert all("\n" not in p for p in problems)

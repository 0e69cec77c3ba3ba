"""Bossin' Space card data: the shipped set is valid and flagged, bad data gives one-line errors
naming file, field and what is allowed, and a --cards directory replaces only the files it holds."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import boardsim
from boardsim.errors import CardDataError
from boardsim.games.bossin import cards as C
from boardsim.games.bossin import state_nb as S


def test_shipped_counts_match_the_rulebook():
    cards = C.load_cards()
    a = cards.arrays
    xp = list(a["en_xp"][:a["n_enemies"]])
    assert [xp.count(v) for v in (1, 2, 3)] == [10, 10, 8]      # the most any player count deals
    assert list(a["tiers"][0]) == [10, 10, 8] and list(a["tiers"][1]) == [10, 8, 6]
    assert len(cards.boss_names) == 5 and sorted(cards.crew_names) == sorted(S.CREW_NAMES)
    kinds = set(a["base_cmds"][:a["n_base"]])
    assert {S.C_EMP, S.C_MOVE_L, S.C_DMOVE_R, S.C_TRACTOR, S.C_SHOOT, S.C_HEAL, S.C_ROCKET, S.C_LASER} <= kinds
    assert {S.C_TELEPORT, S.C_CARPET, S.C_DSHOT, S.C_FREEMOVE} <= set(a["upg_cmds"][:a["n_upg"]])
    non_help = [h for h in range(a["n_haz"]) if a["hz_kind"][h] != S.H_HELP]
    assert 14 <= len(non_help) <= 18
    # every card the rulebook does not print is flagged
    assert len(cards.reconstructed["enemies"]) == a["n_enemies"] and len(cards.reconstructed["bosses"]) == 5


def test_upgrade_costs_grow_and_small_games_have_one_more_empty_space():
    a = C.load_cards().arrays
    small, large = list(a["upgrade_costs"][0]), list(a["upgrade_costs"][1])
    assert small == sorted(small) and large == sorted(large) and small[0] == large[0] + 1


def _copy(tmp_path: Path, name: str, text: str) -> Path:
    (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.parametrize("name,old,new,expect", [
    ("enemies.toml", 'effects = ["summon"]', 'effects = ["teleport"]',
     ["enemies.toml", "enemy 'Broodling'", "field 'effects'", "'teleport'", "allowed:", "move_toward"]),
    ("enemies.toml", 'name = "Gnat",        xp = 1', 'name = "Gnat",        xp = 4',
     ["enemies.toml", "enemy 'Gnat'", "field 'xp'", "allowed: an integer 1..3"]),
    ("bosses.toml", "{ position = 4, effects = [\"heat\"] }", "{ position = 3, effects = [\"heat\"] }",
     ["bosses.toml", "boss 'Dreadnought'", "position 3 is used twice"]),
    ("bosses.toml", 'prefer = "left" }, { attack = 2, shield = false, prefer = "right" }',
     'prefer = "up" }, { attack = 2, shield = false, prefer = "right" }',
     ["bosses.toml", "field 'prefer'", "allowed: left, right"]),
    ("hazards.toml", "from = 1\nto = 2", "from = 1\nto = 3", ["hazards.toml", "field 'to'", "adjacent"]),
    ("commands.toml", 'kind = "emp"', 'kind = "nuke"', ["commands.toml", "field 'kind'", "allowed: emp"]),
    ("board.toml", "tiers_1_2_players = [10, 10, 8]", "tiers_1_2_players = [10, 10, 9]",
     ["board.toml", "tiers_1_2_players", "at most 8"]),
    ("board.toml", "deck_cards_per_level = 2", "deck_cards_per_level = 2\ncolour = 1",
     ["board.toml", "field 'colour'", "unknown key"]),
    ("crew.toml", 'name = "hacker"', 'name = "cook"', ["crew.toml", "field 'name'", "pilot, mechanic"]),
    ("hazards.toml", "[[hazard]]", "[[hazard]", ["hazards.toml", "TOML syntax error"]),
])
def test_bad_card_data_is_one_line_naming_file_and_field(tmp_path, name, old, new, expect):
    text = (C.DATA_DIR / name).read_text()
    assert old in text
    _copy(tmp_path, name, text.replace(old, new, 1))
    problems = C.validate_dir(tmp_path)
    assert problems, "the bad data was accepted"
    assert all("\n" not in p for p in problems)
    assert any(all(part in p for part in expect) for p in problems), problems
    with pytest.raises(CardDataError) as err:
        C.load_cards(tmp_path)
    assert "\n" not in str(err.value)


def test_unexpected_file_in_a_cards_directory(tmp_path):
    (tmp_path / "bounties.toml").write_text("")
    (tmp_path / "notes.md").write_text("fine")
    problems = C.validate_dir(tmp_path)
    assert len(problems) == 1 and "bounties.toml" in problems[0] and "allowed: board.toml" in problems[0]


def test_a_cards_directory_replaces_only_its_files_and_changes_the_results(tmp_path):
    shutil.copy(C.DATA_DIR / "hazards.toml", tmp_path / "hazards.toml")
    text = (tmp_path / "hazards.toml").read_text().replace('kind = "silence"\ncount = 3', 'kind = "silence"\ncount = 6')
    (tmp_path / "hazards.toml").write_text(text)
    custom = C.load_cards(tmp_path)
    default = C.load_cards()
    assert custom.data_hash != default.data_hash
    assert custom.arrays["n_haz"] == default.arrays["n_haz"] + 3
    assert custom.enemy_names == default.enemy_names
    a = boardsim.simulate("bossin", n=30, seed=2, policy="random", cards=str(tmp_path))
    b = boardsim.simulate("bossin", n=30, seed=2, policy="random")
    assert a.attrs["provenance"]["cards_hash"] != b.attrs["provenance"]["cards_hash"]

"""Bossin' Space rules, one at a time: a hand-built position, one rule applied, the exact result."""
from __future__ import annotations

import numpy as np
import pytest

from boardsim.games.bossin import rules_nb as R
from boardsim.games.bossin import state_nb as S

from bossin_support import (  # noqa: F401  (bossin_kernels is a fixture)
    I, blank, boss_effect, boss_in_play, bossin_kernels, column, command, effect, enemy, hazard, new_log,
    new_state, play_round, put, stack_enemy_deck,
)

pytestmark = pytest.mark.usefixtures("bossin_kernels")


def shipped(col=1, **params):
    state, cards, rules = blank(**params)
    state[0]["ship"] = col
    return state, cards, rules, state[0]


# ------------------------------------------------------------------------------------ commands
def test_shoot_hits_only_the_nearest_enemy_in_the_ship_column():
    state, cards, rules, st = shipped()
    put(state, 1, ["Raider", "Gnat"])
    put(state, 2, ["Gnat"])
    command(state, cards, rules, S.C_SHOOT)
    assert column(state, 1) == ["Raider"] and column(state, 2) == ["Gnat"]
    assert st["xp_total"] == 1 and st["destroyed"] == 1
    assert st["edmg"][enemy("Raider")] == 0
    assert st["edisc"][st["edisc_n"] - 1] == enemy("Gnat")


def test_a_shield_needs_two_damage_from_one_card():
    state, cards, rules, st = shipped()
    put(state, 1, ["Bulwark"])
    command(state, cards, rules, S.C_SHOOT)
    command(state, cards, rules, S.C_SHOOT)
    assert st["edmg"][enemy("Bulwark")] == 0          # each shot absorbed by the shield
    command(state, cards, rules, S.C_LASER)             # 2 damage: 1 absorbed, 1 through
    assert st["edmg"][enemy("Bulwark")] == 1 and column(state, 1) == ["Bulwark"]
    command(state, cards, rules, S.C_LASER)
    assert column(state, 1) == [] and st["xp_total"] == 2


def test_laser_damage_carries_on_to_the_next_card_after_a_kill():
    state, cards, rules, st = shipped()
    put(state, 1, ["Brute", "Raider", "Gnat"])
    st["levels"][1] = 1                                  # Laser level 1: 3 damage
    command(state, cards, rules, S.C_LASER)
    assert column(state, 1) == ["Brute"]
    assert st["edmg"][enemy("Brute")] == 0 and st["heat"] == 1 and st["xp_total"] == 3


def test_double_shot_chains_but_shoot_does_not():
    state, cards, rules, st = shipped()
    put(state, 1, ["Raider", "Gnat"])
    command(state, cards, rules, S.C_DSHOT)
    assert column(state, 1) == ["Raider"] and st["edmg"][enemy("Raider")] == 1 and st["heat"] == 0


def test_rockets_per_level_and_per_column():
    state, cards, rules, st = shipped()
    put(state, 0, ["Gnat"])
    put(state, 2, ["Bulwark"])
    st["levels"][0] = 2                                  # 3 rockets
    command(state, cards, rules, S.C_ROCKET, a=1 + 2 * 25)   # one at column 1, two at column 3
    assert column(state, 0) == [] and column(state, 2) == ["Bulwark"]
    assert st["edmg"][enemy("Bulwark")] == 1             # two rockets of one card: the shield takes one
    assert st["heat"] == 1


def test_rockets_beyond_the_level_are_not_fired():
    state, cards, rules, st = shipped()
    put(state, 0, ["Gnat", "Gnat"])
    command(state, cards, rules, S.C_ROCKET, a=2)        # asks for two, level 0 fires one
    assert len(column(state, 0)) == 1


@pytest.mark.parametrize("kind,start,a,end", [
    (S.C_MOVE_L, 1, 0, 0), (S.C_MOVE_L, 0, 0, 0), (S.C_MOVE_R, 3, 0, 3), (S.C_DMOVE_R, 0, 0, 2),
    (S.C_DMOVE_R, 2, 0, 3), (S.C_DMOVE_L, 1, 0, 0), (S.C_TELEPORT, 0, 3, 3), (S.C_FREEMOVE, 2, -1, 1),
    (S.C_FREEMOVE, 3, 1, 3),
])
def test_ship_moves_stop_at_the_edges(kind, start, a, end):
    state, cards, rules, st = shipped(start)
    command(state, cards, rules, kind, a=a)
    assert st["ship"] == end


def test_the_pilot_captain_reverses_one_move_per_round():
    state, cards, rules, st = shipped(1, players=2, crew="pilot,gunner")
    command(state, cards, rules, S.C_MOVE_L, a=1)
    assert st["ship"] == 2 and st["crew_used"] == 1
    command(state, cards, rules, S.C_MOVE_L, a=1)        # used up: moves left as printed
    assert st["ship"] == 1


def test_no_crew_ability_for_a_seat_that_is_not_captain_or_in_solo():
    state, cards, rules, st = shipped(1, players=2, crew="gunner,pilot")
    command(state, cards, rules, S.C_MOVE_L, a=1)
    assert st["ship"] == 0
    state, cards, rules, st = shipped(1, players=1, crew="pilot")
    command(state, cards, rules, S.C_MOVE_L, a=1)
    assert st["ship"] == 0


def test_the_gunner_captain_shoots_into_an_adjacent_column():
    state, cards, rules, st = shipped(1, players=2, crew="gunner")
    put(state, 2, ["Gnat"])
    command(state, cards, rules, S.C_SHOOT, a=1)
    assert column(state, 2) == [] and st["crew_used"] == 1


def test_tractor_beam_moves_a_card_to_the_first_free_position_or_the_boss():
    state, cards, rules, st = shipped()
    put(state, 0, ["Raider", "Gnat"])
    put(state, 1, ["Scout"])
    command(state, cards, rules, S.C_TRACTOR, a=0 * 3 + 0, b=1)   # Raider: column 1 -> 2
    assert column(state, 0) == ["Gnat"] and column(state, 1) == ["Scout", "Raider"]
    boss_in_play(state, cards, col=3)
    command(state, cards, rules, S.C_TRACTOR, a=12, b=-1)
    assert st["boss_col"] == 2


def test_tractor_beam_cannot_push_into_a_full_column():
    state, cards, rules, st = shipped()
    put(state, 0, ["Gnat"])
    put(state, 1, ["Scout", "Raider", "Wisp"])
    command(state, cards, rules, S.C_TRACTOR, a=0, b=1)
    assert column(state, 0) == ["Gnat"] and len(column(state, 1)) == 3


def test_heal_restores_one_damaged_token_only():
    state, cards, rules, st = shipped()
    st["health"] = 1
    command(state, cards, rules, S.C_HEAL)
    assert st["health"] == 2
    st["health"] = st["max_health"]
    command(state, cards, rules, S.C_HEAL)
    assert st["health"] == st["max_health"]


def test_emp_skips_the_hazards_above_and_heats():
    state, cards, rules, st = shipped()
    assert command(state, cards, rules, S.C_EMP) is True and st["heat"] == 1
    assert command(state, cards, rules, S.C_SHOOT) is False


def test_carpet_bomb_destroys_row_c_with_xp_but_spares_the_boss():
    state, cards, rules, st = shipped()
    put(state, 0, ["Raider", "Gnat", "Brute"])
    put(state, 1, ["Scout"])
    put(state, 3, ["Wisp", "Warden", "Bulwark"])
    boss_in_play(state, cards, col=2, hp=1)
    command(state, cards, rules, S.C_CARPET)
    assert column(state, 0) == ["Raider", "Gnat"] and column(state, 1) == ["Scout"]
    assert column(state, 3) == ["Wisp", "Warden"]
    assert st["xp_total"] == 3 + 2 and st["boss_hp"] == 1 and st["outcome"] == -1


def test_carpet_bomb_row_c_is_the_first_row_when_the_boss_blocks_two():
    state, cards, rules, st = shipped()
    st["blocked"] = 2
    put(state, 0, ["Gnat"])
    command(state, cards, rules, S.C_CARPET)
    assert column(state, 0) == []


def test_cooling_moves_the_cube_back_one_or_two_with_laser_level_3():
    state, cards, rules, st = shipped()
    st["heat"] = 2
    R.cool(st, cards[0], rules[0], new_log())
    assert st["heat"] == 1
    st["levels"][1] = 3
    st["heat"] = 2
    R.cool(st, cards[0], rules[0], new_log())
    assert st["heat"] == 0
    R.cool(st, cards[0], rules[0], new_log())
    assert st["heat"] == 0


def test_the_mechanic_captain_skips_one_overheat_per_round():
    state, cards, rules, st = shipped(players=2, crew="mechanic")
    command(state, cards, rules, S.C_ROCKET)
    command(state, cards, rules, S.C_ROCKET)
    assert st["heat"] == 1 and st["crew_used"] == 1


def test_reaching_the_last_overheat_position_loses():
    state, cards, rules, st = shipped(overheat=4)
    st["heat"] = 2
    command(state, cards, rules, S.C_EMP)
    assert st["outcome"] == S.OUT_OVERHEATED


# ------------------------------------------------------------------------------------ the Boss
def test_enemies_in_the_boss_column_shield_it():
    state, cards, rules, st = shipped()
    boss_in_play(state, cards, boss=0, col=1, hp=5)
    put(state, 1, ["Gnat"])
    command(state, cards, rules, S.C_SHOOT)
    assert st["boss_hp"] == 5 and column(state, 1) == []
    command(state, cards, rules, S.C_SHOOT)
    assert st["boss_hp"] == 4


def test_laser_damage_left_after_the_last_enemy_reaches_the_boss():
    state, cards, rules, st = shipped()
    boss_in_play(state, cards, boss=0, col=1, hp=5)
    put(state, 1, ["Gnat"])
    command(state, cards, rules, S.C_LASER)
    assert st["boss_hp"] == 4


def test_a_shielded_boss_side_absorbs_one_point_per_card():
    state, cards, rules, st = shipped()
    b = int(np.flatnonzero(cards[0]["boss_shield"][:, 1])[0])
    boss_in_play(state, cards, boss=b, col=1, hp=5, side=1)
    command(state, cards, rules, S.C_SHOOT)
    assert st["boss_hp"] == 5
    command(state, cards, rules, S.C_LASER)
    assert st["boss_hp"] == 4


def test_the_boss_at_zero_wins_but_not_when_the_same_card_overheats():
    state, cards, rules, st = shipped()
    boss_in_play(state, cards, col=1, hp=1)
    command(state, cards, rules, S.C_SHOOT)
    assert st["outcome"] == S.OUT_WIN
    state, cards, rules, st = shipped()
    boss_in_play(state, cards, col=1, hp=1)
    st["heat"] = rules[0]["overheat"] - 2
    command(state, cards, rules, S.C_ROCKET, a=5)
    assert st["outcome"] == S.OUT_OVERHEATED and st["boss_hp"] == 1


def test_the_boss_enters_in_the_ship_column_at_full_health():
    state, cards, rules = new_state(players=2)
    st = state[0]
    st["boss_state"] = S.BOSS_WAITING
    st["ship"] = 3
    play_round(state, cards, rules)
    assert st["boss_round"] == 1 and st["boss_state"] == S.BOSS_IN_PLAY


@pytest.mark.parametrize("fx,check", [
    (S.F_EMP, lambda st: st["skip_cmd"] == 1),
    (S.F_FLIP, lambda st: st["boss_side"] == 1),
    (S.F_HEAL_BOSS, lambda st: st["boss_hp"] == 4),
    (S.F_MOVE_L, lambda st: st["boss_col"] == 1),
    (S.F_MOVE_R, lambda st: st["boss_col"] == 3),
    (S.F_MOVE_TOWARD, lambda st: st["boss_col"] == 1),
    (S.F_MOVE_AWAY, lambda st: st["boss_col"] == 3),
    (S.F_HEAT, lambda st: st["heat"] == 1),
    (S.F_DAMAGE, lambda st: st["health"] == 2),
    (S.F_XP_MINUS, lambda st: st["xp"] == 1),
])
def test_boss_hazard_effects(fx, check):
    state, cards, rules, st = shipped(0)
    boss_in_play(state, cards, boss=0, col=2, hp=3)
    st["xp"] = 2
    boss_effect(state, cards, rules, fx)
    assert check(st)


def test_boss_heal_never_exceeds_its_card():
    state, cards, rules, st = shipped()
    boss_in_play(state, cards, boss=0, col=2)
    boss_effect(state, cards, rules, S.F_HEAL_BOSS)
    assert st["boss_hp"] == cards[0]["boss_health"][0]


def test_the_boss_shoots_through_enemy_cards():
    state, cards, rules, st = shipped(2)
    boss_in_play(state, cards, boss=0, col=2, side=0)
    put(state, 2, ["Brute"])
    boss_effect(state, cards, rules, S.F_ATTACK_SAME)
    assert st["health"] == 3 - cards[0]["boss_attack"][0, 0]
    boss_effect(state, cards, rules, S.F_MOVE_L)
    boss_effect(state, cards, rules, S.F_ATTACK_SAME)      # now in another column: misses
    boss_effect(state, cards, rules, S.F_ATTACK_ADJ)       # the adjacent attack reaches the ship
    assert st["health"] == 3 - 2 * cards[0]["boss_attack"][0, 0]


def test_boss_summon_puts_a_card_at_the_top_of_its_column():
    state, cards, rules, st = shipped()
    boss_in_play(state, cards, col=3)
    put(state, 3, ["Gnat"])
    stack_enemy_deck(state, ["Brute"])
    boss_effect(state, cards, rules, S.F_SUMMON)
    assert column(state, 3) == ["Brute", "Gnat"]


# ------------------------------------------------------------------------------------ hazards
def test_new_enemies_move_everything_down_and_break_the_line():
    state, cards, rules, st = shipped(0)
    put(state, 0, ["Raider", "Gnat", "Brute"])
    put(state, 1, ["Scout"])
    stack_enemy_deck(state, ["Wisp", "Stinger", "Ember", "Skitter", "Hive"])
    hazard(state, cards, rules, "new_enemies")
    assert column(state, 0) == ["Wisp", "Raider", "Gnat"]
    assert column(state, 1) == ["Stinger", "Scout"]
    assert column(state, 2) == ["Ember"] and column(state, 3) == ["Skitter"]
    assert st["health"] == 3 - 3                          # the Brute broke the line (attack 3)
    assert st["outcome"] == S.OUT_DESTROYED
    assert st["xp_total"] == 0 and st["edisc"][0] == enemy("Brute")


def test_new_enemies_reveal_the_boss_and_stop_drawing():
    state, cards, rules, st = shipped()
    stack_enemy_deck(state, ["Gnat", "Scout"])
    hazard(state, cards, rules, "new_enemies")
    assert [column(state, c) for c in range(4)] == [["Gnat"], ["Scout"], [], []]
    assert st["boss_state"] == S.BOSS_WAITING and st["edeck_n"] == 0


def test_new_enemies_with_an_empty_deck_lower_the_boss_row():
    state, cards, rules, st = shipped(3)
    stack_enemy_deck(state, [], boss_below=False)
    put(state, 0, ["Gnat", "Raider", "Scout"])
    put(state, 1, ["Gnat"])
    hazard(state, cards, rules, "new_enemies")
    assert st["blocked"] == 1
    assert column(state, 0) == ["Gnat", "Raider"] and column(state, 1) == ["Gnat"]
    assert st["health"] == 2


def test_attack_hurts_by_the_strongest_enemy_in_a_marked_ship_column():
    state, cards, rules, st = shipped(1)
    put(state, 1, ["Brute", "Gnat"])
    hazard(state, cards, rules, "attack 34")
    assert st["health"] == 3
    hazard(state, cards, rules, "attack 12")
    assert st["health"] == 0 and st["outcome"] == S.OUT_DESTROYED


def test_move_hazard_moves_the_nearest_card_or_adds_one():
    state, cards, rules, st = shipped()
    put(state, 0, ["Raider", "Gnat"])
    put(state, 1, ["Scout"])
    hazard(state, cards, rules, "move 1->2")
    assert column(state, 0) == ["Raider"] and column(state, 1) == ["Scout", "Gnat"]
    stack_enemy_deck(state, ["Wisp"])
    hazard(state, cards, rules, "move 4->3")
    assert column(state, 3) == [] and column(state, 2) == ["Wisp"]


def test_activate_goes_left_to_right_top_to_bottom_and_skips_summoned_cards():
    state, cards, rules, st = shipped(3)
    put(state, 0, ["Ember", "Broodling"])
    put(state, 1, ["Burner"])
    stack_enemy_deck(state, ["Hive"])                     # summoned; its heat must not fire
    hazard(state, cards, rules, "activate")
    assert column(state, 0) == ["Ember", "Broodling", "Hive"]
    assert st["heat"] == 2


def test_help_only_in_its_marked_columns():
    state, cards, rules, st = shipped(0, easy=1)
    hazard(state, cards, rules, "help 14 (xp)")
    assert st["xp_total"] == 1
    st["health"] = 1
    hazard(state, cards, rules, "help 23 (heal)")
    assert st["health"] == 1
    st["ship"] = 2
    hazard(state, cards, rules, "help 23 (heal)")
    assert st["health"] == 2


def test_silence_changes_nothing():
    state, cards, rules, st = shipped()
    put(state, 0, ["Ember", "Broodling"])
    before = state.copy()
    hazard(state, cards, rules, "silence")
    assert state.tobytes() == before.tobytes()


# ------------------------------------------------------------------------------------ activations
def test_activation_attacks_same_and_adjacent():
    state, cards, rules, st = shipped(1)
    put(state, 2, ["Stinger"])
    put(state, 0, ["Spitter"])
    effect(state, cards, rules, "Stinger", S.F_ATTACK_SAME)
    assert st["health"] == 3
    effect(state, cards, rules, "Spitter", S.F_ATTACK_ADJ)
    assert st["health"] == 2


def test_activation_summon_adds_below_and_pushes_down():
    state, cards, rules, st = shipped()
    put(state, 1, ["Broodling", "Gnat"])
    stack_enemy_deck(state, ["Raider"])
    effect(state, cards, rules, "Broodling", S.F_SUMMON)
    assert column(state, 1) == ["Broodling", "Raider", "Gnat"]


def test_activation_summon_from_the_discard_pile_when_the_deck_is_empty():
    state, cards, rules, st = shipped()
    put(state, 1, ["Broodling"])
    stack_enemy_deck(state, [], boss_below=False)
    st["edisc"][0] = enemy("Brute")
    st["edisc_n"] = 1
    effect(state, cards, rules, "Broodling", S.F_SUMMON)
    assert column(state, 1) == ["Broodling", "Brute"] and st["edisc_n"] == 0


def test_activation_summon_below_row_c_breaks_the_line():
    state, cards, rules, st = shipped()
    put(state, 1, ["Gnat", "Scout", "Broodling"])
    stack_enemy_deck(state, ["Brute"])
    effect(state, cards, rules, "Broodling", S.F_SUMMON)
    assert column(state, 1) == ["Gnat", "Scout", "Broodling"] and st["health"] == 0


@pytest.mark.parametrize("fx,ship,start,end", [
    (S.F_MOVE_L, 0, 1, 0), (S.F_MOVE_R, 0, 3, 3), (S.F_MOVE_AWAY, 0, 1, 2), (S.F_MOVE_AWAY, 3, 1, 0),
    (S.F_MOVE_TOWARD, 3, 1, 2), (S.F_MOVE_TOWARD, 1, 1, 1),
])
def test_activation_moves(fx, ship, start, end):
    state, cards, rules, st = shipped(ship)
    put(state, start, ["Scout"])
    effect(state, cards, rules, "Scout", fx)
    assert column(state, end) == ["Scout"]


def test_move_away_in_the_ship_column_goes_to_the_side_with_more_room():
    state, cards, rules, st = shipped(1)
    put(state, 1, ["Skitter"])
    put(state, 0, ["Gnat"])
    effect(state, cards, rules, "Skitter", S.F_MOVE_AWAY)
    assert column(state, 2) == ["Skitter"]


@pytest.mark.parametrize("fx,field,value", [
    (S.F_HEAT, "heat", 1), (S.F_DAMAGE, "health", 2), (S.F_XP_PLUS, "xp_total", 1), (S.F_XP_MINUS, "xp", 0),
])
def test_activation_tracks(fx, field, value):
    state, cards, rules, st = shipped()
    put(state, 0, ["Gnat"])
    effect(state, cards, rules, "Gnat", fx)
    effect(state, cards, rules, "Gnat", S.F_XP_MINUS) if fx == S.F_XP_MINUS else None
    assert st[field] == value


def test_activation_heal_and_discard_without_xp():
    state, cards, rules, st = shipped()
    st["health"] = 2
    put(state, 0, ["Medic Drone", "Wisp"])
    effect(state, cards, rules, "Medic Drone", S.F_HEAL_SHIP)
    assert st["health"] == 3
    assert effect(state, cards, rules, "Wisp", S.F_DISCARD) is False
    assert column(state, 0) == ["Medic Drone"] and st["xp_total"] == 0


# ------------------------------------------------------------------------------------ XP and upgrades
def test_xp_track_costs_grow_and_leftover_xp_moves_on():
    state, cards, rules, st = shipped(players=2)            # costs 2, 3, 4, ...
    R.gain_xp(st, cards[0], rules[0], I(3))
    assert st["cubes"] == 1 and st["pending"] == 1 and st["xp"] == 1
    R.gain_xp(st, cards[0], rules[0], I(2))
    assert st["cubes"] == 2 and st["xp"] == 0
    state, cards, rules, st = shipped(players=3)            # costs 1, 2, 3, ...
    R.gain_xp(st, cards[0], rules[0], I(3))
    assert st["cubes"] == 2 and st["xp"] == 0


def test_the_health_upgrade_unlocks_after_a_full_level():
    state, cards, rules, st = shipped()
    assert not R.upgrade_allowed(st, cards[0], I(S.U_HEALTH))
    st["levels"][:3] = 1
    assert R.upgrade_allowed(st, cards[0], I(S.U_HEALTH))
    st["pending"] = 1
    R.apply_upgrade(st, cards[0], I(S.U_HEALTH), new_log())
    assert st["max_health"] == 4 and st["health"] == 4
    assert not R.upgrade_allowed(st, cards[0], I(S.U_HEALTH))
    st["levels"][:3] = 3
    st["levels"][3] = 2
    assert not R.upgrade_allowed(st, cards[0], I(S.U_HEALTH))   # only 2 tokens to unlock
    assert not R.upgrade_allowed(st, cards[0], I(S.U_ROCKETS))


def test_the_deck_upgrade_shuffles_two_upgraded_cards_into_the_top_four():
    state, cards, rules, st = shipped()
    top = sorted(int(x) for x in st["cdeck"][st["cdeck_n"] - 2:st["cdeck_n"]])
    upg = sorted(int(x) for x in st["upile"][st["upile_n"] - 2:st["upile_n"]])
    n = int(st["cdeck_n"])
    st["pending"] = 1
    R.apply_upgrade(st, cards[0], I(S.U_DECK), new_log())
    assert st["cdeck_n"] == n + 2 and st["levels"][S.U_DECK] == 1
    assert sorted(int(x) for x in st["cdeck"][n - 2:n + 2]) == sorted(top + upg)


# ------------------------------------------------------------------------------------ rounds
@pytest.mark.parametrize("players,after", [(1, [0]), (2, [3, 3]), (3, [3, 4, 4]), (4, [3, 3, 3, 3]),
                                           (5, [4, 3, 3, 3, 3])])
def test_hand_sizes_and_cards_played_per_player_count(players, after):
    state, cards, rules = new_state(seed=3, players=players, round_cap=1)
    st = state[0]
    st["edeck_n"] = 0                                     # no enemies: nothing ends the round early
    st["edeck"][0] = 0
    stack_enemy_deck(state, ["Gnat"])
    play_round(state, cards, rules, "random")
    assert [int(x) for x in st["hand_n"][:players]] == after
    assert st["cdisc_n"] >= 4 and st["captain"] == (1 % players)

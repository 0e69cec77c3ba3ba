"""Record dtypes for Bossin' Space: card tables, rules, one game's state, one game's outcome.

Board layout: column c (0..3) holds a stack of enemy card ids packed from the top; index 0 is the
card farthest from the ship, index blen[c]-1 the nearest. The top of that stack stands in row
`blocked` (0 = A), so its rows are blocked .. blocked+blen-1 and a column holds 3 - blocked cards.
Decks are stacks whose top is index n-1.
"""
import numpy as np

N_COLS = 4
N_ROWS = 3
MAX_ENEMIES = 40
PHANTOM = MAX_ENEMIES          # enemy id the planner imagines for an unseen card from the enemy deck
BOSS_CARD = -2                 # the Boss card at the bottom of the enemy deck
N_BOSSES = 5
MAX_CMD = 48
MAX_UPG = 16
MAX_HAZ = 24
MAX_SEATS = 5
HAND = 5
N_CUBES = 8
MAX_FX = 2

# random streams, one per random process (common random numbers across rule settings); S_ROLLOUT is
# read only by the rollout policy (it seeds the futures it imagines), so the others are consumed
# exactly as under the heuristic
S_SETUP, S_COMMANDS, S_HAZARDS, S_SUMMON, S_POLICY, S_ROLLOUT = range(6)
N_STREAMS = 6

# command kinds
(C_EMP, C_MOVE_L, C_MOVE_R, C_DMOVE_L, C_DMOVE_R, C_TRACTOR, C_SHOOT, C_HEAL, C_ROCKET, C_LASER,
 C_TELEPORT, C_CARPET, C_DSHOT, C_FREEMOVE) = range(14)
N_CMD_KINDS = 14
CMD_NAMES = ("emp", "move_left", "move_right", "double_move_left", "double_move_right", "tractor_beam",
             "shoot", "heal", "rocket", "laser", "teleport", "carpet_bomb", "double_shot", "free_move")

# hazard kinds
H_NEW, H_ATTACK, H_MOVE, H_ACTIVATE, H_SILENCE, H_HELP = range(6)
HAZARD_NAMES = ("new_enemies", "attack", "move", "activate", "silence", "help")

# effects (enemy activations and Boss hazards share the codes)
(F_NONE, F_HEAT, F_ATTACK_SAME, F_ATTACK_ADJ, F_DAMAGE, F_HEAL_SHIP, F_SUMMON, F_MOVE_L, F_MOVE_R,
 F_MOVE_AWAY, F_MOVE_TOWARD, F_XP_PLUS, F_XP_MINUS, F_DISCARD, F_EMP, F_FLIP, F_HEAL_BOSS) = range(17)
EFFECT_NAMES = ("none", "heat", "attack_same", "attack_adjacent", "damage", "heal_ship", "summon", "move_left",
                "move_right", "move_away", "move_toward", "xp_plus", "xp_minus", "discard", "emp", "flip",
                "heal_boss")
ENEMY_EFFECTS = EFFECT_NAMES[1:14]
BOSS_EFFECTS = ("heat", "attack_same", "attack_adjacent", "damage", "summon", "move_left", "move_right",
                "move_away", "move_toward", "xp_minus", "emp", "flip", "heal_boss")

# crew
PILOT, MECHANIC, GUNNER, SCIENTIST, HACKER = range(5)
CREW_NAMES = ("pilot", "mechanic", "gunner", "scientist", "hacker")

# upgrade paths
U_ROCKETS, U_LASER, U_DECK, U_HEALTH = range(4)
UPGRADE_NAMES = ("rockets", "laser", "deck", "health")

# boss status
BOSS_UNSEEN, BOSS_WAITING, BOSS_IN_PLAY = range(3)

# outcomes
OUT_WIN, OUT_DESTROYED, OUT_OVERHEATED, OUT_ROUND_CAP = range(4)
OUTCOME_NAMES = ("win", "destroyed", "overheated", "round_cap")

CARDS_DTYPE = np.dtype([
    ("n_enemies", np.int16),
    ("en_xp", np.int8, (MAX_ENEMIES + 1,)),
    ("en_attack", np.int8, (MAX_ENEMIES + 1,)),
    ("en_health", np.int8, (MAX_ENEMIES + 1,)),
    ("en_shield", np.int8, (MAX_ENEMIES + 1,)),
    ("en_fx", np.int8, (MAX_ENEMIES + 1, MAX_FX)),
    ("n_base", np.int16),
    ("base_cmds", np.int8, (MAX_CMD,)),
    ("n_upg", np.int16),
    ("upg_cmds", np.int8, (MAX_UPG,)),
    ("n_haz", np.int16),
    ("hz_kind", np.int8, (MAX_HAZ,)),
    ("hz_cols", np.int8, (MAX_HAZ, 4)),    # attack/help: 1 = marked column
    ("hz_from", np.int8, (MAX_HAZ,)),
    ("hz_to", np.int8, (MAX_HAZ,)),
    ("hz_bonus", np.int8, (MAX_HAZ,)),     # help: 0 = +1 XP, 1 = heal
    ("boss_health", np.int8, (N_BOSSES,)),
    ("boss_attack", np.int8, (N_BOSSES, 2)),
    ("boss_shield", np.int8, (N_BOSSES, 2)),
    ("boss_prefer", np.int8, (N_BOSSES, 2)),   # -1 left, +1 right
    ("boss_fx", np.int8, (N_BOSSES, 4, MAX_FX)),
    ("ship_start", np.int8),
    ("extra_health", np.int8),
    ("tiers", np.int8, (2, 3)),                # [1-2 players, 3-5 players] x [1, 2, 3 XP]
    ("upgrade_costs", np.int8, (2, N_CUBES)),
    ("rockets", np.int8, (4,)),
    ("laser", np.int8, (4,)),
    ("cooling", np.int8, (4,)),
    ("deck_per_level", np.int8),
])

RULES_DTYPE = np.dtype([
    ("players", np.int8),
    ("boss", np.int8),            # 1..5, 0 = random
    ("easy", np.int8),
    ("start_health", np.int8),
    ("overheat", np.int8),        # position of the Overheat track that loses (1-based)
    ("tiers", np.int8, (3,)),     # -1 = the rulebook's count for the player count
    ("seat_crew", np.int8, (MAX_SEATS,)),
    ("round_cap", np.int16),
])

STATE_DTYPE = np.dtype([
    ("rng", np.uint64, (N_STREAMS, 4)),
    ("board", np.int8, (N_COLS, N_ROWS)),
    ("blen", np.int8, (N_COLS,)),
    ("blocked", np.int8),
    ("edmg", np.int8, (MAX_ENEMIES + 1,)),
    ("absorbed", np.int8, (MAX_ENEMIES + 1,)),   # shield already absorbed a point of the current card
    ("edeck", np.int8, (MAX_ENEMIES + 1,)),
    ("edeck_n", np.int16),
    ("edisc", np.int8, (MAX_ENEMIES + 1,)),
    ("edisc_n", np.int16),
    ("ship", np.int8),
    ("health", np.int8),
    ("max_health", np.int8),
    ("heat", np.int8),
    ("xp", np.int16),             # XP marker position on the track
    ("xp_total", np.int16),       # XP gained in the game
    ("cubes", np.int8),           # upgrades bought
    ("pending", np.int8),         # cubes reached but not yet placed on a path
    ("levels", np.int8, (4,)),    # rockets, laser, deck, health
    ("cdeck", np.int8, (MAX_CMD + MAX_UPG,)),
    ("cdeck_n", np.int16),
    ("cdisc", np.int8, (MAX_CMD + MAX_UPG,)),
    ("cdisc_n", np.int16),
    ("upile", np.int8, (MAX_UPG,)),
    ("upile_n", np.int16),
    ("hand", np.int8, (MAX_SEATS, HAND)),
    ("hand_n", np.int8, (MAX_SEATS,)),
    ("hdeck", np.int8, (MAX_HAZ,)),
    ("hdeck_n", np.int16),
    ("hdisc", np.int8, (MAX_HAZ,)),
    ("hdisc_n", np.int16),
    ("timeline", np.int8, (4,)),  # this round's hazard card per column, -1 none
    ("played", np.int8, (4,)),    # the 4 commands played this round (then in timeline order)
    ("boss", np.int8),
    ("boss_state", np.int8),
    ("boss_col", np.int8),
    ("boss_hp", np.int8),
    ("boss_side", np.int8),
    ("boss_absorbed", np.int8),
    ("rounds", np.int16),
    ("captain", np.int8),
    ("crew_used", np.int8),
    ("skip_cmd", np.int8),        # a Boss EMP skips the next command
    ("imagine", np.int8),         # a planner's copy: unseen enemy cards are PHANTOM, no log
    ("destroyed", np.int16),
    ("boss_round", np.int16),
    ("outcome", np.int8),         # -1 while playing
    ("log_n", np.int32),
])

OUTCOME_DTYPE = np.dtype([
    ("outcome", np.int8),
    ("turns", np.int16),
    ("boss", np.int8),
    ("boss_health_left", np.int8),
    ("boss_damage", np.int8),          # damage dealt to the Boss and not healed (more is closer to a win)
    ("boss_reached_round", np.int16),   # round the Boss entered; 0 = never
    ("health", np.int8),
    ("overheat", np.int8),
    ("xp", np.int16),
    ("upgrades_bought", np.int8),
    ("enemies_destroyed", np.int16),
    ("enemies_left", np.int8),
])

# event log rows: (code, seat, a, b, c, d)
LOG_WIDTH = 6
(LOG_ROUND, LOG_HAZARD, LOG_PLAY, LOG_CMD, LOG_COOL, LOG_SKIP, LOG_NEW, LOG_ATTACK, LOG_KILL, LOG_BREAK,
 LOG_MOVE_ENEMY, LOG_EFFECT, LOG_UPGRADE, LOG_BOSS, LOG_BOSS_FX, LOG_STATUS, LOG_END, LOG_CREW, LOG_SHIP,
 LOG_DAMAGE, LOG_REFRESH) = range(21)

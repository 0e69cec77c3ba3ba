"""Bossin' Space decisions: what each seat plays, how the captain arranges the timeline, upgrades.

Hidden hands: a seat picks from its own hand and what is public (revealed hazards, board, tracks,
Boss); it never reads another hand. The captain then sees the 4 revealed commands and arranges them
one column at a time (the rulebook's "add them one at a time" tip), judging each candidate
(card, choice or cooling) on a planner's copy of the state in which unseen enemy cards are an
average stand-in (PHANTOM): it cannot peek at the enemy deck.

Policies: random (uniform legal choices), heuristic (the weight vector below), open-hands (the
heuristic, but the seats choose jointly as if they could see all hands: what the no-talking rule
costs), rollout (the heuristic, with the captain's column choices improved by imagined futures that
respect hidden information: rollout_nb.py; its parameters are the rollout_* weights).
"""
import numpy as np
from numba.extending import overload

from boardsim._jit import njit
from boardsim.rng import rand_below, rand_float

from . import rules_nb as R
from .state_nb import (
    BOSS_IN_PLAY, C_CARPET, C_DMOVE_L, C_DMOVE_R, C_DSHOT, C_EMP, C_FREEMOVE, C_HEAL, C_LASER, C_MOVE_L,
    C_MOVE_R, C_ROCKET, C_SHOOT, C_TELEPORT, C_TRACTOR, GUNNER, H_ACTIVATE, H_ATTACK, H_NEW, HACKER,
    N_CMD_KINDS, N_COLS, OUT_WIN, PILOT, S_POLICY, STATE_DTYPE, U_HEALTH,
)

POLICY_RANDOM, POLICY_HEURISTIC, POLICY_OPEN = 0, 1, 2
POLICY_ROLLOUT = 3        # rollout_nb.rollout_column for the captain's arrangement, the heuristic for the rest
POLICY_IDS = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC, "open-hands": POLICY_OPEN,
              "rollout": POLICY_ROLLOUT}

# (name, default, meaning): the heuristic's weight vector. The defaults were found by `boardsim tune
# bossin --param players=4` (11 generations of 12 candidates, 1,500 games each, seeds 1000..1010) from
# hand-set values; on held-out seed 777 (10,000 games) they won 31.8% against 4.0%.
WEIGHTS = (
    ("v_health", 4.47, "planner: value of each undamaged health token"),
    ("v_heat", 1.97, "planner: cost of each step on the Overheat track"),
    ("v_heat_danger", 2.59, "planner: extra cost of standing one step from overheating"),
    ("v_enemy", 0.45, "planner: cost of each enemy on the board per point of attack (plus one)"),
    ("v_enemy_hp", 0.66, "planner: cost of each enemy health point left on the board"),
    ("v_line", 1.26, "planner: cost per attack point of the enemies about to break the line"),
    ("v_exposed", 0.96, "planner: cost per attack point of the strongest enemy in the ship's column"),
    ("v_xp", 0.43, "planner: value of each XP gained"),
    ("v_upgrade", 1.2, "planner: value of each upgrade bought"),
    ("v_boss", 2.58, "planner: value of each point of damage on the Boss"),
    ("pick_emp", 1.03, "seat: value of an EMP per dangerous hazard this round"),
    ("pick_move", 0.73, "seat: value of a move card when the ship's column is under fire or empty"),
    ("pick_shoot", 1.17, "seat: value of a Shoot with a target it can hurt"),
    ("pick_laser", 2.15, "seat: value of a Laser with enemies in the ship's column"),
    ("pick_rocket", 2.84, "seat: value of a Rocket with anything to hit"),
    ("pick_heal", 1.81, "seat: value of a Heal per missing health token"),
    ("pick_tractor", 0.8, "seat: value of a Tractor Beam"),
    ("pick_heat", 1.04, "seat: cost of a heating card per step of heat already taken"),
    ("pick_repeat", 0.56, "seat: factor on a card of a kind already chosen"),
    ("up_rockets", 1.24, "upgrade: appeal of the Rockets path"),
    ("up_laser", 1.11, "upgrade: appeal of the Laser path"),
    ("up_deck", 0.57, "upgrade: appeal of the Deck path"),
    ("up_health", 0.73, "upgrade: appeal of an extra health token"),
    ("refresh_below", 0.87, "captain: refresh a hand whose best card scores below this"),
    # the rollout policy (the heuristic ignores these; `tune` leaves them alone); see rollout_nb.py
    ("rollout_candidates", 3.0, "rollout: column choices compared at each arrangement decision (the heuristic's, then the planner's next best); 1 = plain heuristic"),
    ("rollout_samples", 4.0, "rollout: imagined futures per candidate (the same futures for every candidate)"),
    ("rollout_horizon", 1.0, "rollout: rounds played after the current one before scoring (below 0: to the end of the game)"),
    ("rollout_leaf_mid", 0.0, "rollout: a future cut short by the horizon scores logistic((planner value - mid) / scale)"),
    ("rollout_leaf_scale", 5.0, "rollout: see rollout_leaf_mid"),
)
WEIGHT_NAMES = tuple(name for name, _, _ in WEIGHTS)
DEFAULT_WEIGHTS = np.array([value for _, value, _ in WEIGHTS], dtype=np.float64)
(W_V_HEALTH, W_V_HEAT, W_V_HEAT_DANGER, W_V_ENEMY, W_V_ENEMY_HP, W_V_LINE, W_V_EXPOSED, W_V_XP, W_V_UPGRADE,
 W_V_BOSS, W_PICK_EMP, W_PICK_MOVE, W_PICK_SHOOT, W_PICK_LASER, W_PICK_ROCKET, W_PICK_HEAL, W_PICK_TRACTOR,
 W_PICK_HEAT, W_PICK_REPEAT, W_UP_ROCKETS, W_UP_LASER, W_UP_DECK, W_UP_HEALTH, W_REFRESH,
 W_ROLLOUT_CANDIDATES, W_ROLLOUT_SAMPLES, W_ROLLOUT_HORIZON, W_ROLLOUT_LEAF_MID, W_ROLLOUT_LEAF_SCALE) = range(len(WEIGHTS))

NEG = -1e18


def scratch_states(n):
    """n zeroed states (a record array, so NUMBA_DISABLE_JIT code has attribute access too)."""
    return np.zeros(n, STATE_DTYPE).view(np.recarray)


@overload(scratch_states)
def _scratch_states_compiled(n):
    def impl(n):
        return np.zeros(n, STATE_DTYPE)
    return impl


# ---------------------------------------------------------------------------------------- values
@njit
def value(st, cd, ru, w):
    """How good a position is, for the captain's planner."""
    if st.outcome == OUT_WIN:
        return 1e9
    if st.outcome >= 0:
        return -1e9
    v = w[W_V_HEALTH] * st.health - w[W_V_HEAT] * st.heat
    if st.heat >= ru.overheat - 2:
        v -= w[W_V_HEAT_DANGER]
    cap = R.capacity(st)
    for c in range(N_COLS):
        n = st.blen[c]
        for k in range(n):
            e = st.board[c, k]
            v -= w[W_V_ENEMY] * (cd.en_attack[e] + 1) + w[W_V_ENEMY_HP] * (cd.en_health[e] - st.edmg[e])
        if n > 0 and n >= cap:
            v -= w[W_V_LINE] * cd.en_attack[st.board[c, n - 1]]
    c = st.ship
    strongest = 0
    for k in range(st.blen[c]):
        strongest = max(strongest, cd.en_attack[st.board[c, k]])
    v -= w[W_V_EXPOSED] * strongest
    v += w[W_V_XP] * st.xp_total + w[W_V_UPGRADE] * (st.cubes - st.pending)
    if st.boss_state == BOSS_IN_PLAY:
        v += w[W_V_BOSS] * (cd.boss_health[st.boss] - st.boss_hp)
    return v


@njit
def threat_here(st, cd):
    """Damage the ship's column may take from this round's Attack hazards."""
    c = st.ship
    strongest = 0
    for k in range(st.blen[c]):
        strongest = max(strongest, cd.en_attack[st.board[c, k]])
    n = 0
    for i in range(4):
        h = st.timeline[i]
        if h >= 0 and cd.hz_kind[h] == H_ATTACK and cd.hz_cols[h, c] != 0:
            n += 1
    return strongest * n


@njit
def card_score(st, cd, ru, w, kind):
    """What one command card is worth to a seat, from public information only."""
    n_enemies = R.enemies_on_board(st)
    here = st.blen[st.ship]
    boss_here = st.boss_state == BOSS_IN_PLAY and st.boss_col == st.ship and here == 0
    danger = 0
    for i in range(4):
        h = st.timeline[i]
        if h >= 0 and (cd.hz_kind[h] == H_NEW or cd.hz_kind[h] == H_ACTIVATE or
                       (cd.hz_kind[h] == H_ATTACK and cd.hz_cols[h, st.ship] != 0 and here > 0)):
            danger += 1
    s = 0.0
    if kind == C_EMP:
        s = w[W_PICK_EMP] * danger
    elif kind == C_MOVE_L or kind == C_MOVE_R or kind == C_DMOVE_L or kind == C_DMOVE_R or kind == C_FREEMOVE \
            or kind == C_TELEPORT:
        useful = threat_here(st, cd) > 0 or (here == 0 and (n_enemies > 0 or st.boss_state == BOSS_IN_PLAY))
        s = w[W_PICK_MOVE] * (1.0 if useful else 0.2)
        if kind == C_TELEPORT or kind == C_FREEMOVE:
            s *= 1.3
    elif kind == C_SHOOT or kind == C_DSHOT:
        hurt = boss_here
        if here > 0:
            e = st.board[st.ship, here - 1]
            hurt = cd.en_shield[e] == 0 or kind == C_DSHOT
        s = w[W_PICK_SHOOT] * (1.0 if hurt else 0.1) * (1.6 if kind == C_DSHOT else 1.0)
    elif kind == C_LASER:
        s = w[W_PICK_LASER] * (min(here, 2) if here > 0 else (1.0 if boss_here else 0.1))
    elif kind == C_ROCKET:
        s = w[W_PICK_ROCKET] * (1.0 if (n_enemies > 0 or st.boss_state == BOSS_IN_PLAY) else 0.1)
    elif kind == C_HEAL:
        s = w[W_PICK_HEAL] * (st.max_health - st.health) + 0.05
    elif kind == C_TRACTOR:
        s = w[W_PICK_TRACTOR]
    elif kind == C_CARPET:
        k = 2 - st.blocked
        row = 0
        for c in range(N_COLS):
            if k >= 0 and st.blen[c] > k:
                row += 1
        s = w[W_PICK_LASER] * row
    if R.heats(kind):
        s -= w[W_PICK_HEAT] * st.heat
    return s


@njit
def pick_cards(st, cd, ru, w, pol, cards, owner, n, quota, out_idx):
    """Choose cards among cards[:n] into out_idx, quota[o] of them from owner o's cards.

    A seat choosing alone passes only its own hand (one owner); the open-hands team passes every
    hand at once. Greedy by score, a kind already chosen counting `pick_repeat` times less; the
    random policy chooses uniformly."""
    taken = np.zeros(n, np.bool_)
    left_quota = quota.copy()
    kinds_taken = np.zeros(N_CMD_KINDS, np.int64)
    total = 0
    for o in range(quota.shape[0]):
        total += quota[o]
    for q in range(total):
        best = -1
        if pol == 0:
            cand = 0
            for i in range(n):
                if not taken[i] and left_quota[owner[i]] > 0:
                    cand += 1
            r = rand_below(st.rng[S_POLICY], cand)
            for i in range(n):
                if not taken[i] and left_quota[owner[i]] > 0:
                    if r == 0:
                        best = i
                        break
                    r -= 1
        else:
            best_s = NEG
            for i in range(n):
                if taken[i] or left_quota[owner[i]] <= 0:
                    continue
                s = card_score(st, cd, ru, w, cards[i]) * w[W_PICK_REPEAT] ** kinds_taken[cards[i]]
                if s > best_s:
                    best_s = s
                    best = i
        if best < 0:
            return q
        taken[best] = True
        kinds_taken[cards[best]] += 1
        left_quota[owner[best]] -= 1
        out_idx[q] = best
    return total


@njit
def want_refresh(st, cd, ru, w, pol, seat):
    if pol == 0:
        return rand_float(st.rng[S_POLICY]) < 0.5
    best = NEG
    for i in range(st.hand_n[seat]):
        best = max(best, card_score(st, cd, ru, w, st.hand[seat, i]))
    return best < w[W_REFRESH]


@njit
def choose_upgrade(st, cd, ru, w, pol):
    """The path for an owed cube (the captain's word); -1 if every path is full."""
    n = 0
    avail = np.empty(4, np.int64)
    for p in range(4):
        if R.upgrade_allowed(st, cd, p):
            avail[n] = p
            n += 1
    if n == 0:
        return -1
    if pol == 0:
        return avail[rand_below(st.rng[S_POLICY], n)]
    best, best_s = -1, NEG
    for i in range(n):
        p = avail[i]
        if p == U_HEALTH:
            s = w[W_UP_HEALTH] * (1 + st.max_health - st.health)
        else:
            s = w[W_UP_ROCKETS + p] / (1.0 + st.levels[p])
        if s > best_s:
            best, best_s = p, s
    return best


@njit
def settle_upgrades(st, cd, ru, w, pol, log):
    while st.pending > 0:
        p = choose_upgrade(st, cd, ru, w, pol)
        if p < 0:
            st.pending = 0
            break
        R.apply_upgrade(st, cd, p, log)


# ---------------------------------------------------------------------------------------- options
@njit
def n_options(kind):
    """An upper bound on the choices a command offers (filtered by option_valid)."""
    if kind == C_MOVE_L or kind == C_MOVE_R or kind == C_DMOVE_L or kind == C_DMOVE_R:
        return 2
    if kind == C_FREEMOVE:
        return 2
    if kind == C_TELEPORT:
        return 4
    if kind == C_TRACTOR:
        return 26
    if kind == C_SHOOT or kind == C_DSHOT:
        return 3
    if kind == C_ROCKET:
        return 625
    return 1


@njit
def has_target(st, c):
    return st.blen[c] > 0 or (st.boss_state == BOSS_IN_PLAY and st.boss_col == c)


@njit
def option_args(st, cd, ru, kind, i):
    """(valid, a, b) of option i of command `kind` (see rules_nb.resolve_command)."""
    if kind == C_MOVE_L or kind == C_MOVE_R or kind == C_DMOVE_L or kind == C_DMOVE_R:
        return i == 0 or R.crew_ready(st, ru, PILOT), i, 0
    if kind == C_FREEMOVE:
        d = -1 if i == 0 else 1
        return 0 <= st.ship + d < N_COLS, d, 0
    if kind == C_TELEPORT:
        return True, i, 0
    if kind == C_TRACTOR:
        t = i // 2
        d = -1 if i % 2 == 0 else 1
        if t == 12:
            c = st.boss_col
            return st.boss_state == BOSS_IN_PLAY and 0 <= c + d < N_COLS, t, d
        c = t // 3
        k = t % 3
        ok = k < st.blen[c] and 0 <= c + d < N_COLS and st.blen[c + d] < R.capacity(st)
        return ok, t, d
    if kind == C_SHOOT or kind == C_DSHOT:
        off = i - 1
        if off == 0:
            return True, 0, 0
        return R.crew_ready(st, ru, GUNNER) and 0 <= st.ship + off < N_COLS, off, 0
    if kind == C_ROCKET:
        r = cd.rockets[st.levels[0]]
        total = 0
        code = i
        any_target = False
        for c in range(N_COLS):
            if has_target(st, c):
                any_target = True
        ok = True
        for c in range(N_COLS):
            n = code % 5
            code //= 5
            total += n
            if n > 0 and any_target and not has_target(st, c):
                ok = False
        return ok and total == r, i, 0
    return i == 0, 0, 0


# ---------------------------------------------------------------------------------------- planner
@njit
def finish_column(st, cd, ru, w, pol, col, emp, log):
    """After column col's command: its hazard and then its Boss hazard (unless an EMP skipped them)."""
    settle_upgrades(st, cd, ru, w, pol, log)
    if st.outcome >= 0 or emp:
        return
    h = st.timeline[col]
    if h >= 0:
        R.resolve_hazard(st, cd, ru, h, log)
        settle_upgrades(st, cd, ru, w, pol, log)
    if st.outcome < 0 and st.boss_state == BOSS_IN_PLAY:
        R.resolve_boss_hazard(st, cd, ru, col, log)


@njit
def imagine(tmp, cd, ru, w, col, kind, cooled, a, b, skipped, log):
    """Play column col (none if col < 0) in the planner's copy, then the rest of the round's hazards
    with no command; return the value of where that leaves the ship."""
    tmp.imagine = 1
    if col >= 0:
        emp = False
        if skipped:
            tmp.skip_cmd = 0
        elif cooled:
            R.cool(tmp, cd, ru, log)
        else:
            emp = R.resolve_command(tmp, cd, ru, kind, a, b, log)
        if tmp.outcome < 0:
            finish_column(tmp, cd, ru, w, POLICY_HEURISTIC, col, emp, log)
    for c in range(col + 1, 4):
        if tmp.outcome >= 0:
            break
        tmp.skip_cmd = 0
        finish_column(tmp, cd, ru, w, POLICY_HEURISTIC, c, False, log)
    return value(tmp, cd, ru, w)


@njit
def plan_column(st, cd, ru, w, pol, col, cards, used, scratch, log):
    """Choose which unused revealed command goes in column col and how: (index, cooled, a, b)."""
    skipped = st.skip_cmd != 0
    if pol == 0:
        left = 0
        for j in range(4):
            if not used[j]:
                left += 1
        r = rand_below(st.rng[S_POLICY], left)
        pick = -1
        for j in range(4):
            if not used[j]:
                if r == 0:
                    pick = j
                    break
                r -= 1
        if skipped:
            return pick, False, 0, 0
        if rand_float(st.rng[S_POLICY]) < 0.5:
            return pick, True, 0, 0
        kind = cards[pick]
        nopt = n_options(kind)
        valid = 0
        for i in range(nopt):
            ok, a, b = option_args(st, cd, ru, kind, i)
            if ok:
                valid += 1
        r = rand_below(st.rng[S_POLICY], max(valid, 1))
        for i in range(nopt):
            ok, a, b = option_args(st, cd, ru, kind, i)
            if ok:
                if r == 0:
                    return pick, False, a, b
                r -= 1
        return pick, False, 0, 0
    best_v = NEG
    best = (-1, False, 0, 0)
    for j in range(4):
        if used[j]:
            continue
        kind = cards[j]
        dup = False
        for jj in range(j):
            if not used[jj] and cards[jj] == kind:
                dup = True
        if dup:
            continue
        if skipped:
            scratch[0] = st
            v = imagine(scratch[0], cd, ru, w, col, kind, False, 0, 0, True, log)
            # a skipped card is lost: give up the one worth least to the seats
            v -= 1e-3 * card_score(st, cd, ru, w, kind)
            if v > best_v:
                best_v = v
                best = (j, False, 0, 0)
            continue
        for i in range(n_options(kind)):
            ok, a, b = option_args(st, cd, ru, kind, i)
            if not ok:
                continue
            scratch[0] = st
            v = imagine(scratch[0], cd, ru, w, col, kind, False, a, b, False, log)
            if v > best_v:
                best_v = v
                best = (j, False, a, b)
        # cooling instead only when strictly better than every way of resolving the card
        scratch[0] = st
        v = imagine(scratch[0], cd, ru, w, col, kind, True, 0, 0, False, log)
        if v > best_v:
            best_v = v
            best = (j, True, 0, 0)
    return best


@njit
def plan_hacker(st, cd, ru, w, pol, scratch, log):
    """The Hacker captain may swap two enemy cards: among swaps of the cards nearest the ship in two
    columns, the one after which this round's hazards (with no commands) leave the best position."""
    if not R.crew_ready(st, ru, HACKER) or pol == 0:
        return
    scratch[0] = st
    best_v = imagine(scratch[0], cd, ru, w, -1, 0, False, 0, 0, True, log)
    best_a, best_b = -1, -1
    for a in range(N_COLS):
        for b in range(a + 1, N_COLS):
            if st.blen[a] == 0 or st.blen[b] == 0:
                continue
            scratch[0] = st
            tmp = scratch[0]
            R.hacker_swap(tmp, a, st.blen[a] - 1, b, st.blen[b] - 1, log)
            v = imagine(tmp, cd, ru, w, -1, 0, False, 0, 0, True, log)
            if v > best_v + 1e-9:
                best_v, best_a, best_b = v, a, b
    if best_a >= 0:
        R.hacker_swap(st, best_a, st.blen[best_a] - 1, best_b, st.blen[best_b] - 1, log)

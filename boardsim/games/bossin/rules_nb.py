"""Bossin' Space rules as njit functions on one state record: each applies one rule with every choice
given as an argument (the policies make the choices; tests call these directly).

Conventions: `st` state record, `cd` cards record, `ru` rules record, `log` int32 (n, 6) array.
A column's stack is packed from the top: index 0 is farthest from the ship, blen-1 the nearest.
Loss and win are written to st.outcome as soon as they happen; callers stop when it is >= 0.
"""
import numpy as np

from boardsim._jit import njit
from boardsim.rng import rand_below, shuffle

from .state_nb import (
    BOSS_CARD, BOSS_IN_PLAY, BOSS_WAITING, C_CARPET, C_DMOVE_L, C_DMOVE_R, C_DSHOT, C_EMP, C_FREEMOVE, C_HEAL,
    C_LASER, C_MOVE_L, C_MOVE_R, C_ROCKET, C_SHOOT, C_TELEPORT, C_TRACTOR, F_ATTACK_ADJ, F_ATTACK_SAME,
    F_DAMAGE, F_DISCARD, F_EMP, F_FLIP, F_HEAL_BOSS, F_HEAL_SHIP, F_HEAT, F_MOVE_AWAY, F_MOVE_L, F_MOVE_R,
    F_MOVE_TOWARD, F_SUMMON, F_XP_MINUS, F_XP_PLUS, GUNNER, H_ACTIVATE, H_ATTACK, H_HELP, H_MOVE, H_NEW,
    LOG_ATTACK, LOG_BOSS, LOG_BOSS_FX, LOG_BREAK, LOG_CREW, LOG_DAMAGE, LOG_EFFECT, LOG_KILL, LOG_MOVE_ENEMY,
    LOG_NEW, LOG_UPGRADE, MAX_FX, MECHANIC, N_COLS, N_CUBES, N_ROWS, OUT_DESTROYED, OUT_OVERHEATED, OUT_WIN,
    PHANTOM, PILOT, S_COMMANDS, S_SUMMON, SCIENTIST, U_DECK, U_HEALTH,
)


@njit
def log_row(st, log, code, seat, a, b, c, d):
    n = st.log_n
    if st.imagine == 0 and n < log.shape[0]:
        log[n, 0] = code
        log[n, 1] = seat
        log[n, 2] = a
        log[n, 3] = b
        log[n, 4] = c
        log[n, 5] = d
        st.log_n = n + 1


@njit
def captain_crew(st, ru):
    """The round captain's crew card, or -1 (solo games use none)."""
    if ru.players < 2:
        return -1
    return ru.seat_crew[st.captain]


@njit
def crew_ready(st, ru, crew):
    return st.crew_used == 0 and captain_crew(st, ru) == crew


# ---------------------------------------------------------------------------------------- tracks
@njit
def add_heat(st, ru, n, log):
    """Heat the ship by n; the Mechanic captain skips one step per round. Reaching the track's last
    position loses at once."""
    for _ in range(n):
        if crew_ready(st, ru, MECHANIC):
            st.crew_used = 1
            log_row(st, log, LOG_CREW, st.captain, MECHANIC, 0, 0, 0)
            continue
        st.heat += 1
    if st.heat >= ru.overheat - 1 and st.outcome < 0:
        st.heat = ru.overheat - 1
        st.outcome = OUT_OVERHEATED


@njit
def damage_ship(st, n, log):
    if n <= 0:
        return
    st.health = max(0, st.health - n)
    log_row(st, log, LOG_DAMAGE, 0, n, st.health, 0, 0)
    if st.health == 0 and st.outcome < 0:
        st.outcome = OUT_DESTROYED


@njit
def heal_ship(st, n):
    st.health = min(st.max_health, st.health + n)


@njit
def gain_xp(st, cd, ru, n):
    """Move the XP marker n spaces; each cube reached is an upgrade owed (st.pending) and sends the
    marker back to the start, the rest of the XP moving on from there."""
    st.xp_total += n
    t = 0 if ru.players <= 2 else 1
    st.xp += n
    while st.cubes < N_CUBES and st.xp >= cd.upgrade_costs[t, st.cubes]:
        st.xp -= cd.upgrade_costs[t, st.cubes]
        st.cubes += 1
        st.pending += 1
    if st.cubes >= N_CUBES:
        st.xp = 0


@njit
def lose_xp(st, n):
    st.xp = max(0, st.xp - n)


@njit
def upgrade_allowed(st, cd, path):
    if path < U_HEALTH:
        return st.levels[path] < 3
    # health: unlocked level by level once all three paths reached that level
    lv = st.levels[U_HEALTH]
    return lv < cd.extra_health and min(st.levels[0], min(st.levels[1], st.levels[2])) > lv


@njit
def apply_upgrade(st, cd, path, log):
    """Move one owed cube to `path` (the first free space of that path)."""
    st.pending -= 1
    st.levels[path] += 1
    log_row(st, log, LOG_UPGRADE, st.captain, path, st.levels[path], 0, 0)
    if path == U_HEALTH:
        st.max_health += 1
        st.health += 1
    elif path == U_DECK:
        # top 2 of the command deck and 2 upgraded cards, shuffled, back on top
        buf = np.empty(4, np.int8)
        k = 0
        for _ in range(2):
            if st.cdeck_n > 0:
                st.cdeck_n -= 1
                buf[k] = st.cdeck[st.cdeck_n]
                k += 1
        for _ in range(cd.deck_per_level):
            if st.upile_n > 0 and k < 4:
                st.upile_n -= 1
                buf[k] = st.upile[st.upile_n]
                k += 1
        shuffle(st.rng[S_COMMANDS], buf, k)
        for i in range(k):
            st.cdeck[st.cdeck_n] = buf[i]
            st.cdeck_n += 1


# ---------------------------------------------------------------------------------------- decks
@njit
def draw_command(st):
    """Top command card, reshuffling the discard pile into a new deck when empty; -1 if none."""
    if st.cdeck_n == 0:
        for i in range(st.cdisc_n):
            st.cdeck[i] = st.cdisc[i]
        st.cdeck_n = st.cdisc_n
        st.cdisc_n = 0
        shuffle(st.rng[S_COMMANDS], st.cdeck, st.cdeck_n)
    if st.cdeck_n == 0:
        return -1
    st.cdeck_n -= 1
    return st.cdeck[st.cdeck_n]


@njit
def command_to_bottom(st, card):
    for i in range(st.cdeck_n, 0, -1):
        st.cdeck[i] = st.cdeck[i - 1]
    st.cdeck[0] = card
    st.cdeck_n += 1


@njit
def discard_command(st, card):
    st.cdisc[st.cdisc_n] = card
    st.cdisc_n += 1


@njit
def draw_enemy(st, log):
    """Top of the enemy deck: an enemy id, or -1 when the deck is empty or the Boss card turns up
    (the Boss then waits to enter at the next Hazard phase). A planner's copy draws PHANTOM."""
    if st.edeck_n == 0:
        return -1
    if st.imagine != 0:
        if st.edeck[0] == BOSS_CARD and st.edeck_n == 1:
            return -1
        return PHANTOM
    st.edeck_n -= 1
    e = st.edeck[st.edeck_n]
    if e == BOSS_CARD:
        st.boss_state = BOSS_WAITING
        log_row(st, log, LOG_BOSS, 0, 0, st.boss, 0, 0)
        return -1
    return e


@njit
def discard_enemy(st, e):
    if e != PHANTOM:
        st.edisc[st.edisc_n] = e
        st.edisc_n += 1
    st.edmg[e] = 0


# ---------------------------------------------------------------------------------------- board
@njit
def capacity(st):
    return N_ROWS - st.blocked


@njit
def enemies_on_board(st):
    n = 0
    for c in range(N_COLS):
        n += st.blen[c]
    return n


@njit
def enemies_remain(st):
    """Regular hazard cards are used while any enemy is on the board or in the enemy deck."""
    return enemies_on_board(st) > 0 or st.edeck_n > 0


@njit
def col_remove(st, c, k):
    """Take the card at index k out of column c; the cards below it move up to fill the gap."""
    e = st.board[c, k]
    n = st.blen[c]
    for i in range(k, n - 1):
        st.board[c, i] = st.board[c, i + 1]
    st.board[c, n - 1] = -1
    st.blen[c] = n - 1
    return e


@njit
def break_line(st, cd, c, log):
    """The nearest card of column c enters the ship's row: discarded without XP, its attack hurts."""
    e = col_remove(st, c, st.blen[c] - 1)
    log_row(st, log, LOG_BREAK, 0, e, c, cd.en_attack[e], 0)
    discard_enemy(st, e)
    damage_ship(st, cd.en_attack[e], log)


@njit
def col_insert(st, cd, c, k, e, log):
    """Put enemy e at index k of column c, pushing the cards from k on toward the ship; whatever is
    pushed past row C breaks the line (k beyond the column's room means e itself does)."""
    if k >= capacity(st):
        log_row(st, log, LOG_BREAK, 0, e, c, cd.en_attack[e], 0)
        discard_enemy(st, e)
        damage_ship(st, cd.en_attack[e], log)
        return
    if st.blen[c] >= capacity(st):
        break_line(st, cd, c, log)
    n = st.blen[c]
    for i in range(n, k, -1):
        st.board[c, i] = st.board[c, i - 1]
    st.board[c, k] = e
    st.blen[c] = n + 1


@njit
def col_append(st, c, e):
    """Place e in the first free position of column c (nearest the ship); False if it is full."""
    if st.blen[c] >= capacity(st):
        return False
    st.board[c, st.blen[c]] = e
    st.blen[c] += 1
    return True


@njit
def find_enemy(st, e):
    for c in range(N_COLS):
        for k in range(st.blen[c]):
            if st.board[c, k] == e:
                return c, k
    return -1, -1


@njit
def move_enemy(st, c, k, d, log):
    """Move the card at (c, k) one column by d (-1 left, +1 right); no move past an edge or into a
    full column. Returns whether it moved."""
    t = c + d
    if t < 0 or t >= N_COLS or st.blen[t] >= capacity(st):
        return False
    e = col_remove(st, c, k)
    col_append(st, t, e)
    log_row(st, log, LOG_MOVE_ENEMY, 0, e, c, t, 0)
    return True


@njit
def away_direction(st, c, prefer):
    """Direction away from the ship; in the ship's own column the side with more room (else `prefer`)."""
    if c < st.ship:
        return -1
    if c > st.ship:
        return 1
    if c == 0:
        return 1
    if c == N_COLS - 1:
        return -1
    left, right = st.blen[c - 1], st.blen[c + 1]
    if left < right:
        return -1
    if right < left:
        return 1
    return prefer


@njit
def kill(st, cd, ru, c, k, log):
    """An enemy defeated by the players: discard it, gain its XP (+1 for a ready Scientist captain)."""
    e = col_remove(st, c, k)
    xp = cd.en_xp[e]
    if crew_ready(st, ru, SCIENTIST):
        st.crew_used = 1
        xp += 1
        log_row(st, log, LOG_CREW, st.captain, SCIENTIST, 0, 0, 0)
    log_row(st, log, LOG_KILL, 0, e, c, xp, 0)
    discard_enemy(st, e)
    st.destroyed += 1
    gain_xp(st, cd, ru, xp)


@njit
def damage_boss(st, cd, amount, log):
    """Damage from one command card to the Boss: a shielded side absorbs the card's first point."""
    if cd.boss_shield[st.boss, st.boss_side] != 0 and st.boss_absorbed == 0 and amount > 0:
        st.boss_absorbed = 1
        amount -= 1
    if amount <= 0:
        return
    st.boss_hp = max(0, st.boss_hp - amount)
    log_row(st, log, LOG_BOSS, 1, amount, st.boss_hp, 0, 0)
    if st.boss_hp == 0 and st.outcome < 0:
        st.outcome = OUT_WIN


@njit
def hit_column(st, cd, ru, c, amount, chain, log):
    """Deal `amount` damage in column c from the current command card, nearest enemy first; with
    `chain` what is left after a kill goes on to the next card, and past the last enemy to the Boss
    if it is in this column. A shield absorbs one point per card. Returns the damage left over."""
    while amount > 0:
        n = st.blen[c]
        if n == 0:
            if st.boss_state == BOSS_IN_PLAY and st.boss_col == c:
                damage_boss(st, cd, amount, log)
                return 0
            return amount
        e = st.board[c, n - 1]
        if cd.en_shield[e] != 0 and st.absorbed[e] == 0:
            st.absorbed[e] = 1
            amount -= 1
            if amount == 0:
                return 0
        need = cd.en_health[e] - st.edmg[e]
        use = min(need, amount)
        st.edmg[e] += use
        amount -= use
        if st.edmg[e] >= cd.en_health[e]:
            kill(st, cd, ru, c, n - 1, log)
            if not chain:
                return amount
        else:
            return 0
    return 0


@njit
def new_enemies(st, cd, log):
    """Hazard New Enemies: everything moves down a row, then a new card enters row A of each column
    (left to right). With the enemy deck empty the Boss figure blocks a row instead."""
    if st.edeck_n == 0:
        st.blocked = min(N_ROWS, st.blocked + 1)
        for c in range(N_COLS):
            while st.blen[c] > capacity(st):
                break_line(st, cd, c, log)
        log_row(st, log, LOG_NEW, 0, -1, st.blocked, 0, 0)
        return
    for c in range(N_COLS):
        if st.blen[c] >= capacity(st) and st.blen[c] > 0:
            break_line(st, cd, c, log)
    for c in range(N_COLS):
        e = draw_enemy(st, log)
        if e < 0:
            continue
        st.edmg[e] = 0
        col_insert(st, cd, c, 0, e, log)
        log_row(st, log, LOG_NEW, 0, e, c, 0, 0)


@njit
def summon(st, cd, rng_draw, c, k, log):
    """Add an enemy at index k of column c: from the enemy deck, or a random discarded card once the
    deck is empty. Returns the id or -1."""
    if st.edeck_n > 0:
        e = draw_enemy(st, log)
    elif st.edisc_n > 0:
        if st.imagine != 0:
            e = PHANTOM
        else:
            i = rand_below(rng_draw, st.edisc_n)
            e = st.edisc[i]
            st.edisc_n -= 1
            st.edisc[i] = st.edisc[st.edisc_n]
    else:
        e = -1
    if e < 0:
        return -1
    st.edmg[e] = 0
    log_row(st, log, LOG_NEW, 1, e, c, 0, 0)
    col_insert(st, cd, c, k, e, log)
    return e


@njit
def attack_hazard(st, cd, cols, log):
    """Hazard Attack: the strongest enemy in the ship's column hurts it, if that column is marked."""
    c = st.ship
    if cols[c] == 0 or st.blen[c] == 0:
        return
    best = 0
    for k in range(st.blen[c]):
        best = max(best, cd.en_attack[st.board[c, k]])
    log_row(st, log, LOG_ATTACK, 0, c, best, 0, 0)
    damage_ship(st, best, log)


@njit
def move_hazard(st, cd, frm, to, log):
    """Hazard Move: the card nearest the ship in `frm` moves to `to`; with none there, a new card is
    added to `frm` and moved."""
    if st.blen[frm] == 0:
        e = draw_enemy(st, log)
        if e < 0:
            return
        st.edmg[e] = 0
        log_row(st, log, LOG_NEW, 0, e, frm, 0, 0)
        if not col_append(st, to, e):
            col_append(st, frm, e)
        return
    move_enemy(st, frm, st.blen[frm] - 1, to - frm, log)


@njit
def enemy_effect(st, cd, ru, e, fx, log):
    """One activation effect of enemy e (wherever it now is). Returns False if e left the board."""
    c, k = find_enemy(st, e)
    if c < 0:
        return False
    log_row(st, log, LOG_EFFECT, 0, e, fx, c, 0)
    if fx == F_HEAT:
        add_heat(st, ru, 1, log)
    elif fx == F_ATTACK_SAME:
        if st.ship == c:
            damage_ship(st, cd.en_attack[e], log)
    elif fx == F_ATTACK_ADJ:
        if abs(st.ship - c) <= 1:
            damage_ship(st, cd.en_attack[e], log)
    elif fx == F_DAMAGE:
        damage_ship(st, 1, log)
    elif fx == F_HEAL_SHIP:
        heal_ship(st, 1)
    elif fx == F_SUMMON:
        summon(st, cd, st.rng[S_SUMMON], c, k + 1, log)
    elif fx == F_MOVE_L:
        move_enemy(st, c, k, -1, log)
    elif fx == F_MOVE_R:
        move_enemy(st, c, k, 1, log)
    elif fx == F_MOVE_AWAY:
        move_enemy(st, c, k, away_direction(st, c, -1), log)
    elif fx == F_MOVE_TOWARD:
        if c != st.ship:
            move_enemy(st, c, k, 1 if st.ship > c else -1, log)
    elif fx == F_XP_PLUS:
        gain_xp(st, cd, ru, 1)
    elif fx == F_XP_MINUS:
        lose_xp(st, 1)
    elif fx == F_DISCARD:
        col_remove(st, c, k)
        discard_enemy(st, e)
        return False
    return True


@njit
def activate(st, cd, ru, log):
    """Hazard Activate: every enemy on the board, left to right and top to bottom as they stand now
    (cards summoned or moved meanwhile are not activated again), resolves its effects in order."""
    order = np.empty(N_COLS * N_ROWS, np.int8)
    n = 0
    for c in range(N_COLS):
        for k in range(st.blen[c]):
            order[n] = st.board[c, k]
            n += 1
    for i in range(n):
        e = order[i]
        for j in range(MAX_FX):
            fx = cd.en_fx[e, j]
            if fx == 0 or st.outcome >= 0:
                break
            if not enemy_effect(st, cd, ru, e, fx, log):
                break


@njit
def resolve_hazard(st, cd, ru, h, log):
    kind = cd.hz_kind[h]
    if kind == H_NEW:
        new_enemies(st, cd, log)
    elif kind == H_ATTACK:
        attack_hazard(st, cd, cd.hz_cols[h], log)
    elif kind == H_MOVE:
        move_hazard(st, cd, cd.hz_from[h], cd.hz_to[h], log)
    elif kind == H_ACTIVATE:
        activate(st, cd, ru, log)
    elif kind == H_HELP:
        if cd.hz_cols[h, st.ship] != 0:
            if cd.hz_bonus[h] == 0:
                gain_xp(st, cd, ru, 1)
            else:
                heal_ship(st, 1)


@njit
def boss_effect(st, cd, ru, fx, log):
    """One effect of a Boss hazard card, acting from the Boss's column."""
    b, side, c = st.boss, st.boss_side, st.boss_col
    log_row(st, log, LOG_BOSS_FX, 0, fx, c, 0, 0)
    if fx == F_HEAT:
        add_heat(st, ru, 1, log)
    elif fx == F_ATTACK_SAME:
        if st.ship == c:  # the Boss shoots through enemy cards
            damage_ship(st, cd.boss_attack[b, side], log)
    elif fx == F_ATTACK_ADJ:
        if abs(st.ship - c) <= 1:
            damage_ship(st, cd.boss_attack[b, side], log)
    elif fx == F_DAMAGE:
        damage_ship(st, 1, log)
    elif fx == F_SUMMON:
        summon(st, cd, st.rng[S_SUMMON], c, 0, log)
    elif fx == F_MOVE_L:
        st.boss_col = max(0, c - 1)
    elif fx == F_MOVE_R:
        st.boss_col = min(N_COLS - 1, c + 1)
    elif fx == F_MOVE_AWAY:
        d = away_direction(st, c, cd.boss_prefer[b, side])
        if c == st.ship and (c + d < 0 or c + d >= N_COLS):
            d = -d
        st.boss_col = min(N_COLS - 1, max(0, c + d))
    elif fx == F_MOVE_TOWARD:
        if st.ship > c:
            st.boss_col = c + 1
        elif st.ship < c:
            st.boss_col = c - 1
    elif fx == F_XP_MINUS:
        lose_xp(st, 1)
    elif fx == F_EMP:
        st.skip_cmd = 1
    elif fx == F_FLIP:
        st.boss_side = 1 - side
    elif fx == F_HEAL_BOSS:
        st.boss_hp = min(cd.boss_health[b], st.boss_hp + 1)


@njit
def resolve_boss_hazard(st, cd, ru, col, log):
    for j in range(MAX_FX):
        fx = cd.boss_fx[st.boss, col, j]
        if fx == 0 or st.outcome >= 0:
            break
        boss_effect(st, cd, ru, fx, log)


# ---------------------------------------------------------------------------------------- commands
@njit
def move_ship(st, d, steps):
    """Move the ship `steps` columns in direction d, stopping at an edge (1 and 4 are not adjacent)."""
    for _ in range(steps):
        t = st.ship + d
        if 0 <= t < N_COLS:
            st.ship = t


@njit
def heats(kind):
    return kind == C_EMP or kind == C_ROCKET or kind == C_LASER or kind == C_CARPET


@njit
def cool(st, cd, ru, log):
    """Turn a command card face down instead of resolving it: the red cube moves back."""
    st.heat = max(0, st.heat - cd.cooling[st.levels[1]])


@njit
def resolve_command(st, cd, ru, kind, a, b, log):
    """Carry out command `kind` with the choices a, b:
    moves: a = 1 reverses the direction (Pilot captain); tractor beam: a = target (column*3 + index,
    12 = the Boss), b = direction -1/+1; shoot / double shot: a = column offset -1/0/+1 (Gunner);
    rocket: a = rockets per column in base 5 (column 0 lowest); teleport: a = column; free move:
    a = direction. Returns True for an EMP (the hazards above it are skipped)."""
    st.absorbed[:] = 0
    st.boss_absorbed = 0
    if heats(kind):
        # the heat comes first: a Boss killed by a card that overheats the ship is no win
        add_heat(st, ru, 1, log)
        if st.outcome >= 0:
            return False
    if kind == C_EMP:
        return True
    if kind == C_MOVE_L or kind == C_MOVE_R or kind == C_DMOVE_L or kind == C_DMOVE_R:
        d = -1 if (kind == C_MOVE_L or kind == C_DMOVE_L) else 1
        if a == 1 and crew_ready(st, ru, PILOT):
            st.crew_used = 1
            log_row(st, log, LOG_CREW, st.captain, PILOT, 0, 0, 0)
            d = -d
        move_ship(st, d, 2 if (kind == C_DMOVE_L or kind == C_DMOVE_R) else 1)
    elif kind == C_FREEMOVE:
        move_ship(st, a, 1)
    elif kind == C_TELEPORT:
        st.ship = a
    elif kind == C_TRACTOR:
        if a == 12:
            if st.boss_state == BOSS_IN_PLAY:
                st.boss_col = min(N_COLS - 1, max(0, st.boss_col + b))
        else:
            c = a // 3
            k = a % 3
            if k < st.blen[c]:
                move_enemy(st, c, k, b, log)
    elif kind == C_SHOOT or kind == C_DSHOT:
        c = st.ship
        if a != 0 and crew_ready(st, ru, GUNNER) and 0 <= c + a < N_COLS:
            st.crew_used = 1
            log_row(st, log, LOG_CREW, st.captain, GUNNER, 0, 0, 0)
            c += a
        if kind == C_SHOOT:
            hit_column(st, cd, ru, c, 1, False, log)
        else:
            hit_column(st, cd, ru, c, 2, True, log)
    elif kind == C_HEAL:
        heal_ship(st, 1)
    elif kind == C_ROCKET:
        left = cd.rockets[st.levels[0]]
        code = a
        for c in range(N_COLS):
            n = code % 5
            code //= 5
            for _ in range(min(n, left)):
                hit_column(st, cd, ru, c, 1, False, log)
                left -= 1
    elif kind == C_LASER:
        hit_column(st, cd, ru, st.ship, cd.laser[st.levels[1]], True, log)
    elif kind == C_CARPET:
        k = N_ROWS - 1 - st.blocked
        if k >= 0:
            for c in range(N_COLS):
                if st.blen[c] > k:
                    kill(st, cd, ru, c, k, log)
    return False


# ---------------------------------------------------------------------------------------- boss
@njit
def boss_enters(st, cd, log):
    """The revealed Boss enters at the start of the Hazard phase, in the ship's column, at full health."""
    st.boss_state = BOSS_IN_PLAY
    st.boss_col = st.ship
    st.boss_hp = cd.boss_health[st.boss]
    st.boss_side = 0
    st.boss_round = st.rounds
    log_row(st, log, LOG_BOSS, 2, st.boss, st.boss_col, st.boss_hp, 0)


@njit
def hacker_swap(st, c1, k1, c2, k2, log):
    e = st.board[c1, k1]
    st.board[c1, k1] = st.board[c2, k2]
    st.board[c2, k2] = e
    st.crew_used = 1
    log_row(st, log, LOG_CREW, st.captain, 4, c1 * 3 + k1, c2 * 3 + k2, 0)

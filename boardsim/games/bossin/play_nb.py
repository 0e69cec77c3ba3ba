"""Bossin' Space: set-up, one round (Hazard phase, secret play, Command phase), one whole game."""
import numpy as np

from boardsim._jit import njit
from boardsim.rng import rand_below, seed_stream, shuffle

from . import policies_nb as P
from . import rollout_nb as RO
from . import rules_nb as R
from .state_nb import (
    BOSS_CARD, BOSS_UNSEEN, BOSS_WAITING, H_HELP, HAND, LOG_COOL, LOG_CMD, LOG_END, LOG_HAZARD, LOG_PLAY,
    LOG_REFRESH, LOG_ROUND, LOG_SKIP, LOG_STATUS, MAX_ENEMIES, MAX_SEATS, N_BOSSES, N_STREAMS, OUT_ROUND_CAP,
    S_COMMANDS, S_HAZARDS, S_SETUP,
)


@njit
def setup(st, cd, ru, root_seed, g):
    """A fresh game g of root_seed: decks dealt from their own random streams."""
    for s in range(N_STREAMS):
        seed_stream(st.rng[s], root_seed, g, s)
    st.board[:, :] = -1
    st.blen[:] = 0
    st.blocked = 0
    st.edmg[:] = 0
    st.absorbed[:] = 0
    # the random Boss is always drawn, so a fixed Boss leaves the set-up stream where it was
    pick = rand_below(st.rng[S_SETUP], N_BOSSES)
    st.boss = ru.boss - 1 if ru.boss > 0 else pick
    # enemy deck: Boss card at the bottom, then the 3 XP, 2 XP and (on top) 1 XP cards
    big = 0 if ru.players <= 2 else 1
    st.edeck[0] = BOSS_CARD
    n = 1
    pool = np.empty(MAX_ENEMIES, np.int8)
    for xp in range(3, 0, -1):
        m = 0
        for e in range(cd.n_enemies):
            if cd.en_xp[e] == xp:
                pool[m] = e
                m += 1
        shuffle(st.rng[S_SETUP], pool, m)
        count = ru.tiers[xp - 1] if ru.tiers[xp - 1] >= 0 else cd.tiers[big, xp - 1]
        for i in range(min(count, m)):
            st.edeck[n] = pool[i]
            n += 1
    st.edeck_n = n
    st.edisc_n = 0
    for i in range(cd.n_upg):
        st.upile[i] = cd.upg_cmds[i]
    st.upile_n = cd.n_upg
    shuffle(st.rng[S_SETUP], st.upile, st.upile_n)
    for i in range(cd.n_base):
        st.cdeck[i] = cd.base_cmds[i]
    st.cdeck_n = cd.n_base
    shuffle(st.rng[S_COMMANDS], st.cdeck, st.cdeck_n)
    st.cdisc_n = 0
    m = 0
    for h in range(cd.n_haz):
        if cd.hz_kind[h] != H_HELP or ru.easy != 0:
            st.hdeck[m] = h
            m += 1
    st.hdeck_n = m
    shuffle(st.rng[S_HAZARDS], st.hdeck, m)
    st.hdisc_n = 0
    st.ship = cd.ship_start
    st.health = ru.start_health
    st.max_health = ru.start_health
    st.heat = 0
    st.xp = 0
    st.xp_total = 0
    st.cubes = 0
    st.pending = 0
    st.levels[:] = 0
    st.hand[:, :] = -1
    st.hand_n[:] = 0
    st.timeline[:] = -1
    st.played[:] = -1
    st.boss_state = BOSS_UNSEEN
    st.boss_col = 0
    st.boss_hp = cd.boss_health[st.boss]
    st.boss_side = 0
    st.boss_absorbed = 0
    st.rounds = 0
    st.captain = 0
    st.crew_used = 0
    st.skip_cmd = 0
    st.imagine = 0
    st.destroyed = 0
    st.boss_round = 0
    st.outcome = -1
    st.log_n = 0


@njit
def draw_hazard(st):
    """Top hazard card; an empty deck is refilled by shuffling the earlier rounds' hazard cards."""
    if st.hdeck_n == 0:
        for i in range(st.hdisc_n):
            st.hdeck[i] = st.hdisc[i]
        st.hdeck_n = st.hdisc_n
        st.hdisc_n = 0
        shuffle(st.rng[S_HAZARDS], st.hdeck, st.hdeck_n)
    st.hdeck_n -= 1
    return st.hdeck[st.hdeck_n]


@njit
def hand_limit(ru):
    return 5 if ru.players <= 3 else 4


@njit
def refill(st, ru, seat):
    while st.hand_n[seat] < hand_limit(ru):
        c = R.draw_command(st)
        if c < 0:
            break
        st.hand[seat, st.hand_n[seat]] = c
        st.hand_n[seat] += 1


@njit
def seat_quota(ru, captain, seat):
    """Cards each seat plays from hand (4 in all)."""
    p = ru.players
    if p == 2:
        return 2
    if p == 3:
        return 2 if seat == captain else 1
    if p == 4:
        return 1
    return 0 if seat == captain else 1


@njit
def hazard_phase(st, cd, ru, w, pol, log):
    if st.boss_state == BOSS_WAITING:
        R.boss_enters(st, cd, log)
    if ru.players >= 2:
        for seat in range(ru.players):
            refill(st, ru, seat)
        if P.want_refresh(st, cd, ru, w, pol, st.captain):
            for i in range(st.hand_n[st.captain]):
                R.discard_command(st, st.hand[st.captain, i])
            st.hand_n[st.captain] = 0
            refill(st, ru, st.captain)
            log_refresh = st.captain
            R.log_row(st, log, LOG_REFRESH, log_refresh, 0, 0, 0, 0)
    for i in range(4):
        if st.timeline[i] >= 0:
            st.hdisc[st.hdisc_n] = st.timeline[i]
            st.hdisc_n += 1
        st.timeline[i] = -1
    if R.enemies_remain(st):
        for i in range(4):
            st.timeline[i] = draw_hazard(st)
            R.log_row(st, log, LOG_HAZARD, 0, i, st.timeline[i], 0, 0)


@njit
def play_commands(st, cd, ru, w, pol, log):
    """Each seat secretly plays from its own hand (solo: draw 3 play 2, draw 4 play 2). Returns how
    many commands lie on the table (4 unless the command cards ran out)."""
    st.played[:] = -1
    n_played = 0
    idx = np.empty(4, np.int64)
    if ru.players == 1:
        for draw in (3, 4):
            cards = np.empty(4, np.int8)
            m = 0
            for _ in range(draw):
                c = R.draw_command(st)
                if c >= 0:
                    cards[m] = c
                    m += 1
            owner = np.zeros(m, np.int64)
            quota = np.full(1, 2, np.int64)
            k = P.pick_cards(st, cd, ru, w, pol, cards, owner, m, quota, idx)
            chosen = np.zeros(m, np.bool_)
            for q in range(k):
                chosen[idx[q]] = True
                st.played[n_played] = cards[idx[q]]
                R.log_row(st, log, LOG_PLAY, 0, cards[idx[q]], 0, 0, 0)
                n_played += 1
            for i in range(m):
                if not chosen[i]:
                    R.command_to_bottom(st, cards[i])
        return n_played
    if pol == P.POLICY_OPEN:
        # the cheat: one choice over every hand, as if the players could talk
        cards = np.empty(MAX_SEATS * HAND, np.int8)
        owner = np.empty(MAX_SEATS * HAND, np.int64)
        m = 0
        quota = np.zeros(ru.players, np.int64)
        for seat in range(ru.players):
            quota[seat] = seat_quota(ru, st.captain, seat)
            for i in range(st.hand_n[seat]):
                cards[m] = st.hand[seat, i]
                owner[m] = seat
                m += 1
        k = P.pick_cards(st, cd, ru, w, pol, cards, owner, m, quota, idx)
        for q in range(k):
            seat = owner[idx[q]]
            # index within the seat's hand
            pos = idx[q]
            for s2 in range(seat):
                pos -= st.hand_n[s2]
            st.hand[seat, pos] = -1 - st.hand[seat, pos]   # marked, removed below
        for seat in range(ru.players):
            n_played = take_marked(st, seat, n_played, log)
        return n_played
    for seat in range(ru.players):
        quota = np.full(1, seat_quota(ru, st.captain, seat), np.int64)
        if quota[0] == 0:
            continue
        m = st.hand_n[seat]
        cards = st.hand[seat, :m].copy()
        owner = np.zeros(m, np.int64)
        k = P.pick_cards(st, cd, ru, w, pol, cards, owner, m, quota, idx)
        for q in range(k):
            st.hand[seat, idx[q]] = -1 - st.hand[seat, idx[q]]
        n_played = take_marked(st, seat, n_played, log)
    return n_played


@njit
def take_marked(st, seat, n_played, log):
    """Move the seat's marked (negative) hand cards to the table, keeping the rest in order."""
    m = 0
    for i in range(st.hand_n[seat]):
        c = st.hand[seat, i]
        if c < 0:
            st.played[n_played] = -1 - c
            R.log_row(st, log, LOG_PLAY, seat, -1 - c, 0, 0, 0)
            n_played += 1
        else:
            st.hand[seat, m] = c
            m += 1
    for i in range(m, st.hand_n[seat]):
        st.hand[seat, i] = -1
    st.hand_n[seat] = m
    return n_played


@njit
def place_column(st, cd, ru, w, pol, col, j, cooled, a, b, used, log):
    """Column col: revealed command j (none if j < 0) resolved with choice (a, b) or used to cool the
    ship, then the column's hazard and Boss hazard."""
    emp = False
    if j < 0:
        st.skip_cmd = 0
    else:
        used[j] = True
        kind = st.played[j]
        if st.skip_cmd != 0:
            st.skip_cmd = 0
            R.log_row(st, log, LOG_SKIP, 0, kind, col, 0, 0)
        elif cooled:
            R.cool(st, cd, ru, log)
            R.log_row(st, log, LOG_COOL, 0, kind, col, st.heat, 0)
        else:
            R.log_row(st, log, LOG_CMD, 0, kind, col, a, b)
            emp = R.resolve_command(st, cd, ru, kind, a, b, log)
    if st.outcome < 0:
        P.finish_column(st, cd, ru, w, pol, col, emp, log)


@njit
def any_unused(used):
    for j in range(4):
        if not used[j]:
            return True
    return False


@njit
def columns_from(st, cd, ru, w, pol, first, used, scratch, log):
    """Columns first..3, each arranged by the captain's planner."""
    for col in range(first, 4):
        if st.outcome >= 0:
            break
        j, cooled, a, b = -1, False, 0, 0
        if any_unused(used):
            j, cooled, a, b = P.plan_column(st, cd, ru, w, pol, col, st.played, used, scratch, log)
        place_column(st, cd, ru, w, pol, col, j, cooled, a, b, used, log)


@njit
def start_commands(st, cd, ru, w, pol, n_played, scratch, log):
    """The Hacker's swap; returns the revealed commands' used marks (missing ones count as used)."""
    P.plan_hacker(st, cd, ru, w, pol, scratch, log)
    used = np.zeros(4, np.bool_)
    for j in range(n_played, 4):
        used[j] = True
    return used


@njit
def end_commands(st, n_played):
    for j in range(n_played):
        R.discard_command(st, st.played[j])
    st.skip_cmd = 0


@njit
def command_phase(st, cd, ru, w, pol, n_played, scratch, log):
    """The captain arranges the revealed commands column by column; each column resolves its
    command (or cools the ship with it), then its hazard, then its Boss hazard."""
    used = start_commands(st, cd, ru, w, pol, n_played, scratch, log)
    columns_from(st, cd, ru, w, pol, 0, used, scratch, log)
    end_commands(st, n_played)


@njit
def begin_round(st, cd, ru, w, pol, log):
    """Hazard phase and secret play; returns how many commands lie on the table."""
    st.rounds += 1
    st.crew_used = 0
    R.log_row(st, log, LOG_ROUND, st.captain, st.rounds, 0, 0, 0)
    hazard_phase(st, cd, ru, w, pol, log)
    return play_commands(st, cd, ru, w, pol, log)


@njit
def end_round(st, ru, log):
    R.log_row(st, log, LOG_STATUS, st.ship, st.health, st.heat, st.xp_total, st.boss_hp)
    st.captain = (st.captain + 1) % ru.players


@njit
def play_round(st, cd, ru, w, pol, scratch, log):
    """One round with every decision by policy pol (never the rollout: its imagined futures use this)."""
    n_played = begin_round(st, cd, ru, w, pol, log)
    command_phase(st, cd, ru, w, pol, n_played, scratch, log)
    end_round(st, ru, log)


@njit
def play_game(st, cd, ru, w, pol, root_seed, g, log, out):
    setup(st, cd, ru, root_seed, g)
    scratch = P.scratch_states(1)
    while st.outcome < 0:
        if st.rounds >= ru.round_cap:
            st.outcome = OUT_ROUND_CAP
            break
        if pol == P.POLICY_ROLLOUT:
            RO.play_round_rollout(st, cd, ru, w, scratch, log)
        else:
            play_round(st, cd, ru, w, pol, scratch, log)
    R.log_row(st, log, LOG_END, 0, st.outcome, st.rounds, 0, 0)
    out.outcome = st.outcome
    out.turns = st.rounds
    out.boss = st.boss + 1
    out.boss_health_left = st.boss_hp
    out.boss_damage = cd.boss_health[st.boss] - st.boss_hp
    out.boss_reached_round = st.boss_round
    out.health = st.health
    out.overheat = st.heat
    out.xp = st.xp_total
    out.upgrades_bought = st.cubes
    out.enemies_destroyed = st.destroyed
    out.enemies_left = R.enemies_on_board(st) + max(0, st.edeck_n - (1 if st.boss_state == BOSS_UNSEEN else 0))

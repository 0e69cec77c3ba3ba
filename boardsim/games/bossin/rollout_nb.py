"""The rollout policy for Bossin' Space, njit: the heuristic, improved by simulation where the captain
arranges the revealed commands (a decision on public information only).

Every other decision (the seats' secret picks, refreshing, upgrades, the Hacker's swap) stays with the
heuristic. At each column the captain fills (unless a Boss EMP skips it) the policy
  1. takes candidates: the heuristic planner's own choice (card, and how it is resolved or cooling),
     then the planner's next best choices by its value (`rollout_candidates` in all, choices of equal
     planner value counted once; 1 means the plain heuristic);
  2. imagines `rollout_samples` futures. Each is a copy of the state in which everything the captain
     cannot know is dealt afresh: every random stream of the copy is reseeded, and every face-down
     pile is re-dealt from what the captain knows of it, in a canonical (sorted) order first so the
     true hidden order cannot leak through:
       - the enemy deck: as many cards of each XP tier as it holds (the tiers are stacked 1 XP on
         top, then 2, then 3 above the Boss card), drawn from that tier's enemies never seen (neither
         on the board nor discarded: which enemies were dealt into the deck is hidden);
       - the command cards the captain has not seen: the other seats' hands and the command deck are
         pooled and re-dealt (hand sizes kept); the upgrade pile and the hazard deck are reshuffled;
  3. plays every candidate in every future: the candidate, the rest of the round and at most
     `rollout_horizon` more rounds, all by the heuristic, then scores the end: 1 for a win, 0 for a
     loss (or the round cap), else logistic((planner value - rollout_leaf_mid) / rollout_leaf_scale);
  4. takes the candidate with the best mean score; ties go to the earlier candidate, so the
     heuristic's own choice wins whenever the futures cannot tell the candidates apart.
Every candidate meets the same futures (common random numbers): the futures of one decision are
seeded from one draw of the policy's own stream S_ROLLOUT and the sample index, so the game's own
streams are consumed exactly as under the heuristic. The futures are played by play_nb's heuristic
functions, which never reach this module (numba compiles no recursion), and write no log.
"""
import numpy as np

from boardsim._jit import njit
from boardsim.rng import next_u64, seed_stream, shuffle

from . import play_nb as PL
from . import policies_nb as P
from . import rules_nb as R
from .state_nb import (
    BOSS_CARD, LOG_WIDTH, MAX_ENEMIES, MAX_HAZ, N_CMD_KINDS, N_COLS, N_STREAMS, OUT_WIN, S_ROLLOUT,
)

MAX_CANDIDATES = 8


# ----------------------------------------------------------------------------------------------
# hidden information
@njit
def canonical_shuffle(r, arr, n, n_ids):
    """Sort arr[:n] (ids below n_ids) and shuffle it with r: the result ignores arr's order."""
    count = np.zeros(n_ids, np.int64)
    for i in range(n):
        count[arr[i]] += 1
    j = 0
    for v in range(n_ids):
        for _ in range(count[v]):
            arr[j] = v
            j += 1
    shuffle(r, arr, n)


@njit
def rerandomise(st, cd, ru, base, sample):
    """Deal afresh, from (base, sample), everything in the copy `st` the captain cannot know."""
    for k in range(N_STREAMS):
        seed_stream(st.rng[k], base, sample, k)
    r = np.empty(4, np.uint64)
    seed_stream(r, base, sample, N_STREAMS)
    # commands: the other seats' hands and the deck, pooled
    pool = np.empty(st.cdeck.shape[0] + st.hand.size, np.int8)
    m = 0
    for i in range(st.cdeck_n):
        pool[m] = st.cdeck[i]
        m += 1
    for s in range(ru.players):
        if s != st.captain:
            for i in range(st.hand_n[s]):
                pool[m] = st.hand[s, i]
                m += 1
    canonical_shuffle(r, pool, m, N_CMD_KINDS)
    m = 0
    for s in range(ru.players):
        if s != st.captain:
            for i in range(st.hand_n[s]):
                st.hand[s, i] = pool[m]
                m += 1
    for i in range(st.cdeck_n):
        st.cdeck[i] = pool[m]
        m += 1
    canonical_shuffle(r, st.upile, st.upile_n, N_CMD_KINDS)
    canonical_shuffle(r, st.hdeck, st.hdeck_n, MAX_HAZ)
    # enemies: per tier, the deck's count drawn from the tier's enemies never seen
    seen = np.zeros(MAX_ENEMIES + 1, np.bool_)
    for c in range(N_COLS):
        for k in range(st.blen[c]):
            seen[st.board[c, k]] = True
    for i in range(st.edisc_n):
        seen[st.edisc[i]] = True
    tier = np.zeros(4, np.int64)
    n = st.edeck_n
    first = 0
    if n > 0 and st.edeck[0] == BOSS_CARD:
        first = 1
    for i in range(first, n):
        tier[cd.en_xp[st.edeck[i]]] += 1
    j = first
    unseen = np.empty(MAX_ENEMIES, np.int8)
    for xp in range(3, 0, -1):
        if tier[xp] == 0:
            continue
        u = 0
        for e in range(cd.n_enemies):
            if cd.en_xp[e] == xp and not seen[e]:
                unseen[u] = e
                u += 1
        shuffle(r, unseen, u)
        for i in range(min(tier[xp], u)):
            st.edeck[j] = unseen[i]
            j += 1


# ----------------------------------------------------------------------------------------------
# candidates and futures
@njit
def candidates(st, cd, ru, w, col, used, scratch, log, k_max, cand):
    """Up to k_max choices (j, cooled, a, b) into `cand`: the heuristic planner's own, then its next
    best by planner value (one per distinct value, earlier enumeration first). Returns how many."""
    j0, c0, a0, b0 = P.plan_column(st, cd, ru, w, P.POLICY_HEURISTIC, col, st.played, used, scratch, log)
    cand[0, 0], cand[0, 1], cand[0, 2], cand[0, 3] = j0, c0, a0, b0
    nc = 1
    val = np.full(MAX_CANDIDATES, np.inf)
    for j in range(4):
        if used[j]:
            continue
        kind = st.played[j]
        dup = False
        for jj in range(j):
            if not used[jj] and st.played[jj] == kind:
                dup = True
        if dup:
            continue
        for i in range(P.n_options(kind) + 1):
            cooled = i == P.n_options(kind)
            a, b = 0, 0
            if not cooled:
                ok, a, b = P.option_args(st, cd, ru, kind, i)
                if not ok:
                    continue
            scratch[0] = st
            v = P.imagine(scratch[0], cd, ru, w, col, kind, cooled, a, b, False, log)
            if j == j0 and cooled == c0 and (cooled or (a == a0 and b == b0)):
                val[0] = v    # the heuristic's own choice stays first (later equals are the same to it)
                continue
            # keep the best k_max - 1 others, one per value, earlier first among equals
            pos = nc
            same = False
            for q in range(nc):
                if val[q] == v:
                    same = True
                if q > 0 and pos == nc and val[q] < v:
                    pos = q
            if same or pos >= k_max:
                continue
            last = min(nc, k_max - 1)
            for q in range(last, pos, -1):
                val[q] = val[q - 1]
                for k in range(4):
                    cand[q, k] = cand[q - 1, k]
            val[pos] = v
            cand[pos, 0], cand[pos, 1], cand[pos, 2], cand[pos, 3] = j, cooled, a, b
            nc = last + 1
    return nc


@njit
def leaf_value(st, cd, ru, w):
    v = P.value(st, cd, ru, w)
    return 1.0 / (1.0 + np.exp(-(v - w[P.W_ROLLOUT_LEAF_MID]) / w[P.W_ROLLOUT_LEAF_SCALE]))


@njit
def future(st, cd, ru, w, col, choice, used, n_played, horizon, scratch, log):
    """In the imagined world st: put `choice` in column col, let the heuristic finish the round and
    play at most `horizon` more rounds (all if horizon < 0); return the score of the end."""
    pol = np.int64(P.POLICY_HEURISTIC)
    u = used.copy()
    PL.place_column(st, cd, ru, w, pol, col, np.int64(choice[0]), choice[1] != 0, np.int64(choice[2]),
                    np.int64(choice[3]), u, log)
    PL.columns_from(st, cd, ru, w, pol, col + 1, u, scratch, log)
    PL.end_commands(st, n_played)
    PL.end_round(st, ru, log)
    t = 0
    while st.outcome < 0 and (horizon < 0 or t < horizon) and st.rounds < ru.round_cap:
        PL.play_round(st, cd, ru, w, pol, scratch, log)
        t += 1
    if st.outcome == OUT_WIN:
        return 1.0
    if st.outcome >= 0 or st.rounds >= ru.round_cap:
        return 0.0
    return leaf_value(st, cd, ru, w)


@njit
def rollout_column(st, cd, ru, w, col, used, n_played, scratch, log):
    """The captain's choice (j, cooled, a, b) for column col, by rollouts among a few candidates."""
    k_max = min(int(w[P.W_ROLLOUT_CANDIDATES]), MAX_CANDIDATES)
    if k_max < 2:
        j, cooled, a, b = P.plan_column(st, cd, ru, w, P.POLICY_HEURISTIC, col, st.played, used, scratch, log)
        return np.int64(j), cooled, np.int64(a), np.int64(b)
    cand = np.zeros((MAX_CANDIDATES, 4), np.int64)
    nc = candidates(st, cd, ru, w, col, used, scratch, log, k_max, cand)
    if nc >= 2:
        samples = max(1, int(w[P.W_ROLLOUT_SAMPLES]))
        horizon = int(w[P.W_ROLLOUT_HORIZON])
        base = next_u64(st.rng[S_ROLLOUT])
        total = np.zeros(nc, np.float64)
        worlds = P.scratch_states(2)
        quiet = np.zeros((0, LOG_WIDTH), np.int32)
        for i in range(samples):
            worlds[0] = st
            rerandomise(worlds[0], cd, ru, base, i)
            for c in range(nc):
                worlds[1] = worlds[0]
                total[c] += future(worlds[1], cd, ru, w, col, cand[c], used, n_played, horizon, scratch, quiet)
        best = 0
        for c in range(1, nc):
            if total[c] > total[best]:
                best = c
        cand[0] = cand[best]
    return cand[0, 0], cand[0, 1] != 0, cand[0, 2], cand[0, 3]


@njit
def command_phase_rollout(st, cd, ru, w, n_played, scratch, log):
    """play_nb.command_phase for the rollout policy: the captain's columns by rollout_column."""
    pol = np.int64(P.POLICY_ROLLOUT)
    used = PL.start_commands(st, cd, ru, w, pol, n_played, scratch, log)
    for col in range(4):
        if st.outcome >= 0:
            break
        j, cooled, a, b = -1, False, 0, 0
        if PL.any_unused(used):
            if st.skip_cmd != 0:
                j, cooled, a, b = P.plan_column(st, cd, ru, w, pol, col, st.played, used, scratch, log)
            else:
                j, cooled, a, b = rollout_column(st, cd, ru, w, col, used, n_played, scratch, log)
        PL.place_column(st, cd, ru, w, pol, col, j, cooled, a, b, used, log)
    PL.end_commands(st, n_played)


@njit
def play_round_rollout(st, cd, ru, w, scratch, log):
    """play_nb.play_round for the rollout policy."""
    n_played = PL.begin_round(st, cd, ru, w, np.int64(P.POLICY_ROLLOUT), log)
    command_phase_rollout(st, cd, ru, w, n_played, scratch, log)
    PL.end_round(st, ru, log)

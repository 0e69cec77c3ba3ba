"""The rollout policy for Cowboy Bebop, njit: the heuristic, improved by simulation at each action.

Only the action decision is rolled out; event and contact options, leads, abilities and buying stay
with the heuristic. At each action decision of seat s the policy
  1. takes candidates: the heuristic's own action, Pass, then the legal actions a cheap prior ranks
     highest (`rollout_candidates` in all; 1 means the plain heuristic);
  2. imagines `rollout_samples` futures. Each is a copy of the state in which everything the players
     cannot know is dealt afresh: every random stream of the copy (decks, dice, policy noise) is
     reseeded, and every face-down deck is re-dealt from what a player knows it holds, put in a
     canonical (sorted) order first so the true hidden order cannot leak through:
       - the event deck: its cards that have been seen keep their identity, and its never-seen
         Vicious cards are drawn afresh from every Vicious card never seen (which of the eight are
         in the game is hidden);
       - the contact deck and the three lead decks: their cards (known by elimination), reshuffled;
       - the bounty deck: as many bounties as it holds, drawn from the bounties never seen (which
         bounties were dealt is hidden);
  3. plays every candidate in every future: the candidate, the rest of the turn and at most
     `rollout_horizon` more player turns, all by the heuristic, then scores the end: 1 for a win,
     0 for a loss (starved or out of turns), else the leaf value, a logistic estimate of the
     heuristic's chance to win from there (rollout_value_* weights, fitted to heuristic games);
  4. takes the candidate with the best mean score; ties go to the earlier candidate, so the
     heuristic's own action wins whenever the futures cannot tell the candidates apart.
Every candidate meets the same futures (common random numbers): the futures of one decision are
seeded from one draw of the policy's own stream S_ROLLOUT and the sample index, so the game's own
streams are consumed exactly as under the heuristic, and a decision depends on what the players can
see and on S_ROLLOUT only. The futures are played by rules_nb.play_turn_heuristic, which never
reaches this module again (numba compiles no recursion), and write no log.
"""
import numpy as np
from numba.extending import overload

from boardsim._jit import njit
from boardsim.rng import next_u64, seed_stream, shuffle

from . import policies_nb as P
from . import rules_nb as R
from .state_nb import (
    A_CHASE, A_EFFICIENT_PILOT, A_INTERACT, A_FLY_BEBOP, A_KEEN_EYE, A_LEAN_TIMES, A_MOVE, A_PASS,
    A_REMOTE_BEBOP, A_REST, A_SESSION, A_ZIP_FLY, BAR, BEBOP, CONTACT, FOOD, FUEL, LOG_WIDTH,
    MAX_ACTIONS, N_BOUNTIES, N_CONTACTS, N_EVENTS, N_LOCS, N_NORMAL_EVENTS, N_SECTORS, N_STREAMS,
    OUT_WIN, S_ROLLOUT, SHOP, SPACEPORT, STATE_DTYPE, TRACK_SLOTS, WOOLONGS,
)

MAX_CANDIDATES = 16
LEAD_VALUES = 16          # lead card values are below this (legal_actions relies on it too)
LEAF_CAP = 10.0           # resources above this add nothing to the leaf value


# ----------------------------------------------------------------------------------------------
# scratch states
def scratch_states(n):
    """n zeroed states. Interpreted (NUMBA_DISABLE_JIT=1) they are a record array, whose elements
    have attribute access like compiled records; compiled, the overload below is used."""
    return np.zeros(n, STATE_DTYPE).view(np.recarray)


@overload(scratch_states)
def _scratch_states_compiled(n):
    def impl(n):
        return np.zeros(n, STATE_DTYPE)
    return impl


# ----------------------------------------------------------------------------------------------
# hidden information
@njit
def rerandomise(st, base, sample):
    """Deal afresh, from (base, sample), everything in the state copy `st` that players cannot know."""
    for k in range(N_STREAMS):
        seed_stream(st.rng[k], base, sample, k)
    r = np.empty(4, np.uint64)
    seed_stream(r, base, sample, N_STREAMS)
    # events: cards face up now or drawn before are known; the rest of the deck is unseen Vicious
    # cards (every normal event is in every game), dealt again from all the Vicious never seen
    seen = np.zeros(N_EVENTS, np.bool_)
    for e in range(N_EVENTS):
        seen[e] = st.event_seen[e] != 0 or e < N_NORMAL_EVENTS
    for i in range(st.event_disc_n):
        seen[st.event_disc[i]] = True
    n = st.event_deck_n
    mark = np.zeros(N_EVENTS, np.bool_)
    hidden = 0
    for i in range(n):
        e = st.event_deck[i]
        if seen[e]:
            mark[e] = True
        else:
            hidden += 1
    if hidden > 0:
        pool = np.empty(N_EVENTS, np.int8)
        m = 0
        for e in range(N_EVENTS):
            if not seen[e]:
                pool[m] = e
                m += 1
        shuffle(r, pool, m)
        for i in range(hidden):
            mark[pool[i]] = True
    j = 0
    for e in range(N_EVENTS):
        if mark[e]:
            st.event_deck[j] = e
            j += 1
    shuffle(r, st.event_deck, n)
    # contacts: all twenty are in the game, so the deck is every contact not in the discard pile
    n = st.contact_deck_n
    held = np.zeros(N_CONTACTS, np.bool_)
    for i in range(n):
        held[st.contact_deck[i]] = True
    j = 0
    for c in range(N_CONTACTS):
        if held[c]:
            st.contact_deck[j] = c
            j += 1
    shuffle(r, st.contact_deck, n)
    # leads: the composition of each deck is public (values repeat: count them)
    count = np.zeros(LEAD_VALUES, np.int16)
    for t in range(3):
        n = st.lead_deck_n[t]
        count[:] = 0
        for i in range(n):
            count[st.lead_deck[t, i]] += 1
        j = 0
        for v in range(LEAD_VALUES):
            for _ in range(count[v]):
                st.lead_deck[t, j] = v
                j += 1
        shuffle(r, st.lead_deck[t], n)
    # bounties: the deck is some of the bounties never seen (neither drawn before nor on the track)
    n = st.bounty_deck_n
    if n > 0:
        known = np.zeros(N_BOUNTIES, np.bool_)
        for b in range(N_BOUNTIES):
            known[b] = st.bounty_seen[b] != 0
        for i in range(TRACK_SLOTS):
            if st.track_bounty[i] >= 0:
                known[st.track_bounty[i]] = True
        pool = np.empty(N_BOUNTIES, np.int8)
        m = 0
        for b in range(N_BOUNTIES):
            if not known[b]:
                pool[m] = b
                m += 1
        shuffle(r, pool, m)
        for i in range(n):
            st.bounty_deck[i] = pool[i]


# ----------------------------------------------------------------------------------------------
# candidates
@njit
def place_values(st, cd, w, s, task, visit):
    """What seat s could do at each (sector, place) (BEBOP: aboard the Bebop there), on the
    heuristic's scale: task = its own Session, a located bounty, a teammate's Session sector or a
    stranded teammate; visit = the Interact there."""
    task[:, :] = 0.0
    visit[:, :] = 0.0
    out = np.empty(2, np.int8)
    if R.session_open(st, s):
        k = st.session[s]
        part = st.part[s]
        task[cd.session_place[k, part, 0], cd.session_place[k, part, 1]] += w[P.W_SESSION]
    for slot in range(TRACK_SLOTS):
        if P.located_place(st, cd, slot, out):
            task[out[0], out[1]] += w[P.W_CHASE]
    for p in range(st.n_seats):
        if p == s:
            continue
        if R.session_open(st, p):
            k = st.session[p]
            task[cd.session_place[k, st.part[p], 0], BEBOP] += w[P.W_HELP]
        if P.stranded(st, p):
            task[st.sector[p], BEBOP] += w[P.W_RESCUE]
    if st.no_interact:
        return
    food = st.res[FOOD]
    money = st.res[WOOLONGS] > 0
    for sec in range(N_SECTORS):
        for loc in range(N_LOCS):
            if st.used[sec, loc]:
                continue
            if loc == CONTACT:
                visit[sec, loc] = w[P.W_CONTACT]
            elif loc == SHOP:
                if money and food < w[P.W_FOOD_TARGET]:
                    visit[sec, loc] = w[P.W_SHOP] * (1.0 if food <= w[P.W_FOOD_LOW] else 0.3)
            elif loc == SPACEPORT:
                if money and st.res[FUEL] <= w[P.W_FUEL_LOW]:
                    visit[sec, loc] = w[P.W_SHOP] * 0.5
            elif loc == BAR:
                visit[sec, loc] = (w[P.W_BAR] + w[P.W_VALUE_CARD]) * st.tab_n[s]


@njit
def prior(st, cd, w, s, a, task, visit):
    """A cheap score of legal action a for ranking candidates (higher first)."""
    kind = a[0]
    card = w[P.W_VALUE_CARD]
    sec = st.sector[s]
    if kind == A_SESSION:
        return 1000.0
    if kind == A_CHASE:
        return 900.0
    if kind == A_INTERACT:
        return 1.0 + visit[sec, st.place[s]]
    if kind == A_REST:
        return 2.0 + card * st.tab_n[s]
    if kind == A_MOVE:
        return task[sec, a[1]] + visit[sec, a[1]] - w[P.W_DISTANCE]
    if kind == A_ZIP_FLY:
        dsec = st.bebop if a[2] == BEBOP else a[1]
        cost = card if a[3] == 1 else w[P.W_FUEL_COST]
        return task[dsec, a[2]] + visit[dsec, a[2]] - cost
    if kind == A_FLY_BEBOP or kind == A_EFFICIENT_PILOT or kind == A_REMOTE_BEBOP:
        best = 0.0
        for loc in range(BEBOP + 1):
            v = task[a[1], loc] + visit[a[1], loc]
            if v > best:
                best = v
        cost = w[P.W_FUEL_COST] if kind == A_FLY_BEBOP else card + (0.1 if a[2] >= 0 else 0.0)
        return best - w[P.W_DISTANCE] - cost
    if kind == A_LEAN_TIMES:
        return P.resource_value(st, w, a[2]) - P.resource_value(st, w, a[1]) - card
    if kind == A_KEEN_EYE:
        gain = P.lead_value(st, cd, a[3], a[4]) - P.lead_value(st, cd, a[1], st.leads[a[1], a[2]])
        return 0.2 * gain - card
    return -card - 1.0          # the rest: leave the zip craft, Net Dive, Remote Control of a zip craft


@njit
def same_action(a, b):
    for k in range(5):
        if a[k] != b[k]:
            return False
    return True


@njit
def candidates(st, cd, w, s, chosen, k_max, cand):
    """Up to k_max candidate actions into `cand`: the heuristic's `chosen`, Pass, then the legal
    actions with the highest prior. Returns how many."""
    for k in range(5):
        cand[0, k] = chosen[k]
    nc = 1
    if nc < k_max and chosen[0] != A_PASS:
        for k in range(5):
            cand[nc, k] = 0
        cand[nc, 0] = A_PASS
        nc += 1
    if nc >= k_max:
        return nc
    buf = np.empty((MAX_ACTIONS, 5), np.int16)
    n = R.legal_actions(st, cd, s, buf)
    task = np.empty((N_SECTORS, BEBOP + 1), np.float64)
    visit = np.empty((N_SECTORS, BEBOP + 1), np.float64)
    place_values(st, cd, w, s, task, visit)
    score = np.empty(n, np.float64)
    for i in range(n):
        if buf[i, 0] == A_PASS or same_action(buf[i], chosen):
            score[i] = -np.inf
        else:
            score[i] = prior(st, cd, w, s, buf[i], task, visit)
    taken = np.zeros(16, np.int64)          # candidates of each action kind so far
    diverse = w[P.W_ROLLOUT_DIVERSE] > 0.5
    while nc < k_max:
        best = -1
        for i in range(n):
            if score[i] == -np.inf:
                continue
            if best < 0:
                best = i
            elif diverse and taken[buf[i, 0]] != taken[buf[best, 0]]:
                if taken[buf[i, 0]] < taken[buf[best, 0]]:
                    best = i
            elif score[i] > score[best]:
                best = i
        if best < 0:
            break
        for k in range(5):
            cand[nc, k] = buf[best, k]
        taken[buf[best, 0]] += 1
        score[best] = -np.inf
        nc += 1
    return nc


# ----------------------------------------------------------------------------------------------
# imagined futures
@njit
def leaf_value(st, w):
    """Logistic estimate of the heuristic's chance to win from st (rollout_value_* weights)."""
    n = st.n_seats
    parts = 0
    cards = 0
    for p in range(n):
        parts += st.part[p]
        cards += R.hand_size(st, p)
    x = (w[P.W_VALUE_BIAS] + w[P.W_VALUE_PARTS] * parts / (2.0 * n) + w[P.W_VALUE_CARDS_LEAF] * cards / n
         + w[P.W_VALUE_FOOD_LEAF] * min(float(st.res[FOOD]), LEAF_CAP)
         + w[P.W_VALUE_FUEL_LEAF] * min(float(st.res[FUEL]), LEAF_CAP)
         + w[P.W_VALUE_WOOLONGS_LEAF] * min(float(st.res[WOOLONGS]), LEAF_CAP))
    return 1.0 / (1.0 + np.exp(-x))


@njit
def parts_done(st):
    """Fraction of the crew's Session parts done."""
    parts = 0
    for p in range(st.n_seats):
        parts += st.part[p]
    return parts / (2.0 * st.n_seats)


@njit
def imagine(st, cd, ru, w, a, horizon, log):
    """In the imagined world st: take action a, let the heuristic finish the turn and play at most
    `horizon` more player turns (all of them if horizon < 0); return the score of the end."""
    if a[0] != A_PASS:
        if a[0] != A_ZIP_FLY:
            st.actions_left -= 1
        R.do_action(st, cd, w, np.int64(P.POLICY_HEURISTIC), st.seat, a, log)
        if not (st.starved or R.game_won(st)):
            R.action_phase_heuristic(st, cd, w, log)
    outcome = R.end_turn(st, log)
    t = 0
    while outcome < 0 and (horizon < 0 or t < horizon):
        outcome = R.play_turn_heuristic(st, cd, ru, w, log)
        t += 1
    if outcome == OUT_WIN:
        return 1.0
    if outcome >= 0:
        return w[P.W_ROLLOUT_LOSS_CREDIT] * parts_done(st)
    return leaf_value(st, w)


@njit
def paired_gain(scores, m, c):
    """Mean and standard error of candidate c's gain over candidate 0 in the first m futures."""
    s1 = 0.0
    s2 = 0.0
    for i in range(m):
        d = scores[i, c] - scores[i, 0]
        s1 += d
        s2 += d * d
    mean = s1 / m
    if m < 2:
        return mean, np.inf
    var = (s2 - s1 * mean) / (m - 1)
    return mean, np.sqrt(max(var, 0.0) / m)


@njit
def rollout_action(st, cd, ru, w, s, act):
    """Write seat s's next action into `act`, chosen by rollouts among a few candidates.

    Futures are played in rounds of `rollout_batch`, up to `rollout_samples`, every candidate still
    in the race meeting the same futures. After each round a candidate whose paired gain over the
    heuristic's action is not above 0 by z standard errors (z = `rollout_confidence`) at the optimistic
    end (mean + z se <= 0) drops out; when none is left, or the futures run out, the candidate with the
    largest mean gain among those whose gain is above 0 by z standard errors (mean - z se > 0) is
    taken, else the heuristic's own action. Flat decisions (every candidate scoring the same in the
    first round, as when every future is lost) thus cost one round."""
    P.heuristic_action(st, cd, w, s, act)
    k_max = min(int(w[P.W_ROLLOUT_CANDIDATES]), MAX_CANDIDATES)
    if k_max < 2:
        return
    cand = np.empty((MAX_CANDIDATES, 5), np.int16)
    nc = candidates(st, cd, w, s, act, k_max, cand)
    if nc < 2:
        return
    samples = max(1, int(w[P.W_ROLLOUT_SAMPLES]))
    batch = max(1, int(w[P.W_ROLLOUT_BATCH]))
    z = w[P.W_ROLLOUT_CONFIDENCE]
    horizon = int(w[P.W_ROLLOUT_HORIZON])
    base = next_u64(st.rng[S_ROLLOUT])
    scores = np.zeros((samples, nc), np.float64)
    alive = np.ones(nc, np.bool_)
    worlds = scratch_states(2)
    log = np.zeros((0, LOG_WIDTH), np.int32)
    m = 0
    racing = nc - 1
    while m < samples and racing > 0:
        stop = min(samples, m + batch)
        for i in range(m, stop):
            worlds[0] = st
            rerandomise(worlds[0], base, i)
            for c in range(nc):
                if alive[c]:
                    worlds[1] = worlds[0]
                    scores[i, c] = imagine(worlds[1], cd, ru, w, cand[c], horizon, log)
        m = stop
        racing = 0
        for c in range(1, nc):
            if alive[c]:
                mean, se = paired_gain(scores, m, c)
                if mean + z * se <= 0.0:
                    alive[c] = False
                else:
                    racing += 1
    best = 0
    best_gain = 0.0
    for c in range(1, nc):
        if alive[c]:
            mean, se = paired_gain(scores, m, c)
            if mean - z * se > 0.0 and mean > best_gain:
                best = c
                best_gain = mean
    for k in range(5):
        act[k] = cand[best, k]

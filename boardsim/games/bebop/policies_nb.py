"""Built-in policies for Cowboy Bebop, njit.

Decision points have one function each, with a fixed signature; each dispatches on the policy id:
  POLICY_RANDOM     uniformly random among the legal choices (the baseline);
  POLICY_CUSTOM     the action policy in custom_policy_nb.py (the plug-in point), heuristic elsewhere;
  POLICY_HEURISTIC  a central team planner (Bebop is co-operative with open information), steered by
                    the weight vector `w` (names and defaults in WEIGHTS below), so tuning its style
                    never recompiles.
  POLICY_ROLLOUT    the heuristic improved by simulation at every action decision (rollout_nb.py);
                    every other decision is the heuristic's. Its parameters are the rollout_* entries
                    at the end of the weight vector.
The heuristic never reads the order of any deck: it sees what players see (board, hands, tableaus,
leads, discard piles, resources, the bounty track).
"""
import numpy as np

from boardsim._jit import njit
from boardsim.rng import rand_below, rand_float

from . import custom_policy_nb as C
from . import rules_nb as R
from .state_nb import (
    A_CHASE, A_EFFICIENT_PILOT, A_EXIT_ZIP, A_FLY_BEBOP, A_INTERACT, A_KEEN_EYE, A_LEAN_TIMES,
    A_MOVE, A_NET_DIVE, A_PASS, A_REMOTE_BEBOP, A_REST, A_SESSION, A_ZIP_FLY, BAR, BEBOP, CONTACT,
    ED, EIN, FOOD, FUEL, HAND, JET, MAX_ACTIONS, N_CHARS, N_LOCS, N_SECTORS, N_SKILLS, S_POLICY,
    SHOP, SPACEPORT, SPIKE, TRACK_SLOTS, WOOLONGS,
)

POLICY_RANDOM = 0
POLICY_HEURISTIC = 1
POLICY_CUSTOM = 2         # custom_policy_nb.custom_action for actions, the heuristic for the rest
POLICY_ROLLOUT = 3        # rollout_nb.rollout_action for actions, the heuristic for the rest
POLICY_IDS = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC, "custom": POLICY_CUSTOM,
              "rollout": POLICY_ROLLOUT}

# (name, default, meaning) -- the heuristic's weight vector. The defaults were found by a
# cross-entropy search on Boogie with spike+jet and spike+jet+faye (8 rounds of 16 candidates, 3,000
# games each, seed 1000) and checked on held-out seed 777; see the closing note of issue 2.
WEIGHTS = (
    ("food_low", 4.61, "Food at or below this is an emergency: shopping for Food outranks everything but a ready Session"),
    ("food_target", 2.06, "buy Food up to this level"),
    ("fuel_low", 1.05, "Fuel at or below this makes a Spaceport worth a detour"),
    ("fuel_target", 1.78, "buy Fuel up to this level"),
    ("woolong_reserve", 0.04, "Woolongs kept back when buying Food or Fuel (outside emergencies)"),
    ("value_food", 3.37, "value of one Food when choosing event and contact options"),
    ("value_fuel", 1.4, "value of one Fuel"),
    ("value_woolong", 1.23, "value of one thousand Woolongs"),
    ("scarcity", 2.59, "resource values grow by scarcity / (1 + amount held)"),
    ("value_card", 0.56, "cost of discarding one skill card"),
    ("value_lead", 0.77, "value of one lead"),
    ("value_bounty_move", 1.38, "cost of every bounty moving one space toward escape"),
    ("value_action", 1.21, "cost of losing an action or the right to Interact"),
    ("session_priority", 12.65, "score of travelling to one's own Session when the crew can pay it"),
    ("help_priority", 6.39, "score of flying the Bebop to a teammate's Session sector"),
    ("chase_priority", 7.05, "score of travelling to a located bounty the crew can pay"),
    ("contact_priority", 3.75, "score of visiting a Contact while no bounty is located"),
    ("shop_priority", 10.57, "score of a Shop in a Food emergency (scaled down above food_low)"),
    ("bar_priority", 0.02, "score of a Bar per card in the tableau"),
    ("rescue_priority", 8.34, "score of flying the Bebop to a stranded teammate"),
    ("distance_cost", 0.32, "score lost per action spent travelling"),
    ("fuel_cost", 0.72, "score lost per Fuel spent travelling (times Fuel scarcity)"),
    ("jam_margin", 1.19, "spare cards in the sector per jam before attempting a Session or Chase"),
    ("rest_hand", 5.16, "rest when the hand is at or below this and nothing better is on"),
    ("feral_food", 5.7, "Ed uses Feral Child when Food is at or below this"),
    ("spare_hand", 2.21, "hand size needed to spend a card on a minor ability"),
    ("lead_hunger", 0.0, "Contacts score (1 + lead_hunger * empty lead spaces / 6) times more"),
    ("return_aboard", 0.0, "above 0.5: a seat spends its last action going back aboard the Bebop"),
    ("strand_ok", 0.0, "above 0.5: the Bebop may fly off while a teammate is ashore in its sector"),
    # the rollout policy (the heuristic ignores these); see rollout_nb.py
    ("rollout_candidates", 4.0, "rollout: actions compared at each decision (the heuristic's, Pass, then the best by a cheap prior); 1 = plain heuristic"),
    ("rollout_samples", 32.0, "rollout: most imagined futures per candidate (the same futures for every candidate)"),
    ("rollout_batch", 8.0, "rollout: futures per round; after each round, candidates confidently no better than the heuristic's action drop out"),
    ("rollout_confidence", 1.0, "rollout: z of the paired test: an action replaces the heuristic's only if its mean gain exceeds z standard errors"),
    ("rollout_horizon", -1.0, "rollout: player turns played after the current one before scoring (below 0: to the end of the game)"),
    ("rollout_loss_credit", 0.0, "rollout: score of a lost game per fraction of the crew's Session parts done (a win scores 1)"),
    ("rollout_value_bias", -11.19, "rollout: a future cut short by the horizon scores logistic(bias + the terms below), fitted to heuristic games"),
    ("rollout_value_parts", 8.47, "rollout: leaf value per fraction of the crew's Session parts done"),
    ("rollout_value_food", 0.75, "rollout: leaf value per Food (up to 10)"),
    ("rollout_value_fuel", 0.36, "rollout: leaf value per Fuel (up to 10)"),
    ("rollout_value_woolongs", 0.32, "rollout: leaf value per thousand Woolongs (up to 10)"),
    ("rollout_value_cards", 0.22, "rollout: leaf value per skill card in hand, per seat"),
    ("rollout_diverse", 1.0, "TEMP"),
)
WEIGHT_NAMES = tuple(name for name, _, _ in WEIGHTS)
DEFAULT_WEIGHTS = np.array([value for _, value, _ in WEIGHTS], dtype=np.float64)
(W_FOOD_LOW, W_FOOD_TARGET, W_FUEL_LOW, W_FUEL_TARGET, W_WOOLONG_RESERVE, W_VALUE_FOOD, W_VALUE_FUEL,
 W_VALUE_WOOLONG, W_SCARCITY, W_VALUE_CARD, W_VALUE_LEAD, W_VALUE_BOUNTY_MOVE, W_VALUE_ACTION,
 W_SESSION, W_HELP, W_CHASE, W_CONTACT, W_SHOP, W_BAR, W_RESCUE, W_DISTANCE, W_FUEL_COST, W_JAM_MARGIN,
 W_REST_HAND, W_FERAL_FOOD, W_SPARE_HAND, W_LEAD_HUNGER, W_RETURN_ABOARD, W_STRAND_OK,
 W_ROLLOUT_CANDIDATES, W_ROLLOUT_SAMPLES, W_ROLLOUT_BATCH, W_ROLLOUT_CONFIDENCE, W_ROLLOUT_HORIZON,
 W_ROLLOUT_LOSS_CREDIT, W_VALUE_BIAS, W_VALUE_PARTS, W_VALUE_FOOD_LEAF, W_VALUE_FUEL_LEAF, W_VALUE_WOOLONGS_LEAF,
 W_VALUE_CARDS_LEAF, W_ROLLOUT_DIVERSE) = range(len(WEIGHTS))

UNREACHABLE = 99


# ----------------------------------------------------------------------------------------------
# shared evaluation helpers
@njit
def rng_of(st):
    return st.rng[S_POLICY]


@njit
def resource_value(st, w, r):
    base = w[W_VALUE_FOOD] if r == FOOD else (w[W_VALUE_FUEL] if r == FUEL else w[W_VALUE_WOOLONG])
    return base * (1.0 + w[W_SCARCITY] / (1.0 + st.res[r]))


@njit
def option_value(st, cd, w, eff, s, discount):
    v = 0.0
    for i in range(eff.shape[0]):
        op = eff[i, 0]
        arg = eff[i, 1]
        n = eff[i, 2]
        if op == R.OP_SPEND:
            if arg == WOOLONGS:
                n = n - discount if n > discount else 0
            v -= n * resource_value(st, w, arg)
        elif op == R.OP_GAIN:
            room = R.RESOURCE_CAP - st.res[arg]
            v += (n if n < room else room) * resource_value(st, w, arg)
        elif op == R.OP_DISCARD_SKILL:
            v -= n * w[W_VALUE_CARD]
        elif op == R.OP_DISCARD_RANDOM:
            v -= n * w[W_VALUE_CARD] * 1.2
        elif op == R.OP_DISCARD_LEADS:
            v -= n * w[W_VALUE_LEAD]
        elif op == R.OP_DRAW_LEADS:
            v += n * w[W_VALUE_LEAD]
        elif op == R.OP_REPLACE_LEADS:
            v += n * w[W_VALUE_LEAD] * 0.3
        elif op == R.OP_BOUNTIES_MOVE:
            v -= n * w[W_VALUE_BOUNTY_MOVE]
        elif op == R.OP_BOUNTIES_BACK:
            v += n * w[W_VALUE_BOUNTY_MOVE] * 0.5
        elif op == R.OP_REST:
            k = st.tab_n[s] if st.tab_n[s] < n else n
            v += k * w[W_VALUE_CARD]
        elif op == R.OP_NO_INTERACT:
            v -= w[W_VALUE_ACTION]
        elif op == R.OP_LOSE_ACTIONS:
            v -= n * w[W_VALUE_ACTION]
    return v


@njit
def lead_value(st, cd, t, v):
    """How much lead value v of type t helps locate the bounties on the track.

    Sums, over every bounty and every place (sector, location, terrain ring) that could locate it,
    (1 + number of the other two leads already held)^2 where v is the place's type-t lead.
    """
    score = 0.0
    for slot in range(TRACK_SLOTS):
        b = st.track_bounty[slot]
        if b < 0:
            continue
        lt = cd.bounty_lead[b, 0]
        lv = cd.bounty_lead[b, 1]
        for sec in range(N_SECTORS):
            for loc in range(N_LOCS):
                for ring in range(2):
                    tv = cd.terrain[sec, loc, ring]
                    if ring == 1 and tv == cd.terrain[sec, loc, 0]:
                        continue
                    if not ((lt == 0 and lv == sec) or (lt == 1 and lv == loc) or (lt == 2 and lv == tv)):
                        continue
                    key = sec if t == 0 else (loc if t == 1 else tv)
                    if key != v:
                        continue
                    held = 0
                    for t2 in range(3):
                        if t2 == t:
                            continue
                        want = sec if t2 == 0 else (loc if t2 == 1 else tv)
                        if st.leads[t2, 0] == want or st.leads[t2, 1] == want:
                            held += 1
                    score += (1.0 + held) * (1.0 + held)
    return score


@njit
def located_place(st, cd, slot, out):
    """(sector, location) where the held leads locate track bounty `slot`, if they do."""
    slots = np.empty(3, np.int8)
    if not R.locating_leads(st, cd, slot, -1, -1, slots):
        return False
    out[0] = st.leads[0, slots[0]]
    out[1] = st.leads[1, slots[1]]
    return True


@njit
def team_coverage(st, cd, s, tsec, req, extra_cards):
    """How well the crew that can be in sector tsec with seat s covers req plus spare jam cards.

    That crew is s, everyone aboard the Bebop (it travels with them when s flies it) and anyone
    already in tsec. Returns 1.0 when they can pay with `extra_cards` to spare, less otherwise.
    """
    payers = np.empty(N_CHARS, np.int8)
    payers[0] = s
    n = 1
    for p in range(st.n_seats):
        if p != s and (st.sector[p] == tsec or st.place[p] == BEBOP):
            payers[n] = p
            n += 1
    total = 0
    for k in range(N_SKILLS):
        total += req[k]
    sel_seat = np.empty(N_CHARS * HAND + 1, np.int8)
    sel_card = np.empty(N_CHARS * HAND + 1, np.int8)
    used = R.plan_payment(st, cd, payers, n, req, True, sel_seat, sel_card)
    if used >= 0:
        cards = 1 if st.ein < 0 else 0
        for i in range(n):
            cards += R.hand_size(st, payers[i])
        spare = cards - used
        if spare >= extra_cards:
            return 1.0
        return 0.7 + 0.3 * spare / max(1, extra_cards)
    # partial: icons present per skill, capped by need
    have = 0
    for k in range(N_SKILLS):
        icons = 1 if st.ein < 0 else 0
        for i in range(n):
            p = payers[i]
            ch = st.char[p]
            for c in range(HAND):
                if st.hand[p, c] and cd.skill_icons[ch, c, k] > 0:
                    icons += 1
        have += icons if icons < req[k] else req[k]
    return 0.6 * have / max(1, total)


@njit
def jams_affordable(st, cd, w, s, req, jams):
    """Can the sector pay req now and keep jam_margin spare cards per jam?"""
    payers = np.empty(N_CHARS, np.int8)
    n = R.helpers(st, s, payers)
    sel_seat = np.empty(N_CHARS * HAND + 1, np.int8)
    sel_card = np.empty(N_CHARS * HAND + 1, np.int8)
    used = R.plan_payment(st, cd, payers, n, req, True, sel_seat, sel_card)
    if used < 0:
        return False
    cards = 0
    for i in range(n):
        cards += R.hand_size(st, payers[i])
    if st.ein < 0:
        cards += 1
    return cards - used >= w[W_JAM_MARGIN] * jams


@njit
def reserved(st, cd, r):
    """Resource r that the crew's currently open Session parts will need."""
    total = 0
    for p in range(st.n_seats):
        if R.session_open(st, p):
            total += cd.session_spend[st.session[p], st.part[p], r]
    return total


@njit
def teammate_session_ready(st, cd, w, s, sector):
    """Is some teammate's open Session in `sector` payable by the crew that is there?"""
    for p in range(st.n_seats):
        if p == s or not R.session_open(st, p) or st.sector[p] != sector:
            continue
        k = st.session[p]
        part = st.part[p]
        if cd.session_place[k, part, 0] != sector:
            continue
        if team_coverage(st, cd, p, sector, cd.session_skills[k, part],
                         w[W_JAM_MARGIN] * cd.session_jams[k, part]) >= 1.0:
            return True
    return False


@njit
def stranded(st, p):
    """Off the Bebop, out of a zip craft, in a sector the Bebop is not docked at."""
    return not st.in_zip[p] and st.place[p] != BEBOP and st.sector[p] != st.bebop


@njit
def travel_cost(st, cd, s, tsec, tloc):
    """(actions, fuel) for seat s to reach (tsec, tloc); tloc == BEBOP means just the Bebop there."""
    sec = st.sector[s]
    here = st.place[s]
    if sec == tsec and (here == tloc or (tloc == BEBOP and st.bebop == tsec)):
        return 0, 0
    if st.in_zip[s]:
        return 0, 1
    if sec == tsec:
        return 1, 0
    aboard = here == BEBOP
    extra = 0 if tloc == BEBOP else 1
    if aboard:
        return 1 + extra, 1
    if st.bebop == sec:
        return 2 + extra, 1
    if st.char[s] == ED:
        return 3 + extra, 0
    return UNREACHABLE, 0


@njit
def set_act(act, kind, a, b, c, d):
    act[0] = kind
    act[1] = a
    act[2] = b
    act[3] = c
    act[4] = d


@njit
def route_step(st, cd, w, s, tsec, tloc, act):
    """One step of seat s toward (tsec, tloc); returns False if no step is possible."""
    sec = st.sector[s]
    here = st.place[s]
    ch = st.char[s]
    hand = R.hand_size(st, s)
    if st.in_zip[s]:
        dest_sec = st.bebop if tloc == BEBOP else tsec
        if ch == SPIKE and hand >= w[W_SPARE_HAND] and R.can_pay_ability(st, cd, s, R.SWORDFISH):
            set_act(act, A_ZIP_FLY, dest_sec, tloc, 1, 0)
            return True
        if st.res[FUEL] >= 1:
            set_act(act, A_ZIP_FLY, dest_sec, tloc, 0, 0)
            return True
        set_act(act, A_EXIT_ZIP, 0, 0, 0, 0)
        return True
    if sec == tsec:
        if tloc == BEBOP and st.bebop != tsec:
            return False
        if here == BEBOP and st.bebop != sec:
            return False
        set_act(act, A_MOVE, tloc, 0, 0, 0)
        return True
    if here == BEBOP:
        if teammate_session_ready(st, cd, w, s, sec):
            return False          # a teammate can do a Session here with the crew aboard: stay
        for p in range(st.n_seats):
            if (w[W_STRAND_OK] <= 0.5 and p != s and st.sector[p] == sec and st.place[p] != BEBOP
                    and not st.in_zip[p]):
                return False      # flying now would strand a teammate ashore
        fuel_short = st.res[FUEL] <= w[W_FUEL_LOW]
        if ch == JET and (fuel_short or st.res[FUEL] < 1) and hand >= 2 and R.can_pay_ability(st, cd, s, R.EFFICIENT_PILOT):
            set_act(act, A_EFFICIENT_PILOT, tsec, -1, 0, 0)
            return True
        if ch == ED and (fuel_short or st.res[FUEL] < 1) and hand >= 2 and R.can_pay_ability(st, cd, s, R.REMOTE_CONTROL):
            set_act(act, A_REMOTE_BEBOP, tsec, 0, 0, 0)
            return True
        if st.res[FUEL] >= 1:
            set_act(act, A_FLY_BEBOP, tsec, 0, 0, 0)
            return True
        return False
    if st.bebop == sec:
        set_act(act, A_MOVE, BEBOP, 0, 0, 0)
        return True
    if ch == ED and R.can_pay_ability(st, cd, s, R.REMOTE_CONTROL):
        set_act(act, A_REMOTE_BEBOP, sec, 0, 0, 0)
        return True
    return False


@njit
def keen_eye_or_net_dive(st, cd, w, s, act):
    """Spike's Keen Eye when a discard pile completes a bounty's leads; Ed's Net Dive on a dead lead."""
    ch = st.char[s]
    if R.hand_size(st, s) < 2 or R.lead_count(st) == 0:
        return False
    # the least useful held lead
    worst_t = -1
    worst_i = -1
    worst_v = 1e18
    for t in range(3):
        for i in range(2):
            if st.leads[t, i] >= 0:
                v = lead_value(st, cd, t, st.leads[t, i])
                if v < worst_v:
                    worst_v = v
                    worst_t = t
                    worst_i = i
    out = np.empty(2, np.int8)
    for slot in range(TRACK_SLOTS):
        if located_place(st, cd, slot, out):
            return False               # something is already located: chase it first
    if ch == SPIKE and R.can_pay_ability(st, cd, s, R.KEEN_EYE):
        best = 0.0
        bt = -1
        bv = -1
        for t in range(3):
            for j in range(st.lead_disc_n[t]):
                v = st.lead_disc[t, j]
                gain = lead_value(st, cd, t, v)
                if gain > best:
                    best = gain
                    bt = t
                    bv = v
        if bt >= 0 and best >= 9.0 and best > 2.0 * worst_v:
            set_act(act, A_KEEN_EYE, worst_t, worst_i, bt, bv)
            return True
    if ch == ED and worst_v == 0.0 and R.can_pay_ability(st, cd, s, R.NET_DIVE):
        set_act(act, A_NET_DIVE, worst_t, worst_i, choose_lead_deck(st, cd, w, POLICY_HEURISTIC), 0)
        return True
    return False


@njit
def heuristic_action(st, cd, w, s, act):
    ch = st.char[s]
    here = st.place[s]
    sec = st.sector[s]
    hand = R.hand_size(st, s)
    food = st.res[FOOD]
    # 1. what can be done right here
    if R.can_session(st, cd, s):
        k = st.session[s]
        part = st.part[s]
        if jams_affordable(st, cd, w, s, cd.session_skills[k, part], cd.session_jams[k, part]):
            set_act(act, A_SESSION, 0, 0, 0, 0)
            return
    best_slot = -1
    best_pay = -1.0
    for slot in range(TRACK_SLOTS):
        if R.can_chase(st, cd, s, slot):
            b = st.track_bounty[slot]
            if jams_affordable(st, cd, w, s, cd.bounty_skills[b], cd.bounty_jams[b]):
                pay = 0.0
                for r in range(3):
                    pay += cd.bounty_payout[b, r] * resource_value(st, w, r)
                if pay > best_pay:
                    best_pay = pay
                    best_slot = slot
    if best_slot >= 0:
        set_act(act, A_CHASE, best_slot, 0, 0, 0)
        return
    # Jet turns a spare resource into Food in an emergency
    if ch == JET and food <= 1 and hand >= 2 and R.can_pay_ability(st, cd, s, R.LEAN_TIMES):
        src = FUEL if st.res[FUEL] >= st.res[WOOLONGS] else WOOLONGS
        if st.res[src] >= 2:
            set_act(act, A_LEAN_TIMES, src, FOOD, 0, 0)
            return
    if keen_eye_or_net_dive(st, cd, w, s, act):
        return
    # 2. choose a target place
    best = -1e18
    tsec = -1
    tloc = -1
    fuel_scarcity = 1.0 + w[W_SCARCITY] / (1.0 + st.res[FUEL])
    out = np.empty(2, np.int8)
    any_located = False
    for slot in range(TRACK_SLOTS):
        if located_place(st, cd, slot, out):
            any_located = True
    need_cards = False      # a Session or located bounty waits for cards
    need_money = False      # a Session waits for resources
    for kind in range(7):
        for sa in range(N_SECTORS):
            for la in range(BEBOP + 1):
                score = -1e18
                if kind == 0:
                    # own Session, once the crew that can come along can pay it
                    if la == BEBOP or not R.session_open(st, s):
                        continue
                    k = st.session[s]
                    part = st.part[s]
                    if cd.session_place[k, part, 0] != sa or cd.session_place[k, part, 1] != la:
                        continue
                    for r in range(3):
                        if st.res[r] < cd.session_spend[k, part, r]:
                            need_money = True
                    cov = team_coverage(st, cd, s, sa, cd.session_skills[k, part], w[W_JAM_MARGIN] * cd.session_jams[k, part])
                    if cov < 1.0:
                        need_cards = True
                    if need_money or cov < 1.0:
                        continue
                    score = w[W_SESSION]
                elif kind == 1:
                    # a teammate's Session: bring the Bebop (and its crew) to that sector
                    if la != BEBOP:
                        continue
                    score = -1e18
                    for p in range(st.n_seats):
                        if p == s or not R.session_open(st, p) or stranded(st, p):
                            continue
                        k = st.session[p]
                        part = st.part[p]
                        if cd.session_place[k, part, 0] != sa:
                            continue
                        cov = team_coverage(st, cd, p, sa, cd.session_skills[k, part], w[W_JAM_MARGIN] * cd.session_jams[k, part])
                        if cov >= 1.0 and w[W_HELP] > score:
                            score = w[W_HELP]
                elif kind == 2:
                    # a located bounty
                    if la == BEBOP:
                        continue
                    for slot in range(TRACK_SLOTS):
                        if located_place(st, cd, slot, out) and out[0] == sa and out[1] == la:
                            b = st.track_bounty[slot]
                            cov = team_coverage(st, cd, s, sa, cd.bounty_skills[b], w[W_JAM_MARGIN] * cd.bounty_jams[b])
                            if cov < 1.0:
                                need_cards = True
                                continue
                            pay = 0.0
                            for r in range(3):
                                pay += cd.bounty_payout[b, r] * resource_value(st, w, r)
                            v = w[W_CHASE] * (0.5 + pay / 20.0)
                            if v > score:
                                score = v
                elif kind == 3:
                    if la != CONTACT or st.used[sa, la] or st.no_interact:
                        continue
                    # leads are the road to bounty money: worth more the less Food and money the crew has
                    shortfall = w[W_FOOD_TARGET] - food - st.res[WOOLONGS]
                    score = (w[W_CONTACT] * (0.3 if any_located else 1.0) * (1.0 + max(0.0, shortfall) / 4.0)
                             * (1.0 + w[W_LEAD_HUNGER] * (6 - R.lead_count(st)) / 6.0))
                elif kind == 4:
                    if la != SHOP and la != SPACEPORT:
                        continue
                    if st.used[sa, la] or st.no_interact or choose_buy(st, cd, w, POLICY_HEURISTIC, s,
                                                                       FOOD if la == SHOP else FUEL) < 1:
                        continue
                    if la == SHOP:
                        if food >= w[W_FOOD_TARGET]:
                            continue
                        if food <= w[W_FOOD_LOW]:
                            score = w[W_SHOP]
                        else:
                            score = w[W_SHOP] * 0.3 * (w[W_FOOD_TARGET] - food) / w[W_FOOD_TARGET]
                    else:
                        if st.res[FUEL] > w[W_FUEL_LOW] + reserved(st, cd, FUEL):
                            continue
                        score = w[W_SHOP] * 0.5
                elif kind == 5:
                    if la != BAR or st.used[sa, la] or st.no_interact or st.tab_n[s] < 3:
                        continue
                    score = w[W_BAR] * st.tab_n[s] * (2.0 if need_cards else 1.0)
                else:
                    # a stranded teammate (off the Bebop, in another sector, no zip craft to fly)
                    if la != BEBOP:
                        continue
                    for p in range(st.n_seats):
                        if p != s and stranded(st, p) and st.sector[p] == sa:
                            score = w[W_RESCUE]
                if score <= -1e17:
                    continue
                steps, fuel = travel_cost(st, cd, s, sa, la)
                if steps >= UNREACHABLE:
                    continue
                if steps == 0 and fuel == 0 and (kind <= 2 or kind == 6 or not R.can_interact(st, s)):
                    continue            # already there and nothing left to do there
                if la != BEBOP and steps + 1 > st.actions_left:
                    continue            # the task could not be done this turn: rest instead of wandering
                score -= w[W_DISTANCE] * steps + w[W_FUEL_COST] * fuel * fuel_scarcity
                if score > best:
                    best = score
                    tsec = sa
                    tloc = la
    # 3. act on the target; a last action off the Bebop goes back aboard, so nobody is left behind
    at_target = tsec == sec and (here == tloc or (tloc == BEBOP and st.bebop == sec))
    if (w[W_RETURN_ABOARD] > 0.5 and st.actions_left == 1 and here != BEBOP and not st.in_zip[s] and st.bebop == sec
            and not (at_target and tloc < BEBOP)):
        set_act(act, A_MOVE, BEBOP, 0, 0, 0)
        return
    if tsec >= 0:
        if sec == tsec and (here == tloc or (tloc == BEBOP and st.bebop == sec)):
            if tloc < BEBOP and R.can_interact(st, s):
                set_act(act, A_INTERACT, 0, 0, 0, 0)
                return
        elif route_step(st, cd, w, s, tsec, tloc, act):
            return
    # 4. nothing to travel to: refresh the hand, go back aboard, or stop
    if (hand <= w[W_REST_HAND] or need_cards) and st.tab_n[s] > 0:
        if here < BEBOP and here == BAR and R.can_interact(st, s):
            set_act(act, A_INTERACT, 0, 0, 0, 0)
            return
        set_act(act, A_REST, 0, 0, 0, 0)
        return
    if here != BEBOP and not st.in_zip[s] and st.bebop == sec:
        set_act(act, A_MOVE, BEBOP, 0, 0, 0)
        return
    if st.tab_n[s] > 0:
        set_act(act, A_REST, 0, 0, 0, 0)
        return
    set_act(act, A_PASS, 0, 0, 0, 0)


# ----------------------------------------------------------------------------------------------
# decision points (called by the rules)
@njit
def choose_action(st, cd, w, pol, s, act):
    if pol == POLICY_RANDOM:
        buf = np.empty((MAX_ACTIONS, 5), np.int16)
        n = R.legal_actions(st, cd, s, buf)
        i = rand_below(rng_of(st), n)
        for k in range(5):
            act[k] = buf[i, k]
        return
    if pol == POLICY_CUSTOM:
        C.custom_action(st, cd, w, s, act)
        return
    heuristic_action(st, cd, w, s, act)


@njit
def choose_event_option(st, cd, w, pol, s, e, affordable):
    if pol == POLICY_RANDOM or not (affordable[0] and affordable[1]):
        if affordable[0] and affordable[1]:
            return rand_below(rng_of(st), 2)
        return 0 if affordable[0] else 1
    v0 = option_value(st, cd, w, cd.event_effects[e, 0], s, 0)
    v1 = option_value(st, cd, w, cd.event_effects[e, 1], s, 0)
    return 0 if v0 >= v1 else 1


@njit
def choose_contact_option(st, cd, w, pol, s, c, affordable, discount):
    if pol == POLICY_RANDOM or not (affordable[0] and affordable[1]):
        if affordable[0] and affordable[1]:
            return rand_below(rng_of(st), 2)
        return 0 if affordable[0] else 1
    v0 = option_value(st, cd, w, cd.contact_effects[c, 0], s, discount)
    v1 = option_value(st, cd, w, cd.contact_effects[c, 1], s, discount)
    return 0 if v0 >= v1 else 1


@njit
def best_contact_value(st, cd, w, s, c, discount):
    best = -1e9
    for o in range(cd.contact_n_options[c]):
        if R.option_affordable(st, cd, cd.contact_effects[c, o], s, discount):
            v = option_value(st, cd, w, cd.contact_effects[c, o], s, discount)
            if v > best:
                best = v
    return best


@njit
def decide_well_connected(st, cd, w, pol, s, c):
    if pol == POLICY_RANDOM:
        return rand_float(rng_of(st)) < 0.5
    return best_contact_value(st, cd, w, s, c, 0) <= 0.0 and R.hand_size(st, s) >= w[W_SPARE_HAND] - 1


@njit
def choose_contact_card(st, cd, w, pol, s, c1, c2):
    if pol == POLICY_RANDOM:
        return rand_below(rng_of(st), 2)
    return 1 if best_contact_value(st, cd, w, s, c2, 0) > best_contact_value(st, cd, w, s, c1, 0) else 0


@njit
def decide_persuasive(st, cd, w, pol, s, c):
    if pol == POLICY_RANDOM:
        return rand_float(rng_of(st)) < 0.5
    gain = best_contact_value(st, cd, w, s, c, 1) - best_contact_value(st, cd, w, s, c, 0)
    return gain > w[W_VALUE_CARD] and R.hand_size(st, s) >= 2


@njit
def decide_feral(st, cd, w, pol, s, n):
    if pol == POLICY_RANDOM:
        return rand_float(rng_of(st)) < 0.5
    return st.res[FOOD] <= w[W_FERAL_FOOD] or st.res[FOOD] < n


@njit
def decide_big_spender(st, cd, w, pol, s):
    if pol == POLICY_RANDOM:
        return rand_float(rng_of(st)) < 0.5
    return st.res[WOOLONGS] >= 4 and R.hand_size(st, s) >= w[W_SPARE_HAND]


@njit
def decide_charming(st, cd, w, pol, s):
    """-1 to skip, else the resource (Food or Fuel) to gain."""
    if pol == POLICY_RANDOM:
        u = rand_below(rng_of(st), 3)
        return -1 if u == 2 else (FOOD if u == 0 else FUEL)
    if R.hand_size(st, s) < w[W_SPARE_HAND] and st.res[FOOD] > w[W_FOOD_LOW]:
        return -1
    return FOOD if resource_value(st, w, FOOD) >= resource_value(st, w, FUEL) else FUEL


@njit
def choose_buy(st, cd, w, pol, s, r):
    room = R.RESOURCE_CAP - st.res[r]
    cash = st.res[WOOLONGS]
    most = cash if cash < room else room
    if pol == POLICY_RANDOM:
        return rand_below(rng_of(st), most + 1)
    target = w[W_FOOD_TARGET] if r == FOOD else w[W_FUEL_TARGET]
    want = int(target) - st.res[r]
    keep = int(w[W_WOOLONG_RESERVE]) + reserved(st, cd, WOOLONGS)
    if r == FOOD and st.res[FOOD] <= 1:
        spendable = cash                    # starving beats every plan
    elif r == FOOD:
        spendable = cash - keep
    else:
        # Fuel never takes the money the next Food needs
        spendable = cash - keep - (2 if st.res[FOOD] <= w[W_FOOD_LOW] else 0)
    k = want if want < spendable else spendable
    if k > most:
        k = most
    return k if k > 0 else 0


@njit
def choose_determined(st, cd, w, pol, s, req, payers, n):
    """Spike's Determined: the jam type to ignore, or -1."""
    total = 0
    for k in range(N_SKILLS):
        total += req[k]
    if total == 0:
        return -1
    if pol == POLICY_RANDOM:
        if rand_float(rng_of(st)) < 0.5:
            return -1
        k = rand_below(rng_of(st), N_SKILLS)
        return k if req[k] > 0 else -1
    if R.can_pay(st, cd, payers, n, req):
        return -1
    # try each type, with Spike's Combat card for the ability set aside first
    sel_seat = np.empty(N_CHARS * HAND + 1, np.int8)
    sel_card = np.empty(N_CHARS * HAND + 1, np.int8)
    used = R.plan_payment(st, cd, R.solo(s), 1, R.one_icon(cd.ability_cost[st.char[s], R.DETERMINED]),
                          True, sel_seat, sel_card)
    if used != 1:
        return -1
    card = sel_card[0]
    if card == EIN:
        st.ein = s
    else:
        st.hand[s, card] = False
    choice = -1
    for k in range(N_SKILLS):
        if req[k] == 0:
            continue
        rest = req.copy()
        rest[k] = 0
        if R.can_pay(st, cd, payers, n, rest):
            if choice < 0 or req[k] > req[choice]:
                choice = k
    if card == EIN:
        st.ein = -1
    else:
        st.hand[s, card] = True
    return choice


@njit
def choose_lead_deck(st, cd, w, pol):
    if pol == POLICY_RANDOM:
        return rand_below(rng_of(st), 3)
    best = -1.0
    best_t = 0
    for t in range(3):
        # expected value of a random card of deck t (its composition is public; the order is not)
        total = 0.0
        for i in range(cd.lead_deck.shape[1]):
            total += lead_value(st, cd, t, cd.lead_deck[t, i])
        total /= cd.lead_deck.shape[1]
        held_best = 0.0
        for i in range(2):
            if st.leads[t, i] >= 0:
                v = lead_value(st, cd, t, st.leads[t, i])
                if v > held_best:
                    held_best = v
        gain = total - 0.5 * held_best
        if st.leads[t, 0] < 0 or st.leads[t, 1] < 0:
            gain += 0.5
        if gain > best:
            best = gain
            best_t = t
    return best_t


@njit
def choose_lead_to_drop(st, cd, w, pol, t):
    """Both spaces of type t are full and a new one arrives: which slot to discard."""
    if pol == POLICY_RANDOM:
        return rand_below(rng_of(st), 2)
    return 0 if lead_value(st, cd, t, st.leads[t, 0]) <= lead_value(st, cd, t, st.leads[t, 1]) else 1


@njit
def choose_lead_to_discard(st, cd, w, pol):
    """Any one held lead to discard (as a cost): (type, slot)."""
    n = 0
    cand_t = np.empty(6, np.int8)
    cand_i = np.empty(6, np.int8)
    best = 1e18
    bt = 0
    bi = 0
    for t in range(3):
        for i in range(2):
            if st.leads[t, i] >= 0:
                cand_t[n] = t
                cand_i[n] = i
                n += 1
                v = lead_value(st, cd, t, st.leads[t, i])
                if v < best:
                    best = v
                    bt = t
                    bi = i
    if pol == POLICY_RANDOM:
        k = rand_below(rng_of(st), n)
        return cand_t[k], cand_i[k]
    return bt, bi


@njit
def choose_net_dive_keep(st, cd, w, pol, t, v1, v2):
    if pol == POLICY_RANDOM:
        return rand_below(rng_of(st), 2)
    return 0 if lead_value(st, cd, t, v1) >= lead_value(st, cd, t, v2) else 1

"""The rules of Cowboy Bebop: Boardgame Boogie as numba kernels.

Every function takes the state record `st` and the card record `cd` and mutates `st` in place.
Player choices are delegated to policies_nb (module P) through one function per decision kind; the
rules only ever offer legal choices. The rollout policy's action choices go to rollout_nb (module RO),
whose imagined futures are played by play_turn_heuristic (never by play_turn), so no compiled
function calls itself. No pandas, no I/O, no Python objects here.
"""
import numpy as np

from boardsim._jit import njit
from boardsim.rng import rand_below, rand_float, seed_stream, shuffle

from . import policies_nb as P
from . import rollout_nb as RO
from .state_nb import (
    A_CHASE, A_EFFICIENT_PILOT, A_ENTER_ZIP, A_EXIT_ZIP, A_FLY_BEBOP, A_INTERACT, A_KEEN_EYE,
    A_LEAN_TIMES, A_MOVE, A_NET_DIVE, A_PASS, A_REMOTE_BEBOP, A_REMOTE_ZIP, A_REST, A_SESSION,
    A_ZIP_FLY, BAR, BEBOP, CONTACT, ED, EIN, FAYE, FOOD, FUEL, HAND, JET, LEAD_DECK, LOG_ABILITY,
    LOG_ACTION, LOG_BUY, LOG_CONTACT, LOG_END, LOG_ESCAPE, LOG_EVENT, LOG_JAM, LOG_LEAD, LOG_OPTION, LOG_POS, LOG_RES, LOG_RESULT, LOG_TURN, MARS, N_BOUNTIES, N_CHARS,
    N_CONTACTS, N_EVENTS, N_LOCS, N_NORMAL_EVENTS, N_SECTORS, N_SKILLS, N_STREAMS, OUT_STARVE,
    OUT_TURN_CAP, OUT_WIN, S_BOUNTIES, S_CONTACTS, S_DISCARD, S_EVENTS, S_LEADS, S_SETUP,
    SHOP, SPIKE, TRACK_SLOTS, WOOLONGS,
)

# effect op codes, as the card loader writes them (numba reads module-level ints as constants)
from .vocab import (  # noqa: E402
    OP_BOUNTIES_BACK, OP_BOUNTIES_MOVE, OP_DISCARD_LEADS, OP_DISCARD_RANDOM, OP_DISCARD_SKILL,
    OP_DRAW_LEADS, OP_GAIN, OP_LOSE_ACTIONS, OP_NO_INTERACT, OP_REPLACE_LEADS, OP_REST, OP_SPEND,
)

# ability slots per character (fixed order, see vocab.ABILITIES)
DETERMINED, KEEN_EYE, SWORDFISH = 0, 1, 2
LEAN_TIMES, WELL_CONNECTED, EFFICIENT_PILOT = 0, 1, 2
PERSUASIVE, BIG_SPENDER, CHARMING = 0, 1, 2
NET_DIVE, FERAL_CHILD, REMOTE_CONTROL = 0, 1, 2

RESOURCE_CAP = 20


# ----------------------------------------------------------------------------------------------
# trace log
@njit
def log_row(st, log, code, seat, a, b, c, d):
    n = st.log_n
    if n < log.shape[0]:
        log[n, 0] = code
        log[n, 1] = seat
        log[n, 2] = a
        log[n, 3] = b
        log[n, 4] = c
        log[n, 5] = d
        st.log_n = n + 1


# ----------------------------------------------------------------------------------------------
# resources
@njit
def gain_resource(st, r, n):
    v = st.res[r] + n
    st.res[r] = RESOURCE_CAP if v > RESOURCE_CAP else v


@njit
def lose_food(st, n):
    """Move Food toward Starve; going below 0 is the Starve space (the game is lost)."""
    v = st.res[FOOD] - n
    if v < 0:
        st.starved = True
        v = 0
    st.res[FOOD] = v
    if v < st.min_food:
        st.min_food = v


@njit
def lose_capped(st, r, n):
    """Fuel and Woolongs cannot go below 0 (only Food can reach Starve)."""
    if r == FOOD:
        lose_food(st, n)
    else:
        v = st.res[r] - n
        st.res[r] = 0 if v < 0 else v


# ----------------------------------------------------------------------------------------------
# skill cards, tableau, Ein
@njit
def hand_size(st, s):
    k = 0
    for c in range(HAND):
        if st.hand[s, c]:
            k += 1
    return k


@njit
def discard_card(st, s, c):
    """Put card c of seat s (or Ein, c == EIN) at the right end of s's tableau."""
    if c == EIN:
        st.ein = s
    else:
        st.hand[s, c] = False
    st.tab[s, st.tab_n[s]] = c
    st.tab_n[s] += 1


@njit
def draw_from_tableau(st, s, k):
    """Take the k leftmost tableau cards back to hand; Ein returns to the middle of the table."""
    n = st.tab_n[s]
    if k > n:
        k = n
    for i in range(k):
        c = st.tab[s, i]
        if c == EIN:
            st.ein = -1
        else:
            st.hand[s, c] = True
    for i in range(k, n):
        st.tab[s, i - k] = st.tab[s, i]
    st.tab_n[s] = n - k


@njit
def discard_random(st, s, n):
    """Shuffle the hand and deal n cards to the tableau (fewer if the hand runs out)."""
    for _ in range(n):
        k = hand_size(st, s)
        if k == 0:
            return
        pick = rand_below(st.rng[S_DISCARD], k)
        for c in range(HAND):
            if st.hand[s, c]:
                if pick == 0:
                    discard_card(st, s, c)
                    break
                pick -= 1


@njit
def plan_payment(st, cd, payers, n_payers, req, allow_ein, sel_seat, sel_card):
    """Choose cards from the payers' hands whose icons cover `req` (icons per skill).

    Returns the number of cards chosen (written to sel_seat/sel_card), or -1 if `req` cannot be met.
    The rule is the same for every policy: a thrifty greedy choice first (see greedy_payment); in
    the rare hands where it misassigns an OR card, an exact search finds a payment whenever one
    exists, so a payable requirement is never refused.
    """
    count = greedy_payment(st, cd, payers, n_payers, req, allow_ein, sel_seat, sel_card)
    if count >= 0 or not payment_exists(st, cd, payers, n_payers, req, allow_ein):
        return count
    return search_payment(st, cd, payers, n_payers, req, allow_ein, sel_seat, sel_card)


@njit
def payment_exists(st, cd, payers, n_payers, req, allow_ein):
    """Exact test. AND and single cards never compete (each icon of a discarded card counts), so
    count them all; what is left must be matched by OR cards and Ein, one icon each, which is
    possible exactly when Hall's condition holds for every set of skills."""
    left = np.zeros(N_SKILLS, np.int16)
    for k in range(N_SKILLS):
        left[k] = req[k]
    or_mask = np.zeros(N_CHARS * HAND + 1, np.int8)      # bit k: the OR card can give skill k
    n_or = 0
    for pi in range(n_payers):
        p = payers[pi]
        ch = st.char[p]
        for c in range(HAND):
            if not st.hand[p, c]:
                continue
            if cd.skill_is_or[ch, c]:
                mask = 0
                for k in range(N_SKILLS):
                    if cd.skill_icons[ch, c, k] > 0:
                        mask |= 1 << k
                or_mask[n_or] = mask
                n_or += 1
            else:
                for k in range(N_SKILLS):
                    left[k] -= cd.skill_icons[ch, c, k]
    if allow_ein and st.ein < 0:
        or_mask[n_or] = (1 << N_SKILLS) - 1
        n_or += 1
    for subset in range(1, 1 << N_SKILLS):
        need = 0
        for k in range(N_SKILLS):
            if subset & (1 << k) and left[k] > 0:
                need += left[k]
        supply = 0
        for i in range(n_or):
            if or_mask[i] & subset:
                supply += 1
        if supply < need:
            return False
    return True


@njit
def next_option(current, is_or, icons, r):
    """The option after `current` for one candidate card: take it (an OR card as each still-needed
    skill in turn), then skip it (-1); -3 once skipping has been tried too."""
    if current == -1:
        return -3
    start = 0 if current == -2 else current + 1
    for c in range(start, N_SKILLS + 1):
        if is_or:
            if c < N_SKILLS and icons[c] > 0 and r[c] > 0:
                return c
        elif c == N_SKILLS:
            for k in range(N_SKILLS):
                if icons[k] > 0 and r[k] > 0:
                    return c
    return -1


@njit
def search_payment(st, cd, payers, n_payers, req, allow_ein, sel_seat, sel_card):
    """Depth-first search over the useful cards (take as each useful skill, or skip), pruned by the
    icons still available; only called when a payment is known to exist."""
    m_max = N_CHARS * HAND + 1
    cand_seat = np.empty(m_max, np.int8)
    cand_card = np.empty(m_max, np.int8)
    icons = np.zeros((m_max, N_SKILLS), np.int16)
    is_or = np.zeros(m_max, np.bool_)
    m = 0
    for pi in range(n_payers):
        p = payers[pi]
        ch = st.char[p]
        for c in range(HAND):
            if st.hand[p, c]:
                useful = False
                for k in range(N_SKILLS):
                    icons[m, k] = cd.skill_icons[ch, c, k]
                    if icons[m, k] > 0 and req[k] > 0:
                        useful = True
                if useful:
                    cand_seat[m] = p
                    cand_card[m] = c
                    is_or[m] = cd.skill_is_or[ch, c]
                    m += 1
    if allow_ein and st.ein < 0:
        cand_seat[m] = payers[0]
        cand_card[m] = EIN
        is_or[m] = True
        for k in range(N_SKILLS):
            icons[m, k] = 1
        m += 1
    # suffix[i, k]: icons of skill k still obtainable from candidates i.. (an OR card counts for each)
    suffix = np.zeros((m + 1, N_SKILLS), np.int16)
    for i in range(m - 1, -1, -1):
        for k in range(N_SKILLS):
            suffix[i, k] = suffix[i + 1, k] + icons[i, k]
    r = np.zeros(N_SKILLS, np.int16)
    for k in range(N_SKILLS):
        r[k] = req[k]
    # choice[i]: -2 untried; k < N_SKILLS took an OR card as skill k; N_SKILLS took a card whole;
    # -1 skipped it (the last option)
    choice = np.full(m + 1, -2, np.int16)
    gave = np.zeros((m + 1, N_SKILLS), np.int16)
    i = 0
    while i >= 0:
        done = True
        for k in range(N_SKILLS):
            if r[k] > 0:
                done = False
        if done:
            count = 0
            for j in range(i):
                if choice[j] >= 0:
                    sel_seat[count] = cand_seat[j]
                    sel_card[count] = cand_card[j]
                    count += 1
            return count
        feasible = i < m
        for k in range(N_SKILLS):
            if r[k] > suffix[i, k]:
                feasible = False
        advanced = False
        if feasible:
            c = next_option(choice[i], is_or[i], icons[i], r)
            if c != -3:
                choice[i] = c
                for k in range(N_SKILLS):
                    gave[i, k] = 0
                if c == N_SKILLS:
                    for k in range(N_SKILLS):
                        g = icons[i, k] if icons[i, k] < r[k] else r[k]
                        gave[i, k] = g
                        r[k] -= g
                elif c >= 0:
                    gave[i, c] = 1
                    r[c] -= 1
                i += 1
                advanced = True
        if not advanced:
            # backtrack: reset this level, undo the previous level's choice and try its next option
            choice[i] = -2
            i -= 1
            if i >= 0:
                for k in range(N_SKILLS):
                    r[k] += gave[i, k]
                    gave[i, k] = 0
    return -1


@njit
def greedy_payment(st, cd, payers, n_payers, req, allow_ein, sel_seat, sel_card):
    """Thrifty greedy choice: cards that fit exactly first (AND cards whose icons are all needed,
    then single icons, then OR cards with one useful side, then OR cards assigned to the skill still
    most needed), AND cards that waste an icon after that, Ein last; payers in the order given.
    Returns -1 when it finds no payment (plan_payment then searches exactly)."""
    r = np.zeros(N_SKILLS, np.int16)
    total = 0
    for k in range(N_SKILLS):
        r[k] = req[k]
        total += req[k]
    if total == 0:
        return 0
    taken = np.zeros((N_CHARS, HAND), np.bool_)
    count = 0
    for stage in range(5):
        for pi in range(n_payers):
            p = payers[pi]
            ch = st.char[p]
            for c in range(HAND):
                if total == 0:
                    break
                if not st.hand[p, c] or taken[p, c]:
                    continue
                is_or = cd.skill_is_or[ch, c]
                icons = cd.skill_icons[ch, c]
                n_icons = 0
                useful = 0
                fits = True
                best = -1
                for k in range(N_SKILLS):
                    if icons[k] > 0:
                        n_icons += icons[k]
                        if r[k] > 0:
                            useful += 1
                            if best < 0 or r[k] > r[best]:
                                best = k
                        if icons[k] > r[k]:
                            fits = False
                if useful == 0:
                    continue
                take = False
                if not is_or:
                    if stage == 0 and n_icons >= 2 and fits:
                        take = True
                    elif stage == 1 and n_icons == 1:
                        take = True
                    elif stage == 4:
                        take = True
                    if take:
                        for k in range(N_SKILLS):
                            used = icons[k] if icons[k] < r[k] else r[k]
                            r[k] -= used
                            total -= used
                else:
                    if (stage == 2 and useful == 1) or stage == 3:
                        take = True
                        r[best] -= 1
                        total -= 1
                if take:
                    taken[p, c] = True
                    sel_seat[count] = p
                    sel_card[count] = c
                    count += 1
    if total == 1 and allow_ein and st.ein < 0:
        sel_seat[count] = payers[0]
        sel_card[count] = EIN
        count += 1
        total = 0
    if total > 0:
        return -1
    return count


@njit
def commit_payment(st, sel_seat, sel_card, count):
    for i in range(count):
        discard_card(st, sel_seat[i], sel_card[i])


@njit
def pay(st, cd, payers, n_payers, req):
    """Discard cards covering req if possible; return whether it was paid."""
    sel_seat = np.empty(N_CHARS * HAND + 1, np.int8)
    sel_card = np.empty(N_CHARS * HAND + 1, np.int8)
    count = plan_payment(st, cd, payers, n_payers, req, True, sel_seat, sel_card)
    if count < 0:
        return False
    commit_payment(st, sel_seat, sel_card, count)
    return True


@njit
def can_pay(st, cd, payers, n_payers, req):
    sel_seat = np.empty(N_CHARS * HAND + 1, np.int8)
    sel_card = np.empty(N_CHARS * HAND + 1, np.int8)
    return plan_payment(st, cd, payers, n_payers, req, True, sel_seat, sel_card) >= 0


@njit
def solo(s):
    payers = np.empty(N_CHARS, np.int8)
    payers[0] = s
    return payers


@njit
def one_icon(skill):
    req = np.zeros(N_SKILLS, np.int16)
    req[skill] = 1
    return req


@njit
def can_pay_ability(st, cd, s, slot):
    return can_pay(st, cd, solo(s), 1, one_icon(cd.ability_cost[st.char[s], slot]))


@njit
def pay_ability(st, cd, s, slot, log):
    """Discard the ability's icon from s's own hand (or Ein); log it."""
    ok = pay(st, cd, solo(s), 1, one_icon(cd.ability_cost[st.char[s], slot]))
    if ok:
        log_row(st, log, LOG_ABILITY, s, st.char[s], slot, 0, 0)
    return ok


@njit
def helpers(st, s, payers):
    """Seats that may help s (s itself first, then those in the same sector, most cards first)."""
    n = 1
    payers[0] = s
    for p in range(st.n_seats):
        if p != s and st.sector[p] == st.sector[s]:
            payers[n] = p
            n += 1
    # insertion sort of helpers by hand size, descending (the actor stays first)
    for i in range(2, n):
        j = i
        while j > 1 and hand_size(st, payers[j]) > hand_size(st, payers[j - 1]):
            tmp = payers[j]
            payers[j] = payers[j - 1]
            payers[j - 1] = tmp
            j -= 1
    return n


# ----------------------------------------------------------------------------------------------
# decks
@njit
def draw_event(st):
    if st.event_deck_n == 0:
        n = st.event_disc_n
        for i in range(n):
            st.event_deck[i] = st.event_disc[i]
        st.event_disc_n = 0
        shuffle(st.rng[S_EVENTS], st.event_deck, n)
        st.event_deck_n = n
    st.event_deck_n -= 1
    e = st.event_deck[st.event_deck_n]
    st.event_seen[e] = True
    return e


@njit
def discard_event(st, e):
    st.event_disc[st.event_disc_n] = e
    st.event_disc_n += 1


@njit
def draw_contact(st):
    if st.contact_deck_n == 0:
        n = st.contact_disc_n
        for i in range(n):
            st.contact_deck[i] = st.contact_disc[i]
        st.contact_disc_n = 0
        shuffle(st.rng[S_CONTACTS], st.contact_deck, n)
        st.contact_deck_n = n
    st.contact_deck_n -= 1
    return st.contact_deck[st.contact_deck_n]


@njit
def discard_contact(st, c):
    st.contact_disc[st.contact_disc_n] = c
    st.contact_disc_n += 1


# ----------------------------------------------------------------------------------------------
# leads
@njit
def draw_lead(st, t):
    """Top card of lead deck t (reshuffling its discard pile when empty); -1 if none anywhere."""
    if st.lead_deck_n[t] == 0:
        n = st.lead_disc_n[t]
        for i in range(n):
            st.lead_deck[t, i] = st.lead_disc[t, i]
        st.lead_disc_n[t] = 0
        shuffle(st.rng[S_LEADS], st.lead_deck[t], n)
        st.lead_deck_n[t] = n
    if st.lead_deck_n[t] == 0:
        return -1
    st.lead_deck_n[t] -= 1
    return st.lead_deck[t, st.lead_deck_n[t]]


@njit
def discard_lead_value(st, t, v):
    st.lead_disc[t, st.lead_disc_n[t]] = v
    st.lead_disc_n[t] += 1


@njit
def drop_lead(st, t, slot):
    discard_lead_value(st, t, st.leads[t, slot])
    st.leads[t, slot] = -1


@njit
def lead_count(st):
    k = 0
    for t in range(3):
        for i in range(2):
            if st.leads[t, i] >= 0:
                k += 1
    return k


@njit
def gain_lead(st, cd, w, pol, s, t, v, log):
    """Place lead v of type t in the leads area, discarding one of that type if both spaces are full."""
    if v < 0:
        return
    log_row(st, log, LOG_LEAD, s, t, v, 0, 0)
    for i in range(2):
        if st.leads[t, i] < 0:
            st.leads[t, i] = v
            return
    slot = P.choose_lead_to_drop(st, cd, w, pol, t)
    drop_lead(st, t, slot)
    st.leads[t, slot] = v


@njit
def draw_leads_effect(st, cd, w, pol, s, n, log):
    for _ in range(n):
        t = P.choose_lead_deck(st, cd, w, pol)
        gain_lead(st, cd, w, pol, s, t, draw_lead(st, t), log)


@njit
def discard_any_lead(st, cd, w, pol):
    """Discard one lead of the player's choosing; returns its type (or -1 if the area is empty)."""
    if lead_count(st) == 0:
        return -1
    t, slot = P.choose_lead_to_discard(st, cd, w, pol)
    drop_lead(st, t, slot)
    return t


# ----------------------------------------------------------------------------------------------
# bounties
@njit
def refill_track(st, cd):
    for i in range(TRACK_SLOTS):
        if st.track_bounty[i] < 0 and st.bounty_deck_n > 0:
            st.bounty_deck_n -= 1
            b = st.bounty_deck[st.bounty_deck_n]
            st.bounty_seen[b] = True
            st.track_bounty[i] = b
            st.track_pos[i] = cd.bounty_start[b]


@njit
def bounties_move(st, cd, log):
    """Every bounty steps toward space 1; one already on space 1 escapes and is replaced."""
    for i in range(TRACK_SLOTS):
        b = st.track_bounty[i]
        if b < 0:
            continue
        if st.track_pos[i] <= 1:
            st.track_bounty[i] = -1
            st.escaped += 1
            log_row(st, log, LOG_ESCAPE, st.seat, b, 0, 0, 0)
        else:
            st.track_pos[i] -= 1
    refill_track(st, cd)


@njit
def bounties_back(st, cd, n):
    for i in range(TRACK_SLOTS):
        if st.track_bounty[i] >= 0:
            v = st.track_pos[i] + n
            st.track_pos[i] = cd.track_spaces if v > cd.track_spaces else v


# ----------------------------------------------------------------------------------------------
# effects (events, contacts, Vicious)
@njit
def food_to_spend(st, cd, w, pol, s, n, log):
    """Ed's Feral Child: once per event, on his own event, he may discard Investigation to skip 1 Food."""
    if n > 0 and st.feral_ready and st.char[s] == ED and can_pay_ability(st, cd, s, FERAL_CHILD):
        if P.decide_feral(st, cd, w, pol, s, n):
            pay_ability(st, cd, s, FERAL_CHILD, log)
            st.feral_ready = False
            return n - 1
    return n


@njit
def option_affordable(st, cd, eff, s, discount):
    """Can seat s alone (with Ein) pay every cost of this option? `discount` Woolongs are waived."""
    req = np.zeros(N_SKILLS, np.int16)
    cards_needed = 0
    leads_needed = 0
    for i in range(eff.shape[0]):
        op = eff[i, 0]
        arg = eff[i, 1]
        n = eff[i, 2]
        if op == OP_SPEND:
            need = n - discount if arg == WOOLONGS else n
            if need > 0 and st.res[arg] < need:
                return False
        elif op == OP_DISCARD_SKILL:
            req[arg] += n
        elif op == OP_DISCARD_RANDOM:
            cards_needed += n
        elif op == OP_DISCARD_LEADS or op == OP_REPLACE_LEADS:
            leads_needed += n
    if leads_needed > lead_count(st):
        return False
    sel_seat = np.empty(N_CHARS * HAND + 1, np.int8)
    sel_card = np.empty(N_CHARS * HAND + 1, np.int8)
    used = plan_payment(st, cd, solo(s), 1, req, True, sel_seat, sel_card)
    if used < 0:
        return False
    if cards_needed > 0:
        hand_used = 0
        for i in range(used):
            if sel_card[i] != EIN:
                hand_used += 1
        if hand_size(st, s) - hand_used < cards_needed:
            return False
    return True


@njit
def apply_effects(st, cd, w, pol, eff, s, discount, forced, in_event, log):
    """Resolve one option's effects for seat s.

    Chosen options are affordable, so their costs are paid in full. Forced effects (Vicious) are
    paid as far as possible: Food below 0 starves the crew, other shortfalls are simply lost.
    Skill discards of an option are paid together, before its other effects.
    """
    req = np.zeros(N_SKILLS, np.int16)
    any_skill = False
    for i in range(eff.shape[0]):
        if eff[i, 0] == OP_DISCARD_SKILL:
            req[eff[i, 1]] += eff[i, 2]
            any_skill = True
    if any_skill:
        pay(st, cd, solo(s), 1, req)
    for i in range(eff.shape[0]):
        op = eff[i, 0]
        arg = eff[i, 1]
        n = eff[i, 2]
        if op == OP_SPEND:
            if arg == WOOLONGS:
                n = n - discount if n > discount else 0
            if arg == FOOD and in_event:
                n = food_to_spend(st, cd, w, pol, s, n, log)
            lose_capped(st, arg, n)
        elif op == OP_GAIN:
            gain_resource(st, arg, n)
        elif op == OP_DISCARD_RANDOM:
            discard_random(st, s, n)
        elif op == OP_DISCARD_LEADS:
            for _ in range(n):
                discard_any_lead(st, cd, w, pol)
        elif op == OP_DRAW_LEADS:
            draw_leads_effect(st, cd, w, pol, s, n, log)
        elif op == OP_REPLACE_LEADS:
            for _ in range(n):
                t = discard_any_lead(st, cd, w, pol)
                if t >= 0:
                    gain_lead(st, cd, w, pol, s, t, draw_lead(st, t), log)
        elif op == OP_BOUNTIES_MOVE:
            for _ in range(n):
                bounties_move(st, cd, log)
        elif op == OP_BOUNTIES_BACK:
            bounties_back(st, cd, n)
        elif op == OP_REST:
            draw_from_tableau(st, s, n)
        elif op == OP_NO_INTERACT:
            st.no_interact = True
        elif op == OP_LOSE_ACTIONS:
            v = st.actions_left - n
            st.actions_left = 0 if v < 0 else v
        if st.starved:
            return


# ----------------------------------------------------------------------------------------------
# event phase
@njit
def event_phase(st, cd, w, pol, log):
    s = st.seat
    e = draw_event(st)
    st.feral_ready = st.char[s] == ED
    log_row(st, log, LOG_EVENT, s, e, 0, 0, 0)
    if cd.event_vicious[e]:
        st.vicious_drawn += 1
        apply_effects(st, cd, w, pol, cd.event_effects[e, 0], s, 0, True, True, log)
    else:
        top = cd.event_top[e]
        if top == 1:
            lose_food(st, food_to_spend(st, cd, w, pol, s, 1, log))
        elif top == 2:
            bounties_move(st, cd, log)
        if not st.starved:
            affordable = np.zeros(2, np.bool_)
            n_ok = 0
            for o in range(cd.event_n_options[e]):
                affordable[o] = option_affordable(st, cd, cd.event_effects[e, o], s, 0)
                if affordable[o]:
                    n_ok += 1
            if n_ok == 0:
                log_row(st, log, LOG_OPTION, s, -1, 0, 0, 0)
                lose_food(st, food_to_spend(st, cd, w, pol, s, 1, log))
            else:
                o = P.choose_event_option(st, cd, w, pol, s, e, affordable)
                log_row(st, log, LOG_OPTION, s, o, 0, 0, 0)
                apply_effects(st, cd, w, pol, cd.event_effects[e, o], s, 0, False, True, log)
    st.feral_ready = False
    discard_event(st, e)


# ----------------------------------------------------------------------------------------------
# movement
@njit
def fly_bebop(st, dest):
    """Dock the Bebop at sector dest, carrying everyone and every zip craft aboard."""
    st.bebop = dest
    for p in range(st.n_seats):
        if st.place[p] == BEBOP:
            st.sector[p] = dest
        if st.zip_place[p] == BEBOP:
            st.zip_sector[p] = dest


@njit
def zip_here(st, s):
    if st.place[s] == BEBOP:
        return st.zip_place[s] == BEBOP
    return st.zip_place[s] == st.place[s] and st.zip_sector[s] == st.sector[s]


@njit
def move_zip(st, s, sector, place):
    """Put seat s's zip craft (and s, if flying it) at (sector, place); BEBOP means aboard."""
    if place == BEBOP:
        sector = st.bebop
    st.zip_sector[s] = sector
    st.zip_place[s] = place
    if st.in_zip[s]:
        st.sector[s] = sector
        st.place[s] = place


# ----------------------------------------------------------------------------------------------
# interact
@njit
def place_used_token(st, sector, loc):
    st.used[sector, loc] = True
    st.used_n[loc] += 1
    if st.used_n[loc] >= N_SECTORS:
        # the fifth token of a type frees every location of that type
        for k in range(N_SECTORS):
            st.used[k, loc] = False
        st.used_n[loc] = 0


@njit
def resolve_contact(st, cd, w, pol, s, log):
    c = draw_contact(st)
    log_row(st, log, LOG_CONTACT, s, c, 0, 0, 0)
    ch = st.char[s]
    if ch == JET and can_pay_ability(st, cd, s, WELL_CONNECTED) and P.decide_well_connected(st, cd, w, pol, s, c):
        pay_ability(st, cd, s, WELL_CONNECTED, log)
        c2 = draw_contact(st)
        log_row(st, log, LOG_CONTACT, s, c2, 1, 0, 0)
        if P.choose_contact_card(st, cd, w, pol, s, c, c2) == 1:
            discard_contact(st, c)
            c = c2
        else:
            discard_contact(st, c2)
    discount = 0
    if ch == FAYE and can_pay_ability(st, cd, s, PERSUASIVE):
        costs_woolongs = False
        for o in range(cd.contact_n_options[c]):
            for i in range(4):
                if cd.contact_effects[c, o, i, 0] == OP_SPEND and cd.contact_effects[c, o, i, 1] == WOOLONGS:
                    costs_woolongs = True
        if costs_woolongs and P.decide_persuasive(st, cd, w, pol, s, c):
            pay_ability(st, cd, s, PERSUASIVE, log)
            discount = 1
    affordable = np.zeros(2, np.bool_)
    n_ok = 0
    for o in range(cd.contact_n_options[c]):
        affordable[o] = option_affordable(st, cd, cd.contact_effects[c, o], s, discount)
        if affordable[o]:
            n_ok += 1
    if n_ok > 0:
        o = P.choose_contact_option(st, cd, w, pol, s, c, affordable, discount)
        log_row(st, log, LOG_OPTION, s, o, 1, 0, 0)
        apply_effects(st, cd, w, pol, cd.contact_effects[c, o], s, discount, False, False, log)
    else:
        log_row(st, log, LOG_OPTION, s, -1, 1, 0, 0)
    discard_contact(st, c)


@njit
def can_interact(st, s):
    return (not st.no_interact) and st.place[s] < BEBOP and not st.used[st.sector[s], st.place[s]]


@njit
def interact(st, cd, w, pol, s, log):
    sector = st.sector[s]
    loc = st.place[s]
    ch = st.char[s]
    place_token = True
    if loc == BAR:
        draw_from_tableau(st, s, st.tab_n[s])
        if (ch == FAYE and st.res[WOOLONGS] >= 1 and can_pay_ability(st, cd, s, BIG_SPENDER)
                and P.decide_big_spender(st, cd, w, pol, s)):
            pay_ability(st, cd, s, BIG_SPENDER, log)
            lose_capped(st, WOOLONGS, 1)
            place_token = False
    elif loc == CONTACT:
        resolve_contact(st, cd, w, pol, s, log)
    else:
        r = FOOD if loc == SHOP else FUEL
        k = P.choose_buy(st, cd, w, pol, s, r)
        if k > 0:
            lose_capped(st, WOOLONGS, k)
            gain_resource(st, r, k)
        log_row(st, log, LOG_BUY, s, r, k, 0, 0)
        if ch == FAYE and can_pay_ability(st, cd, s, CHARMING):
            g = P.decide_charming(st, cd, w, pol, s)
            if g >= 0:
                pay_ability(st, cd, s, CHARMING, log)
                gain_resource(st, g, 1)
    if place_token:
        place_used_token(st, sector, loc)


# ----------------------------------------------------------------------------------------------
# sessions and chases
@njit
def session_open(st, s):
    """Part I for everyone before anyone's Part II."""
    part = st.part[s]
    if part >= 2:
        return False
    if part == 1:
        for p in range(st.n_seats):
            if st.part[p] == 0:
                return False
    return True


@njit
def can_session(st, cd, s):
    if not session_open(st, s):
        return False
    k = st.session[s]
    part = st.part[s]
    if st.sector[s] != cd.session_place[k, part, 0] or st.place[s] != cd.session_place[k, part, 1]:
        return False
    for r in range(3):
        if st.res[r] < cd.session_spend[k, part, r]:
            return False
    payers = np.empty(N_CHARS, np.int8)
    n = helpers(st, s, payers)
    return can_pay(st, cd, payers, n, cd.session_skills[k, part])


@njit
def resolve_jams(st, cd, w, pol, s, n_jams, is_chase, log):
    """Draw n_jams events; Vicious ones resolve in full; then the crew in the sector discards the icons."""
    req = np.zeros(N_SKILLS, np.int16)
    drawn = np.empty(8, np.int8)
    for j in range(n_jams):
        e = draw_event(st)
        drawn[j] = e
        log_row(st, log, LOG_JAM, s, e, 0, 0, 0)
        if cd.event_vicious[e]:
            st.vicious_drawn += 1
            st.feral_ready = False          # Feral Child never applies to jams
            apply_effects(st, cd, w, pol, cd.event_effects[e, 0], s, 0, True, False, log)
        else:
            req[cd.event_jam[e]] += 1
    for j in range(n_jams):
        discard_event(st, drawn[j])
    if st.starved:
        return False
    payers = np.empty(N_CHARS, np.int8)
    n = helpers(st, s, payers)
    if is_chase and st.char[s] == SPIKE and can_pay_ability(st, cd, s, DETERMINED):
        k = P.choose_determined(st, cd, w, pol, s, req, payers, n)
        if k >= 0:
            pay_ability(st, cd, s, DETERMINED, log)
            req[k] = 0
    return pay(st, cd, payers, n, req)


@njit
def do_session(st, cd, w, pol, s, log):
    k = st.session[s]
    part = st.part[s]
    for r in range(3):
        lose_capped(st, r, cd.session_spend[k, part, r])
    payers = np.empty(N_CHARS, np.int8)
    n = helpers(st, s, payers)
    pay(st, cd, payers, n, cd.session_skills[k, part])
    ok = resolve_jams(st, cd, w, pol, s, cd.session_jams[k, part], False, log)
    if ok:
        st.part[s] = part + 1
    log_row(st, log, LOG_RESULT, s, 0, part, 1 if ok else 0, 0)
    return ok


@njit
def locating_leads(st, cd, slot, sector, place, out):
    """Held lead slots (sector, location, terrain) that name one real place and include the
    "last seen" lead of track bounty `slot`; `sector`/`place` pin that place (-1: any).
    Writes the three slots to `out` and returns True when there is such a set."""
    b = st.track_bounty[slot]
    if b < 0:
        return False
    lt = cd.bounty_lead[b, 0]
    lv = cd.bounty_lead[b, 1]
    for i in range(2):
        sec = st.leads[0, i]
        if sec < 0 or (sector >= 0 and sec != sector):
            continue
        for j in range(2):
            loc = st.leads[1, j]
            if loc < 0 or (place >= 0 and loc != place):
                continue
            for k in range(2):
                tv = st.leads[2, k]
                if tv < 0 or (tv != cd.terrain[sec, loc, 0] and tv != cd.terrain[sec, loc, 1]):
                    continue
                if (lt == 0 and lv == sec) or (lt == 1 and lv == loc) or (lt == 2 and lv == tv):
                    out[0] = i
                    out[1] = j
                    out[2] = k
                    return True
    return False


@njit
def chase_leads(st, cd, s, slot, out):
    """Lead slots (sector, location, terrain) that locate track bounty `slot` at s's location."""
    if st.place[s] >= BEBOP:
        return False
    return locating_leads(st, cd, slot, st.sector[s], st.place[s], out)


@njit
def can_chase(st, cd, s, slot):
    out = np.empty(3, np.int8)
    if not chase_leads(st, cd, s, slot, out):
        return False
    payers = np.empty(N_CHARS, np.int8)
    n = helpers(st, s, payers)
    return can_pay(st, cd, payers, n, cd.bounty_skills[st.track_bounty[slot]])


@njit
def do_chase(st, cd, w, pol, s, slot, log):
    out = np.empty(3, np.int8)
    chase_leads(st, cd, s, slot, out)
    for t in range(3):
        drop_lead(st, t, out[t])
    b = st.track_bounty[slot]
    payers = np.empty(N_CHARS, np.int8)
    n = helpers(st, s, payers)
    pay(st, cd, payers, n, cd.bounty_skills[b])
    ok = resolve_jams(st, cd, w, pol, s, cd.bounty_jams[b], True, log)
    if ok:
        st.caught += 1
        for r in range(3):
            gain_resource(st, r, cd.bounty_payout[b, r])
        st.track_bounty[slot] = -1
        refill_track(st, cd)
    log_row(st, log, LOG_RESULT, s, 1, b, 1 if ok else 0, 0)
    return ok


# ----------------------------------------------------------------------------------------------
# legal actions
@njit
def push(buf, n, kind, a, b, c, d):
    if n < buf.shape[0]:
        buf[n, 0] = kind
        buf[n, 1] = a
        buf[n, 2] = b
        buf[n, 3] = c
        buf[n, 4] = d
        return n + 1
    return n


@njit
def legal_actions(st, cd, s, buf):
    """Every legal choice for seat s right now (A_PASS ends the action phase; A_ZIP_FLY is free)."""
    n = push(buf, 0, A_PASS, 0, 0, 0, 0)
    ch = st.char[s]
    sec = st.sector[s]
    here = st.place[s]
    aboard = here == BEBOP and not st.in_zip[s]
    if not st.in_zip[s]:
        for dest in range(BEBOP + 1):
            if dest == here:
                continue
            if (dest == BEBOP or here == BEBOP) and st.bebop != sec:
                continue
            n = push(buf, n, A_MOVE, dest, 0, 0, 0)
        if aboard and st.res[FUEL] >= 1:
            for dest in range(N_SECTORS):
                if dest != st.bebop:
                    n = push(buf, n, A_FLY_BEBOP, dest, 0, 0, 0)
        if cd.has_zip[ch] and zip_here(st, s):
            n = push(buf, n, A_ENTER_ZIP, 0, 0, 0, 0)
    else:
        n = push(buf, n, A_EXIT_ZIP, 0, 0, 0, 0)
        can_fuel = st.res[FUEL] >= 1
        can_sword = ch == SPIKE and can_pay_ability(st, cd, s, SWORDFISH)
        for dsec in range(N_SECTORS):
            for dplace in range(BEBOP + 1):
                if dplace == BEBOP and dsec != st.bebop:
                    continue
                if dsec == sec and dplace == here:
                    continue
                if can_fuel:
                    n = push(buf, n, A_ZIP_FLY, dsec, dplace, 0, 0)
                if can_sword:
                    n = push(buf, n, A_ZIP_FLY, dsec, dplace, 1, 0)
    if can_interact(st, s):
        n = push(buf, n, A_INTERACT, 0, 0, 0, 0)
    if st.tab_n[s] > 0:
        n = push(buf, n, A_REST, 0, 0, 0, 0)
    if can_session(st, cd, s):
        n = push(buf, n, A_SESSION, 0, 0, 0, 0)
    for slot in range(TRACK_SLOTS):
        if can_chase(st, cd, s, slot):
            n = push(buf, n, A_CHASE, slot, 0, 0, 0)
    if ch == SPIKE and lead_count(st) > 0 and can_pay_ability(st, cd, s, KEEN_EYE):
        for t in range(3):
            for i in range(2):
                if st.leads[t, i] < 0:
                    continue
                for t2 in range(3):
                    seen = np.zeros(16, np.bool_)
                    for j in range(st.lead_disc_n[t2]):
                        v = st.lead_disc[t2, j]
                        if not seen[v]:
                            seen[v] = True
                            n = push(buf, n, A_KEEN_EYE, t, i, t2, v)
                    if t2 == t and not seen[st.leads[t, i]]:
                        n = push(buf, n, A_KEEN_EYE, t, i, t2, st.leads[t, i])
    if ch == JET and can_pay_ability(st, cd, s, LEAN_TIMES):
        for a in range(3):
            if st.res[a] >= 1:
                for b in range(3):
                    if b != a:
                        n = push(buf, n, A_LEAN_TIMES, a, b, 0, 0)
    if ch == JET and aboard and can_pay_ability(st, cd, s, EFFICIENT_PILOT):
        for dest in range(N_SECTORS):
            if dest == st.bebop:
                continue
            n = push(buf, n, A_EFFICIENT_PILOT, dest, -1, 0, 0)
            for p in range(st.n_seats):
                if p == s or st.in_zip[p] or st.sector[p] != sec:
                    continue
                if st.place[p] == BEBOP:
                    for loc in range(N_LOCS):
                        n = push(buf, n, A_EFFICIENT_PILOT, dest, p, loc, 0)
                else:
                    n = push(buf, n, A_EFFICIENT_PILOT, dest, p, BEBOP, 0)
    if ch == ED and lead_count(st) > 0 and can_pay_ability(st, cd, s, NET_DIVE):
        for t in range(3):
            for i in range(2):
                if st.leads[t, i] >= 0:
                    for t2 in range(3):
                        n = push(buf, n, A_NET_DIVE, t, i, t2, 0)
    if ch == ED and can_pay_ability(st, cd, s, REMOTE_CONTROL):
        for dest in range(N_SECTORS):
            if dest != st.bebop:
                n = push(buf, n, A_REMOTE_BEBOP, dest, 0, 0, 0)
        for p in range(st.n_seats):
            if not cd.has_zip[st.char[p]]:
                continue
            for dsec in range(N_SECTORS):
                for dplace in range(BEBOP + 1):
                    if dplace == BEBOP and dsec != st.bebop:
                        continue
                    if st.zip_place[p] == dplace and (dplace == BEBOP or st.zip_sector[p] == dsec):
                        continue
                    n = push(buf, n, A_REMOTE_ZIP, p, dsec, dplace, 0)
    return n


@njit
def do_action(st, cd, w, pol, s, act, log):
    """Carry out one legal action (as produced by legal_actions)."""
    kind = act[0]
    a = act[1]
    b = act[2]
    c = act[3]
    d = act[4]
    log_row(st, log, LOG_ACTION, s, kind, a, b, c)
    if kind == A_MOVE:
        st.place[s] = a
    elif kind == A_FLY_BEBOP:
        lose_capped(st, FUEL, 1)
        fly_bebop(st, a)
    elif kind == A_ENTER_ZIP:
        st.in_zip[s] = True
        st.zip_sector[s] = st.sector[s]
        st.zip_place[s] = st.place[s]
    elif kind == A_EXIT_ZIP:
        st.in_zip[s] = False
    elif kind == A_ZIP_FLY:
        if c == 1:
            pay_ability(st, cd, s, SWORDFISH, log)
        else:
            lose_capped(st, FUEL, 1)
        move_zip(st, s, a, b)
    elif kind == A_INTERACT:
        interact(st, cd, w, pol, s, log)
    elif kind == A_REST:
        draw_from_tableau(st, s, 2)
    elif kind == A_SESSION:
        do_session(st, cd, w, pol, s, log)
    elif kind == A_CHASE:
        do_chase(st, cd, w, pol, s, a, log)
    elif kind == A_KEEN_EYE:
        pay_ability(st, cd, s, KEEN_EYE, log)
        drop_lead(st, a, b)
        for j in range(st.lead_disc_n[c]):
            if st.lead_disc[c, j] == d:
                st.lead_disc_n[c] -= 1
                st.lead_disc[c, j] = st.lead_disc[c, st.lead_disc_n[c]]
                break
        gain_lead(st, cd, w, pol, s, c, d, log)
    elif kind == A_LEAN_TIMES:
        pay_ability(st, cd, s, LEAN_TIMES, log)
        lose_capped(st, a, 1)
        gain_resource(st, b, 1)
    elif kind == A_EFFICIENT_PILOT:
        pay_ability(st, cd, s, EFFICIENT_PILOT, log)
        if b >= 0:
            st.place[b] = c
        fly_bebop(st, a)
    elif kind == A_NET_DIVE:
        pay_ability(st, cd, s, NET_DIVE, log)
        drop_lead(st, a, b)
        v1 = draw_lead(st, c)
        v2 = draw_lead(st, c)
        if v2 < 0:
            gain_lead(st, cd, w, pol, s, c, v1, log)
        elif P.choose_net_dive_keep(st, cd, w, pol, c, v1, v2) == 0:
            gain_lead(st, cd, w, pol, s, c, v1, log)
            discard_lead_value(st, c, v2)
        else:
            gain_lead(st, cd, w, pol, s, c, v2, log)
            discard_lead_value(st, c, v1)
    elif kind == A_REMOTE_BEBOP:
        pay_ability(st, cd, s, REMOTE_CONTROL, log)
        fly_bebop(st, a)
    elif kind == A_REMOTE_ZIP:
        pay_ability(st, cd, s, REMOTE_CONTROL, log)
        move_zip(st, a, b, c)
    log_row(st, log, LOG_POS, s, st.sector[s], st.place[s], st.in_zip[s], st.bebop)


# ----------------------------------------------------------------------------------------------
# setup, turn loop, whole games
@njit
def order_by(keys):
    """Indices that sort `keys` ascending (insertion sort: tiny arrays, and far quicker to compile
    than np.argsort)."""
    n = keys.shape[0]
    idx = np.empty(n, np.int64)
    for i in range(n):
        j = i
        while j > 0 and keys[idx[j - 1]] > keys[i]:
            idx[j] = idx[j - 1]
            j -= 1
        idx[j] = i
    return idx


@njit
def setup(st, cd, ru, root_seed, game_index):
    for k in range(N_STREAMS):
        seed_stream(st.rng[k], root_seed, game_index, k)
    st.n_seats = ru.n_seats
    for r in range(3):
        st.res[r] = ru.start[r]
    st.min_food = st.res[FOOD]
    st.starved = False
    st.turn = 0
    st.seat = 0
    st.ein = -1
    st.bebop = MARS
    st.caught = 0
    st.escaped = 0
    st.vicious_drawn = 0
    st.log_n = 0
    st.no_interact = False
    st.feral_ready = False
    # each character's session is drawn from its own uniform, whatever the team (common random numbers)
    session_u = np.empty(N_CHARS, np.float64)
    for ch in range(N_CHARS):
        session_u[ch] = rand_float(st.rng[S_SETUP])
    for p in range(N_CHARS):
        st.hand[p, :] = False
        st.tab_n[p] = 0
        st.in_zip[p] = False
        st.part[p] = 2
        st.session[p] = -1
    for p in range(ru.n_seats):
        ch = ru.seat_char[p]
        st.char[p] = ch
        st.hand[p, :] = True
        st.sector[p] = MARS
        st.place[p] = BEBOP
        st.zip_sector[p] = MARS
        st.zip_place[p] = BEBOP
        st.part[p] = 0
        pick = int(session_u[ch] * 3)
        for k in range(cd.session_char.shape[0]):
            if cd.session_char[k] == ch:
                if pick == 0:
                    st.session[p] = k
                    break
                pick -= 1
    st.used[:, :] = False
    st.used_n[:] = 0
    st.leads[:, :] = -1
    for t in range(3):
        for i in range(LEAD_DECK):
            st.lead_deck[t, i] = cd.lead_deck[t, i]
        shuffle(st.rng[S_LEADS], st.lead_deck[t], LEAD_DECK)
        st.lead_deck_n[t] = LEAD_DECK
        st.lead_disc_n[t] = 0
    # contacts
    for i in range(N_CONTACTS):
        st.contact_deck[i] = i
    shuffle(st.rng[S_CONTACTS], st.contact_deck, N_CONTACTS)
    st.contact_deck_n = N_CONTACTS
    st.contact_disc_n = 0
    # bounties: one shuffle of all 18; the deck is its first `bounty_deck` cards, so decks of
    # different sizes share their first cards
    order = np.arange(N_BOUNTIES).astype(np.int8)
    shuffle(st.rng[S_BOUNTIES], order, N_BOUNTIES)
    nb = ru.bounty_deck
    for i in range(nb):
        st.bounty_deck[i] = order[nb - 1 - i]        # top of the stack (index n-1) is order[0]
    st.bounty_deck_n = nb
    st.track_bounty[:] = -1
    st.track_pos[:] = 0
    st.bounty_seen[:] = False
    st.event_seen[:] = False
    refill_track(st, cd)
    # events: every card gets a position key and every Vicious card a selection key, so the deck
    # for v Vicious is the deck for v-1 with one more Vicious card slotted in (common random numbers)
    pos_key = np.empty(N_EVENTS, np.float64)
    for i in range(N_EVENTS):
        pos_key[i] = rand_float(st.rng[S_EVENTS])
    n_vicious_cards = N_EVENTS - N_NORMAL_EVENTS
    pick_key = np.empty(n_vicious_cards, np.float64)
    for i in range(n_vicious_cards):
        pick_key[i] = rand_float(st.rng[S_SETUP])
    pick_order = order_by(pick_key)
    include = np.zeros(N_EVENTS, np.bool_)
    include[:N_NORMAL_EVENTS] = True
    for i in range(ru.vicious):
        include[N_NORMAL_EVENTS + pick_order[i]] = True
    order_e = order_by(pos_key)
    n = 0
    for i in range(N_EVENTS):
        e = order_e[N_EVENTS - 1 - i]
        if include[e]:
            st.event_deck[n] = e
            n += 1
    st.event_deck_n = n
    st.event_disc_n = 0


@njit
def game_won(st):
    for p in range(st.n_seats):
        if st.part[p] < 2:
            return False
    return True


@njit
def action_phase(st, cd, ru, w, pol, log):
    s = st.seat
    act = np.zeros(5, np.int16)
    free_moves = 0
    while st.actions_left > 0:
        if pol == P.POLICY_ROLLOUT:
            RO.rollout_action(st, cd, ru, w, s, act)
        else:
            P.choose_action(st, cd, w, pol, s, act)
        if act[0] == A_PASS:
            log_row(st, log, LOG_ACTION, s, A_PASS, 0, 0, 0)
            return
        if act[0] == A_ZIP_FLY:
            free_moves += 1
            if free_moves > 64:       # a policy that only ever flies would otherwise never end the turn
                return
        else:
            st.actions_left -= 1
        do_action(st, cd, w, pol, s, act, log)
        if st.starved or game_won(st):
            return


@njit
def action_phase_heuristic(st, cd, w, log):
    """action_phase with the heuristic deciding (the rollout policy's imagined futures)."""
    s = st.seat
    pol = np.int64(P.POLICY_HEURISTIC)
    act = np.zeros(5, np.int16)
    free_moves = 0
    while st.actions_left > 0:
        P.heuristic_action(st, cd, w, s, act)
        if act[0] == A_PASS:
            log_row(st, log, LOG_ACTION, s, A_PASS, 0, 0, 0)
            return
        if act[0] == A_ZIP_FLY:
            free_moves += 1
            if free_moves > 64:
                return
        else:
            st.actions_left -= 1
        do_action(st, cd, w, pol, s, act, log)
        if st.starved or game_won(st):
            return


@njit
def start_turn(st, cd, ru, w, pol, log):
    """The start of a player turn: count it, give the seat its actions, resolve its event."""
    st.turn += 1
    log_row(st, log, LOG_TURN, st.seat, st.turn, 0, 0, 0)
    st.actions_left = ru.actions
    st.no_interact = False
    event_phase(st, cd, w, pol, log)


@njit
def end_turn(st, log):
    """The end of a player turn: the outcome code, or -1 (and the next seat to play) if play goes on."""
    s = st.seat
    log_row(st, log, LOG_RES, s, st.res[FOOD], st.res[FUEL], st.res[WOOLONGS], 0)
    if st.starved:
        return OUT_STARVE
    if game_won(st):
        return OUT_WIN
    st.seat = (s + 1) % st.n_seats
    return -1


@njit
def play_turn(st, cd, ru, w, pol, log):
    """One player turn (event phase, then actions). Returns the outcome code, or -1 if play goes on."""
    if st.turn >= ru.turn_cap:
        return OUT_TURN_CAP
    start_turn(st, cd, ru, w, pol, log)
    if not st.starved:
        action_phase(st, cd, ru, w, pol, log)
    return end_turn(st, log)


@njit
def play_turn_heuristic(st, cd, ru, w, log):
    """play_turn with the heuristic deciding everything: the rollout policy's imagined futures.
    It never reaches the rollout again, so the compiled call graph has no cycle."""
    if st.turn >= ru.turn_cap:
        return OUT_TURN_CAP
    start_turn(st, cd, ru, w, np.int64(P.POLICY_HEURISTIC), log)
    if not st.starved:
        action_phase_heuristic(st, cd, w, log)
    return end_turn(st, log)


@njit
def finish(st, outcome, log, out):
    parts = 0
    for p in range(st.n_seats):
        parts += st.part[p]
    log_row(st, log, LOG_END, 0, outcome, st.turn, 0, 0)
    out.outcome = outcome
    out.turns = st.turn
    out.session_parts_done = parts
    out.bounties_caught = st.caught
    out.bounties_escaped = st.escaped
    out.min_food = st.min_food
    out.food = st.res[FOOD]
    out.fuel = st.res[FUEL]
    out.woolongs = st.res[WOOLONGS]
    out.vicious_drawn = st.vicious_drawn


@njit
def play_game(st, cd, ru, w, pol, root_seed, game_index, log, out):
    """Play one whole game from setup to its end; write its outcome row into `out`."""
    setup(st, cd, ru, root_seed, game_index)
    outcome = -1
    while outcome < 0:
        outcome = play_turn(st, cd, ru, w, pol, log)
    finish(st, outcome, log, out)

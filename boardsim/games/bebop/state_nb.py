"""Record dtypes for Cowboy Bebop: the card tables, the rules, one game's state, one game's outcome.

Flags inside nested fields are uint8 (numba has no nested bool arrays).
Everything a kernel touches is a numpy structured record with fixed-size nested fields: it compiles
once, copies cheaply (a snapshot is `state.copy()`), pickles, and carries no Python objects.
Indices: skills 0 combat 1 hacking 2 investigation 3 piloting; resources 0 food 1 fuel 2 woolongs
(thousands); places 0 bar 1 contact 2 shop 3 spaceport 4 aboard the Bebop.
"""
import numpy as np

N_SKILLS = 4
N_RES = 3
N_SECTORS = 5
N_LOCS = 4
BEBOP = 4                 # place index meaning "aboard the Bebop" (or, for a zip craft, in its hangar)
N_CHARS = 4
HAND = 8                  # skill cards per character; card 8 is Ein
EIN = 8
N_BOUNTIES = 18
N_EVENTS = 48             # 40 normal then 8 Vicious
N_NORMAL_EVENTS = 40
N_CONTACTS = 20
N_SESSIONS = 12
LEAD_DECK = 10
TRACK_SLOTS = 3

# random streams: one per random process keeps common random numbers aligned across rule settings.
# S_ROLLOUT is read only by the rollout policy (it seeds the futures it imagines), so the other
# streams are consumed exactly alike whatever the policy.
S_SETUP, S_EVENTS, S_CONTACTS, S_LEADS, S_BOUNTIES, S_DISCARD, S_POLICY, S_ROLLOUT = range(8)
N_STREAMS = 8

SPIKE, JET, FAYE, ED = 0, 1, 2, 3
MARS = 2
COMBAT, HACKING, INVESTIGATION, PILOTING = 0, 1, 2, 3
FOOD, FUEL, WOOLONGS = 0, 1, 2
BAR, CONTACT, SHOP, SPACEPORT = 0, 1, 2, 3

# action kinds: (kind, a, b, c, d)
(A_PASS, A_MOVE, A_FLY_BEBOP, A_ENTER_ZIP, A_EXIT_ZIP, A_ZIP_FLY, A_INTERACT, A_REST, A_SESSION,
 A_CHASE, A_KEEN_EYE, A_LEAN_TIMES, A_EFFICIENT_PILOT, A_NET_DIVE, A_REMOTE_BEBOP, A_REMOTE_ZIP) = range(16)
MAX_ACTIONS = 640

# outcomes
OUT_WIN, OUT_STARVE, OUT_TURN_CAP = 0, 1, 2
OUTCOME_NAMES = ("win", "starve", "turn_cap")

CARDS_DTYPE = np.dtype([
    ("terrain", np.int8, (N_SECTORS, N_LOCS, 2)),
    ("track_spaces", np.int8),
    ("lead_deck", np.int8, (3, LEAD_DECK)),
    ("skill_icons", np.int8, (N_CHARS, HAND, N_SKILLS)),
    ("skill_is_or", np.uint8, (N_CHARS, HAND)),
    ("has_zip", np.uint8, (N_CHARS,)),
    ("ability_cost", np.int8, (N_CHARS, 3)),
    ("bounty_start", np.int8, (N_BOUNTIES,)),
    ("bounty_lead", np.int8, (N_BOUNTIES, 2)),
    ("bounty_skills", np.int8, (N_BOUNTIES, N_SKILLS)),
    ("bounty_jams", np.int8, (N_BOUNTIES,)),
    ("bounty_payout", np.int8, (N_BOUNTIES, N_RES)),
    ("event_top", np.int8, (N_EVENTS,)),
    ("event_jam", np.int8, (N_EVENTS,)),
    ("event_vicious", np.uint8, (N_EVENTS,)),
    ("event_n_options", np.int8, (N_EVENTS,)),
    ("event_effects", np.int16, (N_EVENTS, 2, 4, 3)),
    ("contact_n_options", np.int8, (N_CONTACTS,)),
    ("contact_effects", np.int16, (N_CONTACTS, 2, 4, 3)),
    ("session_char", np.int8, (N_SESSIONS,)),
    ("session_place", np.int8, (N_SESSIONS, 2, 2)),
    ("session_skills", np.int8, (N_SESSIONS, 2, N_SKILLS)),
    ("session_spend", np.int8, (N_SESSIONS, 2, N_RES)),
    ("session_jams", np.int8, (N_SESSIONS, 2)),
])

RULES_DTYPE = np.dtype([
    ("n_seats", np.int8),
    ("seat_char", np.int8, (N_CHARS,)),
    ("vicious", np.int8),
    ("bounty_deck", np.int8),
    ("start", np.int8, (N_RES,)),
    ("actions", np.int8),
    ("turn_cap", np.int32),
])

STATE_DTYPE = np.dtype([
    ("rng", np.uint64, (N_STREAMS, 4)),
    ("res", np.int16, (N_RES,)),
    ("starved", np.bool_),
    ("turn", np.int32),             # player turns started so far
    ("seat", np.int8),              # whose turn it is
    ("actions_left", np.int8),
    ("no_interact", np.bool_),
    ("feral_ready", np.bool_),        # Ed's Feral Child still usable on the event being resolved
    ("n_seats", np.int8),
    ("char", np.int8, (N_CHARS,)),    # character index of each seat
    # characters, by seat
    ("hand", np.uint8, (N_CHARS, HAND)),        # card c of seat s is in hand
    ("tab", np.int8, (N_CHARS, HAND + 1)),      # tableau, leftmost (earliest) first; 8 = Ein
    ("tab_n", np.int8, (N_CHARS,)),
    ("ein", np.int8),                           # -1: middle of the table; else the seat whose tableau holds him
    ("sector", np.int8, (N_CHARS,)),
    ("place", np.int8, (N_CHARS,)),
    ("in_zip", np.uint8, (N_CHARS,)),
    ("zip_sector", np.int8, (N_CHARS,)),
    ("zip_place", np.int8, (N_CHARS,)),         # BEBOP = in the hangar / aboard
    ("session", np.int8, (N_CHARS,)),
    ("part", np.int8, (N_CHARS,)),              # 0: Part I next, 1: Part II next, 2: done
    # board
    ("bebop", np.int8),
    ("used", np.uint8, (N_SECTORS, N_LOCS)),
    ("used_n", np.int8, (N_LOCS,)),
    # leads: area of 2 per type, decks and discard piles (card values)
    ("leads", np.int8, (3, 2)),                 # -1 empty
    ("lead_deck", np.int8, (3, LEAD_DECK)),
    ("lead_deck_n", np.int8, (3,)),
    ("lead_disc", np.int8, (3, LEAD_DECK)),
    ("lead_disc_n", np.int8, (3,)),
    # decks: stacks, top at index n-1
    ("event_deck", np.int8, (N_EVENTS,)),
    ("event_deck_n", np.int8),
    ("event_disc", np.int8, (N_EVENTS,)),
    ("event_disc_n", np.int8),
    ("contact_deck", np.int8, (N_CONTACTS,)),
    ("contact_deck_n", np.int8),
    ("contact_disc", np.int8, (N_CONTACTS,)),
    ("contact_disc_n", np.int8),
    ("bounty_deck", np.int8, (N_BOUNTIES,)),
    ("bounty_deck_n", np.int8),
    # cards that have been face up (drawn) at least once: what a player can know a face-down deck
    # holds (the rollout policy re-deals the rest of a deck from the cards never seen)
    ("event_seen", np.uint8, (N_EVENTS,)),
    ("bounty_seen", np.uint8, (N_BOUNTIES,)),
    ("track_bounty", np.int8, (TRACK_SLOTS,)),  # -1 empty
    ("track_pos", np.int8, (TRACK_SLOTS,)),     # 1 = next to escape
    # tallies for the outcome row
    ("caught", np.int16),
    ("escaped", np.int16),
    ("min_food", np.int16),
    ("vicious_drawn", np.int16),
    ("log_n", np.int32),
])

OUTCOME_DTYPE = np.dtype([
    ("outcome", np.int8),
    ("turns", np.int32),
    ("session_parts_done", np.int8),
    ("bounties_caught", np.int16),
    ("bounties_escaped", np.int16),
    ("min_food", np.int16),
    ("food", np.int16),
    ("fuel", np.int16),
    ("woolongs", np.int16),
    ("vicious_drawn", np.int16),
])

# trace log: one int32 row per event, (code, seat, a, b, c, d); decoded by trace.py
LOG_WIDTH = 6
(LOG_TURN, LOG_EVENT, LOG_OPTION, LOG_ACTION, LOG_JAM, LOG_CONTACT, LOG_RESULT, LOG_ABILITY,
 LOG_LEAD, LOG_ESCAPE, LOG_END, LOG_BUY, LOG_RES, LOG_POS) = range(14)

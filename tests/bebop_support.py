"""Helpers for the Bebop kernel tests: build a set-up state, script it, call single rules, check it.

Every kernel call here passes the same argument types (records as `array[0]`, weights as a float64
array, the policy as np.int64, seats as np.int8, the log as an int32 (1000, 6) array), so each rule
function compiles once per test session (and is then loaded from NUMBA_CACHE_DIR on later runs).

States are plain one-element STATE_DTYPE arrays; tests edit fields of `state[0]` directly and use
the scripting helpers below (`stack_events`, `set_hand`, `put`, ...) to fix what will be drawn.
The top of every deck (a stack) is index n-1.
"""
from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from functools import lru_cache

import numpy as np
import pytest

from boardsim.games.bebop import game as G
from boardsim.games.bebop import rules_nb as R
from boardsim.games.bebop import state_nb as S
from boardsim.games.bebop import vocab as V
from boardsim.games.bebop.policies_nb import DEFAULT_WEIGHTS, POLICY_HEURISTIC, POLICY_RANDOM

POL_RANDOM = np.int64(POLICY_RANDOM)
POL_HEURISTIC = np.int64(POLICY_HEURISTIC)
POLICIES = {"random": POL_RANDOM, "heuristic": POL_HEURISTIC}

SECTOR = V.SECTOR_INDEX            # name -> index
LOC = V.LOCATION_INDEX
SKILL = V.SKILL_INDEX
VENUS, EARTH, MARS, BELT, JOVIAN = range(5)
BAR, CONTACT, SHOP, SPACEPORT, BEBOP = range(5)
COMBAT, HACKING, INVESTIGATION, PILOTING = range(4)
FOOD, FUEL, WOOLONGS = range(3)
EIN = S.EIN
LOG_ROWS = 1000


# ---------------------------------------------------------------------------------------- records
@lru_cache(maxsize=1)
def card_set():
    """The default card data (BebopCards: names, labels, arrays)."""
    return G.load_cards()


@lru_cache(maxsize=1)
def _cards_rec():
    return G.cards_record(card_set())


def cards_rec() -> np.ndarray:
    """A fresh copy of the default cards record (one-element CARDS_DTYPE array)."""
    return _cards_rec().copy()


def rules_dict(**overrides) -> dict:
    preset = overrides.pop("preset", None)
    return G.GAME.resolve(preset, overrides)


def rules_rec(**overrides) -> np.ndarray:
    """One-element RULES_DTYPE array: game defaults (boogie) with validated overrides, e.g. vicious=8."""
    return G.rules_record(rules_dict(**overrides))


def weights() -> np.ndarray:
    return DEFAULT_WEIGHTS.copy()


def new_log() -> np.ndarray:
    return np.zeros((LOG_ROWS, S.LOG_WIDTH), np.int32)


@contextmanager
def quiet():
    """uint64 arithmetic wraps by design (it only warns when the JIT is disabled)."""
    with np.errstate(over="ignore"):
        yield


def new_state(seed: int = 0, game_index: int = 0, **rule_overrides):
    """(state, cards, rules) one-element arrays, after rules_nb.setup for (seed, game_index)."""
    cards = cards_rec()
    rules = rules_rec(**rule_overrides)
    state = np.zeros(1, S.STATE_DTYPE)
    with quiet():
        R.setup(state[0], cards[0], rules[0], np.uint64(seed), np.int64(game_index))
    return state, cards, rules


def warm():
    """Compile (or load from NUMBA_CACHE_DIR) the rule entry points most tests call, once."""
    state, cards, rules = new_state()
    log = new_log()
    with quiet():
        R.legal_actions(state[0], cards[0], np.int8(0), np.empty((S.MAX_ACTIONS, 5), np.int16))
        R.do_action(state[0], cards[0], weights(), POL_RANDOM, np.int8(0), np.zeros(5, np.int16), log)
        R.event_phase(state[0], cards[0], weights(), POL_RANDOM, log)
        R.play_turn(state[0], cards[0], rules[0], weights(), POL_RANDOM, log)


@pytest.fixture(scope="session")
def bebop_kernels():
    """Session fixture: the kernels are compiled/loaded once, before the first test that needs them
    (import it into a test module and mark the module with usefixtures("bebop_kernels"))."""
    warm()


# ------------------------------------------------------------------------------------ card names
def event_id(name: str) -> int:
    return card_set().event_names.index(name)


def contact_id(name: str) -> int:
    return card_set().contact_names.index(name)


def bounty_id(name: str) -> int:
    return card_set().bounty_names.index(name)


def session_id(name: str) -> int:
    return card_set().session_names.index(name)


def char_of(st, seat) -> int:
    return int(st["char"][seat])


def skill_cards(st, seat, label: str) -> list[int]:
    """Indices of seat's skill cards written `label` (e.g. "combat", "hacking|piloting")."""
    return [i for i, lab in enumerate(card_set().skill_labels[char_of(st, seat)]) if lab == label]


def skill_card(st, seat, label: str, k: int = 0) -> int:
    return skill_cards(st, seat, label)[k]


def cards_without(st, seat, skill: str) -> list[int]:
    """Indices of seat's skill cards showing no `skill` icon."""
    return [i for i, lab in enumerate(card_set().skill_labels[char_of(st, seat)]) if skill not in lab]


def events_with(top=None, jam=None, vicious=False) -> list[int]:
    cs = card_set()
    out = []
    for e in range(len(cs.event_names)):
        if bool(cs.event_vicious[e]) != vicious:
            continue
        if top is not None and V.TOP_LINES[cs.event_top[e]] != top:
            continue
        if jam is not None and cs.event_jam[e] != SKILL[jam]:
            continue
        out.append(e)
    return out


def jam_event(skill: str, k: int = 0) -> int:
    """A normal event whose Jam icon is `skill`."""
    return events_with(jam=skill)[k]


# -------------------------------------------------------------------------------------- scripting
def _stack(st, deck: str, disc: str, ids, count_check=True):
    deck_n = int(st[deck + "_n"])
    disc_n = int(st[disc + "_n"])
    deck_cards = [int(x) for x in st[deck][:deck_n]]
    disc_cards = [int(x) for x in st[disc][:disc_n]]
    for x in ids:
        if x in deck_cards:
            deck_cards.remove(x)
        elif x in disc_cards:
            disc_cards.remove(x)
        elif count_check:
            raise AssertionError(f"card {x} is in neither {deck} nor {disc}")
    new = deck_cards + [int(x) for x in reversed(list(ids))]
    st[deck][: len(new)] = new
    st[deck + "_n"] = len(new)
    st[disc][: len(disc_cards)] = disc_cards
    st[disc + "_n"] = len(disc_cards)


def stack_events(st, ids, strict: bool = False):
    """Put events `ids` on top of the event deck, ids[0] drawn first (taken from deck or discard).

    A Vicious card not in this game's deck is added unless strict (then it is an error)."""
    _stack(st, "event_deck", "event_disc", [int(i) for i in ids], count_check=strict)


def stack_contacts(st, ids):
    _stack(st, "contact_deck", "contact_disc", [int(i) for i in ids])


def stack_bounties(st, ids):
    """Bounty deck top: ids[0] drawn first (ids must still be in the bounty deck)."""
    n = int(st["bounty_deck_n"])
    cards = [int(x) for x in st["bounty_deck"][:n]]
    for b in ids:
        cards.remove(int(b))
    cards += [int(b) for b in reversed(list(ids))]
    st["bounty_deck"][:n] = cards


def put_bounty_on_track(st, rules_rec, b: int, slot: int, pos: int):
    """Bounty b (from the dealt bounty deck) into track slot `slot` at space `pos`, swapping places
    with whatever was there, so the deck/track bookkeeping stays consistent."""
    nb = int(_rec(rules_rec)["bounty_deck"])
    n = int(st["bounty_deck_n"])
    dealt = [int(x) for x in st["bounty_deck"][:nb]]
    old = int(st["track_bounty"][slot])
    on_track = [int(x) for x in st["track_bounty"]]
    if b in on_track:                               # already on the track: swap the two slots
        other = on_track.index(b)
        st["track_bounty"][other], st["track_pos"][other] = old, st["track_pos"][slot]
    else:
        i = dealt.index(b)
        assert i < n, "bounty already drawn and gone"
        j = dealt.index(old)                          # old was drawn: it sits at index >= n
        st["bounty_deck"][i], st["bounty_deck"][j] = old, b
    st["track_bounty"][slot] = b
    st["track_pos"][slot] = pos


def stack_leads(st, t: int, values):
    """Lead deck t: values[0] drawn first (one copy of each taken from that deck or its discard)."""
    n = int(st["lead_deck_n"][t])
    m = int(st["lead_disc_n"][t])
    deck = [int(x) for x in st["lead_deck"][t, :n]]
    disc = [int(x) for x in st["lead_disc"][t, :m]]
    for v in values:
        if v in deck:
            deck.remove(v)
        else:
            disc.remove(v)
    deck += [int(v) for v in reversed(list(values))]
    st["lead_deck"][t, : len(deck)] = deck
    st["lead_deck_n"][t] = len(deck)
    st["lead_disc"][t, : len(disc)] = disc
    st["lead_disc_n"][t] = len(disc)


def set_leads(st, sector=(), location=(), terrain=()):
    """Fill the leads area (up to 2 per type), taking the cards from the decks/discards."""
    for lead_type, values in enumerate((sector, location, terrain)):
        # return what is held now to the discard pile
        for i in range(2):
            v = int(st["leads"][lead_type, i])
            if v >= 0:
                m = int(st["lead_disc_n"][lead_type])
                st["lead_disc"][lead_type, m] = v
                st["lead_disc_n"][lead_type] = m + 1
                st["leads"][lead_type, i] = -1
        assert len(values) <= 2
        for i, v in enumerate(values):
            stack_leads(st, lead_type, [v])
            n = int(st["lead_deck_n"][lead_type]) - 1
            st["lead_deck_n"][lead_type] = n
            st["leads"][lead_type, i] = v


def set_lead_discard(st, t: int, values):
    """Move the given lead values from deck t into its discard pile (in order)."""
    n = int(st["lead_deck_n"][t])
    deck = [int(x) for x in st["lead_deck"][t, :n]]
    m = int(st["lead_disc_n"][t])
    for v in values:
        deck.remove(v)
        st["lead_disc"][t, m] = v
        m += 1
    st["lead_deck"][t, : len(deck)] = deck
    st["lead_deck_n"][t] = len(deck)
    st["lead_disc_n"][t] = m


def set_hand(st, seat: int, hand, tableau=None):
    """Seat's hand becomes `hand` (card indices); every other card goes to the tableau, in index order
    unless `tableau` (which may include EIN) gives the order."""
    hand = [int(c) for c in hand]
    rest = [c for c in range(S.HAND) if c not in hand]
    if tableau is None:
        tableau = rest + ([EIN] if st["ein"] == seat else [])
    tableau = [int(c) for c in tableau]
    assert sorted(c for c in tableau if c != EIN) == rest, (hand, tableau)
    st["hand"][seat, :] = 0
    for c in hand:
        st["hand"][seat, c] = 1
    st["tab"][seat, :] = 0
    st["tab"][seat, : len(tableau)] = tableau
    st["tab_n"][seat] = len(tableau)
    if EIN in tableau:
        st["ein"] = seat
    elif st["ein"] == seat:
        st["ein"] = -1


def hand_of(st, seat) -> list[int]:
    return [c for c in range(S.HAND) if st["hand"][seat, c]]


def tableau_of(st, seat) -> list[int]:
    return [int(c) for c in st["tab"][seat, : st["tab_n"][seat]]]


def take_ein(st, seat: int):
    """Ein leaves the middle of the table: onto the right end of `seat`'s tableau."""
    assert st["ein"] == -1
    n = int(st["tab_n"][seat])
    st["tab"][seat, n] = EIN
    st["tab_n"][seat] = n + 1
    st["ein"] = seat


def put(st, seat: int, sector: int, place: int, in_zip: bool = False):
    """Stand seat at (sector, place); BEBOP means aboard (sector must be where the Bebop is).
    With in_zip, the seat is flying its zip craft there."""
    if place == BEBOP:
        assert sector == st["bebop"]
    st["sector"][seat] = sector
    st["place"][seat] = place
    st["in_zip"][seat] = 1 if in_zip else 0
    if in_zip:
        st["zip_sector"][seat] = sector
        st["zip_place"][seat] = place


def move_bebop(st, sector: int):
    """Dock the Bebop at `sector` with everyone and every zip craft aboard (no rule function used)."""
    st["bebop"] = sector
    for p in range(st["n_seats"]):
        if st["place"][p] == BEBOP:
            st["sector"][p] = sector
        if st["zip_place"][p] == BEBOP:
            st["zip_sector"][p] = sector


def lead_count(st) -> int:
    return int((st["leads"] >= 0).sum())


# --------------------------------------------------------------------------------- rule wrappers
def do_action(state, cards, seat, kind, a=0, b=0, c=0, d=0, pol=POL_RANDOM, log=None):
    log = new_log() if log is None else log
    act = np.array([kind, a, b, c, d], np.int16)
    with quiet():
        R.do_action(state[0], cards[0], weights(), pol, np.int8(seat), act, log)
    return log


def legal(state, cards, seat) -> list[tuple[int, ...]]:
    buf = np.empty((S.MAX_ACTIONS, 5), np.int16)
    with quiet():
        n = R.legal_actions(state[0], cards[0], np.int8(seat), buf)
    return [tuple(int(x) for x in row) for row in buf[:n]]


def legal_kinds(state, cards, seat) -> set[int]:
    return {a[0] for a in legal(state, cards, seat)}


def event_phase(state, cards, pol=POL_RANDOM, log=None):
    log = new_log() if log is None else log
    with quiet():
        R.event_phase(state[0], cards[0], weights(), pol, log)
    return log


def resolve_jams(state, cards, seat, n_jams, is_chase, pol=POL_RANDOM, log=None):
    log = new_log() if log is None else log
    with quiet():
        ok = R.resolve_jams(state[0], cards[0], weights(), pol, np.int8(seat), np.int8(n_jams),
                            bool(is_chase), log)
    return bool(ok), log


def bounties_move(state, cards, log=None):
    log = new_log() if log is None else log
    with quiet():
        R.bounties_move(state[0], cards[0], log)
    return log


def gain_lead(state, cards, seat, lead_type, value, pol=POL_RANDOM, log=None):
    log = new_log() if log is None else log
    with quiet():
        R.gain_lead(state[0], cards[0], weights(), pol, np.int8(seat), np.int64(lead_type),
                    np.int8(value), log)
    return log


def place_used_token(state, sector, loc):
    with quiet():
        R.place_used_token(state[0], np.int8(sector), np.int8(loc))


def draw_from_tableau(state, seat, k):
    with quiet():
        R.draw_from_tableau(state[0], np.int8(seat), np.int64(k))


def plan_payment(state, cards, payers, req, allow_ein=True):
    """(count, [(seat, card), ...]) as chosen by rules_nb.plan_payment; count -1 if unpayable."""
    pay = np.zeros(S.N_CHARS, np.int8)
    pay[: len(payers)] = payers
    sel_seat = np.zeros(S.N_CHARS * S.HAND + 1, np.int8)
    sel_card = np.zeros(S.N_CHARS * S.HAND + 1, np.int8)
    with quiet():
        count = R.plan_payment(state[0], cards[0], pay, np.int64(len(payers)),
                               np.asarray(req, np.int16), bool(allow_ein), sel_seat, sel_card)
    return int(count), [(int(sel_seat[i]), int(sel_card[i])) for i in range(max(count, 0))]


def play_turn(state, cards, rules, pol=POL_RANDOM, log=None) -> int:
    log = new_log() if log is None else log
    with quiet():
        return int(R.play_turn(state[0], cards[0], rules[0], weights(), pol, log))


def game_won(state) -> bool:
    with quiet():
        return bool(R.game_won(state[0]))


def log_rows(state, log, code=None) -> list[tuple[int, ...]]:
    rows = [tuple(int(x) for x in r) for r in log[: state[0]["log_n"]]]
    return rows if code is None else [r for r in rows if r[0] == code]


def abilities_used(state, log) -> list[tuple[int, int]]:
    """(character, ability slot) of every ability logged."""
    return [(r[2], r[3]) for r in log_rows(state, log, S.LOG_ABILITY)]


# ------------------------------------------------------------- the random streams, in plain Python
_M64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _splitmix64(x):
    x = (x + _GOLDEN) & _M64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return x, z ^ (z >> 31)


def stream_words(root_seed: int, game_index: int, stream: int) -> list[int]:
    """The 4 xoshiro words rng.seed_stream gives (root_seed, game_index, stream), in Python."""
    x, a = _splitmix64(root_seed & _M64)
    x, b = _splitmix64(a ^ (game_index & _M64))
    x = b ^ ((stream * _GOLDEN) & _M64)
    words = []
    for _ in range(4):
        x, w = _splitmix64(x)
        words.append(w)
    return words


def reseed(st, stream: int, k: int):
    """Give one random stream of the state a fresh seed (k), leaving every other stream alone."""
    st["rng"][stream] = np.array(stream_words(10_007 + k, 0, stream), np.uint64)


# ------------------------------------------------------------------------------------ invariants
def _rec(x):
    if isinstance(x, np.ndarray) and x.shape == (1,):
        return x[0]
    return x


def check_invariants(state, cards_rec, rules_rec) -> list[str]:
    """Every violated invariant of a between-turns state, as readable strings (empty = all hold)."""
    st, cd, ru = _rec(state), _rec(cards_rec), _rec(rules_rec)
    bad: list[str] = []
    n_seats = int(st["n_seats"])

    # leads: deck + discard + area == the lead decks, per type
    for t in range(3):
        held = [int(v) for v in st["leads"][t] if v >= 0]
        everywhere = (list(map(int, st["lead_deck"][t, : st["lead_deck_n"][t]]))
                      + list(map(int, st["lead_disc"][t, : st["lead_disc_n"][t]])) + held)
        if Counter(everywhere) != Counter(map(int, cd["lead_deck"][t])):
            bad.append(f"lead type {t}: cards {sorted(everywhere)} != deck {sorted(map(int, cd['lead_deck'][t]))}")
        for v in st["leads"][t]:
            if v < -1:
                bad.append(f"lead area type {t} holds {v}")

    # events: the 40 normal events once each + exactly `vicious` distinct Vicious
    events = (list(map(int, st["event_deck"][: st["event_deck_n"]]))
              + list(map(int, st["event_disc"][: st["event_disc_n"]])))
    counts = Counter(events)
    dup = [e for e, k in counts.items() if k > 1]
    if dup:
        bad.append(f"events twice: {dup}")
    normal = [e for e in counts if e < S.N_NORMAL_EVENTS]
    vicious = [e for e in counts if e >= S.N_NORMAL_EVENTS]
    if sorted(normal) != list(range(S.N_NORMAL_EVENTS)):
        bad.append(f"normal events present: {len(normal)} of {S.N_NORMAL_EVENTS}")
    if len(vicious) != int(ru["vicious"]):
        bad.append(f"{len(vicious)} Vicious in play, rules say {int(ru['vicious'])}")
    if any(e < 0 or e >= S.N_EVENTS for e in events):
        bad.append(f"event ids out of range: {events}")

    # contacts: all 20 once
    contacts = (list(map(int, st["contact_deck"][: st["contact_deck_n"]]))
                + list(map(int, st["contact_disc"][: st["contact_disc_n"]])))
    if sorted(contacts) != list(range(S.N_CONTACTS)):
        bad.append(f"contacts deck+discard {sorted(contacts)} != all {S.N_CONTACTS} once")

    # bounties: deck + track + caught + escaped == the bounty deck; none twice; <= 3 on track
    nb = int(ru["bounty_deck"])
    deck_n = int(st["bounty_deck_n"])
    original = list(map(int, st["bounty_deck"][:nb]))   # drawing only lowers n: the dealt deck stays
    deck = original[:deck_n]
    drawn = original[deck_n:]
    track = [int(b) for b in st["track_bounty"] if b >= 0]
    if len(set(original)) != nb or any(b < 0 or b >= S.N_BOUNTIES for b in original):
        bad.append(f"bounty deck {original} is not {nb} distinct bounties")
    if len(set(deck + track)) != len(deck) + len(track):
        bad.append(f"a bounty twice: deck {deck} track {track}")
    if not set(track) <= set(drawn):
        bad.append(f"track {track} holds bounties not drawn from the deck {drawn}")
    if deck_n + len(track) + int(st["caught"]) + int(st["escaped"]) != nb:
        bad.append(f"bounties: deck {deck_n} + track {len(track)} + caught {int(st['caught'])} "
                   f"+ escaped {int(st['escaped'])} != {nb}")
    if len(track) > S.TRACK_SLOTS:
        bad.append(f"{len(track)} bounties on the track")
    for i in range(S.TRACK_SLOTS):
        if st["track_bounty"][i] >= 0 and not 1 <= st["track_pos"][i] <= cd["track_spaces"]:
            bad.append(f"track slot {i} at space {int(st['track_pos'][i])}")
        if st["track_bounty"][i] < -1:
            bad.append(f"track slot {i} holds {int(st['track_bounty'][i])}")
    # the track stays full while the deck has cards
    if deck_n > 0 and len(track) < S.TRACK_SLOTS:
        bad.append(f"track has {len(track)} bounties while the deck still has {deck_n}")

    # skill cards and Ein
    ein_seats = []
    for p in range(n_seats):
        tab = list(map(int, st["tab"][p, : st["tab_n"][p]]))
        if EIN in tab:
            ein_seats.append(p)
            if tab.count(EIN) > 1:
                bad.append(f"seat {p}: Ein twice in the tableau")
        cards_in_tab = [c for c in tab if c != EIN]
        for c in range(S.HAND):
            where = int(bool(st["hand"][p, c])) + cards_in_tab.count(c)
            if where != 1:
                bad.append(f"seat {p} card {c}: in {where} places (hand {bool(st['hand'][p, c])}, tableau {tab})")
        if any(c < 0 or c > EIN for c in tab):
            bad.append(f"seat {p}: tableau {tab}")
    if len(ein_seats) > 1:
        bad.append(f"Ein in tableaus of seats {ein_seats}")
    expected_ein = ein_seats[0] if ein_seats else -1
    if int(st["ein"]) != expected_ein:
        bad.append(f"ein field {int(st['ein'])} but Ein is with {expected_ein}")

    # resources
    for r in range(3):
        if not 0 <= st["res"][r] <= 20:
            bad.append(f"resource {V.RESOURCES[r]} = {int(st['res'][r])}")
    if st["min_food"] > st["res"][FOOD]:
        bad.append(f"min_food {int(st['min_food'])} above food {int(st['res'][FOOD])}")

    # used tokens
    for loc in range(S.N_LOCS):
        k = int(st["used"][:, loc].sum())
        if k != st["used_n"][loc]:
            bad.append(f"used_n[{V.LOCATIONS[loc]}] = {int(st['used_n'][loc])} but {k} locations used")
        if not 0 <= st["used_n"][loc] < 5:
            bad.append(f"used_n[{V.LOCATIONS[loc]}] = {int(st['used_n'][loc])}")

    # positions
    bebop = int(st["bebop"])
    if not 0 <= bebop < S.N_SECTORS:
        bad.append(f"Bebop at {bebop}")
    for p in range(n_seats):
        sec, plc = int(st["sector"][p]), int(st["place"][p])
        if not (0 <= sec < S.N_SECTORS and 0 <= plc <= BEBOP):
            bad.append(f"seat {p} at ({sec}, {plc})")
        if plc == BEBOP and sec != bebop:
            bad.append(f"seat {p} aboard but in sector {sec}, Bebop at {bebop}")
        zsec, zplc = int(st["zip_sector"][p]), int(st["zip_place"][p])
        if zplc == BEBOP and zsec != bebop:
            bad.append(f"seat {p} zip craft in the hangar but in sector {zsec}, Bebop at {bebop}")
        if st["in_zip"][p]:
            if not cd["has_zip"][st["char"][p]]:
                bad.append(f"seat {p} in a zip craft it does not have")
            if (zsec, zplc) != (sec, plc):
                bad.append(f"seat {p} in its zip craft at ({sec}, {plc}) but the craft is at ({zsec}, {zplc})")
        if not 0 <= st["part"][p] <= 2:
            bad.append(f"seat {p} part {int(st['part'][p])}")
        if cd["session_char"][st["session"][p]] != st["char"][p]:
            bad.append(f"seat {p} plays a session of another character")
    parts = [int(st["part"][p]) for p in range(n_seats)]
    if max(parts) == 2 and min(parts) == 0:
        bad.append(f"a Part II done while a Part I is not: parts {parts}")
    if not 0 <= st["seat"] < n_seats:
        bad.append(f"seat to play {int(st['seat'])}")
    return bad

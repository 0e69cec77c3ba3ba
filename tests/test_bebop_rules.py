"""Cowboy Bebop rules, one at a time: build a scripted position, apply ONE rule function, check the
exact result against the rulebook (/work/shared/rulebooks/cowboy-bebop-boardgame-boogie.txt).

Decisions are pinned so the tests do not depend on the heuristic: either the position leaves one
legal choice (the random policy then has nothing to draw), or the random policy's stream is reseeded
over many values and every result must be one of the legal outcomes (and each branch must occur).
Card indices refer to the default card data (tests/bebop_support.skill_card looks them up by label).
"""
from __future__ import annotations

import pytest

from boardsim.games.bebop import game as G
from boardsim.games.bebop import rules_nb as R
from boardsim.games.bebop import state_nb as S

from bebop_support import (  # noqa: F401  (bebop_kernels is a fixture)
    bebop_kernels,
    BAR, BEBOP, BELT, CONTACT, EARTH, EIN, FOOD, FUEL, JOVIAN, MARS, SHOP, SPACEPORT, VENUS, WOOLONGS,
    abilities_used, bounties_move, bounty_id, card_set, cards_without, check_invariants, contact_id,
    do_action, draw_from_tableau, event_id, event_phase, gain_lead, game_won, hand_of, jam_event,
    lead_count, legal, legal_kinds, log_rows, move_bebop, new_state, place_used_token, plan_payment,
    put, put_bounty_on_track, reseed, resolve_jams, session_id, set_hand, set_lead_discard, set_leads,
    skill_card, stack_contacts, stack_events, stack_leads, tableau_of, take_ein,
)

pytestmark = pytest.mark.usefixtures("bebop_kernels")

TERRAIN = {name: i for i, name in enumerate(card_set().terrain_names)}
MOUNTAIN, OCEAN, DESERT, CITY, RUINS = (TERRAIN[n] for n in ("mountain", "ocean", "desert", "city", "ruins"))
SPIKE_SEAT, JET_SEAT, FAYE_SEAT, ED_SEAT = 0, 1, 2, 3
CREW4 = "spike,jet,faye,ed"
POLICY_SEEDS = range(48)


def res(st):
    return [int(x) for x in st["res"]]


def track(st):
    return [(int(b), int(p)) for b, p in zip(st["track_bounty"], st["track_pos"])]


def last_discarded_event(st):
    return int(st["event_disc"][st["event_disc_n"] - 1])


# ================================================================================== setup
@pytest.mark.parametrize("seed,crew,vicious,bounty_deck", [
    (0, "spike,jet", 6, 9), (1, "faye,ed", 0, 3), (2, CREW4, 8, 18), (3, "ed,spike,faye", 4, 11),
])
def test_setup_facts(seed, crew, vicious, bounty_deck):
    state, cards, rules = new_state(seed=seed, characters=crew, vicious=vicious, bounty_deck=bounty_deck)
    st, cd = state[0], cards[0]
    n = len(crew.split(","))
    assert st["n_seats"] == n and st["seat"] == 0 and st["turn"] == 0
    assert st["bebop"] == MARS
    for p in range(n):
        assert (st["sector"][p], st["place"][p], st["in_zip"][p]) == (MARS, BEBOP, 0)
        assert (st["zip_sector"][p], st["zip_place"][p]) == (MARS, BEBOP)   # zip craft in the hangar
        assert hand_of(st, p) == list(range(8)) and st["tab_n"][p] == 0
        assert st["part"][p] == 0
        # each seat's session belongs to its character
        assert cd["session_char"][st["session"][p]] == st["char"][p]
    assert [int(st["char"][p]) for p in range(n)] == [
        ("spike", "jet", "faye", "ed").index(name) for name in crew.split(",")]
    assert res(st) == [5, 5, 5] and st["min_food"] == 5 and not st["starved"]
    assert st["ein"] == -1
    assert (st["leads"] == -1).all() and (st["lead_deck_n"] == 10).all() and (st["lead_disc_n"] == 0).all()
    assert st["contact_deck_n"] == 20 and st["contact_disc_n"] == 0
    assert st["event_deck_n"] == 40 + vicious and st["event_disc_n"] == 0
    assert sorted(st["event_deck"][: st["event_deck_n"]][st["event_deck"][: st["event_deck_n"]] < 40]) == list(range(40))
    assert not st["used"].any() and not st["used_n"].any()
    # 3 bounties on the track at their start spaces, the rest of the dealt deck below
    assert st["bounty_deck_n"] == bounty_deck - 3
    for b, pos in track(st):
        assert b >= 0 and pos == cd["bounty_start"][b]
    assert check_invariants(state, cards, rules) == []


def test_setup_sessions_are_each_characters_own_and_vary_with_the_seed():
    seen = {ch: set() for ch in range(4)}
    for seed in range(40):
        state, cards, _ = new_state(seed=seed, characters=CREW4)
        for p in range(4):
            seen[int(state[0]["char"][p])].add(int(state[0]["session"][p]))
    for ch, sessions in seen.items():
        assert len(sessions) == 3 and all(cards[0]["session_char"][k] == ch for k in sessions)


# ============================================================================ event phase
def test_event_top_line_spends_food_then_the_only_affordable_option():
    state, cards, rules = new_state()
    st = state[0]
    e = event_id("Engine Trouble")          # spend_food; discard piloting 1 OR spend fuel 1
    stack_events(st, [e])
    st["res"][:] = (5, 0, 5)                # no Fuel: only the Piloting option is possible
    take_ein(st, JET_SEAT)
    log = event_phase(state, cards)
    assert res(st) == [4, 0, 5]
    assert tableau_of(st, SPIKE_SEAT) == [skill_card(st, SPIKE_SEAT, "piloting")]
    assert [r[2] for r in log_rows(state, log, S.LOG_OPTION)] == [0]
    assert last_discarded_event(st) == e
    assert check_invariants(state, cards, rules) == []


def test_event_top_line_bounties_move():
    state, cards, rules = new_state()
    st = state[0]
    e = event_id("Rival Hunters")           # bounties_move; discard combat 2 OR discard_leads 1
    stack_events(st, [e])
    before = track(st)
    st["track_pos"][:] = (3, 2, 6)
    event_phase(state, cards)         # no leads held: the Combat option is forced
    assert track(st) == [(before[0][0], 2), (before[1][0], 1), (before[2][0], 5)]
    assert res(st) == [5, 5, 5]
    assert tableau_of(st, SPIKE_SEAT) == [skill_card(st, SPIKE_SEAT, "combat+combat")]
    assert check_invariants(state, cards, rules) == []


def test_bounties_move_escape_from_space_1_and_replacement():
    state, cards, rules = new_state()
    st, cd = state[0], cards[0]
    b0, b1, b2 = (int(b) for b in st["track_bounty"])
    st["track_pos"][:] = (1, 4, 2)
    top = int(st["bounty_deck"][st["bounty_deck_n"] - 1])
    n = int(st["bounty_deck_n"])
    log = bounties_move(state, cards)
    assert track(st) == [(top, cd["bounty_start"][top]), (b1, 3), (b2, 1)]   # the newcomer does not move
    assert st["escaped"] == 1 and st["bounty_deck_n"] == n - 1
    assert [r[2] for r in log_rows(state, log, S.LOG_ESCAPE)] == [b0]
    assert check_invariants(state, cards, rules) == []


def test_bounties_move_no_reshuffle_when_the_bounty_deck_is_empty():
    state, cards, rules = new_state(bounty_deck=3)
    st = state[0]
    assert st["bounty_deck_n"] == 0
    b0, b1, b2 = (int(b) for b in st["track_bounty"])
    st["track_pos"][:] = (1, 1, 2)
    bounties_move(state, cards)
    assert st["track_bounty"].tolist() == [-1, -1, b2] and st["track_pos"][2] == 1
    assert st["escaped"] == 2 and st["bounty_deck_n"] == 0
    bounties_move(state, cards)
    assert (st["track_bounty"] == -1).all() and st["escaped"] == 3
    bounties_move(state, cards)             # nothing left to move
    assert (st["track_bounty"] == -1).all() and st["escaped"] == 3
    assert check_invariants(state, cards, rules) == []


def test_event_rulebook_example_the_bebop_breaks_down():
    """Jet has no Piloting (and Ein is away): he must spend 2000W."""
    state, cards, rules = new_state()
    st = state[0]
    st["seat"] = JET_SEAT
    no_piloting = cards_without(st, JET_SEAT, "piloting")
    set_hand(st, JET_SEAT, no_piloting)
    take_ein(st, SPIKE_SEAT)
    stack_events(st, [event_id("The Bebop Breaks Down")])
    log = event_phase(state, cards)
    assert res(st) == [4, 5, 3]
    assert hand_of(st, JET_SEAT) == no_piloting
    assert [r[2] for r in log_rows(state, log, S.LOG_OPTION)] == [1]
    assert check_invariants(state, cards, rules) == []


def test_event_ein_supplies_the_missing_icon_when_he_is_on_the_table():
    state, cards, rules = new_state()
    st = state[0]
    st["seat"] = JET_SEAT
    no_piloting = cards_without(st, JET_SEAT, "piloting")
    set_hand(st, JET_SEAT, no_piloting)
    st["res"][WOOLONGS] = 1                 # the 2000W option is out of reach
    stack_events(st, [event_id("The Bebop Breaks Down")])
    event_phase(state, cards)
    hacking = skill_card(st, JET_SEAT, "hacking")
    assert tableau_of(st, JET_SEAT)[-2:] == [hacking, EIN] and st["ein"] == JET_SEAT
    assert res(st) == [4, 5, 1]
    assert check_invariants(state, cards, rules) == []


def test_event_neither_option_affordable_spends_one_more_food():
    state, cards, rules = new_state()
    st = state[0]
    e = event_id("Gambling Debts")          # spend_food; spend woolongs 3 OR discard combat 2
    stack_events(st, [e])
    st["res"][WOOLONGS] = 2
    no_combat = cards_without(st, SPIKE_SEAT, "combat")
    set_hand(st, SPIKE_SEAT, no_combat)
    take_ein(st, JET_SEAT)
    log = event_phase(state, cards)
    assert res(st) == [3, 5, 2]             # 1 for the top line, 1 instead of the options
    assert hand_of(st, SPIKE_SEAT) == no_combat
    assert [r[2] for r in log_rows(state, log, S.LOG_OPTION)] == [-1]
    assert check_invariants(state, cards, rules) == []


def test_event_single_option_unaffordable_spends_food():
    state, cards, rules = new_state()
    st = state[0]
    stack_events(st, [event_id("Word on the Street")])   # top none; discard investigation 1 + draw a lead
    set_hand(st, SPIKE_SEAT, cards_without(st, SPIKE_SEAT, "investigation"))
    take_ein(st, JET_SEAT)
    event_phase(state, cards)
    assert res(st) == [4, 5, 5] and lead_count(st) == 0


def test_event_random_choice_between_two_affordable_options_is_one_of_them():
    outcomes = set()
    for k in POLICY_SEEDS:
        state, cards, rules = new_state()
        st = state[0]
        reseed(st, S.S_POLICY, k)
        stack_events(st, [event_id("Docking Fees")])     # spend_food; spend woolongs 1 OR spend fuel 1
        event_phase(state, cards)
        outcomes.add(tuple(res(st)))
    assert outcomes == {(4, 5, 4), (4, 4, 5)}


def test_starving_on_the_top_line_skips_the_options():
    state, cards, rules = new_state()
    st = state[0]
    st["res"][FOOD] = 0
    stack_events(st, [event_id("Engine Trouble")])
    log = event_phase(state, cards)
    assert st["starved"] and st["res"][FOOD] == 0 and st["min_food"] == 0
    assert log_rows(state, log, S.LOG_OPTION) == [] and st["tab_n"][0] == 0


def test_spending_the_last_food_is_not_starving_but_one_more_is():
    state, cards, rules = new_state()
    st = state[0]
    st["res"][FOOD] = 1
    stack_events(st, [event_id("Engine Trouble")])
    event_phase(state, cards)               # top line: 1 -> 0 Food; fuel or piloting option
    assert st["res"][FOOD] == 0 and not st["starved"]
    stack_events(st, [event_id("Fuel Leak")])
    event_phase(state, cards)
    assert st["starved"]


# ================================================================================= Vicious
def test_vicious_at_the_event_phase_rulebook_example_no_interact():
    state, cards, rules = new_state(vicious=8)
    st = state[0]
    e = event_id("Red Dragon Lookouts")     # spend food 1; no Interact for the rest of the turn
    stack_events(st, [e], strict=True)
    put(st, SPIKE_SEAT, MARS, BAR)
    assert S.A_INTERACT in legal_kinds(state, cards, SPIKE_SEAT)
    log = event_phase(state, cards)
    assert res(st) == [4, 5, 5] and st["no_interact"] and st["vicious_drawn"] == 1
    assert S.A_INTERACT not in legal_kinds(state, cards, SPIKE_SEAT)
    assert log_rows(state, log, S.LOG_OPTION) == []      # no options to choose between
    assert last_discarded_event(st) == e
    assert check_invariants(state, cards, rules) == []


def test_vicious_can_starve_the_crew():
    state, cards, rules = new_state(vicious=8)
    st = state[0]
    st["res"][FOOD] = 1
    stack_events(st, [event_id("Cathedral Showdown")], strict=True)    # spend food 2
    event_phase(state, cards)
    assert st["starved"] and st["res"][FOOD] == 0


def test_vicious_paid_as_far_as_possible():
    state, cards, rules = new_state(vicious=8)
    st = state[0]
    st["res"][:] = (5, 5, 1)
    set_hand(st, SPIKE_SEAT, [3])
    stack_events(st, [event_id("Shakedown")], strict=True)             # spend woolongs 2, discard_random 1
    event_phase(state, cards)
    assert res(st) == [5, 5, 0] and hand_of(st, SPIKE_SEAT) == [] and not st["starved"]
    assert check_invariants(state, cards, rules) == []


def test_vicious_drawn_as_a_jam_is_resolved_in_full():
    state, cards, rules = new_state(vicious=8)
    st = state[0]
    st["res"][:] = (5, 5, 5)
    e = event_id("Red Dragon Lookouts")
    stack_events(st, [e], strict=True)
    ok, log = resolve_jams(state, cards, SPIKE_SEAT, 1, False)
    assert ok                                # a Vicious card has no Jam icon to pay
    assert res(st) == [4, 5, 5] and st["no_interact"] and st["vicious_drawn"] == 1
    assert last_discarded_event(st) == e and st["tab_n"][0] == 0
    assert check_invariants(state, cards, rules) == []


def test_jams_are_paid_by_icon_and_fail_when_nobody_can():
    state, cards, rules = new_state()
    st = state[0]
    jams = [jam_event("hacking"), jam_event("hacking", 1)]
    put(st, JET_SEAT, EARTH, BAR)           # no helper in the sector
    set_hand(st, SPIKE_SEAT, [skill_card(st, SPIKE_SEAT, "hacking|piloting"), 0])
    stack_events(st, jams)
    ok, _ = resolve_jams(state, cards, SPIKE_SEAT, 2, False)
    assert ok and tableau_of(st, SPIKE_SEAT)[-2:] == [skill_card(st, SPIKE_SEAT, "hacking|piloting"), EIN]
    # again, with neither a Hacking card nor Ein: the attempt fails and nothing is discarded
    set_hand(st, SPIKE_SEAT, [0])
    stack_events(st, jams)
    ok, _ = resolve_jams(state, cards, SPIKE_SEAT, 2, False)
    assert not ok and hand_of(st, SPIKE_SEAT) == [0]
    assert sorted(st["event_disc"][: st["event_disc_n"]].tolist()) == sorted(jams)   # drawn, then discarded


def _spike_part2_ballad(state, jams):
    """Spike at the Mars spaceport for Part II of Ballad of Fallen Angels (combat 3, piloting 2,
    hacking 2, 1 Fuel, 2 jams), alone in his sector; his hand pays the Skills (with Ein) and keeps
    exactly two cards: investigation and combat|piloting."""
    st = state[0]
    st["session"][SPIKE_SEAT] = session_id("Ballad of Fallen Angels")
    st["part"][:2] = (1, 1)
    put(st, SPIKE_SEAT, MARS, SPACEPORT)
    put(st, JET_SEAT, EARTH, BAR)
    set_hand(st, SPIKE_SEAT, [2, 3, 4, 5, 6, 7])
    stack_events(st, jams, strict=True)


def test_session_jam_random_discard_vicious_can_make_the_session_fail():
    # control: the same session with two ordinary jams the last two cards can pay succeeds
    state, cards, rules = new_state(vicious=8)
    st = state[0]
    _spike_part2_ballad(state, [jam_event("piloting"), jam_event("investigation")])
    assert (S.A_SESSION, 0, 0, 0, 0) in legal(state, cards, SPIKE_SEAT)
    do_action(state, cards, SPIKE_SEAT, S.A_SESSION)
    assert st["part"][SPIKE_SEAT] == 2 and hand_of(st, SPIKE_SEAT) == []

    # Ambush in the Rain (spend food 1, discard_random 2) empties the hand before the piloting jam
    state, cards, rules = new_state(vicious=8)
    st = state[0]
    _spike_part2_ballad(state, [event_id("Ambush in the Rain"), jam_event("piloting")])
    log = do_action(state, cards, SPIKE_SEAT, S.A_SESSION)
    assert st["part"][SPIKE_SEAT] == 1                       # failed
    assert res(st) == [4, 4, 5]                              # Fuel stays spent; Food to Vicious
    assert hand_of(st, SPIKE_SEAT) == [] and st["ein"] == SPIKE_SEAT
    assert sorted(tableau_of(st, SPIKE_SEAT)) == list(range(8)) + [EIN]
    assert st["vicious_drawn"] == 1
    assert [r[4] for r in log_rows(state, log, S.LOG_RESULT)] == [0]
    assert check_invariants(state, cards, rules) == []


# ================================================================================ movement
def test_move_within_a_sector_and_to_the_docked_bebop():
    state, cards, rules = new_state()
    st = state[0]
    moves = {a[1] for a in legal(state, cards, SPIKE_SEAT) if a[0] == S.A_MOVE}
    assert moves == {BAR, CONTACT, SHOP, SPACEPORT}          # aboard at Mars: any Mars location
    do_action(state, cards, SPIKE_SEAT, S.A_MOVE, SHOP)
    assert (st["sector"][0], st["place"][0]) == (MARS, SHOP)
    moves = {a[1] for a in legal(state, cards, SPIKE_SEAT) if a[0] == S.A_MOVE}
    assert moves == {BAR, CONTACT, SPACEPORT, BEBOP}
    do_action(state, cards, SPIKE_SEAT, S.A_MOVE, BEBOP)
    assert (st["sector"][0], st["place"][0]) == (MARS, BEBOP)
    assert res(st) == [5, 5, 5]


def test_move_to_the_bebop_only_where_it_is_docked():
    state, cards, rules = new_state()
    st = state[0]
    put(st, SPIKE_SEAT, EARTH, BAR)
    moves = {a[1] for a in legal(state, cards, SPIKE_SEAT) if a[0] == S.A_MOVE}
    assert moves == {CONTACT, SHOP, SPACEPORT}
    assert S.A_FLY_BEBOP not in legal_kinds(state, cards, SPIKE_SEAT)


def test_no_move_or_fly_bebop_while_in_a_zip_craft():
    state, cards, rules = new_state()
    do_action(state, cards, SPIKE_SEAT, S.A_ENTER_ZIP)
    kinds = legal_kinds(state, cards, SPIKE_SEAT)
    assert S.A_MOVE not in kinds and S.A_FLY_BEBOP not in kinds and S.A_ENTER_ZIP not in kinds
    assert S.A_EXIT_ZIP in kinds and S.A_ZIP_FLY in kinds


def test_fly_bebop_carries_everyone_aboard_for_one_fuel():
    state, cards, rules = new_state(characters="spike,jet,faye")
    st = state[0]
    put(st, JET_SEAT, MARS, BAR)
    dests = {a[1] for a in legal(state, cards, SPIKE_SEAT) if a[0] == S.A_FLY_BEBOP}
    assert dests == {VENUS, EARTH, BELT, JOVIAN}
    assert S.A_FLY_BEBOP not in legal_kinds(state, cards, JET_SEAT)      # not aboard
    do_action(state, cards, SPIKE_SEAT, S.A_FLY_BEBOP, VENUS)
    assert st["bebop"] == VENUS and res(st) == [5, 4, 5]
    assert (st["sector"][0], st["place"][0]) == (VENUS, BEBOP)
    assert (st["sector"][2], st["place"][2]) == (VENUS, BEBOP)           # Faye came along
    assert (st["sector"][1], st["place"][1]) == (MARS, BAR)              # Jet stayed
    assert (st["zip_sector"][:3] == VENUS).all() and (st["zip_place"][:3] == BEBOP).all()  # hangar
    assert check_invariants(state, cards, rules) == []


def test_fly_bebop_illegal_without_fuel():
    state, cards, rules = new_state()
    st = state[0]
    st["res"][FUEL] = 0
    assert S.A_FLY_BEBOP not in legal_kinds(state, cards, SPIKE_SEAT)


def test_zip_craft_enter_fly_exit_leaves_it_at_the_location():
    state, cards, rules = new_state()
    st = state[0]
    assert S.A_ENTER_ZIP in legal_kinds(state, cards, SPIKE_SEAT)
    do_action(state, cards, SPIKE_SEAT, S.A_ENTER_ZIP)
    assert st["in_zip"][0] and (st["zip_sector"][0], st["zip_place"][0]) == (MARS, BEBOP)
    flights = {(a[1], a[2]) for a in legal(state, cards, SPIKE_SEAT) if a[0] == S.A_ZIP_FLY and a[3] == 0}
    assert len(flights) == 5 * 4 and (EARTH, SHOP) in flights and (MARS, BEBOP) not in flights
    do_action(state, cards, SPIKE_SEAT, S.A_ZIP_FLY, EARTH, SHOP)
    assert res(st) == [5, 4, 5]
    assert (st["sector"][0], st["place"][0], st["zip_sector"][0], st["zip_place"][0]) == (EARTH, SHOP, EARTH, SHOP)
    do_action(state, cards, SPIKE_SEAT, S.A_EXIT_ZIP)
    assert not st["in_zip"][0]
    assert (st["sector"][0], st["place"][0], st["zip_sector"][0], st["zip_place"][0]) == (EARTH, SHOP, EARTH, SHOP)
    # walk away: the zip craft stays, and can be entered only where it is
    do_action(state, cards, SPIKE_SEAT, S.A_MOVE, BAR)
    assert S.A_ENTER_ZIP not in legal_kinds(state, cards, SPIKE_SEAT)
    do_action(state, cards, SPIKE_SEAT, S.A_MOVE, SHOP)
    assert S.A_ENTER_ZIP in legal_kinds(state, cards, SPIKE_SEAT)
    assert check_invariants(state, cards, rules) == []


def test_zip_craft_exit_aboard_returns_it_to_the_hangar():
    state, cards, rules = new_state()
    st = state[0]
    put(st, SPIKE_SEAT, BELT, SHOP, in_zip=True)
    do_action(state, cards, SPIKE_SEAT, S.A_ZIP_FLY, MARS, BEBOP)
    do_action(state, cards, SPIKE_SEAT, S.A_EXIT_ZIP)
    assert (st["sector"][0], st["place"][0], st["in_zip"][0]) == (MARS, BEBOP, 0)
    assert (st["zip_sector"][0], st["zip_place"][0]) == (MARS, BEBOP)
    do_action(state, cards, SPIKE_SEAT, S.A_FLY_BEBOP, JOVIAN)
    assert (st["zip_sector"][0], st["zip_place"][0]) == (JOVIAN, BEBOP)   # travels in the hangar


def test_ed_has_no_zip_craft_and_one_enters_only_ones_own():
    state, cards, rules = new_state(characters="ed,jet")
    st = state[0]
    assert S.A_ENTER_ZIP not in legal_kinds(state, cards, 0)
    # Jet's zip craft at the Earth bar does not let Ed enter it there
    put(st, 0, EARTH, BAR)
    st["zip_sector"][1], st["zip_place"][1] = EARTH, BAR
    assert S.A_ENTER_ZIP not in legal_kinds(state, cards, 0)


def test_zip_flight_without_fuel_is_impossible_except_with_swordfish():
    state, cards, rules = new_state(characters="spike,jet")
    st = state[0]
    st["res"][FUEL] = 0
    put(st, SPIKE_SEAT, MARS, BAR, in_zip=True)
    put(st, JET_SEAT, MARS, SHOP, in_zip=True)
    assert S.A_ZIP_FLY not in legal_kinds(state, cards, JET_SEAT)
    flights = [a for a in legal(state, cards, SPIKE_SEAT) if a[0] == S.A_ZIP_FLY]
    assert flights and all(a[3] == 1 for a in flights)               # only One with the Swordfish
    log = do_action(state, cards, SPIKE_SEAT, S.A_ZIP_FLY, BELT, CONTACT, 1)
    assert (st["sector"][0], st["place"][0]) == (BELT, CONTACT) and res(st) == [5, 0, 5]
    assert tableau_of(st, SPIKE_SEAT) == [skill_card(st, SPIKE_SEAT, "piloting")]
    assert abilities_used(state, log) == [(0, R.SWORDFISH)]
    # with no Piloting left (and Ein away) he is grounded
    set_hand(st, SPIKE_SEAT, [0, 1, 3, 6])
    take_ein(st, JET_SEAT)
    assert S.A_ZIP_FLY not in legal_kinds(state, cards, SPIKE_SEAT)


def test_zip_flight_is_free_of_actions():
    """Over whole random-policy games: never more than 3 real actions a turn, zip flights on top."""
    rules = G.GAME.resolve("boogie", {"characters": "spike,jet,faye"})
    extra_seen = False
    for gi in range(6):
        _, log, _, _ = G.play_one(rules, 5, gi, "random", None)
        per_turn = []
        for code, _, kind, *_ in log.tolist():
            if code == S.LOG_TURN:
                per_turn.append([0, 0])
            elif code == S.LOG_ACTION and kind != S.A_PASS:
                per_turn[-1][kind == S.A_ZIP_FLY] += 1
        assert all(real <= 3 for real, _ in per_turn)
        extra_seen |= any(real == 3 and free > 0 for real, free in per_turn)
    assert extra_seen


# ================================================================================ interact
def test_interact_shop_buys_food_and_marks_it_used():
    for k in POLICY_SEEDS[:16]:
        state, cards, rules = new_state()
        st = state[0]
        reseed(st, S.S_POLICY, k)
        put(st, SPIKE_SEAT, MARS, SHOP)
        st["res"][:] = (17, 5, 5)
        log = do_action(state, cards, SPIKE_SEAT, S.A_INTERACT)
        (buy,) = log_rows(state, log, S.LOG_BUY)
        bought = buy[3]
        assert buy[2] == FOOD and 0 <= bought <= 3                # at most up to the cap of 20
        assert res(st) == [17 + bought, 5, 5 - bought]
        assert st["used"][MARS, SHOP] and st["used_n"][SHOP] == 1 and st["used"].sum() == 1
        assert check_invariants(state, cards, rules) == []


def test_interact_spaceport_buys_fuel():
    bought_seen = set()
    for k in POLICY_SEEDS[:16]:
        state, cards, rules = new_state()
        st = state[0]
        reseed(st, S.S_POLICY, k)
        put(st, SPIKE_SEAT, MARS, SPACEPORT)
        st["res"][:] = (5, 0, 2)
        log = do_action(state, cards, SPIKE_SEAT, S.A_INTERACT)
        (buy,) = log_rows(state, log, S.LOG_BUY)
        assert buy[2] == FUEL
        assert res(st) == [5, buy[3], 2 - buy[3]]
        bought_seen.add(buy[3])
        assert st["used"][MARS, SPACEPORT]
    assert bought_seen == {0, 1, 2}


def test_interact_bar_takes_the_whole_tableau_back_and_ein_returns():
    state, cards, rules = new_state()
    st = state[0]
    put(st, SPIKE_SEAT, BELT, BAR)
    set_hand(st, SPIKE_SEAT, [0, 2, 4, 6], tableau=[5, 3, EIN, 1, 7])
    do_action(state, cards, SPIKE_SEAT, S.A_INTERACT)
    assert hand_of(st, SPIKE_SEAT) == list(range(8)) and st["tab_n"][0] == 0 and st["ein"] == -1
    assert st["used"][BELT, BAR] and st["used_n"][BAR] == 1
    assert check_invariants(state, cards, rules) == []


def test_interact_contact_only_affordable_option():
    state, cards, rules = new_state()
    st = state[0]
    put(st, SPIKE_SEAT, MARS, CONTACT)
    c = contact_id("Annie")             # discard combat 1 + draw a lead OR spend 1000W + gain 2 Food
    stack_contacts(st, [c])
    set_hand(st, SPIKE_SEAT, cards_without(st, SPIKE_SEAT, "combat"))
    take_ein(st, JET_SEAT)
    log = do_action(state, cards, SPIKE_SEAT, S.A_INTERACT)
    assert res(st) == [7, 5, 4] and lead_count(st) == 0
    assert st["contact_disc"][st["contact_disc_n"] - 1] == c and st["contact_deck_n"] == 19
    assert st["used"][MARS, CONTACT]
    assert [r[2] for r in log_rows(state, log, S.LOG_OPTION)] == [1]
    assert check_invariants(state, cards, rules) == []


def test_interact_contact_draws_a_lead():
    state, cards, rules = new_state()
    st = state[0]
    put(st, SPIKE_SEAT, MARS, CONTACT)
    st["res"][WOOLONGS] = 0
    stack_contacts(st, [contact_id("Doc")])     # draw a lead OR 1000W for 2 leads
    tops = [int(st["lead_deck"][t, st["lead_deck_n"][t] - 1]) for t in range(3)]
    do_action(state, cards, SPIKE_SEAT, S.A_INTERACT)
    assert lead_count(st) == 1
    (t,) = [t for t in range(3) if st["lead_deck_n"][t] == 9]
    assert st["leads"][t, 0] == tops[t]
    assert check_invariants(state, cards, rules) == []


def test_interact_contact_rulebook_example_tech_expert_without_hacking():
    state, cards, rules = new_state()
    st = state[0]
    put(st, SPIKE_SEAT, MARS, CONTACT)
    stack_contacts(st, [contact_id("Tech Expert")])
    set_hand(st, SPIKE_SEAT, [0, 1, 2, 3])                     # no Hacking icon
    take_ein(st, JET_SEAT)
    log = do_action(state, cards, SPIKE_SEAT, S.A_INTERACT)
    assert lead_count(st) == 0 and res(st) == [5, 5, 5] and hand_of(st, SPIKE_SEAT) == [0, 1, 2, 3]
    assert [r[2] for r in log_rows(state, log, S.LOG_OPTION)] == [-1]
    assert st["contact_disc_n"] == 1 and st["used"][MARS, CONTACT]


def test_used_tokens_block_interaction_and_the_bebop_is_no_location():
    state, cards, rules = new_state()
    st = state[0]
    assert S.A_INTERACT not in legal_kinds(state, cards, SPIKE_SEAT)    # aboard
    put(st, SPIKE_SEAT, MARS, BAR)
    assert S.A_INTERACT in legal_kinds(state, cards, SPIKE_SEAT)
    place_used_token(state, MARS, BAR)
    assert S.A_INTERACT not in legal_kinds(state, cards, SPIKE_SEAT)
    put(st, SPIKE_SEAT, EARTH, BAR)
    assert S.A_INTERACT in legal_kinds(state, cards, SPIKE_SEAT)


def test_the_fifth_used_token_of_a_type_frees_them_all():
    state, cards, rules = new_state()
    st = state[0]
    for sector in (VENUS, EARTH, MARS, BELT):
        place_used_token(state, sector, SHOP)
    place_used_token(state, MARS, BAR)
    assert st["used_n"][SHOP] == 4 and st["used"][:, SHOP].sum() == 4
    put(st, SPIKE_SEAT, JOVIAN, SHOP)
    st["res"][WOOLONGS] = 0
    do_action(state, cards, SPIKE_SEAT, S.A_INTERACT)           # the fifth Shop token
    assert not st["used"][:, SHOP].any() and st["used_n"][SHOP] == 0
    assert st["used"][MARS, BAR] and st["used_n"][BAR] == 1      # other types untouched
    assert check_invariants(state, cards, rules) == []


def test_rest_takes_the_two_leftmost_tableau_cards():
    state, cards, rules = new_state()
    st = state[0]
    set_hand(st, SPIKE_SEAT, [0, 2, 4, 6], tableau=[5, 3, 1, 7])
    do_action(state, cards, SPIKE_SEAT, S.A_REST)
    assert hand_of(st, SPIKE_SEAT) == [0, 2, 3, 4, 5, 6] and tableau_of(st, SPIKE_SEAT) == [1, 7]
    # Ein among the two leftmost goes back to the middle of the table
    set_hand(st, SPIKE_SEAT, [0, 1, 2, 3, 4, 6], tableau=[EIN, 7, 5])
    do_action(state, cards, SPIKE_SEAT, S.A_REST)
    assert st["ein"] == -1 and hand_of(st, SPIKE_SEAT) == [0, 1, 2, 3, 4, 6, 7]
    assert tableau_of(st, SPIKE_SEAT) == [5]
    draw_from_tableau(state, SPIKE_SEAT, 2)                       # fewer than 2 left: takes what is there
    assert st["tab_n"][0] == 0 and hand_of(st, SPIKE_SEAT) == list(range(8))
    assert S.A_REST not in legal_kinds(state, cards, SPIKE_SEAT)
    assert check_invariants(state, cards, rules) == []


# ================================================================================= session
BALLAD = "Ballad of Fallen Angels"   # Spike; Part I: Mars contact, combat 3 + investigation 2, 1000W, 1 jam


def _ballad_part1(**rules):
    state, cards, rules_ = new_state(**rules)
    st = state[0]
    st["session"][SPIKE_SEAT] = session_id(BALLAD)
    put(st, SPIKE_SEAT, MARS, CONTACT)
    return state, cards, rules_


def test_session_helpers_aboard_the_docked_bebop_pay_what_the_actor_cannot():
    """Spike has one Investigation icon; Jet, aboard the Bebop docked at Mars, adds the rest."""
    state, cards, rules = _ballad_part1()
    st = state[0]
    take_ein(st, JET_SEAT)
    stack_events(st, [jam_event("piloting")])
    assert (S.A_SESSION, 0, 0, 0, 0) in legal(state, cards, SPIKE_SEAT)
    log = do_action(state, cards, SPIKE_SEAT, S.A_SESSION)
    assert st["part"][SPIKE_SEAT] == 1
    assert res(st) == [5, 5, 4]
    # combat+combat and combat from Spike, investigation+investigation from Jet; the jam: piloting
    assert tableau_of(st, SPIKE_SEAT) == [6, 0, 2]
    assert tableau_of(st, JET_SEAT) == [EIN, 7]
    assert [r[4] for r in log_rows(state, log, S.LOG_RESULT)] == [1]
    assert check_invariants(state, cards, rules) == []


def test_session_teammate_in_another_sector_cannot_help():
    state, cards, rules = _ballad_part1()
    st = state[0]
    take_ein(st, JET_SEAT)
    put(st, JET_SEAT, EARTH, BAR)
    assert S.A_SESSION not in legal_kinds(state, cards, SPIKE_SEAT)
    # a teammate in a zip craft at another Mars location does count
    put(st, JET_SEAT, MARS, SHOP, in_zip=True)
    assert S.A_SESSION in legal_kinds(state, cards, SPIKE_SEAT)


def test_session_wrong_location_and_missing_resources_are_illegal():
    state, cards, rules = _ballad_part1()
    st = state[0]
    assert S.A_SESSION in legal_kinds(state, cards, SPIKE_SEAT)
    put(st, SPIKE_SEAT, MARS, BAR)
    assert S.A_SESSION not in legal_kinds(state, cards, SPIKE_SEAT)
    put(st, SPIKE_SEAT, MARS, CONTACT)
    st["res"][WOOLONGS] = 0
    assert S.A_SESSION not in legal_kinds(state, cards, SPIKE_SEAT)


def test_session_part_two_waits_for_every_part_one():
    state, cards, rules = new_state(characters="spike,jet,faye")
    st = state[0]
    st["session"][SPIKE_SEAT] = session_id(BALLAD)   # Part II: Mars spaceport
    put(st, SPIKE_SEAT, MARS, SPACEPORT)
    st["part"][:3] = (1, 1, 0)
    assert S.A_SESSION not in legal_kinds(state, cards, SPIKE_SEAT)
    st["part"][2] = 1
    assert S.A_SESSION in legal_kinds(state, cards, SPIKE_SEAT)
    st["part"][SPIKE_SEAT] = 2
    assert S.A_SESSION not in legal_kinds(state, cards, SPIKE_SEAT)      # nothing left to do


def test_session_failed_jam_keeps_resources_spent_and_skills_discarded():
    state, cards, rules = _ballad_part1()
    st = state[0]
    put(st, JET_SEAT, EARTH, BAR)               # no helper; Ein pays the second Investigation
    stack_events(st, [jam_event("hacking")])
    set_hand(st, SPIKE_SEAT, [0, 1, 3, 6])      # combat, combat, investigation, combat+combat: no Hacking
    log = do_action(state, cards, SPIKE_SEAT, S.A_SESSION)
    assert st["part"][SPIKE_SEAT] == 0
    assert res(st) == [5, 5, 4]
    assert hand_of(st, SPIKE_SEAT) == [1]
    assert tableau_of(st, SPIKE_SEAT)[-4:] == [6, 0, 3, EIN]
    assert [r[4] for r in log_rows(state, log, S.LOG_RESULT)] == [0]
    assert check_invariants(state, cards, rules) == []


def test_winning_needs_every_part_two():
    state, cards, rules = new_state(characters="spike,jet,faye")
    st = state[0]
    st["part"][:3] = (2, 2, 1)
    assert not game_won(state)
    st["part"][2] = 2
    assert game_won(state)


def test_completing_the_last_part_two_wins():
    state, cards, rules = new_state()
    st = state[0]
    st["session"][SPIKE_SEAT] = session_id(BALLAD)
    st["part"][:2] = (1, 2)
    put(st, SPIKE_SEAT, MARS, SPACEPORT)
    stack_events(st, [jam_event("investigation"), jam_event("combat")])
    assert S.A_SESSION in legal_kinds(state, cards, SPIKE_SEAT)
    do_action(state, cards, SPIKE_SEAT, S.A_SESSION)
    assert st["part"][SPIKE_SEAT] == 2 and game_won(state)
    assert res(st) == [5, 4, 5]


# =================================================================================== chase
DECKER = "Decker"   # start 5, last seen the Belt, combat 2 + piloting 3 + hacking 1, 3 jams, 9000W + 2 Fuel


def _decker_chase(chaser=JET_SEAT, helper_at=(BELT, BEBOP), jams=(), bounty_deck=18, **rules):
    """The rulebook's Chase example: Jet at the Belt contact holding Belt + Contact + Mountain,
    Decker on the track; Spike in the same sector (aboard the Bebop docked at the Belt)."""
    state, cards, rules_ = new_state(bounty_deck=bounty_deck, **rules)
    st = state[0]
    move_bebop(st, BELT)
    slot = 1
    put_bounty_on_track(st, rules_, bounty_id(DECKER), slot, 5)
    set_leads(st, sector=[BELT], location=[CONTACT], terrain=[MOUNTAIN])
    put(st, chaser, BELT, CONTACT)
    helper = SPIKE_SEAT if chaser == JET_SEAT else JET_SEAT
    put(st, helper, *helper_at)
    stack_events(st, list(jams), strict=True)
    return state, cards, rules_, slot


def _decker_success(vicious=8):
    jams = [jam_event("hacking"), jam_event("hacking", 1), event_id("Red Dragon Lookouts")]
    state, cards, rules, slot = _decker_chase(jams=jams, vicious=vicious)
    st = state[0]
    # Jet: combat, piloting, combat+piloting, hacking; Spike: piloting, hacking|piloting, investigation
    set_hand(st, JET_SEAT, [0, 1, 3, 6])
    set_hand(st, SPIKE_SEAT, [2, 3, 5])
    return state, cards, rules, slot


def test_chase_rulebook_example_decker_success():
    """Jet chases Decker with Spike's help; jams: 2 Hacking and Vicious (1 Food); Spike has one
    Hacking icon, Ein covers the other; Decker is caught for 9000W and 2 Fuel."""
    state, cards, rules, slot = _decker_success()
    st, cd = state[0], cards[0]
    top = int(st["bounty_deck"][st["bounty_deck_n"] - 1])
    n = int(st["bounty_deck_n"])
    assert (S.A_CHASE, slot, 0, 0, 0) in legal(state, cards, JET_SEAT)
    log = do_action(state, cards, JET_SEAT, S.A_CHASE, slot)
    assert [r[4] for r in log_rows(state, log, S.LOG_RESULT)] == [1]
    assert st["caught"] == 1
    assert res(st) == [4, 7, 14]                   # +2 Fuel +9000W; the Vicious jam cost 1 Food
    assert track(st)[slot] == (top, cd["bounty_start"][top]) and st["bounty_deck_n"] == n - 1
    # the three leads went to their discard piles
    assert lead_count(st) == 0
    assert [int(st["lead_disc"][t, st["lead_disc_n"][t] - 1]) for t in range(3)] == [BELT, CONTACT, MOUNTAIN]
    # skills: Jet combat+piloting, combat, piloting; Spike piloting, hacking|piloting; jams: Jet's
    # hacking and Ein
    assert hand_of(st, JET_SEAT) == [] and hand_of(st, SPIKE_SEAT) == [3]
    assert st["ein"] == JET_SEAT
    assert check_invariants(state, cards, rules) == []


def test_chase_payout_capped_at_20_and_no_replacement_from_an_empty_deck():
    state, cards, rules, slot = _decker_success()
    st = state[0]
    st["res"][WOOLONGS] = 15
    st["bounty_deck_n"] = 0
    do_action(state, cards, JET_SEAT, S.A_CHASE, slot)
    assert st["caught"] == 1 and res(st)[2] == 20
    assert st["track_bounty"][slot] == -1


def test_chase_needs_the_matching_location_and_last_seen_lead():
    state, cards, rules, slot = _decker_success()
    st = state[0]
    assert S.A_CHASE in legal_kinds(state, cards, JET_SEAT)
    put(st, JET_SEAT, BELT, SHOP)                         # leads say Contact
    assert S.A_CHASE not in legal_kinds(state, cards, JET_SEAT)
    put(st, JET_SEAT, EARTH, CONTACT, in_zip=True)        # leads say the Belt
    assert S.A_CHASE not in legal_kinds(state, cards, JET_SEAT)
    put(st, JET_SEAT, BELT, CONTACT)
    set_leads(st, sector=[BELT], location=[CONTACT], terrain=[DESERT])   # not a ring of the Belt contact
    assert S.A_CHASE not in legal_kinds(state, cards, JET_SEAT)
    set_leads(st, sector=[BELT], location=[CONTACT], terrain=[RUINS])    # the other ring: fine
    assert S.A_CHASE in legal_kinds(state, cards, JET_SEAT)
    # a bounty last seen on Mars cannot be located by Belt leads
    st["track_bounty"][slot] = bounty_id("Asimov Solensan")
    assert S.A_CHASE not in legal_kinds(state, cards, JET_SEAT)


def test_chase_location_match_but_last_seen_lead_is_required():
    state, cards, rules, slot = _decker_success()
    st = state[0]
    # Chessmaster Hex is last seen at "ruins": Belt + Contact + Ruins locates him at the Belt contact
    st["track_bounty"][slot] = bounty_id("Chessmaster Hex")
    set_leads(st, sector=[BELT], location=[CONTACT], terrain=[MOUNTAIN])
    assert (S.A_CHASE, slot, 0, 0, 0) not in legal(state, cards, JET_SEAT)
    set_leads(st, sector=[BELT], location=[CONTACT], terrain=[MOUNTAIN, RUINS])
    set_hand(st, JET_SEAT, list(range(8)))
    set_hand(st, SPIKE_SEAT, list(range(8)))
    assert (S.A_CHASE, slot, 0, 0, 0) in legal(state, cards, JET_SEAT)


def test_chase_failure_keeps_leads_and_skills_discarded_and_the_bounty_on_the_track():
    state, cards, rules, slot = _decker_success()
    st = state[0]
    set_hand(st, SPIKE_SEAT, [2, 5])              # one Hacking icon for two hacking jams ...
    take_ein(st, SPIKE_SEAT)                      # ... and no Ein: the jams cannot be paid
    pos = int(st["track_pos"][slot])
    do_action(state, cards, JET_SEAT, S.A_CHASE, slot)
    assert st["caught"] == 0 and track(st)[slot] == (bounty_id(DECKER), pos)
    assert lead_count(st) == 0
    assert hand_of(st, JET_SEAT) == [] and hand_of(st, SPIKE_SEAT) == [5]   # skills paid, jams not
    assert res(st) == [4, 5, 5]
    assert check_invariants(state, cards, rules) == []


# ============================================================================ plan_payment
def test_plan_payment_or_cards_count_once():
    state, cards, rules = new_state()
    st = state[0]
    take_ein(st, JET_SEAT)
    set_hand(st, SPIKE_SEAT, [4])                  # combat|piloting
    assert plan_payment(state, cards, [0], [1, 0, 0, 0]) == (1, [(0, 4)])
    assert plan_payment(state, cards, [0], [1, 0, 0, 1])[0] == -1
    st["ein"] = -1
    set_hand(st, JET_SEAT, list(range(8)))
    assert plan_payment(state, cards, [0], [1, 0, 0, 1]) == (2, [(0, 4), (0, EIN)])


def test_plan_payment_and_cards_count_both_icons():
    state, cards, rules = new_state()
    st = state[0]
    take_ein(st, JET_SEAT)
    set_hand(st, SPIKE_SEAT, [7])                  # combat+piloting
    assert plan_payment(state, cards, [0], [1, 0, 0, 1]) == (1, [(0, 7)])
    set_hand(st, SPIKE_SEAT, [6])                  # combat+combat
    assert plan_payment(state, cards, [0], [2, 0, 0, 0]) == (1, [(0, 6)])
    assert plan_payment(state, cards, [0], [3, 0, 0, 0])[0] == -1
    assert plan_payment(state, cards, [0], [1, 0, 0, 0]) == (1, [(0, 6)])   # an icon may be wasted


def test_plan_payment_ein_is_one_wild_icon_when_on_the_table():
    state, cards, rules = new_state()
    st = state[0]
    set_hand(st, SPIKE_SEAT, [])
    assert plan_payment(state, cards, [0], [0, 1, 0, 0]) == (1, [(0, EIN)])
    assert plan_payment(state, cards, [0], [0, 2, 0, 0])[0] == -1
    assert plan_payment(state, cards, [0], [0, 1, 0, 0], allow_ein=False)[0] == -1
    take_ein(st, JET_SEAT)
    assert plan_payment(state, cards, [0], [0, 1, 0, 0])[0] == -1


def test_plan_payment_draws_on_every_payer():
    state, cards, rules = new_state()
    st = state[0]
    take_ein(st, SPIKE_SEAT)
    set_hand(st, SPIKE_SEAT, [3], tableau=[0, 1, 2, 4, 5, 6, 7, EIN])
    count, sel = plan_payment(state, cards, [0, 1], [0, 1, 3, 0])
    assert count >= 0
    assert (0, 3) in sel and all(seat in (0, 1) for seat, _ in sel)
    assert plan_payment(state, cards, [0], [0, 1, 3, 0])[0] == -1


def test_plan_payment_finds_a_payment_whenever_one_exists():
    state, cards, rules = new_state()
    st = state[0]
    take_ein(st, JET_SEAT)
    set_hand(st, SPIKE_SEAT, [4, 6])       # combat|piloting, combat+combat
    # combat+combat pays Combat (wasting one icon), combat|piloting pays Piloting
    assert plan_payment(state, cards, [0], [1, 0, 0, 1])[0] == 2


def test_event_option_affordable_whenever_the_hand_can_pay_it():
    state, cards, rules = new_state()
    st = state[0]
    take_ein(st, JET_SEAT)
    set_hand(st, SPIKE_SEAT, [4, 6])
    e = event_id("Andy Cuts In")     # bounties_move; discard combat 1 + piloting 1 OR discard_leads 2
    stack_events(st, [e])
    log = event_phase(state, cards)
    assert [r[2] for r in log_rows(state, log, S.LOG_OPTION)] == [0]
    assert res(st)[FOOD] == 5 and hand_of(st, SPIKE_SEAT) == []


# ================================================================================= leads
def test_leads_area_holds_two_per_type_and_a_third_forces_a_discard():
    for k in range(8):
        state, cards, rules = new_state()
        st = state[0]
        reseed(st, S.S_POLICY, k)
        set_leads(st, sector=[VENUS, EARTH])
        stack_leads(st, 0, [MARS])
        st["lead_deck_n"][0] -= 1                 # MARS drawn (now in hand, about to be gained)
        gain_lead(state, cards, SPIKE_SEAT, 0, MARS)
        held = sorted(int(v) for v in st["leads"][0])
        assert held in ([VENUS, MARS], [EARTH, MARS])
        dropped = ({VENUS, EARTH} - set(held)).pop()
        assert st["lead_disc"][0, st["lead_disc_n"][0] - 1] == dropped
        assert check_invariants(state, cards, rules) == []
    # a free space takes the lead without a discard
    state, cards, rules = new_state()
    st = state[0]
    set_leads(st, location=[BAR])
    stack_leads(st, 1, [SHOP])
    st["lead_deck_n"][1] -= 1
    gain_lead(state, cards, SPIKE_SEAT, 1, SHOP)
    assert sorted(st["leads"][1].tolist()) == [BAR, SHOP] and st["lead_disc_n"][1] == 0


# =============================================================================== abilities
def _spike_chase_jams(jams, hand):
    state, cards, rules = new_state(vicious=8)
    st = state[0]
    set_hand(st, SPIKE_SEAT, hand)
    take_ein(st, JET_SEAT)
    put(st, JET_SEAT, EARTH, BAR)
    stack_events(st, jams, strict=True)
    return state, cards, rules


def test_determined_ignores_one_jam_type_but_not_vicious():
    jams = [jam_event("hacking"), jam_event("hacking", 1), event_id("Red Dragon Lookouts")]
    outcomes = set()
    for k in POLICY_SEEDS:
        state, cards, rules = _spike_chase_jams(jams, [0, 2])      # combat, piloting: no Hacking
        st = state[0]
        reseed(st, S.S_POLICY, k)
        ok, log = resolve_jams(state, cards, SPIKE_SEAT, 3, True)
        used = abilities_used(state, log)
        assert res(st)[FOOD] == 4 and st["no_interact"]             # Vicious is never ignored
        if used:
            assert used == [(0, R.DETERMINED)] and ok
            assert hand_of(st, SPIKE_SEAT) == [2] and tableau_of(st, SPIKE_SEAT)[-1] == 0
        else:
            assert not ok and hand_of(st, SPIKE_SEAT) == [0, 2]
        outcomes.add((bool(used), ok))
    assert outcomes == {(True, True), (False, False)}


def test_determined_only_one_type_and_only_in_chases():
    jams = [jam_event("hacking"), jam_event("investigation")]
    for k in POLICY_SEEDS[:24]:
        state, cards, rules = _spike_chase_jams(jams, [0, 1])       # two combat cards
        reseed(state[0], S.S_POLICY, k)
        ok, log = resolve_jams(state, cards, SPIKE_SEAT, 2, True)
        assert not ok and len(abilities_used(state, log)) <= 1
        state, cards, rules = _spike_chase_jams([jam_event("hacking")], [0, 1])
        reseed(state[0], S.S_POLICY, k)
        ok, log = resolve_jams(state, cards, SPIKE_SEAT, 1, False)   # a Session's jams
        assert not ok and abilities_used(state, log) == []


def test_keen_eye_swaps_a_lead_for_one_from_any_discard_pile():
    state, cards, rules = new_state()
    st = state[0]
    set_leads(st, terrain=[MOUNTAIN])
    set_lead_discard(st, 0, [MARS, VENUS])
    action = (S.A_KEEN_EYE, 2, 0, 0, MARS)
    assert action in legal(state, cards, SPIKE_SEAT)
    log = do_action(state, cards, SPIKE_SEAT, *action)
    assert st["leads"][0].tolist() == [MARS, -1] and st["leads"][2].tolist() == [-1, -1]
    assert st["lead_disc"][0, : st["lead_disc_n"][0]].tolist() == [VENUS]
    assert st["lead_disc"][2, : st["lead_disc_n"][2]].tolist() == [MOUNTAIN]
    assert tableau_of(st, SPIKE_SEAT) == [skill_card(st, SPIKE_SEAT, "hacking|piloting")]
    assert abilities_used(state, log) == [(0, R.KEEN_EYE)]
    assert check_invariants(state, cards, rules) == []
    # without a Hacking icon (and Ein away) there is no Keen Eye
    set_hand(st, SPIKE_SEAT, [0, 1, 2, 3])
    take_ein(st, JET_SEAT)
    assert S.A_KEEN_EYE not in legal_kinds(state, cards, SPIKE_SEAT)


def test_keen_eye_into_a_full_type_discards_another_lead():
    state, cards, rules = new_state()
    st = state[0]
    set_leads(st, sector=[VENUS, EARTH], terrain=[MOUNTAIN])
    set_lead_discard(st, 0, [MARS])
    do_action(state, cards, SPIKE_SEAT, S.A_KEEN_EYE, 2, 0, 0, MARS)
    held = sorted(st["leads"][0].tolist())
    assert MARS in held and len([v for v in held if v >= 0]) == 2
    assert st["lead_disc_n"][0] == 1 and st["lead_disc"][0, 0] in (VENUS, EARTH)
    assert check_invariants(state, cards, rules) == []


def test_lean_times_converts_one_resource():
    state, cards, rules = new_state()
    st = state[0]
    st["res"][:] = (1, 0, 20)
    acts = {(a[1], a[2]) for a in legal(state, cards, JET_SEAT) if a[0] == S.A_LEAN_TIMES}
    assert acts == {(FOOD, FUEL), (FOOD, WOOLONGS), (WOOLONGS, FOOD), (WOOLONGS, FUEL)}
    log = do_action(state, cards, JET_SEAT, S.A_LEAN_TIMES, WOOLONGS, FUEL)
    assert res(st) == [1, 1, 19]
    assert tableau_of(st, JET_SEAT) == [skill_card(st, JET_SEAT, "combat")]
    assert abilities_used(state, log) == [(1, R.LEAN_TIMES)]
    st["res"][:] = (20, 3, 3)
    do_action(state, cards, JET_SEAT, S.A_LEAN_TIMES, FUEL, FOOD)
    assert res(st) == [20, 2, 3]                 # the gain beyond 20 is lost
    assert S.A_LEAN_TIMES not in legal_kinds(state, cards, SPIKE_SEAT)


def test_well_connected_draws_a_second_contact_and_keeps_one():
    branches = set()
    for k in POLICY_SEEDS:
        state, cards, rules = new_state()
        st = state[0]
        reseed(st, S.S_POLICY, k)
        put(st, JET_SEAT, MARS, CONTACT)
        first, second = contact_id("Tech Expert"), contact_id("Annie")
        stack_contacts(st, [first, second])
        set_hand(st, JET_SEAT, [skill_card(st, JET_SEAT, "investigation")])   # no Combat, no Hacking
        take_ein(st, SPIKE_SEAT)
        log = do_action(state, cards, JET_SEAT, S.A_INTERACT)
        drawn = [r[2] for r in log_rows(state, log, S.LOG_CONTACT)]
        used = abilities_used(state, log)
        if used:
            assert used == [(1, R.WELL_CONNECTED)] and drawn == [first, second]
            assert st["contact_disc_n"] == 2 and st["contact_deck_n"] == 18
            # Tech Expert is unaffordable; Annie's 1000W for 2 Food is, if chosen
            assert res(st) in ([5, 5, 5], [7, 5, 4])
            branches.add(("used", tuple(res(st))))
        else:
            assert drawn == [first] and st["contact_disc_n"] == 1 and res(st) == [5, 5, 5]
            branches.add(("not used", tuple(res(st))))
        assert check_invariants(state, cards, rules) == []
    assert branches == {("used", (5, 5, 5)), ("used", (7, 5, 4)), ("not used", (5, 5, 5))}


def test_efficient_pilot_flies_free_with_a_passenger_boarding():
    state, cards, rules = new_state(characters="jet,spike,ed")
    st = state[0]
    put(st, 1, MARS, BAR)           # Spike at the Mars bar
    put(st, 2, EARTH, SHOP)         # Ed elsewhere
    acts = [a for a in legal(state, cards, 0) if a[0] == S.A_EFFICIENT_PILOT]
    assert (S.A_EFFICIENT_PILOT, EARTH, -1, 0, 0) in acts
    assert (S.A_EFFICIENT_PILOT, EARTH, 1, BEBOP, 0) in acts
    assert not any(a[2] == 2 for a in acts)             # Ed is not in the sector
    log = do_action(state, cards, 0, S.A_EFFICIENT_PILOT, EARTH, 1, BEBOP)
    assert st["bebop"] == EARTH and res(st) == [5, 5, 5]
    assert (st["sector"][0], st["place"][0]) == (EARTH, BEBOP)
    assert (st["sector"][1], st["place"][1]) == (EARTH, BEBOP)
    assert tableau_of(st, 0) == [skill_card(st, 0, "piloting")]
    assert abilities_used(state, log) == [(1, R.EFFICIENT_PILOT)]
    # and the other way: Spike steps off before the Bebop leaves
    do_action(state, cards, 0, S.A_EFFICIENT_PILOT, BELT, 1, SHOP)
    assert st["bebop"] == BELT and (st["sector"][1], st["place"][1]) == (EARTH, SHOP)
    assert check_invariants(state, cards, rules) == []


def test_persuasive_discounts_a_contact_by_1000w():
    branches = set()
    for k in POLICY_SEEDS:
        state, cards, rules = new_state(characters="faye,jet")
        st = state[0]
        reseed(st, S.S_POLICY, k)
        put(st, 0, MARS, CONTACT)
        st["res"][WOOLONGS] = 0
        stack_contacts(st, [contact_id("Store Clerk")])   # 1000W: 1 lead OR 2000W: 2 leads
        log = do_action(state, cards, 0, S.A_INTERACT)
        used = abilities_used(state, log)
        if used:
            assert used == [(2, R.PERSUASIVE)]
            assert lead_count(st) == 1 and res(st) == [5, 5, 0]           # the 1000W option was free
            assert tableau_of(st, 0) == [skill_card(st, 0, "combat")]
        else:
            assert lead_count(st) == 0 and st["tab_n"][0] == 0
        branches.add(bool(used))
    assert branches == {True, False}


def test_persuasive_discount_is_at_most_1000w():
    for k in POLICY_SEEDS[:24]:
        state, cards, rules = new_state(characters="faye,jet")
        st = state[0]
        reseed(st, S.S_POLICY, k)
        put(st, 0, MARS, CONTACT)
        st["res"][WOOLONGS] = 1
        stack_contacts(st, [contact_id("Store Clerk")])
        log = do_action(state, cards, 0, S.A_INTERACT)
        if abilities_used(state, log):
            # 1000W for 1 lead became free; 2000W for 2 leads costs 1000W
            assert (lead_count(st), res(st)[2]) in ((1, 1), (2, 0))
        else:
            assert (lead_count(st), res(st)[2]) == (1, 0)


def test_big_spender_pays_1000w_instead_of_the_used_token():
    branches = set()
    for k in POLICY_SEEDS:
        state, cards, rules = new_state(characters="faye,jet")
        st = state[0]
        reseed(st, S.S_POLICY, k)
        put(st, 0, MARS, BAR)
        set_hand(st, 0, [0], tableau=[2, 1, 3, 4, 5, 6, 7])
        log = do_action(state, cards, 0, S.A_INTERACT)
        used = abilities_used(state, log)
        if used:
            assert used == [(2, R.BIG_SPENDER)]
            assert not st["used"].any() and res(st) == [5, 5, 4]
            assert tableau_of(st, 0) == [skill_card(st, 0, "hacking")]
        else:
            assert st["used"][MARS, BAR] and res(st) == [5, 5, 5] and st["tab_n"][0] == 0
        branches.add(bool(used))
    assert branches == {True, False}
    # no Woolongs, no Big Spender
    for k in POLICY_SEEDS[:16]:
        state, cards, rules = new_state(characters="faye,jet")
        st = state[0]
        reseed(st, S.S_POLICY, k)
        put(st, 0, MARS, BAR)
        st["res"][WOOLONGS] = 0
        log = do_action(state, cards, 0, S.A_INTERACT)
        assert abilities_used(state, log) == [] and st["used"][MARS, BAR]


def test_charming_once_per_shop_or_spaceport():
    gained = set()
    for k in POLICY_SEEDS:
        state, cards, rules = new_state(characters="faye,jet")
        st = state[0]
        reseed(st, S.S_POLICY, k)
        put(st, 0, MARS, SPACEPORT)
        st["res"][:] = (5, 5, 1)
        log = do_action(state, cards, 0, S.A_INTERACT)
        (buy,) = log_rows(state, log, S.LOG_BUY)
        bought = buy[3]
        used = abilities_used(state, log)
        assert len(used) <= 1
        extra = (res(st)[0] - 5, res(st)[1] - 5 - bought)
        if used:
            assert used == [(2, R.CHARMING)] and extra in ((1, 0), (0, 1))
            assert st["tab_n"][0] == 1
        else:
            assert extra == (0, 0)
        assert res(st)[2] == 1 - bought
        gained.add(extra)
    assert gained == {(0, 0), (1, 0), (0, 1)}


def test_net_dive_draws_two_keeps_one():
    kept = set()
    for k in POLICY_SEEDS[:16]:
        state, cards, rules = new_state(characters="ed,jet")
        st = state[0]
        reseed(st, S.S_POLICY, k)
        set_leads(st, sector=[VENUS])
        stack_leads(st, 2, [CITY, RUINS])
        action = (S.A_NET_DIVE, 0, 0, 2, 0)
        assert action in legal(state, cards, 0)
        log = do_action(state, cards, 0, *action)
        assert st["leads"][0].tolist() == [-1, -1]
        assert st["lead_disc"][0, : st["lead_disc_n"][0]].tolist() == [VENUS]
        keep = int(st["leads"][2, 0])
        assert keep in (CITY, RUINS) and st["leads"][2, 1] == -1
        assert st["lead_disc"][2, : st["lead_disc_n"][2]].tolist() == [{CITY, RUINS}.difference({keep}).pop()]
        assert abilities_used(state, log) == [(3, R.NET_DIVE)]
        assert tableau_of(st, 0) == [skill_card(st, 0, "hacking")]
        assert check_invariants(state, cards, rules) == []
        kept.add(keep)
    assert kept == {CITY, RUINS}


def _ed_event(k, event, hand, food=5):
    state, cards, rules = new_state(characters="ed,spike", vicious=8)
    st = state[0]
    reseed(st, S.S_POLICY, k)
    st["res"][FOOD] = food
    set_hand(st, 0, hand)
    take_ein(st, 1)
    stack_events(st, [event], strict=True)
    return state, cards, rules


def test_feral_child_skips_one_food_once_per_event():
    # What's in the Fridge: spend_food; discard combat 1 + discard_random 1 OR spend food 1.
    # Ed has no Combat, so the Food option is forced: 2 Food, or 1 with Feral Child (never 0).
    branches = set()
    fridge = event_id("What's in the Fridge")
    for k in POLICY_SEEDS:
        state, cards, rules = _ed_event(k, fridge, [2, 4])      # investigation, hacking|investigation
        st = state[0]
        log = event_phase(state, cards)
        used = abilities_used(state, log)
        assert used in ([], [(3, R.FERAL_CHILD)])
        assert res(st)[FOOD] == (4 if used else 3)
        assert st["tab_n"][0] == 6 + (1 if used else 0)
        branches.add(bool(used))
    assert branches == {True, False}


def test_feral_child_works_on_vicious_events_but_never_on_jams():
    showdown = event_id("Cathedral Showdown")                   # Vicious: spend food 2
    seen = set()
    for k in POLICY_SEEDS[:24]:
        state, cards, rules = _ed_event(k, showdown, [2, 4])
        log = event_phase(state, cards)
        used = bool(abilities_used(state, log))
        assert res(state[0])[FOOD] == (4 if used else 3)
        seen.add(used)
        state, cards, rules = _ed_event(k, showdown, [2, 4])
        state[0]["feral_ready"] = True
        ok, log = resolve_jams(state, cards, 0, 1, False)
        assert abilities_used(state, log) == [] and res(state[0])[FOOD] == 3
    assert seen == {True, False}


def test_feral_child_is_eds_alone():
    for k in POLICY_SEEDS[:16]:
        state, cards, rules = _ed_event(k, event_id("What's in the Fridge"), [2, 4])
        st = state[0]
        st["seat"] = 1                                         # Spike draws the event
        set_hand(st, 1, [2, 3])                                # piloting, investigation: no Combat
        log = event_phase(state, cards)
        assert abilities_used(state, log) == [] and res(st)[FOOD] == 3


def test_remote_control_flies_the_bebop_from_anywhere():
    state, cards, rules = new_state(characters="ed,spike,jet")
    st = state[0]
    put(st, 0, EARTH, BAR)                      # Ed is not aboard
    put(st, 2, MARS, SHOP)
    log = do_action(state, cards, 0, S.A_REMOTE_BEBOP, JOVIAN)
    assert st["bebop"] == JOVIAN and res(st) == [5, 5, 5]
    assert (st["sector"][1], st["place"][1]) == (JOVIAN, BEBOP)      # Spike rode along
    assert (st["sector"][2], st["place"][2]) == (MARS, SHOP)
    assert (st["sector"][0], st["place"][0]) == (EARTH, BAR)
    assert tableau_of(st, 0) == [skill_card(st, 0, "piloting")]
    assert abilities_used(state, log) == [(3, R.REMOTE_CONTROL)]
    assert check_invariants(state, cards, rules) == []


def test_remote_control_moves_a_zip_craft_with_its_pilot_or_empty():
    state, cards, rules = new_state(characters="ed,spike,jet")
    st = state[0]
    put(st, 1, MARS, CONTACT, in_zip=True)      # Spike flying his zip craft
    acts = legal(state, cards, 0)
    assert (S.A_REMOTE_ZIP, 1, EARTH, BAR, 0) in acts and (S.A_REMOTE_ZIP, 2, VENUS, SHOP, 0) in acts
    assert not any(a[0] == S.A_REMOTE_ZIP and a[1] == 0 for a in acts)   # Ed has no zip craft
    do_action(state, cards, 0, S.A_REMOTE_ZIP, 1, EARTH, BAR)
    assert (st["sector"][1], st["place"][1], st["zip_sector"][1], st["zip_place"][1]) == (EARTH, BAR, EARTH, BAR)
    assert res(st) == [5, 5, 5]
    do_action(state, cards, 0, S.A_REMOTE_ZIP, 2, VENUS, SHOP)   # Jet's empty zip craft leaves the hangar
    assert (st["zip_sector"][2], st["zip_place"][2]) == (VENUS, SHOP)
    assert (st["sector"][2], st["place"][2]) == (MARS, BEBOP)
    assert st["tab_n"][0] == 2
    assert check_invariants(state, cards, rules) == []


def test_abilities_need_their_icon():
    state, cards, rules = new_state(characters="ed,jet")
    st = state[0]
    take_ein(st, 1)
    set_hand(st, 0, [0, 1, 2])                  # hacking, hacking, investigation: no Piloting
    kinds = legal_kinds(state, cards, 0)
    assert S.A_REMOTE_BEBOP not in kinds and S.A_REMOTE_ZIP not in kinds
    set_hand(st, 1, [2, 3, 7])                  # investigation, hacking, inv+inv: no Combat, no Piloting
    kinds = legal_kinds(state, cards, 1)
    assert S.A_LEAN_TIMES not in kinds and S.A_EFFICIENT_PILOT not in kinds

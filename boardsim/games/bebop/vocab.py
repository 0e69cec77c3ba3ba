"""Names and integer codes shared by the Bebop card loader and the rules kernel.

Plain Python (no numba): every index used in the card arrays is the position of a name in one of
these tuples. The kernel hard-codes meanings by these positions, so the order is part of the
contract and must not change.
"""
from __future__ import annotations

SKILLS = ("combat", "hacking", "investigation", "piloting")          # index 0..3
RESOURCES = ("food", "fuel", "woolongs")                              # woolongs counted in thousands
SECTORS = ("venus", "earth", "mars", "belt", "jovian")
LOCATIONS = ("bar", "contact", "shop", "spaceport")
LEAD_TYPES = ("sector", "location", "terrain")
CHARACTERS = ("spike", "jet", "faye", "ed")
TOP_LINES = ("none", "spend_food", "bounties_move")                   # event top line codes 0,1,2

# effect op codes
OP_NONE, OP_SPEND, OP_GAIN, OP_DISCARD_SKILL, OP_DISCARD_RANDOM, OP_DISCARD_LEADS, OP_DRAW_LEADS, \
    OP_REPLACE_LEADS, OP_BOUNTIES_MOVE, OP_BOUNTIES_BACK, OP_REST, OP_NO_INTERACT, OP_LOSE_ACTIONS = range(13)
OP_NAMES = ("none", "spend", "gain", "discard", "discard_random", "discard_leads", "draw_leads",
            "replace_leads", "bounties_move", "bounties_back", "rest", "no_interact", "lose_actions")

MAX_OPTIONS = 2
MAX_EFFECTS = 4      # effects per option

ABILITIES = {  # per character, fixed order (the kernel hard-codes their meaning by (character, index))
    "spike": ("determined", "keen_eye", "one_with_the_swordfish"),
    "jet": ("lean_times", "well_connected", "efficient_pilot"),
    "faye": ("persuasive", "big_spender", "charming"),
    "ed": ("net_dive", "feral_child", "remote_control"),
}

# ---- derived helpers (convenience only; the tuples above are the contract) ----
SKILL_INDEX = {name: i for i, name in enumerate(SKILLS)}
RESOURCE_INDEX = {name: i for i, name in enumerate(RESOURCES)}
SECTOR_INDEX = {name: i for i, name in enumerate(SECTORS)}
LOCATION_INDEX = {name: i for i, name in enumerate(LOCATIONS)}
LEAD_TYPE_INDEX = {name: i for i, name in enumerate(LEAD_TYPES)}
CHARACTER_INDEX = {name: i for i, name in enumerate(CHARACTERS)}
TOP_LINE_INDEX = {name: i for i, name in enumerate(TOP_LINES)}
OP_INDEX = {name: i for i, name in enumerate(OP_NAMES)}

# What each op's written argument is: "resource", "skill" or None (no argument), and whether it
# takes a count N (1..9, default 1 when omitted).
OP_ARG_KIND = {
    "spend": "resource",
    "gain": "resource",
    "discard": "skill",
    "discard_random": None,
    "discard_leads": None,
    "draw_leads": None,
    "replace_leads": None,
    "bounties_move": None,
    "bounties_back": None,
    "rest": None,
    "no_interact": None,
    "lose_actions": None,
}
OP_TAKES_N = {name: name != "no_interact" for name in OP_ARG_KIND}
N_MIN, N_MAX = 1, 9

# Ops that are requirements the resolving character must be able to meet for an option to be
# choosable (the rest are outcomes that always happen).
COST_OPS = frozenset({OP_SPEND, OP_DISCARD_SKILL, OP_DISCARD_RANDOM, OP_DISCARD_LEADS, OP_REPLACE_LEADS})

"""Decode a traced game's event log (int rows written by rules_nb.log_row) into readable lines."""
from __future__ import annotations

import numpy as np

from .cards import describe_effect
from .state_nb import (
    A_CHASE, A_EFFICIENT_PILOT, A_ENTER_ZIP, A_EXIT_ZIP, A_FLY_BEBOP, A_INTERACT, A_KEEN_EYE,
    A_LEAN_TIMES, A_MOVE, A_NET_DIVE, A_PASS, A_REMOTE_BEBOP, A_REMOTE_ZIP, A_REST, A_SESSION,
    A_ZIP_FLY, BEBOP, LOG_ABILITY, LOG_ACTION, LOG_BUY, LOG_CONTACT, LOG_END, LOG_ESCAPE, LOG_EVENT,
    LOG_JAM, LOG_LEAD, LOG_OPTION, LOG_POS, LOG_RES, LOG_RESULT, LOG_TURN, OUTCOME_NAMES,
)
from .vocab import LOCATIONS, RESOURCES, SECTORS, SKILLS, TOP_LINES

_SECTOR_TITLES = {"venus": "Venus", "earth": "Earth", "mars": "Mars", "belt": "The Belt", "jovian": "Jovian"}


def _place(sector: int, place: int) -> str:
    if place == BEBOP:
        return "the Bebop"
    return f"{_SECTOR_TITLES[SECTORS[sector]]} {LOCATIONS[place]}"


def _effects(rows: np.ndarray) -> str:
    parts = [describe_effect(row) for row in rows if row[0] != 0]
    return ", ".join(parts) if parts else "nothing"


def describe_game(log: np.ndarray, cards, rules) -> list[str]:
    """One line per logged event, grouped by turn."""
    team = list(rules["characters"])
    lines: list[str] = []
    last_event = -1
    last_contact = -1
    action_line = 0

    def who(seat: int) -> str:
        return team[seat].capitalize() if 0 <= seat < len(team) else "?"

    def lead_name(t: int, v: int) -> str:
        if t == 0:
            return _SECTOR_TITLES[SECTORS[v]]
        if t == 1:
            return LOCATIONS[v]
        return cards.terrain_names[v]

    for code, seat, a, b, c, d in log.tolist():
        if code == LOG_TURN:
            lines.append(f"-- turn {a}: {who(seat)}")
        elif code == LOG_EVENT:
            last_event = a
            name = cards.event_names[a]
            if cards.event_vicious[a]:
                lines.append(f"  event: {name} (VICIOUS: {_effects(cards.event_effects[a, 0])})")
            else:
                lines.append(f"  event: {name} (top line: {TOP_LINES[cards.event_top[a]].replace('_', ' ')})")
        elif code == LOG_OPTION:
            is_contact = b == 1
            if a < 0:
                lines.append("    no option affordable: " + ("contact discarded" if is_contact else "spend 1 Food"))
            else:
                effects = cards.contact_effects[last_contact, a] if is_contact else cards.event_effects[last_event, a]
                lines.append(f"    option {a + 1}: {_effects(effects)}")
        elif code == LOG_CONTACT:
            last_contact = a
            lines.append(f"    contact{' (second, Well-Connected)' if b else ''}: {cards.contact_names[a]}")
        elif code == LOG_ACTION:
            action_line = len(lines)
            lines.append("  " + _action(who(seat), a, b, c, d, team, cards))
        elif code == LOG_POS:
            # where the actor stands after the action, appended to the action's own line
            where = f"aboard the Bebop at {_SECTOR_TITLES[SECTORS[d]]}" if b == BEBOP else _place(a, b)
            lines[action_line] += f"  [{where}{', in zip craft' if c else ''}]"
        elif code == LOG_JAM:
            if cards.event_vicious[a]:
                lines.append(f"    jam: {cards.event_names[a]} (VICIOUS: {_effects(cards.event_effects[a, 0])})")
            else:
                lines.append(f"    jam: {SKILLS[cards.event_jam[a]]} ({cards.event_names[a]})")
        elif code == LOG_RESULT:
            ok = "succeeded" if c else "failed"
            if a == 0:
                lines.append(f"    session part {'I' if b == 0 else 'II'} {ok}")
            else:
                lines.append(f"    chase of {cards.bounty_names[b]} {ok}")
        elif code == LOG_ABILITY:
            lines.append(f"    ability: {cards.ability_names[a][b]} ({who(seat)})")
        elif code == LOG_LEAD:
            lines.append(f"    lead gained: {lead_name(a, b)}")
        elif code == LOG_ESCAPE:
            lines.append(f"    bounty escaped: {cards.bounty_names[a]}")
        elif code == LOG_BUY:
            lines.append(f"    bought {b} {RESOURCES[a]}")
        elif code == LOG_RES:
            lines.append(f"  resources: food {a}, fuel {b}, woolongs {c}")
        elif code == LOG_END:
            lines.append(f"== game over after {b} turns: {OUTCOME_NAMES[a]}")
    return lines


def _action(name: str, kind: int, a: int, b: int, c: int, team: list[str], cards) -> str:
    if kind == A_PASS:
        return f"{name} ends the action phase"
    if kind == A_MOVE:
        return f"{name} moves to {'the Bebop' if a == BEBOP else LOCATIONS[a]}"
    if kind == A_FLY_BEBOP:
        return f"{name} flies the Bebop to {_SECTOR_TITLES[SECTORS[a]]} (1 Fuel)"
    if kind == A_ENTER_ZIP:
        return f"{name} enters the zip craft"
    if kind == A_EXIT_ZIP:
        return f"{name} exits the zip craft"
    if kind == A_ZIP_FLY:
        how = "discarding Piloting" if c == 1 else "1 Fuel"
        return f"{name} flies the zip craft to {_place(a, b)} ({how}, free action)"
    if kind == A_INTERACT:
        return f"{name} interacts"
    if kind == A_REST:
        return f"{name} rests"
    if kind == A_SESSION:
        return f"{name} attempts a Session"
    if kind == A_CHASE:
        return f"{name} chases the bounty in track slot {a + 1}"
    if kind == A_KEEN_EYE:
        return f"{name} uses Keen Eye"
    if kind == A_LEAN_TIMES:
        return f"{name} uses Lean Times: 1 {RESOURCES[a]} for 1 {RESOURCES[b]}"
    if kind == A_EFFICIENT_PILOT:
        extra = f", taking {team[b].capitalize()} along" if b >= 0 else ""
        return f"{name} flies the Bebop to {_SECTOR_TITLES[SECTORS[a]]} with Efficient Pilot{extra}"
    if kind == A_NET_DIVE:
        return f"{name} uses Net Dive on the {('sector', 'location', 'terrain')[c]} deck"
    if kind == A_REMOTE_BEBOP:
        return f"{name} flies the Bebop to {_SECTOR_TITLES[SECTORS[a]]} by Remote Control"
    if kind == A_REMOTE_ZIP:
        return f"{name} moves {team[a].capitalize()}'s zip craft to {_place(b, c)} by Remote Control"
    return f"{name} does action {kind}"

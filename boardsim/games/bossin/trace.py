"""Decode a traced Bossin' Space game's event log (rows written by rules_nb.log_row) into lines."""
from __future__ import annotations

import numpy as np

from .state_nb import (
    CMD_NAMES, C_FREEMOVE, C_ROCKET, C_SHOOT, C_DSHOT, C_TELEPORT, C_TRACTOR, CREW_NAMES, EFFECT_NAMES, LOG_ATTACK,
    LOG_BOSS, LOG_BOSS_FX, LOG_BREAK, LOG_CMD, LOG_COOL, LOG_CREW, LOG_DAMAGE, LOG_EFFECT, LOG_END, LOG_HAZARD,
    LOG_KILL, LOG_MOVE_ENEMY, LOG_NEW, LOG_PLAY, LOG_REFRESH, LOG_ROUND, LOG_SKIP, LOG_STATUS, LOG_UPGRADE,
    OUTCOME_NAMES, PHANTOM, UPGRADE_NAMES,
)


def _cmd(kind: int, a: int, b: int) -> str:
    name = CMD_NAMES[kind].replace("_", " ")
    if kind == C_TRACTOR:
        target = "the Boss" if a == 12 else f"column {a // 3 + 1} card {a % 3 + 1}"
        return f"{name} on {target} {'left' if b < 0 else 'right'}"
    if kind == C_ROCKET:
        cols = []
        for c in range(4):
            cols += [str(c + 1)] * (a % 5)
            a //= 5
        return f"{name} at column{'s' if len(cols) != 1 else ''} {','.join(cols) or '-'}"
    if kind in (C_SHOOT, C_DSHOT) and a != 0:
        return f"{name} into the {'left' if a < 0 else 'right'} column"
    if kind == C_TELEPORT:
        return f"{name} to column {a + 1}"
    if kind == C_FREEMOVE:
        return f"{name} {'left' if a < 0 else 'right'}"
    if a == 1 and "move" in name:
        return f"{name}, reversed by the Pilot"
    return name


def describe_game(log: np.ndarray, cards, rules) -> list[str]:
    lines: list[str] = []

    def enemy(e: int) -> str:
        return "an unseen enemy" if e == PHANTOM else cards.enemy_names[e]

    for code, seat, a, b, c, d in log.tolist():
        if code == LOG_ROUND:
            lines.append(f"-- round {a} (captain: seat {seat + 1})")
        elif code == LOG_HAZARD:
            lines.append(f"  hazard {a + 1}: {cards.hazard_labels[b]}")
        elif code == LOG_REFRESH:
            lines.append(f"  captain (seat {seat + 1}) refreshes the hand")
        elif code == LOG_PLAY:
            lines.append(f"  seat {seat + 1} plays a card face down ({CMD_NAMES[a].replace('_', ' ')})")
        elif code == LOG_CMD:
            lines.append(f"  column {b + 1}: {_cmd(a, c, d)}")
        elif code == LOG_COOL:
            lines.append(f"  column {b + 1}: {CMD_NAMES[a].replace('_', ' ')} turned face down to cool (heat {c})")
        elif code == LOG_SKIP:
            lines.append(f"  column {b + 1}: {CMD_NAMES[a].replace('_', ' ')} skipped by the Boss's EMP")
        elif code == LOG_NEW:
            if a < 0:
                lines.append(f"    no enemies left to add: the Boss figure blocks row {'ABC'[min(b, 3) - 1]}")
            else:
                lines.append(f"    {'summoned' if seat else 'new enemy'}: {enemy(a)} in column {b + 1}")
        elif code == LOG_ATTACK:
            lines.append(f"    attack in column {a + 1}: strength {b}")
        elif code == LOG_DAMAGE:
            lines.append(f"    ship takes {a} damage (health {b})")
        elif code == LOG_KILL:
            lines.append(f"    destroyed {enemy(a)} in column {b + 1} (+{c} XP)")
        elif code == LOG_BREAK:
            lines.append(f"    {enemy(a)} breaks the line in column {b + 1} (attack {c})")
        elif code == LOG_MOVE_ENEMY:
            lines.append(f"    {enemy(a)} moves from column {b + 1} to {c + 1}")
        elif code == LOG_EFFECT:
            lines.append(f"    {enemy(a)} activates: {EFFECT_NAMES[b].replace('_', ' ')}")
        elif code == LOG_UPGRADE:
            lines.append(f"    upgrade: {UPGRADE_NAMES[a]} level {b}")
        elif code == LOG_CREW:
            lines.append(f"    crew ability: {CREW_NAMES[a]} (seat {seat + 1})")
        elif code == LOG_BOSS:
            if seat == 0:
                lines.append(f"    the Boss card is revealed: {cards.boss_names[b]}")
            elif seat == 1:
                lines.append(f"    the Boss takes {a} damage (health {b})")
            else:
                lines.append(f"  the Boss {cards.boss_names[a]} enters in column {b + 1} with {c} health")
        elif code == LOG_BOSS_FX:
            lines.append(f"    Boss hazard: {EFFECT_NAMES[a].replace('_', ' ')} (Boss in column {b + 1})")
        elif code == LOG_STATUS:
            lines.append(f"  status: ship in column {seat + 1}, health {a}, heat {b}, XP {c}, Boss health {d}")
        elif code == LOG_END:
            lines.append(f"== game over after {b} turns: {OUTCOME_NAMES[a]}")
    return lines

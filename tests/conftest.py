"""Shared fixtures.

`coin_game`: a tiny numba-free fake game registered as "coin", with the same GameSpec interface and
result-frame shape as a real game, so the CLI and the generic machinery can be tested in
milliseconds. Game g of seed s is row g of a (games x flips) uniform draw from
numpy.random.default_rng(s): deterministic and independent of how many games are requested.
"""
from __future__ import annotations

import hashlib
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import boardsim
from boardsim import registry
from boardsim.errors import CardDataError
from boardsim.spec import Batch, GameSpec, ParamSpec

COIN_PLAYERS = ("alice", "bob", "carol")
DEFAULT_CARDS_HASH = "coin-default-cards-0001"
PROGRESS_CHUNK = 10_000


def _card_files(cards: str | None) -> list[Path]:
    if cards is None:
        return []
    return sorted(p for p in Path(cards).iterdir() if p.is_file() and p.suffix == ".toml")


def coin_validate_cards(cards: str) -> list[str]:
    return [
        f"{path}: line 1: unknown effect 'explode'"
        for path in _card_files(cards) if path.name == "bad.toml"
    ]


def coin_load_cards(cards: str | None = None) -> SimpleNamespace:
    problems = coin_validate_cards(cards) if cards is not None else []
    if problems:
        raise CardDataError(problems[0])
    if cards is None:
        return SimpleNamespace(data_hash=DEFAULT_CARDS_HASH, reconstructed=True)
    digest = hashlib.sha256()
    for path in _card_files(cards):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return SimpleNamespace(data_hash=digest.hexdigest()[:16], reconstructed=False)


def _flips(seed: int, n_games: int, flips: int) -> np.ndarray:
    return np.random.default_rng(seed).random((n_games, flips))


def _play(u: np.ndarray, bias: int, team: tuple[str, ...]):
    """Three heads in a row wins, three tails in a row busts, else the turn cap is reached."""
    n_games, flips = u.shape
    heads = u < min(0.99, bias / 100 + 0.05 * (len(team) - 1))
    outcome = np.full(n_games, "turn_cap", dtype=object)
    turns = np.full(n_games, flips, dtype=np.int16)
    done = np.zeros(n_games, dtype=bool)
    run_h = np.zeros(n_games, dtype=np.int8)
    run_t = np.zeros(n_games, dtype=np.int8)
    for i in range(flips):
        run_h = np.where(heads[:, i], run_h + 1, 0)
        run_t = np.where(heads[:, i], 0, run_t + 1)
        for label, run in (("win", run_h), ("bust", run_t)):
            hit = (run >= 3) & ~done
            outcome[hit] = label
            turns[hit] = i + 1
            done |= hit
    heads_seen = np.array([heads[g, : turns[g]].sum() for g in range(n_games)], dtype=np.int16)
    return outcome, turns, heads_seen, heads


def coin_simulate(rules, n, seed, policy, cards, threads, progress):
    start = time.perf_counter()
    card_set = coin_load_cards(cards)
    team = tuple(rules["characters"])
    frames = []
    u = _flips(seed, n, rules["flips"])
    for lo in range(0, n, PROGRESS_CHUNK):
        hi = min(n, lo + PROGRESS_CHUNK)
        outcome, turns, heads, _ = _play(u[lo:hi], rules["bias"], team)
        frames.append(pd.DataFrame({
            "seed": np.full(hi - lo, seed, dtype=np.int64),
            "game_index": np.arange(lo, hi, dtype=np.int64),
            "outcome": outcome.astype(str),
            "win": outcome == "win",
            "turns": turns,
            "heads": heads,
            "team_size": np.full(hi - lo, len(team), dtype=np.int8),
        }))
        if progress is not None:
            progress(hi - lo)
    df = pd.concat(frames, ignore_index=True)
    df.attrs["provenance"] = {
        "game": "coin",
        "game_version": "1",
        "package_version": boardsim.__version__,
        "seed": seed,
        "n": n,
        "policy": policy,
        "rules": dict(rules),
        "cards_hash": card_set.data_hash,
        "cards_reconstructed": card_set.reconstructed,
        "threads": threads or 1,
        "seconds": time.perf_counter() - start,
    }
    return df


def coin_trace(rules, seed, game_index, policy, cards):
    coin_load_cards(cards)
    team = tuple(rules["characters"])
    u = _flips(seed, game_index + 1, rules["flips"])[game_index:]
    outcome, turns, _, heads = _play(u, rules["bias"], team)
    lines = [f"coin game {game_index} of seed {seed}: team {','.join(team)}, policy {policy}"]
    for i in range(int(turns[0])):
        lines.append(f"flip {i + 1}: {'heads' if heads[0, i] else 'tails'}")
    lines.append(f"result: {outcome[0]} after {int(turns[0])} flips")
    return lines


COIN_OUTCOMES = ("win", "bust", "turn_cap")
COIN_OUT_DTYPE = np.dtype([("outcome", np.int8), ("turns", np.int16), ("heads", np.int16)])


def coin_kernel(bias, flips, team_size, seed, first, state, log, out):
    """The batch-kernel calling convention of a real game, in numpy: games first .. first+len(out)-1."""
    u = _flips(int(seed), int(first) + len(out), int(flips))[int(first):]
    outcome, turns, heads, _ = _play(u, int(bias), ("x",) * int(team_size))
    out["outcome"] = [COIN_OUTCOMES.index(o) for o in outcome]
    out["turns"] = turns
    out["heads"] = heads


def coin_prepare(rules, policy, cards):
    card_set = coin_load_cards(cards)
    identity = {"game": "coin", "game_version": "1", "code_hash": "coin-code",
                "rules": {k: (",".join(v) if isinstance(v, tuple) else v) for k, v in rules.items()},
                "policy": policy, "weights": {}, "cards_hash": card_set.data_hash}
    provenance = {"policy": policy, "package_version": boardsim.__version__,
                  "cards_reconstructed": card_set.reconstructed}
    args = (np.int64(rules["bias"]), np.int64(rules["flips"]), np.int64(len(rules["characters"])))
    return Batch("conftest:coin_kernel", args, np.dtype([("x", np.int8)]), COIN_OUT_DTYPE, identity, provenance)


def coin_frame(rows, seed, first_index):
    outcome = np.array(COIN_OUTCOMES)[rows["outcome"]]
    return pd.DataFrame({
        "seed": np.full(len(rows), seed, dtype=np.int64),
        "game_index": np.arange(first_index, first_index + len(rows), dtype=np.int64),
        "outcome": outcome.astype(str),
        "win": outcome == "win",
        "turns": rows["turns"],
        "heads": rows["heads"],
    })


COIN = GameSpec(
    name="coin",
    title="Coin Streaks",
    description="Flip until three heads (win) or three tails (bust) in a row.",
    version="1",
    params=(
        ParamSpec("flips", "int", 12, "Turn cap: flips before the game ends undecided.", low=3, high=40),
        ParamSpec("bias", "int", 50, "Chance of heads, in percent.", low=0, high=100),
        ParamSpec("characters", "team", ("alice",), "Who flips; each extra player adds 5% heads.",
                  low=1, high=2, choices=COIN_PLAYERS),
    ),
    presets={
        "fair": {},
        "rigged": {"bias": 80, "characters": "alice,bob"},
        "short": {"flips": 4},
    },
    default_preset="fair",
    policies=("random", "heuristic"),
    simulate=coin_simulate,
    trace=coin_trace,
    load_cards=coin_load_cards,
    validate_cards=coin_validate_cards,
    prepare=coin_prepare,
    frame=coin_frame,
)


@pytest.fixture
def coin_game(monkeypatch) -> GameSpec:
    """Register the fake "coin" game as the only game (the real games are not imported)."""
    monkeypatch.setattr(registry, "GAME_MODULES", {})
    monkeypatch.setattr(registry, "_loaded", {})
    registry.register(COIN)
    return COIN


@pytest.fixture
def card_dirs(tmp_path) -> SimpleNamespace:
    good = tmp_path / "good"
    good.mkdir()
    (good / "bounties.toml").write_text('[[bounty]]\nname = "Asimov"\n')
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "bad.toml").write_text('[[event]]\neffect = "explode"\n')
    (bad / "fine.toml").write_text("")
    return SimpleNamespace(good=str(good), bad=str(bad))


# ------------------------------------------------------------------------------------------ ladder
# A fake game with a known response: game g wins when its uniform draw u_g is below rate(level).
# Every level sees the same draws, so rates are paired exactly as a real game's are under common
# random numbers. shape 0: rate = level / 10 (monotone); shape 1: up to level 4, then back down.


def ladder_rate(level: int, shape: int) -> float:
    return level / 10 if shape == 0 or level <= 4 else (8 - level) / 10


def ladder_kernel(level, shape, seed, first, state, log, out):
    u = np.random.default_rng(int(seed)).random(int(first) + len(out))[int(first):]
    won = u < ladder_rate(int(level), int(shape))
    out["outcome"] = np.where(won, 0, 1)
    out["turns"] = 1 + (u * 10).astype(np.int16)


def ladder_prepare(rules, policy, cards, weights=None):
    identity = {"game": "ladder", "game_version": "1", "code_hash": "ladder", "rules": dict(rules),
                "policy": policy, "weights": dict(weights or {}), "cards_hash": "none"}
    return Batch("conftest:ladder_kernel", (np.int64(rules["level"]), np.int64(rules["shape"])),
                 np.dtype([("x", np.int8)]), np.dtype([("outcome", np.int8), ("turns", np.int16)]),
                 identity, {"policy": policy})


def ladder_frame(rows, seed, first_index):
    return pd.DataFrame({
        "seed": np.full(len(rows), seed, dtype=np.int64),
        "game_index": np.arange(first_index, first_index + len(rows), dtype=np.int64),
        "outcome": np.where(rows["outcome"] == 0, "win", "loss"),
        "win": rows["outcome"] == 0,
        "turns": rows["turns"],
    })


LADDER = GameSpec(
    name="ladder", title="Ladder", description="Wins with probability level/10.", version="1",
    params=(ParamSpec("level", "int", 5, "win rate in tenths", 0, 10),
            ParamSpec("shape", "int", 0, "0 monotone, 1 rises to level 4 then falls", 0, 1)),
    presets={"default": {}}, default_preset="default", policies=("random", "heuristic"),
    simulate=None, trace=None, load_cards=None, validate_cards=None,
    prepare=ladder_prepare, frame=ladder_frame,
)


@pytest.fixture
def ladder_game(monkeypatch) -> GameSpec:
    monkeypatch.setattr(registry, "GAME_MODULES", {})
    monkeypatch.setattr(registry, "_loaded", {})
    registry.register(LADDER)
    return LADDER

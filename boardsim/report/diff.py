"""Before/after balance comparison of two result stores (two card-data, rule or code versions).

Points are matched on what a designer set (game, rules, policy and weights), not on the card-data
or code hash that differ between the versions. Where both stores played the same seed and game
indices, the games are paired (common random numbers: the same deals under the old and new cards)
and compared with Newcombe's paired interval and the exact McNemar test; otherwise as two
independent samples.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pandas as pd

import boardsim

from .. import stats
from ..errors import BoardsimError
from ..registry import get_game
from ..store import ResultStore
from . import figures
from .build import ALPHA, interval, p_text, pct, points_diff
from .data import GameRows
from .render import Figure, Finding, Section, Table, write


def _match_key(point: dict[str, Any], ignore: tuple[str, ...]) -> str:
    ident = point["identity"]
    rules = {k: v for k, v in ident["rules"].items() if k not in ignore}
    return json.dumps([ident["game"], rules, ident["policy"], ident.get("weights", {})], sort_keys=True)


def _finished_points(store: ResultStore, rows: GameRows, ignore: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for point in store.points():
        if rows.point(point["key"]).empty:
            continue
        key = _match_key(point, ignore)
        if key in out:
            raise BoardsimError(f"{store.path}: two rule settings differ only in {', '.join(ignore)}; "
                                "a diff with --ignore needs one setting per remaining rule combination")
        out[key] = point
    return out


def diff_report(path_a: str | Path, path_b: str | Path, out_dir: str | Path, label_a: str = "before",
                label_b: str = "after", seed: int | None = None, ignore: tuple[str, ...] = ()) -> pd.DataFrame:
    """Write a before/after report to `out_dir`; returns the table of differences (B - A).

    `ignore` names rule parameters left out of the matching, so a store played with one value
    (say vicious=6) can be compared with one played with another (a rule change as a version)."""
    started = time.perf_counter()
    store_a, store_b = ResultStore(path_a, create=False), ResultStore(path_b, create=False)
    rows_a, rows_b = GameRows(store_a, seed), GameRows(store_b, seed)
    ignore = tuple(ignore)
    points_a, points_b = _finished_points(store_a, rows_a, ignore), _finished_points(store_b, rows_b, ignore)
    common = [k for k in points_a if k in points_b]
    if not common:
        raise BoardsimError(f"{path_a} and {path_b}: no rule setting was played in both stores; "
                            "a diff compares the same rules and policy under two card-data or code versions")
    games = {points_a[k]["identity"]["game"] for k in common}
    spec = get_game(games.pop()) if len(games) == 1 else None
    rules = pd.DataFrame([json.loads(k)[1] | {"policy": json.loads(k)[2]} for k in common])
    varying = [c for c in rules.columns if rules[c].astype(str).nunique() > 1]
    records = []
    for i, key in enumerate(common):
        a, b = points_a[key], points_b[key]
        games_a, games_b = rows_a.point(a["key"]), rows_b.point(b["key"])
        both = games_a[["seed", "game_index", "win"]].merge(games_b[["seed", "game_index", "win"]],
                                                            on=["seed", "game_index"], suffixes=("_a", "_b"))
        if len(both):
            cmp = stats.paired_difference(both["win_b"].to_numpy(bool), both["win_a"].to_numpy(bool))
            design = "paired"
        else:
            cmp = stats.independent_difference(int(games_b["win"].sum()), len(games_b), int(games_a["win"].sum()), len(games_a))
            design = "independent"
        label = " · ".join(f"{c.replace('_', ' ')} {rules.iloc[i][c]}" for c in varying) or "all games"
        records.append({"point": label, "design": design, "games": cmp.n, f"{label_a}": cmp.rate_b, f"{label_b}": cmp.rate_a,
                        "diff": cmp.diff, "diff_low": cmp.low, "diff_high": cmp.high, "p_value": cmp.p_value,
                        "only_before_won": cmp.only_b, "only_after_won": cmp.only_a,
                        "key_a": a["key"], "key_b": b["key"]})
    table = pd.DataFrame(records)
    table["p_holm"] = stats.holm(table["p_value"].to_numpy())

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sections = []
    findings = []
    for row in table.itertuples(index=False):
        body = (f"{pct(getattr(row, label_a))} -> {pct(getattr(row, label_b))}, difference {points_diff(row.diff)}, "
                f"95% CI {interval(row.diff_low, row.diff_high)} pt ({row.design}, {row.games:,} games; "
                f"{'McNemar' if row.design == 'paired' else 'z-test'} Holm {p_text(row.p_holm)})")
        if row.p_holm < ALPHA:
            findings.append(Finding(f"{row.point}: {'easier' if row.diff > 0 else 'harder'} in {label_b}: {body}.", True))
        else:
            findings.append(Finding(f"{row.point}: no significant change: {body}."))
    section = Section("findings", "Findings")
    section.text(f"Win rate in {label_b} minus {label_a}, for every rule setting played in both stores.")
    section.findings([f for f in findings if f.flag] + [f for f in findings if not f.flag])
    sections.append(section)

    section = Section("differences", "Differences")
    fig = figures.difference_dots(list(table["point"]), table["diff"].to_numpy(), table["diff_low"].to_numpy(),
                                  table["diff_high"].to_numpy(), f"win rate {label_b} - {label_a} (percentage points), 95% CI")
    png = figures.save(fig, out / "figures", "differences")
    section.figure(Figure("differences", f"Change in win rate from {label_a} to {label_b}, with 95% CIs.", png))
    shown = pd.DataFrame({
        "point": table["point"], "design": table["design"], "games": table["games"].map(lambda v: f"{v:,}"),
        label_a: table[label_a].map(pct), label_b: table[label_b].map(pct), "difference": table["diff"].map(points_diff),
        "95% CI (pt)": [interval(a, b) for a, b in zip(table["diff_low"], table["diff_high"])],
        "p (Holm)": table["p_holm"].map(p_text)})
    section.table(Table(shown, f"Win rate {label_a} vs {label_b}"))
    sections.append(section)

    def version_of(points: dict[str, dict[str, Any]], field: str) -> str:
        return ", ".join(sorted({str(p["identity"].get(field)) for k, p in points.items() if k in common}))

    section = Section("provenance", "What changed, and provenance")
    items = [("stores", f"{label_a}: {path_a}; {label_b}: {path_b}"),
             (f"card data {label_a}", version_of(points_a, "cards_hash")), (f"card data {label_b}", version_of(points_b, "cards_hash")),
             (f"kernel code {label_a}", version_of(points_a, "code_hash")), (f"kernel code {label_b}", version_of(points_b, "code_hash")),
             ("matched ignoring", ", ".join(ignore) or "nothing (same rules, policy and weights)"),
             ("only in " + label_a, str(len([k for k in points_a if k not in points_b])) + " rule settings"),
             ("only in " + label_b, str(len([k for k in points_b if k not in points_a])) + " rule settings"),
             ("boardsim version", boardsim.__version__),
             ("report built", time.strftime("%Y-%m-%d %H:%M:%S %Z") + f" in {time.perf_counter() - started:.0f} s")]
    section.table(Table(pd.DataFrame(items, columns=["what", "value"])))
    sections.append(section)

    table.to_csv(out / "summary.csv", index=False)
    title = f"Balance diff: {label_a} vs {label_b}"
    write(out, title, f"{spec.title if spec else 'several games'}; paired on common games where seeds match.", sections)
    return table

"""Build a balance report from a result store: each section only where its data exist.

The first study is the headline: survival, loss causes, game length and trajectories show its
points. Findings are sentences computed from the same numbers, each naming the test behind it.
"""
from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import boardsim

from .. import stats
from ..errors import BoardsimError
from ..spec import GameSpec
from ..store import ResultStore
from . import figures
from .analysis import SECTIONS, read_run_log
from .data import GameRows, StudyData
from .render import Figure, Finding, Section, Table, write

MAX_PANELS = 12        # survival/length panels and loss bars shown for the headline study
MAX_HEATMAP_FACETS = 6
ALPHA = 0.05


# --------------------------------------------------------------------------------- formatting

def pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%"


def diff_digits(low: float, high: float) -> int:
    """One decimal of a percentage point, two when the interval is narrower than one point."""
    return 1 if 100 * (high - low) >= 1 else 2


def interval(low: float, high: float, digits: int = 1) -> str:
    return f"[{100 * low:.{digits}f}, {100 * high:.{digits}f}]"


def points_diff(x: float, digits: int = 1) -> str:
    return f"{100 * x:+.{digits}f} pt"


def p_text(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def study_display(study: StudyData) -> pd.DataFrame:
    """A study's table as designers read it (rates in %, intervals in brackets)."""
    t = study.table
    out = pd.DataFrame({axis.replace("_", " "): t[axis].astype(str) for axis in study.axes})
    out["games"] = t["games"].map(lambda v: f"{int(v):,}")
    out["win rate"] = t["win_rate"].map(pct)
    out["95% CI"] = [interval(a, b) for a, b in zip(t["win_low"], t["win_high"])]
    out["mean turns"] = [f"{m:.1f} [{a:.1f}, {b:.1f}]" for m, a, b in zip(t["turns_mean"], t["turns_low"], t["turns_high"])]
    return out


# ------------------------------------------------------------------------------------ context

@dataclass
class Context:
    spec: GameSpec
    store: ResultStore
    rows: GameRows
    studies: list[StudyData]
    out: Path
    seed: int | None
    target: tuple[float, float] | None = None
    preset_targets: dict[str, tuple[float, float]] = field(default_factory=dict)
    trace_games: int = 40
    trace_points: int = 4
    cards: str | None = None
    findings: list[Finding] = field(default_factory=list)
    identities: dict[str, dict[str, Any]] = field(default_factory=dict)

    def save(self, fig, name: str, caption: str) -> Figure:
        png = figures.save(fig, self.out / "figures", name)
        return Figure(name, caption, png)

    def rules(self, key: str) -> dict[str, Any]:
        raw = self.identities[key]["identity"]["rules"]
        return {p.name: p.parse(raw[p.name]) for p in self.spec.params if p.name in raw}

    @property
    def headline(self) -> StudyData:
        return self.studies[0]

    def headline_rows(self) -> pd.DataFrame:
        return self.headline.table.drop_duplicates("point").head(MAX_PANELS)

    def outcomes(self, keys: list[str]) -> list[str]:
        seen: dict[str, None] = {"win": None}
        for key in keys:
            games = self.rows.point(key)
            categories = games["outcome"].cat.categories if hasattr(games["outcome"], "cat") else games["outcome"].unique()
            seen.update(dict.fromkeys(str(c) for c in categories))
        return list(seen)


def _team_axes(ctx: Context, study: StudyData) -> list[str]:
    teams = {p.name for p in ctx.spec.params if p.kind == "team"}
    return [a for a in study.axes if a in teams]


def _groups(table: pd.DataFrame, by: list[str]):
    """(label, sub-table) per combination of `by`, in the table's order."""
    if not by:
        return [("", table)]
    out = []
    for key, group in table.groupby(by, sort=False):
        values = key if isinstance(key, tuple) else (key,)
        out.append((" · ".join(f"{b.replace('_', ' ')} {v}" for b, v in zip(by, values)), group))
    return out


def _paired(ctx: Context, key_new: str, key_old: str) -> stats.PairedDifference | None:
    wins_new, wins_old = ctx.rows.paired_wins(key_new, key_old)
    if len(wins_new) == 0:
        return None
    return stats.paired_difference(wins_new, wins_old)


def _diff_text(cmp: stats.PairedDifference, p_adjusted: float) -> str:
    d = diff_digits(cmp.low, cmp.high)
    return (f"{pct(cmp.rate_a, d)} vs {pct(cmp.rate_b, d)}, paired difference {points_diff(cmp.diff, d)}, "
            f"95% CI {interval(cmp.low, cmp.high, d)} pt, McNemar {p_text(p_adjusted)} (Holm) over {cmp.n:,} common games")


# ----------------------------------------------------------------------------------- sections

def section_presets(ctx: Context) -> Section | None:
    """Win rate per preset, and per value of a study's single integer axis (one series per
    combination of the other axes: a team, a policy)."""
    def x_axis(study: StudyData) -> str | None:
        if "preset" in study.axes:
            return "preset"
        if len(study.int_axes) == 1:
            return study.int_axes[0]
        # only categorical axes (a policy, say): the first one, unless it is a team the
        # character section ranks
        if not study.int_axes and study.axes and study.axes[0] not in _team_axes(ctx, study):
            return study.axes[0]
        return None

    studies = [s for s in ctx.studies if x_axis(s) is not None]
    if not studies:
        return None
    section = Section("presets", "Win rate per preset and rule setting")
    section.text("Each point is the share of games won with its 95% confidence interval (Wilson score; "
                 "Clopper-Pearson where counts are small). All points play the same deals (common random "
                 "numbers), so their differences are paired.")
    for study in studies:
        x = x_axis(study)
        others = [a for a in study.axes if a != x]
        section.heading(study.title)
        x_label = "preset (difficulty setting)" if x == "preset" else x.replace("_", " ")
        band = ctx.target if x == "preset" else None
        fig = figures.win_rate_by_category(study.table, x, others, band, ctx.preset_targets if x == "preset" else {},
                                           x_label, connect=x == "preset" or x in study.int_axes)
        shaded = f" Shaded: the target band {interval(*band)}%." if band else ""
        section.figure(ctx.save(fig, f"presets-{study.name}", f"Win rate per {x_label}, {study.title}.{shaded}"))
        section.table(Table(study_display(study), f"{study.title}: every point", collapsed=len(study.table) > 16))
    return section


def section_heatmap(ctx: Context) -> Section | None:
    studies = [s for s in ctx.studies if len(s.int_axes) >= 2]
    if not studies:
        return None
    section = Section("heatmap", "Win rate over two rule parameters")
    section.text("Each cell: the win rate (%) and, below it, the half-width of its 95% confidence interval "
                 "(percentage points).")
    for study in studies:
        rows_axis, cols_axis = study.int_axes[0], study.int_axes[1]
        others = [a for a in study.axes if a not in (rows_axis, cols_axis)]
        groups = _groups(study.table, others)
        if len(groups) > MAX_HEATMAP_FACETS:
            section.note(f"{len(groups)} combinations of {', '.join(others)}; the first {MAX_HEATMAP_FACETS} are shown.")
        section.heading(study.title)
        for i, (label, group) in enumerate(groups[:MAX_HEATMAP_FACETS]):
            rates = group.pivot_table(index=rows_axis, columns=cols_axis, values="win_rate", aggfunc="first")
            half = ((group["win_high"] - group["win_low"]) / 2).to_frame("hw").join(group[[rows_axis, cols_axis]])
            half = half.pivot_table(index=rows_axis, columns=cols_axis, values="hw", aggfunc="first")
            title = label or study.title
            fig = figures.heat_map(rates, half.reindex_like(rates), rows_axis.replace("_", " "),
                                   cols_axis.replace("_", " "), title)
            section.figure(ctx.save(fig, f"heatmap-{study.name}-{i + 1}",
                                    f"Win rate (%) by {rows_axis} and {cols_axis}" + (f", {label}" if label else "")
                                    + f"; {int(group['games'].min()):,}-{int(group['games'].max()):,} games per cell."))
        section.table(Table(study_display(study), f"{study.title}: every point", collapsed=True))
    return section


def _outcome_shares(games: pd.DataFrame, outcomes: list[str], horizon: int) -> pd.DataFrame:
    turns = games["turns"].to_numpy()
    outcome = games["outcome"].astype(str).to_numpy()
    grid = np.arange(0, horizon + 1)
    shares = {}
    n = len(turns)
    for name in outcomes:
        ended = np.sort(turns[outcome == name])
        shares[name] = np.searchsorted(ended, grid, side="right") / n
    shares["running"] = 1.0 - np.sum([shares[o] for o in outcomes], axis=0)
    return pd.DataFrame(shares, index=grid)


def section_survival(ctx: Context) -> Section | None:
    table = ctx.headline_rows()
    keys = list(table["point"])
    outcomes = ctx.outcomes(keys)
    horizon = int(max(np.percentile(ctx.rows.point(k)["turns"], 99.5) for k in keys))
    panels = [(ctx.headline.label(row), _outcome_shares(ctx.rows.point(row["point"]), outcomes, horizon))
              for _, row in table.iterrows()]
    section = Section("survival", "How games end, turn by turn")
    section.text("For every turn, the share of games already won, already lost (by cause) and still running; "
                 f"{ctx.headline.title}.")
    if len(ctx.headline.table["point"].unique()) > MAX_PANELS:
        section.note(f"The first {MAX_PANELS} points of the study are shown.")
    fig = figures.survival(panels, outcomes, "turn")
    section.figure(ctx.save(fig, "survival", f"Share of games by state at the end of each turn, {ctx.headline.title}."))
    return section


def section_losses(ctx: Context) -> Section | None:
    table = ctx.headline_rows()
    keys = list(table["point"])
    outcomes = ctx.outcomes(keys)
    losses = [o for o in outcomes if o != "win"]
    labels = [ctx.headline.label(row) for _, row in table.iterrows()]
    shares = pd.DataFrame([ctx.rows.point(k)["outcome"].astype(str).value_counts(normalize=True)
                           .reindex(outcomes, fill_value=0.0) for k in keys]).reset_index(drop=True)
    section = Section("losses", "Loss causes and near misses")
    fig = figures.outcome_bars(labels, shares, outcomes)
    section.figure(ctx.save(fig, "outcomes", f"How the games ended (%), {ctx.headline.title}."))
    rows = []
    curves = []
    goal_margin = next((m for m in ctx.spec.margins if m.goal is not None or m.remaining), None)
    for label, key in zip(labels, keys):
        games = ctx.rows.point(key)
        lost = games[~games["win"].to_numpy(bool)]
        row = {"point": label, "games": f"{len(games):,}", "lost": f"{len(lost):,}"}
        for name in losses:
            row[f"{name.replace('_', ' ')} (% of lost)"] = pct((lost["outcome"].astype(str) == name).mean()) if len(lost) else "-"
        for margin in ctx.spec.margins:
            if margin.column not in lost.columns or not len(lost):
                continue
            values = lost[margin.column].to_numpy(dtype=float)
            short = margin.shortfall(values, ctx.rules(key))
            if short is not None:
                row[f"one {margin.label.rstrip('s').lower()} short (% of lost)"] = pct(float(np.mean(short <= 1)))
                row[f"{margin.label} (median of lost)"] = f"{np.median(values):g}"
                if margin is goal_margin and len(curves) < 8:
                    counts = pd.Series(short).value_counts(normalize=True).sort_index()
                    curves.append((label, counts.reindex(range(max(0, int(short.min())), int(short.max()) + 1), fill_value=0.0)))
            else:
                mean, low, high = stats.mean_interval(values)
                row[f"{margin.label} (mean of lost)"] = f"{mean:.2f} [{low:.2f}, {high:.2f}]"
        rows.append(row)
    section.table(Table(pd.DataFrame(rows), "Lost games: causes and how close they came (intervals: 95% t)"))
    if curves and goal_margin is not None:
        fig = figures.shortfall_lines(curves, f"{goal_margin.label} still missing when the game was lost")
        section.figure(ctx.save(fig, "near-misses", f"Near misses: how many {goal_margin.label.lower()} lost games "
                                                    "still needed (1 = one short of winning)."))
    # findings: the main loss cause of the first point, and its near misses
    first = ctx.rows.point(keys[0])
    lost = first[~first["win"].to_numpy(bool)]
    if len(lost):
        causes = lost["outcome"].astype(str).value_counts(normalize=True)
        text = ", ".join(f"{pct(v)} {k.replace('_', ' ')}" for k, v in causes.items() if v > 0)
        ctx.findings.append(Finding(f"How games are lost at {labels[0]}: {text} of {len(lost):,} lost games."))
        if goal_margin is not None and goal_margin.column in lost.columns:
            short = goal_margin.shortfall(lost[goal_margin.column].to_numpy(dtype=float), ctx.rules(keys[0]))
            k = int(np.sum(short <= 1))
            share, low, high, _ = stats.rate_interval(k, len(lost))
            ctx.findings.append(Finding(
                f"Near misses at {labels[0]}: {pct(share)} of lost games {interval(low, high)}% "
                f"(Wilson 95% CI) were at most one {goal_margin.label.rstrip('s').lower()} short of winning."))
    return section


def _character_block(ctx: Context, section: Section, study: StudyData, team_axis: str, label: str,
                     group: pd.DataFrame, index: int) -> None:
    counts = pd.DataFrame({"team": group[team_axis].astype(str), "wins": group["wins"], "games": group["games"]})
    ranking = stats.team_ranking(counts)
    suffix = f" ({label})" if label else ""
    fig = figures.team_ranking(ranking)
    section.figure(ctx.save(fig, f"teams-{study.name}-{index}", f"Teams by win rate with 95% CIs{suffix}."))
    shown = pd.DataFrame({"rank": ranking["rank"], "team": ranking["team"], "size": ranking["size"],
                          "games": ranking["games"].map(lambda v: f"{v:,}"), "win rate": ranking["rate"].map(pct),
                          "95% CI": [interval(a, b) for a, b in zip(ranking["low"], ranking["high"])]})
    section.table(Table(shown, f"Team ranking{suffix}", collapsed=len(shown) > 12))
    if counts["team"].nunique() < 3:
        return
    model = stats.character_effects(counts)
    main = model.main.sort_values("coef", ascending=False, kind="stable").reset_index(drop=True)
    member = team_axis[:-1] if team_axis.endswith("s") else team_axis
    fig = figures.effects_forest(main, member)
    section.figure(ctx.save(fig, f"effects-{study.name}-{index}",
                            f"Main effects{suffix}: log-odds of winning relative to the average {member}."))
    section.table(Table(pd.DataFrame({
        member: main["character"], "effect (log-odds)": main["coef"].map(lambda v: f"{v:+.2f}"),
        "95% CI": [f"[{a:+.2f}, {b:+.2f}]" for a, b in zip(main["low"], main["high"])],
        "odds ratio": main["odds_ratio"].map(lambda v: f"{v:.2f}"), "p (Holm)": main["p_holm"].map(p_text),
        "teams": main["teams"]}), f"Main effects ({model.fit_method}){suffix}"))
    inter = model.interactions
    names = list(model.main["character"])
    if len(inter):
        matrix = pd.DataFrame(np.nan, index=names, columns=names)
        marks = pd.DataFrame(False, index=names, columns=names)
        for _, row in inter.iterrows():
            a, b = row["pair"].split("+")
            if row["estimable"]:
                matrix.loc[a, b] = matrix.loc[b, a] = row["coef"]
                marks.loc[a, b] = marks.loc[b, a] = bool(row["p_holm"] < ALPHA)
        if np.isfinite(matrix.to_numpy()).any():
            fig = figures.interaction_matrix(matrix, marks)
            section.figure(ctx.save(fig, f"interactions-{study.name}-{index}",
                                    f"Pair interactions{suffix} (log-odds beyond the two main effects; * Holm p < 0.05; "
                                    "blank: not estimable from these teams)."))
        section.table(Table(pd.DataFrame({
            "pair": inter["pair"], "interaction (log-odds)": inter["coef"].map(lambda v: "n/e" if math.isnan(v) else f"{v:+.2f}"),
            "95% CI": ["" if math.isnan(a) else f"[{a:+.2f}, {b:+.2f}]" for a, b in zip(inter["low"], inter["high"])],
            "p (Holm)": inter["p_holm"].map(lambda v: "" if math.isnan(v) else p_text(v))}),
            f"Pair interactions{suffix}", collapsed=True))
    for note in model.notes:
        section.note(f"Model note: {note}.")
    _character_findings(ctx, ranking, main, inter, suffix, member)


def _character_findings(ctx: Context, ranking: pd.DataFrame, main: pd.DataFrame, inter: pd.DataFrame, suffix: str,
                        member: str) -> None:
    best_by_size = {size: set(group.iloc[0]["team"].split("+")) for size, group in ranking.groupby("size")
                    if len(group) >= 2}
    for _, row in main.iterrows():
        name = row["character"]
        text = (f"{name}{suffix}: {row['coef']:+.2f} log-odds [{row['low']:+.2f}, {row['high']:+.2f}] vs the average "
                f"{member} (odds ratio {row['odds_ratio']:.2f}; Wald test, Holm {p_text(row['p_holm'])})")
        significant = row["p_holm"] < ALPHA
        in_best = [size for size, best in best_by_size.items() if name in best]
        strongest = row["coef"] == main["coef"].max()
        if significant and strongest and row["coef"] > 0 and best_by_size and len(in_best) == len(best_by_size):
            ctx.findings.append(Finding(f"Dominant {member}: {text}, and the best team of every size includes {name}.", True))
        elif significant and row["coef"] < 0 and best_by_size and not in_best:
            ctx.findings.append(Finding(f"Never-useful {member}: {text}, and no best team of any size includes {name}.", True))
        elif significant:
            ctx.findings.append(Finding(f"{'Strong' if row['coef'] > 0 else 'Weak'} {member}: {text}."))
    for _, row in inter[inter["estimable"] & (inter["p_holm"] < ALPHA)].iterrows():
        kind = "synergy" if row["coef"] > 0 else "anti-synergy"
        ctx.findings.append(Finding(f"Pair {kind}{suffix}: {row['pair']} {row['coef']:+.2f} log-odds "
                                    f"[{row['low']:+.2f}, {row['high']:+.2f}] beyond their separate effects (Holm {p_text(row['p_holm'])})."))


def section_characters(ctx: Context) -> Section | None:
    blocks = []
    for study in ctx.studies:
        for team_axis in _team_axes(ctx, study):
            sizes = study.table[team_axis].drop_duplicates().map(lambda t: len(str(t).split("+")))
            # a ranking needs 3+ teams, a character model two teams of one size that differ
            if len(sizes) >= 3 and sizes.value_counts().max() >= 2:
                blocks.append((study, team_axis))
    if not blocks:
        return None
    axes = sorted({axis for _, axis in blocks})
    section = Section("characters", "Team combinations" + f" ({', '.join(axes)})")
    section.text("Teams ranked by win rate, then a logistic model of the per-team counts: each member's "
                 "effect relative to the average member (teams of different sizes get their own baseline) "
                 "and each pair's interaction beyond the two main effects.")
    for study, team_axis in blocks:
        others = [a for a in study.axes if a != team_axis]
        section.heading(study.title)
        groups = _groups(study.table, others)
        if len(groups) > 4:
            section.note(f"{len(groups)} combinations of {', '.join(others)}; the first 4 are shown.")
        for i, (label, group) in enumerate(groups[:4]):
            if label:
                section.heading(f"{study.title}: {label}")
            _character_block(ctx, section, study, team_axis, label, group.drop_duplicates(team_axis), i + 1)
    return section


def section_length(ctx: Context) -> Section | None:
    table = ctx.headline_rows()
    labels, samples, rows = [], [], []
    for _, row in table.iterrows():
        games = ctx.rows.point(row["point"])
        turns = games["turns"].to_numpy(dtype=float)
        label = ctx.headline.label(row)
        labels.append(label)
        samples.append(turns)
        q = np.percentile(turns, [10, 25, 50, 75, 90])
        won = turns[games["win"].to_numpy(bool)]
        lost = turns[~games["win"].to_numpy(bool)]
        rows.append({"point": label, "mean [95% CI]": f"{row['turns_mean']:.1f} [{row['turns_low']:.1f}, {row['turns_high']:.1f}]",
                     "p10": f"{q[0]:g}", "p25": f"{q[1]:g}", "median": f"{q[2]:g}", "p75": f"{q[3]:g}", "p90": f"{q[4]:g}",
                     "max": f"{turns.max():g}", "mean when won": f"{won.mean():.1f}" if len(won) else "-",
                     "mean when lost": f"{lost.mean():.1f}" if len(lost) else "-"})
    section = Section("length", "Game length")
    fig = figures.length_boxes(labels, samples, "game length (turns)")
    section.figure(ctx.save(fig, "length", f"Game length in turns, {ctx.headline.title}: box = quartiles, "
                                           "whiskers = 5th-95th percentile, diamond = mean."))
    section.table(Table(pd.DataFrame(rows), "Game length in turns (mean with its 95% t interval, percentiles)"))
    return section


def _batch_for(ctx: Context, key: str):
    ident = ctx.identities[key]["identity"]
    batch = ctx.spec.prepare(ctx.rules(key), ident["policy"], ctx.cards, weights=ident.get("weights") or None)
    return batch if batch.key == key else None


def section_trajectories(ctx: Context) -> Section | None:
    if ctx.spec.trajectory is None or ctx.trace_points == 0 or ctx.seed is None:
        return None
    table = ctx.headline.table.drop_duplicates("point").head(ctx.trace_points)
    series: dict[str, list[tuple[str, pd.DataFrame]]] = {}
    skipped = []
    for _, row in table.iterrows():
        label = ctx.headline.label(row)
        batch = _batch_for(ctx, row["point"])
        if batch is None:
            skipped.append(label)
            continue
        n_games = min(ctx.trace_games, int(row["games"]))
        runs = [ctx.spec.trajectory(batch, ctx.seed, g).assign(game=g) for g in range(n_games)]
        frame = pd.concat(runs, ignore_index=True)
        counts = frame.groupby("turn")["game"].nunique()
        keep = counts[counts >= max(3, n_games // 4)].index  # turns a quarter of the traced games still reach
        for column in frame.columns:
            if column in ("turn", "game"):
                continue
            grouped = frame[frame["turn"].isin(keep)].groupby("turn")[column]
            stats_frame = pd.DataFrame({"median": grouped.median(), "q25": grouped.quantile(0.25),
                                        "q75": grouped.quantile(0.75)})
            series.setdefault(column, []).append((label, stats_frame))
    constant = [name for name, lines in series.items()
                if all(s[["median", "q25", "q75"]].nunique().max() <= 1 for _, s in lines)
                and len({float(s["median"].iloc[0]) for _, s in lines}) == 1]
    if len(constant) == len(series):
        return None
    section = Section("trajectories", "Resources over the game")
    section.text(f"Replays of games 0-{ctx.trace_games - 1} of seed {ctx.seed} at the first {len(table)} points of the "
                 f"{ctx.headline.title} study (the very games the sweep played). Each line is the median over the "
                 "games still running at that turn, the band their 25-75% range; turns that fewer than a "
                 "quarter of the traced games reach are cut.")
    if skipped:
        section.note("Not traced (the card data or code changed since these games were played): " + ", ".join(skipped))
    for name in constant:
        value = series.pop(name)[0][1]["median"].iloc[0]
        section.note(f"{name.replace('_', ' ')} stayed at {value:g} in every traced game (not drawn).")
    fig = figures.trajectories(series, "turn")
    section.figure(ctx.save(fig, "trajectories", "Resources and progress at the end of each turn (traced games)."))
    return section


# ------------------------------------------------------------------------------------ findings

RARELY_WON = 0.01  # every 95% upper bound below 1%: the policy (almost) never wins there


def _rarely_won(group: pd.DataFrame) -> bool:
    return bool((group["win_high"] < RARELY_WON).all())


def _preset_findings(ctx: Context) -> None:
    comparisons = []
    for study in ctx.studies:
        if "preset" not in study.axes:
            continue
        others = [a for a in study.axes if a != "preset"]
        for label, group in _groups(study.table, others):
            group = group.drop_duplicates("preset")
            if _rarely_won(group):
                where = f" ({label})" if label else ""
                below = " Every preset is below its target band." if ctx.target or ctx.preset_targets else ""
                most = (f"not a single win in {int(group['games'].min()):,}+ games per preset" if group["wins"].sum() == 0
                        else f"at most {pct(group['win_rate'].max(), 2)} of {int(group['games'].min()):,}+ games per preset")
                ctx.findings.append(Finding(
                    f"Almost never won at any preset{where}: {most} (every 95% upper bound below "
                    f"{pct(RARELY_WON, 0)}), so the presets cannot be told apart under this policy.{below}", True))
                continue
            rows = list(group.itertuples(index=False))
            for before, after in zip(rows, rows[1:]):
                if before.point == after.point:
                    continue
                cmp = _paired(ctx, after.point, before.point)
                if cmp is not None:
                    comparisons.append((study, label, before.preset, after.preset, cmp))
    if not comparisons:
        return
    adjusted = stats.holm([c[-1].p_value for c in comparisons])
    for (study, label, easier, harder, cmp), p in zip(comparisons, adjusted):
        where = f" ({label})" if label else ""
        body = _diff_text(cmp, p)
        if p < ALPHA and cmp.diff < 0:
            ctx.findings.append(Finding(f"{harder} is significantly harder than {easier}{where}: {body}."))
        elif p < ALPHA and cmp.diff > 0:
            ctx.findings.append(Finding(f"Non-monotone difficulty: {harder} is significantly easier than {easier}{where}: {body}.", True))
        else:
            ctx.findings.append(Finding(f"{harder} is not significantly harder than {easier}{where}: {body}.", True))


def _target_findings(ctx: Context) -> None:
    if ctx.target is None and not ctx.preset_targets:
        return
    for study in ctx.studies:
        if "preset" not in study.axes:
            continue
        others = [a for a in study.axes if a != "preset"]
        rarely = {label for label, group in _groups(study.table, others) if _rarely_won(group)}
        for _, row in study.table.iterrows():
            if others and " · ".join(f"{a.replace('_', ' ')} {row[a]}" for a in others) in rarely:
                continue  # said once by _preset_findings
            band = ctx.preset_targets.get(row["preset"], ctx.target)
            if band is None:
                continue
            where = " · ".join(str(row[a]) for a in others)
            what = f"{row['preset']}{f' ({where})' if where else ''}: {pct(row['win_rate'])} {interval(row['win_low'], row['win_high'])}%"
            band_text = f"the target band {interval(*band)}%"
            if row["win_high"] < band[0]:
                ctx.findings.append(Finding(f"Outside {band_text}, too hard: {what} (95% CI entirely below).", True))
            elif row["win_low"] > band[1]:
                ctx.findings.append(Finding(f"Outside {band_text}, too easy: {what} (95% CI entirely above).", True))
            elif band[0] <= row["win_low"] and row["win_high"] <= band[1]:
                ctx.findings.append(Finding(f"Inside {band_text}: {what}."))
            else:
                ctx.findings.append(Finding(f"On the edge of {band_text}: {what}; the 95% CI crosses the band's edge, "
                                            "so more games are needed to tell.", True))


def _monotone_findings(ctx: Context) -> None:
    """Along every integer axis with 3+ values: the overall trend per slice, and significant reversals."""
    ordered_params = {p.name for p in ctx.spec.params if p.ordered}
    for study in ctx.studies:
        for axis in study.int_axes:
            if axis not in ordered_params:
                continue
            values = sorted(study.table[axis].unique())
            if len(values) < 3:
                continue
            others = [a for a in study.axes if a != axis]
            trends, steps = [], []
            for label, group in _groups(study.table, others):
                by_value = group.drop_duplicates(axis).set_index(axis)["point"]
                if len(by_value) < 3:
                    continue
                keys = [by_value[v] for v in values if v in by_value.index]
                trend = _paired(ctx, keys[-1], keys[0])
                if trend is None:
                    continue
                category = " · ".join(str(group.iloc[0][a]) for a in others if a not in study.int_axes)
                trends.append((category, label, trend))
                present = [v for v in values if v in by_value.index]
                for (v0, k0), (v1, k1) in zip(zip(present, keys), zip(present[1:], keys[1:])):
                    cmp = _paired(ctx, k1, k0)
                    if cmp is not None:
                        steps.append((label, v0, v1, cmp, trend))
            if not trends:
                continue
            trend_p = stats.holm([t.p_value for _, _, t in trends])
            step_p = stats.holm([s[3].p_value for s in steps]) if steps else []
            name = axis.replace("_", " ")
            span = f"{values[0]} to {values[-1]}"
            # one sentence per combination of the non-integer axes (a team, a policy), over its slices
            by_category: dict[str, list[tuple[stats.PairedDifference, float]]] = {}
            for (category, _, trend), p in zip(trends, trend_p):
                by_category.setdefault(category, []).append((trend, p))
            for category, items in by_category.items():
                if all(t.rate_a == 0 and t.rate_b == 0 for t, _ in items):
                    continue  # never won at either end: nothing to say about a trend
                where = f" ({category})" if category else ""
                falling = sum(1 for t, p in items if p < ALPHA and t.diff < 0)
                rising = sum(1 for t, p in items if p < ALPHA and t.diff > 0)
                changes = np.array([t.diff for t, _ in items])
                first_rate = float(np.median([t.rate_b for t, _ in items]))
                last_rate = float(np.median([t.rate_a for t, _ in items]))
                slices = f"{len(items)} slice{'s' if len(items) > 1 else ''}"
                if falling == len(items) or rising == len(items):
                    direction = "lowers" if falling else "raises"
                    ctx.findings.append(Finding(
                        f"Raising {name} from {span}{where} {direction} the win rate in all {slices} of {study.title}: "
                        f"median {pct(first_rate)} -> {pct(last_rate)}, change {points_diff(float(np.median(changes)))} "
                        f"(range {points_diff(changes.min())} to {points_diff(changes.max())}; paired McNemar, Holm p < 0.05 each)."))
                else:
                    ctx.findings.append(Finding(
                        f"{name.capitalize()} from {span}{where} changes the win rate significantly in only "
                        f"{falling + rising} of {slices} of {study.title} ({falling} lower, {rising} higher; median "
                        f"{pct(first_rate)} -> {pct(last_rate)}; paired McNemar, Holm): a weak lever here."))
            significant_trend = {id(t): p < ALPHA for (_, _, t), p in zip(trends, trend_p)}
            reversals = [(label, v0, v1, cmp, p) for (label, v0, v1, cmp, trend), p in zip(steps, step_p)
                         if p < ALPHA and significant_trend[id(trend)] and np.sign(cmp.diff) == -np.sign(trend.diff)]
            checked = len(steps)
            if reversals:
                for label, v0, v1, cmp, p in reversals[:5]:
                    where = f" ({label})" if label else ""
                    ctx.findings.append(Finding(f"Non-monotone step: {name} {v0} to {v1}{where} goes against the trend: "
                                                f"{_diff_text(cmp, p)}.", True))
                if len(reversals) > 5:
                    ctx.findings.append(Finding(f"{len(reversals) - 5} more significant reversals along {name}.", True))
            else:
                ctx.findings.append(Finding(f"No single step of {name} goes significantly against its slice's trend "
                                            f"({checked} neighbouring pairs tested, paired McNemar, Holm)."))


def _policy_gaps(ctx: Context) -> None:
    """How much each policy wins over the study's first policy, on the same games at every setting."""
    for study in ctx.studies:
        if "policy" not in study.axes:
            continue
        others = [a for a in study.axes if a != "policy"]
        policies = list(dict.fromkeys(study.table["policy"]))
        first = policies[0]
        by_setting = {label: group.drop_duplicates("policy").set_index("policy")["point"]
                      for label, group in _groups(study.table, others)}
        comparisons = []
        for policy in policies[1:]:
            for label, points in by_setting.items():
                if policy in points.index and first in points.index:
                    cmp = _paired(ctx, points[policy], points[first])
                    if cmp is not None:
                        comparisons.append((policy, label, cmp))
        if not comparisons:
            continue
        adjusted = stats.holm([c.p_value for _, _, c in comparisons])
        for policy in policies[1:]:
            mine = [(label, cmp, p) for (pol, label, cmp), p in zip(comparisons, adjusted) if pol == policy]
            if len(mine) <= 6:
                for label, cmp, p in mine:
                    where = f" at {label}" if label else ""
                    ctx.findings.append(Finding(f"{policy} vs {first}{where} ({study.title}): {_diff_text(cmp, p)}."))
                continue
            diffs = np.array([c.diff for _, c, _ in mine])
            higher = sum(1 for _, c, p in mine if p < ALPHA and c.diff > 0)
            lower = sum(1 for _, c, p in mine if p < ALPHA and c.diff < 0)
            ctx.findings.append(Finding(
                f"{policy} vs {first} over the {len(mine)} settings of {study.title}: median paired difference "
                f"{points_diff(float(np.median(diffs)))} (range {points_diff(diffs.min())} to {points_diff(diffs.max())}); "
                f"significantly higher at {higher}, lower at {lower} (McNemar, Holm)."))


def _policy_findings(ctx: Context) -> None:
    _policy_gaps(ctx)
    for study in ctx.studies:
        if "policy" not in study.axes or "preset" not in study.axes:
            continue
        others = [a for a in study.axes if a not in ("policy", "preset")]
        for label, group in _groups(study.table, others):
            verdicts = {}
            for policy, rows in group.groupby("policy", sort=False):
                if _rarely_won(rows):
                    continue  # said by _preset_findings: no verdict to compare
                rows = list(rows.drop_duplicates("preset").itertuples(index=False))
                pairs = [(a, b, _paired(ctx, b.point, a.point)) for a, b in zip(rows, rows[1:])]
                pairs = [(a, b, c) for a, b, c in pairs if c is not None]
                pvals = stats.holm([c.p_value for _, _, c in pairs]) if pairs else []
                verdicts[policy] = {(a.preset, b.preset): (0 if p >= ALPHA else (-1 if c.diff < 0 else 1), c)
                                    for (a, b, c), p in zip(pairs, pvals)}
            if len(verdicts) < 2:
                continue
            words = {-1: "harder", 0: "not distinguishable", 1: "easier"}
            reference, base = next(iter(verdicts.items()))
            where = f" ({label})" if label else ""
            for policy, verdict in list(verdicts.items())[1:]:
                steps = [step for step in base if step in verdict]
                opposite = [s_ for s_ in steps if base[s_][0] * verdict[s_][0] == -1]
                weaker = [s_ for s_ in steps if base[s_][0] != verdict[s_][0] and s_ not in opposite]
                if opposite:
                    detail = "; ".join(f"{b} vs {a}: {words[base[(a, b)][0]]} under {reference}, "
                                       f"{words[verdict[(a, b)][0]]} under {policy}" for a, b in opposite)
                    ctx.findings.append(Finding(f"The difficulty verdict{where} reverses with play strength: {detail} "
                                                "(paired McNemar, Holm per policy).", True))
                for a, b in weaker:
                    (v0, c0), (v1, c1) = base[(a, b)], verdict[(a, b)]
                    clear, vague = (reference, policy) if v0 else (policy, reference)
                    cmp = c1 if v0 else c0
                    d = diff_digits(cmp.low, cmp.high)
                    ctx.findings.append(Finding(
                        f"{b} vs {a}{where}: {words[v0 or v1]} under {clear}, not significant under {vague} "
                        f"(paired difference {points_diff(cmp.diff, d)}, 95% CI {interval(cmp.low, cmp.high, d)} pt, "
                        f"{cmp.n:,} games): more {vague} games would tell whether the step changes with play strength."))
                if not opposite and not weaker:
                    ctx.findings.append(Finding(f"The difficulty verdict{where} is the same under {policy} as under "
                                                f"{reference}: every preset step has the same significant direction "
                                                "(paired McNemar, Holm per policy)."))


def section_findings(ctx: Context) -> Section | None:
    _preset_findings(ctx)
    _target_findings(ctx)
    _monotone_findings(ctx)
    _policy_findings(ctx)
    if not ctx.findings:
        return None
    section = Section("findings", "Findings")
    section.text("Sentences computed from the numbers in this report; each names the test behind it. "
                 "Intervals are 95% CIs of one comparison; p-values are Holm-adjusted over the family of "
                 "comparisons they belong to, so a step can have an interval that just excludes zero and "
                 "still not be significant after adjustment. "
                 "Warnings mark what a designer should look at: difficulty steps that do not separate or go "
                 "the wrong way, presets outside their target band, dominant or never-useful characters.")
    unique = list({f.text: f for f in ctx.findings}.values())  # studies that share points repeat a finding
    ctx.findings[:] = [f for f in unique if f.flag] + [f for f in unique if not f.flag]
    section.findings(ctx.findings)
    return section


# ---------------------------------------------------------------------------------- provenance

def section_provenance(ctx: Context, started: float, extra: dict[str, Any]) -> Section:
    points = [ctx.identities[k] for k in dict.fromkeys(k for s in ctx.studies for k in s.table["point"])]
    cards = sorted({p["identity"]["cards_hash"] for p in points})
    reconstructed = any(p["provenance"].get("cards_reconstructed") for p in points)
    policies = sorted({p["provenance"].get("policy", p["identity"]["policy"]) for p in points})
    weights = sorted({hashlib.sha256(json.dumps(p["identity"].get("weights", {}), sort_keys=True).encode()).hexdigest()[:12]
                      for p in points if p["identity"].get("weights")})
    games = int(sum(s.table.drop_duplicates("point")["games"].sum() for s in ctx.studies))
    unique_games = int(sum(int(ctx.rows.point(k)["win"].size) for k in dict.fromkeys(p["key"] for p in points)))
    runs = read_run_log(ctx.store.path)
    compute = sum(r.get("seconds", 0) for r in runs)
    items = [
        ("game", f"{ctx.spec.title} ({ctx.spec.name} {ctx.spec.version})"),
        ("root seed", "all seeds pooled" if ctx.seed is None else str(ctx.seed)),
        ("games", f"{unique_games:,} games over {len(points)} rule settings"
                  + (" (a setting in several studies is played once and shown in each)" if games != unique_games else "")),
        ("card data", ", ".join(cards) + (" (includes reconstructed cards: the rulebook does not print every card)"
                                           if reconstructed else "")),
        ("policies", ", ".join(policies) + (f"; weight vectors {', '.join(weights)}" if weights else "")),
        ("kernel code", ", ".join(sorted({p["identity"]["code_hash"] for p in points}))),
        ("boardsim version", boardsim.__version__),
        ("compute time", f"{compute:,.0f} s over {len(runs)} run(s) of the analysis" if runs else "not recorded (built from a store)"),
        ("report built", time.strftime("%Y-%m-%d %H:%M:%S %Z") + f" in {time.perf_counter() - started:.0f} s"),
    ] + list(extra.items())
    section = Section("provenance", "Provenance")
    section.table(Table(pd.DataFrame(items, columns=["what", "value"])))
    for study in ctx.studies:
        varied = set(study.axes) | ({k for values in ctx.spec.presets.values() for k in values}
                                    if "preset" in study.axes else set())
        fixed = {k: v for k, v in ctx.rules(study.table["point"].iloc[0]).items() if k not in varied}
        shown = ", ".join(f"{k}={','.join(v) if isinstance(v, tuple) else v}" for k, v in fixed.items())
        section.note(f"{study.title}: varies {', '.join(study.axes) or 'nothing'}; other rules {shown}.")
    return section


# ---------------------------------------------------------------------------------------- build

SECTION_BUILDERS = {
    "presets": section_presets, "heatmap": section_heatmap, "survival": section_survival,
    "losses": section_losses, "characters": section_characters, "length": section_length,
    "trajectories": section_trajectories,
}


def summary_frame(studies: list[StudyData]) -> pd.DataFrame:
    frames = []
    for study in studies:
        t = study.table.copy()
        t.insert(0, "study", study.name)
        t["win_half_width"] = (t["win_high"] - t["win_low"]) / 2
        frames.append(t)
    return pd.concat(frames, ignore_index=True)


@dataclass
class Report:
    path: Path
    sections: list[str]
    findings: list[Finding]
    summary: pd.DataFrame


def build_report(spec: GameSpec, store: ResultStore, out_dir: str | Path, studies: list[StudyData],
                 seed: int | None, title: str, description: str = "", sections: tuple[str, ...] = SECTIONS,
                 target: tuple[float, float] | None = None, preset_targets: dict[str, tuple[float, float]] | None = None,
                 trace_games: int = 40, trace_points: int = 4, cards: str | None = None,
                 rows: GameRows | None = None, extra_provenance: dict[str, Any] | None = None) -> Report:
    """Write index.html, report.md, summary.csv and figures/ into `out_dir` (which is replaced)."""
    started = time.perf_counter()
    out = Path(out_dir)
    if out.exists():
        for old in list(out.glob("figures/*.png")) + list(out.glob("figures/*.svg")):
            old.unlink()
    out.mkdir(parents=True, exist_ok=True)
    rows = rows or GameRows(store, seed)
    identities = {p["key"]: p for p in store.points()}
    for study in studies:
        missing = [k for k in study.table["point"] if k not in identities]
        if missing:
            raise BoardsimError(f"{store.path}: points {', '.join(missing[:3])} are not in the store")
    ctx = Context(spec, store, rows, studies, out, seed, target, dict(preset_targets or {}), trace_games,
                  trace_points, cards, identities=identities)
    built: list[Section] = []
    for name in SECTIONS:
        if name not in sections or name in ("findings", "provenance"):
            continue
        section = SECTION_BUILDERS[name](ctx)
        if section is not None:
            built.append(section)
    if "findings" in sections:
        findings = section_findings(ctx)
        if findings is not None:
            built.insert(0, findings)
    if "provenance" in sections:
        built.append(section_provenance(ctx, started, extra_provenance or {}))
    summary = summary_frame(studies)
    summary.to_csv(out / "summary.csv", index=False)
    subtitle = (description + " " if description else "") + (
        f"{spec.title}. Seed {seed}. Every rate carries its 95% confidence interval.")
    write(out, title, subtitle.strip(), built)
    return Report(out, [s.id for s in built], ctx.findings, summary)

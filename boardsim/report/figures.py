"""The report's figures (matplotlib, Agg backend): colour-blind-safe colours, labelled axes with units.

Each function takes tidy data and returns a matplotlib Figure; `save` writes it as PNG and SVG.
"""
from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

# Okabe & Ito (2008): distinguishable with every common colour-vision deficiency
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
SEQUENTIAL = "cividis"  # perceptually uniform and readable with colour-vision deficiencies
DIVERGING = "PuOr"
OUTCOME_COLOURS = {"win": "#0072B2", "running": "#DDDDDD"}
LOSS_COLOURS = ["#D55E00", "#E69F00", "#CC79A7", "#999999", "#56B4E9", "#000000"]

plt.rcParams.update({
    "figure.dpi": 100, "savefig.dpi": 110, "font.size": 9, "axes.titlesize": 10, "axes.labelsize": 9,
    "legend.fontsize": 8, "axes.spines.top": False, "axes.spines.right": False,
    "svg.fonttype": "none",  # text stays text in the SVG: small files, searchable labels
    "svg.hashsalt": "boardsim",  # stable ids, so re-running a report changes the SVG only when data do
})


def outcome_colours(outcomes: list[str]) -> dict[str, str]:
    losses = [o for o in outcomes if o != "win"]
    colours = {"win": OUTCOME_COLOURS["win"]}
    colours.update({o: LOSS_COLOURS[i % len(LOSS_COLOURS)] for i, o in enumerate(losses)})
    return colours


def save(fig, folder: Path, name: str) -> bytes:
    """Write NAME.png and NAME.svg; return the PNG bytes (embedded in the HTML)."""
    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    png = buffer.getvalue()
    (folder / f"{name}.png").write_bytes(png)
    fig.savefig(folder / f"{name}.svg", format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    return png


def win_rate_by_category(table: pd.DataFrame, x: str, series: list[str], band: tuple[float, float] | None,
                         preset_bands: dict[str, tuple[float, float]], x_label: str, connect: bool = True):
    """Win rate (with 95% CI bars) per value of `x`, one coloured series per combination of `series`;
    points are joined by lines only when `x` is ordered (`connect`)."""
    categories = list(dict.fromkeys(table[x].astype(str)))
    groups = [("all", table)] if not series else list(table.groupby(series, sort=False))
    width = max(5.0, 1.1 * len(categories) + 2.5)
    fig, ax = plt.subplots(figsize=(width, 3.8))
    if band is not None:
        ax.axhspan(100 * band[0], 100 * band[1], color="#009E73", alpha=0.12, lw=0, label="target band")
    for i, name in enumerate(categories):
        if name in preset_bands:
            low, high = preset_bands[name]
            ax.fill_between([i - 0.4, i + 0.4], 100 * low, 100 * high, color="#009E73", alpha=0.18, lw=0,
                            label="preset target" if i == min(categories.index(n) for n in preset_bands
                                                             if n in categories) else None)
    offsets = np.linspace(-0.25, 0.25, len(groups)) if len(groups) > 1 else [0.0]
    for j, (key, group) in enumerate(groups):
        xs = np.array([categories.index(v) for v in group[x].astype(str)]) + offsets[j]
        rate = 100 * group["win_rate"].to_numpy()
        err = np.vstack([rate - 100 * group["win_low"].to_numpy(), 100 * group["win_high"].to_numpy() - rate])
        label = key if isinstance(key, str) else " · ".join(map(str, key if isinstance(key, tuple) else (key,)))
        ax.errorbar(xs, rate, yerr=err, fmt=MARKERS[j % len(MARKERS)] + ("-" if connect else ""), color=PALETTE[j % len(PALETTE)],
                    capsize=3, ms=5, lw=1, label=None if label == "all" else label)
    long_labels = len(categories) > 3 and max(len(c) for c in categories) > 12
    ax.set_xticks(range(len(categories)), categories, rotation=20 if long_labels else 0,
                  ha="right" if long_labels else "center")
    ax.set_xlabel(x_label)
    ax.set_ylabel("win rate (%), 95% CI")
    ax.set_ylim(bottom=0)
    ax.grid(axis="y", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    return fig


def heat_map(rates: pd.DataFrame, half_widths: pd.DataFrame, row_label: str, col_label: str, title: str):
    """Win rate (%) over two parameters; each cell shows the rate and its 95% CI half-width."""
    n_rows, n_cols = rates.shape
    fig, ax = plt.subplots(figsize=(max(4.5, 0.62 * n_cols + 2.2), max(3.0, 0.5 * n_rows + 1.4)))
    values = 100 * rates.to_numpy(dtype=float)
    image = ax.imshow(values, cmap=SEQUENTIAL, aspect="auto", origin="lower", vmin=0, vmax=max(1.0, np.nanmax(values)))
    threshold = np.nanmin(values) + 0.6 * (np.nanmax(values) - np.nanmin(values))
    for r in range(n_rows):
        for c in range(n_cols):
            v = values[r, c]
            if np.isnan(v):
                continue
            colour = "black" if v > threshold else "white"
            ax.text(c, r, f"{v:.1f}\n±{100 * half_widths.iat[r, c]:.1f}", ha="center", va="center",
                    fontsize=6.5, color=colour, linespacing=1.0)
    ax.set_xticks(range(n_cols), [str(v) for v in rates.columns])
    ax.set_yticks(range(n_rows), [str(v) for v in rates.index])
    ax.set_xlabel(col_label)
    ax.set_ylabel(row_label)
    ax.set_title(title)
    ax.spines[:].set_visible(False)
    bar = fig.colorbar(image, ax=ax, fraction=0.05, pad=0.02)
    bar.set_label("win rate (%)")
    return fig


def survival(panels: list[tuple[str, pd.DataFrame]], outcomes: list[str], x_label: str):
    """Stacked shares by turn: games already won, already lost (by cause), still running."""
    n = len(panels)
    cols = min(4, n)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.1 * cols + 0.6, 2.5 * rows + 0.6), squeeze=False,
                             sharex=True, sharey=True)
    colours = outcome_colours(outcomes)
    for ax, (title, shares) in zip(axes.flat, panels):
        layers = [100 * shares[o].to_numpy() for o in outcomes] + [100 * shares["running"].to_numpy()]
        ax.stackplot(shares.index.to_numpy(), layers, colors=[colours[o] for o in outcomes] + [OUTCOME_COLOURS["running"]],
                     labels=[f"ended: {o.replace('_', ' ')}" for o in outcomes] + ["still running"], lw=0)
        ax.set_title(title, fontsize=8.5)
        ax.set_ylim(0, 100)
        ax.set_xlim(shares.index.min(), shares.index.max())
    for ax in axes.flat[n:]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(x_label)
    for ax in axes[:, 0]:
        ax.set_ylabel("share of games (%)")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles[::-1], labels[::-1], loc="upper center", ncol=len(labels), frameon=False,
               bbox_to_anchor=(0.5, 1.0))
    fig.tight_layout(rect=(0, 0, 1, 0.93 if rows == 1 else 0.96))
    return fig


def outcome_bars(labels: list[str], shares: pd.DataFrame, outcomes: list[str]):
    """Horizontal stacked bars: how each point's games ended (%)."""
    colours = outcome_colours(outcomes)
    fig, ax = plt.subplots(figsize=(7.5, 0.32 * len(labels) + 1.3))
    left = np.zeros(len(labels))
    ys = np.arange(len(labels))[::-1]
    for outcome in outcomes:
        values = 100 * shares[outcome].to_numpy()
        ax.barh(ys, values, left=left, color=colours[outcome], label=outcome.replace("_", " "), height=0.7)
        for y, lft, v in zip(ys, left, values):
            if v >= 7:
                ax.text(lft + v / 2, y, f"{v:.0f}", ha="center", va="center", fontsize=7,
                        color="white" if outcome != "turn_cap" else "black")
        left += values
    ax.set_yticks(ys, labels)
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of games (%)")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(outcomes), frameon=False)
    return fig


def shortfall_lines(curves: list[tuple[str, pd.Series]], x_label: str):
    """Distribution of how far lost games fell short of a goal, one line per point."""
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    for j, (label, series) in enumerate(curves):
        ax.plot(series.index, 100 * series.to_numpy(), MARKERS[j % len(MARKERS)] + "-",
                color=PALETTE[j % len(PALETTE)], label=label, ms=4, lw=1)
    ax.set_xlabel(x_label)
    ax.set_ylabel("share of lost games (%)")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    return fig


def team_ranking(ranking: pd.DataFrame):
    """Teams ordered by win rate, 95% CI bars, coloured by team size."""
    sizes = sorted(ranking["size"].unique())
    fig, ax = plt.subplots(figsize=(6.5, 0.3 * len(ranking) + 1.3))
    ys = np.arange(len(ranking))[::-1]
    for k, size in enumerate(sizes):
        mask = (ranking["size"] == size).to_numpy()
        rate = 100 * ranking["rate"].to_numpy()[mask]
        err = np.vstack([rate - 100 * ranking["low"].to_numpy()[mask], 100 * ranking["high"].to_numpy()[mask] - rate])
        ax.errorbar(rate, ys[mask], xerr=err, fmt=MARKERS[k % len(MARKERS)], color=PALETTE[k % len(PALETTE)],
                    capsize=2.5, ms=5, label=f"{size} member{'s' if size != 1 else ''}")
    ax.set_yticks(ys, ranking["team"])
    ax.set_xlabel("win rate (%), 95% CI")
    ax.set_xlim(left=0)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", frameon=False)
    return fig


def effects_forest(main: pd.DataFrame, member: str = "character"):
    """Each member's effect on the log-odds of winning vs the average member, with 95% CI."""
    fig, ax = plt.subplots(figsize=(5.5, 0.4 * len(main) + 1.2))
    ys = np.arange(len(main))[::-1]
    coef = main["coef"].to_numpy()
    err = np.vstack([coef - main["low"].to_numpy(), main["high"].to_numpy() - coef])
    ax.errorbar(coef, ys, xerr=err, fmt="o", color=PALETTE[0], capsize=3)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(ys, main["character"])
    ax.set_xlabel(f"effect on the log-odds of winning vs the average {member} (95% CI)")
    ax.grid(axis="x", alpha=0.3)
    return fig


def interaction_matrix(matrix: pd.DataFrame, significant: pd.DataFrame):
    """Pair interactions (log-odds); * marks Holm-adjusted p < 0.05, blank cells are not estimable."""
    n = len(matrix)
    fig, ax = plt.subplots(figsize=(0.8 * n + 2.4, 0.7 * n + 1.2))
    values = matrix.to_numpy(dtype=float)
    limit = max(0.1, np.nanmax(np.abs(values))) if np.isfinite(values).any() else 1.0
    image = ax.imshow(values, cmap=DIVERGING, vmin=-limit, vmax=limit)
    for r in range(n):
        for c in range(n):
            if np.isfinite(values[r, c]):
                star = "*" if significant.iat[r, c] else ""
                ax.text(c, r, f"{values[r, c]:+.2f}{star}", ha="center", va="center", fontsize=7.5)
    ax.set_xticks(range(n), matrix.columns)
    ax.set_yticks(range(n), matrix.index)
    ax.spines[:].set_visible(False)
    bar = fig.colorbar(image, ax=ax, fraction=0.05, pad=0.03)
    bar.set_label("pair interaction (log-odds)")
    return fig


def length_boxes(labels: list[str], samples: list[np.ndarray], x_label: str):
    """Game length per point: box = quartiles, whiskers = 5th-95th percentile, diamond = mean."""
    fig, ax = plt.subplots(figsize=(7.0, 0.34 * len(labels) + 1.2))
    ys = np.arange(len(labels))[::-1]
    ax.boxplot(samples, positions=ys, orientation="horizontal", whis=(5, 95), showfliers=False, widths=0.6,
               medianprops={"color": PALETTE[1], "lw": 1.5}, boxprops={"color": PALETTE[0]},
               whiskerprops={"color": PALETTE[0]}, capprops={"color": PALETTE[0]})
    ax.plot([s.mean() for s in samples], ys, "D", color=PALETTE[3], ms=4, label="mean")
    ax.set_yticks(ys, labels)
    ax.set_xlabel(x_label)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", frameon=False)
    return fig


def trajectories(series: dict[str, list[tuple[str, pd.DataFrame]]], x_label: str):
    """Per resource: the median over traced games still running at each turn, with the 25-75% band."""
    names = list(series)
    cols = min(3, len(names))
    rows = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.4 * cols + 0.4, 2.6 * rows + 0.8), squeeze=False, sharex=True)
    for ax, name in zip(axes.flat, names):
        for j, (label, stats) in enumerate(series[name]):
            colour = PALETTE[j % len(PALETTE)]
            ax.plot(stats.index, stats["median"], color=colour, lw=1.3, label=label)
            ax.fill_between(stats.index, stats["q25"], stats["q75"], color=colour, alpha=0.18, lw=0)
        ax.set_title(name.replace("_", " "))
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(x_label)
    for ax in axes[:, 0]:
        ax.set_ylabel("count (median, 25-75%)")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=min(4, len(labels)), frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.9 if rows == 1 else 0.94))
    return fig


def difference_dots(labels: list[str], diff: np.ndarray, low: np.ndarray, high: np.ndarray, x_label: str):
    """Differences with 95% CIs, one row each, and a zero line."""
    fig, ax = plt.subplots(figsize=(6.5, 0.32 * len(labels) + 1.3))
    ys = np.arange(len(labels))[::-1]
    ax.errorbar(100 * diff, ys, xerr=np.vstack([100 * (diff - low), 100 * (high - diff)]), fmt="o",
                color=PALETTE[0], capsize=3)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(ys, labels)
    ax.set_xlabel(x_label)
    ax.grid(axis="x", alpha=0.3)
    return fig

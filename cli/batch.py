"""Batch commands: `sweep` (a grid of rule settings into a result store), `summarize`, `plan`."""
from __future__ import annotations

import math
import sys

import click
import pandas as pd

import boardsim
from boardsim import stats
from boardsim.errors import ParamError
from boardsim.summarize import SUMMARY_COLUMNS

from .params import ASSIGNMENT
from .summary import format_rules

SCHEDULER_HELP = "Run on an existing dask.distributed cluster, e.g. tcp://10.0.0.5:8786 (or set BOARDSIM_SCHEDULER)."


def _pct(x: float, digits: int) -> str:
    return f"{100 * x:.{digits}f}%"


def rate_cell(wins: int, games: int) -> str:
    rate, low, high, _ = stats.rate_interval(int(wins), int(games))
    if games == 0:
        return "n/a"
    d = stats.rate_digits(low, high)
    return f"{_pct(rate, d)} [{_pct(low, d)}, {_pct(high, d)}]"


def mean_cell(mean: float, low: float, high: float) -> str:
    if not math.isfinite(mean):
        return "n/a"
    if not math.isfinite(low):
        return f"{mean:.1f}"
    return f"{mean:.1f} [{low:.1f}, {high:.1f}]"


def diff_cell(diff: float, low: float, high: float) -> str:
    d = max(1, stats.rate_digits(low / 2 + 0.5, high / 2 + 0.5))
    return f"{100 * diff:+.{d}f} pp [{100 * low:+.{d}f}, {100 * high:+.{d}f}]"


def p_cell(p: float) -> str:
    if not math.isfinite(p):
        return "n/a"
    return "<1e-6" if p < 1e-6 else (f"{p:.2g}" if p < 0.01 else f"{p:.3f}")


def text_table(header: list[str], rows: list[list[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    fmt = lambda r: indent + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return [fmt(header)] + [fmt(r) for r in rows]


def summary_table(df: pd.DataFrame, label_columns: list[str]) -> list[str]:
    rows = [[str(r[c]) for c in label_columns]
            + [f"{int(r['games']):,}", rate_cell(r["wins"], r["games"]),
               mean_cell(r["turns_mean"], r["turns_low"], r["turns_high"])]
            for _, r in df.iterrows()]
    return text_table(label_columns + ["games", "win rate [95% CI]", "turns [95% CI]"], rows)


def comparison_table(cmp: pd.DataFrame, names: dict[str, str]) -> list[str]:
    rows = [[names.get(r["point"], r["point"]), f"{int(r['games']):,}", diff_cell(r["diff"], r["diff_low"], r["diff_high"]),
             f"{int(r['only_point_won'])}/{int(r['only_baseline_won'])}", p_cell(r["p_value"]), p_cell(r["p_holm"])]
            for _, r in cmp.iterrows()]
    return text_table(["point", "paired games", "difference [95% CI]", "discordant", "McNemar p", "Holm p"], rows)


def _point_names(df: pd.DataFrame, label_columns: list[str]) -> dict[str, str]:
    return {r["point"]: " ".join(f"{c}={r[c]}" for c in label_columns) or r["point"] for _, r in df.iterrows()}


def comparison_lines(store: str, df: pd.DataFrame, label_columns: list[str], baseline_key: str,
                     seed: int | None) -> list[str]:
    from boardsim.summarize import paired_comparisons

    others = [k for k in dict.fromkeys(df["point"]) if k != baseline_key]
    if not others:
        return []
    cmp = paired_comparisons(store, baseline_key, others, seed)
    if cmp.empty:
        return []
    names = _point_names(df, label_columns)
    return ["", f"paired differences vs {names[baseline_key]} (same games; exact McNemar test, Holm-adjusted)"] \
        + comparison_table(cmp, names)


def find_baseline(df: pd.DataFrame, label_columns: list[str], assignments: tuple) -> str:
    """The point key matching NAME=VALUE assignments (the first row when none are given)."""
    if not assignments:
        return str(df["point"].iloc[0])
    mask = pd.Series(True, index=df.index)
    for name, value in assignments:
        if name not in label_columns:
            raise ParamError(f"--baseline: '{name}' is not a column that varies here; allowed: {', '.join(label_columns)}")
        mask &= df[name].astype(str).str.replace(",", "+") == str(value).replace(",", "+")
    if not mask.any():
        raise ParamError(f"--baseline: no point has {' '.join(f'{n}={v}' for n, v in assignments)}")
    return str(df.loc[mask, "point"].iloc[0])


def character_lines(df: pd.DataFrame, team_column: str, other_columns: list[str]) -> list[str]:
    """Team ranking and the logistic model of character main effects and pairwise interactions."""
    lines: list[str] = []
    groups = df.groupby(other_columns, sort=False) if other_columns else [((), df)]
    for values, part in groups:
        if part[team_column].nunique() < 2:
            continue
        where = " ".join(f"{c}={v}" for c, v in zip(other_columns, values if isinstance(values, tuple) else (values,)))
        counts = pd.DataFrame({"team": part[team_column].astype(str), "wins": part["wins"], "games": part["games"]})
        ranking = stats.team_ranking(counts)
        lines += ["", f"teams ranked{' at ' + where if where else ''}"]
        lines += text_table(["rank", "team", "games", "win rate [95% CI]"],
                            [[str(r["rank"]), r["team"], f"{int(r['games']):,}", rate_cell(r["wins"], r["games"])]
                             for _, r in ranking.iterrows()])
        model = stats.character_effects(counts)
        lines += ["", f"character effects (logistic model, {model.fit_method}; odds ratio vs the average character)"]
        lines += text_table(["character", "log-odds [95% CI]", "odds ratio", "p", "Holm p"],
                            [[r["character"], f"{r['coef']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]",
                              f"{r['odds_ratio']:.2f}", p_cell(r["p_value"]), p_cell(r["p_holm"])]
                             for _, r in model.main.iterrows()])
        estimable = model.interactions[model.interactions["estimable"]]
        if len(estimable):
            lines += ["", "pair interactions (together vs the sum of their separate effects)"]
            lines += text_table(["pair", "log-odds [95% CI]", "odds ratio", "p", "Holm p"],
                                [[r["pair"], f"{r['coef']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]",
                                  f"{r['odds_ratio']:.2f}", p_cell(r["p_value"]), p_cell(r["p_holm"])]
                                 for _, r in estimable.iterrows()])
        lines += [f"  note: {note}" for note in model.notes]
    return lines


def _team_column(game: str, columns: list[str]) -> str | None:
    spec = boardsim.get_game(game)
    for param in spec.params:
        if param.kind == "team" and param.name in columns:
            return param.name
    return None


# ------------------------------------------------------------------------------------- sweep


@click.command()
@click.argument("game")
@click.option("--grid", "-g", "grid", multiple=True, required=True, metavar="NAME=VALUES",
              help="An axis: vicious=0..8, bounty_deck=7,9,11, preset=waltz,boogie, characters=all-pairs | "
                   "all-teams:3 | spike+jet,faye+ed, policy=random,heuristic (repeatable).")
@click.option("--zip", "zip_axes", is_flag=True, help="Take the axes side by side instead of their full product.")
@click.option("-n", "--games", "n", type=int, default=None, help="Games per grid point (default 10000).")
@click.option("--precision", type=float, default=None,
              help="Instead of -n: play until every point's 95%% CI half-width on the win rate is at most this.")
@click.option("--max-games", type=int, default=None, help="Cap per point with --precision (default 1000000).")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Root seed (every point plays the same games).")
@click.option("--preset", "-p", metavar="NAME", help="Preset for what the grid does not vary.")
@click.option("--characters", "-c", metavar="A,B", help="Team, when the grid does not vary it.")
@click.option("--param", "params", type=ASSIGNMENT, multiple=True, help="Fix one rule parameter (repeatable).")
@click.option("--policy", default="heuristic", show_default=True, help="Policy, when the grid does not vary it.")
@click.option("--cards", type=click.Path(exists=True, file_okay=False), metavar="DIR", help="Replacement card data.")
@click.option("--store", default="boardsim-store", show_default=True, metavar="DIR",
              help="Result store; re-running with the same store plays only what is missing.")
@click.option("--workers", "-w", type=int, default=None, help="Local worker threads (default: all cores).")
@click.option("--scheduler", default=None, metavar="URL", help=SCHEDULER_HELP)
@click.option("--dask-local", type=int, default=None, metavar="N", help="Start a Dask LocalCluster of N worker processes.")
@click.option("--chunk", type=int, default=None, help="Games per task (default: chosen from the sweep size).")
@click.option("--baseline", type=ASSIGNMENT, multiple=True, help="Point to compare the others with, e.g. vicious=6 (default: the first).")
@click.option("--progress/--no-progress", default=True, help="Progress bar on stderr.")
def sweep(game, grid, zip_axes, n, precision, max_games, seed, preset, characters, params, policy, cards, store,
          workers, scheduler, dask_local, chunk, baseline, progress) -> None:
    """Play GAME at every point of a grid of rule settings, into a resumable result store."""
    from .main import say_if_compiling

    spec = boardsim.get_game(game)
    say_if_compiling()
    bar = None
    callback = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=0, unit="game", unit_scale=True, file=sys.stderr, desc=f"{spec.name} sweep", leave=False)

        def callback(status) -> None:
            bar.total = status.games_planned
            bar.set_postfix_str(f"win {100 * status.wins / max(1, status.games_done):.1f}% (pooled)", refresh=False)
            bar.update(status.games_done - bar.n)

    try:
        result = boardsim.sweep(
            game, list(grid), n=n, seed=seed, policy=policy, preset=preset, params=dict(params),
            characters=characters, cards=cards, store=store,
            precision=precision, max_games=max_games, mode="zip" if zip_axes else "product", workers=workers,
            scheduler=scheduler, dask_local=dask_local, chunk=chunk, progress=callback,
        )
    finally:
        if bar is not None:
            bar.close()
    df = result.summary
    prov = result.provenance
    labels = [c for c in df.columns if c not in SUMMARY_COLUMNS and c != "point"]
    point = next(iter(prov["points"].values()))
    fixed_rules = {k: v for k, v in point["rules"].items() if k not in labels}
    lines = [
        f"game      {spec.name} - {spec.title} (game version {spec.version}, code {point['code_hash']}, "
        f"boardsim {boardsim.__version__})",
        f"fixed     {format_rules(fixed_rules, spec)}",
        f"policy    {policy if 'policy' not in labels else '(varies)'}    cards {point['cards_hash']}"
        + (" (includes reconstructed cards)" if point.get("cards_reconstructed") else ""),
        f"seed      {seed}    points {len(df)}    "
        + (f"precision ±{precision:g} (cap {prov['max_games']:,})" if precision else f"{result.games_requested:,} games per point")
        + (f" ({df['games'].min():,} finished)" if result.interrupted else ""),
        f"ran       {result.games_played:,} new games on {prov['executor']}; store {result.store}",
        "",
    ]
    lines += summary_table(df, labels)
    lines += comparison_lines(str(result.store), df, labels, find_baseline(df, labels, baseline), seed)
    team = _team_column(game, labels)
    if team is not None:
        lines += character_lines(df.drop_duplicates("point"), team, [c for c in labels if c != team])
    click.echo("\n".join(lines))
    if result.interrupted:
        click.echo(f"\ninterrupted: finished chunks are in {result.store}; run the same command again to "
                   "play only what is missing", err=True)
        click.get_current_context().exit(130)


# --------------------------------------------------------------------------------- summarize


@click.command()
@click.argument("store", type=click.Path(exists=True, file_okay=False))
@click.option("--game", default=None, help="Only this game's points (needed when a store holds several games).")
@click.option("--baseline", type=ASSIGNMENT, multiple=True, help="Point to compare the others with (default: the first row).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, writable=True), help="Also write the table as CSV.")
def summarize(store, game, baseline, csv_path) -> None:
    """Print a result store's table: a row per point with CIs, paired differences, team effects."""
    from boardsim.summarize import store_summary

    df = store_summary(store, game)
    labels = [c for c in df.columns if c not in SUMMARY_COLUMNS and c != "point"]
    fixed = df.attrs["fixed"]
    games = [g for g in [fixed.get("game")] if g] or sorted(df["game"].astype(str).unique())
    if len(games) > 1 and game is None:
        raise ParamError(f"{store}: holds games {', '.join(games)}; choose one with --game")
    seeds = sorted({s for v in df.attrs["seeds"].values() for s in v})
    shown_fixed = {k: v for k, v in fixed.items() if k not in ("game",)}
    lines = [f"store     {store}", f"game      {games[0]}", "fixed     " + "  ".join(f"{k}={v}" for k, v in shown_fixed.items()),
             f"seeds     {', '.join(map(str, seeds))}", ""]
    lines += summary_table(df, labels)
    lines += comparison_lines(store, df, labels, find_baseline(df, labels, baseline), None)
    team = _team_column(games[0], labels)
    if team is not None:
        lines += character_lines(df, team, [c for c in labels if c != team])
    click.echo("\n".join(lines))
    if csv_path:
        df.to_csv(csv_path, index=False)
        click.echo(f"\nwrote {csv_path}")


# -------------------------------------------------------------------------------------- plan


@click.command()
@click.option("--rate", "p1", type=float, required=True, help="A win rate, e.g. 0.48.")
@click.option("--vs", "p2", type=float, default=None, help="The rate to tell it from, e.g. 0.50.")
@click.option("--precision", type=float, default=None, help="Or: the 95%% CI half-width wanted at --rate.")
@click.option("--power", type=float, default=0.8, show_default=True)
@click.option("--alpha", type=float, default=0.05, show_default=True, help="Two-sided significance level.")
@click.option("--discordance", type=float, default=None,
              help="Share of games whose result differs between the two settings on the same deals "
                   "(from a pilot sweep); gives the paired (common random numbers) answer too.")
def plan(p1, p2, precision, power, alpha, discordance) -> None:
    """How many games a question needs, e.g. `plan --rate 0.48 --vs 0.50`."""
    if (p2 is None) == (precision is None):
        raise ParamError("give --vs RATE (to tell two rates apart) or --precision HALF_WIDTH, one of them")
    try:
        if precision is not None:
            n = stats.games_for_precision(p1, precision)
            click.echo(f"{n:,} games put the 95% CI on a {100 * p1:g}% win rate within ±{100 * precision:g} points")
            return
        lines = [f"to tell {100 * p1:g}% from {100 * p2:g}% (two-sided alpha {alpha:g}, power {100 * power:g}%):"]
        n_ind = stats.games_to_distinguish(p1, p2, alpha=alpha, power=power, design="independent")
        n_one = stats.games_to_distinguish(p1, p2, alpha=alpha, power=power, design="one-sample")
        lines.append(f"  {n_ind:,} games per setting, two settings on independent games")
        lines.append(f"  {n_one:,} games, one setting against {100 * p2:g}% as a fixed target")
        if discordance is not None:
            n_pair = stats.games_to_distinguish(p1, p2, alpha=alpha, power=power, design="paired",
                                                discordance=discordance)
            lines.append(f"  {n_pair:,} games per setting, paired on the same deals (discordance {100 * discordance:g}%)")
        else:
            lines.append("  (paired sweeps need fewer: add --discordance, the share of deals whose result differs)")
    except ValueError as exc:
        raise ParamError(str(exc)) from None
    click.echo("\n".join(lines))

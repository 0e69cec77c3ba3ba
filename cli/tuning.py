"""Tuning commands: `tune` (a policy's weights) and `calibrate` (a rule parameter for a target)."""
from __future__ import annotations

import sys

import click

import boardsim
from boardsim.errors import ParamError

from .batch import SCHEDULER_HELP, p_cell, rate_cell, text_table
from .params import ASSIGNMENT


def executor_options(func):
    for option in reversed([
        click.option("--workers", "-w", type=int, default=None, help="Local worker threads (default: all cores)."),
        click.option("--scheduler", default=None, metavar="URL", help=SCHEDULER_HELP),
        click.option("--dask-local", type=int, default=None, metavar="N", help="Start a Dask LocalCluster of N processes."),
    ]):
        func = option(func)
    return func


@click.command()
@click.argument("game")
@click.option("--preset", "-p", metavar="NAME")
@click.option("--characters", "-c", metavar="A,B")
@click.option("--param", "params", type=ASSIGNMENT, multiple=True, help="Fix one rule parameter (repeatable).")
@click.option("--policy", default="heuristic", show_default=True, help="Starting point: heuristic or heuristic:FILE.")
@click.option("--cards", type=click.Path(exists=True, file_okay=False), metavar="DIR")
@click.option("--budget-games", type=int, default=400_000, show_default=True, help="Games the search may play.")
@click.option("--minutes", type=float, default=None, help="Also stop the search after this many minutes.")
@click.option("--population", type=int, default=16, show_default=True, help="Candidates per generation.")
@click.option("--games-per-candidate", type=int, default=2_000, show_default=True)
@click.option("--seed", "train_seed", type=int, default=1000, show_default=True, help="Seed of the search's first generation.")
@click.option("--holdout-seed", type=int, default=777, show_default=True, help="Seed of the final, unseen comparison.")
@click.option("--holdout-games", type=int, default=20_000, show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), default="tuned-weights.toml", show_default=True,
              help="Weights file to write (load it with --policy heuristic:FILE).")
@executor_options
def tune(game, preset, characters, params, policy, cards, budget_games, minutes, population, games_per_candidate,
         train_seed, holdout_seed, holdout_games, output, workers, scheduler, dask_local) -> None:
    """Search GAME's heuristic weights for the highest win rate; report it on held-out games."""
    from boardsim.tune import save_weights, tune as run_tune

    from .main import say_if_compiling

    spec = boardsim.get_game(game)
    say_if_compiling()
    from tqdm import tqdm

    bar = tqdm(total=budget_games, unit="game", unit_scale=True, file=sys.stderr, desc=f"{spec.name} tune", leave=False)

    def show(status) -> None:
        bar.set_postfix_str(f"generation {status.generation}/{status.generations}, "
                            f"best {100 * status.best_rate:.1f}%, mean {100 * status.mean_rate:.1f}%", refresh=False)
        bar.update(status.games_done - bar.n)

    try:
        result = run_tune(game, preset=preset, params=dict(params), characters=characters, policy=policy, cards=cards,
                          budget_games=budget_games, minutes=minutes, population=population,
                          games_per_candidate=games_per_candidate, train_seed=train_seed,
                          holdout_seed=holdout_seed, holdout_games=holdout_games, workers=workers,
                          scheduler=scheduler, dask_local=dask_local, progress=show)
    finally:
        bar.close()
    path = save_weights(result, output)
    prov = result.provenance
    cmp = result.comparison
    lines = [
        f"game      {spec.name}: {prov['rules_text']}",
        f"search    {prov['generations']} generations x {prov['population']} candidates x "
        f"{prov['games_per_candidate']:,} games (seeds {prov['train_seed']}..{prov['train_seed'] + prov['generations'] - 1}), "
        f"{prov['seconds']:.0f} s",
        f"validation seed {prov['validation_seed']}, {prov['validation_games']:,} games: default "
        f"{prov['validation_wins']['default']:,} wins, tuned {prov['validation_wins']['tuned']:,} wins "
        f"-> {'tuned' if result.chose_tuned else 'kept the starting weights'}",
        "",
        f"held-out seed {holdout_seed}, {holdout_games:,} games each:",
    ]
    lines += text_table(["weights", "win rate [95% CI]"], [
        [policy, rate_cell(*result.default_holdout)],
        ["tuned" if result.chose_tuned else "(kept)", rate_cell(*result.chosen_holdout)],
    ])
    lines.append(f"  difference {100 * cmp.diff:+.2f} pp [{100 * cmp.low:+.2f}, {100 * cmp.high:+.2f}] on the same games, "
                 f"McNemar p {p_cell(cmp.p_value)}")
    lines.append(f"\nwrote {path}; use it with --policy heuristic:{path}")
    click.echo("\n".join(lines))


@click.command()
@click.argument("game")
@click.option("--target", type=ASSIGNMENT, required=True, help="What to hit, e.g. win_rate=0.5.")
@click.option("--vary", required=True, metavar="PARAM", help="The integer rule parameter to search, e.g. bounty_deck.")
@click.option("--range", "value_range", default=None, metavar="LOW..HIGH", help="Search range (default: the parameter's).")
@click.option("--preset", "-p", metavar="NAME")
@click.option("--characters", "-c", metavar="A,B")
@click.option("--param", "--fixed", "params", type=ASSIGNMENT, multiple=True, help="Fix another parameter (repeatable).")
@click.option("--policy", default="heuristic", show_default=True)
@click.option("--cards", type=click.Path(exists=True, file_okay=False), metavar="DIR")
@click.option("--precision", type=float, default=0.01, show_default=True, help="95%% CI half-width of the answer.")
@click.option("--max-games", type=int, default=200_000, show_default=True, help="Cap per probed value.")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--store", default=None, metavar="DIR", help="Result store to keep (and resume) the probes in.")
@executor_options
def calibrate(game, target, vary, value_range, preset, characters, params, policy, cards, precision, max_games,
              seed, store, workers, scheduler, dask_local) -> None:
    """Find the value of one rule parameter whose win rate is closest to a target."""
    from boardsim.calibrate import calibrate as run_calibrate

    from .main import say_if_compiling

    name, value = target
    if name != "win_rate":
        raise ParamError(f"--target: '{name}' unknown; allowed: win_rate")
    try:
        rate = float(value)
    except ValueError:
        raise ParamError(f"--target: win_rate={value!r} is not a number; allowed: a rate between 0 and 1") from None
    low = high = None
    if value_range:
        parts = value_range.split("..")
        if len(parts) != 2:
            raise ParamError(f"--range: {value_range!r}; allowed: LOW..HIGH, e.g. 5..15")
        low, high = parts
    say_if_compiling()
    result = run_calibrate(game, vary, target=rate, preset=preset, params=dict(params), characters=characters,
                           policy=policy, cards=cards, low=low, high=high, precision=precision,
                           max_games=max_games, seed=seed, store=store, workers=workers, scheduler=scheduler,
                           dask_local=dask_local, progress=lambda line: click.echo(f"  probe {line}", err=True))
    best = result.probes[result.probes["value"] == result.value].iloc[0]
    lines = [f"{vary} = {result.value}: win rate {rate_cell(int(best['wins']), int(best['games']))} "
             f"(target {100 * rate:g}%, {result.games:,} games, seed {seed})", "", "probes (same games at every value):"]
    lines += text_table([vary, "games", "win rate [95% CI]"],
                        [[str(r.value), f"{r.games:,}", rate_cell(r.wins, r.games)]
                         for r in result.probes.itertuples()])
    lines += [f"note: {note}" for note in result.notes]
    if result.store:
        lines.append(f"\nstore {result.store}")
    click.echo("\n".join(lines))

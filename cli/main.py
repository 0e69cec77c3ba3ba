"""`boardsim` command line: parse, call the library, print.

Every `boardsim.errors.BoardsimError` (bad game, preset, parameter, character, card data, ...)
ends the command with a one-line `Error: ...` on stderr and exit code 2, never a traceback.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

import boardsim
from boardsim import registry
from boardsim.errors import BoardsimError

from boardsim.store import METADATA_KEY, write_parquet
from .params import ASSIGNMENT
from .summary import summary_lines

PROGRESS_MIN_GAMES = 20_000


class UserError(click.ClickException):
    """A BoardsimError shown as `Error: <one line>` with exit code 2 (like a usage error)."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split("\n")).strip() or "unknown error")


class BoardsimGroup(click.Group):
    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except BoardsimError as exc:
            raise UserError(str(exc)) from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            ctx.exit(130)


@click.group(cls=BoardsimGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(boardsim.__version__, prog_name="boardsim")
def cli() -> None:
    """Monte Carlo balance analysis for tabletop games."""


# ------------------------------------------------------------------------------- shared options

DIR = click.Path(exists=True, file_okay=False, dir_okay=True, path_type=str)


def rule_options(func):
    """Options that pick the rules and the players: shared by simulate and trace."""
    options = [
        click.option("--preset", "-p", metavar="NAME", help="Named difficulty/rule preset (see `boardsim games`)."),
        click.option("--characters", "-c", metavar="A,B", help="The team (the game's team parameter), e.g. spike,jet for bebop, pilot,gunner for bossin."),
        click.option(
            "--param", "params", type=ASSIGNMENT, multiple=True,
            help="Override one rule parameter, e.g. --param vicious=4 (repeatable).",
        ),
        click.option("--policy", default="heuristic", show_default=True, help="Decision policy."),
        click.option("--cards", type=DIR, metavar="DIR", help="Directory of replacement card-data files."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


# ------------------------------------------------------------------------------------- games


def _table(rows: list[tuple[str, ...]], indent: str = "    ") -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    out = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths)] + [row[-1]]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def _fmt(param, value) -> str:
    try:
        return param.format(param.parse(value))
    except Exception:  # show a value the spec itself rejects as it is written
        return str(value)


def game_lines(spec) -> list[str]:
    lines = [f"{spec.name} - {spec.title} (version {spec.version})"]
    if spec.description:
        lines.append(f"  {spec.description}")
    lines.append("  parameters:")
    rows = [("name", "allowed", "default", "help")]
    rows += [(p.name, p.allowed(), _fmt(p, p.default), p.help) for p in spec.params]
    lines += _table(rows)
    lines.append(f"  presets (default: {spec.default_preset}):")
    names = {p.name: p for p in spec.params}
    width = max((len(name) for name in spec.presets), default=0)
    for name, values in spec.presets.items():
        shown = ", ".join(
            f"{key}={_fmt(names[key], value) if key in names else value}" for key, value in values.items()
        )
        lines.append(f"    {name:<{width}}  {shown or '(the defaults)'}")
    lines.append(f"  policies: {', '.join(spec.policies)}")
    return lines


@cli.command()
@click.argument("names", nargs=-1, metavar="[GAME]...")
def games(names: tuple[str, ...]) -> None:
    """List the games with their parameters, presets and policies."""
    failed = False
    blocks: list[list[str]] = []
    for name in names or registry.game_names():
        if names:  # asked for by name: a bad name is the user's error
            blocks.append(game_lines(boardsim.get_game(name)))
            continue
        try:
            spec = boardsim.get_game(name)
        except Exception as exc:  # one game that fails to load must not hide the others
            failed = True
            click.echo(f"warning: game '{name}' could not be loaded: {type(exc).__name__}: {exc}", err=True)
            continue
        blocks.append(game_lines(spec))
    click.echo("\n\n".join("\n".join(block) for block in blocks))
    if failed:
        click.get_current_context().exit(1)


# ---------------------------------------------------------------------------------- simulate


@cli.command()
@click.argument("game")
@rule_options
@click.option("-n", "--games", "n", type=int, default=10_000, show_default=True, help="Number of games.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Root seed.")
@click.option("--threads", "-t", type=int, default=None, help="Worker threads (default: all cores).")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, writable=True, path_type=str), metavar="FILE.parquet",
    help="Also write one row per game, with provenance, to a parquet file.",
)
@click.option("--progress/--no-progress", default=True, help=f"Progress bar on stderr (from {PROGRESS_MIN_GAMES} games).")
def simulate(game, preset, characters, params, policy, cards, n, seed, threads, output, progress) -> None:
    """Simulate N games of GAME and summarise the outcomes."""
    spec = boardsim.get_game(game)
    say_if_compiling()
    bar = None
    callback = None
    if progress and n >= PROGRESS_MIN_GAMES:
        from tqdm import tqdm

        bar = tqdm(total=n, unit="game", unit_scale=True, file=sys.stderr, desc=spec.name, leave=False)
        callback = bar.update
    try:
        df = boardsim.simulate(
            game, preset=preset, params=dict(params), characters=characters, n=n, seed=seed,
            policy=policy, cards=cards, threads=threads, progress=callback,
        )
    finally:
        if bar is not None:
            bar.close()
    click.echo("\n".join(summary_lines(df, spec)))
    if output:
        try:
            path = write_parquet(df, output)
        except OSError as exc:
            raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None
        click.echo(f"\nwrote {len(df)} rows to {path} (provenance: parquet metadata key '{METADATA_KEY.decode()}')")


def say_if_compiling() -> None:
    """A cold first run compiles for minutes before the first game: say so instead of looking stuck."""
    from boardsim._jit import cache_is_warm

    if not cache_is_warm():
        click.echo("compiling the game kernels for this version of boardsim (about 3 minutes on a "
                   "2-core machine; later runs load them from the cache) ...", err=True)


# ------------------------------------------------------------------------------------- trace


@cli.command()
@click.argument("game")
@click.option("--seed", "-s", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Root seed (as for simulate).")
@click.option("--game-index", "-g", type=click.IntRange(min=0), default=0, show_default=True,
              help="Which game of that seed (a row's game_index).")
@rule_options
def trace(game, seed, game_index, preset, characters, params, policy, cards) -> None:
    """Play one game turn by turn: the same game simulate plays as row GAME_INDEX of SEED."""
    say_if_compiling()
    lines = boardsim.trace(
        game, seed=seed, game_index=game_index, preset=preset, params=dict(params),
        characters=characters, policy=policy, cards=cards,
    )
    for line in lines:
        click.echo(line)


# ------------------------------------------------------------------------------------- cards


@cli.group(cls=BoardsimGroup)
def cards() -> None:
    """Card data: check your own card files."""


@cards.command("validate")
@click.argument("directory", type=DIR, metavar="DIR")
@click.option("--game", default="bebop", show_default=True, help="Game whose card format to check.")
def validate(directory: str, game: str) -> None:
    """Check every card file in DIR; exit 1 if any problem is found."""
    spec = boardsim.get_game(game)
    problems = list(spec.validate_cards(directory))
    if problems:
        for problem in problems:
            click.echo(problem)
        click.echo(f"{directory}: {len(problems)} problem{'s' if len(problems) != 1 else ''}", err=True)
        click.get_current_context().exit(1)
    files = sorted(p.name for p in Path(directory).iterdir() if p.is_file() and p.suffix == ".toml")
    card_set = spec.load_cards(directory)
    digest = getattr(card_set, "data_hash", None)
    details = [f"game {spec.name}", f"{len(files)} card file{'s' if len(files) != 1 else ''}"]
    if digest is not None:
        details.append(f"cards hash {digest}")
    click.echo(f"{directory}: valid ({', '.join(details)})")


from . import batch, report, tuning  # noqa: E402  (these commands import helpers from this module)

cli.add_command(batch.sweep)
cli.add_command(batch.summarize)
cli.add_command(batch.plan)
cli.add_command(tuning.tune)
cli.add_command(tuning.calibrate)
cli.add_command(report.run)
cli.add_command(report.report)
cli.add_command(report.diff)


if __name__ == "__main__":  # pragma: no cover - `python -m boardsim.cli.main`
    cli(prog_name="boardsim")

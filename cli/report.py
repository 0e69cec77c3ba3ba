"""Report commands: `run` (an analysis file into its store and report), `report` (a report from any
store) and `diff` (before/after comparison of two stores)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from .batch import SCHEDULER_HELP


def _progress_bar(enabled: bool):
    if not enabled:
        return None, None
    from tqdm import tqdm

    bar = tqdm(total=0, unit="game", unit_scale=True, file=sys.stderr, leave=False)
    state = {"study": None, "base_total": 0, "base_done": 0}

    def callback(study: str, status) -> None:
        if study != state["study"]:  # a new study: keep counting on from the previous ones
            state["base_total"], state["base_done"] = bar.total or 0, bar.n
            state["study"] = study
            bar.set_description(f"study {study}")
        bar.total = state["base_total"] + status.games_planned
        bar.set_postfix_str(f"win {100 * status.wins / max(1, status.games_done):.1f}% (pooled)", refresh=False)
        bar.update(state["base_done"] + status.games_done - bar.n)

    return bar, callback


def _report_lines(report) -> list[str]:
    flagged = [f for f in report.findings if f.flag]
    lines = [f"report    {report.path / 'index.html'}  (also report.md, summary.csv, figures/)",
             f"sections  {', '.join(report.sections)}",
             f"findings  {len(report.findings)} ({len(flagged)} flagged)"]
    lines += [f"  ! {f.text}" for f in flagged[:8]]
    if len(flagged) > 8:
        lines.append(f"  ... {len(flagged) - 8} more in the report")
    return lines


@click.command()
@click.argument("analysis", type=click.Path(exists=True, dir_okay=False))
@click.option("--out", "-o", default=None, metavar="DIR", help="Report folder (default reports/NAME).")
@click.option("--store", default=None, metavar="DIR", help="Result store (default runs/NAME; re-running resumes).")
@click.option("--workers", "-w", type=int, default=None, help="Local worker threads (default: all cores).")
@click.option("--scheduler", default=None, metavar="URL", help=SCHEDULER_HELP)
@click.option("--dask-local", type=int, default=None, metavar="N", help="Start a Dask LocalCluster of N worker processes.")
@click.option("--progress/--no-progress", default=True, help="Progress bar on stderr.")
def run(analysis, out, store, workers, scheduler, dask_local, progress) -> None:
    """Play an analysis file (analyses/NAME.toml) and write its report (reports/NAME/)."""
    from boardsim.report import load_analysis, run_and_report

    from .main import say_if_compiling

    spec = load_analysis(analysis)  # a malformed file fails here, before anything compiles
    say_if_compiling()
    bar, callback = _progress_bar(progress)
    try:
        report, interrupted, seconds = run_and_report(analysis, out, store, workers, scheduler, dask_local, callback)
    finally:
        if bar is not None:
            bar.close()
    store_path = store or f"runs/{spec.name}"
    if interrupted:
        click.echo(f"interrupted after {seconds:.0f} s: finished chunks are in {store_path}; run the same command "
                   "again to play only what is missing and write the report", err=True)
        click.get_current_context().exit(130)
    click.echo(f"analysis  {spec.title} ({analysis}): {len(spec.studies)} studies, seed {spec.seed}, "
               f"played in {seconds:.0f} s; store {store_path}")
    click.echo("\n".join(_report_lines(report)))


@click.command()
@click.argument("store", type=click.Path(exists=True, file_okay=False))
@click.option("--out", "-o", required=True, metavar="DIR", help="Report folder to write.")
@click.option("--game", default=None, help="The game, when the store holds several.")
@click.option("--seed", type=int, default=None, help="Root seed, when the store holds several.")
@click.option("--title", default=None, help="Report title.")
@click.option("--cards", type=click.Path(exists=True, file_okay=False), default=None, metavar="DIR",
              help="Card data the store was played with, for the traced games (default: the shipped data).")
def report(store, out, game, seed, title, cards) -> None:
    """Build a report from a result store (what `sweep` or `run` wrote)."""
    from boardsim.report import report_from_store

    built = report_from_store(store, out, game=game, seed=seed, title=title, cards=cards)
    click.echo("\n".join(_report_lines(built)))


@click.command()
@click.argument("before", type=click.Path(exists=True, file_okay=False))
@click.argument("after", type=click.Path(exists=True, file_okay=False))
@click.option("--out", "-o", required=True, metavar="DIR", help="Report folder to write.")
@click.option("--labels", default="before,after", show_default=True, metavar="A,B", help="Names of the two versions.")
@click.option("--seed", type=int, default=None, help="Compare only this root seed's games.")
@click.option("--ignore", multiple=True, metavar="PARAM",
              help="Match settings ignoring this rule parameter (repeatable): compare a rule change as a version.")
def diff(before, after, out, labels, seed, ignore) -> None:
    """Before/after balance comparison of two stores (e.g. two card-data versions), paired where seeds match."""
    from boardsim.errors import ParamError
    from boardsim.report import diff_report

    names = [part.strip() for part in labels.split(",")]
    if len(names) != 2 or not all(names) or names[0] == names[1]:
        raise ParamError(f"--labels: {labels!r}; allowed: two different names, e.g. before,after")
    table = diff_report(before, after, out, names[0], names[1], seed, tuple(ignore))
    changed = int((table["p_holm"] < 0.05).sum())
    click.echo(f"report    {Path(out) / 'index.html'}  (also report.md, summary.csv, figures/)")
    click.echo(f"compared  {len(table)} rule settings; {changed} changed significantly (Holm p < 0.05)")

"""Balance reports: run a declarative analysis, build its HTML/Markdown report, compare two versions.

    from boardsim.report import load_analysis, run_and_report, report_from_store, diff_report
    run_and_report("analyses/bebop-difficulty.toml")          # plays (resuming) and writes reports/...
    report_from_store("runs/my-sweep", "reports/my-sweep")    # any store a sweep wrote
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..registry import get_game
from .analysis import SECTIONS, Analysis, AnalysisError, Study, default_store, load_analysis, run_analysis
from .build import Report, build_report
from .data import GameRows, open_store, store_seed, study_from_store, study_from_sweep
from .diff import diff_report

__all__ = ["Analysis", "AnalysisError", "Report", "SECTIONS", "Study", "build_report", "diff_report",
           "load_analysis", "report_from_store", "run_and_report", "run_analysis"]


def report_for_analysis(analysis: Analysis, results, out_dir: str | Path, store: str | Path) -> Report:
    spec = get_game(analysis.game)
    studies = [study_from_sweep(spec, study.name, study.title, result.summary) for study, result in results]
    return build_report(spec, open_store(store), out_dir, studies, analysis.seed, analysis.title,
                        analysis.description, analysis.sections, analysis.target, analysis.preset_targets,
                        analysis.trace_games, analysis.trace_points, analysis.cards,
                        extra_provenance={"analysis file": str(analysis.path.name) if analysis.path else "-",
                                          "reproduce": f"boardsim run {analysis.path.as_posix() if analysis.path else ''}"})


def run_and_report(path: str | Path, out_dir: str | Path | None = None, store: str | Path | None = None,
                   workers: int | None = None, scheduler: str | None = None, dask_local: int | None = None,
                   progress: Callable[[str, Any], None] | None = None) -> tuple[Report | None, bool, float]:
    """Play an analysis file (resuming its store) and write its report; returns (report, interrupted,
    seconds). An interrupted run writes no report: re-running resumes and then writes it."""
    analysis = load_analysis(path)
    store = Path(store) if store is not None else default_store(analysis)
    results, interrupted, seconds = run_analysis(analysis, store, workers, scheduler, dask_local, progress)
    if interrupted:
        return None, True, seconds
    out = Path(out_dir) if out_dir is not None else Path("reports") / analysis.name
    return report_for_analysis(analysis, results, out, store), False, seconds


def report_from_store(store_path: str | Path, out_dir: str | Path, game: str | None = None, seed: int | None = None,
                      title: str | None = None, cards: str | None = None) -> Report:
    """A report from any result store: the whole store is one study whose axes are the rules that vary."""
    store = open_store(store_path)
    games = sorted({p["identity"]["game"] for p in store.points()})
    if game is None:
        if len(games) != 1:
            from ..errors import BoardsimError
            raise BoardsimError(f"{store_path}: the store holds games {', '.join(games) or 'none'}; choose one with --game")
        game = games[0]
    spec = get_game(game)
    seed = seed if seed is not None else store_seed(store)
    rows = GameRows(store, seed)
    study = study_from_store(spec, store, seed, rows)
    return build_report(spec, store, out_dir, [study], seed, title or f"{spec.title}: results in {Path(store_path).name}",
                        cards=cards, rows=rows)

"""Analyses and reports: analysis-file validation, the report's content against its numbers,
scripted findings on hand-built stores, and the before/after diff."""
from __future__ import annotations

import base64
import io
import re
import xml.etree.ElementTree as ET

import matplotlib.image
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import boardsim
from boardsim import stats
from boardsim.cli.main import cli
from boardsim.report import AnalysisError, build_report, diff_report, load_analysis, report_from_store, run_and_report
from boardsim.report.analysis import read_run_log
from boardsim.report.build import interval, pct
from boardsim.report.data import GameRows, study_from_store
from boardsim.store import ResultStore

COIN_ANALYSIS = """
title = "Coin report"
game = "coin"
seed = 4
games = 600
[target]
win_rate = [0.2, 0.6]
[[study]]
name = "presets"
title = "Presets by team"
grid = { preset = "fair,rigged,short", characters = ["alice", "alice+bob"] }
[[study]]
name = "bias-flips"
grid = { bias = "30..50..10", flips = "4..6" }
games = 400
[[study]]
name = "teams"
grid = { characters = "all-teams" }
"""


def write(tmp_path, text, name="a.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


# ------------------------------------------------------------------------------ analysis files

BAD_FILES = [
    ('game = "coin"\n[[study]]\nname="x"\ngrid={bias="1..3"}', "field 'title' is missing"),
    ('title="t"\ngame="coin"\ncolour=1\n[[study]]\nname="x"\ngrid={bias="1..3"}', "field 'colour' is unknown; allowed:"),
    ('title="t"\ngame="coin"\ngames=0\n[[study]]\nname="x"\ngrid={bias="1..3"}', "field 'games' is 0; allowed: an integer >= 1"),
    ('title="t"\ngame="coin"\n[[study]]\nname="x"\ngrid={speed="1..3"}', "field 'study[0].grid' is invalid"),
    ('title="t"\ngame="coin"\n[[study]]\nname="x"\ngrid={bias="1..300"}', "field 'study[0].grid' is invalid"),
    ('title="t"\ngame="coin"\nsections=["pie"]\n[[study]]\nname="x"\ngrid={bias="1..3"}', "field 'sections' names 'pie'"),
    ('title="t"\ngame="coin"\n[target]\nwin_rate=[0.5,0.2]\n[[study]]\nname="x"\ngrid={bias="1..3"}', "field 'target.win_rate'"),
    ('title="t"\ngame="coin"\n[target.presets]\nhard=[0.1,0.2]\n[[study]]\nname="x"\ngrid={bias="1..3"}', "field 'target.presets.hard' is not a preset"),
    ('title="t"\ngame="coin"\n[[study]]\nname="x"\ngrid={bias="1..3"}\ngames=5\nprecision=0.1', "field 'study[0].precision'"),
    ('title="t"\ngame="coin"\n[[study]]\nname="x"\ngrid={bias="1..3"}\ncolour=2', "field 'study[0].colour' is unknown"),
    ('title="t"\ngame="coin"', "field 'study' is missing"),
    ('title="t"\ngame="coin"\n[[study]]\nname="x"\ngrid={bias="1..3"}\n[[study]]\nname="x"\ngrid={bias="4"}', "field 'study[1].name'"),
    ('title="t"\ngame="chess"\n[[study]]\nname="x"\ngrid={bias="1..3"}', "field 'game' names an unknown game"),
    ('title="t"\ngame="coin"\n[[study]]\nname="x"\ngrid={bias="1..3"}\npolicy="psychic"', "field 'study[0].policy'"),
    ('title = "t\ngame="coin"', "not valid TOML"),
]


@pytest.mark.parametrize("text, expected", BAD_FILES)
def test_a_malformed_analysis_file_is_one_line_naming_the_key(coin_game, tmp_path, text, expected):
    path = write(tmp_path, text)
    with pytest.raises(AnalysisError) as info:
        load_analysis(path)
    message = str(info.value)
    assert expected in message and "\n" not in message and str(path) in message


def test_cli_run_reports_a_bad_file_as_one_error_line(coin_game, tmp_path):
    path = write(tmp_path, BAD_FILES[1][0])
    result = CliRunner().invoke(cli, ["run", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "colour" in lines[0]
    assert "Traceback" not in result.output


def test_shipped_analyses_load():
    import pathlib

    files = sorted(pathlib.Path(__file__).parent.parent.joinpath("analyses").glob("*.toml"))
    assert {f.stem for f in files} >= {"bebop-difficulty", "bebop-characters", "bebop-policies"}
    for path in files:
        analysis = load_analysis(path)
        assert analysis.studies and analysis.title


# --------------------------------------------------------------------------- an analysis report

def _data_images(page: str) -> list[bytes]:
    return [base64.b64decode(m) for m in re.findall(r'src="data:image/png;base64,([^"]+)"', page)]


@pytest.fixture(scope="module")
def coin_report(tmp_path_factory):
    """One coin analysis run and report, shared by the tests that only read it."""
    from boardsim import registry
    from conftest import COIN

    tmp_path = tmp_path_factory.mktemp("coin-report")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "GAME_MODULES", {})
        patch.setattr(registry, "_loaded", {})
        registry.register(COIN)
        patch.chdir(tmp_path)
        path = write(tmp_path, COIN_ANALYSIS, "coin-report.toml")
        report, interrupted, _ = run_and_report(path, workers=2)
        assert not interrupted
        yield report, tmp_path


def test_analysis_report_has_its_sections_and_files(coin_report):
    report, root = coin_report
    folder = root / "reports" / "coin-report"
    assert report.path.resolve() == folder
    # the coin game has no trajectory hook and no margins: those parts are left out, the rest is there
    assert report.sections == ["findings", "presets", "heatmap", "survival", "losses", "characters", "length",
                               "provenance"]
    page = (folder / "index.html").read_text()
    for section in report.sections:
        assert f'<section id="{section}">' in page
    assert (folder / "report.md").read_text().startswith("# Coin report")
    figures = sorted(p.stem for p in (folder / "figures").glob("*.png"))
    assert sorted(p.stem for p in (folder / "figures").glob("*.svg")) == figures
    assert "presets-presets" in figures and "heatmap-bias-flips-1" in figures and "teams-teams-1" in figures


def test_report_numbers_equal_the_summary_table(coin_report):
    report, root = coin_report
    folder = root / "reports" / "coin-report"
    summary = pd.read_csv(folder / "summary.csv")
    page = (folder / "index.html").read_text()
    store = ResultStore(root / "runs" / "coin-report", create=False)
    for row in summary.itertuples(index=False):
        games = store.read_point(row.point, ["win"], 4)
        assert row.games == len(games) and row.wins == int(games["win"].sum())
        _, low, high, method = stats.rate_interval(row.wins, row.games)
        assert (row.win_low, row.win_high, row.ci_method) == (pytest.approx(low), pytest.approx(high), method)
        assert f"<td>{pct(row.win_rate)}</td><td>{interval(row.win_low, row.win_high)}</td>" in page
    assert set(summary["study"]) == {"presets", "bias-flips", "teams"}
    assert len(summary[summary["study"] == "bias-flips"]) == 9


def test_report_is_self_contained_and_its_images_decode(coin_report):
    _, root = coin_report
    folder = root / "reports" / "coin-report"
    page = (folder / "index.html").read_text()
    for forbidden in ("http://", "https://", "<script", "<link", "url(", "@import"):
        assert forbidden not in page
    sources = re.findall(r'src="([^"]*)"', page)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    images = _data_images(page)
    assert len(images) == len(list((folder / "figures").glob("*.png")))
    for data in images:
        pixels = matplotlib.image.imread(io.BytesIO(data), format="png")
        assert pixels.ndim == 3 and pixels.shape[0] > 100 and pixels.shape[1] > 100
    for svg in (folder / "figures").glob("*.svg"):
        assert ET.parse(svg).getroot().tag.endswith("svg")


def test_cli_re_run_resumes_and_report_rebuilds_from_the_store(coin_report, coin_game, monkeypatch):
    _, root = coin_report
    monkeypatch.chdir(root)
    before = (root / "reports" / "coin-report" / "summary.csv").read_text()
    result = CliRunner().invoke(cli, ["run", "coin-report.toml", "--no-progress", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "reports/coin-report/index.html" in result.output and "findings" in result.output
    runs = read_run_log(root / "runs" / "coin-report")
    assert len(runs) == 2 and runs[0]["games_played"] > 0 and runs[1]["games_played"] == 0
    assert (root / "reports" / "coin-report" / "summary.csv").read_text() == before
    result = CliRunner().invoke(cli, ["report", "runs/coin-report", "-o", "again"])
    assert result.exit_code == 0, result.output
    page = (root / "again" / "index.html").read_text()
    assert '<section id="characters">' in page and '<section id="provenance">' in page


# ------------------------------------------------------------- findings on hand-built stores

def crafted_store(spec, path, points, n=1000, seed=0, cards_hash="cards-1"):
    """A store whose points have exactly the given wins: `points` is [(rules overrides, win array[, policy])]."""
    store = ResultStore(path)
    for overrides, wins, *policy in points:
        rules = spec.resolve(None, overrides)
        batch = spec.prepare(rules, policy[0] if policy else "heuristic", None)
        identity = {**batch.identity, "cards_hash": cards_hash}
        key = f"k{abs(hash((str(sorted(identity['rules'].items())), identity['policy'], cards_hash))) % 10**12:012d}"
        store.add_point(key, identity, batch.provenance)
        frame = pd.DataFrame({"seed": np.full(n, seed, dtype=np.int64), "game_index": np.arange(n, dtype=np.int64),
                              "outcome": np.where(wins, "win", "bust"), "win": wins,
                              "turns": np.full(n, 5, dtype=np.int16), "heads": np.zeros(n, dtype=np.int16)})
        store.write_chunk(key, seed, 0, frame, identity)
    return store


def wins_first(k, n=1000):
    out = np.zeros(n, dtype=bool)
    out[:k] = True
    return out


def test_a_significant_step_against_the_trend_is_flagged(coin_game, tmp_path):
    # win rate over bias 10, 20, 30, 40: 10%, 30%, 20%, 40%: up overall, but 20 -> 30 goes down
    store = crafted_store(coin_game, tmp_path / "s", [({"bias": b}, wins_first(k)) for b, k in
                                                     ((10, 100), (20, 300), (30, 200), (40, 400))])
    report = report_from_store(store.path, tmp_path / "r")
    texts = [f.text for f in report.findings if f.flag]
    assert any(t.startswith("Non-monotone step: bias 20 to 30") and "-10.0 pt" in t for t in texts)
    assert not any("bias 10 to 20" in t or "bias 30 to 40" in t for t in texts)
    assert any(f.text.startswith("Raising bias from 10 to 40 raises the win rate in all 1 slice of") for f in report.findings)


def test_a_monotone_axis_gets_no_warning(coin_game, tmp_path):
    store = crafted_store(coin_game, tmp_path / "s", [({"bias": b}, wins_first(k)) for b, k in
                                                     ((10, 100), (20, 200), (30, 300))])
    report = report_from_store(store.path, tmp_path / "r")
    assert not any(f.flag for f in report.findings)
    assert any("No single step of bias goes significantly against" in f.text for f in report.findings)


def test_every_study_gets_its_own_trend_findings(coin_game, tmp_path):
    from boardsim.report.data import StudyData

    store = crafted_store(coin_game, tmp_path / "s", [({"bias": b, "flips": f}, wins_first(k + f)) for f in (4, 12)
                                                     for b, k in ((10, 100), (20, 200), (30, 300))])
    rows = GameRows(store, 0)
    table = study_from_store(coin_game, store, 0, rows).table
    studies = [StudyData(f"flips{f}", f"Flips {f}", ["bias"], table[table["flips"] == f].reset_index(drop=True), ["bias"])
               for f in (4, 12)]
    report = build_report(coin_game, store, tmp_path / "r", studies, 0, "t", rows=rows)
    for title in ("Flips 4", "Flips 12"):
        assert any(f.text.startswith("Raising bias from 10 to 30 raises the win rate in all 1 slice of " + title)
                   for f in report.findings)


def test_an_unordered_integer_gets_no_trend_findings(coin_game, tmp_path):
    import dataclasses

    from boardsim import registry

    # the same reversal as above, but the game declares bias a label (like Bossin's Boss number)
    params = tuple(dataclasses.replace(p, ordered=False) if p.name == "bias" else p for p in coin_game.params)
    registry.register(dataclasses.replace(coin_game, params=params))
    store = crafted_store(coin_game, tmp_path / "s", [({"bias": b}, wins_first(k)) for b, k in
                                                     ((10, 100), (20, 300), (30, 200), (40, 400))])
    report = report_from_store(store.path, tmp_path / "r")
    texts = [f.text for f in report.findings]
    assert texts and not any(t.startswith(("Non-monotone", "Raising bias", "Bias from", "No single step")) for t in texts)


def test_preset_steps_and_target_bands(coin_game, tmp_path):
    # fair 40%, rigged 39.5% (not separable), short 10%; fair and rigged paired on the same games
    store = crafted_store(coin_game, tmp_path / "s", [
        ({}, wins_first(400)), (coin_game.presets["rigged"], wins_first(395)), ({"flips": 4}, wins_first(100))])
    rows = GameRows(store, 0)
    study = study_from_store(coin_game, store, 0, rows)
    assert study.axes == ["preset"] and list(study.table["preset"]) == ["fair", "rigged", "short"]
    report = build_report(coin_game, store, tmp_path / "r", [study], 0, "t", target=(0.3, 0.5),
                          preset_targets={"short": (0.05, 0.2)}, rows=rows)
    texts = {f.text.split(":")[0]: f for f in report.findings}
    assert texts["rigged is not significantly harder than fair"].flag
    step = next(f for f in report.findings if f.text.startswith("short is significantly harder than rigged"))
    assert "39.5% vs 10.0%" not in step.text and "10.0% vs 39.5%" in step.text and not step.flag
    bands = [f for f in report.findings if "target band" in f.text]
    assert [f.flag for f in bands] == [False, False, False]  # fair, rigged in [30, 50]; short in its own band
    report = build_report(coin_game, store, tmp_path / "r2", [study], 0, "t", target=(0.45, 0.6), rows=rows)
    too_hard = [f for f in report.findings if f.text.startswith("Outside the target band [45.0, 60.0]%, too hard")]
    assert [f.text.split(":")[1].split()[0] for f in too_hard] == ["fair", "rigged", "short"]


def test_a_dominant_character_is_flagged(coin_game, tmp_path):
    # teams with alice win 60%, the others 20-24%: alice's effect is large and she is in every best team
    rates = {("alice",): 600, ("bob",): 200, ("carol",): 240, ("alice", "bob"): 620, ("alice", "carol"): 610,
             ("bob", "carol"): 220}
    store = crafted_store(coin_game, tmp_path / "s", [({"characters": team}, wins_first(k)) for team, k in rates.items()])
    report = report_from_store(store.path, tmp_path / "r")
    assert "characters" in report.sections
    dominant = [f for f in report.findings if f.text.startswith("Dominant character: alice")]
    assert len(dominant) == 1 and dominant[0].flag
    assert not any(f.text.startswith("Dominant character: bob") for f in report.findings)


def test_policy_gaps_and_a_verdict_that_changes_with_play_strength(coin_game, tmp_path):
    # heuristic: fair 40%, short 20% (clearly harder); random: fair 10.0%, short 9.8% (no difference)
    store = crafted_store(coin_game, tmp_path / "s", [
        ({}, wins_first(100), "random"), ({"flips": 4}, wins_first(98), "random"),
        ({}, wins_first(400), "heuristic"), ({"flips": 4}, wins_first(200), "heuristic")])
    report = report_from_store(store.path, tmp_path / "r")
    texts = [f.text for f in report.findings]
    # a store lists policies in name order, so heuristic is the baseline
    assert any(t.startswith("random vs heuristic at preset fair") and "10.0% vs 40.0%" in t for t in texts)
    assert any(t.startswith("random vs heuristic at preset short") and "9.8% vs 20.0%" in t for t in texts)
    weaker = [f for f in report.findings if f.text.startswith("short vs fair: harder under heuristic, not significant under random")]
    assert len(weaker) == 1 and not weaker[0].flag and "-0.20 pt" in weaker[0].text
    assert not any("reverses" in t for t in texts)


def test_a_preset_step_that_reverses_with_the_policy_is_flagged(coin_game, tmp_path):
    # heuristic: short is harder (40% -> 20%); random: short is easier (10% -> 14%)
    store = crafted_store(coin_game, tmp_path / "s", [
        ({}, wins_first(100), "random"), ({"flips": 4}, wins_first(140), "random"),
        ({}, wins_first(400), "heuristic"), ({"flips": 4}, wins_first(200), "heuristic")])
    report = report_from_store(store.path, tmp_path / "r")
    reversed_ = [f for f in report.findings if f.text.startswith("The difficulty verdict reverses with play strength")]
    assert len(reversed_) == 1 and reversed_[0].flag
    assert "short vs fair: harder under heuristic, easier under random" in reversed_[0].text


# -------------------------------------------------------------------------------------- diff

def test_diff_pairs_games_of_the_same_seed_and_flags_a_change(coin_game, tmp_path):
    before = crafted_store(coin_game, tmp_path / "a", [({"bias": 30}, wins_first(200)), ({"bias": 40}, wins_first(300))])
    after_wins = wins_first(200)
    after_wins[200:260] = True  # 60 more games won at bias 30, the same ones as before otherwise
    after = crafted_store(coin_game, tmp_path / "b", [({"bias": 30}, after_wins), ({"bias": 40}, wins_first(300))],
                          cards_hash="cards-2")
    table = diff_report(before.path, after.path, tmp_path / "d")
    table = table.set_index("point")
    assert list(table["design"]) == ["paired", "paired"]
    assert table.loc["bias 30", "diff"] == pytest.approx(0.06)
    assert table.loc["bias 30", "only_after_won"] == 60 and table.loc["bias 30", "only_before_won"] == 0
    assert table.loc["bias 30", "p_value"] == pytest.approx(stats.mcnemar_exact(60, 0))
    assert table.loc["bias 40", "diff"] == 0 and table.loc["bias 40", "p_value"] == 1.0
    page = (tmp_path / "d" / "index.html").read_text()
    assert "bias 30: easier in after" in page and "cards-1" in page and "cards-2" in page


def test_diff_without_common_games_is_independent(coin_game, tmp_path):
    before = crafted_store(coin_game, tmp_path / "a", [({"bias": 30}, wins_first(200))], seed=1)
    after = crafted_store(coin_game, tmp_path / "b", [({"bias": 30}, wins_first(260))], seed=2, cards_hash="cards-2")
    table = diff_report(before.path, after.path, tmp_path / "d")
    expected = stats.independent_difference(260, 1000, 200, 1000)
    assert table.iloc[0]["design"] == "independent"
    assert (table.iloc[0]["diff_low"], table.iloc[0]["diff_high"]) == pytest.approx((expected.low, expected.high))


def test_diff_of_unrelated_stores_is_a_clear_error_unless_the_rule_change_is_ignored(coin_game, tmp_path):
    before = crafted_store(coin_game, tmp_path / "a", [({"bias": 30}, wins_first(200))])
    after = crafted_store(coin_game, tmp_path / "b", [({"bias": 31}, wins_first(230))])
    result = CliRunner().invoke(cli, ["diff", str(before.path), str(after.path), "-o", str(tmp_path / "d")])
    assert result.exit_code == 2 and "no rule setting was played in both stores" in result.output
    result = CliRunner().invoke(cli, ["diff", str(before.path), str(after.path), "-o", str(tmp_path / "d"),
                                      "--ignore", "bias", "--labels", "bias30,bias31"])
    assert result.exit_code == 0, result.output
    assert "compared  1 rule settings; 1 changed significantly" in result.output
    summary = pd.read_csv(tmp_path / "d" / "summary.csv")
    assert summary.loc[0, "diff"] == pytest.approx(0.03) and summary.loc[0, "only_after_won"] == 30


def test_independent_difference_matches_statsmodels():
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    for k1, n1, k2, n2 in ((56, 70, 48, 80), (9, 10, 3, 10), (120, 2000, 150, 2100)):
        got = stats.independent_difference(k1, n1, k2, n2)
        low, high = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff")
        assert (got.low, got.high) == pytest.approx((low, high), abs=1e-9)
        p = test_proportions_2indep(k1, n1, k2, n2, method="score", correction=False).pvalue
        assert got.p_value == pytest.approx(p, rel=1e-6)


def test_an_interrupted_analysis_keeps_its_games_and_resumes(coin_game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, COIN_ANALYSIS.replace("games = 600", "games = 8000"), "long.toml")
    calls = []

    def interrupt_after_two_chunks(study, status):
        calls.append(status.games_done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    report, interrupted, _ = run_and_report(path, workers=1, progress=interrupt_after_two_chunks)
    assert report is None and interrupted
    assert not (tmp_path / "reports" / "long").exists()
    kept = read_run_log(tmp_path / "runs" / "long")[0]["games_played"]
    assert kept == calls[-1] > 0
    report, interrupted, _ = run_and_report(path, workers=1)
    assert not interrupted and report is not None
    total = read_run_log(tmp_path / "runs" / "long")
    played = kept + total[1]["games_played"]
    store = ResultStore(tmp_path / "runs" / "long", create=False)
    stored = sum(len(store.read_point(p["key"], ["win"])) for p in store.points())
    # distinct settings: 6 preset x team points, 4 more teams (alice and alice+bob at the defaults are
    # preset "fair"), 8 more bias x flips points (bias 50, flips 4 is preset "short" with alice)
    assert played == stored == 6 * 8000 + 4 * 8000 + 8 * 400

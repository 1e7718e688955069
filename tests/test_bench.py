"""Every benchmark script in bench/ still runs end to end, once, on a tiny size and without the
reference engine (which only the bench virtualenv of bench/README.md has): the figures the
README gives must stay reproducible with the commands it gives. Timings are not checked, only
that each script runs and reports dipgen's side. Deselect with ``-m "not bench"``.

Seed 9 matters: its first game has a phase nobody ordered (1901 winter), which the game
folders of `bench/corpus.py` must write as each power with an empty list.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.browser import browser_test

pytestmark = pytest.mark.bench

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def ok(script: str, *args: str) -> str:
    proc = run(script, *args)
    assert proc.returncode == 0, \
        f"bench/{script} {' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def test_every_script_is_covered():
    assert {p.name for p in BENCH.glob("*.py")} == {
        "adjudicate.py", "archive.py", "browsers.py", "build.py", "corpus.py", "datc_process.py", "datc_reference.py",
        "export.py", "histories.py", "orders.py", "pagebytes.py", "players.py", "private_pages.py", "raster.py",
        "render.py", "searchindex.py", "seam.py", "sheet.py", "table.py"}


def test_corpus_writes_game_folders_that_replay(tmp_path):
    out = ok("corpus.py", "--games", "1", "--years", "2", "--seed", "9", "--write", str(tmp_path))
    assert "1 games" in out
    winter = (tmp_path / "game-00" / "1901-winter.yml").read_text(encoding="utf-8")
    assert "[]" in winter  # nobody ordered: each power is listed with an empty list


def test_adjudicate(tmp_path):
    # seed 5: a civil disorder in 1903, which runs the classifier's emulation of the reference's order of removals
    out = ok("adjudicate.py", "--games", "1", "--years", "3", "--seed", "5", "--repeat", "1", "--no-reference")
    assert "phases/s" in out
    assert "reference: not run" in out
    assert "DATC 3.0 suite (tests/datc/datc_v3_0.txt): 164 passed, 0 failed" in out


def test_orders():
    out = ok("orders.py", "--repeat", "1", "--rounds", "1")
    assert "messages/s" in out
    assert "adjudicating the season" in out
    assert "corpus read right:" in out


@pytest.mark.slow  # the order sheets of a random game's positions, made and weighed
def test_sheet():
    out = ok("sheet.py", "--games", "1", "--years", "2", "--seed", "9", "--positions", "2", "--repeat", "1",
             "--pages", "1")
    assert "x the adjudication" in out
    assert "KB gzipped" in out
    assert "per power, KB raw/gzipped: Austria" in out
    assert "with the sheet" in out
    assert "the sheet ready at" in out


def test_render():
    out = ok("render.py", "--phases", "10", "--seed", "9", "--repeat", "1", "--no-reference")
    assert "dipgen overlay:" in out
    assert "dipgen standalone:" in out
    assert "adjustments" in out


@pytest.mark.slow  # maps drawn to PNG, against the SVG's own
def test_raster():
    out = ok("raster.py", "--maps", "2", "--repeat", "1")
    assert "2 maps" in out
    assert "x the baseline" in out
    assert "preview PNG 1200x630" in out


@pytest.mark.slow
def test_build():
    out = ok("build.py", "--games", "1", "--years", "2", "--seed", "9", "--skip-examples")
    assert "full build:" in out
    assert "serve --dirty refresh" in out


@pytest.mark.slow  # four builds of a one-game site
def test_seam():
    out = ok("seam.py", "--baseline", str(ROOT), "--only", "austrian-question", "--repeat", "1")
    for name in ("baseline", "layers", "layers, warm", "plain"):
        assert f"  {name} " in out
        assert "x1.00 of the baseline" in out


@pytest.mark.slow  # three whole-site builds and an export, as commands
def test_export():
    out = ok("export.py", "--only", "austrian-question", "--repeat", "1")
    assert "x1.00 of the plugin's build" in out
    assert "  export " in out
    for name in ("properdocs", "zensical"):  # the generators of requirements-export.txt, where installed
        installed = (Path(sys.executable).parent / name).exists()
        assert (f"  {name} " in out) == installed, out
        assert (f"{name}: not installed" in out) != installed, out
    assert ("  properdocs, whole " in out) == ("  properdocs " in out)  # the export without its hook


@pytest.mark.slow  # builds an archive of whole sites, several times
def test_archive():
    out = ok("archive.py", "--sizes", "1", "--years", "2", "--seed", "9", "--repeat", "1", "--archives", "random",
             "--idle", "0.5")
    assert "x the baseline" in out
    assert "of the full build" in out
    assert "peak memory" in out
    assert "the note shows on its page: True" in out
    assert "the archive's table shows it: True" in out  # the card-changing edit's rebuild published it
    assert "the server's watchers, nothing changed: " in out
    assert "MkDocs's polling of the games folder alone: " in out
    assert "an edit heard by the server's watcher after " in out


@pytest.mark.slow  # two full builds of a small archive
def test_archive_by_workers():
    out = ok("archive.py", "--sizes", "2", "--years", "2", "--seed", "9", "--repeat", "1", "--workers", "1,2")
    assert "workers 1:" in out
    assert "1.00x" in out
    assert "workers 2:" in out
    assert "the workers-1 build" in out


@browser_test  # builds a small archive and opens its pages in chromium
def test_pagebytes():
    out = ok("pagebytes.py", "--sizes", "1", "--years", "2", "--seed", "9")
    assert "x the goal" in out
    assert "its cost with the index whole" in out
    assert "x Material's" in out


@browser_test  # builds a one-game site and opens its pages in both browsers, where both are installed
def test_browsers():
    both = all(shutil.which(name) for name in ("chromium", "chromium-headless-shell"))
    proc = run("browsers.py", "--games", "austrian-question", "--loads", "1", "--repeat", "1")
    if both:
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "chromium                 a new context" in proc.stdout
        assert "x chromium's; the next page" in proc.stdout
    else:
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "not installed: chromium" in proc.stdout


@pytest.mark.slow  # builds a small archive and runs Pagefind's indexer on it twice
def test_searchindex():
    out = ok("searchindex.py", "--sizes", "2", "--years", "2", "--seed", "9", "--repeat", "1")
    assert "documents    Pagefind's peak" in out
    assert "whole pages  Pagefind's peak" in out
    assert "x the whole pages" in out


@pytest.mark.slow  # the players' pages of twenty games
def test_players():
    out = ok("players.py", "--games", "20", "--repeat", "1")
    assert "20 games, " in out
    assert "x the baseline" in out


@pytest.mark.slow
def test_private_pages():
    out = ok("private_pages.py", "--only", "lamps-out", "--copies", "1", "--repeat", "1")
    assert "7] private pages" in out
    assert "x the baseline's" in out
    assert "one edit under serve:" in out
    assert "PBKDF2 runs [0] against [7]" in out  # the edit: none against a seat each


def test_datc_process_and_the_reference_driver(tmp_path):
    file = tmp_path / "random.txt"
    out = ok("datc_process.py", "--phases", "20", "--repeat", "1", "--no-reference", "--keep", str(file))
    assert "-> 20 passed, 0 failed" in out
    proc = run("datc_reference.py", str(file))
    if importlib.util.find_spec("diplomacy") is None:
        assert proc.returncode == 2
        assert "the reference engine is not installed" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines()[-1].endswith(" differ"), proc.stderr
    # the driver's reading of the file needs no reference: every case, with units and orders
    spec = importlib.util.spec_from_file_location("datc_reference", BENCH / "datc_reference.py")
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    cases = list(driver.read_cases(str(file)))
    assert len(cases) == 20
    assert all(sections.get("PRESTATE") and sections.get("ORDERS") for _, _, sections in cases)


def test_histories():
    out = ok("histories.py", "games/austrian-question")
    assert out.startswith("=== austrian-question")
    assert "--- 1901-spring (exit 0)" in out


@pytest.mark.skipif(importlib.util.find_spec("diplomacy") is not None, reason="the reference is installed here")
def test_without_the_reference_a_benchmark_says_how_to_run():
    proc = run("render.py", "--phases", "5", "--repeat", "1")
    assert proc.returncode == 2
    assert "--no-reference" in proc.stdout
    assert "bench/requirements.txt" in proc.stdout


def test_table_runs_its_rows_and_says_what_it_could_not_compare():
    # the engine's row alone: the others build whole sites (minutes); each is its own script's test above
    out = ok("table.py", "--rows", "engine", "--phases", "20", "--repeat", "1")
    assert "| engine, whole process | random games | dipgen " in out
    installed = importlib.util.find_spec("diplomacy") is not None
    assert ("faster than the reference" in out) == installed, out
    assert ("the reference is not installed" in out) != installed, out
    assert "load average at the end" in out
    bad = run("table.py", "--rows", "engine,speed")
    assert bad.returncode == 2
    assert "no such row: speed" in bad.stderr

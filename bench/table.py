"""Issue 39's table in one run: every row as a figure against its named baseline or goal.

    python bench/table.py [--sizes 10,40,160] [--large] [--repeat 3] [--big-repeat 1] [--copies 3]
                          [--rows visit,build,export,engine] [--phases 1400]

Each row is measured by the script that owns it (imported, never copied), in this order:

- visit (bench/pagebytes.py): the heaviest first visit of a season page, a game page and the home
  page of the random archive at each size, kB gzipped, against the goal (300 kB at any size) and
  against the same season page with Material's whole search index (the baseline);
- build (bench/archive.py): for the random archive at each size and the realistic one (the example
  games x `--copies`), a cold `mkdocs build` against MkDocs alone on as many plain one-screen pages
  (goal 1.0x), one edit under `mkdocs serve` (goal under 1 s and flat), the peak memory of a cold
  build (goal 400 MB at 1,280 games), and from the largest random size the cold build's CPU time
  per game projected to 5,000 games (a projection, linear: said so in the row);
- export (bench/export.py): `dipgen export` of the example archive built by ProperDocs and by
  Zensical, against the plugin's own cold build (goal 1.2x);
- engine (bench/datc_process.py): `dipgen datc` on `--phases` movement phases against the reference
  engine's driver, as whole processes (goal at least 10x); without the reference's virtualenv
  (bench/README.md) the row says so and gives dipgen's own time.

`--large` adds 1,280 games to the random archive's sizes (hours here). CPU times of child
processes, runs interleaved, medians of `--repeat` (`--big-repeat` for archives of `BIG` games or
more: one run by default, so that the default run takes some 15 minutes on two quiet cores; the
row says how many runs), the load average printed with the table.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(REPO / "tests"))
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
ROWS = ("visit", "build", "export", "engine")
PROJECTED = 5000  # games: the largest archive, projected from the largest measured
BIG = 160  # games: an archive this big is built `--big-repeat` times, not `--repeat`


class Table:
    """The rows as they are measured: printed at once, and all together at the end."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def add(self, measure: str, archive: str, figure: str, against: str) -> None:
        self.rows.append((measure, archive, figure, against))
        print(f"-> {measure} | {archive} | {figure} | {against}", flush=True)

    def print(self, started: float) -> None:
        wall = time.perf_counter() - started
        print(f"\n## Issue 39's table (load average at the end {_load()}; {wall:.0f} s wall)\n")
        print("| measure | archive | figure | against its baseline or goal |")
        print("| --- | --- | --- | --- |")
        for row in self.rows:
            print("| " + " | ".join(row) + " |")


def visit_rows(table: Table, sizes: list[int], years: int, seed: int, work: Path) -> None:
    """First visits, kB gzipped (bench/pagebytes.py's build, servers and counts)."""
    from pagebytes import GOAL, built, measure, pagefound, unsplit
    from support.browser import chromium

    with chromium() as browser:
        for size in sizes:
            site = built(size, years, seed, work)
            copies = [pagefound(site, work), unsplit(site, work, "unsplit")]
            now = measure(browser, copies[0], "Random game 1")
            whole = measure(browser, copies[1], "Random game 1")
            worst = max(now["season"], now["game"], now["home"])
            table.add("first visit, heaviest of season, game and home pages", f"random, {size} games",
                      f"{worst:.0f} kB gzipped (season {now['season']:.0f}, game {now['game']:.0f}, "
                      f"home {now['home']:.0f})",
                      f"{worst / GOAL:.2f}x the goal ({GOAL:.0f} kB); the season page "
                      f"{now['season'] / whole['season']:.2f}x its {whole['season']:.0f} kB with the whole index")
            for folder in (site.parent, *copies):
                shutil.rmtree(folder)


def build_rows(table: Table, sizes: list[int], years: int, seed: int, repeats: tuple[int, int], copies: int,
               work: Path) -> None:
    """Cold build, serve edit, peak memory (bench/archive.py's projects, runs and baseline); `repeats`:
    the runs of an archive under `BIG` games, and of a bigger one."""
    from archive import archive_project, compare, realistic_project

    archives: list[tuple[str, Callable[[], Path], int]] = [
        (f"random, {size} games", lambda size=size: archive_project(work / f"random-{size}", size, years, seed), size)
        for size in sizes]
    if copies > 0:
        archives.append((f"realistic (the example games x{copies})",
                         lambda: realistic_project(work / "realistic", copies), 0))
    measured: list[tuple[int, float]] = []  # (games, cold build CPU) of the random archive
    for name, make, games in archives:
        print(f"\n== {name}", flush=True)
        project = make()
        games = games or sum(1 for p in (project / "games").iterdir() if (p / "game.yml").is_file())
        repeat = repeats[games >= BIG]
        out = compare(project, repeat, work, re.sub(r"\W+", "-", name), lean=True)
        runs = f"median of {repeat} runs" if repeat > 1 else "1 run"
        table.add("cold build", name, f"{out['full']:.2f} s CPU ({out['pages']} pages; {runs})",
                  f"{out['full'] / out['plain']:.2f}x MkDocs alone on as many plain pages ({out['plain']:.2f} s); "
                  f"goal 1.0x")
        table.add("one edit under serve", name, f"{out['edit']:.2f} s CPU (the note shown: {out['shown']})",
                  f"{out['edit'] / out['full']:.0%} of the cold build; goal under 1 s, flat")
        table.add("peak memory of a cold build", name, f"{out['peak']:.0f} MB ({out['peak'] / games:.2f} MB a game)",
                  f"{out['peak'] / 400:.2f}x the goal at 1,280 games (400 MB)")
        if name.startswith("random"):
            measured.append((games, out["full"]))
        shutil.rmtree(project)
    if measured:
        table.add(f"cold build at {PROJECTED:,} games", *projection(sorted(measured)),
                  "goal 10 minutes of wall time on 4 cores: a projection, not a run")


def projection(measured: list[tuple[int, float]]) -> tuple[str, str]:
    """(archive, figure) of the cold build's CPU time at `PROJECTED` games, on the line through the two
    largest archives measured (what a game adds, past the fixed costs), or per game from one."""
    games, cpu = measured[-1]
    if len(measured) == 1:
        return f"random, from {games}", f"{cpu / games * PROJECTED:.0f} s CPU, projected ({cpu / games:.3f} s a game)"
    fewer, less = measured[-2]
    slope = (cpu - less) / (games - fewer)
    return (f"random, from {fewer} and {games}",
            f"{cpu + slope * (PROJECTED - games):.0f} s CPU, projected ({slope:.3f} s a game more)")


def export_rows(table: Table, repeat: int, work: Path) -> None:
    """The export under ProperDocs and Zensical (bench/export.py's project and rounds)."""
    import export

    generators = {name: exe for name in ("properdocs", "zensical") if (exe := export.tool(name))}
    folder = export.project(work / "export", [])
    times: dict[str, list[float]] = {}
    for _ in range(repeat):
        for name, value in export.one_round(folder, generators).items():
            times.setdefault(name, []).append(value)
    base = statistics.median(times["plugin"])
    for name in ("properdocs", "zensical"):
        if name not in generators:
            table.add(f"export built by {name}", "the example games", "not measured",
                      "not installed (pip install -r requirements-export.txt)")
            continue
        med = statistics.median(times[name])
        table.add(f"export built by {name}", "the example games", f"{med:.2f} s CPU",
                  f"{med / base:.2f}x the plugin's own cold build ({base:.2f} s); goal 1.2x")
    shutil.rmtree(folder)


def engine_rows(table: Table, phases: int, repeat: int) -> None:
    """The engine against the reference, whole processes (bench/datc_process.py, run as it runs)."""
    import datc_process

    reference = importlib.util.find_spec("diplomacy") is not None
    out = io.StringIO()
    args = ["--phases", str(phases), "--repeat", str(repeat)] + ([] if reference else ["--no-reference"])
    with contextlib.redirect_stdout(out):
        status = datc_process.main(args)
    text = out.getvalue()
    print(text, end="")
    ours = re.search(r"dipgen datc: +([\d.]+) s median.*?([\d.]+) s CPU", text)
    figure = f"dipgen {ours.group(2)} s CPU, {phases:,} movement phases" if ours else "dipgen's run failed"
    if status != 0:
        table.add("engine, whole process", "random games", figure, f"the script exited {status}: see above")
    elif not reference:
        table.add("engine, whole process", "random games", figure,
                  "the reference is not installed (bench/README.md's virtualenv): not compared; goal at least 10x")
    else:
        faster = re.search(r"CPU ([\d.]+)x\)", text)
        table.add("engine, whole process", "random games", figure,
                  f"{faster.group(1) if faster else '?'}x faster than the reference (CPU); goal at least 10x")


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,40,160", help="the random archive's numbers of games, comma-separated")
    ap.add_argument("--large", action="store_true", help="add 1,280 games (hours here)")
    ap.add_argument("--years", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--big-repeat", type=int, default=1, help=f"the runs of a build of {BIG} games or more")
    ap.add_argument("--copies", type=int, default=3, help="the realistic archive: copies of each game (0: none)")
    ap.add_argument("--phases", type=int, default=1400, help="the engine row's movement phases")
    ap.add_argument("--rows", default=",".join(ROWS), help=f"which rows, comma-separated: {', '.join(ROWS)}")
    args = ap.parse_args(argv)
    rows = [r for r in args.rows.split(",") if r]
    if unknown := sorted(set(rows) - set(ROWS)):
        ap.error(f"no such row: {', '.join(unknown)} (the rows: {', '.join(ROWS)})")
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()] + ([1280] if args.large else [])
    started = time.perf_counter()
    print(f"issue 39's table: rows {', '.join(rows)}; sizes {sizes}; {os.cpu_count()} cores; load {_load()}",
          flush=True)
    table = Table()
    with tempfile.TemporaryDirectory(prefix="dipgen-table-") as tmp:
        work = Path(tmp)
        if "visit" in rows:
            visit_rows(table, sizes, args.years, args.seed, work)
        if "build" in rows:
            build_rows(table, sizes, args.years, args.seed, (args.repeat, args.big_repeat), args.copies, work)
        if "export" in rows:
            export_rows(table, args.repeat, work)
        if "engine" in rows:
            engine_rows(table, args.phases, args.repeat)
    table.print(started)
    return 0


if __name__ == "__main__":
    sys.exit(main())

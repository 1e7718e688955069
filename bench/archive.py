"""Archive benchmark: the site of a big archive against MkDocs alone building as many plain pages.

    python bench/archive.py [--sizes 10,40,160] [--years 9] [--seed 1] [--repeat 3]
                            [--archives random,realistic] [--copies 3]

Two archives. The random one: for each size, `--sizes` games of `--years` years played by the
seeded random player of bench/corpus.py are written into a site project (this repository's
mkdocs.yml and site_src) and committed to git as a GM commits them, a file at a time
(`commit_history`: each build reads the games' commit times from that history, as in a GM's
archive). The realistic one: the example games (games/), each `--copies` times under new names,
with a passphrase for every seat of the running hidden games (bench/private_pages.py's archive):
hidden games, private pages, dice, press, seven variants.
The named baseline, measured in the same run, is **MkDocs with the same theme and settings but
without dipgen, building as many plain one-screen Markdown pages** as the archive has pages
(a heading, three short paragraphs, a list). Each figure is CPU time (user + system) of a
child process, runs interleaved (dipgen, baseline, dipgen, ...), the median of `--repeat`:

- full build: `mkdocs build` with no cache folder (.dipgen-cache/ removed first), against the
  baseline's `mkdocs build`;
- rebuild: `mkdocs build` again with the cache folder of the last build (nothing changed);
- one edit under `mkdocs serve`: the rebuild the server calls after a note was added to the
  last phase file of one game, against the full build; it also checks that the note shows on its
  page; then, in the same server, an edit that changes a game's card (a draw of the powers holding
  centres declared in the second game's game.yml: the archive's table, its players' pages, the
  hall of fame and the feed change with it), checked on the archive's table. The child serves as
  `mkdocs serve` does but for the web server: the plugin object kept across rebuilds, a real
  `LiveReloadServer` and the games folder's watcher (the plugin's `on_serve`: the kernel's
  notices where they can be trusted, else the server's polling; the observers started), one edit
  first that is not timed (the first rebuild after the watcher starts looks at every game), and
  each timed rebuild started once the watcher has reported its edit. A rebuild's figure is the CPU
  time of the thread that builds and of child processes, not the watchers': they run in threads of
  their own whatever is edited, and their CPU time a second while nothing changes is printed beside
  the edits, against the baseline of MkDocs's own polling of the same games folder (a `stat` of
  every file twice a second: it grows with the archive's files) measured in the same child;
- peak memory: the largest resident set of the child of a full build.

With `--serve-only` it measures the serve edit alone (after one `mkdocs build` that fills the cache
folder, as the edit's runs always start from it), for sizes where the full builds take too long to
repeat (``--sizes 40,160,1280 --serve-only``).

With `--workers 1,2` it measures instead a full build (no cache folder) with the plugin's
``workers`` option at each value, CPU time (the build's and its workers') and wall time,
interleaved, medians, against the first value (1: every game made in MkDocs's own process).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
NOTE = "A note from the GM, added while the server runs."
PLAIN = """# Page {i}

A plain page of the baseline site, one screen long: a heading, three paragraphs and a list,
as MkDocs builds a hand-written page.

## Section

Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut
labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco.

- one item
- another item, with `code`
- a third

Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla.
"""


def archive_project(folder: Path, games: int, years: int, seed: int) -> Path:
    """A site project with `games` random games."""
    from corpus import build_corpus, write_game

    folder.mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(REPO / "site_src", folder / "site_src")
    corpus = build_corpus(games=games, years=years, seed=seed)
    for i in corpus.games:
        write_game(corpus, i, folder / "games" / f"random-{i:03d}", title=f"Random game {i + 1}")
    commit_history(folder)
    return folder


def commit_history(folder: Path) -> None:
    """The games of the project in `folder` committed as a GM commits them: a repository with one
    commit a file, each game's game.yml first and then its phase files in the order of play, the games
    taking turns, a minute apart (git fast-import: 38,000 commits at 1,280 games in half a minute).
    Every build reads the games' commit times from this history, as it does in a GM's archive. Where
    git is not installed, no history (and no commit times: the archive's builds are timed without)."""
    from dipgen.io.folders import phase_files

    if shutil.which("git") is None:
        return
    games = sorted(p for p in (folder / "games").iterdir() if p.is_dir())
    files = {g: ["game.yml"] + [path.name for _, path in sorted(phase_files(g).items())] for g in games}
    subprocess.run(["git", "init", "-q", "-b", "main", str(folder)], check=True)
    (folder / ".gitignore").write_text("site/\n.dipgen-cache/\n.dipgen-cache.key\n", encoding="utf-8")
    importer = subprocess.Popen(["git", "-C", str(folder), "fast-import", "--quiet"], stdin=subprocess.PIPE)
    assert importer.stdin is not None
    when = 1_600_000_000
    for turn in range(max((len(names) for names in files.values()), default=0)):
        for game in games:
            if turn >= len(files[game]):
                continue
            name, when = files[game][turn], when + 60
            data, path = (game / name).read_bytes(), f"games/{game.name}/{name}".encode()
            message = b"%s: %s\n" % (game.name.encode(), name.encode())
            importer.stdin.write(b"commit refs/heads/main\ncommitter GM <gm@example.org> %d +0000\n"
                                 b"data %d\n%s" % (when, len(message), message))
            importer.stdin.write(b"M 100644 inline %s\ndata %d\n%s\n" % (path, len(data), data))
    importer.stdin.close()
    if importer.wait() != 0:
        raise SystemExit(f"bench/archive.py: git fast-import failed in {folder}")
    subprocess.run(["git", "-C", str(folder), "reset", "-q"], check=True)  # the index as the last commit


def baseline_project(folder: Path, pages: int) -> Path:
    """The same mkdocs.yml without dipgen, and `pages` plain pages (the hand-written ones too)."""
    folder.mkdir(parents=True)
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("  - dipgen:\n      games_dir: games\n", "")
    text = "\n".join(line for line in text.splitlines() if "games/index.md" not in line and "draws.md" not in line)
    (folder / "mkdocs.yml").write_text(text + "\n", encoding="utf-8")
    shutil.copytree(REPO / "site_src", folder / "site_src")
    for md in (folder / "site_src").rglob("*.md"):
        md.write_text(md.read_text(encoding="utf-8").replace("<!-- dipgen:games -->", ""), encoding="utf-8")
    made = len(list((folder / "site_src").rglob("*.md")))
    for i in range(max(0, pages - made)):
        page = folder / "site_src" / "plain" / f"{i // 50:03d}" / f"page-{i:05d}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(PLAIN.format(i=i), encoding="utf-8")
    return folder


def child(mode: str, project: Path) -> dict:
    """Run in the child process: one measurement (see the module)."""
    import logging

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    out: dict = {}
    if mode == "serve":
        config = load_config(str(project / "mkdocs.yml"))
        config.plugins.on_startup(command="serve", dirty=False)
        build(config, serve_url="http://127.0.0.1:8000/")
        with watched(config, project / "games") as rebuilt:
            rebuilt(lambda: warm_up(project / "games"), again=True)  # the first: every game looked at
            out["watcher"] = idle()  # the server's watchers alone, nothing changed
            observer = config.plugins["dipgen"].seam.games_observer
            # ... and with MkDocs's polling of the games too; then an edit, heard by each
            out["polling"], out["heard"], out["polled"] = against_polling(project / "games", observer)
            phase, out["edit"] = rebuilt(lambda: edit_one_phase(project / "games"))
            page = Path(config.site_dir) / "games" / phase.parent.name / phase.stem / "index.html"
            out["shown"] = NOTE in page.read_text(encoding="utf-8")
            game, out["card"] = rebuilt(lambda: end_one_game(project / "games"))  # a card changes
            archive = (Path(config.site_dir) / "games" / "index.html").read_text(encoding="utf-8")
            row = re.search(f'<tr><td data-sort="[^"]*"><a href="{game.name}/">.*?</tr>', archive)
            out["ended"] = bool(row and "Drawn between" in row.group(0))
        config.plugins.on_shutdown()
    else:
        build(load_config(str(project / "mkdocs.yml")))
        site = project / "site"
        out["pages"] = sum(1 for _ in site.rglob("index.html")) + sum(1 for _ in site.glob("404.html"))
    return out


#: seconds the serve child watches an unchanged archive, to time the watcher alone
WATCHED_IDLE = 3.0


def idle() -> float:
    """The CPU time a second of this process (its watchers' threads) over `WATCHED_IDLE` seconds."""
    t0 = time.process_time()
    time.sleep(WATCHED_IDLE)
    return (time.process_time() - t0) / WATCHED_IDLE


def ear(heard: Callable[[], None]):
    """A watchdog handler that calls `heard` at each event its observer reports."""
    from watchdog.events import FileSystemEventHandler

    class Ear(FileSystemEventHandler):
        def on_any_event(self, event) -> None:
            heard()

    return Ear()


def against_polling(games: Path, observer) -> tuple[float, float, float]:
    """With MkDocs's own watcher polling the `games` folder too, as it does without the plugin's
    watcher (its first look taken before): this process's CPU time a second while nothing changes
    (`idle`), then the seconds from an edit (`warm_up`'s) until the games folder's watcher of the
    server (`observer`) and until the polling watcher each report it (60 at most)."""
    import threading

    from mkdocs.livereload import LiveReloadServer

    heard: dict[str, float] = {}
    both = threading.Event()

    def hear(name: str) -> None:
        heard.setdefault(name, time.monotonic())
        if len(heard) == 2:
            both.set()

    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(games))
    server.watch(str(games))
    server.observer.schedule(ear(lambda: hear("polling")), str(games), recursive=True)
    server.observer.start()
    try:
        cpu = idle()
        observer.schedule(ear(lambda: hear("server")), str(games), recursive=True)
        t0 = time.monotonic()
        warm_up(games)
        both.wait(60)
        return cpu, heard.get("server", t0 + 60) - t0, heard.get("polling", t0 + 60) - t0
    finally:
        server.observer.stop()
        server.observer.join()
        server.server_close()


@contextlib.contextmanager
def watched(config, games: Path):
    """A real `LiveReloadServer`'s watcher on what `mkdocs serve` watches (the docs folder, mkdocs.yml,
    and the games through the plugins' `on_serve`), started, its web server not: yields
    `rebuilt(edit)`, which makes the edit, waits for the watcher to report it, rebuilds as the server
    would and returns what `edit` returned and the rebuild's CPU time (the building thread's and child
    processes', not the watcher's thread's). With `again`, the edit is made again every 5 s until the
    watcher reports one: its first look at a big games folder takes a while, and what changes before
    it ends is what it starts from, not a change."""
    import threading

    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.livereload import LiveReloadServer

    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=config.site_dir)
    server.watch(config.docs_dir)
    server.watch(config.config_file_path)
    config.plugins.on_serve(server, config=config, builder=lambda: None)
    heard = threading.Event()
    games_observer = config.plugins["dipgen"].seam.games_observer or server.observer  # the games' watcher
    games_observer.schedule(ear(heard.set), str(games), recursive=True)  # where the edits are made

    def rebuilt(edit, again: bool = False):
        heard.clear()
        made = edit()
        while again and not heard.wait(5):  # its first look at the folders may not have ended
            made = edit()
        if not heard.wait(60):
            raise SystemExit("bench/archive.py: the watcher did not report the edit within a minute")
        reread = load_config(config.config_file_path)  # as serve reads it again
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.thread_time()
        build(reread, serve_url="http://127.0.0.1:8000/")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return made, time.thread_time() - t0 + (after.ru_utime - kids.ru_utime) + (after.ru_stime - kids.ru_stime)

    server.observer.start()
    try:
        yield rebuilt
    finally:
        server.observer.stop()
        server.observer.join()
        server.server_close()


def edit_one_phase(games: Path) -> Path:
    """A note added to the last phase file of the first game."""
    from dipgen.core.phase import Phase
    from dipgen.io.folders import discover_games

    game = discover_games(games)[0]
    last = max((p for p in game.glob("*.yml") if p.name not in ("game.yml", "secrets.yml")),
               key=lambda p: Phase.from_slug(p.stem))
    with last.open("a", encoding="utf-8") as f:
        f.write(f"notes: {NOTE}\n")
    return last


def warm_up(games: Path) -> Path:
    """The serve child's first edit, not timed: a comment added to the first game's game.yml."""
    from dipgen.io.folders import discover_games

    path = discover_games(games)[0] / "game.yml"
    with path.open("a", encoding="utf-8") as f:
        f.write("# an edit that has the first rebuild after the watcher starts look at every game\n")
    return path


def end_one_game(games: Path) -> Path:
    """A draw of the powers that hold centres at the end declared in the game.yml of the first game
    still running from the second on (the first's, if no other runs): an edit that changes its card
    (the archive's table, every one of its players' pages, the hall of fame, the feed). A game that
    has ended already would refuse a second end, and the rebuild timed would be a failed one (the
    realistic archive's second game, a copy of a Taskdip game won outright, did)."""
    from dipgen.io.folders import discover_games
    from dipgen.usecases.games import replay_folder

    found = discover_games(games)
    for game in found[1:] + found[:1]:  # replayed one by one till one runs (an archive of 1,280 games)
        history = replay_folder(game)
        if not history.finished:
            break
    else:
        raise SystemExit(f"bench/archive.py: no running game in {games} to end")
    alive = sorted(set(history.records[-1].after.owners.values()))
    with (game / "game.yml").open("a", encoding="utf-8") as f:
        f.write(f"end:\n  draw: [{', '.join(alive)}]\n")
    return game


#: The children run as a user's shell runs them: with Python's bytecode cache, which installed packages
#: (MkDocs, Material) have from pip and a checkout (dipgen) writes on its first run. Without it each
#: child compiles every module it imports, and dipgen's build imports more than the baseline's.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(mode: str, project: Path) -> dict:
    """A child process measuring `mode` on `project`: its CPU time, peak memory and report."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, __file__, "--child", mode, str(project), "--idle", str(WATCHED_IDLE)],
                          capture_output=True, text=True, cwd=project, timeout=3600, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"bench/archive.py: the {mode} build of {project} failed:\n{proc.stderr[-3000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out["rss_mb"] = after.ru_maxrss / 1024  # the largest child so far (kilobytes on Linux)
    return out


def realistic_project(folder: Path, copies: int) -> Path:
    """A site project of the example games, each `copies` times under new names (hidden games with a
    passphrase for every seat, private pages, dice, press): bench/private_pages.py's archive."""
    from private_pages import archive_project as examples

    return examples(folder, copies, [])[0]


def measure(size: int, years: int, seed: int, repeat: int, work: Path, serve_only: bool = False) -> dict:
    """The random archive of `size` games against the baseline (see the module)."""
    t0 = time.perf_counter()
    project = archive_project(work / f"archive-{size}", size, years, seed)
    print(f"\n== {size} games x {years} years (written in {time.perf_counter() - t0:.0f}s)", flush=True)
    if serve_only:
        run("build", project)  # the cache folder every serve run starts from
        edits, shown, cards = serve_edits(project, repeat, work, str(size))
        print(f"   one edit under serve:    {statistics.median(edits):6.2f}s CPU (goal < 1 s, not growing with "
              f"the archive); the note shows on its page: {all(shown)}; runs {_list(edits)}; "
              f"load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
        print(_card_line(cards), flush=True)
        return {"edit": statistics.median(edits), "shown": all(shown), "card": statistics.median(c for c, _ in cards)}
    return compare(project, repeat, work, str(size))


def measure_realistic(copies: int, repeat: int, work: Path) -> dict:
    """The example games x `copies` against the baseline (see the module)."""
    project = realistic_project(work / "archive-realistic", copies)
    games = sum(1 for p in (project / "games").iterdir() if (p / "game.yml").is_file())
    print(f"\n== the example games x{copies}: {games} games (hidden games, private pages, dice, press)", flush=True)
    return compare(project, repeat, work, "realistic")


def compare(project: Path, repeat: int, work: Path, name: str, lean: bool = False) -> dict:
    """The builds of `project` against the baseline of as many plain pages, interleaved (see the module);
    `lean` (bench/table.py's run): no build with the cache, the peak memory of the first full build only."""
    pages = run("build", project)["pages"]
    base = baseline_project(work / f"baseline-{name}", pages)
    full, warm, plain = [], [], []
    peak = 0.0
    for i in range(repeat):  # interleaved: dipgen cold, baseline, dipgen warm
        shutil.rmtree(project / ".dipgen-cache", ignore_errors=True)
        cold = run("build", project)
        full.append(cold["cpu"])
        if not (lean and i):
            peak = max(peak, _peak(project))
        plain.append(run("build", base)["cpu"])
        if not lean:
            warm.append(run("build", project)["cpu"])
    edits, shown, cards = serve_edits(project, repeat, work, name)
    med = {k: statistics.median(v) for k, v in (("full", full), ("warm", warm or [0.0]), ("plain", plain),
                                                 ("edit", edits))}
    print(f"   {pages} pages; baseline: MkDocs alone, the same theme, {pages} plain one-screen Markdown pages")
    print(f"   full build (no cache):   {med['full']:6.2f}s CPU = {med['full'] / med['plain']:.2f}x the baseline's "
          f"{med['plain']:.2f}s   (goal <= 1.0x)")
    if warm:
        print(f"   build with the cache:    {med['warm']:6.2f}s CPU = {med['warm'] / med['plain']:.2f}x the baseline")
    print(f"   one edit under serve:    {med['edit']:6.2f}s CPU = {med['edit'] / med['full']:.0%} of the full build "
          f"(goal < 1 s, not growing with the archive); the note shows on its page: {all(shown)}")
    print(_card_line(cards))
    print(f"   peak memory, full build: {peak:.0f} MB (goal <= 400 MB at 1,280 games)")
    print(f"   runs: full {_list(full)}; baseline {_list(plain)}; cached {_list(warm)}; edit {_list(edits)}")
    return dict(med, pages=pages, peak=peak, shown=all(shown))


def serve_edits(project: Path, repeat: int, work: Path,
                name: str) -> tuple[list[float], list[bool], list[tuple[float, bool]]]:
    """One edit under serve in each of `repeat` copies of `project` (with its cache folder), then one
    that changes a card in the same server: the note edit's CPU time and whether the note shows; the
    card's edit's CPU time and whether the archive's table shows the game ended. Prints the watcher's
    CPU time a second while nothing changed."""
    edits, shown, cards, watcher, polling, heard = [], [], [], [], [], []
    for _ in range(repeat):
        copy = work / f"serve-{name}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(project, copy, ignore=shutil.ignore_patterns("site", ".site.*"))
        served = run("serve", copy)
        edits.append(served["edit"])
        shown.append(served["shown"])
        cards.append((served["card"], served["ended"]))
        watcher.append(served["watcher"])
        polling.append(served["polling"] - served["watcher"])
        heard.append((served["heard"], served["polled"]))
    mine, theirs = statistics.median(watcher), statistics.median(polling)
    ratio = f"{mine / theirs:.2f}x" if theirs >= 0.005 else "too little to compare"
    print(f"   the server's watchers, nothing changed: {mine:.3f}s of CPU a second (not in the edits' figures); "
          f"MkDocs's polling of the games folder alone: {theirs:.3f}s; {ratio}; "
          f"runs {_list(watcher)} vs {_list(polling)}", flush=True)
    print(f"   an edit heard by the server's watcher after {statistics.median(h for h, _ in heard):.3f}s, "
          f"by MkDocs's polling after {statistics.median(p for _, p in heard):.3f}s; "
          f"runs {_list([h for h, _ in heard])} vs {_list([p for _, p in heard])}", flush=True)
    return edits, shown, cards


def _card_line(cards: list[tuple[float, bool]]) -> str:
    """The card-changing edits' figure, as the note edit's is printed."""
    times = [c for c, _ in cards]
    if not all(e for _, e in cards):  # the rebuild failed or left the card as it was: no figure
        return (f"   an edit that changes a card (a game ended: a draw in its game.yml): NOT MEASURED: the archive's "
                f"table does not show the game ended (runs {_list(times)} timed a rebuild that did not publish it)")
    return (f"   an edit that changes a card (a game ended: a draw in its game.yml): {statistics.median(times):6.2f}s "
            f"CPU; the archive's table shows it: True; runs {_list(times)}")


def with_workers(project: Path, workers: int) -> Path:
    """The project's mkdocs.yml with the plugin's ``workers`` option set."""
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if not line.startswith("      workers:")) + "\n"
    config.write_text(text.replace("  - dipgen:\n", f"  - dipgen:\n      workers: {workers}\n"), encoding="utf-8")
    return project


def measure_workers(size: int, years: int, seed: int, repeat: int, work: Path, counts: list[int]) -> dict:
    """A full build at each number of workers, interleaved (see the module)."""
    project = archive_project(work / f"archive-{size}", size, years, seed)
    print(f"\n== {size} games x {years} years: a full build (no cache) by number of workers", flush=True)
    cpu: dict[int, list[float]] = {n: [] for n in counts}
    wall: dict[int, list[float]] = {n: [] for n in counts}
    for _ in range(repeat):
        for n in counts:
            shutil.rmtree(project / ".dipgen-cache", ignore_errors=True)
            t0 = time.perf_counter()
            out = run("build", with_workers(project, n))
            wall[n].append(time.perf_counter() - t0)
            cpu[n].append(out["cpu"])
    base = counts[0]
    med = {n: (statistics.median(cpu[n]), statistics.median(wall[n])) for n in counts}
    for n in counts:
        print(f"   workers {n}: {med[n][0]:6.2f}s CPU = {med[n][0] / med[base][0]:.2f}x, {med[n][1]:6.2f}s wall = "
              f"{med[n][1] / med[base][1]:.2f}x the workers-{base} build  (CPU {_list(cpu[n])}; wall {_list(wall[n])})")
    print(f"   load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return med


def _peak(project: Path) -> float:
    """The peak memory of one full build alone (a child whose only child is that build)."""
    code = ("import resource, subprocess, sys; subprocess.run([sys.executable, sys.argv[1], '--child', 'build', "
            "sys.argv[2]], check=True, capture_output=True, cwd=sys.argv[2]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)")
    shutil.rmtree(project / ".dipgen-cache", ignore_errors=True)
    proc = subprocess.run([sys.executable, "-c", code, __file__, str(project)], capture_output=True, text=True,
                          check=True, timeout=3600, env=ENV)
    return float(proc.stdout.strip())


def _list(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


def main(argv: list[str] | None = None) -> int:
    global WATCHED_IDLE
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,40,160", help="numbers of games, comma-separated")
    ap.add_argument("--years", type=int, default=9)  # 40 games: about 1,200 pages, as the 39-game archive
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--archives", default="random,realistic", type=lambda s: s.split(","),
                    help="random (the --sizes), realistic (the example games x --copies), or both")
    ap.add_argument("--copies", type=int, default=3, help="the realistic archive: copies of each example game")
    ap.add_argument("--workers", help="numbers of workers to compare (comma-separated), instead of the baseline")
    ap.add_argument("--serve-only", action="store_true", help="the random archive's serve edit alone")
    ap.add_argument("--idle", type=float, default=WATCHED_IDLE,
                    help="seconds the serve child watches an unchanged archive to time its watchers")
    ap.add_argument("--child", nargs=2, metavar=("MODE", "PROJECT"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    WATCHED_IDLE = args.idle
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]))))
        return 0
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()] if "random" in args.archives else []
    with tempfile.TemporaryDirectory(prefix="dipgen-bench-") as tmp:
        for size in sizes:
            if args.workers:
                measure_workers(size, args.years, args.seed, args.repeat, Path(tmp) / f"w{size}",
                                [int(n) for n in args.workers.split(",") if n.strip()])
            else:
                measure(size, args.years, args.seed, args.repeat, Path(tmp), args.serve_only)
        if "realistic" in args.archives and not args.workers and not args.serve_only:
            measure_realistic(args.copies, args.repeat, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())

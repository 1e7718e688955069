"""Site build speed: the example archive and a synthetic archive, with dipgen's share.

    python bench/build.py [--games 20] [--years 20] [--seed 1] [--skip-examples]

For each archive (the repository's games/, and `--games` games of `--years` years played
by the seeded random player of bench/corpus.py, written to a temporary folder):

- dipgen's work timed function by function, in this process: replay (load + adjudicate),
  maps (the overlays and the base map) and pages (Markdown of every page);
- a full `mkdocs build` in this process with a cold plugin; dipgen's share of it is the
  time the plugin spent (its on_pre_build: replay, maps and pages), MkDocs' own is the rest;
- the refresh `mkdocs serve` does after one phase file changes: the same plugin object
  (as serve keeps it) builds again after one game's last phase file was edited. Timed
  twice: as plain `mkdocs serve` (MkDocs re-renders every page, dipgen redoes one game)
  and as `mkdocs serve --dirty` (MkDocs re-renders only the pages whose source changed).

Prints the times and the ratios the issue sets targets for: dipgen's share of the full
build (target <= 1/2) and the one-file refresh against the full build (target <= 1/10).
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")


def synthetic_archive(folder: Path, games: int, years: int, seed: int) -> Path:
    """Write `games` random games of `years` years into folder/games."""
    from corpus import build_corpus, write_game

    corpus = build_corpus(games=games, years=years, seed=seed)
    for i in corpus.games:
        write_game(corpus, i, folder / "games" / f"random-{i:02d}", title=f"Random game {i + 1}")
    return folder / "games"


def make_project(folder: Path, games: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(REPO / "site_src", folder / "site_src")
    if games.resolve() != (folder / "games").resolve():
        shutil.copytree(games, folder / "games")
    return folder


def time_generator(games: Path) -> dict[str, float]:
    """dipgen's work on its own: replay, maps, pages."""
    from dipgen.io.folders import discover_games
    from dipgen.usecases.games import load_checked
    from dipgen.present.site import SiteOptions, archive_page, game_pages, shared_files
    from dipgen.present.site.maps import game_maps
    from dipgen.view import game_view

    options = SiteOptions(rules={"standard": "rules/standard.md"})
    t0 = time.perf_counter()
    histories = [load_checked(p).history for p in discover_games(games)]
    views = [game_view(h, "public") for h in histories]
    t1 = time.perf_counter()
    n_maps = sum(len(game_maps(v, options.prefix)) for v in views)
    shared = shared_files(views)
    t2 = time.perf_counter()
    n_pages = sum(len(game_pages(v, options)) for v in views) + len(archive_page(views, options))
    t3 = time.perf_counter()
    phases = sum(len(h.records) for h in histories)
    return {"games": len(histories), "phases": phases, "maps": n_maps + len(shared), "pages": n_pages,
            "replay": t1 - t0, "draw": t2 - t1, "write": t3 - t2}


def _build(project: Path, *, dirty: bool = False, fresh: bool = False):
    """One build as `mkdocs serve` does it: config loaded again, the plugin object kept."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    cfg = load_config(str(project / "mkdocs.yml"), site_dir=str(project / "site"))
    plugin = cfg.plugins["dipgen"]
    if fresh:
        plugin.on_shutdown()
        plugin.__init__()
        cfg.plugins.on_startup(command="serve", dirty=dirty)
    t0 = time.perf_counter()
    build(cfg, dirty=dirty)
    return time.perf_counter() - t0, plugin


def edit_one_phase(games: Path) -> Path:
    """Change the last phase file of the first game (a comment: the game is adjudicated again)."""
    from dipgen.io.folders import discover_games
    from dipgen.core.phase import Phase

    game = discover_games(games)[0]
    last = max((p for p in game.glob("*.yml") if p.name != "game.yml"), key=lambda p: Phase.from_slug(p.stem))
    with last.open("a", encoding="utf-8") as f:
        f.write(f"# edited at {time.time()}\n")
    return last


def bench(name: str, games: Path, work: Path) -> dict:
    print(f"\n== {name}")
    gen = time_generator(games)
    dipgen_alone = gen["replay"] + gen["draw"] + gen["write"]
    print(f"   {gen['games']} games, {gen['phases']} phases, {gen['pages']} pages, {gen['maps']} SVG files")
    print(f"   dipgen alone: replay {gen['replay']:.2f}s, maps {gen['draw']:.2f}s, pages {gen['write']:.2f}s"
          f" = {dipgen_alone:.2f}s")

    project = make_project(work / name.replace(" ", "-"), games)
    total, plugin = _build(project, fresh=True)
    share = plugin.stats["seconds"]
    print(f"   full build: {total:.2f}s = dipgen {share:.2f}s + MkDocs {total - share:.2f}s"
          f"   (dipgen share {share / total:.0%}; target <= 50%)")

    edited = edit_one_phase(project / "games")
    refresh, plugin = _build(project)
    print(f"   serve refresh after editing {edited.parent.name}/{edited.name}: {refresh:.2f}s"
          f" (dipgen {plugin.stats['seconds']:.2f}s, {plugin.stats['redone']} game redone)"
          f" = {refresh / total:.0%} of the full build")

    _build(project, dirty=True, fresh=True)
    edited = edit_one_phase(project / "games")
    dirty_refresh, plugin = _build(project, dirty=True)
    print(f"   serve --dirty refresh after the same edit: {dirty_refresh:.2f}s"
          f" (dipgen {plugin.stats['seconds']:.2f}s) = {dirty_refresh / total:.0%} of the full build"
          f"   (target <= 10%)")
    plugin.on_shutdown()
    return {"total": total, "share": share, "refresh": refresh, "dirty_refresh": dirty_refresh}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--years", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-examples", action="store_true", help="only the synthetic archive")
    args = ap.parse_args(argv)
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="dipgen-bench-") as tmp:
        work = Path(tmp)
        examples = REPO / "games"
        if not args.skip_examples:
            if any(examples.glob("*/game.yml")):
                bench("example archive (games/)", examples, work)
            else:
                print("\n== example archive: games/ has no games yet; skipped")
        t0 = time.perf_counter()
        games = synthetic_archive(work / "synthetic-src", args.games, args.years, args.seed)
        print(f"\n(synthetic archive written in {time.perf_counter() - t0:.1f}s)")
        bench(f"synthetic archive ({args.games} games x {args.years} years)", games, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())

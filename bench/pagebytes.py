"""What a first visit costs a reader: the bytes a page of a big archive downloads, against the goal.

    python bench/pagebytes.py [--sizes 10,40,160] [--large] [--years 9] [--seed 1]

For each size, the archive of bench/archive.py (`--sizes` random games of `--years` years) is built
with `mkdocs build`, served as GitHub Pages serves it (files gzipped, ``Cache-Control: max-age=600``)
and opened in headless chromium with an empty cache (tests/support/weight.py counts every file the
server sends, at its gzipped size). The figures, in kB gzipped:

- a first visit to a season page (the last season of the first game), to the game's page and to
  the home page, against the goal of 300 kB at any archive size;
- the same season page with the search index as Material ships it (its documents in
  ``search_index.json``, fetched on every first visit: the build before the index was split),
  measured on a copy of the same site, in the same run;
- the reader's first search (a game's title), on top of the visit, with Pagefind's index (the
  site's search: its searcher, the chunks of the words typed and the pages of the results shown)
  and, its baseline, with Material's split index (the whole index's documents and Material's
  search worker, `search: material`), and the seconds until its first result shows (wall time, so
  the machine's load counts). One build (with ``search: material``) gives the three sites: the
  Pagefind one is a copy indexed by `dipgen.mkdocs.pagefind.index_site`, as the plugin indexes it.

`--large` adds 1,280 games (a build of some 40,000 pages: the best part of an hour here).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(REPO / "tests"))
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
GOAL = 300.0  # kB gzipped, a first visit to any page (issue 39)


def built(size: int, years: int, seed: int, work: Path) -> Path:
    """The site of `size` random games (bench/archive.py's archive), with Material's split index."""
    from archive import ENV, archive_project

    project = archive_project(work / f"archive-{size}", size, years, seed)
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("  - dipgen:\n", "  - dipgen:\n      search: material\n"), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=project, check=True, env=ENV,
                   capture_output=True, timeout=7200)
    return project / "site"


def unsplit(site: Path, work: Path, name: str) -> Path:
    """A copy of `site` with the search index whole, as Material ships it."""
    from dipgen.mkdocs.search import DOCS, INDEX

    copy = work / (site.parent.name + "-" + name)
    shutil.copytree(site, copy)
    (copy / DOCS).replace(copy / INDEX)
    return copy


def pagefound(site: Path, work: Path) -> Path:
    """A copy of `site` searched with Pagefind, as the plugin's default makes it."""
    from dipgen.mkdocs.pagefind import index_site

    copy = unsplit(site, work, "pagefind")
    assert index_site(copy)
    return copy


VISITS = ("season", "game", "home")


def measure(browser, site: Path, query: str, visits: tuple[str, ...] = VISITS, search: bool = True) -> dict[str, float]:
    """kB gzipped of a first visit to each of `visits` (the last season of the site's first game, the
    game's page, the home page), and where `search`, of a first search for `query` on the game's page
    and the seconds till its first result ("search", "shown")."""
    from support.weight import counting_server, first_visit, search_cost

    game = sorted(p for p in (site / "games").iterdir() if (p / "index.html").is_file())[0]
    season = max(p.name for p in game.iterdir() if (p / "index.html").is_file() and p.name[:4].isdigit())
    paths = {"season": f"games/{game.name}/{season}/", "game": f"games/{game.name}/", "home": ""}
    out = {}
    with counting_server(site) as (url, sent):
        for name in visits:
            out[name] = sum(size for _, size in first_visit(browser, url + paths[name], sent)) / 1000
        if search:
            _, cost, out["shown"] = search_cost(browser, url + paths["game"], sent, query)
            out["search"] = cost / 1000
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10,40,160")
    ap.add_argument("--large", action="store_true", help="add 1,280 games")
    ap.add_argument("--years", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")] + ([1280] if args.large else [])
    from support.browser import chromium

    print(f"first visit, kB gzipped (goal <= {GOAL:.0f} kB at any size); the load: {os.getloadavg()[0]:.1f}")
    print(f"{'games':>6} {'season':>8} {'game':>8} {'home':>8} {'season, index whole':>20} "
          f"{'first search':>13} {'Material':>9}")
    with tempfile.TemporaryDirectory(prefix="dipgen-pagebytes-") as tmp, chromium() as browser:
        for size in sizes:
            t0 = time.perf_counter()
            site = built(size, args.years, args.seed, Path(tmp))
            copies = [pagefound(site, Path(tmp)), unsplit(site, Path(tmp), "unsplit")]
            now = measure(browser, copies[0], "Random game 1")
            split = measure(browser, site, "Random game 1", visits=())  # Material's search: its first search
            whole = measure(browser, copies[1], "Random game 1", visits=("season",), search=False)  # the index whole
            print(f"{size:>6} {now['season']:>8.1f} {now['game']:>8.1f} {now['home']:>8.1f} {whole['season']:>20.1f} "
                  f"{now['search']:>13.1f} {split['search']:>9.1f}   (built and measured in "
                  f"{time.perf_counter() - t0:.0f}s)", flush=True)
            worst = max(now["season"], now["game"], now["home"])
            print(f"{'':>6} the heaviest of the three: {worst:.1f} kB = {worst / GOAL:.2f}x the goal; "
                  f"the season page {now['season'] / whole['season']:.2f}x its cost with the index whole; "
                  f"the first search {now['search'] / split['search']:.2f}x Material's, its first result "
                  f"{now['shown']:.1f}s after the last key ({split['shown']:.1f}s with Material's)", flush=True)
            for folder in (site.parent, *copies):
                shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

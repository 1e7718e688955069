"""What the site's search costs a build: Pagefind's indexer's peak memory on an archive, against every
page indexed whole as before (issue 39).

    python bench/searchindex.py [--sizes 160,640] [--large] [--years 9] [--seed 1] [--repeat 3]
                                [--site FOLDER]

For each size, the archive of bench/archive.py (`--sizes` random games of `--years` years) is built
once with ``search: material`` (bench/pagebytes.py's `built`), whose ``search/search_docs.json`` lists
the pages the search indexes. Pagefind's binary then indexes them, runs interleaved, `--repeat` times
each, with the plugin's own options (`dipgen.mkdocs.pagefind.command`):

- the documents the site's search indexes (`dipgen.mkdocs.pagefind`: what a reader looks for, a
  game's seasons sections of its document);
- the baseline, every page whole, by its article (the search before this measure).

The figures: the indexer's peak resident memory (`getrusage` of a process whose only child it is),
the medians, the ratio to the baseline and the memory a game; the CPU time of the indexer and the
size of the index. `--site` measures a site built already with ``search: material`` instead, and
`--large` adds 1,280 games (a build of some 38,000 pages: the best part of an hour here).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")

#: run in a process of its own, so that its children's peak is the indexer's alone
PEAK = ("import json, resource, subprocess, sys, time; c = json.loads(sys.argv[1]); "
        "subprocess.run(c, check=True, capture_output=True); r = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(json.dumps([r.ru_maxrss / 1024, r.ru_utime + r.ru_stime]))")


def inputs(site: Path, whole: bool) -> Path:
    """A folder of what Pagefind indexes of `site`: the search's documents, or every page `whole`."""
    from dipgen.mkdocs import pagefind
    from dipgen.mkdocs.search import DOCS

    pages = pagefind._pages(site, json.loads((site / DOCS).read_text(encoding="utf-8"))["docs"])
    made = (((location, pagefind._titled((site / pagefind._file(location)).read_text(encoding="utf-8"), title))
             for location, title in pages.items()) if whole else pagefind._documents(site, pages))
    folder = Path(tempfile.mkdtemp(prefix="dipgen-searchindex-"))
    for location, text in made:
        copy = folder / pagefind._file(location)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(text, encoding="utf-8")
    return folder


def indexed(folder: Path) -> tuple[float, float, float]:
    """Pagefind over `folder`: its peak memory (MB), its CPU time (s) and the index's size (MB)."""
    from dipgen.mkdocs.pagefind import command

    with tempfile.TemporaryDirectory(prefix="dipgen-searchindex-out-") as out:
        proc = subprocess.run([sys.executable, "-c", PEAK, json.dumps(command(folder, Path(out) / "pagefind", "en"))],
                              capture_output=True, text=True, check=True, timeout=7200)
        size = sum(f.stat().st_size for f in Path(out).rglob("*") if f.is_file()) / 1e6
    peak, cpu = json.loads(proc.stdout)
    return peak, cpu, size


def measure(site: Path, games: int, repeat: int) -> dict[str, float]:
    folders = {"documents": inputs(site, whole=False), "whole pages": inputs(site, whole=True)}
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in folders}
    try:
        for _ in range(repeat):
            for name, folder in folders.items():
                runs[name].append(indexed(folder))
    finally:
        for folder in folders.values():
            shutil.rmtree(folder, ignore_errors=True)
    med = {name: [statistics.median(r[i] for r in rs) for i in range(3)] for name, rs in runs.items()}
    base = med["whole pages"]
    print(f"{site.parent.name}: {games} games")
    for name, (peak, cpu, size) in med.items():
        print(f"   {name:12s} Pagefind's peak {peak:7.0f} MB ({peak / games:.3f} MB a game; runs: "
              f"{', '.join(f'{r[0]:.0f}' for r in runs[name])}), {peak / base[0]:.2f}x the whole pages; "
              f"CPU {cpu:.1f} s; index {size:.1f} MB")
    print(f"   load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return {"documents": med["documents"][0], "whole": base[0]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="160,640", help="numbers of games, comma-separated")
    ap.add_argument("--large", action="store_true", help="add 1,280 games")
    ap.add_argument("--years", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--site", type=Path, help="a site built with `search: material` (its games counted)")
    args = ap.parse_args(argv)
    if args.site:
        measure(args.site, sum(1 for p in (args.site / "games").iterdir() if (p / "index.html").is_file()),
                args.repeat)
        return 0
    from pagebytes import built

    sizes = [int(s) for s in args.sizes.split(",")] + ([1280] if args.large else [])
    with tempfile.TemporaryDirectory(prefix="dipgen-searchindex-") as work:
        for size in sizes:
            site = built(size, args.years, args.seed, Path(work))
            measure(site, size, args.repeat)
            shutil.rmtree(site.parent)
    return 0


if __name__ == "__main__":
    sys.exit(main())

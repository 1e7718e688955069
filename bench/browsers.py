"""What a page of the site costs the browser the tests drive: Debian's chromium-headless-shell against
its chromium, the baseline.

    python bench/browsers.py [--games austrian-question,winter-palace] [--loads 6] [--repeat 3]

A site of the named example games (games/) is built with `mkdocs build` and served over HTTP. Each
browser is launched as the tests launch it (`support.browser.ARGS`) and warmed by one page; then it
opens `--loads` pages in turn (the last game's last season, the home page, the archive's page), each
in a new context as a test's first page is, then as many again one after the other in one open
context. Rounds alternate the browsers (baseline, shell, baseline, ...), `--repeat` of them, medians.

The figure is the machine's busy CPU time over the loads (`/proc/stat`), per page: chromium's
renderers are started and reaped by its zygote, so neither this process's rusage nor the browser's
sees them. Run it on an otherwise quiet machine; the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
BROWSERS = {"chromium": "chromium", "chromium-headless-shell": "chromium-headless-shell"}
SIZE = {"width": 1280, "height": 900}


def busy() -> float:
    """The machine's busy CPU time so far, in seconds (user, nice, system, interrupts)."""
    with open("/proc/stat", encoding="ascii") as f:
        user, nice, system, _idle, _wait, irq, softirq = map(int, f.readline().split()[1:8])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def per_page(browser, url: str, pages: list[str], loads: int) -> tuple[float, float]:
    """CPU a page in a new context, and a page in an open one (seconds, the machine's)."""
    from support.browser import settle, watch_traffic

    def opened():
        made = browser.new_context(viewport=SIZE)
        watch_traffic(made)
        return made, made.new_page()

    def load(page, path: str) -> None:
        page.goto(url + path)
        settle(page)

    def timed(step, pause: float) -> float:
        """The machine's CPU a load of `step(path)` over `loads` of them, `pause` s of quiet either side
        (what the last page left running ends)."""
        time.sleep(pause)
        start = busy()
        for i in range(loads):
            step(pages[i % len(pages)])
        time.sleep(pause)
        return (busy() - start) / loads

    def in_a_new_context(path: str) -> None:
        made, page = opened()
        load(page, path)
        made.close()

    in_a_new_context("")  # the browser's own first page: not counted
    fresh = timed(in_a_new_context, 0.5)
    made, page = opened()
    load(page, "")
    again = timed(lambda path: load(page, path), 0.3)
    made.close()
    return fresh, again


def main(argv: list[str] | None = None) -> int:
    import shutil

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="austrian-question,winter-palace")
    ap.add_argument("--loads", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from support import build, make_project
    from support.browser import ARGS, serve

    found = {name: shutil.which(command) for name, command in BROWSERS.items()}
    if not all(found.values()):
        missing = [name for name, path in found.items() if not path]
        print(f"not installed: {', '.join(missing)} (apt-get install -y {' '.join(missing)})")
        return 2
    games = args.games.split(",")
    with tempfile.TemporaryDirectory(prefix="dipgen-browsers-") as tmp:
        site = build(make_project(Path(tmp) / "site-project", games))
        last = sorted(p.parent.name for p in (site / "games" / games[-1]).glob("1*/index.html"))[-1]
        pages = [f"games/{games[-1]}/{last}/", "", "games/"]
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in BROWSERS}
        with serve(site) as url, sync_playwright() as p:
            for _ in range(args.repeat):
                for name, path in found.items():
                    browser = p.chromium.launch(executable_path=path, args=ARGS)
                    try:
                        runs[name].append(per_page(browser, url, pages, args.loads))
                    finally:
                        browser.close()
    base = [statistics.median(r[i] for r in runs["chromium"]) for i in (0, 1)]
    print(f"CPU a page (the machine's), medians of {args.repeat} rounds of {args.loads} loads; "
          f"the load average at the end {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for name, rounds in runs.items():
        fresh, again = (statistics.median(r[i] for r in rounds) for i in (0, 1))
        print(f"  {name:24s} a new context {fresh:5.2f}s = {fresh / base[0]:.2f}x chromium's; "
              f"the next page {again:5.2f}s = {again / base[1]:.2f}x; "
              f"runs {', '.join(f'{a:.2f}/{b:.2f}' for a, b in rounds)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

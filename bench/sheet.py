"""The order sheet's cost: its enumeration's time per position against the engine's adjudication of
the same position, the weight of one power's sheet data, and the opening of a game page with its
sheet against the same page without it.

    python bench/sheet.py [--games 10] [--years 8] [--seed 1] [--positions 12] [--repeat 5] [--pages 15]

Builds the corpus of bench/corpus.py (not timed) and takes its most crowded movement positions
(the most units on the board: the midgame). For each, in this process and interleaved, it times
(CPU time, median of `--repeat` runs) the adjudication of the position's orders as the standard
variant makes it, and the enumeration of every power's legal orders (`dipgen.rules.choices`, what
the site does for an open game's sheet). Prints the medians, their ratio, and the largest sheet
of one power in those positions as JSON (`dipgen.present.site.sheet`'s form), raw and gzipped.

Then (`--pages`, 0 to skip; it needs chromium and playwright, requirements-dev.txt) it builds the
site of the example game that runs in the most crowded position (north-sea-ledger, Spring 1905:
34 units), weighs each power's part of its sheet.json as the page fetches it, and opens in
chromium, interleaved, `--pages` times each, that game page with its sheet and the same page
without it (its sheet section and sheet.js cut out: the page as it was before the sheet, today's
budget), each in a fresh browser context (a first visit: nothing cached). For each load it reads
the renderer's main-thread time (the DevTools Performance domain's TaskDuration: the CPU the page
cost, which a busy machine disturbs less than the clock) and the time from navigation to the
load event, and on the page with the sheet to the sheet being ready (its menus shown). Prints the
medians and their ratios.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import build_corpus  # noqa: E402

from dipgen.core.orders import Convoy, Hold, Move, Support  # noqa: E402
from dipgen.core.phase import MOVEMENT  # noqa: E402
from dipgen.rules.choices import legal_orders, powers_orders  # noqa: E402
from dipgen.variants import get_variant  # noqa: E402

RULES = get_variant("standard").rules
REPO = Path(__file__).resolve().parent.parent
GAME = "north-sea-ledger"  # the example game that runs in the most crowded position
#: the sheet ready: its menus shown (sheet.js unhides .dg-sheet-app once sheet.json is read)
READY = """new Promise(done => { const check = () => { const app = document.querySelector('.dg-sheet-app');
    if (app && !app.hidden) done(performance.now()); else requestAnimationFrame(check); }; check(); })"""
RANK = {Hold: 0, Move: 1, Support: 2, Convoy: 3}


def cpu(f) -> float:
    start = time.process_time()
    f()
    return time.process_time() - start


def sheet_of(position, power: str) -> dict:
    board = RULES.board
    found = legal_orders(RULES, position, power)
    rows = [dict(unit=u.describe(board),
                 orders=[o.format(board) for o in sorted(found[u], key=lambda o: (RANK.get(type(o), 4),
                                                                                    o.format(board)))])
            for u in sorted(found, key=lambda u: u.loc)]
    return dict(power=power, rows=rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--years", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pages", type=int, default=15, help="first visits of the game page with and without its "
                    "sheet, each (0: none)")
    args = ap.parse_args(argv)

    corpus = build_corpus(args.games, args.years, args.seed)
    moves = [cp for cp in corpus.phases if cp.kind == MOVEMENT]
    crowded = sorted(moves, key=lambda cp: -len(cp.position.units))[:args.positions]
    print(f"corpus: {len(corpus.phases)} phases; {len(crowded)} most crowded movement positions "
          f"({min(len(cp.position.units) for cp in crowded)}-{max(len(cp.position.units) for cp in crowded)} units)")

    adjudicate, enumerate_ = [], []
    for cp in crowded:
        a, e = [], []
        for _ in range(args.repeat):  # interleaved: the same moment of the machine for both
            a.append(cpu(lambda cp=cp: RULES.movement(cp.position, cp.orders)))
            e.append(cpu(lambda cp=cp: powers_orders(RULES, cp.position, RULES.powers())))
        adjudicate.append(statistics.median(a))
        enumerate_.append(statistics.median(e))
    adj, enu = statistics.median(adjudicate), statistics.median(enumerate_)
    print(f"adjudication of a position: {adj * 1000:.2f} ms (median)")
    print(f"enumeration of every power's legal orders: {enu * 1000:.2f} ms (median), "
          f"{enu / adj:.1f} x the adjudication")

    sizes = []
    for cp in crowded:
        for power in RULES.powers():
            sheet = sheet_of(cp.position, power)
            if sheet["rows"]:
                raw = json.dumps(sheet, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
                sizes.append((len(gzip.compress(raw)), len(raw), power, sum(len(r["orders"]) for r in sheet["rows"])))
    gz, raw, power, n = max(sizes)
    print(f"largest sheet of one power: {power}, {n} orders, {raw / 1000:.1f} KB, {gz / 1000:.1f} KB gzipped "
          f"(limit 50 KB)")
    if args.pages:
        page_opening(args.pages)
    return 0


def without_sheet(html: str) -> str:
    """A game page as it was before the sheet: its sheet section and sheet.js cut out."""
    start = html.index('<section class="dg-sheet"')
    depth, i = 0, start
    for tag in re.finditer(r"<(/?)section\b", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            i = start + tag.end()
            break
    end = html.index(">", i) + 1
    page = html[:start] + html[end:]
    return re.sub(r'<script src="[^"]*/sheet\.js"[^>]*></script>', "", page)


def build_game_site(root: Path) -> Path:
    """The site of the example game `GAME` (running, open: its page has the sheet), built by MkDocs."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site_src", root / "site_src")
    shutil.copytree(REPO / "games" / GAME, root / "games" / GAME)
    config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site"))
    build(config)
    return root / "site"


def one_load(browser, url: str, sheet: bool) -> tuple[float, float, float]:
    """(main-thread seconds, ms to the load event, ms to the sheet ready or 0) of a first visit."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    page.goto(url, wait_until="load")
    ready = page.evaluate(READY) if sheet else 0.0
    loaded = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    context.close()
    return metrics["TaskDuration"], loaded, ready


def page_opening(repeat: int) -> None:
    sys.path.insert(0, str(REPO / "tests"))
    from support.browser import chromium, serve

    with tempfile.TemporaryDirectory() as tmp:
        site = build_game_site(Path(tmp))
        folder = site / "games" / GAME
        data = json.loads((folder / "sheet.json").read_text(encoding="utf-8"))
        weights = []
        for part in data["powers"]:
            raw = json.dumps(part, ensure_ascii=False, separators=(",", ":")).encode()
            weights.append(f"{part['power']} {len(raw) / 1000:.1f}/{len(gzip.compress(raw)) / 1000:.1f}")
        whole = (folder / "sheet.json").read_bytes()
        print(f"{GAME}'s sheet.json ({data['phase']}): {len(whole) / 1000:.1f} KB, "
              f"{len(gzip.compress(whole)) / 1000:.1f} KB gzipped; per power, KB raw/gzipped: {', '.join(weights)}")
        html = (folder / "index.html").read_text(encoding="utf-8")
        (folder / "without-sheet.html").write_text(without_sheet(html), encoding="utf-8")
        runs: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
        with serve(site) as url, chromium() as browser:
            one_load(browser, f"{url}games/{GAME}/", True)  # not counted: chromium's own first start
            for _ in range(repeat):  # interleaved: the same moment of the machine for both
                runs[True].append(one_load(browser, f"{url}games/{GAME}/", True))
                runs[False].append(one_load(browser, f"{url}games/{GAME}/without-sheet.html", False))
            browser.close()
    med = {k: [statistics.median(r[i] for r in v) for i in range(3)] for k, v in runs.items()}
    (cpu_with, load_with, ready), (cpu_without, load_without, _) = med[True], med[False]
    print(f"game page opened at 390 px, {repeat} first visits each, medians: main thread {cpu_with * 1000:.0f} ms "
          f"with the sheet, {cpu_without * 1000:.0f} ms without ({cpu_with / cpu_without:.2f} x); load event "
          f"{load_with:.0f} ms against {load_without:.0f} ms ({load_with / load_without:.2f} x); "
          f"the sheet ready at {ready:.0f} ms ({ready / load_without:.2f} x the page's load without it)")


if __name__ == "__main__":
    raise SystemExit(main())

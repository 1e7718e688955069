"""What the browser tests share: Debian's chromium driven by Playwright, a static server for a
built site, and pages that record every console error and failed load.

A browser test module sets ``pytestmark = BROWSER`` (marked `browser` and `slow`, skipped where
playwright or chromium is missing) and takes the `browser` fixture (conftest.py: one chromium a
process). Its tests open their own contexts and pages, close them, and wait for a page with `settle`.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
import time
import urllib.request
import weakref
from pathlib import Path

import pytest

from support import free_port

#: the chromium the tests drive: Debian's chromium-headless-shell where it is installed (.ci/run installs
#: it), else Debian's chromium. The shell is Chromium's own headless build, the same version's Blink and
#: V8 without the desktop browser around them, for a fraction of the CPU a page (bench/browsers.py)
CHROMIUM = shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE, DESKTOP = (390, 844), (1280, 900)
#: whether `Watched.shot` keeps its screenshot (pytest's ``--shots``, set by conftest.py)
KEEP_SHOTS = False
#: axe-core (MPL-2.0, its licence beside it): a test tool, injected by the tests, never in the site
AXE = Path(__file__).resolve().parent.parent / "vendor" / "axe.min.js"

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - CI installs it from requirements-dev.txt
    sync_playwright = None

#: the marks of a browser test module: `browser` and `slow` (deselected by ``-m "not slow"``), and
#: skipped without playwright or chromium
BROWSER = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(sync_playwright is None, reason="the playwright package is not installed "
                       "(pip install -r requirements-dev.txt)"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason="no chromium (apt-get install -y chromium-headless-shell)"),
]


def browser_test(test):
    """The `BROWSER` marks on one test, in a module whose other tests need no browser."""
    for mark in BROWSER:
        test = mark(test)
    return test


@contextlib.contextmanager
def serve(directory: Path):
    """A static server for `directory` on a free port of 127.0.0.1; yields its URL."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(directory)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


def assert_maps_drawn(page, expected: int) -> None:
    """Every overlay <img> decoded, every board <object> holds an SVG document."""
    page.wait_for_function(
        """n => {
            const imgs = [...document.querySelectorAll('img.dg-map-overlay')];
            const objs = [...document.querySelectorAll('object.dg-map-board')];
            return imgs.length === n && objs.length === n
                && imgs.every(i => i.complete && i.naturalWidth > 0)
                && objs.every(o => o.contentDocument && o.contentDocument.documentElement
                                   && o.contentDocument.documentElement.nodeName === 'svg');
        }""", arg=expected, timeout=15000)
    box = page.locator("img.dg-map-overlay").first.bounding_box()
    board = page.locator("object.dg-map-board").first.bounding_box()
    assert box and board and abs(box["width"] - board["width"]) < 1 and abs(box["height"] - board["height"]) < 1
    assert box["width"] > 200


class _Traffic:
    """The requests of a browser context not yet answered, and when the last one started or ended."""

    def __init__(self, context):
        self.open: set = set()
        self.last = time.monotonic()
        context.on("request", self._start)
        context.on("requestfinished", self._end)
        context.on("requestfailed", self._end)

    def _start(self, request) -> None:
        self.open.add(request)
        self.last = time.monotonic()

    def _end(self, request) -> None:
        self.open.discard(request)
        self.last = time.monotonic()


_TRAFFIC: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def watch_traffic(context) -> None:
    """Count `context`'s requests from now on, for `settle` (a context made by `Watched` is counted from
    its start; another is counted from its first `settle`)."""
    if context not in _TRAFFIC:
        _TRAFFIC[context] = _Traffic(context)


def _fetched(page) -> list | None:
    """Whether the page has loaded, and how many resources it has fetched so far; None while it is on
    its way to another document (a reload or a link its script followed) or has not loaded yet."""
    from playwright.sync_api import Error

    try:
        now = page.evaluate("() => [document.readyState, performance.getEntriesByType('resource').length]")
    except Error as e:  # the document went while asked ("Execution context was destroyed")
        if "navigat" not in str(e) and "destroyed" not in str(e):
            raise
        return None
    return now if now[0] == "complete" else None


def changes_within(take, before, seconds: float = 5) -> bool:
    """Whether `take()` (a screenshot, say) gives something other than `before` within `seconds`: a
    swapped image is decoded and painted a frame or more after the change that asked for it."""
    end = time.monotonic() + seconds
    while take() == before:
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def settle(page, quiet: float = 0.15, timeout: float = 30) -> None:
    """The page loaded and quiet: no request of its context on the way, none started or ended, and no
    resource added to the page's own list, for `quiet` seconds. Playwright's "networkidle" means the same
    with half a second of quiet, some fifty times a run; a page of the site asks for nothing of its own
    accord once its scripts have run (the search loads its index when a reader opens it)."""
    watch_traffic(page.context)
    traffic = _TRAFFIC[page.context]
    end = time.monotonic() + timeout
    seen = None
    while True:
        page.wait_for_timeout(30)  # Playwright hands over the context's events while it waits
        now = _fetched(page)
        if now != seen or now is None:
            seen, traffic.last = now, time.monotonic()
        elif not traffic.open and time.monotonic() - traffic.last >= quiet:
            return
        if time.monotonic() > end:
            raise TimeoutError(f"{page.url}: still fetching after {timeout} s: {[r.url for r in traffic.open]}")


@contextlib.contextmanager
def chromium():
    """Headless chromium, for the length of the block (the `browser` fixture's)."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Watched:
    """A page that records console errors and failed loads: a file the server did not send (HTTP 400
    and above) or a load that failed on the way, but not one the browser gave up itself because the
    page went on to another (``net::ERR_ABORTED``: a favicon still on its way when a test opens the
    next page)."""

    def __init__(self, browser, size, tmp_path: Path):
        self.context = browser.new_context(viewport={"width": size[0], "height": size[1]}, accept_downloads=True)
        watch_traffic(self.context)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url} ({r.failure})")
                     if r.failure != "net::ERR_ABORTED" else None)
        self.page.on("response", lambda r: self.errors.append(f"HTTP {r.status}: {r.url}")
                     if r.status >= 400 else None)
        self.tmp_path = tmp_path

    def shot(self, name: str) -> Path | None:
        """The whole page as it stands, as a PNG in the test's folder, where pytest was given ``--shots``
        (conftest.py): a picture for a person to look at, which no test reads (a full page's costs
        chromium up to two seconds), so none is made otherwise (None)."""
        if not KEEP_SHOTS:
            return None
        path = self.tmp_path / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 5000
        return path

    def close(self):
        self.context.close()


def axe_findings(page, at_least: str = "serious") -> list[str]:
    """axe-core's violations of `at_least` that impact on the page as it stands, one line each.
    axe is evaluated by Playwright, not added as a <script>: the site's CSP rightly refuses one.
    It runs once every transition has ended (a dialog fading in is grey on grey halfway)."""
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("() => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)")
    keep = ("serious", "critical") if at_least == "serious" else ("minor", "moderate", "serious", "critical")
    return [f"{v['id']} ({v['impact']}): {json.dumps([n['target'] for n in v['nodes'][:5]])} "
            f"{v['nodes'][0]['failureSummary']}"
            for v in found if v["impact"] in keep]

"""The built site in a real browser: Debian's chromium driven by Playwright.

Opens the archive, a game page and a season page by following links, checks that the
maps are drawn (the overlay image decoded, the board's SVG document loaded), that the
archive sorts and the map downloads, that nothing logs a console error, and saves
screenshots at phone and desktop widths in the test's tmp dir.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from test_site import make_project, mkdocs_build

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE, DESKTOP = (390, 844), (1280, 900)

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - CI installs it from requirements-dev.txt
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(sync_playwright is None, reason="the playwright package is not installed "
                       "(pip install -r requirements-dev.txt)"),
    pytest.mark.skipif(not Path(CHROMIUM).exists() and not shutil.which("chromium"),
                       reason=f"no chromium at {CHROMIUM} (apt-get install -y chromium)"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(directory: Path):
    """A static server for `directory` on a free port of 127.0.0.1; yields its URL."""
    port = _free_port()
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


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("browser") / "project")
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stderr
    with serve(project / "site") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
                              args=ARGS)
        yield b
        b.close()


class Watched:
    """A page that records console errors and failed loads."""

    def __init__(self, browser, size, tmp_path: Path):
        self.context = browser.new_context(viewport={"width": size[0], "height": size[1]}, accept_downloads=True)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("requestfailed", lambda r: self.errors.append(f"failed: {r.url}"))
        self.page.on("response", lambda r: self.errors.append(f"HTTP {r.status}: {r.url}")
                     if r.status >= 400 else None)
        self.tmp_path = tmp_path

    def shot(self, name: str) -> Path:
        path = self.tmp_path / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 5000
        return path

    def close(self):
        self.context.close()


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


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_archive_game_and_season_pages(browser, site_url, tmp_path, size):
    w = Watched(browser, size, tmp_path)
    page = w.page
    try:
        page.goto(site_url + "games/")
        page.wait_for_load_state("networkidle")
        assert page.locator("table.dg-archive tbody tr").count() == 3
        w.shot(f"archive-{size[0]}")

        page.get_by_role("link", name="The Alpha Game").click()
        page.wait_for_load_state("networkidle")
        assert page.url.endswith("/games/alpha/")
        assert "2-way draw between France" in page.locator(".dg-result").inner_text()
        assert page.locator("table.dg-centres tbody tr").count() == 7
        assert_maps_drawn(page, 1)
        w.shot(f"game-{size[0]}")

        page.locator("table.dg-history").get_by_role("link", name="Fall 1901", exact=True).click()
        page.wait_for_load_state("networkidle")
        assert page.url.endswith("/games/alpha/1901-fall/")
        assert page.locator("h1").inner_text() == "Fall 1901"
        assert page.locator(".dg-power").count() == 7
        assert_maps_drawn(page, 2)
        w.shot(f"season-{size[0]}")

        page.locator("a.dg-next").first.click()
        page.wait_for_load_state("networkidle")
        assert page.url.endswith("/games/alpha/1901-fall-retreats/")
        assert_maps_drawn(page, 2)
        page.locator(".dg-crumbs a", has_text="The Alpha Game").click()
        page.wait_for_load_state("networkidle")
        assert page.url.endswith("/games/alpha/")
        assert not w.errors, w.errors
    finally:
        w.close()


def test_archive_sorts_and_maps_download(browser, site_url, tmp_path):
    w = Watched(browser, DESKTOP, tmp_path)
    page = w.page
    try:
        page.goto(site_url + "games/")
        page.wait_for_load_state("networkidle")
        titles = lambda: page.locator("table.dg-archive tbody tr td:first-child").all_inner_texts()  # noqa: E731
        page.get_by_role("button", name="Game").click()
        assert titles() == sorted(titles(), key=str.lower)
        page.get_by_role("button", name="Game").click()
        assert titles() == sorted(titles(), key=str.lower, reverse=True)

        page.goto(site_url + "games/alpha/1901-fall/")
        page.wait_for_load_state("networkidle")
        link = page.locator("a.dg-download").first
        assert link.is_visible()
        with page.expect_download() as info:
            link.click()
        svg = Path(info.value.path()).read_text(encoding="utf-8")
        assert svg.startswith("<svg") and 'id="overlay"' in svg and svg.count("<svg") == 1
        assert not w.errors, w.errors
    finally:
        w.close()

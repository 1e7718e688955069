"""What a page costs a reader to download on a first visit: every file the server sends for it.

The server is a static server for a built site that answers as GitHub Pages does for what matters
here (``Cache-Control: max-age=600``, so that a file the page asks for twice may come from the
browser's cache) and notes each file it sends in full. A first visit is a page opened in a new
browser context (its cache empty) and left until the network is idle and its maps are drawn. Each
file sent counts its gzipped size (GitHub Pages gzips what it sends; a PNG or a WebAssembly file
gains little), once per time it was sent: a file fetched twice costs twice.

Used by the page budget's browser test (tests/test_weight_browser.py) and by bench/pagebytes.py.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from support.browser import settle


@dataclass
class Sent:
    """The files a server sent in full, in order: (site path, gzipped bytes)."""
    files: list[tuple[str, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, path: str, size: int) -> None:
        with self.lock:
            self.files.append((path, size))

    def clear(self) -> None:
        with self.lock:
            self.files.clear()

    def total(self) -> int:
        with self.lock:
            return sum(size for _, size in self.files)

    def of(self, suffix: str) -> list[tuple[str, int]]:
        with self.lock:
            return [(p, s) for p, s in self.files if p.endswith(suffix)]


@functools.lru_cache(maxsize=4096)
def _gzipped(path: str, mtime_ns: int) -> int:
    return len(gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0))


class _Handler(http.server.SimpleHTTPRequestHandler):
    sent: Sent
    cache = True

    def end_headers(self) -> None:
        if self.cache:
            self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def send_head(self):
        out = super().send_head()
        if out is not None and hasattr(out, "name"):  # a file sent in full (not a 304, not a listing)
            site = unquote(urlsplit(self.path).path)
            self.sent.add(site, _gzipped(out.name, Path(out.name).stat().st_mtime_ns))
        return out

    def log_message(self, format, *args) -> None:  # noqa: A002 - the base class's name
        pass


@contextlib.contextmanager
def counting_server(directory: Path, cache: bool = True) -> Iterator[tuple[str, Sent]]:
    """A static server of `directory` on a free port of 127.0.0.1, in a thread of this process;
    yields its URL and what it sent. `cache` False: no Cache-Control (as ``python -m http.server``)."""
    sent = Sent()
    handler = type("Handler", (_Handler,), {"sent": sent, "cache": cache})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", sent
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


#: the page is drawn: every map's board and overlay in place (none on a page without maps)
_DRAWN = """() => [...document.querySelectorAll('figure.dg-map')].every(f => {
    const o = f.querySelector('object.dg-map-board'), i = f.querySelector('img.dg-map-overlay');
    return o && i && i.complete && o.contentDocument && o.contentDocument.documentElement
        && o.contentDocument.documentElement.nodeName === 'svg';
})"""


def first_visit(browser, url: str, sent: Sent, size: tuple[int, int] = (390, 844)) -> list[tuple[str, int]]:
    """The files a first visit to `url` downloads (see the module), with their gzipped bytes."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        sent.clear()
        page.goto(url)
        settle(page)
        page.wait_for_function(_DRAWN, timeout=15000)
        settle(page)
        with sent.lock:
            return list(sent.files)
    finally:
        context.close()


def search_cost(browser, url: str, sent: Sent, query: str, size: tuple[int, int] = (390, 844),
                wait: float = 120) -> tuple[int, int, float]:
    """The gzipped bytes of a first visit to `url`, then those of a search for `query` in the search
    dialog, and the seconds from the last key to its first result (at most `wait`); the number of
    results is not checked here."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        sent.clear()
        page.goto(url)
        settle(page)
        visit = sent.total()
        sent.clear()
        page.locator("label.md-header__button[for=__search]").first.click()
        page.locator("input.md-search__input").press_sequentially(query, delay=20)
        typed = time.perf_counter()
        page.locator(".md-search-result__item").first.wait_for(timeout=wait * 1000)
        shown = time.perf_counter() - typed
        settle(page)
        return visit, sent.total(), shown
    finally:
        context.close()

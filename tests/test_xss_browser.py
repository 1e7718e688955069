"""Script in game files does nothing on the built site, in a real browser (Debian's chromium).

A temp project holds two games whose every text field carries payloads: an open game (title,
GM, player names, description, press, GM notes, the abandoned game's end note) and a running
Stab! game (title and player names on the public pages and on a player's private page). The
site is built with `mkdocs build --strict` and served; on every page no dialog opens, no global
flag the payloads set is set, no request goes to a marker URL, the browser reports no
Content-Security-Policy violation and no console error, and the text fields show the payloads
as text. Search, the palette toggle and navigation still work under the CSP.
"""

from __future__ import annotations

import re
import textwrap

import pytest

from dipgen.cli import main
from dipgen.io.gamefiles import load_game
from dipgen.present.site.crypt import page_uri
from dipgen.io.secretsfile import load_secrets
from support import build, make_project, write_game
from support.browser import BROWSER, DESKTOP, Watched, serve, settle

pytestmark = BROWSER

#: Markdown fields (description, press, notes): each payload in its own paragraph.
MARKDOWN = [
    "<script>window.__pwned=1;alert('script')</script>",
    '<img src="data:image/gif;base64,R0lGOD" onerror="window.__pwned=1;alert(\'img\')">',
    '<svg onload="window.__pwned=1;alert(\'svg\')"><circle r="5"/></svg>',
    '<iframe src="javascript:parent.__pwned=1;alert(\'iframe\')"></iframe>',
    '<a href="javascript:window.__pwned=1;alert(\'link\')">js-link</a>',
    '<a href="JaVaScRiPt:window.__pwned=1">case-link</a>',
    '<a href="&#106;&#97;vascript:window.__pwned=1">entity-link</a>',
    '<a href="java&#x09;script:window.__pwned=1">tab-link</a>',
    "[md-link](javascript:window.__pwned=1)",
    "<javascript:window.__pwned=1>",
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data-link</a>',
    "<style>body{background:url(/xss-marker-style.png)}</style>",
    '<meta http-equiv="refresh" content="0;url=/xss-marker-refresh">',
    '<object data="/xss-marker-object"></object>',
    '<embed src="/xss-marker-embed">',
    '<form action="/xss-marker-form"><input name="q" value="x"><button>form-button</button></form>',
    '<details open ontoggle="window.__pwned=1;alert(\'toggle\')"><summary>s</summary>d</details>',
    '<a href="https://example.invalid/" onclick="window.__pwned=1;return false">onclick-link</a>',
    "</div><script>window.__pwned=1</script><div>",
    '<base href="/xss-marker-base/">',
    '<link rel="stylesheet" href="/xss-marker-link.css">',
    '<p style="background:url(/xss-marker-css.png)">styled</p>',
    '<math><mtext><img src="data:," onerror="window.__pwned=1"></mtext></math>',
    "Tell the GM what `<img src=x onerror=window.__pwned=1>` does.",
]
JS_LINKS = ["js-link", "case-link", "entity-link", "tab-link", "md-link", "data-link"]

#: One-line fields (title, GM, player names, end note): shown exactly as written, as text.
TEXT = "<script>window.__pwned=1</script><img src=x onerror=window.__pwned=1> [t](javascript:window.__pwned=1)"


def markdown_field(key: str, marker: str) -> str:
    body = "\n\n".join([f"{marker} *calm*", *MARKDOWN, f"{marker} end"])
    return f"{key}: |\n" + textwrap.indent(body, "  ") + "\n"


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


OPEN_GAME = ("title: " + quoted("Hostile " + TEXT) + "\n" + "gm: " + quoted("GM " + TEXT) + "\n"
             + markdown_field("description", "DESC-OK") + "players:\n"
             + "".join(f"  {p}: {quoted(p[:3] + ' ' + TEXT)}\n"
                       for p in ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"])
             + "end:\n  abandoned: " + quoted("Note " + TEXT) + "\n")
SPRING = ("orders:\n  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n"
          + markdown_field("press", "PRESS-OK") + markdown_field("notes", "NOTES-OK"))
HIDDEN = "lamps-out"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("xss") / "p", [HIDDEN],
                        games={"hostile": {"game.yml": OPEN_GAME, "1901-spring.yml": SPRING}})
    hidden = root / "games" / HIDDEN
    text = (hidden / "game.yml").read_text(encoding="utf-8")
    text = text.replace("title: The Lamps Go Out", "title: " + quoted("Lamps " + TEXT))
    text = text.replace("England: Owen Pritchard", "England: " + quoted("Owen " + TEXT))
    spring = (hidden / "1904-spring.yml").read_text(encoding="utf-8")
    spring = re.sub(r"^press:.*?(?=^\S|\Z)", "", spring, flags=re.M | re.S)  # its own press, replaced
    write_game(hidden, {"game.yml": text, "1904-spring.yml": spring + markdown_field("press", "HIDDEN-PRESS-OK")})
    assert main(["check", str(root / "games" / "hostile"), str(hidden)]) == 0
    assert main(["secrets", str(hidden)]) == 0
    secrets = load_secrets(hidden / "secrets.yml", load_game(hidden).variant.rules.powers())
    site = build(root)
    with serve(site) as url:
        yield site, url, secrets


class Trap(Watched):
    """A page that also records dialogs, requests to marker URLs and CSP violations."""

    def __init__(self, browser, tmp_path):
        super().__init__(browser, DESKTOP, tmp_path)
        self.dialogs: list[str] = []
        self.markers: list[str] = []
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.context.on("request", lambda r: self.markers.append(r.url) if "xss-marker" in r.url else None)
        self.context.add_init_script("""document.addEventListener("securitypolicyviolation", e =>
            (window.__csp = window.__csp || []).push(e.violatedDirective + " " + e.blockedURI));""")

    def visit(self, url: str) -> None:
        self.page.goto(url)
        settle(self.page)

    def click_dead_links(self) -> None:
        for name in JS_LINKS:
            for link in self.page.get_by_text(name, exact=True).all():
                assert link.get_attribute("href") is None, name
                link.click()
        self.page.wait_for_timeout(200)

    def assert_nothing_ran(self) -> None:
        for frame in self.page.frames:
            assert frame.evaluate("typeof window.__pwned") == "undefined", frame.url
        assert self.page.evaluate("window.__csp || []") == []
        assert self.dialogs == [], ((self.dialogs, self.markers,
                                                                                  self.errors))
        assert self.markers == [], ((self.dialogs, self.markers,
                                                                                  self.errors))
        assert self.errors == [], ((self.dialogs, self.markers,
                                                                                  self.errors))
        assert self.page.locator("[onerror], [onload], [onclick], [ontoggle]"
                                 ).count() == 0


@pytest.fixture
def trap(browser, tmp_path):
    w = Trap(browser, tmp_path)
    yield w
    w.close()


def test_every_page_carries_the_csp_and_runs_no_inline_script(hostile_site):
    site, _, _ = hostile_site
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    assert any(p.parent.name == "private" for p in pages)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)"', text)
        assert csp, page
        script_src = re.search(r"script-src ([^;]+)", csp.group(1)).group(1)
        assert script_src == "'self'", page
        assert "'unsafe-eval'" not in csp.group(1)
        assert "base-uri" in csp.group(1)
        assert text.index("Content-Security-Policy") < text.index("<script")
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert " src=" in tag or 'type="application/json"' in tag, (page, tag)


def test_payloads_do_nothing_on_any_page(hostile_site, trap):
    _, url, _ = hostile_site
    page = trap.page
    for path in ["", "games/", "games/hostile/", "games/hostile/1901-spring/", f"games/{HIDDEN}/",
                 f"games/{HIDDEN}/1904-spring/"]:
        trap.visit(url + path)
        trap.click_dead_links()
        trap.assert_nothing_ran()
        assert page.url == url + path  # no refresh, no <base>, no form sent us anywhere

    trap.visit(url + "games/")
    cells = page.locator("table.dg-archive").inner_text()
    for shown in ["Hostile " + TEXT, "GM " + TEXT, "Rus " + TEXT, "Lamps " + TEXT, "Owen " + TEXT]:
        assert shown in cells, shown

    trap.visit(url + "games/hostile/")
    assert page.locator("h1").inner_text() == "Hostile " + TEXT
    assert page.title().startswith("Hostile " + TEXT)
    assert "GM " + TEXT in page.locator(".dg-gm").inner_text()
    assert "Note " + TEXT in page.locator(".dg-result").inner_text()
    assert "Tur " + TEXT in page.locator("table.dg-centres").inner_text()
    desc = page.locator(".dg-desc")
    assert "DESC-OK calm" in desc.inner_text()
    assert "DESC-OK end" in desc.inner_text()
    assert desc.locator("em", has_text="calm").count() == 1  # Markdown is still Markdown

    trap.visit(url + "games/hostile/1901-spring/")
    for block, marker in ((".dg-press", "PRESS-OK"), (".dg-notes", "NOTES-OK")):
        text = page.locator(block).inner_text()
        assert f"{marker} calm" in text
        assert f"{marker} end" in text
        assert "styled" in text
        assert "<img src=x onerror=window.__pwned=1>" in text  # written as code: shown as text
    assert "Eng " + TEXT in page.locator(".dg-orders").inner_text()
    assert "Note " + TEXT in page.locator(".dg-result").inner_text()
    trap.assert_nothing_ran()


def test_private_page_shows_hostile_names_as_text(hostile_site, trap):
    _, url, secrets = hostile_site
    page = trap.page
    trap.visit(url + page_uri(secrets.page_key, HIDDEN, "England"))
    page.fill("#pp-pass", secrets.passphrases["England"])
    page.click("#pp-open")
    page.locator(".pp-now").wait_for(timeout=15000)
    settle(page)
    assert page.locator("h1").inner_text() == "Lamps " + TEXT
    assert "Owen " + TEXT in page.locator(".pp-kicker").inner_text()
    trap.assert_nothing_ran()


def test_search_palette_and_navigation_work_under_the_csp(hostile_site, trap):
    _, url, _ = hostile_site
    page = trap.page
    trap.visit(url + "games/hostile/1901-spring/")
    scheme = lambda: page.evaluate("document.body.getAttribute('data-md-color-scheme')")  # noqa: E731
    first = scheme()
    page.locator("form[data-md-component=palette] label:visible").first.click()
    assert scheme() != first
    page.reload()
    settle(page)
    assert scheme() != first  # remembered through Material's storage helpers (material-base.js)

    page.keyboard.press("/")
    page.locator("input.md-search__input").press_sequentially("onerror", delay=20)
    results = page.locator(".md-search-result__item")
    results.first.wait_for(timeout=15000)
    assert results.count() >= 1
    results.first.locator("a").first.click()
    settle(page)
    assert "/games/" in page.url

    trap.visit(url + "games/")
    page.get_by_role("link", name="Hostile " + TEXT).first.click()
    settle(page)
    assert page.url.endswith("/games/hostile/")
    page.locator("table.dg-history a").first.click()
    settle(page)
    assert page.url.endswith("/games/hostile/1901-spring/")
    trap.assert_nothing_ran()

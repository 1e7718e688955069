"""No page of the site is wider than the screen: at 320, 390 and 1280 px, every page type (home,
archive, a game page, its season pages, the rules, the about and dice pages, a private page),
with long titles, names and results, and pages of the example games of several variants. A page
wider than the viewport scrolls sideways on a phone, the whole page, not just a table."""

from __future__ import annotations

import re

import pytest

from dipgen.cli import main
from support import ALPHA, BRAVO, build, make_project
from support.browser import BROWSER, serve, settle

pytestmark = BROWSER

WIDTHS = (320, 390, 1280)
LONG_PLAYERS = """
players:
  Austria: Maximiliana Wolkenstein-Trostburg-Ravensworth
  England: Bartholomew Fitzwilliam-Montgomery-Smythe
  France: Anne-Charlotte de la Tour-d'Auvergne-Lauraguais
  Germany: Friedrich-Wilhelm Hohenzollern-Sigmaringen
  Italy: Giangaleazzo Visconti-Sforza-Borromeo
  Russia: Aleksandra Konstantinovna Rimskaya-Korsakova
  Turkey: Mehmetcik Abdulhamitoglu-Karamanlioglu
"""
TITLE = "The Remarkably Protracted and Quarrelsome Congress of Vienna Revisited, Supercalifragilisticexpialidocious"
LONG = {  # a draw of five: the longest status badge there is
    **ALPHA, "game.yml": f"title: {TITLE}\ngm: Wilhelmina Featherstonehaugh-Cholmondeley\n"
                         f"description: https://example.org/{'a-very-long-address-' * 4}\n" + LONG_PLAYERS
                         + "end: {draw: [Austria, England, Italy, Russia, Turkey], phase: 1902-spring}\n"}
LONG_RUNNING = {**BRAVO, "game.yml": f"title: {TITLE} Again\ngm: Wilhelmina Featherstonehaugh-Cholmondeley\n"
                + LONG_PLAYERS + "deadline: 2031-03-01 18:00 +00:00\n"}
LONG_SLUG = 30  # a player's page whose name makes a slug this long: the long-named games' players
EXAMPLES = ["two-crowns", "night-flights", "austrian-question", "lamps-out"]


def sample(site) -> list[str]:
    """Every page type: every page of the long-named games and the site's own but its rules (two
    stand for the rest) and its players' pages (the first and the longest-named stand for the rest,
    a short name and the longest of the long-named games' players), and of each example game its
    page and its first and last seasons (and its full edition's), one private page."""
    pages = []
    players = sorted(p.parent.name for p in site.glob("players/*/index.html"))
    assert len(max(players, key=len)) >= LONG_SLUG
    kept = {players[0], max(players, key=len)}
    for path in sorted(site.rglob("index.html")):
        rel = path.relative_to(site).as_posix()
        parts = rel.split("/")
        if parts[0] == "games" and len(parts) > 2 and parts[1] in EXAMPLES:
            continue
        if parts[0] == "rules" and parts[1] not in ("standard", "tir"):
            continue
        if parts[0] == "players" and len(parts) > 2 and parts[1] not in kept:
            continue  # one player's page stands for the others of its kind
        pages.append(rel)
    for slug in EXAMPLES:
        for edition in (f"games/{slug}", f"games/{slug}/full"):
            seasons = sorted(p.parent.name for p in (site / edition).glob("1*/index.html"))
            if seasons:
                pages += [f"{edition}/index.html", f"{edition}/{seasons[0]}/index.html",
                          f"{edition}/{seasons[-1]}/index.html"]
    private = sorted(site.glob("private/*.html"))
    return pages + [p.relative_to(site).as_posix() for p in private[:1]]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("layout") / "p", EXAMPLES,
                           games={"long": LONG, "long-running": LONG_RUNNING})
    assert main(["secrets", str(project / "games" / "lamps-out")]) == 0
    folder = build(project)
    with serve(folder) as url:
        yield url, folder


#: the page's width once its layout has settled after a resize: two frames (the browser asks for reduced
#: motion: Material's sidebars do not slide)
SETTLED_WIDTH = """() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(
    () => done(document.documentElement.scrollWidth))))"""


def test_no_page_is_wider_than_the_screen(browser, site):
    """Each page is opened at the narrowest width, as a phone opens it, and measured there and again
    after the window is widened to each other width (a page's layout follows its width: CSS, and
    Material's and dipgen's scripts, which listen for the resize); one load a page, not one a width."""
    url, folder = site
    pages = sample(folder)
    assert len(pages) > 25
    assert any("private" in p for p in pages)
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 800}, reduced_motion="reduce")
    page = context.new_page()
    wide = []
    try:
        for rel in pages:
            page.set_viewport_size({"width": WIDTHS[0], "height": 800})
            page.goto(url + rel)
            for width in WIDTHS:
                if width != WIDTHS[0]:
                    page.set_viewport_size({"width": width, "height": 800})
                scroll = page.evaluate(SETTLED_WIDTH)
                if scroll > width:
                    culprits = page.evaluate("""w => [...document.querySelectorAll('body *')]
                        .filter(e => e.getBoundingClientRect().right > w + 1 && !e.closest('.md-sidebar, .md-search'))
                        .slice(-3).map(e => e.tagName.toLowerCase() + '.' + e.className)""", width)
                    wide.append((rel, width, scroll, culprits))
    finally:
        context.close()
    assert not wide, wide


def test_a_season_prints_as_the_zines_page(browser, site):
    """Printed, a season page is its maps, orders and results: no pager, breadcrumbs, Zoom button,
    download link nor Material's header, tabs and footer; a standard season fits two A4 pages."""
    url, _ = site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(url + "games/lamps-out/1902-fall/")
        settle(page)
        page.locator(".dg-map-stack.dg-zoomable").first.wait_for()  # dipgen.js made the maps buttons
        shown = """sel => [...document.querySelectorAll(sel)].some(e => e.getClientRects().length > 0)"""
        gone = (".dg-pager", ".dg-crumbs", "a.dg-download", ".md-header", ".md-tabs", ".md-footer")
        zoom = "() => getComputedStyle(document.querySelector('.dg-map-stack'), '::after').display"
        assert all(page.evaluate(shown, s) for s in (".dg-pager", ".dg-crumbs", ".md-header"))
        assert page.evaluate(zoom) != "none"
        page.emulate_media(media="print")
        assert not [s for s in gone if page.evaluate(shown, s)]
        assert page.evaluate(zoom) == "none"
        assert all(page.evaluate(shown, s) for s in ("figure.dg-map", ".dg-orders .dg-power", ".dg-happened"))
        pdf = page.pdf(format="A4")
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) <= 2
    finally:
        page.close()

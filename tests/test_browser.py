"""The built site in a real browser: Debian's chromium driven by Playwright.

Opens the archive, a game page and a season page by following links, checks that the
maps are drawn (the overlay image decoded, the board's SVG document loaded), that the
archive sorts and the map downloads, that nothing logs a console error, and saves
screenshots at phone and desktop widths in the test's tmp dir.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support import ARCHIVE, build, built_once, make_project
from support.browser import BROWSER, DESKTOP, PHONE, Watched, assert_maps_drawn, changes_within, serve, settle

pytestmark = BROWSER


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    """The test archive, built once for the run (tests/test_site.py reads the same site), served."""
    with serve(built_once(tmp_path_factory, games=ARCHIVE) / "site") as url:
        yield url


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_archive_game_and_season_pages(browser, site_url, tmp_path, size):
    w = Watched(browser, size, tmp_path)
    page = w.page
    try:
        page.goto(site_url + "games/")
        settle(page)
        assert page.locator("table.dg-archive tbody tr").count() == 3
        w.shot(f"archive-{size[0]}")

        page.get_by_role("link", name="The Alpha Game").click()
        settle(page)
        assert page.url.endswith("/games/alpha/")
        assert "2-way draw between France" in page.locator(".dg-result").inner_text()
        assert page.locator("table.dg-centres tbody tr").count() == 7
        assert_maps_drawn(page, 1)
        w.shot(f"game-{size[0]}")

        page.locator("table.dg-history").get_by_role("link", name="Fall 1901", exact=True).click()
        settle(page)
        assert page.url.endswith("/games/alpha/1901-fall/")
        assert page.locator("h1").inner_text() == "Fall 1901"
        assert page.locator(".dg-power").count() == 7
        assert_maps_drawn(page, 2)
        w.shot(f"season-{size[0]}")

        page.locator("a.dg-next").first.click()
        settle(page)
        assert page.url.endswith("/games/alpha/1901-fall-retreats/")
        assert_maps_drawn(page, 2)
        page.locator(".dg-crumbs a", has_text="The Alpha Game").click()
        settle(page)
        assert page.url.endswith("/games/alpha/")
        assert not w.errors, w.errors
    finally:
        w.close()


def test_archive_sorts_and_maps_download(browser, site_url, tmp_path):
    w = Watched(browser, DESKTOP, tmp_path)
    page = w.page
    try:
        page.goto(site_url + "games/")
        settle(page)
        titles = lambda: page.locator("table.dg-archive tbody tr td:first-child").all_inner_texts()  # noqa: E731
        page.get_by_role("button", name="Game").click()
        assert titles() == sorted(titles(), key=str.lower)
        page.get_by_role("button", name="Game").click()
        assert titles() == sorted(titles(), key=str.lower, reverse=True)

        page.goto(site_url + "games/alpha/1901-fall/")
        settle(page)
        link = page.locator("a.dg-download").first
        assert link.is_visible()
        with page.expect_download() as info:
            link.click()
        svg = Path(info.value.path()).read_text(encoding="utf-8")
        assert svg.startswith("<svg")
        assert 'id="overlay"' in svg
        assert svg.count("<svg") == 1
        assert not w.errors, w.errors
    finally:
        w.close()


def test_the_palette_switch_recolours_the_maps_and_is_remembered(browser, site_url, tmp_path):
    """Under each map a switch turns the powers' colour-blind palette on (every map of the page, by
    the overlay's #o-cb target: no inline script, and the centre chart), and this browser remembers
    it on the next page and after a reload; turned off, it stays off."""
    w = Watched(browser, DESKTOP, tmp_path)
    page = w.page
    try:
        page.goto(site_url + "games/alpha/1901-fall/")
        settle(page)
        overlays = page.locator("img.dg-map-overlay")
        switches = page.get_by_role("button", name="Colour-blind palette")
        assert overlays.count() == switches.count() == 2
        assert switches.first.get_attribute("aria-pressed") == "false"
        assert not any("#" in overlays.nth(i).get_attribute("src") for i in range(2))
        before = overlays.first.screenshot()
        switches.first.click()
        assert all(overlays.nth(i).get_attribute("src").endswith("#o-cb") for i in range(2))
        assert all(switches.nth(i).get_attribute("aria-pressed") == "true" for i in range(2))
        assert changes_within(overlays.first.screenshot, before)  # the powers' colours changed
        w.shot("palette-colour-blind")
        page.goto(site_url + "games/alpha/")
        settle(page)
        assert page.locator("img.dg-map-overlay").first.get_attribute("src").endswith("#o-cb")
        austria = page.locator("svg.dg-chart polyline.paus")  # the centre chart follows the switch
        assert austria.evaluate("e => getComputedStyle(e).stroke") == "rgb(197, 44, 0)"  # #c52c00
        page.get_by_role("button", name="Colour-blind palette").first.click()
        assert austria.evaluate("e => getComputedStyle(e).stroke") == "rgb(224, 84, 11)"  # #e0540b
        page.reload()
        settle(page)
        assert "#" not in page.locator("img.dg-map-overlay").first.get_attribute("src")
        assert page.get_by_role("button", name="Colour-blind palette").first.get_attribute("aria-pressed") == "false"
        assert not w.errors, w.errors
    finally:
        w.close()


def swatch(page, power: str) -> str:
    """The computed colour of the first swatch beside `power`'s name on the page."""
    return page.locator(".dg-power-name", has_text=power).locator(".dg-swatch").first.evaluate(
        "e => getComputedStyle(e).backgroundColor")


def _rgb(colour: str) -> str:
    """``#rrggbb`` as a browser's computed style writes it."""
    return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))


@pytest.fixture(scope="module")
def fame_url(tmp_path_factory):
    """A site whose hall of fame has a power's win (the ARCHIVE's games end in a draw or not at all)."""
    project = make_project(tmp_path_factory.mktemp("fame") / "project", examples=("austrian-question",))
    with serve(build(project)) as url:
        yield url


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_hall_of_fames_bars_follow_the_palette_switch(browser, fame_url, tmp_path, size):
    """The wins per power bar chart takes the powers' colour-blind colours when the reader turns the
    palette on under a map (on another page: the hall of fame has no map), as the squares beside
    the powers' names do, and its usual colours again when she turns it off."""
    w = Watched(browser, size, tmp_path)
    page, url = w.page, fame_url
    try:
        page.goto(url + "hall-of-fame/")
        settle(page)
        bars = page.locator("svg.dg-bars rect[style]")
        assert bars.count() >= 1
        fills = [(b.get_attribute("fill"), b.evaluate("e => getComputedStyle(e).getPropertyValue('--dg-cs')"))
                 for b in bars.all()]
        assert all(safe.strip().lower() != usual.lower() for usual, safe in fills)  # a change to see
        computed = lambda: [b.evaluate("e => getComputedStyle(e).fill") for b in bars.all()]  # noqa: E731
        assert computed() == [_rgb(usual) for usual, _ in fills]
        w.shot(f"fame-usual-{size[0]}")
        page.goto(url + "games/austrian-question/1901-spring/")
        page.get_by_role("button", name="Colour-blind palette").first.click()
        page.goto(url + "hall-of-fame/")
        settle(page)
        assert computed() == [_rgb(safe.strip()) for _, safe in fills]
        w.shot(f"fame-colour-blind-{size[0]}")
        page.goto(url + "games/austrian-question/1901-spring/")
        page.get_by_role("button", name="Colour-blind palette").first.click()
        page.goto(url + "hall-of-fame/")
        settle(page)
        assert computed() == [_rgb(usual) for usual, _ in fills]
        assert not w.errors, w.errors
    finally:
        w.close()


def test_the_swatches_beside_the_powers_names_follow_the_palette_switch(browser, site_url, tmp_path):
    """The small square beside a power's name takes its colour-blind colour with the maps, on the
    page of the switch and on every other page, one without a map too (the archive), and its usual
    colour again when the switch is turned off; a season's power card keeps its edge in step."""
    usual, safe = "rgb(224, 84, 11)", "rgb(197, 44, 0)"  # Austria: #e0540b, #c52c00
    w = Watched(browser, DESKTOP, tmp_path)
    page = w.page
    try:
        page.goto(site_url + "games/alpha/1901-fall/")
        settle(page)
        card = page.locator("section.dg-power", has_text="Austria").first
        assert swatch(page, "Austria") == usual
        assert card.evaluate("e => getComputedStyle(e).borderTopColor") == usual
        page.get_by_role("button", name="Colour-blind palette").first.click()
        assert swatch(page, "Austria") == safe
        assert card.evaluate("e => getComputedStyle(e).borderTopColor") == safe
        for where in ("games/alpha/", "games/"):  # the game page, then the archive: no map, no switch
            page.goto(site_url + where)
            settle(page)
            assert swatch(page, "Austria") == safe, where
        page.goto(site_url + "games/alpha/")
        page.get_by_role("button", name="Colour-blind palette").first.click()
        assert swatch(page, "Austria") == usual
        page.goto(site_url + "games/")
        settle(page)
        assert swatch(page, "Austria") == usual
        assert not w.errors, w.errors
    finally:
        w.close()

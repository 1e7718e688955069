"""The site on a phone, in a real browser (Debian's chromium, driven by Playwright): a map opens
full screen and zooms until a province's name reads as body text; the centre table keeps its
power column while the years scroll, opens at the latest year and is reached by keyboard; neither
the search dialog nor a map full screen has a serious or critical axe-core finding in either colour
scheme (the page types are tests/test_axe_browser.py's).

axe-core (tests/vendor/axe.min.js, MPL-2.0, its licence beside it) is a test tool: it is injected
by the test, never shipped with the site.
"""

from __future__ import annotations

import pytest

from support import GAMES, built_once
from support.browser import BROWSER, DESKTOP, PHONE, Watched, assert_maps_drawn, axe_findings, serve, settle

pytestmark = BROWSER

GAME = "games/winter-palace/"  # a standard game of twelve years: its centre table overflows a phone


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The example archive as the other browser modules read it (built once a run), on a server."""
    folder = built_once(tmp_path_factory, sorted(p.name for p in GAMES.iterdir() if (p / "game.yml").is_file())) \
        / "site"
    with serve(folder) as url:
        yield url, folder


def open_game(w: Watched, url: str) -> None:
    w.page.goto(url + GAME)
    settle(w.page)
    assert_maps_drawn(w.page, 1)


# --------------------------------------------------------------------------- maps full screen

#: the full-screen viewer's scale, read from the stage's computed transform (JavaScript)
SCALE = "new DOMMatrix(getComputedStyle(document.querySelector('.dg-zoom-stage')).transform).a"


def stage_scale(page) -> float:
    return page.evaluate(f"() => {SCALE}")


def scale_comes_to(page, test: str) -> float:
    """The viewer's scale once `test` (JavaScript, of the scale `a`) holds, failing after 5 s. Panzoom
    sets a transform at the next animation frame and animates a zoom, so a read made straight after an
    opening or a key can see the scale before it."""
    page.wait_for_function(f"() => {{ const a = {SCALE}; return {test}; }}", timeout=5000)
    return stage_scale(page)


def label_height_at_max_zoom(page) -> float:
    """The rendered height, in CSS px, of the smallest province name (text.label.land) at the
    viewer's largest zoom: its bounding box in the page's board (an SVG document in an <object>),
    scaled by the zoomed stage's width over that board's width (both draw the same SVG)."""
    return page.evaluate("""() => {
        const board = document.querySelector('object.dg-map-board');
        const names = [...board.contentDocument.querySelectorAll('text.label.land')];
        const tallest = Math.min(...names.map(t => t.getBoundingClientRect().height));
        const stage = document.querySelector('.dg-zoom-stage').getBoundingClientRect();
        return tallest * stage.width / board.getBoundingClientRect().width;
    }""")


def test_a_map_opens_full_screen_zooms_and_gives_focus_back(browser, site, tmp_path):
    url, _ = site
    w = Watched(browser, PHONE, tmp_path)
    page = w.page
    try:
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(url + "games/")
        settle(page)
        assert not [r for r in requests if "panzoom" in r]  # no map, no viewer
        open_game(w, url)
        assert [r for r in requests if r.endswith("assets/dipgen/panzoom.min.js")]
        stack = page.locator(".dg-map-stack").first
        assert stack.get_attribute("role") == "button"
        assert stack.get_attribute("tabindex") == "0"

        stack.click()  # a tap or a click
        dialog = page.locator("dialog.dg-zoom")
        dialog.wait_for(state="visible")
        assert dialog.bounding_box()["width"] == PHONE[0]
        assert page.evaluate("document.activeElement.className").startswith("dg-zoom-close")
        page.mouse.move(195, 400)
        page.mouse.wheel(0, -400)  # the wheel zooms
        scale_comes_to(page, "a > 1.05")
        for _ in range(12):
            page.keyboard.press("+")
        assert scale_comes_to(page, "Math.abs(a - 6) < 1e-3") == pytest.approx(6)  # the largest zoom
        height = label_height_at_max_zoom(page)
        assert height >= 14, height
        w.shot("zoomed-390")
        page.keyboard.press("ArrowRight")  # pans when zoomed
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        # the dialog's close event, which gives focus back, comes as a task after it is hidden
        page.wait_for_function("() => document.activeElement === document.querySelector('.dg-map-stack')",
                               timeout=3000)

        page.keyboard.press("Enter")  # Enter on the focused map; the close button leaves too
        dialog.wait_for(state="visible")
        assert scale_comes_to(page, "Math.abs(a - 1) < 1e-3") == pytest.approx(1)  # each opening starts whole
        page.get_by_role("button", name="Close full screen").click()
        dialog.wait_for(state="hidden")
        # the dialog's close event, which gives focus back, comes as a task after it is hidden
        page.wait_for_function("() => document.activeElement === document.querySelector('.dg-map-stack')",
                               timeout=3000)
        assert not page.evaluate("document.documentElement.classList.contains('dg-zoom-open')")
        assert not w.errors, w.errors  # a CSP refusal is a console error
    finally:
        w.close()


def test_two_fingers_pinch_the_map_larger(browser, site):
    """A pinch on a touch screen (two touch points moving apart, sent as the phone sends them)."""
    url, _ = site
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(url + GAME)
        settle(page)
        page.locator(".dg-map-stack").first.tap()
        page.locator("dialog.dg-zoom").wait_for(state="visible")
        cdp = context.new_cdp_session(page)

        def touch(kind, points):
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
                {"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})

        touch("touchStart", [(195, 420), (195, 460)])
        for d in range(1, 11):
            touch("touchMove", [(195, 420 - 10 * d), (195, 460 + 10 * d)])
        touch("touchEnd", [])
        assert scale_comes_to(page, "a > 1.5") > 1.5
    finally:
        context.close()


def test_without_javascript_a_map_is_a_plain_image(browser, site, tmp_path):
    url, _ = site
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(url + GAME)
        settle(page)
        stack = page.locator(".dg-map-stack").first
        assert stack.get_attribute("role") is None
        assert stack.get_attribute("tabindex") is None
        assert page.locator("img.dg-map-overlay").first.evaluate("i => i.complete && i.naturalWidth > 0")
        stack.click()
        assert page.locator("dialog").count() == 0
        assert page.locator(".dg-scroll").first.evaluate("b => b.scrollLeft") == 0  # the first year
    finally:
        context.close()


# --------------------------------------------------------------------------- the centre table

def test_the_centre_table_keeps_its_powers_and_opens_at_the_latest_year(browser, site, tmp_path):
    url, _ = site
    w = Watched(browser, PHONE, tmp_path)
    page = w.page
    try:
        open_game(w, url)
        box = page.get_by_role("region", name="Supply centres by year")
        assert box.get_attribute("tabindex") == "0"
        end = box.evaluate("b => b.scrollWidth - b.clientWidth")
        assert end > 100  # twelve years do not fit 390 px
        assert box.evaluate("b => b.scrollLeft") == pytest.approx(end, abs=1)
        page.set_viewport_size({"width": 340, "height": PHONE[1]})  # a narrower window: the latest year still
        page.wait_for_function("() => { const b = document.querySelector('.dg-scroll');"
                               " return b.scrollWidth - b.clientWidth > 160"
                               " && b.scrollLeft >= b.scrollWidth - b.clientWidth - 1; }")
        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        page.wait_for_function("end => Math.abs(document.querySelector('.dg-scroll').scrollLeft - end) <= 1", arg=end)
        last = box.locator("thead th").last
        assert last.bounding_box()["x"] + last.bounding_box()["width"] <= PHONE[0]  # the latest year in view
        power = box.locator("tbody th.dg-sticky").first
        left = box.bounding_box()["x"]
        assert power.bounding_box()["x"] == pytest.approx(left, abs=1)
        box.focus()
        page.keyboard.press("ArrowLeft")  # the keyboard scrolls it
        page.wait_for_function("end => document.querySelector('.dg-scroll').scrollLeft < end - 20", arg=end)
        assert power.bounding_box()["x"] == pytest.approx(left, abs=1)  # the power column stays
        w.shot("centres-390")
        smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll('.dg-chart-box svg text')]
            .map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))""")
        assert 11 <= smallest < 30, smallest  # the centre chart's type, as drawn on a phone
        assert not w.errors, w.errors
    finally:
        w.close()


# --------------------------------------------------------------------------- axe-core

@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_axe_finding_in_the_search_dialog_or_a_map_full_screen(browser, site, scheme):
    """What a phone opens over a page, in both schemes, Material following the browser's: the page
    types themselves are tests/test_axe_browser.py's (a sample of every type and variant at 390 px
    and 1280 px, light and dark)."""
    url, folder = site
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, color_scheme=scheme)
    page = context.new_page()
    found: dict[str, list[str]] = {}
    try:
        page.goto(url + "games/")
        settle(page)
        assert page.evaluate("document.body.dataset.mdColorScheme") == {"light": "default", "dark": "slate"}[scheme]
        page.locator("label.md-header__button[for=__search]").first.click()
        page.keyboard.type("winter")
        page.locator(".md-search-result__item").first.wait_for()
        found["search dialog"] = axe_findings(page)
        page.keyboard.press("Escape")
        page.goto(url + GAME)
        settle(page)
        page.locator(".dg-map-stack").first.click()
        page.locator("dialog.dg-zoom").wait_for(state="visible")
        found["map full screen"] = axe_findings(page)
    finally:
        context.close()
    assert not any(found.values()), {k: v for k, v in found.items() if v}


def test_axe_finds_what_it_is_meant_to(browser, site):
    """The check above can fail: grey on grey and an unnamed button are found."""
    url, _ = site
    page = browser.new_page(viewport={"width": DESKTOP[0], "height": DESKTOP[1]})
    try:
        page.goto(url)
        settle(page)
        page.evaluate("""() => { const p = document.createElement('p'); p.textContent = 'faint';
            p.style.cssText = 'color: #777; background: #888'; document.querySelector('article').append(p);
            document.querySelector('article').append(document.createElement('button')); }""")
        found = " ".join(axe_findings(page))
        assert "color-contrast (serious)" in found
        assert "button-name (critical)" in found
    finally:
        page.close()

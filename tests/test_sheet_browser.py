"""The order sheet in a real browser (Debian's chromium, driven by Playwright), at phone and desktop
width: a player picks her orders by typing part of each, adds one in the free line, and the text
the sheet gives reads back through the phase-file reader to exactly the orders picked; a misorder
typed in a menu is flagged and left out; the mailto: link carries the orders; no sideways scrolling
on a phone and no serious axe-core finding."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from dipgen.cli import main
from dipgen.usecases.games import replay_folder
from dipgen.present.site.crypt import page_uri
from dipgen.core.orders import parse_order
from dipgen.present.site.sheet import sheet_data
from dipgen.view import game_view
from dipgen.core.results import Kind
import support.browser
from support import GAMES, build, load, make_project, write_game
from support.browser import BROWSER, DESKTOP, PHONE, Watched, axe_findings, serve
from support.private import RUNNING  # the game of the private_site fixture (conftest.py): lamps-out with its secrets

pytestmark = BROWSER

GAME = "north-sea-ledger"  # a standard game that runs, open: its page has the sheet
SHOTS = Path("/tmp/sheet-shots")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("sheet") / "p", [GAME])
    game_yml = project / "games" / GAME / "game.yml"
    write_game(game_yml.parent, {"game.yml": game_yml.read_text(encoding="utf-8") + "orders_to: orders@example.org\n"})
    folder = build(project)
    with serve(folder) as url:
        yield url, folder, project


def pick_orders(page, rows) -> list[str]:
    """Picks an order for each of the first rows as a player would: for the first, types the start
    of a move's destination and presses Enter; for the others, types part of a support or the hold."""
    chosen = []
    for i, row in enumerate(rows[:3]):
        box = page.get_by_label(row["unit"], exact=True)
        moves = [o for o in row["orders"] if " - " in o and " S " not in o and " C " not in o]
        if i == 0 and moves:
            want = moves[0]
            typed = want.rsplit(" - ", 1)[1].lower()
            assert all(not o.lower().rsplit(" - ", 1)[-1].startswith(typed) for o in moves[1:] if o != want)
        elif i == 1 and any(" S " in o for o in row["orders"]):
            want = next(o for o in row["orders"] if " S " in o)
            typed = want
        else:
            want = row["orders"][0]
            typed = want.lower()
        box.click()
        box.press_sequentially(typed, delay=5)
        box.press("Enter")
        assert box.input_value() == want
        chosen.append(want)
    return chosen


def open_sheet(browser, site, tmp_path, size):
    """The game page at `size` with England's part of the sheet open: (England's part of sheet.json,
    the watched page, England's form)."""
    url, folder, _ = site
    data = json.loads((folder / "games" / GAME / "sheet.json").read_text(encoding="utf-8"))
    england = next(p for p in data["powers"] if p["power"] == "England")
    w = Watched(browser, size, tmp_path)
    w.page.goto(url + f"games/{GAME}/")
    w.page.wait_for_selector(".dg-sheet-app:not([hidden])")
    form = w.page.locator(".dg-sheet-form", has_text="England").first
    form.locator("summary").click()
    return england, w, form


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_picked_orders_read_back_exactly(browser, site, tmp_path, size):
    url, folder, project = site
    england, w, form = open_sheet(browser, site, tmp_path, size)
    page = w.page
    chosen = pick_orders(page, england["rows"])
    last = england["rows"][3]
    bad = page.get_by_label(last["unit"], exact=True)
    bad.fill(last["unit"] + " - Mos")  # a misorder: flagged, and not in the text
    assert bad.get_attribute("aria-invalid") == "true"
    free = form.locator(".dg-sheet-free")
    free.fill("F NTH S A Bel - Hol\n")
    text = form.locator(".dg-sheet-text").input_value()
    assert text.splitlines() == ["England:"] + chosen + ["F NTH S A Bel - Hol"]
    mail = form.locator(".dg-sheet-mail").get_attribute("href")
    assert mail.startswith("mailto:orders@example.org?subject=")
    assert "&body=England%3A%0A" + "%0A".join(s.replace(" ", "%20") for s in chosen) in mail
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    assert axe_findings(page) == []
    shot = w.shot(f"page-{size[0]}")
    if shot:  # pytest --shots: the page and its sheet kept to look at
        SHOTS.mkdir(exist_ok=True)
        shutil.copy(shot, SHOTS / f"page-{size[0]}.png")
        page.locator("section.dg-sheet").screenshot(path=str(SHOTS / f"sheet-{size[0]}.png"))
    assert w.errors == []
    w.close()

    # the text, as the player mails it, is read by dipgen orders into the phase file the game waits
    # for, with no question, as exactly the orders picked (and adjudicated as legal)
    phase = project / "games" / GAME / "1905-spring.yml"
    picked = chosen
    message = tmp_path / "orders.txt"
    message.write_text("Dear GM,\n\n" + "\n".join(["England:"] + picked) + "\n\nCheers\n", encoding="utf-8")
    try:
        assert main(["orders", str(project / "games" / GAME), str(message)]) == 0
        assert yaml.safe_load(phase.read_text(encoding="utf-8"))["orders"] == {"England": picked}
        history = replay_folder(project / "games" / GAME)
    finally:
        phase.unlink()
    record = history.records[-1]
    written = [ol.text for ol in record.orders.get("England", ())]
    assert written == picked
    results = [r for r in record.results if r.power == "England" and not r.default]
    assert not any(r.has(Kind.ILLEGAL) for r in results)
    assert len(results) == len(picked)


HIDDEN = RUNNING  # Stab!, running: the sheet is on each player's private page only


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_private_page_has_the_sheet_of_her_own_units(browser, private_site, tmp_path, size):
    url, secrets, _, _ = private_site
    england = game_view(load(GAMES / HIDDEN), "England")
    data = sheet_data(england, england.own)
    assert data is not None
    assert [p["power"] for p in data["powers"]] == ["England"]
    rows = data["powers"][0]["rows"]
    rules = england.variant.rules
    known = {u.province for u in england.now.units}
    for row in rows:  # no order names a unit England cannot know is there
        for text in row["orders"]:
            target = getattr(parse_order(rules.board, text, rules.order_words, rules.verbs), "target", None)
            assert target is None or isinstance(target, str) or target.province in known, text
    w = Watched(browser, size, tmp_path)
    page = w.page
    page.goto(url + page_uri(secrets.page_key, HIDDEN, "England"))
    page.fill("#pp-pass", secrets.passphrases["England"])
    page.click("#pp-open")
    page.wait_for_selector(".dg-sheet-app:not([hidden])", timeout=15000)
    assert page.locator(".dg-sheet-form").count() == 1
    chosen = pick_orders(page, rows)
    text = page.locator(".dg-sheet-text").input_value()
    assert text.splitlines() == ["England:"] + chosen
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    assert axe_findings(page) == []
    if support.browser.KEEP_SHOTS:
        SHOTS.mkdir(exist_ok=True)
        page.locator("section.dg-sheet").screenshot(path=str(SHOTS / f"private-sheet-{size[0]}.png"))
    assert w.errors == []
    w.close()


def test_without_javascript_the_sheet_is_a_list_of_legal_orders(browser, site):
    url, folder, _ = site
    context = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(url + f"games/{GAME}/")
        sheet = page.locator("section.dg-sheet")
        assert sheet.locator(".dg-sheet-app").is_hidden()
        power = sheet.locator("details.dg-sheet-power", has_text="England")
        power.locator("summary").first.click()
        unit = power.locator("li > details").first
        unit.locator("summary").click()
        assert unit.locator(".dg-sheet-orders li").first.inner_text().endswith(" H")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE[0]
        if support.browser.KEEP_SHOTS:
            SHOTS.mkdir(exist_ok=True)
            sheet.screenshot(path=str(SHOTS / "sheet-nojs-390.png"))
    finally:
        context.close()


def test_on_a_phone_a_power_is_ordered_from_the_keyboard_alone(browser, site, tmp_path):
    """At 390 px each unit stands beside its menu (a power's units on one screen); Enter (a phone
    keyboard's "Next", which each menu asks for) picks the order typed and goes on to the next unit,
    from the last to Copy, and leaves a misorder where it is to be mended."""
    england, w, form = open_sheet(browser, site, tmp_path, PHONE)
    page, rows = w.page, england["rows"]
    boxes = [page.get_by_label(row["unit"], exact=True) for row in rows]
    assert [b.get_attribute("enterkeyhint") for b in boxes] == ["next"] * (len(rows) - 1) + ["done"]
    label = form.locator(".dg-sheet-row label").first.bounding_box()
    first = boxes[0].bounding_box()
    assert label["x"] + label["width"] <= first["x"]  # beside it, on its line
    assert abs(label["y"] + label["height"] / 2 - first["y"] - first["height"] / 2) < 4
    boxes[0].focus()
    page.keyboard.type("zzz")  # no order of the unit: flagged, and the focus stays to mend it
    page.keyboard.press("Enter")
    assert boxes[0].get_attribute("aria-invalid") == "true"
    assert boxes[0].evaluate("e => e == document.activeElement")
    boxes[0].fill("")
    for row, box in zip(rows, boxes, strict=True):
        assert box.evaluate("e => e == document.activeElement")
        page.keyboard.type(row["orders"][0])  # the hold, typed whole
        page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('dg-sheet-copy')")
    text = form.locator(".dg-sheet-text").input_value()
    assert text.splitlines() == ["England:"] + [row["orders"][0] for row in rows]
    assert w.errors == []
    w.close()

"""A player's private page in a real browser (Debian's chromium, driven by Playwright).

The built site is served on http://127.0.0.1 (WebCrypto needs a secure context); a wrong
passphrase shows a clear message and nothing in the console; the right one shows her map
(the board and her overlay) and her reports; "remember" keeps the page open on reload, with
only a key that cannot be read out, and keeps it open after a rebuild from nothing, until the
GM gives a new passphrase.
Screenshots at phone and desktop widths go to the test's tmp dir and /tmp/private_*.png.
"""

from __future__ import annotations

import json
import shutil

import pytest

from dipgen.cli import main
from dipgen.io.gamefiles import load_game
from dipgen.present.site.crypt import page_uri
from dipgen.io.secretsfile import load_secrets
from support import make_project, mkdocs_command
from support.browser import BROWSER, DESKTOP, PHONE, Watched, serve, settle
from support.private import RUNNING, envelope  # RUNNING: the game of the private_site fixture (conftest.py)

pytestmark = BROWSER


def wait_for_maps(page) -> int:
    """Every visible map drawn: the board image and the overlay decoded, one exactly on the other."""
    page.wait_for_function(
        """() => {
            const imgs = [...document.querySelectorAll('details[open] img, .pp-now img')];
            return imgs.length >= 4 && imgs.every(i => i.complete && i.naturalWidth > 0);
        }""", timeout=15000)
    board = page.locator(".pp-now img.pp-board").bounding_box()
    overlay = page.locator(".pp-now img.pp-overlay").bounding_box()
    assert board
    assert overlay
    assert board == overlay
    assert board["width"] > 200
    return page.locator("img.pp-overlay").count()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_player_opens_her_private_page(browser, private_site, tmp_path, size):
    url, secrets, seasons, mapped = private_site
    w = Watched(browser, size, tmp_path)
    page = w.page
    try:
        page.goto(url + page_uri(secrets.page_key, RUNNING, "England"))
        settle(page)
        assert page.title() == "Private page"
        form = page.locator("#pp-form")
        assert form.is_visible()

        page.fill("#pp-pass", secrets.passphrases["France"])
        page.click("#pp-open")
        message = page.locator("#pp-message")
        message.filter(has_text="does not open this page").wait_for(timeout=15000)
        assert "pp-bad" in message.get_attribute("class")
        assert form.is_visible()
        assert not page.locator(".pp-now").count()
        w.shot(f"private-wrong-{size[0]}")

        page.fill("#pp-pass", "  " + secrets.passphrases["England"] + " ")
        page.click("#pp-open")
        page.locator(".pp-now").wait_for(timeout=15000)
        assert "England" in page.locator(".pp-kicker").inner_text()
        assert page.locator("h1").inner_text() == "The Lamps Go Out"
        assert page.locator("details.pp-season").count() == seasons
        assert "for England" in page.locator("details[open] pre.pp-report").inner_text()
        assert wait_for_maps(page) == 1 + 2 * mapped
        assert "F NTH" in page.locator(".pp-facts").inner_text()
        w.shot(f"private-open-{size[0]}")
        assert not w.errors, w.errors
    finally:
        w.close()


#: What private.js keeps in IndexedDB: per record its page, and whether its key can be read out.
KEPT = """() => new Promise((resolve, reject) => {
    const open = indexedDB.open("dipgen-private", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("keys", {keyPath: "page"});
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
        const db = open.result, all = db.transaction("keys").objectStore("keys").getAll();
        all.onsuccess = async () => {
            const out = [];
            for (const r of all.result) {
                let exported = true;
                try { await crypto.subtle.exportKey("raw", r.key); } catch (e) { exported = false; }
                out.push({page: r.page, cryptoKey: r.key instanceof CryptoKey, extractable: r.key.extractable,
                          exported});
            }
            db.close();
            resolve(out);
        };
    };
})"""


def test_remember_keeps_only_a_key_that_cannot_be_read_out(browser, private_site, tmp_path):
    url, secrets, seasons, mapped = private_site
    w = Watched(browser, DESKTOP, tmp_path)
    page = w.page
    try:
        address = url + page_uri(secrets.page_key, RUNNING, "Turkey")
        page.goto(address)
        page.fill("#pp-pass", secrets.passphrases["Turkey"])
        page.click("#pp-open")
        page.locator(".pp-now").wait_for(timeout=15000)
        wait_for_maps(page)  # a reload while they load would abort their requests
        page.reload()
        settle(page)
        assert page.locator("#pp-form").is_visible()  # not asked to remember: asked again
        assert page.evaluate(KEPT) == []

        page.fill("#pp-pass", secrets.passphrases["Turkey"])
        page.check("#pp-remember")
        page.click("#pp-open")
        page.locator(".pp-now").wait_for(timeout=15000)
        wait_for_maps(page)
        kept = page.evaluate(KEPT)
        assert kept == [{"page": "/" + page_uri(secrets.page_key, RUNNING, "Turkey"), "cryptoKey": True,
                         "extractable": False, "exported": False}]
        # nothing readable anywhere else a script of the origin could look
        assert page.evaluate("sessionStorage.length + localStorage.length") == 0
        page.reload()
        page.locator(".pp-now").wait_for(timeout=15000)  # opened without asking
        wait_for_maps(page)
        page.get_by_role("button", name="Forget me on this device").click()
        settle(page)
        page.locator("#pp-form").wait_for(timeout=15000)
        assert page.evaluate(KEPT) == []
        assert not w.errors, w.errors
    finally:
        w.close()


def _clean_build(project) -> None:
    """A build as CI makes it: a new process, no cache folder, no site left from before."""
    shutil.rmtree(project / ".dipgen-cache", ignore_errors=True)
    shutil.rmtree(project / "site", ignore_errors=True)
    done = mkdocs_command(project)
    assert done.returncode == 0, done.stderr


def _payload(page) -> dict:
    return json.loads(page.locator("#pp-payload").text_content())


def test_a_remembered_page_opens_after_a_clean_rebuild_until_the_passphrase_changes(browser, tmp_path):
    """Remember, rebuild from nothing (a new nonce, the same salt), reload: the page opens by itself.
    A new passphrase, rebuild, reload: the kept key no longer opens it; it is dropped, the form asks
    for the passphrase, and the new one opens the page."""
    project = make_project(tmp_path / "p", [RUNNING])
    folder = project / "games" / RUNNING
    assert main(["secrets", str(folder)]) == 0
    secrets = load_secrets(folder / "secrets.yml", load_game(folder).variant.rules.powers())
    uri = page_uri(secrets.page_key, RUNNING, "England")
    _clean_build(project)
    before = envelope((project / "site" / uri).read_text(encoding="utf-8"))
    w = Watched(browser, DESKTOP, tmp_path)
    page = w.page
    with serve(project / "site") as url:
        try:
            page.goto(url + uri)
            page.fill("#pp-pass", secrets.passphrases["England"])
            page.check("#pp-remember")
            page.click("#pp-open")
            page.locator(".pp-now").wait_for(timeout=15000)
            wait_for_maps(page)
            assert [k["page"] for k in page.evaluate(KEPT)] == ["/" + uri]

            _clean_build(project)
            after = envelope((project / "site" / uri).read_text(encoding="utf-8"))
            assert after["salt"] == before["salt"]
            assert after["iv"] != before["iv"]
            assert after["ct"] != before["ct"]
            page.reload()
            page.locator(".pp-now").wait_for(timeout=15000)  # opened without asking
            assert _payload(page)["iv"] == after["iv"]  # the rebuilt page, not a cached one
            assert "England" in page.locator(".pp-kicker").inner_text()
            assert not page.locator("#pp-form").is_visible()
            wait_for_maps(page)

            assert main(["secrets", str(folder), "--new", "England"]) == 0
            renewed = load_secrets(folder / "secrets.yml", load_game(folder).variant.rules.powers())
            assert renewed.passphrases["England"] != secrets.passphrases["England"]
            _clean_build(project)
            page.reload()
            settle(page)
            message = page.locator("#pp-message")
            message.filter(has_text="no longer opens this page").wait_for(timeout=15000)
            assert page.locator("#pp-form").is_visible()
            assert not page.locator(".pp-now").count()
            assert _payload(page)["salt"] == before["salt"]
            assert page.evaluate(KEPT) == []  # the old key is dropped
            for size in (DESKTOP, PHONE):
                page.set_viewport_size({"width": size[0], "height": size[1]})
                w.shot(f"private-renewed-{size[0]}")

            page.fill("#pp-pass", secrets.passphrases["England"])  # the old passphrase: refused
            page.click("#pp-open")
            message.filter(has_text="does not open this page").wait_for(timeout=15000)
            page.fill("#pp-pass", renewed.passphrases["England"])
            page.click("#pp-open")
            page.locator(".pp-now").wait_for(timeout=15000)
            wait_for_maps(page)
            assert not w.errors, w.errors
        finally:
            w.close()

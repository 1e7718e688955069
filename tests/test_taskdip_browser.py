"""A Taskdip player opens her private page in headless chromium and sees her tasks; the GM's
steps are the real ones: game.yml, lots in secrets.yml, 'dipgen secrets', a phase, the build."""

from __future__ import annotations

import pytest

from dipgen.cli import main
from dipgen.usecases.games import replay_folder
from dipgen.usecases.leaks import scan_site
from dipgen.present.site.crypt import page_uri
from dipgen.io.secretsfile import load_secrets
from support import TASKDIP_LOTS, build, make_project, write_game
from support.browser import BROWSER, DESKTOP, PHONE, Watched, serve

pytestmark = BROWSER


def tasks_seen(page, passphrase: str) -> str:
    """On a private page: type the passphrase, open it, and read the Taskdip section."""
    page.fill("#pp-pass", passphrase)
    page.click("#pp-open")
    page.locator(".pp-now").wait_for(timeout=15000)
    return page.locator(".dg-taskdip").inner_text()


def test_player_sees_her_tasks(browser, tmp_path):
    project = make_project(tmp_path / "p", [])
    folder = write_game(project / "games" / "td-run", {
        "game.yml": "title: Taskdip Live\ngm: G\nvariant: taskdip\nplayers: [Andreas, Katja]\n",
        "secrets.yml": TASKDIP_LOTS})
    assert main(["secrets", str(folder)]) == 0
    write_game(folder, {"1901-spring.yml": "orders:\n  Germany: [A Mun - Bur]\n  Austria: [A Bud - Ser]\n",
                        "1901-fall.yml": "orders:\n  Germany: [A Bur H]\n  Austria: [A Ser H]\n"})
    secrets = load_secrets(folder / "secrets.yml", ["Andreas", "Katja"])
    assert "lots" in secrets.extra  # 'dipgen secrets' kept the GM's lots
    site = build(project)
    # the board is public: the Fall page's centre totals are no leak (the scanner's calendar is the public's)
    assert scan_site(site, [replay_folder(folder)], docs_dir=project / "site_src") == []
    public = (site / "games" / "td-run" / "index.html").read_text()
    assert "Andreas" in public
    assert "Russian home centres" not in public
    with serve(site) as url:
        w = Watched(browser, DESKTOP, tmp_path)
        page = w.page
        try:
            page.goto(url + page_uri(secrets.page_key, "td-run", "Andreas"))
            text = tasks_seen(page, secrets.passphrases["Andreas"])
            assert "Your tasks" in text
            assert "Control three Russian home centres and the Balkans (Bul, Gre, Rum, Ser)" in text
            assert "Control one English home centre" in text
            assert "Allotted to you later, without a task: France." in text
            w.shot("taskdip-private")
        finally:
            w.close()


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory):
    from support import built_once

    return built_once(tmp_path_factory, examples=("quiet-frontier",)) / "site"  # as tests/test_publish_site.py's


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_demo_game_visitor_opens_a_private_page(browser, demo_site, tmp_path, size):
    """The running example as a visitor meets it: the game page gives the demo passphrases; she
    follows Hanna's link, types the passphrase shown, and reads Hanna's tasks, centre by centre."""
    with serve(demo_site) as url:
        w = Watched(browser, size, tmp_path)
        page = w.page
        try:
            page.goto(url + "games/quiet-frontier/")
            box = page.locator(".dg-demo")
            assert "its secrets are public" in box.inner_text()
            passphrase = box.locator("li", has_text="Hanna Berg").locator("code").inner_text()
            box.get_by_role("link", name="Hanna Berg's private page").click()
            text = tasks_seen(page, passphrase)
            assert "Russia (card: Eight): Control the three Turkish home centres and the Balkans" in text
            assert "all of Bul, Gre, Rum, Ser: Russia holds Rum (1 of 4)" in text
            assert "Allotted to you later, without a task: Austria." in text
            assert "Iberian" not in text
            assert "English home centre\n" not in text  # Jonas's tasks
            w.shot(f"taskdip-demo-{size[0]}")
        finally:
            w.close()

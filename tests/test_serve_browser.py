"""`mkdocs serve` as a GM runs it, with a page open in chromium: the README's first command serves
the example archive, browsable from its home page; the page reloads itself after an edit, within
the pages' Content-Security-Policy; a built site has no live-reload script and the same policy as
ever."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
import urllib.request

from dipgen.mkdocs.livereload import URI
from support import GAME_YML, REPO, build, free_port, make_project, write_game
from support.browser import BROWSER, DESKTOP, Watched

pytestmark = BROWSER

SPRING = """
orders:
  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]
press: |
  {}
"""


@contextlib.contextmanager
def served(browser, project, tmp_path, args=("serve",)):
    """`mkdocs ARGS` (serve) run in `project` as a GM runs it, on a free port, and a page in
    chromium: yields the server's address and the page; the page's console errors other than
    MkDocs's inline script (refused by the policy) and its poll (given up as a page goes) fail."""
    port = free_port()
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", *args, "-a", f"127.0.0.1:{port}"], cwd=project,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    w = Watched(browser, DESKTOP, tmp_path)
    try:
        for _ in range(1200):
            assert server.poll() is None, server.stderr.read() if server.stderr else "mkdocs serve stopped"
            try:
                urllib.request.urlopen(url, timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield url, w
        others = [e for e in w.errors if "inline script" not in e and "/livereload/" not in e]
        assert not others, others
    finally:
        w.close()
        server.terminate()
        server.wait(timeout=30)


def _first_command() -> tuple[str, list[str]]:
    """The README's first instruction: the address it sends a newcomer to, and its first command's
    last step (the mkdocs command, its arguments)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first = readme[:readme.index("**Set up and run the tests**")]
    address = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
    command = re.search(r"```sh\n(.*?)\n```", first, re.S)
    assert address, "the README's first section names an address and a command"
    assert command, "the README's first section names an address and a command"
    last = command.group(1).split("&&")[-1].split()
    assert last[0] == ".venv/bin/mkdocs", last
    assert "site/index.html" not in first  # from disk, a folder's link opens its listing
    return address.group(1), last[1:]


def test_the_readmes_first_command_serves_the_archive(browser, tmp_path):
    """As a newcomer follows it: the command serves the examples at the address the README gives
    (MkDocs's own, 8000: here on a free port), and the home page's links open pages, never a
    folder's listing."""
    port_named, args = _first_command()
    assert args == ["serve"]
    assert port_named == "8000"  # MkDocs's default address; mkdocs.yml sets none
    project = make_project(tmp_path / "p", ["austrian-question"])
    with served(browser, project, tmp_path, args) as (url, w):
        w.page.goto(url)
        w.page.wait_for_load_state("load")
        w.page.locator("article a[href*='austrian-question']").first.click()
        w.page.wait_for_load_state("load")
        assert "The Austrian Question" in w.page.locator("article h1").inner_text()


def test_an_open_page_shows_an_edit_by_itself(browser, tmp_path):
    project = make_project(tmp_path / "p", games={"loop": {"game.yml": GAME_YML,
                                                           "1901-spring.yml": SPRING.format("Before the edit.")}})
    with served(browser, project, tmp_path) as (url, w):
        w.page.goto(url + "games/loop/1901-spring/")
        w.page.wait_for_load_state("load")
        assert "Before the edit." in w.page.inner_text("article")
        w.page.evaluate("() => { window.dgOpened = true; }")  # gone once the page reloads
        assert w.page.evaluate(f"() => !!document.querySelector('script[src$=\"{URI.split('/')[-1]}\"]')")

        write_game(project / "games" / "loop", {"1901-spring.yml": SPRING.format("After the edit.")})
        w.page.wait_for_function("() => document.body && document.body.innerText.includes('After the edit.')",
                                 timeout=120_000)
        assert w.page.evaluate("() => window.dgOpened === undefined")  # reloaded, by the page itself


def test_a_built_site_has_no_live_reload_and_its_policy(tmp_path):
    project = make_project(tmp_path / "p", games={"loop": {"game.yml": GAME_YML,
                                                           "1901-spring.yml": SPRING.format("Built.")}})
    site = build(project)
    assert not (site / URI).exists()
    page = (site / "games/loop/1901-spring/index.html").read_text(encoding="utf-8")
    assert "livereload" not in page
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "script-src 'self';" in policy
    assert "unsafe-inline' " not in policy.split("script-src")[1].split(";")[0]

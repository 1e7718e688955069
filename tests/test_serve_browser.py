"""`mkdocs serve` as a GM runs it, with a page open in chromium: the page reloads itself after an
edit, within the pages' Content-Security-Policy; a built site has no live-reload script and the
same policy as ever."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request

from dipgen.adapters.livereload import URI
from support import GAME_YML, build, make_project, write_game
from support.browser import BROWSER, DESKTOP, Watched, _free_port

pytestmark = BROWSER

SPRING = """
orders:
  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]
press: |
  {}
"""


def _serve(project, port):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"], cwd=project,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _wait_for(url: str, server: subprocess.Popen) -> None:
    for _ in range(1200):
        assert server.poll() is None, server.stderr.read() if server.stderr else "mkdocs serve stopped"
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"mkdocs serve never answered {url}")


def test_an_open_page_shows_an_edit_by_itself(browser, tmp_path):
    project = make_project(tmp_path / "p", games={"loop": {"game.yml": GAME_YML,
                                                           "1901-spring.yml": SPRING.format("Before the edit.")}})
    port = _free_port()
    server = _serve(project, port)
    w = Watched(browser, DESKTOP, tmp_path)
    try:
        url = f"http://127.0.0.1:{port}/games/loop/1901-spring/"
        _wait_for(url, server)
        w.page.goto(url)
        w.page.wait_for_load_state("load")
        assert "Before the edit." in w.page.inner_text("article")
        w.page.evaluate("() => { window.dgOpened = true; }")  # gone once the page reloads
        assert w.page.evaluate(f"() => !!document.querySelector('script[src$=\"{URI.split('/')[-1]}\"]')")

        write_game(project / "games" / "loop", {"1901-spring.yml": SPRING.format("After the edit.")})
        w.page.wait_for_function("() => document.body && document.body.innerText.includes('After the edit.')",
                                 timeout=120_000)
        assert w.page.evaluate("() => window.dgOpened === undefined")  # reloaded, by the page itself
        blocked = [e for e in w.errors if not re.search(r"inline script", e)]
        assert not blocked, blocked  # only MkDocs's own inline script is refused, as the policy says
    finally:
        w.close()
        server.terminate()
        server.wait(timeout=30)


def test_a_built_site_has_no_live_reload_and_its_policy(tmp_path):
    project = make_project(tmp_path / "p", games={"loop": {"game.yml": GAME_YML,
                                                           "1901-spring.yml": SPRING.format("Built.")}})
    site = build(project)
    assert not (site / URI).exists()
    page = (site / "games/loop/1901-spring/index.html").read_text(encoding="utf-8")
    assert "livereload" not in page
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "script-src 'self';" in policy and "unsafe-inline' " not in policy.split("script-src")[1].split(";")[0]

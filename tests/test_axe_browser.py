"""axe-core over the example archive and the archive `dipgen init` makes, at 390 px in the dark
scheme and at 1280 px in the light one: no serious or critical finding (tests/test_phone_browser.py
checks each page type, the search dialog and a map full screen on a phone, in both schemes). Each
width and each scheme is run once, not each pair: the four pairs took 280 s of the suite's time
(70 s each), and what a scheme changes (colours, contrast) does not depend on the width.

Every page of the example archive is some 420 pages, four times over, at several seconds an axe
run: too slow for the suite, so it samples what differs from page to page: every page of the
init archive (home, about, archive, a game and its season, the dice page, every rules page);
and of the examples the home, archive, about and dice pages, and of each example game (one or
more of every variant) its page and its last season, in its public and (where revealed) full
edition."""

from __future__ import annotations

import pytest

from dipgen.adapters.cli import main
from support import GAMES, built_once, mkdocs_command, write_game
from support.browser import BROWSER, axe_findings, serve

pytestmark = BROWSER

SPRING = ("orders:\n  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n"
          "press: See [the rules](../../rules/standard.md) before you write.\n")


def example_pages(site) -> list[str]:
    pages = ["", "games/", "about/", "draws/"]
    for game in sorted(p.name for p in GAMES.iterdir() if (p / "game.yml").is_file()):
        for edition in (f"games/{game}/", f"games/{game}/full/"):
            seasons = sorted(p.parent.name for p in (site / edition).glob("1*/index.html"))
            if seasons:
                pages += [edition, f"{edition}{seasons[-1]}/"]
    return pages


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    root = tmp_path_factory.mktemp("axe")
    # the example archive, built once for the run (tests/test_package.py's MkDocs build reads it too)
    examples = built_once(tmp_path_factory, [p.name for p in GAMES.iterdir() if (p / "game.yml").is_file()]) / "site"
    club = root / "club"
    assert main(["init", str(club)]) == 0
    assert main(["new", "first-game", "--dir", str(club / "games"), "--gm", "Ann"]) == 0
    write_game(club / "games" / "first-game", {"1901-spring.yml": SPRING})
    assert mkdocs_command(club).returncode == 0
    init_site = club / "site"
    init_pages = sorted(p.parent.relative_to(init_site).as_posix() + "/" for p in init_site.rglob("index.html"))
    with serve(examples) as one, serve(init_site) as two:
        yield [(one, p) for p in example_pages(examples)] + [(two, p.removeprefix("./")) for p in init_pages]


@pytest.mark.parametrize("width,scheme", [(390, "dark"), (1280, "light")])
def test_no_serious_axe_finding_in_either_archive(browser, sites, width, scheme):
    assert len(sites) > 40
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    found = {}
    try:
        for url, path in sites:
            page.goto(url + path)
            page.wait_for_load_state("load")
            found[url + path] = axe_findings(page)
    finally:
        context.close()
    assert not any(found.values()), {k: v for k, v in found.items() if v}

"""axe-core over the example archive and the archive `dipgen init` makes, at 1280 and 390 px, in the
light and the dark scheme: no serious or critical finding (support/axe.py: each page loaded once,
axe run on it once a pass, the tab resized and the scheme switched with the page's own switch in
between; tests/test_phone_browser.py checks the search dialog and a map full screen too).

Every page of both archives (520 pages: `test_every_page_of_both_archives`, marked `sweep`), each
width in each scheme (`EVERY_WAY`, four passes), took 43 minutes on the shared 2-core machine (a
load average of 20 to 25), 1117 s of chromium's CPU time (some ten minutes on two idle cores):
more than the whole suite may take. It runs with ``pytest --sweep tests/test_axe_browser.py``
(README, "For developers"), before a release and after any change to the templates or the CSS.
The suite runs a fixed sample instead, chosen so that every page type and every variant is in it
(`example_sample`, `init_sample`), in two passes (`CROSSED`: every rule at 1280 px in the light
scheme, every rule at 390 px in the dark one): of the examples every page that is not a game's, a
player's or a rules page, the players' index, the first player's, the first rated player's (her
rating's chart) and two rules pages, and for each variant the first game that plays it: its page
and its last season (and, for a hidden game revealed, its full edition's); a retreat and an
adjustment season; a private page (its shell: the decrypted page is tests/test_sheet_browser.py's);
of the init archive the pages init writes (home, about) and its first game's: 39 pages."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from dipgen.cli import main
from support import GAMES, built_once, mkdocs_command, write_game
from support.axe import CROSSED, EVERY_WAY, sweep
from support.browser import BROWSER, serve

pytestmark = BROWSER

SPRING = ("orders:\n  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n"
          "press: See [the rules](../../rules/standard.md) before you write.\n")


def pages(site: Path) -> list[str]:
    """Every page of a built site, by its address under the site's root ('' for the home page)."""
    out = []
    for path in sorted(site.rglob("*.html")):
        uri = path.relative_to(site).as_posix()
        out.append(uri.removesuffix("index.html"))
    return out


def seasons(site: Path, edition: str) -> list[str]:
    return sorted(p.parent.name for p in (site / edition).glob("1*/index.html"))


def example_sample(site: Path) -> list[str]:
    """Every page type and every variant of the example archive (the module's docstring)."""
    every = pages(site)
    sample = [p for p in every if not p.startswith(("games/", "players/", "rules/", "private/"))]
    sample += ["games/", "players/"]
    sample += [next(p for p in every if p.startswith("players/") and p != "players/")]
    sample += [next(p for p in every if p.startswith("players/") and 'class="dg-rating-line"'
                    in (site / p / "index.html").read_text(encoding="utf-8"))]  # a rated player's chart
    sample += ["rules/standard/", "rules/tir/"]
    sample += [next(p for p in every if p.startswith("private/"))]
    variants: dict[str, str] = {}
    for folder in sorted(p.parent for p in GAMES.glob("*/game.yml")):
        variant = yaml.safe_load((folder / "game.yml").read_text(encoding="utf-8")).get("variant", "standard")
        variants.setdefault(variant, folder.name)
    for game in sorted(variants.values()):
        for edition in (f"games/{game}/", f"games/{game}/full/"):
            if seasons(site, edition):
                sample += [edition, f"{edition}{seasons(site, edition)[-1]}/"]
    for kind in ("-retreats/", "-winter/"):
        sample += [next(p for p in every if p.startswith("games/") and p.endswith(kind))]
    return list(dict.fromkeys(sample))


def init_sample(site: Path) -> list[str]:
    """The pages `dipgen init` writes (home, about) and its first game's, a new game's: its other
    pages are the examples' own page types."""
    return [p for p in pages(site) if p in ("", "about/") or p.startswith("games/first-game/")]


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """The example archive and an init archive with a game of one season, built, each served."""
    root = tmp_path_factory.mktemp("axe")
    # the example archive, built once for the run (tests/test_package.py's MkDocs build reads it too)
    examples = built_once(tmp_path_factory, [p.name for p in GAMES.iterdir() if (p / "game.yml").is_file()]) / "site"
    club = root / "club"
    assert main(["init", str(club)]) == 0
    assert main(["new", "first-game", "--dir", str(club / "games"), "--gm", "Ann"]) == 0
    write_game(club / "games" / "first-game", {"1901-spring.yml": SPRING})
    assert mkdocs_command(club).returncode == 0
    with serve(examples) as one, serve(club / "site") as two:
        yield (one, examples), (two, club / "site")


def assert_no_finding(addresses: list[str], passes) -> None:
    found = sweep(addresses, passes)
    assert set(found) == set(addresses)
    assert not any(found.values()), {k: v for k, v in found.items() if v}


def test_no_serious_axe_finding_on_a_sample_of_both_archives(sites):
    (one, examples), (two, init) = sites
    chosen = [one + p for p in example_sample(examples)] + [two + p for p in init_sample(init)]
    assert len(chosen) > 30
    assert len(chosen) == len(set(chosen))
    assert_no_finding(chosen, CROSSED)


@pytest.mark.sweep
def test_every_page_of_both_archives(sites):
    (one, examples), (two, init) = sites
    every = [one + p for p in pages(examples)] + [two + p for p in pages(init)]
    assert len(every) > 500
    assert_no_finding(every, EVERY_WAY)

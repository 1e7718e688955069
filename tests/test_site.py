"""The results site: `mkdocs build --strict` of small archives in a temporary folder, the
pages checked against the History they were made from, a broken game failing the build.

The test archive (a finished game, a running one, one not started) is support's `ARCHIVE`.
"""

from __future__ import annotations

import posixpath
import random
import re
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest

from dipgen.core.phase import Phase
from dipgen.io.gamefiles import load_game
from dipgen.rules.seasons import STANDARD_CALENDAR
from dipgen.play.replay import replay
from dipgen.usecases.games import Loaded
from dipgen.usecases.publish import editions
from dipgen.present.report import order_lines
from dipgen.present.site import SiteOptions, build_site, game_pages
from dipgen.present.site.pages import season_page
from dipgen.present.site.links import _relative, href, page_url
from dipgen.present.site.model import centre_rows
from dipgen.view import game_view
from support import (ALPHA, ARCHIVE, BRAVO, REPO, build, card, load, make_project, mkdocs_command, site_config,
                     write_game)

@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The test archive, built once for the run (tests/test_browser.py reads the same site)."""
    from support import built_once

    return built_once(tmp_path_factory, games=ARCHIVE)


def history(project: Path, slug: str):
    return load(project / "games" / slug)


# --------------------------------------------------------------------------- reading HTML

class _Tables(HTMLParser):
    """Rows of cell texts of every table whose class includes `cls`."""

    def __init__(self, cls: str):
        super().__init__()
        self.cls, self.depth, self.rows, self.row, self.cell = cls, 0, [], None, None

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "table" and (self.depth or self.cls in classes):
            self.depth += 1
        elif self.depth and tag == "tr":
            self.row = []
        elif self.depth and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "table" and self.depth:
            self.depth -= 1
        elif self.depth and tag in ("td", "th") and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif self.depth and tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def table_rows(html: str, cls: str) -> list[list[str]]:
    parser = _Tables(cls)
    parser.feed(html)
    return parser.rows


class _Orders(HTMLParser):
    """{power: (nmr?, [order line texts])} from a season page's order cards."""

    def __init__(self):
        super().__init__()
        self.powers: dict[str, tuple[bool, list[str]]] = {}
        self.current = None
        self.stack: list[str] = []
        self.buffer: list[str] | None = None
        self.in_name = 0

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "section" and "dg-power" in classes:
            self.current = {"name": "", "nmr": False, "orders": []}
        elif self.current is not None:
            if tag == "span" and self.in_name:
                self.in_name += 1
            if "dg-power-name" in classes and not self.current["name"]:
                self.in_name = 1
            if "dg-badge--nmr" in classes:
                self.current["nmr"] = True
            if tag == "li":
                self.buffer = []

    def handle_endtag(self, tag):
        if self.current is None:
            return
        if tag == "span" and self.in_name:
            self.in_name -= 1
        if tag == "li" and self.buffer is not None:
            self.current["orders"].append(" ".join("".join(self.buffer).split()))
            self.buffer = None
        if tag == "section":
            self.powers[self.current["name"].strip()] = (self.current["nmr"], self.current["orders"])
            self.current = None

    def handle_data(self, data):
        if self.current is None:
            return
        if self.in_name:
            self.current["name"] += data
        if self.buffer is not None:
            self.buffer.append(data)


def season_orders(html: str) -> dict[str, tuple[bool, list[str]]]:
    parser = _Orders()
    parser.feed(html)
    return parser.powers


def page(project: Path, url: str) -> str:
    return (project / "site" / url / "index.html").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- (a) the build

def test_strict_build_writes_every_page(built):
    site = built / "site"
    for path in ("index.html", "about/index.html", "rules/standard/index.html", "games/index.html",
                 "assets/maps/standard.svg", "assets/dipgen/dipgen.css", "assets/dipgen/dipgen.js",
                 "games/charlie/index.html", "games/charlie/maps/now.svg"):
        assert (site / path).is_file(), path
    for slug in ("alpha", "bravo"):
        h = history(built, slug)
        assert (site / "games" / slug / "index.html").is_file()
        for r in h.records:
            assert (site / "games" / slug / r.phase.slug / "index.html").is_file(), r.phase.slug
            for when in ("orders", "after"):
                assert (site / "games" / slug / "maps" / f"{r.phase.slug}-{when}.svg").stat().st_size > 0


def test_nothing_is_fetched_from_the_network(built):
    """No CDN: no page refers to another host for styles, scripts, fonts or images."""
    for html in (built / "site").rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        for m in re.finditer(r'<(?:link|script|img|object)\b[^>]*?(?:href|src|data)="(https?:)?//', text):
            pytest.fail(f"{html}: {m.group(0)}")


def test_every_link_in_the_generated_pages_resolves(built):
    site = built / "site"
    for html in (site / "games").rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        for m in re.finditer(r'\b(?:href|src|data|data-board|data-overlay)="([^"#:]+?)(?:#[^"]*)?"', text):
            target = (html.parent / m.group(1)).resolve()
            if target.is_dir():
                target = target / "index.html"
            assert target.is_file(), f"{html.relative_to(site)} links to missing {m.group(1)}"


@pytest.mark.slow
def test_example_games_build(tmp_path_factory):
    """The repository's own games/ (when there are any) build strictly with every page."""
    from support import built_once

    games = sorted(p.parent for p in (REPO / "games").glob("*/game.yml"))
    if not games:
        pytest.skip("no example games in games/ yet")
    project = built_once(tmp_path_factory, [folder.name for folder in games])  # the axe and wheel tests' build
    for folder in games:
        h = load(project / "games" / folder.name)
        assert (project / "site" / "games" / folder.name / "index.html").is_file()
        pages = {p.parent.name for p in (project / "site" / "games" / folder.name).glob("*/index.html")}
        shown_phases = {p.slug for p in game_view(h, "public").phases()}
        # every phase the public is shown, and no other: a hidden game's calendar hides its
        # retreats, and shows each Winter (with the year's totals) once the next Spring is played
        assert pages - {"full"} == shown_phases, folder.name
        if not h.variant.policy.hidden:
            assert shown_phases == {r.phase.slug for r in h.records}
        rows = table_rows(page(project, f"games/{folder.name}"), "dg-centres")
        years = len(rows[0]) - 1
        assert years == len(h.centre_table()) or (h.variant.policy.hidden and not h.finished), folder.name
        powers = h.variant.rules.powers()
        # a row per power; where a player holds several powers, the players' table follows them
        for power, row in zip(powers, rows[1:len(powers) + 1], strict=True):
            counts = [c[power] for _, c in h.centre_table()][:years]
            shown = row[1:]
            out = shown.index("–") if "–" in shown else len(shown)
            assert [int(x) for x in shown[:out]] == counts[:out], (folder.name, power)
            assert all(x == "–" for x in shown[out:]), (folder.name, power)
            assert not any(counts[out:]), (folder.name, power)


# --------------------------------------------------------------------------- (b) pages agree with the History

def test_centre_table_agrees_with_history(built):
    for slug in ("alpha", "bravo"):
        h = history(built, slug)
        rows = table_rows(page(built, f"games/{slug}"), "dg-centres")
        expected = h.centre_table()
        if slug == "bravo":  # in its first Spring: no year has ended, no table
            assert expected == []
            assert not rows
            continue
        header, body = rows[0], rows[1:]
        assert header[1:] == [f"{y % 100:02d}" for y, _ in expected]
        powers = h.variant.rules.powers()
        assert [r[0].split()[0] for r in body] == powers
        for power, row in zip(powers, body, strict=True):
            assert row[0] == f"{power} {h.player(power)}"
            assert [int(x) for x in row[1:]] == [counts[power] for _, counts in expected]


def test_season_pages_agree_with_results(built):
    h = history(built, "alpha")
    for record in h.records:
        html = page(built, f"games/alpha/{record.phase.slug}")
        shown = season_orders(html)
        for power in shown:
            nmr, lines = shown[power]
            assert nmr == (power in record.nmr), (record.phase, power)
            expected = [re.sub(r"\(\*([^*]+)\*\)", r"(\1)", x) for x in order_lines(h, record, power)]
            assert lines == expected, (record.phase, power)
        assert set(record.nmr) <= set(shown)
        assert {r.power for r in record.results} <= set(shown)


def test_season_page_shows_what_happened(built):
    spring = page(built, "games/alpha/1901-spring")
    assert "<strong>Rome:</strong> We come in peace." in spring          # press is Markdown
    assert "<em>hold</em>" in spring                                      # so are the GM's notes
    assert 'rel="next" href="../1901-fall/"' in spring
    fall = page(built, "games/alpha/1901-fall")
    assert "F Sev</span>, dislodged by Turkey from BLA: may retreat to Rum or disband." in fall
    assert "A Yor - Bel <span class=\"dg-res\">(<em>bounce</em>)</span>" in fall
    retreats = page(built, "games/alpha/1901-fall-retreats")
    assert "gains Bul, Sev" in retreats
    assert "loses Sev" in retreats
    winter = page(built, "games/alpha/1901-winter")
    assert "No orders received. Builds waived." in winter                 # Turkey built nothing
    last = page(built, "games/alpha/1902-spring")
    assert "Game over" in last
    assert "2-way draw between France" in last


def test_game_page_and_archive(built):
    alpha = page(built, "games/alpha")
    assert "2-way draw between France (Chloé) and Turkey (Gül), Spring 1902." in alpha
    assert "Grace &lt;GM&gt; Hopper" in alpha
    assert "<GM>" not in alpha  # escaped
    assert "&lt;b&gt;Fyodor&lt;/b&gt;" in alpha
    assert "<b>Fyodor</b>" not in alpha
    assert 'href="1901-fall-retreats/"' in alpha
    assert 'href="../../rules/standard/"' in alpha
    assert "<title>The Alpha Game - " in alpha
    bravo = page(built, "games/bravo")
    assert "orders for Fall 1901 are due" in bravo
    rows = table_rows(page(built, "games"), "dg-archive")
    assert rows[0][:3] == ["Game", "Variant", "GM"]
    status = {r[0]: r[-1] for r in rows[1:]}
    assert status == {"The Alpha Game": "Drawn between France and Turkey", "Bravo, still running": "Running: Fall 1901",
                      "Charlie (not started)": "Not started"}


# --------------------------------------------------------------------------- (c) a broken game

@pytest.mark.slow
def test_broken_game_fails_the_build_and_writes_nothing(tmp_path):
    games = {"alpha": ALPHA, "broken": dict(BRAVO)}
    games["broken"]["1901-fall.yml"] = "orders:\n  France:\n    - A Bur R Pic\n    - A Mar - Spq\n"
    project = make_project(tmp_path / "project", games=games)
    result = mkdocs_command(project)
    assert result.returncode != 0
    check = subprocess.run([sys.executable, "-m", "dipgen.cli", "check", "games"], cwd=project,
                           capture_output=True, text=True)
    assert check.returncode == 1
    problems = [line for line in check.stderr.splitlines() if re.match(r"\S+:\d+: error: ", line)]
    assert problems[0].startswith("games/broken/1901-fall.yml:3: error: 'A Bur R Pic' is not an order for Fall 1901")
    assert problems[1].startswith("games/broken/1901-fall.yml:4: error: unknown province")  # both at once
    for line in problems:
        assert line in result.stderr
    assert not (project / "site").exists()


# --------------------------------------------------------------------------- the generator on its own

def test_generator_is_pure_and_names_pages_by_source_path(tmp_path):
    for slug, files in ARCHIVE.items():
        write_game(tmp_path / "games" / slug, files)
    hs = [editions(Loaded(replay(load_game(tmp_path / "games" / s)))) for s in ("alpha", "bravo", "charlie")]
    files = build_site(hs, SiteOptions())
    assert "games/index.md" in files
    assert "games/alpha/1901-fall-retreats/index.md" in files
    assert files == build_site(hs, SiteOptions())
    flat = build_site(hs, SiteOptions(directory_urls=False))
    assert 'href="1901-spring/index.html"' in flat["games/alpha/index.md"]
    assert not list(tmp_path.glob("**/*.md"))  # nothing written


def test_every_page_is_made_from_one_levels_view(tmp_path):
    write_game(tmp_path / "alpha", ALPHA)
    h = replay(load_game(tmp_path / "alpha"))
    with pytest.raises(ValueError):
        game_view(h, "nobody")
    # an open game: the public knows all the GM does
    assert game_pages(game_view(h, "gm"), SiteOptions()) == game_pages(game_view(h, "public"), SiteOptions())


def _page_lines(page: str) -> list[str]:
    """The text of each order line (``<li class="dg-...">``) of a season page, tags stripped."""
    lines = re.findall(r'<li class="dg-(?:ok|fail|default)">(.*?)</li>', page)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", x).replace("*", "")).strip() for x in lines]


def test_the_page_and_the_report_mark_a_missing_order_alike(make_game):
    """The "(no order)" mark has one rule (dipgen.present.lines): a unit that held for want of an
    order, a retreat the rules disbanded because none was given and a Winter with no orders are
    marked the same on the season page and in the report a GM e-mails."""
    path = make_game({
        "1901-spring.yml": "orders:\n  Germany: [A Mun - Boh]\n  Russia: [A War - Gal]\n",
        "1901-fall.yml": "orders:\n  Germany: [A Boh - Vie]\n  Russia: [A Gal S A Boh - Vie]\n",
        "1901-fall-retreats.yml": "orders:\n  Austria: []\n",
        "1901-winter.yml": "orders:\n  Austria: []\n  Germany: []\n  Russia: []\n",
    })
    view = game_view(replay(load_game(path)), "gm")
    for i, r in enumerate(view.records):
        lines = [x.replace("*", "") for p in view.variant.rules.powers() for x in order_lines(view, r, p)]
        page = season_page(view, SiteOptions(), i)
        text = next(iter(page.values()))
        assert _page_lines(text) == lines, r.phase.slug
    fall, retreats = view.records[1], view.records[2]
    assert "A Vie H (no order) (dislodged)" in [x.replace("*", "") for x in order_lines(view, fall, "Austria")]
    assert order_lines(view, retreats, "Austria")
    assert all("(no order)" in x for x in order_lines(view, retreats, "Austria"))


def test_relative_links():
    assert href("games/a/index.md", "games/a/1901-spring/index.md") == "1901-spring/"
    assert href("games/a/1901-spring/index.md", "games/index.md") == "../../"
    assert href("games/a/1901-spring/index.md", "assets/maps/standard.svg") == "../../../assets/maps/standard.svg"
    assert href("games/a/1901-spring/index.md", "games/a/index.md", False) == "../index.html"
    assert href("games/a/1901-spring/index.md", "games/a/maps/x.svg", False) == "../maps/x.svg"
    assert href("games/a/1901-spring/index.md", "rules/stab.md", False) == "../../../rules/stab.html"
    assert page_url("index.md") == ""
    assert page_url("games/index.md") == "games/"


def test_relative_paths_are_posixpaths_own():
    """Links are worked out on the strings alone: the same as `posixpath.relpath` on any path."""
    rng = random.Random(7)
    steps = ["a", "b", "games", "x.y", "..", ".", "index.html", ""]
    for _ in range(20000):
        target = "/".join(rng.choice(steps) for _ in range(rng.randint(0, 4)))
        base = "/".join(rng.choice(steps) for _ in range(rng.randint(0, 4))) + rng.choice(["", "/"])
        assert _relative(target, base) == posixpath.relpath(target or ".", base or "."), (target, base)


def test_eliminated_powers_show_dashes():
    """A power out of the game has its last count, then dashes; the solo winner's year is marked."""
    counts = [{"Austria": 4, "Turkey": 3}, {"Austria": 0, "Turkey": 18}, {"Austria": 0, "Turkey": 18}]

    def rec(year, c, units):
        after = SimpleNamespace(totals=dict(c), units_of=lambda p, kinds=None, units=units: units.get(p, []))
        return SimpleNamespace(phase=Phase(year, 1), after=after, summary_only=False)

    records = [rec(1901, counts[0], {"Austria": [1], "Turkey": [1]}),
               rec(1902, counts[1], {"Turkey": [1]}), rec(1903, counts[2], {"Turkey": [1]})]
    powers = ["Austria", "Turkey"]
    variant = SimpleNamespace(rules=SimpleNamespace(powers=lambda: powers, home_centres=lambda p: (1, 2, 3),
                                                    board=SimpleNamespace(powers={}), unit_kinds={},
                                                    calendar=STANDARD_CALENDAR))
    view = SimpleNamespace(variant=variant, records=records, fixed=False,
                           result=SimpleNamespace(kind="solo", powers=("Turkey",)),
                           seating=SimpleNamespace(players_text=lambda p: p.lower()))
    years, rows = centre_rows(view)
    assert years == [1901, 1902, 1903]
    austria, turkey = rows
    assert [c.text for c in austria.cells] == ["4", "0", "–"]
    assert austria.out_year == 1902
    assert turkey.winner
    assert "win" in turkey.cells[-1].css
    assert turkey.out_year is None


# --------------------------------------------------------------------------- mkdocs serve: only the changed game

def _serve_rebuild(project: Path, dirty: bool = False):
    """A rebuild as `mkdocs serve` does one: the config read again, the plugin object kept."""
    cfg = site_config(project)
    build(cfg, dirty=dirty)
    return cfg.plugins["dipgen"]


def _late_news(project: Path) -> None:
    """A line added to the running game's press (its Spring 1901 file)."""
    bravo = project / "games" / "bravo"
    write_game(bravo, {"1901-spring.yml": (bravo / "1901-spring.yml").read_text(encoding="utf-8")
                       + "  Late news from Vienna.\n"})


@pytest.mark.slow
def test_serve_rebuild_redoes_only_the_changed_game(tmp_path):
    project = make_project(tmp_path / "project", games=ARCHIVE)
    first = _serve_rebuild(project)
    assert first.stats["redone"] == 3
    again = _serve_rebuild(project)
    assert again is first
    assert again.stats["redone"] == 0
    _late_news(project)
    third = _serve_rebuild(project)
    assert third.stats["redone"] == 1
    assert "Late news from Vienna." in page(project, "games/bravo/1901-spring")


@pytest.mark.slow
def test_serve_dirty_rewrites_only_the_changed_games_pages(tmp_path):
    project = make_project(tmp_path / "project", games=ARCHIVE)
    plugin = _serve_rebuild(project)
    plugin.on_startup(command="serve", dirty=True)
    try:
        _serve_rebuild(project, dirty=True)
        site = project / "site" / "games"
        before = {p: p.stat().st_mtime_ns for p in site.rglob("index.html")}
        time.sleep(0.05)
        _late_news(project)
        _serve_rebuild(project, dirty=True)
        changed = {p.relative_to(site).as_posix() for p in before if p.stat().st_mtime_ns != before[p]}
        assert "bravo/1901-spring/index.html" in changed
        assert not any(p.startswith("alpha/") for p in changed), changed
    finally:
        plugin.on_startup(command="build", dirty=False)
        plugin.on_shutdown()


def test_home_page_lists_the_games(built):
    home = (built / "site" / "index.html").read_text(encoding="utf-8")
    assert 'class="dg-card" href="games/alpha/"' in home
    assert "dipgen:games" not in home


def _converted(markdown_text: str) -> str:
    """`markdown_text` through Markdown with this repository's mkdocs.yml extensions, as MkDocs converts a page."""
    import markdown
    from mkdocs.config import load_config

    config = load_config(str(REPO / "mkdocs.yml"))
    return markdown.Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs).convert(
        markdown_text)


def test_the_cards_go_into_the_page_after_markdown_as_they_were_converted_with_it(tmp_path):
    """The plugin leaves the marker to Markdown, which keeps it as it is, and puts the cards (HTML) in
    its place after: the page is the HTML the cards converted with the page make, where the marker is a
    line of its own and where it ends a paragraph; in a code block the marker is code, shown."""
    from dipgen.usecases.publish import cards_into, marked_for_cards, site_options, with_cards

    options = site_options(None)
    cards = [card(write_game(tmp_path / slug, files), options) for slug, files in sorted(ARCHIVE.items())]
    for page in ("# Home\n\nSome words.\n\n<!-- dipgen:games -->\n\n[All](games/index.md){ .md-button }\n",
                 "Words before the cards.\n<!-- dipgen:games -->\n",
                 "<!-- dipgen:games -->"):
        after = cards_into(_converted(marked_for_cards(page)), cards, options, "index.md")
        assert after == _converted(with_cards(page, cards, options, "index.md")), page
        assert after.count('class="dg-card"') == len(cards)
    code = "Put this line in a page:\n\n```\n<!-- dipgen:games -->\n```\n"
    shown = cards_into(_converted(marked_for_cards(code)), cards, options, "index.md")
    assert "&lt;!-- dipgen:games --&gt;" in shown
    assert 'class="dg-card"' not in shown


def test_a_file_two_games_make_is_the_first_game_s_in_its_first_place():
    from dipgen.mkdocs.output import first_wins

    a, b = {"games/a/index.md": "A", "map.svg": "first"}, {"map.svg": "second", "games/b/index.md": "B"}
    assert list(first_wins([a, b]).items()) == [("games/a/index.md", "A"), ("map.svg", "first"),
                                                 ("games/b/index.md", "B")]
    assert list(first_wins([b, a]).items()) == [("map.svg", "second"), ("games/b/index.md", "B"),
                                                 ("games/a/index.md", "A")]

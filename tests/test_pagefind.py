"""Pagefind's index of a built site (dipgen.mkdocs.pagefind): the pages Material's index lists, a
hand-written page by its article, a page dipgen made by what a reader looks for on it (a game's
seasons sections of its document), written by Pagefind's own binary; the same bytes from the same site;
Material's index left with its configuration only. The search in a browser is tested in
tests/test_weight_browser.py."""

from __future__ import annotations

import gzip
import html
import json
import re
from pathlib import Path

from dipgen.mkdocs.pagefind import BUNDLE, PAGE_ANCHOR, UNUSED, index_site
from dipgen.mkdocs.search import DOCS, INDEX, split_index

CONFIG = {"lang": ["en"], "separator": "[\\s\\-]+", "pipeline": ["stopWordFilter"]}


def _page(title: str, body: str) -> str:
    return (f'<!doctype html><html lang="en"><head><title>{title}</title></head><body>'
            f'<header>Diplomacy by e-mail Menu</header><nav>Home Games Players</nav>'
            f'<article class="md-content__inner md-typeset"><h1 id="t">{title}<a class="headerlink" href="#t">'
            f'\u00b6</a></h1>{body}</article><footer>Made with MkDocs</footer></body></html>')


def _site(root: Path) -> Path:
    site = root / "site"
    pages = {"index.html": _page("Welcome", "<p>Our games.</p>"),
             "games/two-crowns/index.html": _page("Two Crowns", "<p>Boris Ivanov plays Russia.</p>"),
             "games/two-crowns/1902-spring/index.html": _page("Spring 1902",
                                                              '<h2 id="o">Orders</h2><p>A Par - Bur.</p>'),
             "private/abc.html": "<html><body><article class='md-content__inner'>Secret shell</article></body></html>",
             "404.html": _page("Not found", "<p>Nothing here.</p>"),
             "drafts/index.html": _page("A draft", "<p>Excluded by its front matter.</p>")}
    for uri, text in pages.items():
        (site / uri).parent.mkdir(parents=True, exist_ok=True)
        (site / uri).write_text(text, encoding="utf-8")
    docs = [{"location": "", "title": "Welcome", "text": ""},
            {"location": "games/two-crowns/", "title": "Two Crowns", "text": ""},
            {"location": "games/two-crowns/1902-spring/", "title": "Spring 1902 · Kings, Queens &amp; Rooks",
             "text": ""},
            {"location": "games/two-crowns/1902-spring/#o", "title": "Orders", "text": ""},
            {"location": "../outside/", "title": "x", "text": ""}, {"location": "gone/", "title": "x", "text": ""}]
    (site / "search").mkdir()
    (site / INDEX).write_text(json.dumps({"config": CONFIG, "docs": docs}), encoding="utf-8")
    return site


def _fragments(site: Path) -> dict[str, dict]:
    out = {}
    for f in sorted((site / BUNDLE / "fragment").glob("*.pf_fragment")):
        raw = gzip.decompress(f.read_bytes())
        assert raw.startswith(b"pagefind_dcd")
        doc = json.loads(raw[len(b"pagefind_dcd"):])
        out[doc["url"]] = doc
    return out


def test_the_pages_materials_index_lists_are_indexed_by_their_article(tmp_path):
    site = _site(tmp_path)
    assert index_site(site)
    pages = _fragments(site)
    assert sorted(pages) == ["/", "/games/two-crowns/", "/games/two-crowns/1902-spring/"]
    spring = pages["/games/two-crowns/1902-spring/"]
    assert spring["meta"]["title"] == "Spring 1902 · Kings, Queens & Rooks"  # Material's title, not the heading's
    assert "Rooks" not in spring["content"]
    assert pages["/games/two-crowns/"]["meta"]["title"] == "Two Crowns"
    assert "A Par - Bur" in spring["content"]
    assert [a["id"] for a in spring["anchors"]] == ["t", "o"]
    text = " ".join(p["content"] for p in pages.values())
    assert "Boris Ivanov" in text
    for absent in ("\u00b6", "Menu", "Made with MkDocs", "Secret shell", "Nothing here", "Excluded"):
        assert absent not in text, absent
    assert {p.name for p in (site / BUNDLE).iterdir()} >= {"pagefind.js", "pagefind-entry.json", "wasm.en.pagefind"}
    assert not [name for name in UNUSED if (site / BUNDLE / name).exists()]


def test_materials_index_keeps_its_configuration_and_names_pagefinds(tmp_path):
    site = _site(tmp_path)
    assert index_site(site)
    left = json.loads((site / INDEX).read_text(encoding="utf-8"))
    assert left == {"config": dict(CONFIG, dipgen_pagefind="pagefind/"), "docs": []}
    assert not (site / DOCS).exists()
    assert not index_site(site)  # indexed already: left as it is
    assert not split_index(site)


def test_the_same_site_gives_the_same_bytes(tmp_path):
    a, b = _site(tmp_path / "a"), _site(tmp_path / "b")
    (a / BUNDLE / "fragment").mkdir(parents=True)
    (a / BUNDLE / "fragment" / "stale.pf_fragment").write_bytes(b"a dirty build's last index")
    assert index_site(a)
    assert index_site(b)

    def files(site: Path) -> dict[str, bytes]:
        return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}

    assert files(a) == files(b)


def test_a_site_without_materials_index_is_left_alone(tmp_path):
    site = _site(tmp_path)
    (site / INDEX).unlink()
    assert not index_site(site)
    (site / INDEX).write_text(json.dumps({"pages": []}), encoding="utf-8")
    assert not index_site(site)
    assert not (site / BUNDLE).exists()
    split = _site(tmp_path / "split")
    assert split_index(split)
    assert not index_site(split)  # Material's split index (under serve): not mixed with Pagefind's


def _plugin_after_a_build(tmp_path: Path, command: str, setting: str | None) -> Path:
    """The dipgen plugin's last step of a build (`_search`) over a built site, as `command` runs it,
    with the plugin's ``search`` `setting` (None: the default)."""
    from support import make_project, set_plugin_options, site_config

    project = make_project(tmp_path / "p")
    if setting is not None:
        set_plugin_options(project, search=setting)
    site = _site(tmp_path)
    config = site_config(project, site_dir=str(site))
    plugin = config.plugins["dipgen"]
    plugin.on_startup(command=command, dirty=False)
    plugin._search(config)
    return site


def test_a_build_is_searched_with_pagefind_by_default(tmp_path):
    site = _plugin_after_a_build(tmp_path, "build", None)
    assert "dipgen_pagefind" in json.loads((site / INDEX).read_text(encoding="utf-8"))["config"]
    assert (site / BUNDLE / "pagefind.js").is_file()


def test_serve_and_the_material_setting_split_materials_index(tmp_path):
    """Under `mkdocs serve` every edit would index every page again: the search is Material's split
    index there; ``search: material`` asks for it in a build too."""
    for command, setting in (("serve", None), ("build", "material")):
        site = _plugin_after_a_build(tmp_path / f"{command}-{setting}", command, setting)
        assert (site / DOCS).is_file(), (command, setting)
        assert not (site / BUNDLE).exists(), (command, setting)


# ---------------------------------------------------------------- the pages dipgen makes: what is indexed

GAME = "games/two-crowns/"


def _made_site(root: Path, with_game: bool = True) -> Path:
    """The pages dipgen makes of an example game (Two Crowns: Double Diplomacy, its orders as written in
    tables, press), each in Material's article as a build puts it (the templates' HTML blocks as they
    are), Material's index listing them with its titles; without the game's page where not `with_game`,
    and with the home page, whose cards list the games."""
    from support import GAMES, load, public_site

    site = root / "site"
    docs = [{"location": "", "title": "Welcome", "text": ""}]
    home = ('<h1 id="w">Welcome</h1><p>Our club plays by e-mail.</p><div class="dg-cards"><a class="dg-card">'
            '<span class="dg-card-title">Quiet Frontier</span></a></div><div class="dg-scroll"><table><tr><td>'
            'Zanzibar Tableword</td></tr></table></div>')
    (site / "index.html").parent.mkdir(parents=True)
    (site / "index.html").write_text(_shell(home), encoding="utf-8")
    for uri, page in public_site(load(GAMES / "two-crowns")).items():
        if not (uri.startswith(GAME) and uri.endswith("/index.md")) or (uri == GAME + "index.md" and not with_game):
            continue
        location = uri[:-len("index.md")]
        (site / location).mkdir(parents=True, exist_ok=True)
        (site / location / "index.html").write_text(_shell(str(page)[page._body:]), encoding="utf-8")
        docs.append({"location": location, "title": html.escape(page.name), "text": ""})
    (site / "search").mkdir()
    (site / INDEX).write_text(json.dumps({"config": CONFIG, "docs": docs}), encoding="utf-8")
    return site


def _shell(article: str) -> str:
    return ('<!doctype html><html lang="en"><head><title>x</title></head><body><header>Menu</header>'
            f'<article class="md-content__inner md-typeset">{article}</article><footer>Made with MkDocs</footer>'
            '</body></html>')


def _made(site: Path, location: str, pattern: str) -> list[str]:
    """The texts of `pattern`'s first group on the page at `location`, tags taken out."""
    page = (site / location / "index.html").read_text(encoding="utf-8")
    return [html.unescape(re.sub(r"<[^>]+>", "", m)).strip() for m in re.findall(pattern, page, re.S)]


def test_a_games_seasons_are_sections_of_its_document_by_what_a_reader_looks_for(tmp_path):
    site = _made_site(tmp_path)
    assert index_site(site)
    pages = _fragments(site)
    assert sorted(pages) == ["/", "/" + GAME]  # the seasons are no documents of their own
    game = pages["/" + GAME]
    assert game["meta"]["title"] == "Two Crowns"
    seasons = sorted(p.name for p in (site / GAME).iterdir() if p.name[0].isdigit())
    anchors = game["anchors"]
    assert len(anchors) == len(seasons) > 20
    assert [a["id"] for a in anchors[:4]] == [f"{PAGE_ANCHOR}{GAME}{s}/" for s in
                                             ("1901-spring", "1901-fall", "1901-winter", "1902-spring")]
    assert [a["text"] for a in anchors[:3]] == ["Spring 1901", "Fall 1901", "Winter 1901 adjustments"]
    content = game["content"]
    happened = _made(site, GAME + "1902-fall", r'<li class="dg-happened--[a-z]+">(.*?)</li>')
    players = _made(site, GAME + "1902-fall", r'<span class="dg-player">(.*?)</span>')
    orders = _made(site, GAME + "1902-fall", r'<td class="dg-(?:ok|fail)">(.*?)</td>')
    press = _made(site, GAME + "1901-spring", r'<div class="dg-press[^"]*"[^>]*>(.*?)</div>')
    assert happened
    assert players
    assert orders
    assert press
    for line in happened + players + ["Two Crowns", "Russia", "Austria"]:
        assert line in content, line
    for line in orders + press + ["Order sheet", "Supply centres", "Menu", "Made with MkDocs"]:
        assert line not in content, line


def test_a_season_without_its_games_page_is_a_document_of_its_own(tmp_path):
    site = _made_site(tmp_path, with_game=False)
    assert index_site(site)
    pages = _fragments(site)
    spring = pages["/" + GAME + "1902-spring/"]
    assert spring["meta"]["title"] == "Spring 1902 · Two Crowns"
    assert "Boris Ivanov" in spring["content"]  # who played which power: its power's head
    assert not [p for p in pages if p.startswith("/" + GAME) and not p[len(GAME) + 1:][:1].isdigit()]


def test_dipgens_lists_of_games_and_tables_on_a_hand_written_page_are_not_indexed(tmp_path):
    site = _made_site(tmp_path)
    assert index_site(site)
    home = _fragments(site)["/"]["content"]
    assert "Our club plays by e-mail" in home
    assert "Quiet Frontier" not in home
    assert "Zanzibar" not in home


def test_a_kept_part_is_taken_whole_with_the_elements_inside_it_and_nothing_after(tmp_path):
    """A game's description (Markdown the GM wrote) may hold blocks of its own: the part kept ends at
    its own closing tag, not its first inner one; a page cut short keeps what it has, without error."""
    site = tmp_path / "site"
    desc = ('<nav class="dg-crumbs"><a href="../">Games</a></nav><header class="dg-head"><h1>Iron Gate</h1></header>'
            '<div class="dg-desc"><div class="note"><p>Inner block.</p></div><p>After the inner block.</p></div>'
            '<div class="dg-orders"><p>A Vie - Bud</p></div>')
    cut = '<nav class="dg-crumbs"></nav><section class="dg-happened"><ul><li>Austria took Serbia.'
    for location, article in (("games/iron-gate/", desc), ("games/cut-short/", cut)):
        (site / location).mkdir(parents=True)
        (site / location / "index.html").write_text(_shell(article), encoding="utf-8")
    (site / "search").mkdir()
    docs = [{"location": "games/iron-gate/", "title": "Iron Gate"}, {"location": "games/cut-short/", "title": "Cut"}]
    (site / INDEX).write_text(json.dumps({"config": CONFIG, "docs": docs}), encoding="utf-8")
    assert index_site(site)
    pages = _fragments(site)
    gate = pages["/games/iron-gate/"]["content"]
    assert "Inner block" in gate
    assert "After the inner block" in gate
    assert "A Vie - Bud" not in gate
    assert "Austria took Serbia" in pages["/games/cut-short/"]["content"]


def test_a_season_names_the_players_its_games_page_does_not_name_yet(tmp_path):
    """Before the end of its first year a game's page has no table of players: its seasons' sections
    name who played which power, each player once; where the game's page names them, no section does."""
    site = _made_site(tmp_path)
    game = (site / GAME / "index.html").read_text(encoding="utf-8")
    (site / GAME / "index.html").write_text(re.sub(r'<span class="dg-who">.*?</span>', "", game), encoding="utf-8")
    assert index_site(site)
    content = _fragments(site)["/" + GAME]["content"]
    assert content.count("Boris Ivanov") == 1  # his first season's section
    assert content.count("Alice Martin") == 2  # hers, and the game's result: "France (Alice Martin) wins"
    with_seasons, alone = _made_site(tmp_path / "with"), _made_site(tmp_path / "alone")
    listed = json.loads((alone / INDEX).read_text(encoding="utf-8"))
    listed["docs"] = [d for d in listed["docs"] if not d["location"][len(GAME):][:1].isdigit()]
    (alone / INDEX).write_text(json.dumps(listed), encoding="utf-8")
    assert index_site(with_seasons)
    assert index_site(alone)
    named = [_fragments(s)["/" + GAME]["content"].count("Boris Ivanov") for s in (with_seasons, alone)]
    assert named[0] == named[1] > 0

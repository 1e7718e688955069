"""Pagefind's index of a built site (dipgen.mkdocs.pagefind): the pages Material's index lists, each
by its article, written by Pagefind's own binary; the same bytes from the same site; Material's index
left with its configuration only. The search in a browser is tested in tests/test_weight_browser.py."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from dipgen.mkdocs.pagefind import BUNDLE, UNUSED, index_site
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

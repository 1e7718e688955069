"""A build's memory does not hold the archive (issue 39): MkDocs reads every page before it writes
any, so a build that kept each game's pages from their making to their writing held every page of
the archive at once. A game's pages are read from the cache folder when MkDocs reads them and again
when it writes them, and let go in between; with Pagefind's search, Material's index (which then
only lists the pages) holds no page's text either."""

from __future__ import annotations

import gc
import weakref

import pytest
from mkdocs.exceptions import Abort

from dipgen.mkdocs.speed import Layers
from dipgen.mkdocs.speed.internals import search_index
from dipgen.mkdocs.speed.pages import GeneratedPage
from dipgen.present.site.page import SitePage
from support import ALPHA, BRAVO, build, make_project, site_config

pytestmark = pytest.mark.slow  # a whole-site build


def _live_pages(before: weakref.WeakSet | None = None) -> int:
    """The site pages alive now, but those alive `before` (an earlier build's in this process, which
    MkDocs may hold with the last configuration it read)."""
    return sum(1 for o in gc.get_objects() if isinstance(o, SitePage) and o not in (before or ()))


def _pages_now() -> weakref.WeakSet:
    gc.collect()
    return weakref.WeakSet(o for o in gc.get_objects() if isinstance(o, SitePage))


def test_a_build_holds_no_game_page_between_reading_and_writing(tmp_path, monkeypatch):
    project = make_project(tmp_path, ("two-crowns",), games={"alpha": ALPHA, "bravo": BRAVO},
                           plugin={"workers": 1})  # made in this process, where the pages were held
    seen: dict[str, int] = {}
    env, post_build = Layers.env, Layers.post_build
    before = _pages_now()

    def after_reading(self, env_, config, files):  # MkDocs has read every page, written none
        gc.collect()
        seen["live"] = _live_pages(before)
        seen["archive"] = sum(1 for c in self._plugin._files.values() if isinstance(c, SitePage))
        seen["game pages"] = sum(1 for f in files if f.src_uri.startswith("games/") and f.src_uri.count("/") > 1
                                 and f.src_uri.endswith(".md"))
        seen["front matter"] = sum(1 for f in files if isinstance(f.page, GeneratedPage) and f.page.meta
                                   and f.src_uri.startswith("games/") and f.src_uri.count("/") > 1)  # (not in the nav)
        return env(self, env_, config, files)

    def at_the_end(self, config):
        index = search_index(config)
        seen["game entries"] = sum(1 for e in index.entries if e["location"].count("/") > 2)
        seen["with text"] = sum(1 for e in index.entries if e["location"].count("/") > 2 and e["text"])
        return post_build(self, config)

    monkeypatch.setattr(Layers, "env", after_reading)
    monkeypatch.setattr(Layers, "post_build", at_the_end)
    site = build(site_config(project, strict=True))

    assert seen["game pages"] > 30
    assert seen["live"] <= seen["archive"], seen  # the archive's own pages only: no game's
    assert seen["front matter"] == 0, seen  # nor any page's front matter (read again with its text)
    assert seen["game entries"] > 30, seen
    assert seen["with text"] == 0, seen
    assert "Spring 1901" in (site / "games" / "alpha" / "1901-spring" / "index.html").read_text(encoding="utf-8")
    assert (site / "pagefind").is_dir()  # the text is searched in Pagefind's index, made from the site


def test_a_link_to_a_game_page_anchor_is_checked_after_the_page_let_its_anchors_go(tmp_path, caplog):
    """A page handed over as HTML lets the ids of its anchors go once written; MkDocs checks the
    links to them after writing every page, so they are found again: a hand-written link to an
    anchor of a season page passes `--strict`, and one to an anchor it does not have is reported."""
    project = make_project(tmp_path, games={"alpha": ALPHA})
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + "validation:\n  anchors: warn\n", encoding="utf-8")
    note = project / "site_src" / "note.md"
    note.write_text("# A note\n\nSee [the orders](games/alpha/1901-spring/index.md#orders).\n", encoding="utf-8")
    site = build(site_config(project, strict=True))
    assert 'href="../games/alpha/1901-spring/#orders"' in (site / "note" / "index.html").read_text(encoding="utf-8")

    note.write_text("# A note\n\nSee [nothing](games/alpha/1901-spring/index.md#no-such-place).\n", encoding="utf-8")
    with pytest.raises(Abort):
        build(site_config(project, strict=True))
    assert any("no-such-place" in r.getMessage() for r in caplog.records if r.levelname == "WARNING")

"""Generated pages go to MkDocs as HTML (dipgen/mkdocs/speed/pages.py): the same page on screen
as when MkDocs converts their Markdown, and search entries of the same kind, made from dipgen's
own markup rather than by the search plugin parsing each page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dipgen.mkdocs.speed import pages as mkdocs_pages
from dipgen.mkdocs.search import DOCS
from dipgen.present.site.page import Heading, SitePage
from support import build, make_project

EXAMPLES = ("austrian-question", "masked-ball", "two-crowns", "night-flights")
#: the search these tests read: Material's index, whose entries the pages hand MkDocs
MATERIAL = {"search": "material"}
_ARTICLE = re.compile(r"<article\b.*?</article>", re.S)


def _article(html: str) -> str:
    found = _ARTICLE.search(html)
    assert found is not None
    return found.group(0)


def _pages(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): _article(p.read_text(encoding="utf-8"))
            for p in (site / "games").rglob("index.html")}


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """The same project built twice: as the plugin builds it, and with every generated page converted
    by MkDocs from its Markdown (as before the pages were handed over as HTML)."""
    root = tmp_path_factory.mktemp("pages")
    direct = build(make_project(root / "direct", EXAMPLES, plugin=MATERIAL))
    counted = []
    render = mkdocs_pages.GeneratedPage.render

    def counting(self, config, files):
        render(self, config, files)
        counted.append(self.direct)
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(mkdocs_pages, "page_html", lambda source, headings: None)
        converted = build(make_project(root / "converted", EXAMPLES, plugin=MATERIAL))
    finally:
        mp.undo()
    mp.setattr(mkdocs_pages.GeneratedPage, "render", counting)
    try:
        again = build(make_project(root / "again", EXAMPLES, plugin=MATERIAL))
    finally:
        mp.undo()
    return direct, converted, again, counted


@pytest.mark.slow  # the site built three times (`both`)
def test_every_generated_page_is_the_same_html_as_when_converted(both):
    direct, converted, _, _ = both
    ours, theirs = _pages(direct), _pages(converted)
    assert set(ours) == set(theirs)
    assert len(ours) > 40
    assert [uri for uri in ours if ours[uri] != theirs[uri]] == []
    # the heading of a section has its id and permalink, as the site's toc extension makes them
    assert 'id="supply-centres"' in ours["games/masked-ball/index.html"]
    assert 'class="headerlink"' in ours["games/masked-ball/index.html"]


@pytest.mark.slow  # the site built three times (`both`)
def test_every_generated_page_went_as_html(both):
    _, _, _, counted = both
    assert counted
    assert all(counted)


def _index(site: Path) -> dict[str, dict]:
    docs = json.loads((site / DOCS).read_text(encoding="utf-8"))["docs"]  # the index's documents
    return {d["location"]: d for d in docs}


@pytest.mark.slow  # the site built three times (`both`)
def test_search_holds_the_same_entries(both):
    direct, converted, _, _ = both
    ours, theirs = _index(direct), _index(converted)
    assert set(ours) == set(theirs)
    assert all(ours[k]["title"] == theirs[k]["title"] for k in ours)
    # the same text, tags kept and all; only the spaces differ: where a tag parts words (table cells),
    # dipgen's entry has a space and the search plugin's parser ran the words together ("YearSeasons")
    letters = lambda text: re.sub(r"\s", "", text)  # noqa: E731
    assert [k for k in ours if letters(ours[k]["text"]) != letters(theirs[k]["text"])] == []


@pytest.mark.slow  # the site built three times (`both`)
def test_search_finds_a_game_by_title_power_player_and_order(both):
    index = _index(both[0]).values()

    def found(word: str) -> set[str]:
        return {d["location"].split("#")[0] for d in index if word in d["title"] or word in d["text"]}
    assert "games/masked-ball/" in found("The Masked Ball") or any("masked-ball" in u for u in found("Masked"))
    assert any(u.startswith("games/austrian-question/") for u in found("Ben Okafor"))
    assert any(u.startswith("games/two-crowns/") for u in found("Austria"))
    assert any(re.search(r"games/[^/]+/\d{4}-", u) for u in found("A Ven - Tyr"))


def test_sections_split_at_headings_and_keep_the_index_tags():
    html = ('<div class="x"><p>Intro <strong>bold</strong></p><table><tr><td>A</td><td>B</td></tr></table></div>\n'
            '<h2 id="one">One<a class="headerlink" href="#one">¶</a></h2>\n<ul><li>x &amp; y</li></ul>'
            '<script>var secret = 1;</script>')
    top, one = mkdocs_pages.sections(html)
    assert top.id is None
    assert top.text == ["<p>Intro bold</p> A B"]
    assert one.id == "one"
    assert one.title == ["One"]
    assert one.text == ["<ul><li>x &amp; y</li></ul>"]


def test_a_page_whose_headings_the_markdown_does_not_make_alone_is_converted():
    class Config(dict):
        pass
    headings = mkdocs_pages.Headings(Config(markdown_extensions=["toc"], mdx_configs={}))
    page = SitePage.make("T", '<div>a</div>\n<h2 data-dg-heading>Fine</h2>\n<p>b</p>\n')
    html, tokens = mkdocs_pages.page_html(page, headings)
    assert html == '<div>a</div>\n<h2 id="fine">Fine</h2>\n<p>b</p>'
    assert tokens[0]["id"] == "fine"
    assert list(page.pieces())[1] == Heading(2, "Fine")
    odd = mkdocs_pages.Headings(Config(markdown_extensions=["toc", "attr_list"], mdx_configs={}))
    assert odd.render((Heading(2, "Fine"),)) is not None


def test_blank_lines_between_blocks_become_one_and_stay_inside_a_block():
    import markdown
    text = '<div>a</div>\n\n\n\n<p>b</p>\n\n\n<div>\n<pre>x\n\n\n\ny</pre>\n</div>\n\n\n<hr>\n\n\n<p>c</p>'
    from dipgen.present.site.page import _blank_lines
    made = _blank_lines(text)
    assert made == markdown.Markdown(extensions=["md_in_html"]).convert(text)
    assert "<p>b</p>\n\n<div>" in made
    assert "x\n\n\n\ny" in made


def test_blank_runs_are_found_alike_a_stretch_at_a_time_and_tag_by_tag():
    """`_top_runs` reads tags from one run of blank lines to the next; where a run falls inside a
    tag (an attribute's value) it reads every tag whole. Both find the same runs, on pages made of
    blocks, void and self-closing tags, quoted '>' and runs in every place."""
    import random

    from dipgen.present.site.page import _top_runs, _top_runs_inside_tags

    rng = random.Random(5)
    bits = ["<div>", "</div>", "<p>", "</p>", "<br>", "<img src='a>b'/>", '<x a="\n\n\nq">', "\n\n\n", "\n\n\n\n",
            "text", "<pre>", "</pre>", "<svg/>", "<BR>", "\n"]
    for _ in range(5000):
        text = "".join(rng.choice(bits) for _ in range(rng.randint(0, 25)))
        assert _top_runs(text, 0) == _top_runs_inside_tags(text, 0), repr(text)
    assert _top_runs("<div>\n\n\n</div>\n\n\n<p>", 0) == ((14, 17),)  # the run inside the div stays


def test_search_text_tags_read_in_passes_as_tag_by_tag():
    """The search index's text is made in three passes of the regular-expression engine (kept tags
    made bare, inline tags dropped, other tags a space); a tag-by-tag reading gives the same."""
    import random

    from dipgen.mkdocs.speed.pages import _tags, _tags_each

    rng = random.Random(7)
    bits = ["<p>", "</p>", '<p class="a>b">', "<pre>", "</pre>", "<param x>", "<p2>", "<a href='x'>", "</a>",
            "<em>", "</em>", "<table>", "<td>", "</td>", "<br>", "<br/>", "<li>", "</li>", "<span\nclass=x>",
            "<sup>", "<subtle>", "text", " ", "&lt;", "<code>", "</code>", "<strong>", "<div>", "</div>"]
    for _ in range(5000):
        chunk = "".join(rng.choice(bits) for _ in range(rng.randint(0, 20)))
        assert _tags(chunk) == _tags_each(chunk), repr(chunk)


def test_search_text_spaces_are_as_a_pattern_would_make_them():
    """The search text's white space is made one space by splitting (in C), not a pattern: the same
    as `re.sub(r"\\s+", " ")`, for Unicode white space too, with the space inside a kept tag dropped."""
    import random

    from dipgen.mkdocs.speed.pages import _text

    def by_pattern(text: str) -> str:
        out = re.sub(r"\s+", " ", text)
        out = re.sub(r" (</(?:p|li)>)", r"\1", re.sub(r"(<(?:p|li)>) ", r"\1", out))
        while re.search(r"<(p|li)></\1>", out):  # an empty kept element goes
            out = re.sub(r"<(p|li)></\1>", "", out)
        return out.strip()

    rng = random.Random(11)
    bits = ["<p>", "</p>", "<li>", "</li>", "a", "b", " ", "  ", "\n", "\t", "\xa0", "\u2003", "\x1c", "\x85", "\u3000"]
    for _ in range(5000):
        chunk = "".join(rng.choice(bits) for _ in range(rng.randint(0, 16)))
        assert _text(chunk) == by_pattern(chunk), repr(chunk)

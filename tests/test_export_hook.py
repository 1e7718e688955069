"""The hook an export gives ProperDocs (dipgen/usecases/export_hook.py): a generated page's headings
go through the site's Markdown and its HTML is put back as it is, which must give the page a whole
conversion gives, byte for byte, with the same table of contents; a page whose lines are no longer
as the export listed them, or whose token an extension changed, is converted whole."""

from __future__ import annotations

from pathlib import Path

import markdown
import pytest
import yaml
from mkdocs.utils import meta as front_matter

from dipgen.present.site.page import SitePage
from dipgen.usecases import export_hook
from dipgen.usecases.export import marked
from dipgen.usecases.games import load_checked
from dipgen.usecases.publish import archive_files, editions, game_files, site_options

REPO = Path(__file__).resolve().parent.parent
#: a movement game with press, a blind one (its public view), a game with dice, and the archive pages
GAMES = ("winter-palace", "closed-shutters", "two-crowns")


def _site_markdown() -> markdown.Markdown:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    names, configs = [], {}
    for item in config["markdown_extensions"]:
        name, settings = (next(iter(item.items())) if isinstance(item, dict) else (item, None))
        names.append(name)
        if settings:
            configs[name] = settings
    return markdown.Markdown(extensions=names, extension_configs=configs)


@pytest.fixture(scope="module")
def pages() -> dict[str, SitePage]:
    options = site_options(REPO / "site_src", site_name="Diplomacy by e-mail")
    games = [load_checked(REPO / "games" / slug) for slug in GAMES]
    files: dict = {}
    for game in games:
        files.update(game_files(game, options))
    files.update(archive_files([editions(g)[0] for g in games], options))
    found = {uri: page for uri, page in files.items() if isinstance(page, SitePage)}
    assert len(found) > 50
    return found


def _through_hook(md: markdown.Markdown, body: str, lines) -> tuple[str, list] | None:
    made = export_hook.split(body, lines)
    if made is None:
        return None
    html = md.reset().convert(made[0])
    joined = export_hook.join(html, made[1])
    return None if joined is None else (joined, md.toc_tokens)


def test_every_generated_page_comes_out_as_a_whole_conversion_makes_it(pages):
    md = _site_markdown()
    headings = 0
    for uri, page in pages.items():
        body, meta = front_matter.get_data(marked(page))
        assert meta[export_hook.KEY] == page.heading_lines(), uri
        headings += len(meta[export_hook.KEY])
        whole = md.reset().convert(body)
        toc = md.toc_tokens
        hooked = _through_hook(md, body, meta[export_hook.KEY])
        assert hooked is not None, uri
        assert hooked[0] == whole, uri
        assert hooked[1] == toc, uri
    assert headings > 100  # the pages have headings, and they went through Markdown


def test_a_page_changed_since_the_export_is_converted_whole(pages):
    page = pages["games/winter-palace/1903-fall/index.md"]
    body, meta = front_matter.get_data(marked(page))
    lines = meta[export_hook.KEY]
    assert lines
    assert export_hook.split("<p>a line added by hand</p>\n\n" + body, lines) is None
    assert export_hook.split(body, [*lines, len(body.splitlines()) + 5]) is None
    assert export_hook.split(body, "1, 2") is None
    paragraph = body.index("\n\n<") + 2  # a paragraph of Markdown written between two blocks, lines kept
    assert export_hook.split(body[:paragraph] + "*A GM's note.* " + body[paragraph:], lines) is None
    made = export_hook.split(body, lines)
    assert made is not None
    md = _site_markdown()
    html = md.convert(made[0]).replace(f"<p>{export_hook._token(0)}</p>", "<p>changed</p>")
    assert export_hook.join(html, made[1]) is None


def test_the_hook_gives_the_page_the_markdown_of_its_headings_only(pages):
    class Page:
        meta: dict

    page = Page()
    body, page.meta = front_matter.get_data(marked(pages["games/winter-palace/1903-fall/index.md"]))
    short = export_hook.on_page_markdown(body, page=page, config={}, files=None)
    assert "<" not in short  # no HTML left for Markdown to take apart
    assert short.count("\n## ") + short.startswith("## ") == len(page.meta[export_hook.KEY])
    config = {"markdown_extensions": ["toc"], "mdx_configs": {}}
    assert export_hook.on_page_content("<p>eaten</p>", page=page, config=config, files=None) \
        == markdown.Markdown(extensions=["toc"]).convert(body)  # a token went: the page converted whole
    plain = Page()
    plain.meta = {}
    assert export_hook.on_page_markdown("# A page of the GM's\n", page=plain, config={}, files=None) \
        == "# A page of the GM's\n"

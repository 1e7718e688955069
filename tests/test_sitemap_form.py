"""The sitemap under plain serve (dipgen/mkdocs/speed/sitemap.py): a withheld page's text is what
MkDocs's own sitemap template draws for it, and a run of them put in place of one stand-in makes
the sitemap the template draws with every page."""

from __future__ import annotations

from pathlib import Path

import jinja2
import mkdocs

from dipgen.mkdocs.speed.sitemap import Form, StandIn

TEMPLATES = Path(mkdocs.__file__).parent / "templates"


def _template(text: str | None = None) -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True)
    return env.from_string(text) if text is not None else env.get_template("sitemap.xml")


def test_runs_of_lines_make_the_sitemap_mkdocs_draws():
    template = _template()
    form = Form.of(template, "2026-11-28")
    assert form is not None
    pages = [StandIn(f"https://x.org/a&b/{i}/", f"/a/{i}/", "2026-11-28") for i in range(5)]
    pages[2] = StandIn(None, "/only/absolute/", "2026-11-28")
    pages[3] = StandIn(None, None, "2026-11-28")  # no address: not listed
    first, drawn = form.run(0)
    last, drawn_last = form.run(1)
    output = template.render(pages=[pages[0], first, pages[4], last])
    lines = [form.line(p.canonical_url, p.abs_url) for p in pages]
    assert form.fill(output, [(drawn, "".join(lines[1:4])), (drawn_last, "")]) == template.render(pages=pages)
    assert "&amp;" in lines[0]
    assert lines[3] == ""
    assert form.fill("no stand-in here", [(drawn, "x")]) is None


def test_a_template_that_draws_a_page_otherwise_has_no_form():
    counted = _template("{% for file in pages %}{{ loop.index }}:{{ file.page.abs_url }};{% endfor %}")
    assert Form.of(counted, "2026-11-28") is None  # a page's text depends on its place

"""The generated pages of a `dipgen export`, handed to ProperDocs as the HTML they are.

This file is copied into every export (``hooks/dipgen_pages.py``, named under ``hooks:`` in its
mkdocs.yml) and runs there without dipgen: it imports only the standard library and Python-Markdown,
which every generator that reads mkdocs.yml has. A generated page is HTML blocks and heading lines;
Python-Markdown would take every tag of it apart only to copy it (most of a build of the export).
The export lists, in the page's front matter (``dipgen_html``), the lines of its body that are
headings. Here each run of HTML between them becomes a one-word paragraph for Markdown, so that only
the headings go through the site's Markdown (their ids, permalinks and table of contents as on any
page), and the HTML is put back in place of each word once converted. The search plugin then reads
the page as before. A page whose lines are not as listed (edited by hand since), or with a block of
Markdown between its headings, is converted whole, as any other page. (The plugin lays a generated
page out the same way, with dipgen's own types, in `dipgen.mkdocs.speed.pages`; this file cannot
import dipgen.) Zensical does not run hooks: it converts the same files as Markdown, which gives the
same page.
"""

from __future__ import annotations

import re

#: the front matter's key: the numbers (from 0) of the body's lines that are headings
KEY = "dipgen_html"
_HEADING = re.compile(r"#{1,6} \S")
_BLANK = re.compile(r"\n[ \t]*\n")


def _token(i: int) -> str:
    return f"DIPGENHTMLBLOCK{i}X"


def split(markdown: str, heading_lines) -> tuple[str, list[str]] | None:
    """The Markdown of the headings with a token for each run of HTML, and the runs; None if the
    listed lines are not the page's heading lines, or a block between them is not HTML."""
    if not isinstance(heading_lines, list) or not all(isinstance(n, int) for n in heading_lines):
        return None
    lines = markdown.split("\n")
    marked = set(heading_lines)
    if any(not 0 <= n < len(lines) or not _HEADING.match(lines[n]) for n in marked):
        return None
    out: list[str] = []
    blocks: list[str] = []
    run: list[str] = []
    plain: list[str] = []

    def close(last: bool = False) -> None:
        body = "\n".join(run).lstrip("\n")
        text = body.rstrip("\n")
        if any(block.strip() and not block.lstrip().startswith("<") for block in _BLANK.split(text)):
            plain.append(text)  # a block that is not HTML (Markdown written in since): not taken as it is
        if text.strip():  # laid out as Python-Markdown lays out HTML blocks: a blank line after one stays
            out.append(_token(len(blocks)))
            blocks.append(text + ("\n" if len(body) > len(text) and not last else ""))
        run.clear()

    for n, line in enumerate(lines):
        if n in marked:
            close()
            out.append(line)
        else:
            run.append(line)
    close(last=True)
    if plain:
        return None
    return "\n\n".join(out) + "\n", blocks


def join(html: str, blocks: list[str]) -> str | None:
    """The converted headings with each run of HTML back in place; None if a token went missing."""
    for i, block in enumerate(blocks):
        token = f"<p>{_token(i)}</p>"
        if html.count(token) != 1:
            return None
        html = html.replace(token, block)
    return html


def on_page_markdown(markdown: str, page, config, files):
    page.dipgen_blocks = None
    made = split(markdown, page.meta.get(KEY)) if KEY in page.meta else None
    if made is None:
        return markdown
    page.dipgen_source, page.dipgen_blocks = markdown, made[1]
    return made[0]


def on_page_content(html: str, page, config, files):
    blocks = getattr(page, "dipgen_blocks", None)
    if not blocks:
        return html
    joined = join(html, blocks)
    if joined is not None:
        return joined
    import markdown  # a token was changed by an extension of the site's: the page converted whole

    md = markdown.Markdown(extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"] or {})
    return md.convert(page.dipgen_source)

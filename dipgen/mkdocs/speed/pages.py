"""Generated pages handed to MkDocs as HTML, and their search entries from dipgen.

A generated page (`dipgen.present.site.page.SitePage`) is HTML blocks and headings. MkDocs would
read it as Markdown and convert it with the site's extensions: some 5 ms a page, to copy HTML
it cannot change. `GeneratedPage` is the `mkdocs.structure.pages.Page` the plugin gives MkDocs
for it instead (`File.page`, as MkDocs lets plugins do): its front matter is taken as made, its
HTML blocks as they are, and only its headings go through the site's own Markdown
(`Headings`), so that they get the ids, permalinks and table of contents every heading of the
site gets. The page on screen is the same (tests compare both ways on every example page).

Where another plugin gives the page a source of its own (``on_page_read_source``) or changes its
Markdown (``on_page_markdown``), the page is converted by MkDocs as any other, so that what the
plugin did shows.

Material's search plugin would parse each page's HTML again to index it. For a generated page
the plugin gives it the page's sections itself (`sections`: each heading with an id and the
text under it, read off dipgen's own markup) and marks the page ``search: exclude`` so that it
does not parse it too; the index holds the same entries (location, title, text) as before.
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import dataclass, field
from typing import Protocol

import markdown
from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc
from mkdocs.utils import meta as front_matter

from dipgen.mkdocs.failures import NESTED, failure
from dipgen.mkdocs.speed.internals import plugins_source, set_rendered_title
from dipgen.present.site.page import Heading, SitePage

log = logging.getLogger("mkdocs.plugins.dipgen")

_HEADING = re.compile(r"<h([1-6])\b[^>]*>.*?</h\1>", re.S)
_ID = re.compile(r"""\sid=(?:"([^"]*)"|'([^']*)')""")


class Headings:
    """The site's Markdown (its extensions and their settings: toc's ids and permalinks) applied to
    the headings of a page alone. A page's headings are few and mostly the same from page to page,
    so each sequence is converted once."""

    def __init__(self, config) -> None:
        self._config = config
        self._md: markdown.Markdown | None = None
        self._memo: dict[tuple[Heading, ...], tuple[tuple[str, ...], list] | None] = {}

    def render(self, headings: tuple[Heading, ...]) -> tuple[tuple[str, ...], list] | None:
        """The HTML of each heading and the toc tokens of the whole sequence (as Markdown gives
        them for a page with those headings and nothing else Markdown reads); None if the site's
        Markdown does not make one element of each heading."""
        if headings not in self._memo:
            self._memo[headings] = self._convert(headings)
        return self._memo[headings]

    def _convert(self, headings: tuple[Heading, ...]):
        if self._md is None:
            self._md = markdown.Markdown(extensions=self._config["markdown_extensions"],
                                         extension_configs=self._config["mdx_configs"] or {})
        md = self._md.reset()
        out = md.convert("\n\n".join(h.markdown for h in headings))
        made = tuple(m.group(0) for m in _HEADING.finditer(out))
        if len(made) != len(headings) or _HEADING.sub("", out).strip():
            return None
        return made, getattr(md, "toc_tokens", [])


def page_html(source: SitePage, headings: Headings) -> tuple[str, list] | None:
    """The HTML of a generated page and its toc tokens; None where the site's Markdown makes
    headings this cannot put in place (the page is then converted as Markdown)."""
    pieces = list(source.pieces())
    made = headings.render(tuple(p for p in pieces if isinstance(p, Heading)))
    if made is None:
        return None
    parts, tokens = made
    out, i = [], 0
    for piece in pieces:  # laid out as Python-Markdown lays out HTML blocks and headings
        if isinstance(piece, Heading):
            out.append(parts[i] + "\n")
            i += 1
        elif piece.strip():
            body = piece.lstrip("\n")  # blank lines between blocks already one (`SitePage.make`)
            text = body.rstrip("\n")
            out.append(text + ("\n\n" if len(body) - len(text) > 1 else "\n"))  # a blank line stays one
    return "".join(out).strip("\n"), tokens


class Sources(Protocol):
    """Where a generated page's source and what is said of it come from, by the page's source path
    (one object for every page of a build: a big archive has tens of thousands of pages, and
    MkDocs keeps each till the build ends)."""

    def source(self, uri: str) -> SitePage:
        """The page (read when MkDocs reads it)."""

    def origin(self, uri: str) -> str:
        """The game file the page is made from, named for a message (said only on a failure:
        naming a file takes a look at the disk)."""

    def light(self, uri: str) -> dict | None:
        """The page's front matter where its output is expected to be taken as it was (its text
        is then read only if it is not: `GeneratedPage._lightly`), else None."""


class GeneratedPage(Page):
    """A page dipgen made: read from its `SitePage` (`sources`, when MkDocs reads the page) and
    rendered without a Markdown pass where nothing else changed it (see the module). `light`: its
    output may be taken as it was (`Sources.light`)."""

    names_failures = True  # (`dipgen.mkdocs.failures.name_failures`)

    def __init__(self, title, file, config, *, sources: Sources, headings: Headings, searched: bool,
                 light: bool = False) -> None:
        super().__init__(title, file, config)
        # (every attribute set here, in one order, none later: the pages' attribute dictionaries then
        # share their keys, a third of the size of one each)
        self._sources, self._headings, self._searched, self._light = sources, headings, searched, light
        self._lightly = False
        self._read: SitePage | None = None
        self._body: str | None = None  # the Markdown handed to MkDocs: the page without its front matter
        #: set by the plugin before `render`: the page's output, search entries and anchors' ids as the
        #: last build made them, where they may be taken as they are (`dipgen.mkdocs.speed.reuse`)
        self.reused: tuple[str, list, set] | None = None
        self.dipgen_output = ""  # where `reused` is taken: its output, which the template `reuse.TEMPLATE` prints
        self._anchors: set[str] | None | object = None  # (`present_anchor_ids`; `_FIND_AGAIN`)
        self._direct = False  # rendered as HTML, without a Markdown pass (`direct`)
        self._aside = False   # its text let go till it is written (`set_aside`)
        self._meta_aside = False  # ... and its front matter
        self.links_to_anchors = None

    def _source(self) -> SitePage:
        return self._sources.source(self.file.src_uri)

    def _origin(self) -> str:
        return self._sources.origin(self.file.src_uri)

    def read_source(self, config) -> None:
        other = plugins_source(self, config)
        self._read = None
        if other is not None:  # another plugin's source: MkDocs reads it as any page
            self.markdown, self.meta = front_matter.get_data(other)
            return
        meta = self._sources.light(self.file.src_uri) if self._light else None
        self._lightly = meta is not None
        if meta is not None:
            self._body = ""
            self.markdown, self.meta = self._body, self._given(meta)
            return
        page = self._source()
        self._read, self._body = page, page.body
        self.markdown, self.meta = self._body, self._given(page.meta)

    def _given(self, meta: dict) -> dict:
        """The front matter MkDocs is given: the page's, out of Material's search where the plugin
        indexes the page itself (its entries come from `sections`: see the module)."""
        if self._searched:
            meta["search"] = {"exclude": True}
        return meta

    @property
    def _ours(self) -> bool:
        """Whether MkDocs holds the page's source as this plugin gave it (read, or not read at all
        where its output is to be taken as it was), which no other plugin changed."""
        return (self._read is not None or self._lightly) and self.markdown is self._body

    @property
    def direct(self) -> bool:
        """Whether the page went to MkDocs as HTML, without a Markdown pass."""
        return self._ours and self.content is not None and self._direct

    def render(self, config, files) -> None:
        if self.reused is not None and self._ours:
            self._direct = True  # its output is taken as it was: no HTML to make
            self.content, self.toc = "", get_toc([])
            set_rendered_title(self, None)
            self.present_anchor_ids, self.links_to_anchors = set(self.reused[2]), {}
            return
        if self._lightly:  # not taken as it was after all: its text read now, as it would have been
            self._lightly = False
            try:
                page = self._source()
            except Exception as e:
                raise _failure(self, e) from e
            self._read, self._body = page, page.body
            self.markdown = self._body
        self.reused = None
        try:
            made = page_html(self._read, self._headings) if self._read is not None and \
                self.markdown is self._body else None
            if made is None:
                self._direct = False
                if self._read is not None and self._searched:
                    self.meta.pop("search", None)  # converted by MkDocs: the search plugin indexes it itself
                super().render(config, files)
                return
        except Exception as e:
            raise _failure(self, e) from e
        self._direct = True
        self.content, tokens = made
        self.toc = get_toc(tokens)
        set_rendered_title(self, None)
        self.present_anchor_ids = _anchor_ids(self.content)
        self.links_to_anchors = {}

    def set_aside(self, content: str, alone: bool = False) -> str:
        """Between MkDocs reading every page and writing each (it reads them all first), keep nothing
        of the page's text where its HTML is still as it was made (`content` is what it has become
        after every plugin's on_page_content): `take_back` reads it again from the cache when the
        page is written. A big archive never holds every page's text at once (at 1,280 games that
        was most of a build's memory); the reading costs a file's read a page. With `alone` (no
        other plugin looks at pages: `beside.usable`), its front matter too (some 1.4 kB a page),
        but the template it names, which MkDocs looks up before `take_back`. Returns the content to
        keep meanwhile."""
        if not self.direct or self.reused is not None or content is not self.content:
            return content
        self._aside = True
        self._read = self._body = None
        self.markdown = self.content = ""
        self._anchors = _FIND_AGAIN  # (`present_anchor_ids`)
        if alone:
            self._meta_aside = True
            self.meta = {"template": self.meta["template"]} if "template" in self.meta else {}
        return ""

    def take_back(self) -> None:
        """The page's HTML again, as `render` made it, before the theme renders the page."""
        if not self._aside:
            return
        self._aside = False
        try:
            page = self._read if self._read is not None else self._source()
            self._read, self._body = page, page.body
            self.markdown = self._body
            if self._meta_aside:  # as `read_source` gave it
                self._meta_aside = False
                self.meta = self._given(dict(page.meta, **self.meta))
            made = page_html(page, self._headings)
            if made is None:  # it was made so when set aside: the site's Markdown cannot have changed since
                raise ValueError("the page's headings cannot be put in place")
            self.content = made[0]
        except Exception as e:
            raise _failure(self, e) from e

    def drop(self, alone: bool = False) -> None:
        """Forget the page's text once it is written (a big archive need not hold every page), and
        the ids of its anchors where they can be found again (`present_anchor_ids`); with `alone`
        (`set_aside`), its front matter and table of contents too, which nothing reads after."""
        again = self._direct and self.reused is None and self._read is not None
        self._read = self._body = None
        self.markdown, self.content = "", ""
        if again:
            self._anchors = _FIND_AGAIN
        if alone:
            self.meta, self.toc = {}, _NO_TOC

    @property
    def present_anchor_ids(self) -> set[str] | None:
        """The ids of the page's anchors. MkDocs asks for them after writing every page (to check a
        hand-written page's links to an anchor of this one), which is rare; a page handed over as
        HTML lets them go while it is set aside and once written (`set_aside`, `drop`: hundreds a
        season page, some 30 MB at 1,280 games) and finds them again, in its HTML or from the
        cache, if it is asked."""
        if self._anchors is _FIND_AGAIN:
            self._anchors = None
            try:
                made = self.content if self.content else page_html(self._source(), self._headings)
            except Exception as e:
                raise _failure(self, e) from e
            self._anchors = None if made is None else _anchor_ids(made if isinstance(made, str) else made[0])
        return self._anchors  # type: ignore[return-value]  # (found again above)

    @present_anchor_ids.setter
    def present_anchor_ids(self, ids: set[str] | None) -> None:
        self._anchors = ids


#: a page's anchors let go, to be found again if MkDocs asks (`GeneratedPage.present_anchor_ids`)
_FIND_AGAIN = object()
#: a written page's table of contents, let go (`GeneratedPage.drop`)
_NO_TOC = get_toc([])


def _anchor_ids(content: str) -> set[str]:
    return {html.unescape(a or b) for a, b in _ID.findall(content)}


def _failure(page: GeneratedPage, e: Exception) -> PluginError:
    log.debug("dipgen: %s", page.file.src_uri, exc_info=True)
    return PluginError(failure(page._origin(), e, f"rendering the page {page.file.src_uri}", NESTED))


# ----------------------------------------------------------------------------- search

_KEEP = frozenset({"p", "code", "pre", "li", "ol", "ul", "sub", "sup"})  # the tags Material keeps in the text
#: tags inside a line of text (nothing between words); any other tag parts words, as a table cell does
_INLINE = frozenset({"a", "abbr", "b", "bdi", "del", "em", "i", "ins", "kbd", "mark", "s", "small", "span",
                     "strong", "time", "u"})
_SKIPPED = re.compile(r"<(script|style|object)\b.*?</\1\s*>", re.S | re.I)
_PERMALINK = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.S)
_TAG = re.compile(r"""<(/?)([A-Za-z][A-Za-z0-9]*)(?:[^>"']|"[^"]*"|'[^']*')*>""")
_EMPTY = re.compile(r"<(p|code|pre|li|ol|ul|sub|sup)>\s*</\1>")


@dataclass
class Section:
    """A part of a page for the search index, as Material's search plugin takes it: the id of
    the heading it starts at (None: the top of the page), its title and its text (HTML-escaped,
    with the few tags the index keeps), each as a list of strings."""

    id: str | None
    title: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    def is_excluded(self) -> bool:
        return False


_ATTRS = r"""(?:[^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*)>"""
#: the tags the index keeps, made bare; inline tags dropped; any other tag a space (as `_text` says)
_KEPT_TAG = re.compile(r"<(/?)(p|code|pre|li|ol|ul|sub|sup)(?![A-Za-z0-9>])" + _ATTRS)  # a bare one stays
_INLINE_TAG = re.compile(r"</?(?:a|abbr|b|bdi|del|em|i|ins|kbd|mark|s|small|span|strong|time|u)(?![A-Za-z0-9])"
                         + _ATTRS)
_OTHER_TAG = re.compile(r"</?(?!(?:p|code|pre|li|ol|ul|sub|sup)>)[A-Za-z][A-Za-z0-9]*" + _ATTRS)
_UPPER = re.compile(r"</?[A-Z]")


def _tags(chunk: str) -> str:
    """`chunk`'s tags as the index has them: each a pass of the regular-expression engine, where
    dipgen's own lower-case markup allows (a tag by tag reading otherwise)."""
    if _UPPER.search(chunk):
        return _tags_each(chunk)
    return _OTHER_TAG.sub(" ", _INLINE_TAG.sub("", _KEPT_TAG.sub(r"<\1\2>", chunk)))


def _tags_each(chunk: str) -> str:
    """`_tags`, a tag at a time (any case)."""
    def tag(m: re.Match) -> str:
        name = m.group(2).lower()
        return f"<{m.group(1)}{name}>" if name in _KEEP else "" if name in _INLINE else " "
    return _TAG.sub(tag, chunk)


def _text(chunk: str) -> str:
    """The text of some of dipgen's own markup, as the search index holds it."""
    out = html.escape(html.unescape(_tags(_SKIPPED.sub(" ", chunk)).replace("<", "\0").replace(">", "\1")),
                      quote=False).replace("\0", "<").replace("\1", ">")
    out = " ".join(out.split())  # every run of white space one space (as re's \s+ finds them, in C)
    for name in _KEEP:  # no space just inside a kept tag (plain replacing: cheaper than a pattern's templates)
        out = out.replace(f"<{name}> ", f"<{name}>")
    for name in _KEEP:
        out = out.replace(f" </{name}>", f"</{name}>")
    while True:
        shorter = _EMPTY.sub("", out)
        if shorter == out:
            return out.strip()
        out = shorter


def sections(content: str) -> list[Section]:
    """The sections of a generated page's HTML: the top of the page, then one for each heading
    with an id, with its text up to the next one (as Material's search plugin divides a page)."""
    out = [Section(None)]
    pos = 0
    for m in _HEADING.finditer(content):
        ids = _ID.search(m.group(0)[:m.group(0).index(">") + 1])
        if ids is None:
            continue
        out[-1].text.append(_text(content[pos:m.start()]))
        title = _text(_PERMALINK.sub("", m.group(0))).replace("<p>", "").replace("</p>", "")
        out.append(Section(html.unescape(ids.group(1) or ids.group(2)), [title]))
        pos = m.end()
    out[-1].text.append(_text(content[pos:]))
    return out


def index_page(index, page: GeneratedPage, whole: bool = True) -> None:
    """Give Material's search index the entries of a generated page (see the module); not `whole`,
    only its entry of the page itself, without text, where the index only lists the pages
    (`dipgen.mkdocs.pagefind` indexes their text from the site): a big archive need not hold the
    text of every page in memory till the end of the build."""
    for section in sections(page.content or "") if whole else [Section(None)]:
        index.create_entry_for_section(section, page.toc, page.url, page)

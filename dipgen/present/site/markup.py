"""The Markdown of game files (description, press, GM notes), made safe to publish.

Every game file is hostile input: press is written by players, and any script in it would
run on the public site, where all the project sites of one GitHub user share one origin
(and the players' private pages with it). So the text is rendered here, not by MkDocs:
Python-Markdown turns it into HTML and `nh3` (the Ammonia sanitiser) keeps only what a GM
uses (emphasis, lists, links, tables, images, quotes, code, headings, admonitions) and drops
everything else: scripts, styles, frames, objects, SVG, forms, event handlers, ``style``
(but a table cell's alignment), ``id`` and ``class`` (but the admonitions'), and any URL
that is not http(s), mailto or relative (an image: https or relative only).

The result goes into the page as a raw HTML block (`embed`), which MkDocs' own Markdown pass
leaves as it is. Relative URLs are resolved here too (`Links`): MkDocs never sees them.

Hostile Markdown must not hang or crash the build either. Python-Markdown recurses once per
level of nesting and is quadratic on some inputs, so a field is refused, with its file and
line, when it is longer, more deeply nested or fuller of ``[`` and ``<`` than `LIMITS` allow.
"""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

import markdown
import nh3
from markupsafe import Markup

from dipgen.core.errors import GameError, Problem
from dipgen.present.site.links import href

MAX_CHARS = 50_000    # characters in one field
MAX_LINES = 2_000     # lines in one field
MAX_DEPTH = 16        # levels of quotes, lists and admonitions
MAX_BRACKETS = 1_000  # '[' in one field: links, images
MAX_ANGLES = 500      # '<' in one field: HTML tags, autolinks

EXTENSIONS = ["tables", "fenced_code", "def_list", "admonition", "sane_lists"]


@lru_cache(maxsize=1)
def _converter() -> markdown.Markdown:
    """One converter a process, `reset` before each text (making one costs more than converting a
    season's press)."""
    return markdown.Markdown(extensions=EXTENSIONS, output_format="html")


#: the texts `_html` keeps, and the longest it keeps (some 5 MB at most; longer ones are converted each time)
KEPT_TEXTS, KEPT_CHARS = 512, 8192


def _html(text: str) -> str:
    """`text` converted by Python-Markdown (before it is sanitised), once a process where it is not
    long: a hidden game's press is on its public page and in every seat's private page, and
    `removed` reads it too. A RecursionError (text nested too deeply) is raised each time."""
    return _kept_html(text) if len(text) <= KEPT_CHARS else _converter().reset().convert(text)


@lru_cache(maxsize=KEPT_TEXTS)
def _kept_html(text: str) -> str:
    return _converter().reset().convert(text)


TAGS = {"a", "abbr", "b", "blockquote", "br", "caption", "code", "dd", "del", "details", "div", "dl", "dt", "em",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q",
        "s", "samp", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th",
        "thead", "tr", "u", "ul"}
ATTRIBUTES = {"a": {"href", "title"}, "img": {"src", "alt", "title", "width", "height"}, "abbr": {"title"},
              "ol": {"start"}, "th": {"style", "colspan", "rowspan"}, "td": {"style", "colspan", "rowspan"}}
#: removed with everything inside them (other unknown tags are dropped, their text kept)
DROPPED = {"script", "style", "template", "iframe", "object", "embed", "svg", "math", "noscript", "textarea",
           "select", "title", "noembed", "noframes", "xmp", "frameset", "applet"}
ADMONITIONS = {"admonition", "note", "abstract", "info", "tip", "success", "question", "warning", "failure",
               "danger", "bug", "example", "quote"}
CLASSES = {"div": ADMONITIONS, "p": {"admonition-title"}}
SCHEMES = {"http", "https", "mailto"}

_MARKER = re.compile(r"(?:>|[-*+](?=\s|$)|\d{1,9}[.)](?=\s|$)|!!!|\?\?\?|:(?=\s))\s*")
_FENCE = re.compile(r"\s*(```|~~~)")
_SPACE = re.compile(r"[\x00-\x20]+")


@dataclass(frozen=True)
class Links:
    """How relative URLs in game Markdown are read: as in a Markdown page in the game's folder
    of the site (``games/<slug>/``), whichever page shows the text. ``1901-spring.md`` and
    ``index.md`` are the game's own pages (in the edition being built); anything else relative
    must be a page or file of the hand-written site (`docs_dir`; not checked when None) or one of
    the pages dipgen adds to it (`provided`), e.g. ``../../about.md``, ``../../rules/stab.md``.

    page: the source path of the page being built; folder: the game's folder; edition: the
    folder of the edition being built (the same, or ``.../full/``); pages: the names of the
    edition's pages (``index.md``, ``1901-spring.md``); archive: the archive page."""

    page: str
    folder: str
    edition: str
    pages: frozenset[str]
    archive: str
    docs_dir: str | None = None
    directory_urls: bool = True
    provided: frozenset[str] = frozenset()

    def resolve(self, url: str) -> tuple[str | None, str]:
        """(the URL to publish, '') or (None, what is wrong with it)."""
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path:
            return url, ""  # an absolute URL (its scheme is nh3's business), or '#anchor' / '?query'
        tail = ("?" + parts.query if parts.query else "") + ("#" + parts.fragment if parts.fragment else "")
        if parts.path.startswith("/"):
            return None, (f"the link {url!r} starts with '/', which leaves the site on GitHub Pages; "
                          "write it relative to the game's folder, e.g. 1901-spring.md or ../../about.md")
        target = posixpath.normpath(posixpath.join(self.folder, parts.path))
        name = posixpath.relpath(target, self.folder.rstrip("/"))
        if "/" not in name and name in self.pages:  # 1901-spring.md is built from 1901-spring/index.md
            page = name if name == "index.md" else name[:-3] + "/index.md"
            return href(self.page, self.edition + page, self.directory_urls) + tail, ""
        if "/" not in name and name.endswith(".md"):
            return None, (f"the link {url!r} names no page of this game (its pages are index.md and one per "
                          "phase the site shows, such as 1901-spring.md)")
        if target == self.archive or (not target.startswith("../") and (
                self.docs_dir is None or target in self.provided  # None: not known here
                or (Path(self.docs_dir) / target).is_file())):
            return href(self.page, target, self.directory_urls) + tail, ""
        return None, (f"the link {url!r} points nowhere: {target} is neither a page of this game nor a file of "
                      "the site's hand-written pages")


def _line(text: str, start: int | None, index: int) -> int | None:
    return start + text.count("\n", 0, index) if start else None


def _structure(text: str, what: str, file: str, start: int | None) -> list[Problem]:
    """Problems with the size and nesting of `text`, found before Python-Markdown sees it."""
    fix = "split it, or move part of it to another season's notes"
    problems = []
    if len(text) > MAX_CHARS:
        problems.append(Problem(file, start, f"in the {what}: {len(text)} characters, at most {MAX_CHARS}", fix,
                                code="press-too-long"))
    lines = text.split("\n")
    if len(lines) > MAX_LINES:
        problems.append(Problem(file, start, f"in the {what}: {len(lines)} lines, at most {MAX_LINES}", fix,
                                code="press-too-long"))
    for char, most, kind in (("[", MAX_BRACKETS, "links and images"), ("<", MAX_ANGLES, "HTML tags")):
        if text.count(char) > most:
            problems.append(Problem(file, start, f"in the {what}: {text.count(char)} '{char}' ({kind}), at most {most}",
                                    "write fewer, or put the text in a code block", code="press-too-long"))
    if problems:
        return problems
    fenced = False
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        expanded = line.expandtabs(4)
        rest = expanded.lstrip(" ")
        indent, markers = len(expanded) - len(rest), 0
        while (m := _MARKER.match(rest)) and m.end():
            markers, rest = markers + 1, rest[m.end():]
        if markers and indent // 4 + markers > MAX_DEPTH:
            return [Problem(file, start + number if start else None,
                            f"in the {what}: nested {indent // 4 + markers} levels deep here (quotes '>', lists, "
                            f"indented blocks), at most {MAX_DEPTH}", "flatten the quotes or lists",
                            code="press-too-deep")]
    return []


def render(text: str, what: str, file: str, links: Links | None = None) -> Markup:
    """`text` (a field of a game file; its line from ``Text.line``) as sanitised HTML.

    Raises GameError naming the file and line of every problem: a field too long or too deeply
    nested to render, a relative link that points nowhere."""
    start = getattr(text, "line", None) or None
    problems = _structure(text, what, file, start)
    if problems:
        raise GameError(problems)
    try:
        html = _html(str(text))
    except RecursionError:
        raise GameError([Problem(file, start, f"in the {what}: nested too deeply to render",
                                 "flatten the quotes or lists", code="press-too-deep")]) from None

    def relative(url: str) -> str | None:
        if links is None:
            return url
        out, wrong = links.resolve(url)
        if wrong:
            index = text.find(url)
            problems.append(Problem(file, _line(text, start, index) if index >= 0 else start,
                                    f"in the {what}, {wrong}",
                                    "fix the path, or link to a full address (https://...)", code="bad-link"))
        return out

    def attribute(tag: str, name: str, value: str) -> str | None:
        if tag == "img" and name == "src" and _SPACE.sub("", value).lower().startswith("http:"):
            return None  # images over https only: an http one is blocked as mixed content anyway
        return value

    def sanitise(html: str, url_relative: Callable[[str], str | None] | None = None) -> str:
        return nh3.clean(html, tags=TAGS, clean_content_tags=DROPPED, attributes=ATTRIBUTES,
                         attribute_filter=attribute, link_rel="noopener noreferrer nofollow ugc", url_schemes=SCHEMES,
                         allowed_classes=CLASSES, filter_style_properties={"text-align"}, url_relative=url_relative)

    # twice: nh3 shows `relative` the URLs of elements it then drops; the second pass sees only what is kept
    clean = sanitise(sanitise(html), url_relative=relative)
    if problems:
        raise GameError(problems)
    return Markup(clean.strip())


class _Removed(HTMLParser):
    """What the sanitiser (`render`) takes out of a field's HTML, as a GM would name it: a tag it
    drops (with everything inside, for `DROPPED`), an event handler, an address of a scheme it
    refuses. Presentational attributes it drops (class, id, style) change nothing a reader reads."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[tuple[str, ...], str]] = []  # (what to look for in the text, what was removed)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            self.found.append(((f"<{tag}",), f"<{tag}>" + (" and everything inside it" if tag in DROPPED else "")))
            return
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(((name,), f"the script {name}= of <{tag}>"))
            elif name in ("href", "src") and value is not None:
                url = _SPACE.sub("", value)
                scheme = urlsplit(url).scheme.lower() if ":" in url else ""
                if (scheme and scheme not in SCHEMES) or (tag == "img" and scheme == "http"):
                    what = f"the {'image' if tag == 'img' else 'link'} to {value[:40]!r}"
                    self.found.append(((value[:40], f"<{tag}", "](", "<"), what))  # as written, or its tag

    handle_startendtag = handle_starttag


def removed(text: str) -> list[tuple[int | None, str]]:
    """What publishing `text` (a field of a game file; its line from ``Text.line``) leaves out of
    what its writer wrote: (the line, what), for the GM to be told. Empty for text that is
    refused (`render` says why) or that loses nothing."""
    start = getattr(text, "line", None) or None
    if "<" not in text and ":" not in text or _structure(text, "text", "", start):
        return []
    try:
        html = _html(str(text))
    except RecursionError:
        return []
    parser = _Removed()
    parser.feed(html)
    parser.close()
    out = []
    low = text.lower()
    for needles, what in parser.found:
        index = next((i for i in (low.find(n.lower()) for n in needles) if i >= 0), -1)
        out.append((_line(text, start, index) if index >= 0 else start, what))
    return list(dict.fromkeys(out))

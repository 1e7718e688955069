"""A generated page, in the form every generator reads and in pieces a plugin can hand over as HTML.

The page templates (``templates/*.html``) write HTML blocks, and each heading of the page's table
of contents through `heading`, which marks it. `SitePage.make` turns that into the page as a
Markdown file: front matter (its title; the theme's navigation and table of contents hidden),
then the HTML blocks as they are and each heading as a Markdown line (``## Supply centres``),
so that the generator gives headings the ids and permalinks it gives every heading of the site.
That text is what `dipgen export` writes and what any generator converts.

A `SitePage` is that text (a ``str``), and it also knows where its headings are: `pieces` gives
the HTML blocks and the headings apart, without reading the text again, so that the MkDocs
plugin can give MkDocs the page's HTML directly (`dipgen.mkdocs.speed.pages`) instead of
having Python-Markdown convert HTML it would only copy. For that to show the same page, every
block of a template must be HTML that Markdown leaves as it is (block-level elements, from the
first character of a line): tests compare both ways on every example page.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from collections.abc import Iterator, Mapping, Sequence

from markupsafe import Markup

#: what the theme hides on a generated page (Material: the site's navigation and the page's contents)
HIDE = ("navigation", "toc")

_MARK = re.compile(r'^<h([1-6]) data-dg-heading>([^<>\n]*)</h\1>$', re.M)


#: a tag: whether it closes, its name, and what follows the name (``/`` last: it closes itself)
_TAG = re.compile(r"""<(/?)([A-Za-z][A-Za-z0-9]*)([^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*)>""")
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                   "wbr"})
_RUN = re.compile(r"\n{3,}")
_KEY = re.compile(r"[a-z_]+")  # a key of `front_matter`'s head (one a cache file may name)


def _top_runs(text: str, start: int) -> tuple[tuple[int, int], ...]:
    """Where, after `start`, blank lines run between top-level blocks: Markdown makes each such run
    one blank line (inside a block, it keeps them as they are). The tags are read a stretch at a
    time, from one run to the next (most pages have none, or two or three)."""
    if text.find("\n\n\n", start) < 0:
        return ()
    out, depth, pos = [], 0, start
    for run in _RUN.finditer(text, start):
        if text.rfind("<", pos, run.start()) > text.rfind(">", pos, run.start()):
            return _top_runs_inside_tags(text, start)  # a run inside a tag (an attribute's value)
        for closing, name, rest in _TAG.findall(text, pos, run.start()):
            if closing:
                depth -= 1
            elif not rest.endswith("/") and name.lower() not in _VOID:
                depth += 1
        pos = run.start()
        if depth <= 0:
            out.append((run.start(), run.end()))
    return tuple(out)


def _top_runs_inside_tags(text: str, start: int) -> tuple[tuple[int, int], ...]:
    """`_top_runs` where a run may fall inside a tag: every tag read whole, in order."""
    out, depth, i = [], 0, 0
    tags = [(t.end(), -1 if t.group(1) else 0 if t.group(3).endswith("/") or t.group(2).lower() in _VOID else 1)
            for t in _TAG.finditer(text, start)]
    for run in _RUN.finditer(text, start):
        while i < len(tags) and tags[i][0] <= run.start():
            depth += tags[i][1]
            i += 1
        if depth <= 0:
            out.append((run.start(), run.end()))
    return tuple(out)


def _blank_lines(text: str) -> str:
    """`text` with blank lines between top-level blocks made one, as Markdown lays it out."""
    return _collapsed(text, 0, _top_runs(text, 0))


def _collapsed(text: str, start: int, runs) -> str:
    """`text` (which starts at `start` of the page) with the `runs` in it made one blank line."""
    out, pos = [], 0
    for a, b in runs:
        if start <= a and b <= start + len(text):
            out.append(text[pos:a - start] + "\n\n")
            pos = b - start
    out.append(text[pos:])
    return "".join(out)


def heading(text: str, level: int = 2) -> Markup:
    """A heading of a page, for its templates: a line of its own, which `SitePage.make` makes a
    Markdown heading. `text` is plain text (escaped here)."""
    return Markup(f"<h{level} data-dg-heading>{html.escape(str(text), quote=False)}</h{level}>")


@dataclass(frozen=True)
class Heading:
    """A heading of a page: its level and its text as a Markdown line has it (``&``, ``<`` and ``>``
    escaped, so that the generator reads them as text)."""

    level: int
    text: str

    @property
    def markdown(self) -> str:
        return "#" * self.level + " " + self.text


def front_matter(title: str, hide: Sequence[str] = HIDE, head: Mapping[str, str] | None = None) -> str:
    """The front matter of a generated page. Its title is HTML-escaped, as the themes insert it
    unescaped (the page's ``<title>``, the header), and quoted as a JSON string (which YAML reads);
    `head` (`dipgen.present.site.head.head_meta`) is written after it as it is, each value quoted alike."""
    return (f"---\ntitle: {json.dumps(html.escape(title, quote=False), ensure_ascii=False)}\n"
            + "".join(f"{k}: {json.dumps(v, ensure_ascii=False)}\n" for k, v in (head or {}).items())
            + "hide:\n" + "".join(f"  - {h}\n" for h in hide) + "---\n\n")


class SitePage(str):
    """A generated page as a Markdown file (see the module), with its title, what it hides and
    where its headings are. Make one with `make`, or `restore` one from what `state` gave."""

    name: str                                 # its title, plain text (`str.title` is a method)
    hide: tuple[str, ...]
    head: dict[str, str]                      # the front matter's other keys (`front_matter`)
    _spans: tuple[tuple[int, int, int], ...]  # (start, end, level) of each heading line in the text
    _body: int                                # where the body starts (after the front matter)
    _runs: tuple[tuple[int, int], ...]        # blank lines between top-level blocks (`_top_runs`)

    @classmethod
    def make(cls, title: str, body: str, hide: Sequence[str] = HIDE,
             head: Mapping[str, str] | None = None) -> SitePage:
        """The page titled `title` (plain text) whose body is `body`, a template's output; `head`:
        the front matter's keys for the page's ``<head>`` (`dipgen.present.site.head.head_meta`)."""
        front = front_matter(title, hide, head)
        out, spans, at, pos = [front], [], len(front), 0
        for m in _MARK.finditer(body):
            out.append(body[pos:m.start()])
            at += m.start() - pos
            line = Heading(int(m.group(1)), m.group(2)).markdown
            out.append(line)
            spans.append((at, at + len(line), int(m.group(1))))
            at += len(line)
            pos = m.end()
        out.append(body[pos:])
        text = "".join(out)
        return cls._new(text, title, hide, head, spans, len(front), _top_runs(text, len(front)))

    @classmethod
    def _new(cls, text: str, title: str, hide, head, spans, body: int, runs) -> SitePage:
        page = super().__new__(cls, text)
        page.name, page.hide, page._spans, page._body = title, tuple(hide), tuple(spans), body
        page.head = dict(head or {})
        page._runs = tuple(runs)
        return page

    def pieces(self) -> Iterator[str | Heading]:
        """The body in order: each run of HTML between headings (a str), and each `Heading`."""
        pos = self._body
        for start, end, level in self._spans:
            yield _collapsed(self[pos:start], pos, self._runs)
            yield Heading(level, self[start + level + 1:end])
            pos = end
        yield _collapsed(self[pos:], pos, self._runs)

    @property
    def body(self) -> str:
        """The page without its front matter, as a generator reads its Markdown."""
        return self[self._body:]

    def heading_lines(self) -> list[int]:
        """The numbers (from 0) of the body's lines that are headings, counted as a generator reads
        the body: after the front matter and the blank lines that follow it."""
        body = self.body
        lead = len(body) - len(body.lstrip("\n"))
        return [self[self._body + lead:start].count("\n") for start, _end, _level in self._spans]

    @property
    def meta(self) -> dict:
        """The front matter as a generator reads it."""
        return self.meta_of(self.state_without_text())

    @staticmethod
    def meta_of(state: Mapping) -> dict:
        """`meta` of the page whose `state` (its text left out, as a cache keeps it) this is."""
        return {"title": html.escape(state["title"], quote=False), **state["head"], "hide": list(state["hide"])}

    def state_without_text(self) -> dict:
        return {"title": self.name, "hide": list(self.hide), "head": self.head}

    def state(self) -> dict:
        """What `restore` needs, as JSON data."""
        return {"text": str(self), "title": self.name, "hide": list(self.hide), "head": self.head,
                "headings": [list(s) for s in self._spans], "runs": [list(r) for r in self._runs]}

    @classmethod
    def restore(cls, state) -> SitePage:
        """The page `state` describes. ValueError unless it is exactly a page `make` could have made:
        the text starts with the front matter of its title, and each heading is a whole line where
        it is said to be, in order (a cache file is read with this, and trusted no further)."""
        try:
            text, title, hide, spans = state["text"], state["title"], tuple(state["hide"]), state["headings"]
            head = state["head"]
            if not (isinstance(text, str) and isinstance(title, str) and all(isinstance(h, str) for h in hide)
                    and isinstance(head, dict) and all(isinstance(k, str) and _KEY.fullmatch(k) and isinstance(v, str)
                                                  for k, v in head.items())):
                raise TypeError
            spans = [tuple(int(x) for x in span) for span in spans]
            runs = [(int(a), int(b)) for a, b in state["runs"]]
        except (KeyError, TypeError, ValueError):
            raise ValueError("not the state of a page") from None
        front = front_matter(title, hide, head)
        if not text.startswith(front):
            raise ValueError("the text does not start with its front matter")
        pos = len(front)
        for start, end, level in spans:
            line = text[start:end]
            if (not pos <= start < end <= len(text) or not 1 <= level <= 6 or text[start - 1] != "\n"
                    or text[end:end + 1] not in ("\n", "") or not line.startswith("#" * level + " ")
                    or "\n" in line or "<" in line or ">" in line):
                raise ValueError("a heading is not where the page says")
            pos = end
        at = len(front)
        for a, b in runs:
            if not at <= a < b <= len(text) or b - a < 3 or text[a:b].strip("\n") or \
                    any(a < end and start < b for start, end, _ in spans):
                raise ValueError("a run of blank lines is not where the page says")
            at = b
        return cls._new(text, title, hide, head, spans, len(front), runs)

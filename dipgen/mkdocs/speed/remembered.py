"""Under plain `mkdocs serve`: a hand-written page is not converted again while nothing it is
made from has changed.

MkDocs converts every page's Markdown on every rebuild. The generated pages skip that
(`dipgen.mkdocs.speed.reuse`); the hand-written ones (the home page, the rules, about) are few but
long, and a GM who edits a phase file rebuilds them all each time. A page's HTML, table of
contents, title, anchors and links are a function of its Markdown (after every plugin's
``on_page_markdown``), of the rest of the site (`state`: mkdocs.yml, the docs and theme folders,
what serve watches, the plugin's settings) and of which files the site has (a link resolves, or
warns, by them). Where all three are as at an earlier build of this process, the page takes what
that build made, and says again what MkDocs said while converting it (a broken link's warning:
`--strict` counts it again); Material's search index gets the entries it had then (`watch`), rather
than parsing the page again. Only where no other plugin reads or changes pages (`_alone`), and not
under ``-v`` (MkDocs keeps other things about a page's links then).
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from dipgen.mkdocs.speed.internals import rendered_title, set_rendered_title


@dataclass
class _Made:
    content: str
    toc: object
    title: str | None
    anchors: set[str] | None
    links: dict[str, dict[str, str]] | None  # by the source path of the file linked to
    said: list[logging.LogRecord]
    #: the page's search entries (Material's index), by its front matter (which sets their boost and tags)
    #: and its HTML as the search read it
    entries: dict[tuple[str, str], list] = field(default_factory=dict)


class Remembered:
    def __init__(self) -> None:
        self._made: dict[tuple[str, str, str], _Made] = {}
        self._state: str | None = None
        self._key: tuple[str, str, str] | None = None  # the page being converted, to remember
        self._said: list[logging.LogRecord] = []
        self._taken: dict[str, tuple[_Made, str]] = {}  # this build's pages taken as made: (it, their Markdown)
        self._used: set[tuple[str, str, str]] = set()  # what this build made or took (the rest goes at its end)
        self._handler: _Listener | None = None
        self._now: dict[str, _Made] = {}  # this build's hand-written pages, made or taken, by their source

    def begin(self, state: str | None, files, unheard: Callable[[str], bool] = lambda uri: False) -> None:
        """A build's pages are about to be converted. `state`: what `Reuse.state` says of the site
        (None: this build neither takes nor keeps anything); `files`: every file of the build but
        those no page's link can reach (`unheard`: an unchanged game may not be given at all)."""
        self._listen(False)
        self._key, self._said, self._taken, self._used, self._now = None, [], {}, set(), {}
        if state is None or logging.getLogger("mkdocs").getEffectiveLevel() <= logging.DEBUG:
            self._state = None
            return
        digest = hashlib.sha256(state.encode())
        for f in files:
            if unheard(f.src_uri):
                continue
            digest.update(f"\0{f.src_uri}\0{f.url}".encode())
        self._state = digest.hexdigest()
        self._listen(True)

    def end(self) -> None:
        """The build is over (or failed): stop listening, and keep only what this build made or took
        (a long serve session would otherwise keep every version of every page)."""
        self._listen(False)
        if self._state is not None:
            self._made = {key: made for key, made in self._made.items() if key in self._used}
        self._key, self._said, self._taken, self._used, self._state, self._now = None, [], {}, set(), None, {}

    def watch(self, index) -> None:
        """Give Material's search `index` (None: the site has none) the entries a page taken as made
        had when it was last indexed, where its front matter and its HTML as the search reads it are
        the same (its table of contents, title and address are: they come with the HTML from its
        Markdown; what a later hook put in the HTML, the games' cards, may have changed), rather than
        have the search plugin parse it again."""
        if index is None or self._state is None:
            return
        add = index.add_entry_from_context

        def add_entry(page) -> None:
            made = self._now.get(page.file.src_uri)
            if made is None:
                return add(page)
            key = (repr(page.meta), page.content)
            entries = made.entries.get(key)
            if entries is not None:
                index.entries.extend(entries)
                return
            before = len(index.entries)
            add(page)
            made.entries = {key: index.entries[before:]}
        index.add_entry_from_context = add_entry

    def _listen(self, on: bool) -> None:
        if self._handler is not None:
            for name in _HEARD:
                logging.getLogger(name).removeHandler(self._handler)
        self._handler = _Listener(self) if on else None
        if self._handler is not None:
            for name in _HEARD:
                logging.getLogger(name).addHandler(self._handler)

    def markdown(self, page, markdown: str) -> str:
        """Before MkDocs converts `page` (a hand-written one): the Markdown to convert, "" where
        the page is taken as made before (`content` puts it in place)."""
        self._key, self._said = None, []
        if self._state is None:
            return markdown
        key = (page.file.src_uri, markdown, self._state)
        made = self._made.get(key)
        if made is None:
            self._key = key
            return markdown
        self._taken[page.file.src_uri] = (made, markdown)
        self._used.add(key)
        for record in made.said:
            logging.getLogger(record.name).handle(record)
        return ""

    def content(self, page, html: str, files) -> str:
        """After MkDocs converted `page`: the page's HTML, and its table of contents, title, anchors
        and links put back where it was taken as made before; else remembered."""
        taken = self._taken.pop(page.file.src_uri, None)
        if taken is not None:
            made, page.markdown = taken
            page.toc, page.present_anchor_ids = made.toc, made.anchors
            set_rendered_title(page, made.title)
            if made.links is not None:
                known = files.src_uris
                page.links_to_anchors = {known[uri]: links for uri, links in made.links.items() if uri in known}
            self._now[page.file.src_uri] = made
            return made.content
        if self._key is not None and self._key[0] == page.file.src_uri:
            links = None if page.links_to_anchors is None else {
                f.src_uri: dict(v) for f, v in page.links_to_anchors.items()}
            self._made[self._key] = self._now[page.file.src_uri] = _Made(
                html, page.toc, rendered_title(page), set(page.present_anchor_ids or ()), links, list(self._said))
            self._used.add(self._key)
        self._key, self._said = None, []
        return html


#: where what is said while a page is converted is heard: MkDocs's loggers (which MkDocs's command
#: line keeps from passing records on) and the root (Markdown's and its extensions' loggers)
_HEARD = ("mkdocs", "")


class _Listener(logging.Handler):
    """What is said (INFO and up) in this thread while a page is converted, each record once."""

    def __init__(self, owner: Remembered) -> None:
        super().__init__(logging.INFO)
        self._owner, self._thread = owner, threading.get_ident()

    def emit(self, record: logging.LogRecord) -> None:
        said = self._owner._said
        if self._owner._key is not None and record.thread == self._thread and not (said and said[-1] is record):
            said.append(record)

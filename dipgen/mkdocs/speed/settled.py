"""Under plain `mkdocs serve`: a game that did not change, in a site that did not change otherwise,
is not given to MkDocs at all.

`reuse` spares MkDocs the rendering of an unchanged page, but MkDocs still makes a `File` for every
file and a `Page` for every page of every game on each rebuild, and the plugin, the search and the
garbage collector walk them all: an edit cost some 10 ms a game. Here a game whose cache entry is
the one the last complete build of this process put in the site (the same key: the same files, the
same output), with the rest of the site as it was (`Reuse.state`), is *withheld*: none of its files
goes to MkDocs, and its folder moves from the last site into the new one whole as the build ends
(`Reuse.take_whole`). What MkDocs would have made of its pages elsewhere is put back from what the
last build recorded of them:

- the sitemap lists them where a full build lists them (`sitemap`: stand-ins for their pages in
  the template's ``pages``, in their places among the rest);
- Material's search index gets their entries where a full build puts them (given before the page
  they came before, or after the last page), and its file their JSON copied from the last build's
  file, where the last build recorded it (`write_docs`, `dipgen.mkdocs.speed.docsfile`);
- the nav never lists them (a game's pages are outside it), and no link elsewhere is resolved
  against them: a game whose folder name a hand-written page, or mkdocs.yml, mentions is not
  withheld (MkDocs resolves and checks those links), nor one where any file of the site shadows one
  of the game's or lands in its folder.

A game is withheld only where no plugin but dipgen and Material's search acts on files, pages or
templates (another might want to see them), and only with a staged build (the last site is where
it was). Anything else (a first build, a failed one, a changed game) goes the usual way. The last
site's folder is the server's own (a temporary folder MkDocs made), so it is trusted as that build
left it: nothing but a build writes there.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from mkdocs.utils import get_build_date

from dipgen.mkdocs.search import DOCS, split_of
from dipgen.mkdocs.speed import docsfile
from dipgen.mkdocs.speed.docsfile import Written
from dipgen.mkdocs.speed.internals import mkdocs_sitemap
from dipgen.mkdocs.speed.sitemap import Form, StandIn
from dipgen.mkdocs.speed.partials import only_listeners

#: the events a plugin that sees files, pages or templates listens to
_EVENTS = ("files", "nav", "env", "pre_page", "page_read_source", "page_markdown", "page_content",
           "page_context", "post_page", "pre_template", "template_context", "post_template")
_SEARCH = "material.plugins.search"  # the one other listener allowed: the layer gives its index the entries
_WORDS = re.compile(r"[\s()\[\]<>\"'`/#?=:,|{}]+")


@dataclass
class _Kept:
    """A game's folder as a complete build put it in the site."""

    key: str          # the game's cache entry (`Stored.key`): the same key, the same files
    folder: str       # its folder in the site: ``games/alpha/``
    dests: list[str]  # every file of it, by its path in the site
    #: each page, by its source path: its canonical and absolute addresses (the sitemap's) and its
    #: search entries
    pages: dict[str, tuple[str | None, str | None, list]] = field(default_factory=dict)
    #: every page's search entries, in order, and where the last build's search documents have
    #: them (`docsfile`): offset and length, if together
    entries: list = field(default_factory=list)
    at: tuple[int, int] | None = None
    lines: str = ""  # its pages' text in the sitemap (`sitemap.Form`)...
    date: str = ""   # ... on that date


@dataclass
class _Building:
    """What this build gave MkDocs of one game, as it goes."""

    key: str
    folder: str
    dests: list[str] = field(default_factory=list)
    pages: dict[str, tuple[str | None, str | None, list] | None] = field(default_factory=dict)
    at: dict[str, tuple[int, int]] = field(default_factory=dict)  # each page's entries in the documents
    lines: dict[str, str] = field(default_factory=dict)
    date: str = ""

    def kept(self) -> _Kept:
        """The game as the next build may withhold it."""
        pages = {uri: v for uri, v in self.pages.items() if v is not None}
        places = [self.at.get(uri) for uri in pages]
        return _Kept(self.key, self.folder, self.dests, pages, [e for v in pages.values() for e in v[2]],
                     _together(places), "".join(self.lines.get(uri, "") for uri in pages), self.date)


class Settled:
    def __init__(self) -> None:
        self._kept: dict[str, _Kept] = {}  # game folder -> its folder in the last complete build's site
        self._state: str | None = None     # that build's `Reuse.state`
        self._site: Path | None = None     # and its site
        self._now_state: str | None = None
        self._possible = False             # this build may withhold games (`begin`)
        self._candidates: dict[str, _Kept] = {}  # games that may be withheld, by their folder in the site
        self.withheld: dict[str, _Kept] = {}     # this build's withheld games, by their folder in the site
        self._runs: dict[str | None, list[_Kept]] = {}  # given uri -> withheld games after it
        self._building: dict[str, _Building] = {}  # this build's other games, by their folder in the site
        self._paths: dict[str, str] = {}  # folder in the site -> game folder
        self._depth = 0  # the slashes in a game's folder in the site
        self._given: set[str] = set()
        self._silent: set[str] = set()  # the games' folders in the site that no converted page mentions
        self._before: dict[str, list[_Kept]] = {}  # page -> withheld games to index before it
        self._tail: list[_Kept] = []
        self._last_page = ""
        #: this build's games' entries in the search index (start, end), a withheld game's whole (its
        #: entries as the last build wrote them), a page at a time for the others
        self._spans: list[tuple[int, int, _Kept | _Building, str]] = []
        self._docs: Written | None = None  # the search documents the last complete build wrote
        self._form: Form | None = None     # how this build's sitemap draws a page (`sitemap`)
        self._template = None              # ... its template
        self._filled: list[tuple[str, str]] = []  # each run of withheld pages: its stand-in's text, its lines
        self._listed: list = []            # ... and the sitemap's pages MkDocs gave
        self._sitemapped = False           # the site's sitemap is MkDocs's template
        self._docs_now: Written | None = None

    # ----- before the files
    def begin(self, state: str | None, site: Path | None) -> None:
        """A build starts: `state` what else a page depends on (None: not a plain serve build),
        `site` the last site, where this build can read it (None: it cannot)."""
        self._now_state = state
        self._possible = state is not None and site is not None and state == self._state and site == self._site
        self._candidates, self.withheld, self._runs, self._building, self._paths = {}, {}, {}, {}, {}
        self._before, self._tail, self._last_page, self._given, self._silent = {}, [], "", set(), set()
        self._spans = []

    def trusted(self, path: str, key: str) -> bool:
        """Whether the game at `path` (its cache entry `key`) may be withheld, so that its files in
        the cache need not be looked at (they are not read)."""
        kept = self._kept.get(path)
        return self._possible and kept is not None and kept.key == key

    def choose(self, config, plugin, games: dict[str, tuple[str, str]]) -> None:
        """`games`: each game's folder -> its cache key and its folder in the site. The candidates:
        those the last site has as this build would make them, where no other plugin looks."""
        self._sitemapped = mkdocs_sitemap(config)
        self._paths = {site_folder: path for path, (_, site_folder) in games.items()}
        self._building = {site_folder: _Building(key, site_folder) for _, (key, site_folder) in games.items()}
        self._depth = next(iter(self._paths), "").count("/")
        alone = only_listeners(config, _EVENTS, plugin, also=(_SEARCH,))  # no other plugin looks at them
        if not self._possible or self._site is None or not alone or not self._sitemapped:
            return
        for path, (key, site_folder) in games.items():
            kept = self._kept.get(path)
            if kept is not None and kept.key == key and kept.folder == site_folder \
                    and (self._site / site_folder).is_dir():
                self._candidates[site_folder] = kept

    @property
    def likely(self) -> bool:
        """Whether this build may withhold games (it has candidates)."""
        return bool(self._candidates)

    # ----- the files
    def given(self, files: dict, known, mentioned: Callable[[], Iterable[str]]) -> dict:
        """Of the generated `files` (site path -> content), those MkDocs gets: all but the withheld
        games'. `known`: MkDocs's files before the plugin's (by source path); `mentioned`: reads the text
        of every page MkDocs resolves links in and of mkdocs.yml (only under serve). Games whose folder
        they mention, or where one of them lands, are never withheld (`blocked`: not kept for the next
        build either)."""
        if self._now_state is None:
            return files
        if any(uri in files for uri in known):  # a hand-written file shadows a generated one: the plain way
            self._candidates, self._building = {}, {}
            return files
        words: set[str] = set()
        for text in mentioned():
            words.update(_WORDS.split(text))
        blocked = {folder for folder in self._paths
                   if (name := folder.rstrip("/").rsplit("/", 1)[-1]) in words or quote(name) in words}
        blocked.update(folder for f in known.values() if (folder := self._folder_of(f.dest_uri)) is not None)
        for folder in blocked:
            self._building.pop(folder, None)
        self._silent = set(self._paths) - blocked
        self.withheld = {folder: kept for folder, kept in self._candidates.items() if folder not in blocked}
        if not self.withheld:
            return files
        out, last = {}, None
        folder, kept = "\0", None  # a game's files come together: its folder looked up once
        seen: set[str] = set()
        for uri, content in files.items():
            if not uri.startswith(folder):
                folder = self._folder_of(uri) or "\0"
                kept = self.withheld.get(folder)
                if kept is not None and folder in seen:  # its files not together: not one piece, none withheld
                    self.withheld, self._runs = {}, {}
                    return files
                if kept is not None:
                    seen.add(folder)
                    self._runs.setdefault(last, []).append(kept)
            if kept is None:
                out[uri] = content
                last = uri
        for folder in self.withheld:
            self._building.pop(folder, None)
        self._given = set(out)
        return out

    def _folder_of(self, uri: str) -> str | None:
        """The game's folder in the site that `uri` is in (by its depth), if any."""
        at = -1
        for _ in range(self._depth):
            at = uri.find("/", at + 1)
            if at < 0:
                return None
        folder = uri[:at + 1]
        return folder if folder in self._paths else None

    def unheard(self, uri: str) -> bool:
        """Whether `uri` is a file of a game no page MkDocs converts mentions: no link resolves to it,
        so whether it is given to MkDocs changes no such page (`remembered`)."""
        return bool(self._silent) and self._folder_of(uri) in self._silent

    def added(self, file) -> None:
        """A file of a game given to MkDocs."""
        building = self._building.get(self._folder_of(file.src_uri) or "")
        if building is not None:
            building.dests.append(file.dest_uri)
            if file.is_documentation_page():
                building.pages[file.src_uri] = None

    def folders(self) -> dict[str, list[str]]:
        """The withheld games' folders in the site, each with its files."""
        return {folder: kept.dests for folder, kept in self.withheld.items()}

    def pages(self) -> list[str]:
        """The withheld games' pages, by their source paths."""
        return [uri for kept in self.withheld.values() for uri in kept.pages]

    # ----- the pages
    def ordered(self, files) -> None:
        """Every file of the build is known (`on_env`): where the withheld pages go among them."""
        if not self.withheld:
            return
        pending = list(self._runs.get(None, ()))
        started = False
        for f in files:
            if f.is_documentation_page() and f.inclusion.is_in_serve():
                if not started and f.src_uri in self._given:
                    started = True
                if started and pending:
                    self._before[f.src_uri], pending = pending, []
                self._last_page = f.src_uri
            if f.src_uri in self._runs and f.src_uri in self._given:
                pending.extend(self._runs[f.src_uri])
        self._tail = pending

    def learn(self, env) -> None:
        """`on_env`: how the site's sitemap draws a page today (`sitemap.Form`), under plain serve."""
        self._form = self._template = None
        if self._now_state is None or not self._sitemapped:
            return
        try:
            self._template = env.get_template("sitemap.xml")
            self._form = Form.of(self._template, get_build_date())
        except Exception:  # (no such template, one that cannot draw a stand-in): every page stands in
            self._form = None

    def sitemap(self, pages: list) -> list:
        """The sitemap's ``pages`` (MkDocs's files of the pages in the site, in order) with the
        withheld pages in their places: each run of them one stand-in, whose text `fill` replaces
        with theirs (where there is a `Form`; else a stand-in a page)."""
        self._filled, self._listed = [], pages
        if not self.withheld:
            return pages
        date = get_build_date()
        form = self._form if self._form is not None and self._form.date == date else None
        if form is None:
            return self._stood_in(pages, date)
        out: list = []
        for f in [*pages, None]:
            run = self._before.get(f.src_uri, []) if f is not None else self._tail
            if run:
                stand_in, drawn = form.run(len(self._filled))
                out.append(stand_in)
                self._filled.append((drawn, "".join(_lines(kept, form) for kept in run)))
            if f is not None:
                out.append(f)
        return out

    def _stood_in(self, pages: list, date: str) -> list:
        out: list = []
        for f in pages:
            out.extend(_stand_ins(self._before.get(f.src_uri, []), date))
            out.append(f)
        out.extend(_stand_ins(self._tail, date))
        return out

    def fill(self, output: str) -> str:
        """The sitemap MkDocs drew from `sitemap`'s pages, with each run's text replaced by its pages'."""
        if not self._filled:
            return output
        filled = Form.fill(output, self._filled)
        if filled is None and self._template is not None:  # not drawn as learnt: a stand-in a page after all
            filled = self._template.render(pages=self._stood_in(self._listed, get_build_date()))
        self._filled, self._listed = [], []
        return output if filled is None else filled

    def index_before(self, index, page) -> None:
        """Give Material's search `index` the entries of the withheld pages that go before `page`'s."""
        self._give(index, self._before.get(page.file.src_uri, []))

    def index_after(self, index, page) -> None:
        """After the last page: the entries of the withheld pages after it."""
        if page.file.src_uri == self._last_page:
            self._give(index, self._tail)

    def _give(self, index, games: list[_Kept]) -> None:
        """The entries of the withheld `games` put at the end of the index, and where they are
        (`write_docs`: not serialized again)."""
        for kept in games:
            start = len(index.entries)
            index.entries.extend(kept.entries)
            self._spans.append((start, len(index.entries), kept, ""))

    def made(self, page, entries: list, end: int) -> None:
        """A page of a game given to MkDocs, as it went to the search index (its entries the last
        before `end`) and the sitemap."""
        building = self._building.get(self._folder_of(page.file.src_uri) or "")
        if building is not None and page.file.src_uri in building.pages:
            building.pages[page.file.src_uri] = (page.canonical_url, page.abs_url, list(entries))
            if self._form is not None:  # its line in the sitemap made now, with the page
                building.lines[page.file.src_uri] = self._form.line(page.canonical_url, page.abs_url)
                building.date = self._form.date
            self._spans.append((end - len(entries), end, building, page.file.src_uri))

    def write_docs(self, site: Path, head: str, entries: list) -> str:
        """Write Material's search documents (the JSON Material writes: `head` and `entries`) into
        `site` as `dipgen.mkdocs.search` splits them, the withheld pages' entries copied from the last
        build's file (`docsfile`); returns the index Material is to write in its own file."""
        pieces = [(start, end, game.at if isinstance(game, _Kept) else None) for start, end, game, _ in self._spans]
        path = site / DOCS
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            placed, self._docs_now = docsfile.write(path, head, entries, pieces, self._docs)
        except OSError:  # the last file not as recorded after all: every entry serialized
            placed, self._docs_now = docsfile.write(path, head, entries, pieces, None)
        for (_, _, game, uri), where in zip(self._spans, placed, strict=True):
            if isinstance(game, _Kept):
                game.at = where
            else:
                game.at[uri] = where
        return split_of(json.loads(head + "]}")["config"])

    # ----- the end
    def done(self, complete: bool, site: Path | None) -> None:
        """The build ended: put in place as `site` (`complete`), or not (nothing is withheld next)."""
        if not complete or site is None or self._now_state is None:
            self._kept, self._state, self._site, self._docs = {}, None, None, None
        else:
            kept = {self._paths[folder]: k for folder, k in self.withheld.items()}
            for folder, b in self._building.items():  # (a blocked game is not there)
                if b.pages and all(v is not None for v in b.pages.values()):
                    kept[self._paths[folder]] = b.kept()
            self._kept, self._state, self._site = kept, self._now_state, site
            # the search documents as written in the site now in place (None: not written by the layer)
            self._docs = None if self._docs_now is None else dataclasses.replace(self._docs_now, path=site / DOCS)
        self._candidates, self.withheld, self._runs, self._building = {}, {}, {}, {}
        self._before, self._tail, self._given, self._spans, self._docs_now = {}, [], set(), [], None


def _stand_ins(games: list[_Kept], date: str) -> list[StandIn]:
    """The withheld games' pages the sitemap lists: those with an address (without a site address,
    MkDocs's template lists no page, and writes nothing for one)."""
    return [StandIn(canonical, absolute, date) for kept in games
            for canonical, absolute, _ in kept.pages.values() if canonical or absolute]


def _lines(kept: _Kept, form: Form) -> str:
    """A withheld game's pages' text in the sitemap: as kept, or made again on another date."""
    if kept.date != form.date:
        kept.lines = "".join(form.line(canonical, absolute) for canonical, absolute, _ in kept.pages.values())
        kept.date = form.date
    return kept.lines


def _together(places: list[tuple[int, int] | None]) -> tuple[int, int] | None:
    """One range of a file of the ranges of a game's pages, each after the last and a comma between
    (empty ones aside); None where they are not so (or one is not known)."""
    start = end = -1
    for place in places:
        if place is None:
            return None
        offset, length = place
        if not length:
            continue
        if end >= 0 and offset != end + 1:
            return None
        start, end = (offset if start < 0 else start), offset + length
    return (start, end - start) if start >= 0 else (0, 0)

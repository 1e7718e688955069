"""A search whose cost to a reader does not grow with the archive: Pagefind's index in chunks.

With ``search: pagefind`` (the dipgen plugin's option) `index_site` gives the built site a
Pagefind index (``pagefind/``, written by the ``pagefind`` package's own binary, pinned): its
words in chunks by prefix, each document's text in a fragment of its own, each compressed. A search
fetches Pagefind's small WebAssembly searcher, the chunks of the words typed and the fragments of
the results it shows: some 150-200 kB whatever the size of the archive, where Material's index
(dipgen.mkdocs.search) brings every page of the archive on the first search.

The pages indexed are those Material's search index lists (so a page's ``search: exclude`` is
honoured, and private pages and the 404 page are never indexed), titled as Material's index titles
them (a season "Spring 1902 · Two Crowns", not its heading's "Spring 1902"). What of a page is
indexed is what a reader looks for, not every word on it, because Pagefind's indexer holds some
0.7 kB for each distinct word of each document it indexes (measured: bench/README.md, "Memory"):

- a page dipgen makes (its breadcrumbs say so) by its title, its head (the game's title, kind,
  result and game master; a season's kind), its description, what happened in a season, and who
  played which power: not its orders, results, press, tables, order sheet nor maps' captions;
- a season is a section of its game's document (its heading the season's own, its id `PAGE_ANCHOR`
  and the season's address, which the search worker links to; what happened, and who played which
  power where the game's page does not name that player), not a document of its own: a game's
  seasons repeat its words (powers, players, provinces), which cost Pagefind once a document, not
  once a season;
- any other page (a hand-written one: the home page, the rules, the about pages) by its article,
  the page's text under its title without the navigation, the header, the footer, the headings'
  permalinks, nor dipgen's lists of games and tables (`IGNORED`), which grow with the archive.

Material's index then keeps its configuration only, with the address of Pagefind's
(``dipgen_pagefind``), and its documents are not published. The search box, its dialog and its
results are Material's: the page's search worker (``assets/javascripts/workers/dipgen-search.js``)
asks Pagefind and answers in Material's terms.

The index is made by a build, not under ``mkdocs serve``, where every edit would index every page
again: there the search is Material's, its documents fetched on a first search, as without
Pagefind.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from dipgen.core.phase import Phase
from dipgen.mkdocs.search import DOCS, INDEX

#: the folder of Pagefind's index in the site (the configuration's ``dipgen_pagefind``)
BUNDLE = "pagefind"
#: what of a page is indexed: Material's article, without the headings' permalinks, nor dipgen's
#: cards and tables (the archive's list of games, the players' and the hall of fame's tables)
ROOT = "article.md-content__inner"
IGNORED = (".headerlink", ".md-content__button", "noscript", ".dg-cards", ".dg-scroll")
#: the id of a section heading that stands for a page of its own: this, then the page's address
#: (from the site's root); the search worker links the section to that page
PAGE_ANCHOR = "dipgen-page:"
#: what Pagefind writes that the site does not use: its own search interfaces (the site's is Material's)
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-component-ui.js", "pagefind-component-ui.css",
          "pagefind-modular-ui.js", "pagefind-modular-ui.css", "pagefind-highlight.js", "pagefind-worker.js")

_ARTICLE = re.compile(r'<article class="md-content__inner[ "]')
#: a page dipgen made, and a season's page (its pager, up to its game's page)
_MADE, _SEASON = '<nav class="dg-crumbs"', '<nav class="dg-pager"'
#: the parts of a page dipgen made that are indexed (see the module), by their opening tags; of a season
#: that is a section of its game's document, what happened alone (its players are the game's)
_KEPT = re.compile(r'<header class="dg-head">|<h1[ >]|<div class="dg-desc">|<section class="dg-happened"'
                   r'|<div class="dg-power-head">|<th scope="row" class="dg-sticky">')
_HAPPENED = re.compile(r'<section class="dg-happened"')
_POWER_HEAD = re.compile(r'<div class="dg-power-head">.*?</div>', re.S)
_PLAYER = re.compile(r'<span class="dg-player">(.*?)</span>', re.S)
_H1 = re.compile(r"<h1(?:\s[^>]*)?>(.*?)</h1>", re.S)


def index_site(site: Path, language: str = "en") -> bool:
    """Give `site` a Pagefind index of the pages Material's search index lists (see the module), and
    leave in Material's index its configuration only; False where the site has no index of
    Material's (another search plugin, or none) or it is indexed already."""
    index = site / INDEX
    try:
        data = json.loads(index.read_bytes())
    except FileNotFoundError:
        return False
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict) or "docs" not in data:
        return False
    if "dipgen_pagefind" in data["config"] or "dipgen_docs" in data["config"]:
        return False
    pages = _pages(site, data.pop("docs"))  # Material's list let go: a big archive's is tens of MB
    bundle = site / BUNDLE
    if bundle.exists():
        shutil.rmtree(bundle)  # a dirty build's last index: written afresh, never mixed
    _write(site, pages, language)
    for name in UNUSED:
        (bundle / name).unlink(missing_ok=True)
    (site / DOCS).unlink(missing_ok=True)
    config = dict(data["config"], dipgen_pagefind=BUNDLE + "/")
    text = json.dumps({"config": config, "docs": []}, sort_keys=True, separators=(",", ":"))
    index.write_text(text, encoding="utf-8")
    return True


def _pages(site: Path, docs: list) -> dict[str, str]:
    """Each page Material's `docs` list whose file (`_file`) `site` has, once: its address -> its title
    as Material's index gives it (a season "Spring 1902 · Two Crowns" where the page's heading says
    "Spring 1902"), by address."""
    out: dict[str, str] = {}
    for doc in docs:
        location = str(doc.get("location", "")) if isinstance(doc, dict) else "#"
        if "#" in location or location in out or "://" in location or location.startswith("/") \
                or ".." in location.split("/"):
            continue
        if (site / _file(location)).is_file():
            out[location] = html.unescape(str(doc.get("title", "")))
    return {location: out[location] for location in sorted(out)}


@dataclass
class _Document:
    """What Pagefind is given of a page dipgen made: its title, its kept text and its seasons' sections."""

    location: str
    title: str
    body: str
    sections: list[tuple[tuple, str]] = field(default_factory=list)  # (when, HTML): `_when`
    players: set[str] = field(default_factory=set)  # the players its sections name (`_section`)

    def html(self) -> str:
        return ('<!doctype html><html><body><article class="md-content__inner">' + _meta(self.title)
                + self.body + "".join(text for _, text in sorted(self.sections)) + "</article></body></html>")


def _file(location: str) -> str:
    """The file of the page at `location` in the site ("games/g/index.html" for "games/g/")."""
    return location + "index.html" if location == "" or location.endswith("/") else location


def _documents(site: Path, pages: dict[str, str]) -> Iterator[tuple[str, str]]:
    """The documents Pagefind indexes (see the module): (the address of its page, its HTML), a page
    at a time but for a game's, given once its seasons are its sections. A season's page (its pager)
    is a section of its parent's document where dipgen made that page, else a document of its own
    (so too where pages' addresses are files, without MkDocs's ``use_directory_urls``). `pages` is in
    the order of their addresses, so that a page's seasons follow it."""
    open_: list[_Document] = []  # the documents that pages still to come may be sections of: a chain
    for location, title in pages.items():
        while open_ and not location.startswith(open_[-1].location):
            done = open_.pop()
            yield done.location, done.html()
        page = (site / _file(location)).read_text(encoding="utf-8")
        article = _article(page)
        if article is None or _MADE not in article:
            yield location, _titled(page, title)
        elif _SEASON in article and open_ and open_[-1].location == _parent(location):
            open_[-1].sections.append((_when(location), _section(location, title, article, open_[-1])))
        else:
            open_.append(_Document(location, title, _kept(article)))
    for done in reversed(open_):
        yield done.location, done.html()


def _section(location: str, title: str, article: str, game: _Document) -> str:
    """A season's section of its game's document: its heading (the season's, "Spring 1902" where its
    title says "Spring 1902 · Two Crowns"), its id the season's address, what happened, and who
    played which power where `game` does not name that player yet (a game before its first
    year's end has no table of players; a replacement), each player once a game."""
    heading = _H1.search(article)
    name = heading.group(1) if heading else html.escape(title)
    heads = []
    for head in _POWER_HEAD.finditer(article):
        player = _PLAYER.search(head.group(0))
        if player and player.group(1) not in game.players and f">{player.group(1)}<" not in game.body:
            game.players.add(player.group(1))
            heads.append(head.group(0))
    return (f'<section><h2 id="{html.escape(PAGE_ANCHOR + location)}">{name}</h2>'
            f'{_kept(article, _HAPPENED)}{"".join(heads)}</section>')


def _when(location: str) -> tuple:
    """Where a season's section goes in its game's document: in the order of the seasons, where its
    address ends in a phase's name (1901-fall-retreats), else after them, by address."""
    try:
        phase = Phase.from_slug(location.rstrip("/").rpartition("/")[2])
    except ValueError:
        return (1, location)
    return (0, phase)  # a Phase is ordered in time


def _parent(location: str) -> str:
    """The address of the page above `location` ("games/g/" for "games/g/1901-spring/")."""
    return location.rstrip("/").rpartition("/")[0] + "/" if "/" in location.rstrip("/") else ""


def _article(page: str) -> str | None:
    """Material's article of `page` (the page's text under its title), or None where it has none."""
    found = _ARTICLE.search(page)
    return page[found.start():_end(page, found.start())] if found else None


def _end(text: str, at: int) -> int:
    """Where the element that opens at `at` in `text` closes (after its closing tag; the end of `text`
    where it does not), counting the elements of its name inside it."""
    name = re.match(r"<([a-zA-Z0-9]+)", text[at:at + 20])
    if name is None:
        return len(text)
    tags, depth = re.compile(rf"<(/?){name.group(1)}[\s>/]"), 0
    for tag in tags.finditer(text, at):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return text.index(">", tag.end() - 1) + 1
    return len(text)


def _kept(article: str, kept: re.Pattern = _KEPT) -> str:
    """The parts of a page dipgen made that are indexed (`_KEPT`), in their order, each in a block of
    its own (a table's cell out of its table, the rest as it is)."""
    out, at = [], 0
    while (found := kept.search(article, at)) is not None:
        end = _end(article, found.start())
        part = article[found.start():end]
        out.append(f"<p>{part[part.index('>') + 1:part.rindex('<')]}</p>" if part.startswith("<th") else part)
        at = end
    return "".join(out)


def _meta(title: str) -> str:
    """Pagefind's title of a page: an element it reads the title from and does not index."""
    return f'<span hidden data-pagefind-meta="title" data-pagefind-ignore>{html.escape(title)}</span>'


def _titled(page: str, title: str) -> str:
    """`page` with `title` as Pagefind's title of it, where it has Material's article; else as it is
    (Pagefind takes its heading)."""
    found = _ARTICLE.search(page)
    if not title or found is None:
        return page
    end = page.index(">", found.start()) + 1
    return page[:end] + _meta(title) + page[end:]


def _write(site: Path, pages: dict[str, str], language: str) -> None:
    """Pagefind's binary over the documents of `pages` (`_documents`), each at its page's place (its
    address is its page's path), writing its index into `site`; its own messages only on an error."""
    with tempfile.TemporaryDirectory(prefix="dipgen-pagefind-") as scratch:
        for location, text in _documents(site, pages):
            copy = Path(scratch) / _file(location)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(text, encoding="utf-8")
        done = subprocess.run(command(Path(scratch), site / BUNDLE, language), capture_output=True, text=True,
                              check=False)
    if done.returncode != 0:
        raise PagefindError(f"pagefind failed ({done.returncode}): {(done.stderr or done.stdout).strip()}")


def command(documents: Path, bundle: Path, language: str) -> list[str]:
    """Pagefind's binary (the ``pagefind`` package's) indexing the files in `documents` into `bundle`,
    silent but for errors (bench/searchindex.py runs it as the plugin does)."""
    return [sys.executable, "-m", "pagefind", "--site", str(documents), "--output-path", str(bundle),
            "--root-selector", ROOT, "--exclude-selectors", ", ".join(IGNORED), "--force-language", language,
            "--silent"]


class PagefindError(RuntimeError):
    """Pagefind's binary could not index the site."""

"""A search whose cost to a reader does not grow with the archive: Pagefind's index in chunks.

With ``search: pagefind`` (the dipgen plugin's option) `index_site` gives the built site a
Pagefind index (``pagefind/``, written by the ``pagefind`` package's own binary, pinned): its
words in chunks by prefix, each page's text in a fragment of its own, each compressed. A search
fetches Pagefind's small WebAssembly searcher, the chunks of the words typed and the fragments of
the results it shows: some 150-200 kB whatever the size of the archive, where Material's index
(dipgen.mkdocs.search) brings every page of the archive on the first search.

The pages indexed are those Material's search index lists (so a page's ``search: exclude`` is
honoured, and private pages and the 404 page are never indexed), each by its article (the page's
text under its title, without the navigation, the header and the footer), titled as Material's
index titles it (a season "Spring 1902 · Two Crowns", not its heading's "Spring 1902"); Material's index then
keeps its configuration only, with the address of Pagefind's (``dipgen_pagefind``), and its
documents are not published. The search box, its dialog and its results are Material's: the
page's search worker (``assets/javascripts/workers/dipgen-search.js``) asks Pagefind and answers
in Material's terms.

The index is made by a build, not under ``mkdocs serve``, where every edit would index every page
again: there the search is Material's, its documents fetched on a first search, as without
Pagefind.
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from dipgen.mkdocs.search import DOCS, INDEX

#: the folder of Pagefind's index in the site (the configuration's ``dipgen_pagefind``)
BUNDLE = "pagefind"
#: what of a page is indexed: Material's article, without the headings' permalinks
ROOT = "article.md-content__inner"
IGNORED = (".headerlink", ".md-content__button", "noscript")
#: what Pagefind writes that the site does not use: its own search interfaces (the site's is Material's)
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-component-ui.js", "pagefind-component-ui.css",
          "pagefind-modular-ui.js", "pagefind-modular-ui.css", "pagefind-highlight.js", "pagefind-worker.js")


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
    pages = _pages(site, data["docs"])
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


def _pages(site: Path, docs: list) -> list[tuple[Path, str]]:
    """Each page Material's `docs` list, once: (its file, its title as Material's index gives it:
    a season "Spring 1902 · Two Crowns" where the page's heading says "Spring 1902"), by address."""
    out: dict[str, tuple[Path, str]] = {}
    for doc in docs:
        location = str(doc.get("location", "")) if isinstance(doc, dict) else "#"
        if "#" in location or location in out or "://" in location or location.startswith("/") \
                or ".." in location.split("/"):
            continue
        file = site / location / "index.html" if location == "" or location.endswith("/") else site / location
        if file.is_file():
            out[location] = (file, html.unescape(str(doc.get("title", ""))))
    return [out[location] for location in sorted(out)]


def _titled(page: str, title: str) -> str:
    """`page` with `title` as Pagefind's title of it (an element Pagefind reads the title from and
    does not index), where it has Material's article; else as it is (Pagefind takes its heading)."""
    at = page.find("<" + ROOT.replace(".", ' class="', 1))
    if not title or at < 0:
        return page
    end = page.index(">", at) + 1
    meta = f'<span hidden data-pagefind-meta="title" data-pagefind-ignore>{html.escape(title)}</span>'
    return page[:end] + meta + page[end:]


def _write(site: Path, pages: list[tuple[Path, str]], language: str) -> None:
    """Pagefind's binary over a copy of `pages` alone, at their places (its addresses are their
    paths), each with its title (`_titled`), writing its index into `site`; its own messages only
    on an error."""
    with tempfile.TemporaryDirectory(prefix="dipgen-pagefind-") as scratch:
        for file, title in pages:
            copy = Path(scratch) / file.relative_to(site)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(_titled(file.read_text(encoding="utf-8"), title), encoding="utf-8")
        command = [sys.executable, "-m", "pagefind", "--site", scratch, "--output-path", str(site / BUNDLE),
                   "--root-selector", ROOT, "--exclude-selectors", ", ".join(IGNORED),
                   "--force-language", language, "--silent"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise PagefindError(f"pagefind failed ({done.returncode}): {(done.stderr or done.stdout).strip()}")


class PagefindError(RuntimeError):
    """Pagefind's binary could not index the site."""

"""Where generated pages and files live, and relative links between them.

Pages are named by their source path (``games/alpha/index.md``), as MkDocs names them. Every
generated page is the ``index.md`` of a folder of its own (the archive ``games/index.md``, a game
``games/alpha/index.md``, a season ``games/alpha/1901-spring/index.md``), so that it is built
into that same folder (``games/alpha/1901-spring/index.html``) whatever the generator and
whether or not it uses directory URLs: a relative link in the page's raw HTML then means the
same read from the page's source file or from the built page, and no generator that rewrites
raw HTML links (as Zensical does, relative to the source file) can break it. Links to
hand-written pages still depend on ``use_directory_urls`` (``rules/standard/`` or
``rules/standard.html``), which the site's configuration gives every generator alike.
"""

from __future__ import annotations

import posixpath
from functools import lru_cache

from dipgen.core.phase import Phase


def game_folder(prefix: str, slug: str, edition: str = "") -> str:
    """The folder of one edition of a game's pages: the game's own, or (``"full"``) the
    non-blind edition of a hidden game, published when it is revealed."""
    return f"{prefix}/{slug}/{edition}/" if edition else f"{prefix}/{slug}/"


def game_uri(prefix: str, slug: str, edition: str = "") -> str:
    return game_folder(prefix, slug, edition) + "index.md"


def season_uri(prefix: str, slug: str, phase: Phase, edition: str = "") -> str:
    """The page of one phase: a folder's index.md, as every generated page (see above)."""
    return game_folder(prefix, slug, edition) + f"{phase.slug}/index.md"


def archive_uri(prefix: str) -> str:
    return f"{prefix}/index.md"


def page_url(uri: str, directory_urls: bool = True) -> str:
    """The URL path (relative to the site root) of the page built from `uri`; files keep their path."""
    if not uri.endswith(".md"):
        return uri
    stem = uri[:-3]
    if stem == "index" or stem.endswith("/index"):
        return stem[:-5]  # '' for the home page, 'games/' for games/index.md
    return stem + "/" if directory_urls else stem + ".html"


@lru_cache(maxsize=1 << 15)  # a page links the same few pages as its neighbours do
def href(from_uri: str, to_uri: str, directory_urls: bool = True) -> str:
    """A relative link from the page built from `from_uri` to the page or file `to_uri`."""
    here = page_url(from_uri, directory_urls)
    base = here if here.endswith("/") or here == "" else posixpath.dirname(here) + "/"
    if base == "/":
        base = ""
    target = page_url(to_uri, directory_urls)
    rel = _relative(target, base)
    if rel == ".":
        rel = "./"
    elif target.endswith("/") or target == "":
        rel += "/"
    if to_uri.endswith(".md") and not directory_urls and (target == "" or target.endswith("/")):
        rel += "index.html"
    return rel


def _relative(target: str, base: str) -> str:
    """`posixpath.relpath(target or ".", base or ".")` for the site's own paths (relative, no "."
    or ".." steps) without asking the file system where it is: a page makes thousands of links."""
    to = [part for part in target.split("/") if part]
    start = [part for part in base.split("/") if part]
    if target.startswith("/") or base.startswith("/") or "." in to or ".." in to or "." in start or ".." in start:
        return posixpath.relpath(target or ".", base or ".")
    same = 0
    for a, b in zip(to, start, strict=False):
        if a != b:
            break
        same += 1
    return "/".join([".."] * (len(start) - same) + to[same:]) or "."

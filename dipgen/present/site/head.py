"""What a generated page says of itself in its ``<head>``: its description (which Material puts in
``<meta name="description">``), the game's feed (``<link rel="alternate feed">``) and the Open Graph
type, given to the theme as front matter and laid out by dipgen's theme folder
(``overrides/main.html``, which also adds ``og:title``, ``og:description``, ``og:url`` from the
site's ``site_url`` and the archive's feed on every page).

No ``og:image``: the big consumers of Open Graph take PNG or JPEG only, and the maps are SVG;
drawing them again as pictures would need a rasteriser, a heavy dependency for a thumbnail
(README, "Feeds, calendars and links").

Material inserts front matter into the page unescaped, so each value is HTML-escaped here, then
written as a JSON string (which YAML reads as a string) by `dipgen.present.site.page.front_matter`.
"""

from __future__ import annotations

import html
import re

import nh3

#: the longest description a page gives (consumers cut theirs at about this)
MAX_DESCRIPTION = 200


def plain(rendered: str) -> str:
    """Sanitised HTML (a game's rendered description) as one line of plain text."""
    return " ".join(html.unescape(nh3.clean(rendered, tags=set())).split())


def shorten(text: str) -> str:
    """`text`, cut at a word to at most `MAX_DESCRIPTION` characters (with '…') if longer."""
    if len(text) <= MAX_DESCRIPTION:
        return text
    return text[:MAX_DESCRIPTION - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def first_sentence(text: str) -> str:
    """The first sentence of `text`, `shorten`ed."""
    m = re.match(r"(.+?[.!?])(?=\s|$)", text)
    return shorten(m.group(1) if m else text)


def head_meta(description: str, feed_href: str, feed_title: str, kind: str = "website") -> dict[str, str]:
    """The page's front matter besides its title, each value HTML-escaped (as `page.meta` holds
    it; `dipgen.present.site.page.front_matter` writes it)."""
    return {key: html.escape(value, quote=True) for key, value in (
        ("description", shorten(description)), ("dipgen_feed", feed_href), ("dipgen_feed_title", feed_title),
        ("dipgen_og_type", kind))}

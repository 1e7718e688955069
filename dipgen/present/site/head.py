"""What a generated page says of itself in its ``<head>``: its description (which Material puts in
``<meta name="description">``), the game's feed (``<link rel="alternate feed">``) and the Open Graph
type, given to the theme as front matter and laid out by dipgen's theme folder
(``overrides/main.html``, which also adds ``og:title``, ``og:description``, ``og:url`` from the
site's ``site_url`` and the archive's feed on every page).

A game page and a season page with a map also give their ``og:image`` (and ``twitter:card``
``summary_large_image``): a PNG of the map (`dipgen.present.site.maps.picture`), by its absolute
address. Open Graph wants one, and the consumers that fetch previews ignore a relative one, so a
site without ``site_url`` gives none and draws no picture (README, "Feeds, calendars and links").

Material inserts front matter into the page unescaped, so each value is HTML-escaped here, then
written as a JSON string (which YAML reads as a string) by `dipgen.present.site.page.front_matter`.
"""

from __future__ import annotations

import html
import re

import nh3

from dipgen.present.svg.raster import OG_SIZE

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


def head_meta(description: str, feed_href: str, feed_title: str, kind: str = "website", image: str = "",
              image_alt: str = "") -> dict[str, str]:
    """The page's front matter besides its title, each value HTML-escaped (as `page.meta` holds
    it; `dipgen.present.site.page.front_matter` writes it); `image`: the absolute address of the
    page's picture for link previews, if it has one, and `image_alt` what it shows."""
    pairs = [("description", shorten(description)), ("dipgen_feed", feed_href), ("dipgen_feed_title", feed_title),
             ("dipgen_og_type", kind)]
    if image:
        pairs += [("dipgen_og_image", image), ("dipgen_og_image_alt", image_alt),
                  ("dipgen_og_image_width", str(OG_SIZE[0])), ("dipgen_og_image_height", str(OG_SIZE[1]))]
    return {key: html.escape(value, quote=True) for key, value in pairs}

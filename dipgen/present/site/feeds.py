"""Atom feeds (RFC 4287): one per game (``games/<slug>/feed.xml``) and one for the whole archive
(``feed.xml`` at the site's root, the newest `MAX_ENTRIES` seasons of every game).

An entry per season the view shows (a hidden game's public calendar: its Springs, Falls and the
years' totals, never a retreat or an adjustment phase): its title, its time (`dipgen.present.times`),
a summary of what happened (`dipgen.present.happened`) and a link to its page. Made from the
public view alone, as every output is.

Addresses are absolute where the site has a ``site_url`` (mkdocs.yml), else relative to the feed
(a reader resolves them against the address it fetched the feed from). Ids never depend on where
the site lives, so that a feed that moves keeps them (RFC 4287, 4.2.6): each is a UUID named by
the site's name, the game's folder and the season.

An entry is a value (`FeedEntry`) before it is XML (`entry_element`): a field added to one is one
line in each.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Protocol

from dipgen.present.happened import what_happened
from dipgen.present.site.card import FeedCard, FeedEntry, GameCard, feed_head, stamp, unstamp
from dipgen.present.site.links import archive_uri, game_folder, game_uri, href, page_url, season_uri
from dipgen.present.times import deadline_line, iso, latest, record_times
from dipgen.view import GameView

ATOM = "http://www.w3.org/2005/Atom"
SITE_FEED = "feed.xml"
#: the archive's feed: the newest entries of every game
MAX_ENTRIES = 50
#: dipgen's namespace of ids (a UUID of its own, made once)
NAMESPACE = uuid.UUID("0b7f3c4e-5a0d-5c1e-9d8e-6f3a2b1c0d9e")
#: characters XML 1.0 cannot hold, whatever the escaping
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


class Place(Protocol):
    """Where the site is (the fields of `dipgen.present.site.pages.SiteOptions` a feed reads)."""

    @property
    def prefix(self) -> str: ...
    @property
    def directory_urls(self) -> bool: ...
    @property
    def site_url(self) -> str: ...
    @property
    def site_name(self) -> str: ...


def feed_uri(prefix: str, slug: str) -> str:
    return game_folder(prefix, slug) + "feed.xml"


def address(place: Place, from_uri: str, to_uri: str) -> str:
    """The address of the page or file `to_uri` in a file at `from_uri`: absolute with a site_url."""
    if place.site_url:
        path = page_url(to_uri, place.directory_urls)
        if to_uri.endswith(".md") and not place.directory_urls and (path == "" or path.endswith("/")):
            path += "index.html"  # as `href` links a folder's page without directory URLs
        return place.site_url.rstrip("/") + "/" + path
    return href(from_uri, to_uri, place.directory_urls)


def _id(place: Place, *names: str) -> str:
    return "urn:uuid:" + str(uuid.uuid5(NAMESPACE, "\n".join((place.site_name, *names))))


def summary(view: GameView, index: int) -> str:
    """What happened in the view's record at `index`, in a few sentences (the feed entry's summary,
    the season page's description)."""
    happened = " ".join(h.text for h in what_happened(view, index))
    if happened:
        return happened
    if view.records[index].after.whole:
        return "No centre changed hands and no unit was dislodged."
    return "Nothing changed that the public may know of."


def entries(view: GameView, place: Place) -> list[FeedEntry]:
    """One entry per season the view shows, oldest first; the newest says when the next orders are
    due (each new season's entry brings the new deadline to the readers)."""
    due = deadline_line(view)
    last = len(view.records) - 1
    return [FeedEntry(_id(place, view.slug, record.phase.slug), f"{view.title}: {record.title}", when,
                  season_uri(place.prefix, view.slug, record.phase),
                  summary(view, i) + (f" {due}" if due and i == last else ""), view.info.gm, view.slug, i)
            for i, (record, when) in enumerate(zip(view.records, record_times(view), strict=True))]


def _text(parent: ET.Element, tag: str, text: str, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attrs)
    element.text = _NOT_XML.sub("\ufffd", text)
    return element


def _link(parent: ET.Element, url: str, rel: str, kind: str = "text/html") -> None:
    ET.SubElement(parent, "link", {"rel": rel, "type": kind, "href": url})


def _author(parent: ET.Element, name: str) -> None:
    _text(ET.SubElement(parent, "author"), "name", name or "The game master")


def entry_element(entry: FeedEntry, place: Place, feed: str) -> ET.Element:
    """`entry` in Atom, its addresses as seen from the feed at `feed` (a site path)."""
    element = ET.Element("entry")
    _text(element, "id", entry.id)
    _text(element, "title", entry.title)
    _text(element, "updated", iso(entry.updated))
    _link(element, address(place, feed, entry.page), "alternate")
    _author(element, entry.author)
    _text(element, "summary", entry.summary, type="text")
    return element


def document(place: Place, uri: str, feed_id: str, title: str, page: str, author: str,
             items: list[FeedEntry], updated: dt.datetime) -> str:
    """The feed at site path `uri`, of `items` (newest first), about the page `page`."""
    feed = ET.Element("feed", {"xmlns": ATOM})
    _text(feed, "id", feed_id)
    _text(feed, "title", title)
    _text(feed, "updated", iso(max([updated, *(e.updated for e in items)])))
    _link(feed, address(place, uri, uri), "self", "application/atom+xml")
    _link(feed, address(place, uri, page), "alternate")
    _author(feed, author)
    for entry in items:
        feed.append(entry_element(entry, place, uri))
    ET.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="unicode") + "\n"


def newest_first(items: Iterable[FeedEntry]) -> list[FeedEntry]:
    """Newest first; of entries of one time, by game (its folder), then the later season first (`_newer`)."""
    return sorted(items, key=lambda e: _IN_ORDER(e.rank))


def newest_of(cards: list[FeedCard | GameCard]) -> list[FeedEntry]:
    """The `MAX_ENTRIES` newest entries of every card's feed (`newest_first`), reading no more of
    them than it must: a card's feed is newest first, so the games are taken by their newest entry
    (`feed_head`), and once the list is full a game whose newest entry is older than its last, and
    every game after it, has none to give (a feed the build cache keeps on disk is read only then)."""
    heads = [(head, card) for card in cards if (head := feed_head(card.feed)) is not None]
    heads.sort(key=lambda pair: _IN_ORDER(pair[0]))  # as newest_first orders entries
    items: list[FeedEntry] = []
    for head, card in heads:
        if len(items) == MAX_ENTRIES and not _newer(head, items[-1].rank):
            break
        items = newest_first([*items, *card.feed])[:MAX_ENTRIES]
    return items


def _newer(a: tuple[dt.datetime, str, int], b: tuple[dt.datetime, str, int]) -> bool:
    """Whether an entry ranked `a` (`FeedEntry.rank`) comes before one ranked `b` in `newest_first`."""
    return a[0] > b[0] or (a[0] == b[0] and (a[1] < b[1] or (a[1] == b[1] and a[2] > b[2])))


def _compared(a: tuple[dt.datetime, str, int], b: tuple[dt.datetime, str, int]) -> int:
    return -1 if _newer(a, b) else 1 if _newer(b, a) else 0


#: a sort key of a `FeedEntry.rank`: the feeds' one order, `_newer`
_IN_ORDER = functools.cmp_to_key(_compared)


def game_feed(view: GameView, place: Place) -> dict[str, str]:
    """The game's feed, from its public view."""
    uri = feed_uri(place.prefix, view.slug)
    return {uri: document(place, uri, _id(place, view.slug), view.title, game_uri(place.prefix, view.slug),
                          view.info.gm, newest_first(entries(view, place)), latest(view))}


def feed_card(view: GameView, place: Place) -> FeedCard:
    """What the archive's feed needs of a game (a part of the game's card,
    `dipgen.present.site.pages.game_card`): its newest `MAX_ENTRIES` entries and its latest time."""
    return FeedCard(latest=stamp(latest(view)), feed=tuple(newest_first(entries(view, place))[:MAX_ENTRIES]))


def site_feed(views: Iterable[GameView], place: Place) -> dict[str, str]:
    """The archive's feed: the newest `MAX_ENTRIES` seasons of every game (each by its public view)."""
    return site_feed_of((feed_card(v, place) for v in views), place)


def site_feed_of(cards: Iterable[FeedCard | GameCard], place: Place) -> dict[str, str]:
    """`site_feed` of the games' `feed_card`s (or their cards, which hold one)."""
    cards = list(cards)
    items = newest_of(cards)
    when = max((unstamp(c.latest) for c in cards), default=dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc))
    name = place.site_name or "Diplomacy games"
    return {SITE_FEED: document(place, SITE_FEED, _id(place), f"{name}: all games", archive_uri(place.prefix), name,
                                items, when)}

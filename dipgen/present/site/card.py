"""A game's card: what the archive, the home page's cards, the players' pages, the hall of fame
and the archive's feed show of a game, made once from its public view
(`dipgen.present.site.pages.game_card`) and read by each of them by its fields.

The MkDocs plugin keeps each game's card with its files in the build cache, so that an
unchanged game is not read again: `as_json` and `GameCard.from_json` are each other's inverse
(tested), and a card from JSON shows the same as the card it was made from. A card the cache
holds keeps its feed's entries on disk (`KeptFeed`: most of a card's weight, and only the
archive's feed reads them, its newest few of the whole archive).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple


class CardPlayer(NamedTuple):
    """A power of the game, as the archive's row lists it (a tuple: the templates unpack it)."""

    power: str
    colour: str
    who: str  # the names of its players, or '—'
    out: bool  # no units and no centres left


@dataclass(frozen=True)
class CardStatus:
    kind: str
    label: str
    sort_key: str


@dataclass(frozen=True)
class CardDeadline:
    """`dipgen.present.times.Deadline`'s fields the cards show."""

    iso: str
    text: str
    label: str


@dataclass(frozen=True)
class CardEnd:
    """How a finished game ended: the result's kind and the powers it names."""

    kind: str
    powers: tuple[str, ...]


@dataclass(frozen=True)
class Sitter:
    """One person in one seat of a game, in turn (`dipgen.present.site.people.people_of`): her name
    as written, the powers the seat played while she sat in it, the phases she started and stopped
    (names, or '' for the start and the end), who sat before and after her in the seat ('' for
    none), and whether she sat to the end; for the last sitter of a finished game her result (won,
    drew, survived, out, abandoned), centres, score ('' where none) and place (None where the game
    is not scored)."""

    name: str
    powers: tuple[str, ...]
    since: str
    until: str
    to_end: bool
    previous: str
    next: str
    result: str
    centres: int | None
    score: str
    place: int | None


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One season of one game, as a feed tells it (`dipgen.present.site.feeds`)."""

    id: str
    title: str
    updated: dt.datetime
    page: str          # the season page (its site path)
    summary: str
    author: str        # the game's GM
    slug: str
    index: int         # the season's place in the game's view (the later, the newer)

    def as_json(self) -> dict:
        return dict(dataclasses.asdict(self), updated=stamp(self.updated))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FeedEntry:
        """The entry `as_json` made; TypeError, KeyError or ValueError where `data` is not one."""
        return cls(**dict(data, updated=unstamp(data["updated"])))

    @property
    def rank(self) -> tuple[dt.datetime, str, int]:
        """What places the entry in a feed (`dipgen.present.site.feeds.newest_first`): its time, its
        game's folder and its place in the game."""
        return self.updated, self.slug, self.index


class KeptFeed:
    """A game's feed entries kept out of memory (a card the build cache holds): `read` gives them,
    newest first, each time it is called; `head` is the `FeedEntry.rank` of the newest (None: no
    entry), which is all the archive's feed needs to know of a game whose entries are too old for it;
    `ident` names the entries (the hash of what `read` reads): two kept feeds with one ident are
    the same entries."""

    __slots__ = ("head", "ident", "_read")

    def __init__(self, head: tuple[dt.datetime, str, int] | None, ident: str,
                 read: Callable[[], tuple[FeedEntry, ...]]) -> None:
        self.head, self.ident, self._read = head, ident, read

    def __iter__(self) -> Iterator[FeedEntry]:
        return iter(self._read())

    def __eq__(self, other) -> bool:
        if isinstance(other, KeptFeed):
            return self.ident == other.ident
        return isinstance(other, tuple) and tuple(self) == other

    def __hash__(self) -> int:
        return hash(self.ident)

    def __repr__(self) -> str:
        return f"KeptFeed({self.ident!r})"


def feed_head(feed: tuple[FeedEntry, ...] | KeptFeed) -> tuple[dt.datetime, str, int] | None:
    """The `FeedEntry.rank` of a card's newest feed entry (None where it has none)."""
    if isinstance(feed, KeptFeed):
        return feed.head
    return feed[0].rank if feed else None


def stamp(when: dt.datetime) -> str:
    """`when` as JSON data: UTC, fixed width (so that stamps sort as their times do), to the microsecond."""
    return when.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", re.ASCII)


def unstamp(text: str) -> dt.datetime:
    """The time `stamp` wrote (ValueError for any other text): read by `fromisoformat`, not
    `strptime` (a twentieth of the time: a serve rebuild reads every game's newest entries)."""
    if not isinstance(text, str) or not _STAMP.fullmatch(text):
        raise ValueError(f"not a time as stamp() writes it: {text!r}")
    return dt.datetime.fromisoformat(text[:-1]).replace(tzinfo=dt.timezone.utc)


@dataclass(frozen=True)
class FeedCard:
    """What the archive's feed needs of a game (`dipgen.present.site.feeds.feed_card`): its
    latest time (a `stamp`) and its newest entries, newest first."""

    latest: str
    feed: tuple[FeedEntry, ...] | KeptFeed


@dataclass(frozen=True)
class GameCard:
    """A game as the archive and the pages made from every game show it. `uri`: its page;
    `years_sort`: its first and last year, four digits each; `people`: one entry per sitter of
    every seat (`dipgen.present.site.people.people_of`); `latest` and `feed`: its `FeedCard` (the
    feed's entries newest first, or `KeptFeed` where the build cache keeps them on disk)."""

    title: str
    uri: str
    variant: str
    gm: str
    players: tuple[CardPlayer, ...]
    years: str
    years_sort: str
    status: CardStatus
    deadline: CardDeadline | None
    slug: str
    finished: bool
    people: tuple[Sitter, ...]
    ended: CardEnd | None
    latest: str
    feed: tuple[FeedEntry, ...] | KeptFeed

    def as_json(self) -> dict:
        """The card as JSON data (the build cache keeps it so)."""
        return dict(dataclasses.asdict(self), feed=[e.as_json() for e in self.feed])

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameCard:
        """The card `as_json` made. ValueError where `data` is not one."""
        try:
            deadline, ended = data["deadline"], data["ended"]
            return cls(title=str(data["title"]), uri=str(data["uri"]), variant=str(data["variant"]), gm=str(data["gm"]),
                       players=tuple(CardPlayer(*p) for p in data["players"]), years=str(data["years"]),
                       years_sort=str(data["years_sort"]), status=CardStatus(**data["status"]),
                       deadline=None if deadline is None else CardDeadline(**deadline), slug=str(data["slug"]),
                       finished=bool(data["finished"]), people=tuple(_sitter(e) for e in data["people"]),
                       ended=None if ended is None else CardEnd(str(ended["kind"]), tuple(ended["powers"])),
                       latest=str(data["latest"]), feed=tuple(FeedEntry.from_json(e) for e in data["feed"]))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a game's card: {e}") from None


def _sitter(data: Mapping[str, Any]) -> Sitter:
    return Sitter(**dict(data, powers=tuple(data["powers"])))

"""A game's card: what the archive, the home page's cards, the players' pages, the hall of fame
and the archive's feed show of a game, made once from its public view
(`dipgen.present.site.pages.game_card`) and read by each of them by its fields.

The MkDocs plugin keeps each game's card with its files in the build cache, so that an
unchanged game is not read again: `as_json` and `GameCard.from_json` are each other's inverse
(tested), and a card from JSON shows the same as the card it was made from.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
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
class FeedCard:
    """What the archive's feed needs of a game (`dipgen.present.site.feeds.feed_card`): its
    latest time and its newest entries."""

    latest: str
    feed: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class GameCard:
    """A game as the archive and the pages made from every game show it. `uri`: its page;
    `years_sort`: its first and last year, four digits each; `people`: one entry per sitter of
    every seat (`dipgen.present.site.people.people_of`); `latest` and `feed`: its `FeedCard`."""

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
    people: tuple[Mapping[str, Any], ...]
    ended: CardEnd | None
    latest: str
    feed: tuple[Mapping[str, Any], ...]

    def as_json(self) -> dict:
        """The card as JSON data (the build cache keeps it so)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameCard:
        """The card `as_json` made. ValueError where `data` is not one."""
        try:
            deadline, ended = data["deadline"], data["ended"]
            return cls(title=str(data["title"]), uri=str(data["uri"]), variant=str(data["variant"]), gm=str(data["gm"]),
                       players=tuple(CardPlayer(*p) for p in data["players"]), years=str(data["years"]),
                       years_sort=str(data["years_sort"]), status=CardStatus(**data["status"]),
                       deadline=None if deadline is None else CardDeadline(**deadline), slug=str(data["slug"]),
                       finished=bool(data["finished"]), people=tuple(data["people"]),
                       ended=None if ended is None else CardEnd(str(ended["kind"]), tuple(ended["powers"])),
                       latest=str(data["latest"]), feed=tuple(data["feed"]))
        except (KeyError, TypeError) as e:
            raise ValueError(f"not a game's card: {e}") from None

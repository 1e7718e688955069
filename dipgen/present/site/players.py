"""The players' pages: one page per person at ``players/<name>/`` and their index at
``players/``, made from the games' cards (`pages.game_card`, each from its game's public view, its
``people`` from `people.people_of`), never from a game's files: the pages of an unchanged game's
players come from the build cache, and a running hidden game adds only what its public view shows.

A person is her name as written in game.yml, after the site's alias table (``J. Doe`` ->
``Jane Doe``); a person the GM lists as private has no page, is not in the index, and is not named
on anybody else's page (her games' own pages still name her: they are the game's record).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import NamedTuple

from markupsafe import Markup, escape

from dipgen.present.site.card import GameCard, Sitter
from dipgen.present.site.jinja import power_name, render
from dipgen.present.site.links import href
from dipgen.present.site.page import SitePage
from dipgen.present.site.people import alias_table, person
from dipgen.present.site.rating import ArchiveRating

__all__ = ["INDEX", "alias_table", "by_person", "person", "player_files", "player_uris", "slug_of"]

INDEX = "players/index.md"
#: how many of the people she met most a player's page lists
MET = 10
RESULT_WORDS = {"won": "Won", "drew": "Drew", "survived": "Survived", "out": "Eliminated", "abandoned": "Abandoned"}


def slug_of(name: str) -> str:
    """A name as a folder: ASCII letters and digits, the rest one hyphen (``Zoë O'Neil`` -> ``zoe-o-neil``)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "player"


def player_uris(names: Iterable[str]) -> dict[str, str]:
    """Each name's page, ``players/<slug>/index.md``; two names of one slug are told apart by a number,
    in the order of the names sorted (so that the same names give the same pages)."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(set(names)):
        base = slug = slug_of(name)
        n = 2
        while slug in taken or slug == "index":
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        out[name] = f"players/{slug}/index.md"
    return out


def by_person(cards: Iterable[GameCard], aliases: Mapping[str, str]) -> dict[str, list[tuple[GameCard, Sitter]]]:
    """Person -> [(card, her entry in it)], in the cards' order."""
    out: dict[str, list[tuple[GameCard, Sitter]]] = {}
    for card in cards:
        for entry in card.people:
            out.setdefault(person(entry.name, aliases), []).append((card, entry))
    return out


def _met(me: str, games: list[tuple[GameCard, Sitter]], named: Mapping[int, frozenset[str]]) -> Counter:
    """How many games she shared with each other person; `named`: the people of each card (by its
    `id`) but the private ones."""
    count: Counter = Counter()
    for card, _ in games:
        count.update(named[id(card)] - {me})
    return count


class GameRow(NamedTuple):
    """One game of hers, as her page shows it: every field a row's drawing reads (`game_row`)."""

    title: str
    url: str
    variant: str
    powers: tuple[tuple[str, str], ...]  # (power, colour)
    years: str
    status: str
    result: str
    centres: str
    score: str
    seat: str


def _row(card: GameCard, entry: Sitter, uri: str, directory_urls: bool, colours: dict[str, str],
         private: frozenset[str], aliases: Mapping[str, str]) -> GameRow:
    """One game of hers, as her page shows it."""
    name = lambda n: "" if person(n, aliases) in private else person(n, aliases)  # noqa: E731
    seat = []
    if entry.previous:
        who = name(entry.previous)
        seat.append(f"took over from {who} in {entry.since}" if who else f"took over in {entry.since}")
    if entry.next:
        who = name(entry.next)
        seat.append(f"replaced by {who} in {entry.until}" if who else f"replaced in {entry.until}")
    return GameRow(title=card.title, url=href(uri, card.uri, directory_urls), variant=card.variant,
                   powers=tuple((p, colours.get(p, "#888")) for p in entry.powers), years=card.years,
                   status=card.status.label,
                   result=RESULT_WORDS.get(entry.result, "Replaced" if not entry.to_end else ""),
                   centres="" if entry.centres is None else str(entry.centres), score=entry.score,
                   seat="; ".join(seat))


#: how many rows `game_row` keeps drawn (some rows a player a game: an archive of thousands of games)
ROWS_KEPT = 1 << 16


@lru_cache(maxsize=ROWS_KEPT)
def game_row(row: GameRow, finished: bool) -> Markup:
    """A row of her table of finished (or running) games, as HTML: drawn here, not by the page's
    template, once for each row's fields (a pure function of them, kept: under `mkdocs serve` an edit
    that changes one game's card draws again only that game's rows, where every player's page of a
    big archive has hundreds)."""
    powers = "<br>".join(power_name(p, c) for p, c in row.powers)
    seat = f'<span class="dg-who">{escape(row.seat)}</span>' if row.seat else ""
    if not finished:
        last = escape(row.status)
    elif row.centres:
        score = f" · score {escape(row.score)}" if row.score else ""
        last = Markup(f'{escape(row.result)}<span class="dg-who">{escape(row.centres)} '
                      f'centre{"s" if row.centres != "1" else ""}{score}</span>')
    else:
        last = escape(row.result) + (Markup(f'<span class="dg-who">score {escape(row.score)}</span>')
                                     if row.score else "")
    return Markup(f'<tr><th scope="row"><a href="{escape(row.url)}">{escape(row.title)}</a><span class="dg-who">'
                  f'{escape(row.variant)} · {escape(row.years)}</span></th><td>{powers}{seat}</td><td>{last}</td>'
                  "</tr>\n")


def _table(rows: list[GameRow], finished: bool) -> Markup:
    return Markup("".join(game_row(r, finished) for r in rows))


def player_files(cards: Iterable[GameCard], directory_urls: bool = True, aliases: Mapping[str, str] | None = None,
                 private: Iterable[str] = (), rating: ArchiveRating | None = None) -> dict[str, str]:
    """The players' index and one page per person (see the module); the index says so when no game
    names anyone. `rating`: the archive's rating (`dipgen.present.site.rating.archive_rating`), shown
    on each rated player's page and in the index."""
    aliases = alias_table(aliases)
    private = frozenset(person(n, aliases) for n in private)
    cards = sorted(cards, key=lambda c: (c.years_sort, c.title.lower()))
    people = {p: games for p, games in by_person(cards, aliases).items() if p not in private}
    uris = player_uris(people)
    named = {id(c): frozenset(person(e.name, aliases) for e in c.people) - private for c in cards}
    out: dict[str, str] = {}
    index_rows = []
    for me, games in sorted(people.items(), key=lambda kv: kv[0].lower()):
        uri = uris[me]
        colours: dict[str, str] = {}
        for card, _ in games:
            colours.update((p[0], p[1]) for p in card.players)
        finished = [_row(c, e, uri, directory_urls, colours, private, aliases) for c, e in games if c.finished]
        running = [_row(c, e, uri, directory_urls, colours, private, aliases) for c, e in games if not c.finished]
        met = [dict(name=n, count=k, url=href(uri, uris[n], directory_urls))
               for n, k in sorted(_met(me, games, named).items(), key=lambda kv: (-kv[1], kv[0]))[:MET]]
        won = sum(1 for r in finished if r.result == "Won")
        drew = sum(1 for r in finished if r.result == "Drew")
        summary = (f"{len(games)} game{'s' * (len(games) != 1)}: {len(finished)} finished, {len(running)} running. "
                   f"Won {won}, drew {drew}.")
        out[uri] = SitePage.make(me, render("player.html", name=me, summary=summary, finished=_table(finished, True),
                                            running=_table(running, False), met=met,
                                            rating=rating.line(me) if rating else None,
                                            table_href=href(uri, rating.page, directory_urls) if rating else "",
                                            index_href=href(uri, INDEX, directory_urls)))
        row = rating.row(me) if rating else None
        index_rows.append(dict(name=me, url=href(INDEX, uri, directory_urls), games=len(games),
                               finished=len(finished), won=won, drew=drew, rating=row.rating if row else ""))
    out[INDEX] = SitePage.make("Players", render("players.html", players=index_rows,
                                                 rated=bool(rating and rating.rows),
                                                 least=rating.least if rating else 0))
    return out

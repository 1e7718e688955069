"""The archive's table of games, a row a game, and the home page's cards of the games, drawn here and
not by the pages' templates: each row and each card is a pure function of the fields it shows
(`ArchiveRow`), kept once drawn (`archive_row`, `home_card`), so that under `mkdocs serve` an edit
that changes one game's card draws again that game's row and card only, where a big archive has
thousands. The players' pages keep their rows alike (`dipgen.present.site.players.game_row`)."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from markupsafe import Markup, escape

from dipgen.present.site.card import CardDeadline, CardPlayer, CardStatus, GameCard
from dipgen.present.site.jinja import deadline_time, power_name

#: how many rows `archive_row` keeps drawn (one a game)
KEPT = 1 << 14


class ArchiveRow(NamedTuple):
    """A game's row of the archive's table: every field of its card the row shows, and its link."""

    title: str
    url: str
    variant: str
    gm: str
    players: tuple[CardPlayer, ...]
    years_sort: str
    years: str
    status: CardStatus
    deadline: CardDeadline | None

    @classmethod
    def of(cls, card: GameCard, url: str) -> ArchiveRow:
        return cls(card.title, url, card.variant, card.gm, card.players, card.years_sort, card.years, card.status,
                   card.deadline)


_OUT = ' class="dg-out"'


@lru_cache(maxsize=KEPT)
def archive_row(row: ArchiveRow) -> Markup:
    """The row's HTML (a line of its own)."""
    players = "".join(f'<li{_OUT if p.out else ""}>{power_name(p.power, p.colour)} {escape(p.who)}</li>'
                      for p in row.players)
    due = f'<span class="dg-due-line">due {deadline_time(row.deadline)}</span>' if row.deadline else ""
    return Markup(
        f'<tr><td data-sort="{escape(row.title.lower())}"><a href="{escape(row.url)}">{escape(row.title)}</a></td>'
        f'<td>{escape(row.variant)}</td><td>{escape(row.gm)}</td><td><ul class="dg-players">{players}</ul></td>'
        f'<td data-sort="{escape(row.years_sort)}">{escape(row.years)}</td>'
        f'<td data-sort="{escape(row.status.sort_key)}">'
        f'<span class="dg-status dg-status--{escape(row.status.kind)}">{escape(row.status.label)}</span>{due}</td>'
        "</tr>\n")


@lru_cache(maxsize=KEPT)
def home_card(row: ArchiveRow) -> Markup:
    """The game's card on a hand-written page (`pages.cards_of`), as HTML lines."""
    due = f'<span class="dg-card-due">Due {deadline_time(row.deadline)}</span>' if row.deadline else ""
    return Markup(
        f'<a class="dg-card" href="{escape(row.url)}">\n<span class="dg-card-title">{escape(row.title)}</span>\n'
        f'<span class="dg-status dg-status--{escape(row.status.kind)}">{escape(row.status.label)}</span>\n'
        f'<span class="dg-card-meta">{escape(row.variant)} · {escape(row.years)} · GM {escape(row.gm)}</span>\n'
        f"{due}</a>\n")

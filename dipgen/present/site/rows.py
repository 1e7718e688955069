"""The archive's table of games, a row a game, drawn here and not by the archive page's template:
each row is a pure function of the fields it shows (`ArchiveRow`), kept once drawn (`archive_row`),
so that under `mkdocs serve` an edit that changes one game's card draws again that game's row only,
where the table of a big archive has thousands. The players' pages keep their rows alike
(`dipgen.present.site.players.game_row`)."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from markupsafe import Markup, escape

from dipgen.present.site.card import CardDeadline, CardPlayer, CardStatus, GameCard
from dipgen.present.site.jinja import power_name

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


def deadline_time(d: CardDeadline) -> Markup:
    """A deadline as the pages print it (the templates' ``macros.deadline``)."""
    return Markup(f'<time class="dg-time" datetime="{escape(d.iso)}" data-dg-deadline>{escape(d.text)}</time>')


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

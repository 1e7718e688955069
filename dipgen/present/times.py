"""Times as the outputs show them: when each season was published, when a game last moved, and
when its orders are due, all read from one level's view.

A season's time is the one its view gives (the commit that added its phase file, as far as the
level may know it: `RecordView.time`). A season without one (its file not committed yet, or a
site built without git) takes a time that is never the clock nor a file's modification time, so
that a build is reproducible: the time of the season before it (a file committed after its
predecessor was published cannot be older), else the time game.yml was committed, else
midnight UTC on 1 January of the game's first year: a date no reader takes for a real one.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from dipgen.view import GameView

UTC = dt.timezone.utc
#: English names, whatever the locale of the machine that builds (strftime's %a and %b follow it)
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _first_year(view: GameView) -> int:
    if view.records:
        return view.records[0].phase.year
    phase = view.due or view.season or view.now.phase
    return phase.year


def start_time(view: GameView) -> dt.datetime:
    """When the game began, as far as the outputs can tell: game.yml's commit, else 1 January of its
    first year (midnight UTC)."""
    return view.info.created or dt.datetime(_first_year(view), 1, 1, tzinfo=UTC)


def record_times(view: GameView) -> list[dt.datetime]:
    """The time of each of the view's records, in order, with the fallback of the module's docstring."""
    out: list[dt.datetime] = []
    for r in view.records:
        out.append(r.time or (out[-1] if out else start_time(view)))
    return out


def latest(view: GameView) -> dt.datetime:
    """When the game last moved: its newest season's time, else when it began."""
    times = record_times(view)
    return max(times) if times else start_time(view)


def iso(when: dt.datetime) -> str:
    """RFC 3339 in UTC, to the second: '2026-03-07T12:00:00Z'."""
    t = when.astimezone(UTC)
    return f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}:{t.second:02d}Z"


def utc_text(when: dt.datetime) -> str:
    """The time for a reader without the script that shows her own time: 'Sat 7 Mar 2026, 12:00 UTC'."""
    t = when.astimezone(UTC)
    return f"{_DAYS[t.weekday()]} {t.day} {_MONTHS[t.month - 1]} {t.year}, {t.hour:02d}:{t.minute:02d} UTC"


def orders_due(label: str, capital: bool = True) -> str:
    """The words of every deadline line: 'Orders for Fall 1903 are due' (never 'Winter 1902
    adjustments orders are due'); 'orders for ...' inside a sentence."""
    return f"{'O' if capital else 'o'}rders for {label} are due"


def stale(deadline: dt.datetime, published: dt.datetime | None) -> bool:
    """Is `deadline` an earlier phase's? It falls before the latest phase file was published (the
    game moved on past it and the GM did not move ``deadline:``)."""
    return published is not None and deadline < published


def current_deadline(view: GameView) -> dt.datetime | None:
    """The view's deadline as the current one: None when none is given, the game is over, or it is
    stale (before the time of the view's latest season: as the level may know it, so that a hidden
    phase's file can neither hide nor show it)."""
    if view.deadline is None or view.finished:
        return None
    times = [r.time for r in view.records if r.time is not None]
    return None if stale(view.deadline, max(times, default=None)) else view.deadline


def due_label(view: GameView) -> str:
    """What the deadline is the deadline of, as the level is told: 'Fall 1903', 'Winter 1903 adjustments'."""
    if view.due is not None:
        return view.due_title()
    return view.season.season_name if view.season is not None else ""


@dataclass(frozen=True)
class Deadline:
    """A running game's deadline as the pages show it: in a ``<time datetime=iso>`` element whose
    text, `text`, is in UTC (the site's script rewrites it in the reader's own time)."""

    iso: str
    text: str
    label: str   # the phase it is the deadline of


def deadline(view: GameView) -> Deadline | None:
    """The view's current deadline (None: none given, the game is over, or it is stale)."""
    when = current_deadline(view)
    if when is None:
        return None
    return Deadline(iso(when), utc_text(when), due_label(view))


def deadline_line(view: GameView) -> str:
    """'Orders for Fall 1903 are due Sat 7 Mar 2026, 12:00 UTC.' for text (a report, a message); '' without one."""
    due = deadline(view)
    return f"{orders_due(due.label)} {due.text}." if due is not None and due.label else ""

"""A running game's deadline as an iCalendar file (RFC 5545), ``games/<slug>/deadline.ics``, that
a calendar application can subscribe to: one event, the deadline of the phase the game waits for
as the public view names it ("The Winter Palace: orders for Fall 1903 due"), with an alarm for
each of game.yml's ``reminders`` (a day before, unless the GM chose others). A deadline that has
gone stale (before the latest season's time: an earlier phase's) is not announced at all.

Its UID is fixed by the game and the phase, so that a calendar that reads the file again moves
the event when the GM moves the deadline, and adds a new one for the next turn. DTSTAMP is the
game's latest season's time (`dipgen.present.times.latest`), never the clock: a build is
reproducible. Written here, by hand, as the RFC says: CRLF line endings, lines folded at 75
octets, text escaped.
"""

from __future__ import annotations

import datetime as dt
import uuid

from dipgen import __version__
from dipgen.present.site.feeds import NAMESPACE, Place, address
from dipgen.present.site.links import game_folder, game_uri
from dipgen.present.times import current_deadline, due_label, latest, orders_due
from dipgen.view import GameView


def ics_uri(prefix: str, slug: str) -> str:
    return game_folder(prefix, slug) + "deadline.ics"


def text(value: str) -> str:
    """A TEXT value escaped (RFC 5545, 3.3.11): backslash, semicolon, comma and line breaks."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    value = value.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n")
    return "".join(c for c in value if c >= " " or c == "\t")  # no other control character may stand in TEXT


def fold(line: str) -> str:
    """A content line folded (RFC 5545, 3.1): at most 75 octets a line, a continuation starting with
    a space, never inside a UTF-8 sequence; CRLF after each."""
    data = line.encode("utf-8")
    parts, start, limit = [], 0, 75
    while len(data) - start > limit:
        end = start + limit
        while data[end] & 0xC0 == 0x80:  # a continuation byte: cut before its character
            end -= 1
        parts.append(data[start:end])
        start, limit = end, 74  # the space that starts a continuation line counts
    parts.append(data[start:])
    return "\r\n ".join(p.decode("utf-8") for p in parts) + "\r\n"


def stamp(when: dt.datetime) -> str:
    """A DATE-TIME in UTC: '20260307T120000Z'."""
    t = when.astimezone(dt.timezone.utc)
    return f"{t.year:04d}{t.month:02d}{t.day:02d}T{t.hour:02d}{t.minute:02d}{t.second:02d}Z"


def deadline_calendar(view: GameView, place: Place) -> dict[str, str]:
    """The game's deadline.ics, from its public view; nothing for a game that is over or has no deadline."""
    when = current_deadline(view)
    if when is None:
        return {}
    uri = ics_uri(place.prefix, view.slug)
    label = due_label(view)
    phase = view.due or view.season
    uid = uuid.uuid5(NAMESPACE, "\n".join((place.site_name, view.slug, phase.slug if phase else "", "deadline")))
    summary = f"{view.title}: orders for {label} due"
    page = address(place, uri, game_uri(place.prefix, view.slug)) if place.site_url else ""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:-//dipgen//dipgen {__version__}//EN", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", f"X-WR-CALNAME:{text(view.title + ': deadlines')}",
             "BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{stamp(latest(view))}", f"DTSTART:{stamp(when)}",
             f"SUMMARY:{text(summary)}",
             f"DESCRIPTION:{text(f'{orders_due(label)} in {view.title}.' + (f' {page}' if page else ''))}"]
    if page:
        lines.append(f"URL:{page}")
    for before in view.info.reminders:
        lines += ["BEGIN:VALARM", "ACTION:DISPLAY", f"TRIGGER;RELATED=START:-{duration(before)}",
                  f"DESCRIPTION:{text(f'{orders_due(label)} in {duration_words(before)}: {view.title}')}",
                  "END:VALARM"]
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return {uri: "".join(fold(line) for line in lines)}


def duration(span: dt.timedelta) -> str:
    """A positive duration as RFC 5545 writes it (3.3.6): 'P1D', 'PT2H', 'P1DT12H', 'PT30M'."""
    days, rest = span.days, span.seconds
    hours, minutes = rest // 3600, rest % 3600 // 60
    time = (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "")
    return "P" + (f"{days}D" if days else "") + (f"T{time}" if time else "")


def duration_words(span: dt.timedelta) -> str:
    """'1 day', '2 hours', '1 day 12 hours', '30 minutes'."""
    parts = [(span.days, "day"), (span.seconds // 3600, "hour"), (span.seconds % 3600 // 60, "minute")]
    return " ".join(f"{n} {word}{'s' * (n != 1)}" for n, word in parts if n)

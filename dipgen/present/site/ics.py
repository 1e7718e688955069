"""A running game's deadline as an iCalendar file (RFC 5545), ``games/<slug>/deadline.ics``, that
a calendar application can subscribe to: one event, the deadline of the phase the game waits for
as the public view names it ("The Winter Palace: Fall 1903 orders due").

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
from dipgen.present.times import due_label, latest
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
    if view.deadline is None or view.finished:
        return {}
    uri = ics_uri(place.prefix, view.slug)
    label = due_label(view)
    phase = view.due or view.season
    uid = uuid.uuid5(NAMESPACE, "\n".join((place.site_name, view.slug, phase.slug if phase else "", "deadline")))
    summary = f"{view.title}: {label} orders due"
    page = address(place, uri, game_uri(place.prefix, view.slug)) if place.site_url else ""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:-//dipgen//dipgen {__version__}//EN", "CALSCALE:GREGORIAN",
             "METHOD:PUBLISH", f"X-WR-CALNAME:{text(view.title + ': deadlines')}",
             "BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{stamp(latest(view))}", f"DTSTART:{stamp(view.deadline)}",
             f"SUMMARY:{text(summary)}",
             f"DESCRIPTION:{text(f'Orders for {label} of {view.title} are due.' + (f' {page}' if page else ''))}"]
    if page:
        lines.append(f"URL:{page}")
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return {uri: "".join(fold(line) for line in lines)}

"""game.yml's ``deadline:``: when the orders of the phase the game waits for are due.

An ISO 8601 date and time with its offset from UTC (``2026-03-07T12:00:00Z``,
``2026-03-07T13:00+01:00``): a time without an offset means a different moment to each reader,
and a date alone no moment at all, so both are refused with the line and a value written right.
YAML reads an unquoted date and time as a date itself (`datetime.datetime`, `datetime.date`);
a quoted one is text. Either way the deadline is kept as an aware `datetime` in UTC.
"""

from __future__ import annotations

import datetime as dt
import re

from dipgen.core.errors import Problem
from dipgen.io.yamlfile import kind_of, line_of

EXAMPLE = "deadline: 2026-03-07T12:00:00Z   (or with your offset: 2026-03-07T13:00:00+01:00)"

#: date, 'T' (or a space, as RFC 3339 and YAML allow), hours and minutes, optional seconds and
#: fraction, and the offset: Z or +hh:mm (+hhmm, +hh)
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?"
                  r"\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)")


def parse_deadline(text: str) -> dt.datetime:
    """`text` as an aware datetime in UTC; ValueError saying what is wrong with it."""
    m = _ISO.fullmatch(text.strip())
    if m is None:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
            raise ValueError("is a date alone: it needs the time of day and its offset from UTC")
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?", text.strip()):
            raise ValueError("is a time without its offset from UTC: each reader would take it for her own time")
        raise ValueError("is not an ISO 8601 date and time")
    year, month, day, hour, minute, second, fraction, zulu, sign, oh, om = m.groups()
    if not zulu and (int(oh) > 23 or int(om or 0) > 59):
        raise ValueError(f"has an offset, {sign}{oh}:{om or '00'}, that does not exist")
    offset = dt.timedelta(0) if zulu else (1 if sign == "+" else -1) * dt.timedelta(hours=int(oh), minutes=int(om or 0))
    micro = int((fraction or "0").ljust(6, "0")[:6])
    try:
        when = dt.datetime(int(year), int(month), int(day), int(hour), int(minute), int(second or 0), micro,
                           tzinfo=dt.timezone(offset))
    except ValueError as e:
        raise ValueError(f"is not a real date and time ({e})") from None
    return when.astimezone(dt.timezone.utc)


def read_deadline(data: dict, file: str, problems: list[Problem]) -> dt.datetime | None:
    """game.yml's ``deadline`` in UTC (None when absent or empty); anything but a date and time with
    its offset is a problem naming the line, with a value written right."""
    value = data.get("deadline")
    line = line_of(data, "deadline")
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            problems.append(Problem(file, line, "the deadline has no offset from UTC: each reader would take it "
                                    "for her own time", f"add Z (UTC) or the offset, e.g. {EXAMPLE}",
                                    code="bad-deadline"))
            return None
        return value.astimezone(dt.timezone.utc)
    if isinstance(value, dt.date):
        problems.append(Problem(file, line, "the deadline is a date alone: it needs the time of day and its "
                                "offset from UTC", f"e.g. {EXAMPLE}", code="bad-deadline"))
        return None
    if not isinstance(value, str):
        problems.append(Problem(file, line, f"the deadline must be a date and time, not {kind_of(value)}",
                                f"e.g. {EXAMPLE}", code="bad-deadline"))
        return None
    try:
        return parse_deadline(value)
    except ValueError as e:
        shown = value.strip()[:60]
        problems.append(Problem(file, line, f"the deadline {shown!r} {e}", f"e.g. {EXAMPLE}", code="bad-deadline"))
        return None

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

#: the years a deadline may fall in (UTC): anything else is a typo, and far enough from the ends of
#: what Python's dates hold (years 1 to 9999) that the local time of a reader, a reminder a week
#: before and the calendar's time stamps all stay inside them
FIRST_YEAR, LAST_YEAR = 1900, 9998
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
    return in_range(when)


def in_range(when: dt.datetime) -> dt.datetime:
    """`when` (aware) in UTC; ValueError if it falls outside FIRST_YEAR to LAST_YEAR (converting
    9999-12-31T23:59-10:00 to UTC would leave the calendar Python knows)."""
    if not FIRST_YEAR <= when.year <= LAST_YEAR:  # its own year, before any conversion can overflow
        raise ValueError(f"is out of range: a deadline falls between the years {FIRST_YEAR} and {LAST_YEAR}")
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
        try:
            return in_range(value)
        except ValueError as e:
            problems.append(Problem(file, line, f"the deadline {value.isoformat()} {e}", f"e.g. {EXAMPLE}",
                                    code="bad-deadline"))
            return None
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


#: ``reminders:`` when it is not given: a day before the deadline
DEFAULT_REMINDERS = (dt.timedelta(days=1),)
MAX_REMINDERS = 5
LONGEST_REMINDER = dt.timedelta(days=28)
REMINDER_EXAMPLE = "e.g. reminders: [P1D, PT2H]   (a day and two hours before; [] for none)"
#: an ISO 8601 duration in weeks, days, hours and minutes (P1D, PT2H, P1DT12H, PT30M, P1W)
_DURATION = re.compile(r"P(?:(\d{1,3})W)?(?:(\d{1,3})D)?(?:T(?:(\d{1,4})H)?(?:(\d{1,5})M)?)?", re.I)


def parse_duration(text: str) -> dt.timedelta:
    """An ISO 8601 duration of weeks, days, hours and minutes; ValueError saying what is wrong."""
    m = _DURATION.fullmatch(text.strip())
    if m is None or not any(m.groups()) or text.strip().upper().endswith("T"):
        raise ValueError("is not a duration such as P1D (a day), PT2H (two hours) or P1DT12H")
    weeks, days, hours, minutes = (int(g or 0) for g in m.groups())
    return dt.timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes)


def read_reminders(data: dict, file: str, problems: list[Problem]) -> tuple[dt.timedelta, ...]:
    """game.yml's ``reminders``: how long before the deadline the calendar reminds its readers (a day
    when absent; an empty list for none), each a duration between a minute and four weeks, at most
    MAX_REMINDERS, none twice."""
    if "reminders" not in data:
        return DEFAULT_REMINDERS
    raw, line = data.get("reminders"), line_of(data, "reminders")
    items = [] if raw is None else [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else None
    if items is None:
        problems.append(Problem(file, line, f"reminders must be a list of durations, not {kind_of(raw)}",
                                REMINDER_EXAMPLE, code="bad-value"))
        return DEFAULT_REMINDERS
    if len(items) > MAX_REMINDERS:
        problems.append(Problem(file, line, f"{len(items)} reminders: at most {MAX_REMINDERS}",
                                "keep the ones the players need", code="bad-value"))
        return DEFAULT_REMINDERS
    out: list[dt.timedelta] = []
    for i, item in enumerate(items):
        where = line_of(items, i) or line
        try:
            if not isinstance(item, str):
                raise ValueError(f"is {kind_of(item)}, not a duration")
            before = parse_duration(item)
            if not dt.timedelta(minutes=1) <= before <= LONGEST_REMINDER:
                raise ValueError("is out of range: a reminder comes between a minute and four weeks before")
        except ValueError as e:
            shown = item.strip()[:40] if isinstance(item, str) else "the reminder"
            problems.append(Problem(file, where, f"the reminder {shown!r} {e}", REMINDER_EXAMPLE, code="bad-value"))
            continue
        if before in out:
            problems.append(Problem(file, where, f"the reminder {item.strip()!r} is given twice", "keep one",
                                    code="bad-value"))
            continue
        out.append(before)
    return tuple(out)

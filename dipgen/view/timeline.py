"""Which phases a level is told of, and where it is told the game stands now.

For the GM, for every level of an open game, and for every level of a hidden game whose board
is public (Taskdip: the public sees the phases as played), the timeline is every phase played,
each as the level may see it.

For the public of a hidden game it is a **fixed calendar**: each year's Spring, Fall and Winter,
whatever happened in secret. Whether a retreat or an adjustment phase took place, whether one
is due, and what the centre totals are between a Fall turn and the next Spring can depend on
hidden facts, so none of them may show. The public calendar therefore advances with the
movement phases only:

- the Spring and Fall pages appear when those turns have been adjudicated. They show the
  movement as the variant lets the public see it, and, from the retreats that followed, only
  what the variant makes public (Stab!'s disbands), once the retreats have been played;
- the Winter page of a year appears with the next Spring (or when the game ends): the year's
  centre totals and the centre changes the public may know; never who adjusted, nor the
  Winter file's press and notes;
- centre totals shown anywhere are those of the last published Winter;
- the game is said to wait for the next movement phase, never for retreats or adjustments;
- NMR means, publicly: a power with centres at the last published count that sent no
  movement orders (no list, or an empty one). It does not depend on whether the power still
  has units, and retreat and adjustment phases report no NMRs.

A **player of such a game** sees the public calendar and what she herself may know: the
retreats she takes part in (her unit retreats, or she dislodged it) and the Winter in which
she adjusts, each in its place; a season whose retreats she takes no part in is one page, as
for the public (what she may know of those retreats folded into it); centre totals come with
the Winter, as for the public (in a Winter she adjusts in, before the public is told of it, she
knows her own powers' counts and the others' as the public last heard them), unless the variant
tells every player the totals once the Fall is closed (`Policy.tells_fall_totals`: Stab!); and
the game is said to wait for the next movement phase unless it waits for her own retreats or
adjustments.

Such a game's every Fall is closed by its retreat phase, played from its file even when nobody
retreats (`Policy.closed_by_file`): the phase is known to nobody but the GM, so it folds into the
Fall like any retreat a player takes no part in, and what she is told of the year's centres, and
when, never turns on whether anyone had to retreat.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from collections.abc import Callable, Mapping

from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from dipgen.core.results import OrderResult
from dipgen.play.records import History, PhaseRecord
from dipgen.view.cache import cache_of
from dipgen.view.seen import own_powers, phase_known, reader, record_link, retreats_known, seen_record, start_view
from dipgen.rules.visibility import GM, PUBLIC, Reader
from dipgen.view.types import UNKNOWN, PositionView, RecordView, Timeline, Unknown

def timeline(history: History, level: str) -> Timeline:
    """The timeline of `history` for `level` (cached by the view, `dipgen.view.cache`)."""
    cache = cache_of(history).timelines
    if level not in cache:
        cache[level] = _make(history, level)
    return cache[level]


def fixed_calendar(history: History) -> bool:
    """Does the public of this game follow a fixed calendar (a hidden game whose board is secret)?"""
    return history.variant.policy.hidden and history.variant.policy.fixed_calendar


def _make(history: History, level: str) -> Timeline:
    if level == GM or not fixed_calendar(history):
        return _as_played(history, level)
    if level == PUBLIC:
        return _public_calendar(history)
    return _seat_calendar(history, level)


def title(phase: Phase) -> str:
    """'Spring 1901', 'Fall 1901 retreats', 'Winter 1901 adjustments'."""
    return phase.name + (" adjustments" if phase.kind == ADJUSTMENTS else "")


def _year_end(history: History, record: PhaseRecord) -> bool:
    """Does the year's last season end with `record` (a Fall turn, or its retreats)?"""
    return history.variant.rules.calendar.ends_year(record.phase) and record.after.phase.kind == ADJUSTMENTS


# ----------------------------------------------------------------------------- as played

def _played(history: History, record: PhaseRecord, level: str) -> RecordView:
    v = seen_record(history, record, level)
    year_end = _year_end(history, record)
    due = history.variant.rules.adjustment_counts(record.after) if year_end and v.after.whole else {}
    return replace(v, title=title(record.phase), tells_totals=bool(v.centre_changes) or record.kind == ADJUSTMENTS
                   or year_end, due_after=due)


def _now(history: History, level: str, last: PhaseRecord | None, phase: Phase) -> PositionView:
    """The position after the last phase played, as `level` knows it now (a seat reads with the
    powers it controls now), said of `phase`."""
    if last is None:
        return start_view(history, level).at(phase)
    rd = reader(history, level, history.position.phase)
    return seen_record(history, last, level, rd).after.at(phase)


def _as_played(history: History, level: str) -> Timeline:
    records: list[RecordView] = []
    for r in history.records:
        if not phase_known(history, r, level):
            continue
        v = _played(history, r, level)
        if _closing_only(history, r) and records and records[-1].phase == Phase(r.phase.year, r.phase.season_index):
            records[-1] = _closed(records[-1], v)
        else:
            records.append(v)
    nxt = history.next_phase
    if nxt is None:
        due, season = None, None
    elif nxt.retreats and not retreats_known(history, level):
        due, season = None, history.variant.rules.calendar.season_of(nxt)  # the season goes on, as far as it knows
    else:
        due, season = nxt, None
    phase = due or season or history.position.phase
    return records, _now(history, level, history.records[-1] if history.records else None, phase), due, season, False


def _closing_only(history: History, record: PhaseRecord) -> bool:
    """Is `record` only the file that closes a Fall nobody retreated in (`Policy.closed_by_file`),
    without press or notes of its own?"""
    return (record.phase.retreats and not record.before.dislodged and not record.press and not record.notes
            and history.variant.policy.closed_by_file(record.phase))


def _closed(fall: RecordView, closing: RecordView) -> RecordView:
    """A Fall as played, once the empty file that closes it is in: one season, as where nobody is
    dislodged in an open game (its centres change hands, and the link after the closing file)."""
    return replace(fall, after=closing.after, centre_changes=fall.centre_changes + closing.centre_changes,
                   tells_totals=fall.tells_totals or closing.tells_totals, due_after=closing.due_after,
                   link=closing.link if closing.link is not None else fall.link)


# ----------------------------------------------------------------------------- the public calendar

def _bare(phase: Phase, totals: Mapping[str, int] | Unknown) -> PositionView:
    """A position that tells nothing but the centre totals."""
    return PositionView(phase, (), {}, totals)


def _alive(powers, totals) -> list[str]:
    return list(powers) if totals is UNKNOWN else [p for p in powers if totals.get(p, 1) > 0]


def _public_calendar(history: History) -> Timeline:
    powers = history.variant.rules.powers()
    calendar = history.variant.rules.calendar
    records = history.records
    movements = [r for r in records if r.kind == MOVEMENT]
    retreats = {r.phase: r for r in records if r.kind == RETREATS}
    year_last: dict[int, PhaseRecord] = {}
    for r in records:
        year_last[r.phase.year] = r
    played = {m.phase for m in movements}
    counts = start_view(history, PUBLIC).totals

    def winter(year: int) -> RecordView:
        last = seen_record(history, year_last[year], PUBLIC)
        changes = tuple(c for r in records if r.phase.year == year and calendar.ends_year(r.phase)
                        for c in seen_record(history, r, PUBLIC).centre_changes)
        phase = calendar.adjustments(year)
        # its last movement file: its time and link are public
        fall = [r for r in movements if r.phase.year == year][-1]
        return RecordView(phase, phase.name, _bare(phase, last.after.totals),
                          _bare(calendar.first(year + 1), last.after.totals),
                          centre_changes=changes, summary_only=True, tells_totals=True, time=fall.time,
                          link=record_link(history, fall, PUBLIC))

    out: list[RecordView] = []
    for m in movements:
        phase = m.phase
        if calendar.starts_year(phase) and calendar.last_season(phase.year - 1) in played:
            w = winter(phase.year - 1)
            out.append(w)
            counts = w.after.totals
        seen = seen_record(history, m, PUBLIC)
        folded = retreats.get(calendar.retreats_of(phase))
        later = seen_record(history, folded, PUBLIC).results if folded is not None else ()
        nxt = calendar.adjustments(phase.year) if calendar.ends_year(phase) else calendar.next_movement(phase)
        out.append(replace(
            seen, title=phase.name, orders={}, centre_changes=(), adjustments={},
            before=PositionView(seen.before.phase, seen.before.units, seen.before.owners, counts, (),
                                seen.before.economy),
            after=PositionView(nxt, seen.after.units, seen.after.owners, counts, (), seen.after.economy),
            nmr=tuple(p for p in _alive(powers, counts) if not m.orders.get(p)), retreat_results=later))
    if history.finished and movements and calendar.ends_year(movements[-1].phase):
        out.append(winter(movements[-1].phase.year))
    if history.finished:
        now = out[-1].after if out else _bare(history.position.phase, counts)
        return out, now, None, None, True
    if out:
        due = calendar.next_movement(movements[-1].phase)
        return out, out[-1].after.at(due), due, None, True
    due = history.position.phase
    return out, start_view(history, PUBLIC).at(due), due, None, True


# ----------------------------------------------------------------------------- a player's calendar

def _seat_calendar(history: History, level: str) -> Timeline:
    """The public calendar and what the seat `level` herself may know (see the module's docstring)."""
    public, public_now, public_due, _, _ = timeline(history, PUBLIC)
    calendar = history.variant.rules.calendar
    by_phase = {r.phase: r for r in public}
    records = history.records
    own_winters = {r.phase.year for r in records if r.kind == ADJUSTMENTS and phase_known(history, r, level)}
    out: list[RecordView] = []
    last: Callable[[Reader | None], RecordView] | None = None  # the latest entry, made again for another reader

    def public_winter(year: int) -> None:
        w = by_phase.get(calendar.adjustments(year))
        if w is not None and year not in own_winters:
            out.append(w)

    def movement(i: int, rd: Reader | None = None) -> RecordView:
        nxt = records[i + 1] if i + 1 < len(records) else None
        return _seat_movement(history, records[i], nxt, level, by_phase[records[i].phase], rd)

    def known(i: int, rd: Reader | None = None) -> RecordView:
        r = records[i]
        v = replace(seen_record(history, r, level, rd), title=title(r.phase), tells_totals=r.kind == ADJUSTMENTS)
        if r.phase not in by_phase and _year_told(history, r):  # her Fall's retreats or her Winter: the
            v = replace(v, tells_totals=True)  # year's totals, which the variant tells every player then
        elif r.phase not in by_phase:  # her retreats or her Winter, which the public is not shown
            # the totals the public knew then: those of the season her retreats follow, or the
            # latest for her Winter (the public hears the year's with its Winter page)
            told = by_phase[records[i - 1].phase].after.totals if r.kind != ADJUSTMENTS and i > 0 \
                and records[i - 1].phase in by_phase else public_now.totals
            mine = own_powers(history.seating, level, r.phase, history.variant.rules.powers())
            v = replace(v, before=_own_totals(v.before, told, mine), after=_own_totals(v.after, told, mine))
        return v

    for i, r in enumerate(records):
        if r.kind == MOVEMENT:
            if calendar.starts_year(r.phase):
                public_winter(r.phase.year - 1)
            last = partial(movement, i)
        elif phase_known(history, r, level):
            last = partial(known, i)
        else:
            continue
        out.append(last())
    if history.finished:
        if records and not calendar.starts_year(records[-1].phase):
            public_winter(records[-1].phase.year)
        return out, out[-1].after if out else public_now, None, None, False
    nxt = history.next_phase
    assert nxt is not None  # a game not finished waits for a phase
    own = own_powers(history.seating, level, history.position.phase, history.variant.rules.powers())
    due: Phase | None
    if nxt.kind == RETREATS and retreats_known(history, level):
        due = nxt
    elif nxt.kind == ADJUSTMENTS and set(own) & set(history.variant.rules.adjustment_counts(history.position)):
        due = nxt
    else:
        due = public_due
    # what she knows now, read with the powers her seat controls now (a power may have come to her)
    rd = reader(history, level, history.position.phase)
    assert due is not None  # the public calendar of a game that runs waits for a phase
    now = last(rd).after.at(due) if last is not None else start_view(history, level).at(due)
    return out, now, due, None, False


def _own_totals(position: PositionView, public: Mapping[str, int] | Unknown, mine: tuple[str, ...]) -> PositionView:
    """`position` with the centre totals the public was last told, but for her own powers' (a
    player who adjusts in a Winter the public has not been told of yet knows her own count, and
    no one else's: the others' depend on what happened where she was not)."""
    if position.totals is UNKNOWN or public is UNKNOWN:
        return replace(position, totals=UNKNOWN)
    return replace(position, totals={**public, **{p: position.totals.get(p, 0) for p in mine}})


def _seat_movement(history: History, m: PhaseRecord, nxt: PhaseRecord | None, level: str,
                   public: RecordView, rd: Reader | None = None) -> RecordView:
    """A movement phase as a player sees it (reading as `rd`, by default as her seat then): her own
    view of it, with the public's centre totals and NMRs; where retreats followed that she takes
    no part in, what she may know of them folded in, so that the season reads the same whether
    anyone retreated or not."""
    v = seen_record(history, m, level, rd)
    after = v.after
    folded = nxt is not None and nxt.phase == history.variant.rules.calendar.retreats_of(m.phase) \
        and not phase_known(history, nxt, level)
    changes, later = v.centre_changes, tuple[OrderResult, ...]()
    if folded and nxt is not None:
        rv = seen_record(history, nxt, level, rd)
        units = tuple(after.units) + tuple(u for u in rv.after.units if u not in after.units)
        after = PositionView(rv.after.phase, units, rv.after.owners, rv.after.totals, (), rv.after.economy,
                             rv.after.whole)
        changes, later = changes + rv.centre_changes, rv.results
    told = folded and nxt is not None and _year_told(history, nxt)  # the Fall closed: the year's totals, if told
    return replace(v, title=public.title, nmr=public.nmr, centre_changes=changes, retreat_results=later,
                   before=replace(v.before, totals=public.before.totals),
                   after=after if told else replace(after, totals=public.after.totals), tells_totals=told,
                   due_after={})


def _year_told(history: History, record: PhaseRecord) -> bool:
    """Is every player told every power's centre total after `record`, a phase the public is not
    shown: the one that closes a Fall (its retreats, or the empty file) or a Winter, where the
    variant tells the totals before the Winter (`Policy.tells_fall_totals`: Stab!)?"""
    calendar = history.variant.rules.calendar
    return history.variant.policy.tells_fall_totals and (
        record.kind == ADJUSTMENTS or (record.phase.retreats and calendar.ends_year(record.phase)))


__all__ = ["Timeline", "fixed_calendar", "timeline", "title"]

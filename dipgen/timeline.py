"""What one visibility level is shown of a game's course: the phases it is told of, each as
it may see it, and where it is told the game stands now.

Every page, map and status line is made from a `Timeline`, so they can only say what it says.

For the GM, for every level of an open game, and for a power of a hidden game, the timeline is
the phases that level knows took place (`dipgen.visibility.phase_known`), as it may see them.

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
"""

from __future__ import annotations

from dataclasses import dataclass

from .records import History, PhaseRecord
from .phase import MOVEMENT, RETREATS, Phase
from .position import Position
from .visibility import PUBLIC, due_phase, known_records, view_position, view_record


@dataclass(frozen=True)
class Timeline:
    """The pages a level is shown, and the game as it is told to that level."""

    level: str
    records: tuple[PhaseRecord, ...]  # one per page, in order of play; views
    now: Position                     # the position now, as this level knows it
    due: Phase | None                 # the phase this level is told the game waits for
    fixed: bool = False               # a fixed public calendar (see the module's docstring)

    def record(self, phase: Phase) -> PhaseRecord:
        for r in self.records:
            if r.phase == phase:
                return r
        raise KeyError(phase)

    def phases(self) -> list[Phase]:
        return [r.phase for r in self.records]

    def summary_only(self, phase: Phase) -> bool:
        """A page that tells only the year's totals (a Winter of the fixed calendar): no maps,
        no orders."""
        return self.fixed and phase.season_index == 2

    def title(self, phase: Phase) -> str:
        """'Spring 1901', 'Fall 1901 retreats', 'Winter 1901 adjustments' ('Winter 1901' on a
        fixed calendar, which tells nothing of adjustments)."""
        if phase.season_index == 2 and not self.fixed:
            return phase.name + " adjustments"
        return phase.name


def timeline(history: History, level: str) -> Timeline:
    """The timeline of `history` for `level` (cached on the history)."""
    cache = history.__dict__.setdefault("_timelines", {})
    if level not in cache:
        cache[level] = _make(history, level)
    return cache[level]


def fixed_calendar(history: History, level: str) -> bool:
    return level == PUBLIC and history.game.variant.hidden and history.game.variant.fixed_calendar


def _make(history: History, level: str) -> Timeline:
    return _public_calendar(history) if fixed_calendar(history, level) else _as_played(history, level)


def _as_played(history: History, level: str) -> Timeline:
    """Every phase `level` knows took place, as it may see it."""
    return Timeline(level, tuple(known_records(history, level)), view_position(history, history.position, level),
                    due_phase(history, level))


# ----------------------------------------------------------------------------- the public calendar

def _counts(position: Position, powers) -> dict[str, int]:
    """The centre totals a view knows ({} when it knows none)."""
    if position.counts is None:
        return position.centre_counts(powers)
    return {p: position.counts[p] for p in powers if p in position.counts}


def _bare(phase: Phase, counts: dict[str, int]) -> Position:
    """A position that tells nothing but the centre totals."""
    return Position(phase, (), {}, (), dict(counts))


def _next_movement(phase: Phase) -> Phase:
    return Phase(phase.year, 1) if phase.season_index == 0 else Phase(phase.year + 1, 0)


def _public_calendar(history: History) -> Timeline:
    powers = history.game.variant.powers()
    records = history.records
    movements = [r for r in records if r.kind == MOVEMENT]
    retreats = {r.phase: r for r in records if r.kind == RETREATS}
    year_last: dict[int, PhaseRecord] = {}
    for r in records:
        year_last[r.phase.year] = r
    played = {m.phase for m in movements}
    counts = _counts(view_record(history, records[0], PUBLIC).before if records
                     else view_position(history, history.position, PUBLIC), powers)

    def winter(year: int) -> PhaseRecord:
        last = view_record(history, year_last[year], PUBLIC)
        totals = _counts(last.after, powers)
        changes = tuple(c for r in records if r.phase.year == year and r.phase.season_index == 1
                        for c in view_record(history, r, PUBLIC).centre_changes)
        phase = Phase(year, 2)
        return PhaseRecord(phase, _bare(phase, totals), {}, (), _bare(Phase(year + 1, 0), totals), (), (),
                           changes)

    out: list[PhaseRecord] = []
    for m in movements:
        phase = m.phase
        if phase.season_index == 0 and Phase(phase.year - 1, 1) in played:
            w = winter(phase.year - 1)
            out.append(w)
            counts = _counts(w.after, powers)
        seen = view_record(history, m, PUBLIC)
        folded = retreats.get(Phase(phase.year, phase.season_index, True))
        later = view_record(history, folded, PUBLIC).results if folded is not None else ()
        alive = [p for p in powers if counts.get(p, 1) > 0]
        out.append(PhaseRecord(
            phase, seen.before.with_(counts=dict(counts), dislodged=()),
            {}, seen.results,
            seen.after.with_(phase=_next_movement(phase) if phase.season_index == 0 else Phase(phase.year, 2),
                             counts=dict(counts), dislodged=()),
            seen.dislodged, seen.destroyed, (), {}, tuple(p for p in alive if not m.orders.get(p)),
            m.press, m.notes, m.file, later))
    if history.finished and movements and movements[-1].phase.season_index == 1:
        out.append(winter(movements[-1].phase.year))
    if history.finished:
        now = out[-1].after if out else _bare(history.position.phase, counts)
        return Timeline(PUBLIC, tuple(out), now, None, fixed=True)
    if out:
        last = movements[-1].phase
        due = _next_movement(last)
        now = out[-1].after.with_(phase=due)
    else:
        due = history.position.phase
        now = view_position(history, history.position, PUBLIC)
    return Timeline(PUBLIC, tuple(out), now, due, fixed=True)

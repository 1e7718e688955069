"""Visibility: who may know each fact of a History, and views that keep only what one level knows.

Levels are ``"gm"`` (everything), ``"public"`` (what everyone knows), each power's name
(what that power knows) and each seat's key (`dipgen.seats`: what the powers the seat
controlled knew, phase by phase; in the standard form a seat is keyed by its power's name,
so the two are one level). For every record the variant says, as data, who may know each
fact (`RecordVisibility`): each unit's position before and after, each order result (in
full, or only in part: ``A Pic *s``), each dislodgement and its retreats, each centre's
owner, the centre totals, each change of owner, each power's adjustments and orders as
written. `view_record` applies that to give the record a level may see; maps, pages and
reports are made from views only, so nothing can show what the view left out.

Open variants make everything public; hidden variants override
``Variant.record_visibility`` (and ``start_visibility`` for the opening position).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping

from .engine.results import Illegal, Kind, Note, OrderResult
from .orders import Concealed, Convoy, Support
from .phase import Phase
from .position import Dislodged, Position, Unit

from .records import History, PhaseRecord
from .seats import Seating, seat_levels

GM, PUBLIC = "gm", "public"
Audience = frozenset  # of level names; containing PUBLIC means everyone
EVERYONE: Audience = frozenset({PUBLIC})
NOBODY: Audience = frozenset()  # the GM only


def knows(level: str | frozenset[str], audience: Audience) -> bool:
    """Whether `level` (or a seat reading with a set of levels, see `reader`) may know a fact
    told to `audience`."""
    if isinstance(level, str):
        return level == GM or PUBLIC in audience or level in audience
    return GM in level or PUBLIC in audience or not level.isdisjoint(audience)


@dataclass(frozen=True)
class PositionVisibility:
    """Who may know each fact of a position."""

    units: Mapping[Unit, Audience]
    owners: Mapping[str, Audience]   # centre -> who knows its owner
    counts: Audience                  # who knows each power's centre total
    dislodged: Mapping[Unit, Audience]  # who knows the unit is dislodged
    retreats: Mapping[Unit, Audience]   # who knows where it may retreat
    #: what of the variant's state (`Position.economy`) every view keeps (None: nothing)
    economy: Mapping | None = None

    @classmethod
    def open(cls, position: Position) -> "PositionVisibility":
        return cls({u: EVERYONE for u in position.units}, {c: EVERYONE for c in position.owners}, EVERYONE,
                   {d.unit: EVERYONE for d in position.dislodged}, {d.unit: EVERYONE for d in position.dislodged})


@dataclass(frozen=True)
class RecordVisibility:
    """Who may know each fact of one PhaseRecord. Facts left out are the GM's alone."""

    before: PositionVisibility
    after: PositionVisibility
    results: tuple[Audience, ...]          # in full, index for index with record.results
    results_partial: tuple[Audience, ...]  # only that the unit supported / convoyed something
    dislodged: Mapping[Unit, Audience]     # that it was dislodged (a destroyed unit included)
    retreats: Mapping[Unit, Audience]      # its retreat options, or that it was destroyed
    centre_changes: tuple[Audience, ...]
    adjustments: Mapping[str, Audience]    # power -> who knows its builds/removals due
    orders: Mapping[str, Audience]         # power -> who may read its orders as written
    nmr: Audience = EVERYONE

    @classmethod
    def open(cls, record: PhaseRecord) -> "RecordVisibility":
        every = tuple(EVERYONE for _ in record.results)
        gone = {d.unit: EVERYONE for d in record.dislodged + record.destroyed}
        return cls(PositionVisibility.open(record.before), PositionVisibility.open(record.after), every, every,
                   gone, gone, tuple(EVERYONE for _ in record.centre_changes),
                   {p: EVERYONE for p in record.adjustments}, {p: EVERYONE for p in record.orders})


def levels(history: History) -> list[str]:
    """Every level of a game: gm, public, each power, then each seat not keyed by a power."""
    powers = history.game.variant.powers()
    return [GM, PUBLIC, *powers, *(k for k in seating(history).keys() if k not in powers)]


def seating(history: History) -> Seating:
    """`History.seating`, cached on the history."""
    cache = history.__dict__
    if "_seating" not in cache:  # a stand-in history without seats (in tests): every level reads as itself
        cache["_seating"] = getattr(history, "seating", None) or Seating((), {})
    return cache["_seating"]


def reader(history: History, level: str, phase: Phase | None) -> frozenset[str]:
    """The levels `level` reads with at `phase`: a seat reads with its own key and the powers it
    controls then (`dipgen.seats.seat_levels`); any other level as itself."""
    return frozenset({level}) if level in (GM, PUBLIC) else seat_levels(seating(history), level, phase)


def _check(history: History, level: str) -> None:
    if level not in levels(history):
        raise ValueError(f"unknown view {level!r}; views are {', '.join(levels(history))}")


def record_visibility(history: History, record: PhaseRecord) -> RecordVisibility:
    """The variant's ruling on who may know what in `record` (cached on the history)."""
    cache = history.__dict__.setdefault("_visibility", {})
    if record.phase not in cache:
        cache[record.phase] = history.game.variant.record_visibility(history, record)
    return cache[record.phase]


def phase_known(history: History, record: PhaseRecord, level: str) -> bool:
    """Does `level` know that this phase took place at all? (In Blind, a retreat phase tells
    that someone was dislodged: only those involved know of it.)"""
    if level == GM or not history.game.variant.hidden:
        return True
    variant = history.game.variant
    return any(variant.phase_known(record, lv) for lv in sorted(reader(history, level, record.phase)))


def retreats_known(history: History, level: str) -> bool:
    """Does `level` know that the game now waits for retreats?"""
    if level == GM or not history.game.variant.hidden or not history.position.dislodged:
        return True
    variant = history.game.variant
    return any(variant.retreats_known(history.position, lv) for lv in sorted(reader(history, level, history.position.phase)))


def due_phase(history: History, level: str):
    """The phase the game waits for, as `level` may know it: None when it is over, or when it
    waits for retreats that `level` may not know of (then the season is still being played)."""
    nxt = history.next_phase
    if nxt is None or (nxt.retreats and not retreats_known(history, level)):
        return None
    return nxt


def known_records(history: History, level: str) -> list[PhaseRecord]:
    """The records `level` knows took place, as `level` may see them."""
    return [view_record(history, r, level) for r in history.records if phase_known(history, r, level)]


def view_record(history: History, record: PhaseRecord, level: str) -> PhaseRecord:
    """What `level` may know of `record`."""
    _check(history, level)
    if not history.game.variant.hidden or level == GM:
        return record
    return apply(record, record_visibility(history, record), reader(history, level, record.phase),
                 history.game.variant.unit_kinds)


def view_position(history: History, position: Position, level: str) -> Position:
    """What `level` may know of `position`: the position after the last record, or the opening one."""
    _check(history, level)
    if not history.game.variant.hidden or level == GM:
        return position
    if history.records and position == history.records[-1].after:
        last = history.records[-1]
        now = reader(history, level, position.phase)
        if now == reader(history, level, last.phase):
            seen = view_record(history, last, level).after
        else:  # a power changed hands after the last phase: its new seat knows what the power knows
            seen = apply(last, record_visibility(history, last), now, history.game.variant.unit_kinds).after
        if seen.phase.retreats and not retreats_known(history, level):
            # the season goes on, as far as this level knows
            seen = seen.with_(phase=Phase(seen.phase.year, seen.phase.season_index))
        return seen
    vis = history.game.variant.start_visibility(history, position)
    return _position(position, vis, reader(history, level, position.phase))


# ---------------------------------------------------------------------------- applying it
def _position(pos: Position, vis: PositionVisibility, level: str | frozenset[str]) -> Position:
    units = tuple(u for u in pos.units if knows(level, vis.units.get(u, NOBODY)))
    owners = {c: p for c, p in pos.owners.items() if knows(level, vis.owners.get(c, NOBODY))}
    counts = None
    if len(owners) < len(pos.owners) and knows(level, vis.counts):
        counts = dict(pos.centre_counts({p for p in pos.owners.values()}))
    elif len(owners) < len(pos.owners):
        counts = {}
    dislodged = tuple(
        replace(d, retreats=d.retreats if knows(level, vis.retreats.get(d.unit, NOBODY)) else None)
        for d in pos.dislodged if knows(level, vis.dislodged.get(d.unit, NOBODY)))
    return Position(pos.phase, units, owners, dislodged, counts, economy=vis.economy)


def _clean_note(note: Note, seen: set[Unit]) -> Note:
    """A note naming only units the level sees (a foreign unit standing where an order named one
    of the orderer's own, unseen, leaves only that the orderer had none there)."""
    if note.source is None and not note.against:
        return note
    source = note.source if note.source in seen else None
    reason = Illegal.NO_UNIT if note.reason is Illegal.NOT_YOURS and source is None else note.reason
    return replace(note, reason=reason, source=source, against=tuple(u for u in note.against if u in seen))


#: what a concealed order's result may say: the kind alone, no reason and no particulars
_PARTIAL_KINDS = frozenset({Kind.CUT, Kind.DISLODGED, Kind.VOID})


def _partial(result: OrderResult) -> OrderResult:
    verb = "S" if isinstance(result.order, Support) else "C" if isinstance(result.order, Convoy) else None
    order = Concealed(result.order.unit, verb) if verb else result.order
    notes = tuple(Note(n.kind) for n in result.notes if n.kind in _PARTIAL_KINDS)
    return replace(result, order=order, notes=notes)


def apply(record: PhaseRecord, vis: RecordVisibility, level: str | frozenset[str], kinds: Mapping) -> PhaseRecord:
    """The record as `level` (or a seat's set of levels, see `reader`) may see it, by the rulings
    in `vis` (`kinds`: the variant's unit kinds)."""
    before = _position(record.before, vis.before, level)
    after = _position(record.after, vis.after, level)
    # the provinces where the level sees a unit that fights (a spy of its own names nobody there)
    seen = {u.province for u in before.units if kinds[u.kind].fights} | {d.unit.province for d in before.dislodged}
    units_seen = {u for u in before.units if kinds[u.kind].fights} | {d.unit for d in before.dislodged}
    results = []
    for r, full, part in zip(record.results, vis.results, vis.results_partial):
        if knows(level, full):
            results.append(replace(r, notes=tuple(_clean_note(n, units_seen) for n in r.notes)))
        elif knows(level, part):
            results.append(_partial(r))
    dislodged, destroyed = [], []
    for d in record.dislodged + record.destroyed:
        if not knows(level, vis.dislodged.get(d.unit, NOBODY)):
            continue
        fate_known = knows(level, vis.retreats.get(d.unit, NOBODY))
        src = d.attacker_from if d.attacker_from in seen else ""
        shown = Dislodged(d.unit, src, d.by_power if src else "", d.retreats if fate_known else None)
        (destroyed if d in record.destroyed and fate_known else dislodged).append(shown)
    changes = tuple(c for c, a in zip(record.centre_changes, vis.centre_changes) if knows(level, a))
    return replace(
        record, before=before, after=after, results=tuple(results), dislodged=tuple(dislodged),
        destroyed=tuple(destroyed), centre_changes=changes,
        adjustments={p: n for p, n in record.adjustments.items() if knows(level, vis.adjustments.get(p, NOBODY))},
        orders={p: ls for p, ls in record.orders.items() if knows(level, vis.orders.get(p, NOBODY))},
        nmr=record.nmr if knows(level, vis.nmr) else ())


def own_powers(history: History, level: str, phase: Phase | None) -> tuple[str, ...]:
    """The powers whose own units and centres `level` reads as "yours" at `phase`: a power's
    level its power, a seat's the powers it controls then, any other level none."""
    if level in history.game.variant.board.powers:
        return (level,)
    return seating(history).powers_of(level, phase)

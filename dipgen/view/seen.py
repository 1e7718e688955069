"""What a level may see of one record or position: the variant's policy applied, and the one
rule for when a game is `revealed`. `dipgen.view.timeline` decides which records a level is
shown; `dipgen.view.game` puts the two together into the one door, `game_view`.
"""

from __future__ import annotations

from dataclasses import replace
from dipgen.core.results import Illegal, Kind, Note, OrderResult
from dipgen.core.orders import Concealed, Convoy, Support
from dipgen.core.phase import MOVEMENT, Phase
from dipgen.core.position import Position, Unit
from dipgen.play.records import History, PhaseRecord
from dipgen.rules.seats import Seating, seat_levels
from dipgen.rules.visibility import (EVERYONE, GM, NOBODY, PUBLIC, PositionVisibility, Reader, RecordVisibility, knows,
                                     reveal_reached)
from dipgen.view.cache import cache_of
from dipgen.view.types import UNKNOWN, DislodgedView, Link, PositionView, RecordView


# ----------------------------------------------------------------------------- levels

def levels(history: History) -> list[str]:
    """Every level of a game: gm, public, each power, then each seat not keyed by a power."""
    powers = history.variant.rules.powers()
    return [GM, PUBLIC, *powers, *(k for k in history.seating.keys() if k not in powers)]


def check_level(history: History, level: str) -> None:
    if level not in levels(history):
        raise ValueError(f"unknown view {level!r}; views are {', '.join(levels(history))}")


def reader(history: History, level: str, phase: Phase | None) -> Reader:
    """The levels `level` reads with at `phase`: a seat reads with its own key and the powers it
    controls then (`dipgen.rules.seats.seat_levels`); any other level as itself."""
    return level if level in (GM, PUBLIC) else seat_levels(history.seating, level, phase)


def own_powers(seating: Seating, level: str, phase: Phase | None, powers) -> tuple[str, ...]:
    """The powers whose own units and centres `level` reads as "yours" at `phase`: a power's
    level its power, a seat's the powers it controls then, any other level none."""
    if level in powers:
        return (level,)
    return seating.powers_of(level, phase)


def record_visibility(history: History, record: PhaseRecord) -> RecordVisibility:
    """The variant's ruling on who may know what in `record` (cached by the view, `dipgen.view.cache`)."""
    cache = cache_of(history).visibility
    if record.phase not in cache:
        cache[record.phase] = history.variant.policy.record_visibility(history, record)
    return cache[record.phase]


def phase_known(history: History, record: PhaseRecord, level: str) -> bool:
    """Does `level` know that this phase took place at all? Where the board is secret (a hidden
    game with a fixed public calendar) a retreat phase tells that someone was dislodged, and an
    adjustment phase that someone adjusts: only those involved know of them
    (`Policy.phase_known`). Everywhere else every level knows every phase."""
    variant = history.variant
    if level == GM or not variant.policy.hidden or not variant.policy.fixed_calendar:
        return True
    rd = reader(history, level, record.phase)
    return any(variant.policy.phase_known(record, lv) for lv in sorted(rd if isinstance(rd, frozenset) else {rd}))


def retreats_known(history: History, level: str) -> bool:
    """Does `level` know that the game now waits for retreats?"""
    if level == GM or not history.variant.policy.hidden:
        return True
    rd = reader(history, level, history.position.phase)
    return any(history.variant.policy.retreats_known(history.position, lv)
               for lv in sorted(rd if isinstance(rd, frozenset) else {rd}))


# ----------------------------------------------------------------------------- applying a policy

def totals(position: Position, powers) -> dict[str, int]:
    """Every power's centre total in a position of the History."""
    return position.centre_counts(powers)


def view_position(position: Position, vis: PositionVisibility, rd: Reader, powers) -> PositionView:
    """`position` as `rd` may know it by the rulings in `vis`."""
    economy = vis.economy_for(rd)
    if knows(rd, vis.whole):
        dislodged = tuple(DislodgedView(d.unit, d.attacker_from, d.by_power, tuple(d.retreats or ()))
                          for d in position.dislodged)
        return PositionView(position.phase, position.units, dict(position.owners), totals(position, powers),
                            dislodged, economy, True)
    units = tuple(u for u in position.units if knows(rd, vis.units.get(u, NOBODY)))
    owners = {c: p for c, p in position.owners.items() if knows(rd, vis.owners.get(c, NOBODY))}
    dislodged = tuple(
        DislodgedView(d.unit, d.attacker_from, d.by_power,
                      tuple(d.retreats or ()) if knows(rd, vis.retreats.get(d.unit, NOBODY)) else UNKNOWN)
        for d in position.dislodged if knows(rd, vis.dislodged.get(d.unit, NOBODY)))
    return PositionView(position.phase, units, owners,
                        totals(position, powers) if knows(rd, vis.counts) else UNKNOWN, dislodged, economy, False)


def _clean_note(note: Note, seen: set[Unit]) -> Note:
    """A note naming only units the level sees (a foreign unit standing where an order named one
    of the orderer's own, unseen, leaves only that the orderer had none there)."""
    if note.source is None and not note.against:
        return note
    if note.source in seen and all(u in seen for u in note.against):
        return note  # it names only what the level sees (as every note of an open game)
    source = note.source if note.source in seen else None
    reason = Illegal.NO_UNIT if note.reason is Illegal.NOT_YOURS and source is None else note.reason
    return replace(note, reason=reason, source=source, against=tuple(u for u in note.against if u in seen))


#: what a concealed order's result may say: the kind alone, no reason and no particulars
_PARTIAL_KINDS = frozenset({Kind.CUT, Kind.DISLODGED})

#: what an observer (a reader who sees a foreign unit but not its power's orders) is told of a
#: support or convoy: what befell the unit itself. Whether it matched the unit it named ("void"),
#: or whether that unit was there at all, is about a unit elsewhere
_AT_THE_UNIT = frozenset({Kind.CUT, Kind.DISLODGED, Kind.DESTROYED, Kind.INTAKE, Kind.EFFECT})


def _elsewhere(record: PhaseRecord) -> dict[Unit, OrderResult]:
    """Each unit whose written order the rules set aside only because of other units
    (`Illegal.ELSEWHERE`), with that order's result."""
    return {r.unit: r for r in record.results if r.unit is not None and r.unit.power == r.power
            and any(n.kind is Kind.ILLEGAL and n.reason is Illegal.ELSEWHERE for n in r.notes)}


def _observed(result: OrderResult, elsewhere: dict[Unit, OrderResult]) -> OrderResult:
    """`result` as an observer of the unit is told it: never whether the rules supplied it (that,
    or a misorder they replaced, is its power's to know); the order as written where the rules
    replaced it for want of other units (a hold in its place would tell that the unit it named was
    missing); and a support or convoy marked only with what befell the unit itself."""
    written = elsewhere.get(result.unit) if result.default and result.unit is not None else None
    result = replace(result, order=result.order if written is None else written.order, default=False)
    if not isinstance(result.order, (Support, Convoy)):
        return result
    notes = tuple(n for n in result.notes if n.kind in _AT_THE_UNIT)
    befell = any(n.kind in (Kind.CUT, Kind.DISLODGED, Kind.DESTROYED) for n in notes)
    return replace(result, notes=notes, succeeded=not befell)


def _partial(result: OrderResult) -> OrderResult:
    order = result.order
    if isinstance(order, (Support, Convoy)):  # what it supported or convoyed is not told
        order = Concealed(order.unit, "S" if isinstance(order, Support) else "C")
    notes = tuple(Note(n.kind) for n in result.notes if n.kind in _PARTIAL_KINDS)
    return replace(result, order=order, notes=notes, default=False, route=())


def seen_record(history: History, record: PhaseRecord, level: str, rd: Reader | None = None) -> RecordView:
    """`record` as `level` (reading as `rd`, by default its reader at the record's phase) may see
    it, by the variant's rulings: the facts of the phase, before any calendar decides how it is
    shown (`dipgen.view.timeline`)."""
    variant = history.variant
    rd = reader(history, level, record.phase) if rd is None else rd
    vis = record_visibility(history, record) if variant.policy.hidden else RecordVisibility.open(record)
    seen = apply(record, vis, rd, variant)
    draws = tuple(d for d in record.draws if not d.secret or reveal_reached(history))
    return replace(seen, draws=draws, draw_key=_key(history, record.phase) if draws else "",
                   link=record_link(history, record, level))


def record_link(history: History, record: PhaseRecord, level: str) -> Link | None:
    """The link of the game's record after `record`'s file, if `level` is shown it: the GM every
    link, every level of a game whose phases are all known (an open game, Taskdip) each phase's;
    where the board is secret (a fixed public calendar) the others only a movement file's, since
    whether a retreat or winter file exists (and so the link after it) is hidden."""
    chain = history.chain
    if chain is None:
        return None
    visibility = history.variant.policy
    if level != GM and visibility.hidden and visibility.fixed_calendar and record.kind != MOVEMENT:
        return None
    value = chain.after(record.phase)
    return None if value is None else Link(record.phase, value)


def _results(record: PhaseRecord, vis: RecordVisibility, rd: Reader, units_seen: set[Unit]) -> tuple[OrderResult, ...]:
    """The results of `record` the reader `rd` may see, each as she may see it (`units_seen`: the
    units her notes may name)."""
    results = []
    elsewhere = _elsewhere(record)
    for r, full, part in zip(record.results, vis.results, vis.results_partial, strict=True):
        if knows(rd, full):
            notes = tuple(_clean_note(n, units_seen) for n in r.notes)
            route = r.route if all(u in units_seen for u in r.route) else ()
            same = route is r.route and all(a is b for a, b in zip(notes, r.notes, strict=True))
            shown = r if same else replace(r, notes=notes, route=route)  # (replace is slow: most are the same)
            if not knows(rd, vis.orders.get(r.power, frozenset({r.power}))):
                shown = _observed(shown, elsewhere)
            results.append(shown)
        elif knows(rd, part):
            results.append(_partial(r))
    return tuple(results)


def apply(record: PhaseRecord, vis: RecordVisibility, rd: Reader, variant) -> RecordView:
    """`record` as the reader `rd` may see it by the rulings in `vis` (`variant`: whose powers and
    unit kinds): every field decided, but its draws (`seen_record` adds those it publishes)."""
    powers = variant.rules.powers()
    before = view_position(record.before, vis.before, rd, powers)
    after = view_position(record.after, vis.after, rd, powers)
    kinds = variant.rules.unit_kinds
    # the provinces, and the units, where the level sees a unit that fights (a spy of its own names
    # nobody there)
    seen = {u.province for u in before.units if kinds[u.kind].fights} | {d.unit.province for d in before.dislodged}
    units_seen = {u for u in before.units if kinds[u.kind].fights} | {d.unit for d in before.dislodged}
    results = record.results if vis.every_result else _results(record, vis, rd, units_seen)
    dislodged: list[DislodgedView] = []
    destroyed: list[DislodgedView] = []
    for d in record.dislodged + record.destroyed:
        if not knows(rd, vis.dislodged.get(d.unit, NOBODY)):
            continue
        fate = knows(rd, vis.retreats.get(d.unit, NOBODY))
        src = d.attacker_from if d.attacker_from in seen else UNKNOWN
        shown_d = DislodgedView(d.unit, src, d.by_power if src is not UNKNOWN else UNKNOWN,
                                tuple(d.retreats or ()) if fate else UNKNOWN)
        (destroyed if d in record.destroyed and fate else dislodged).append(shown_d)
    text = knows(rd, vis.text)
    return RecordView(
        record.phase, record.phase.name, before, after,
        orders={p: ls for p, ls in record.orders.items() if knows(rd, vis.orders.get(p, frozenset({p})))},
        results=results, dislodged=tuple(dislodged), destroyed=tuple(destroyed),
        centre_changes=tuple(c for c, a in zip(record.centre_changes, vis.centre_changes, strict=True) if knows(rd, a)),
        adjustments={p: n for p, n in record.adjustments.items() if knows(rd, vis.adjustments.get(p, NOBODY))},
        nmr=tuple(p for p in record.nmr if knows(rd, vis.nmr.get(p, EVERYONE))),
        press=record.press if text else "", notes=record.notes if text else "",
        source=(record.source or "") if text else "", control=record.control,
        intake=record.intake if knows(rd, vis.report) else None, time=record.time)


def start_view(history: History, level: str) -> PositionView:
    """The opening position as `level` may know it."""
    position = history.records[0].before if history.records else history.position
    vis = history.variant.policy.start_visibility(history, position) if history.variant.policy.hidden \
        else PositionVisibility.open(position)
    return view_position(position, vis, reader(history, level, position.phase), history.variant.rules.powers())


def _key(history: History, phase: Phase | None) -> str:
    return history.draws.key(phase).hex() if history.draws is not None and history.draws.seed is not None else ""

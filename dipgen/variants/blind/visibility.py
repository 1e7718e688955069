"""What each level of a Blind game knows while it runs: every position is secret. A power learns
of a foreign unit when it attacks it, is attacked by it, or meets it trying for the same province,
and through its spies, which move unseen and report on the unit in their province.

Rulings where the rule text is silent are listed on the rules page (site_src/rules/blind.md) and
marked RULING below.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from dipgen.core.board import province_of
from dipgen.core.orders import Move
from dipgen.core.phase import MOVEMENT
from dipgen.core.position import Position, Unit
from dipgen.core.results import Kind
from dipgen.rules.variant import Policy
from dipgen.rules.visibility import EVERYONE, NOBODY, PositionVisibility, RecordVisibility, own_nmr
from dipgen.variants.contact import contacts_of


def _aud(*levels: str) -> frozenset:
    return frozenset(levels)


class BlindPolicy(Policy):
    hidden = True

    def start_visibility(self, history, position: Position) -> PositionVisibility:
        return _own(position)

    def record_visibility(self, history, record) -> RecordVisibility:
        if record.kind == MOVEMENT:
            return _movement_visibility(record, self.rules.unit_kinds)
        own_results = tuple(_aud(r.power) for r in record.results)
        none = tuple(NOBODY for _ in record.results)
        # in a retreat phase the attacker still knows the unit it dislodged, not where it goes
        attackers = {d.unit: _aud(d.by_power) for d in record.before.dislodged}
        before, after = _own(record.before, attackers), _own(record.after)
        changes = tuple(_aud(old, new) if old else _aud(new) for _, old, new in record.centre_changes)
        # RULING: a retreat or winter file's press and notes, and who sent nothing in it, tell who had
        # something to order there: the GM's until the reveal (the public calendar has no such phase)
        return RecordVisibility(before, after, own_results, none, {}, {}, changes,
                                {p: _aud(p) for p in record.adjustments}, {p: _aud(p) for p in record.orders},
                                own_nmr(record.nmr), text=NOBODY)



def _spies_after_turn(record) -> list[Unit]:
    """The spies standing when the season's spy turn ended (before the end of the Fall adds or
    removes any): every spy not killed, where its order took it."""
    out = []
    for r in record.results:
        if r.unit is None or r.unit.kind != "S" or not r.effective or r.has(Kind.DESTROYED):
            continue
        moved = isinstance(r.order, Move) and r.succeeded and not r.has(Kind.ILLEGAL)
        out.append(replace(r.unit, loc=province_of(r.order.dest) if moved else r.unit.province))
    return out


def _own(pos: Position, extra: dict | None = None) -> PositionVisibility:
    """Each power knows its own units, spies, centres and dislodged units; `extra` adds more."""
    extra = extra or {}
    return PositionVisibility(
        units={u: _aud(u.power) | extra.get(u, NOBODY) for u in pos.units},
        owners={c: _aud(p) for c, p in pos.owners.items()},
        counts=EVERYONE,
        whole=NOBODY,
        dislodged={d.unit: _aud(d.unit.power) | extra.get(d.unit, NOBODY) for d in pos.dislodged},
        retreats={d.unit: _aud(d.unit.power) for d in pos.dislodged},
    )


def _movement_visibility(record, kinds) -> RecordVisibility:
    """RULINGS on what fighting reveals: a power learns of each foreign unit it attacks that
    stays to meet it (or swaps with it), of each foreign unit that attacks one of its own that
    stays, and of each foreign unit that tries for the same province as one of its own; it
    sees the moves made against it and the moves that stood it off, with their results, and
    where those units stand afterwards if they are still in sight. Units that fight without
    occupying (a composed variant's planes and bombers) are met where they are based: an
    attack on their province meets those that stay there, and their power sees the attack;
    their own flights meet nobody. A spy that lives through the turn reports every unit in
    its province: its order and result, and the units there afterwards."""
    on_board = [u for u in record.before.units if kinds[u.kind].fights]
    result_of: dict[Unit, list[int]] = defaultdict(list)  # several equal units in a stack share their results
    for i, r in enumerate(record.results):
        if r.effective and r.unit is not None and kinds[r.unit.kind].fights:
            result_of[r.unit].append(i)
    at: dict[str, list[Unit]] = defaultdict(list)
    for u in on_board:
        at[u.province].append(u)
    later_at: dict[str, list[Unit]] = defaultdict(list)
    for u in record.after.units:
        if kinds[u.kind].fights:
            later_at[u.province].append(u)
    after_by = {(u.power, u.kind, u.province): u for us in later_at.values() for u in us}
    before: dict[Unit, frozenset] = defaultdict(frozenset)
    after: dict[Unit, frozenset] = defaultdict(frozenset)
    seen_result: dict[int, frozenset] = defaultdict(frozenset)

    def goes_to(unit: Unit) -> str:
        """The province `unit` ends the turn in, if it still stands."""
        for i in result_of.get(unit, ()):
            r = record.results[i]
            if isinstance(r.order, Move) and r.succeeded:
                return province_of(r.order.dest)
        return unit.province

    def learns(power: str, unit: Unit, with_result: bool) -> None:
        before[unit] |= _aud(power)
        new = after_by.get((unit.power, unit.kind, goes_to(unit)))
        if new is not None:
            after[new] |= _aud(power)
        if with_result:
            for i in result_of.get(unit, ()):
                seen_result[i] |= _aud(power)

    for c in contacts_of(record, kinds):
        if c.kind == "conflict":
            learns(c.move.power, c.other, with_result=c.head_on)  # the attacker finds the defender
            learns(c.other.power, c.mover, with_result=True)  # the defender sees the attack
        else:
            learns(c.move.power, c.other, with_result=True)  # a meeting: each sees the other's move
    for i in sorted({i for ids in result_of.values() for i in ids}):  # attacks on provinces where aircraft are based
        m = record.results[i]
        if not isinstance(m.order, Move) or not kinds[m.unit.kind].occupies or m.has(Kind.NO_CONVOY):
            continue
        dest = province_of(m.order.dest)
        for based in at.get(dest, ()):
            if based.power != m.power and not kinds[based.kind].occupies and goes_to(based) == dest:
                learns(m.power, based, with_result=False)
                learns(based.power, m.unit, with_result=True)
    for spy in _spies_after_turn(record):  # the reports of the spies that lived through the turn
        for unit in at.get(spy.province, ()):
            if unit.power != spy.power:
                learns(spy.power, unit, with_result=True)
        for later in later_at.get(spy.province, ()):
            if later.power != spy.power:
                after[later] |= _aud(spy.power)
    full = tuple(_aud(r.power) | seen_result[i] for i, r in enumerate(record.results))
    gone = record.dislodged + record.destroyed
    dislodged = {d.unit: _aud(d.unit.power, d.by_power) for d in gone}
    retreats = {d.unit: _aud(d.unit.power) | (_aud(d.by_power) if d in record.destroyed else NOBODY) for d in gone}
    changes = tuple(_aud(old, new) if old else _aud(new) for _, old, new in record.centre_changes)
    return RecordVisibility(_own(record.before, before), _own(record.after, after), full,
                            tuple(NOBODY for _ in record.results), dislodged, retreats, changes, {},
                            {p: _aud(p) for p in record.orders})


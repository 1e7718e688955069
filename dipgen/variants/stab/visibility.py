"""What each level of a Stab! game knows while it runs: a power its own units, centres and
dislodged units, and the orders that came into contact with a foreign unit, which everyone reads;
the GM tells each power privately what it is owed.

The rulings where the rule text is silent are listed on the rules page (site_src/rules/stab.md)
and marked RULING below.
"""

from __future__ import annotations

from collections import defaultdict

from dipgen.core.board import province_of
from dipgen.core.orders import Convoy, Disband, Move, Support
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT
from dipgen.core.position import Position, Unit
from dipgen.core.results import Kind
from dipgen.rules.variant import Policy
from dipgen.rules.visibility import EVERYONE, NOBODY, PositionVisibility, RecordVisibility, own_nmr
from dipgen.variants.contact import contacts_of


def _aud(*levels: str) -> frozenset:
    return frozenset(levels)


class StabPolicy(Policy):
    hidden = True
    #: the seed: "Before every winter the GM will report the supply centre totals for each power"; RULING:
    #: in each player's report once the Fall is closed (its retreats, or the empty file, are in)
    tells_fall_totals = True

    def start_visibility(self, history, position: Position) -> PositionVisibility:
        return _private_position(position)

    def record_visibility(self, history, record) -> RecordVisibility:
        if record.kind == MOVEMENT:
            return _movement_visibility(record, self.rules.unit_kinds)
        if record.kind == ADJUSTMENTS:
            return _adjustment_visibility(record)
        return _retreat_visibility(history, record)


def _private_position(pos: Position, extra: dict | None = None, counts=EVERYONE) -> PositionVisibility:
    """Each power knows its own units, centres and dislodged units; `extra` adds unit -> levels."""
    extra = extra or {}
    units = {u: _aud(u.power) | extra.get(u, NOBODY) for u in pos.units}
    owners = {c: _aud(p) for c, p in pos.owners.items()}
    dislodged = {d.unit: _aud(d.unit.power) | extra.get(d.unit, NOBODY) for d in pos.dislodged}
    retreats = {d.unit: _aud(d.unit.power) for d in pos.dislodged}
    return PositionVisibility(units, owners, counts, dislodged, retreats, whole=NOBODY)


def contacts(record, kinds) -> tuple[set[Unit], set[Unit]]:
    """The units that came into contact with a foreign unit (direct conflict, or moving into the
    same empty or vacated space), and the units whose orders are disputed (those, plus the
    supports and convoys of units in contact)."""
    touched: set[Unit] = set()
    for c in contacts_of(record, kinds):
        if c.kind == "conflict" or c.vacated:  # meeting where a foreign unit stays is no meeting here
            touched.update((c.mover, c.other))
    unit_at = {u.province: u for u in record.before.units}
    disputed = set(touched)
    for r in record.results:
        if r.effective and isinstance(r.order, (Support, Convoy)) and not r.has(Kind.VOID):
            if unit_at.get(r.order.target.province) in touched:
                disputed.add(r.unit)
    return touched, disputed


def _movement_visibility(record, kinds) -> RecordVisibility:
    touched, disputed = contacts(record, kinds)
    unit_at = {u.province: u for u in record.before.units}
    full, partial = [], []
    for r in record.results:
        own = _aud(r.power)
        if not r.effective or r.unit not in disputed:
            full.append(own if r.unit is None or r.unit.power == r.power else NOBODY)
            partial.append(NOBODY)
            continue
        shown = True
        if isinstance(r.order, Support) and not r.succeeded and not r.has(Kind.VOID):
            shown = False  # a cut support is shown as cut, not what it supported
        if isinstance(r.order, Convoy) and unit_at.get(r.order.target.province) not in touched:
            shown = False  # a convoying fleet under attack is seen convoying, not what
        full.append(EVERYONE if shown else own)
        partial.append(EVERYONE)
    # where revealed units stand afterwards, and private news for each power
    after_at = {u.province: u for u in record.after.units}
    eff = {r.unit.province: r for r in record.results if r.effective}
    extra_after: dict[Unit, frozenset] = defaultdict(frozenset)
    for u in disputed:
        r = eff.get(u.province)
        if r is not None and isinstance(r.order, Move) and r.succeeded:
            new = after_at.get(province_of(r.order.dest))
        else:
            new = after_at.get(u.province)
        if new is not None and new.power == u.power:
            extra_after[new] |= EVERYONE
    for u in record.after.units:  # a foreign unit standing in a power's centre is reported to that power
        owner = record.before.owners.get(u.province)
        if owner and owner != u.power:
            extra_after[u] |= _aud(owner)
    before = _private_position(record.before, {u: EVERYONE for u in disputed})
    after = _private_position(record.after, dict(extra_after))
    gone = record.dislodged + record.destroyed
    dislodged = {d.unit: EVERYONE for d in gone}
    # RULING: the fate of a unit with nowhere to retreat is told to its owner and its attacker.
    retreats = {d.unit: _aud(d.unit.power) | (_aud(d.by_power) if d in record.destroyed else NOBODY) for d in gone}
    changes = tuple(_aud(old, new) if old else _aud(new) for _, old, new in record.centre_changes)
    return RecordVisibility(before, after, tuple(full), tuple(partial), dislodged, retreats, changes,
                            {}, {p: _aud(p) for p in record.orders})


def _retreat_visibility(history, record) -> RecordVisibility:
    by = {d.unit: d.by_power for d in record.before.dislodged}
    misordered = {r.unit for r in record.results if r.unit is not None and r.has(Kind.ILLEGAL)}
    full, partial = [], []
    for r in record.results:
        own = _aud(r.power)
        attacker = _aud(by[r.unit]) if r.unit in by else NOBODY
        if isinstance(r.order, Disband) and r.effective and r.unit not in misordered:
            full.append(EVERYONE)  # disbands, chosen or for want of an order, are reported
        elif isinstance(r.order, Disband) and r.effective:
            # a unit disbanded because its retreat could not be made: a mis-order is not revealed,
            # but both its power and the attacker learn that the unit is gone
            full.append(own | attacker)
        else:
            full.append(own | attacker if r.effective or r.has(Kind.ILLEGAL) else own)
        partial.append(NOBODY)
    before = _private_position(record.before, {d.unit: EVERYONE for d in record.before.dislodged})
    retreated = {}
    moved = {r.unit: r for r in record.results if r.effective and r.succeeded and not isinstance(r.order, Disband)}
    after_at = {u.province: u for u in record.after.units}
    for unit, r in moved.items():
        new = after_at.get(province_of(r.order.dest))
        if new is not None:
            retreated[new] = _aud(by.get(unit, unit.power))
    for u in record.after.units:
        owner = record.before.owners.get(u.province)
        if owner and owner != u.power:
            retreated[u] = retreated.get(u, NOBODY) | _aud(owner)
    after = _private_position(record.after, retreated)
    changes = tuple(_aud(old, new) if old else _aud(new) for _, old, new in record.centre_changes)
    # RULING: who sent nothing in a retreat or winter phase, and its file's press and notes, tell who
    # had something to order in it: its power's own, and the GM's until the reveal
    return RecordVisibility(before, after, tuple(full), tuple(partial), {}, {}, changes, {},
                            {p: _aud(p) for p in record.orders}, own_nmr(record.nmr), text=NOBODY)


def _adjustment_visibility(record) -> RecordVisibility:
    own = tuple(_aud(r.power) for r in record.results)
    return RecordVisibility(_private_position(record.before), _private_position(record.after), own,
                            tuple(NOBODY for _ in record.results), {}, {}, (),
                            {p: _aud(p) for p in record.adjustments}, {p: _aud(p) for p in record.orders},
                            own_nmr(record.nmr), text=NOBODY)

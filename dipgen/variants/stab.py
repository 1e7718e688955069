"""Stab!: hidden movement. Nobody sees the board; each season's report shows only the orders
that came into contact with a foreign unit, and the GM tells each power privately what it
is owed. Players place their units freely with the Spring 1901 orders.

The rulings where the rule text is silent are listed on the rules page (site_src/rules/stab.md)
and marked RULING below.
"""

from __future__ import annotations

from collections import defaultdict
from types import MappingProxyType

from dipgen.core.board import province_of
from dipgen.core.results import STANDARD_WORDS, Bounce, Kind
from dipgen.core.errors import GameError, Problem
from dipgen.core.orders import Convoy, Disband, Move, OrderSyntaxError, Support, parse_unit
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT
from dipgen.core.position import Position, Unit
from dipgen.rules.visibility import EVERYONE, NOBODY, PositionVisibility, RecordVisibility, own_nmr
from dipgen.io.yamlfile import by_power, kind_of, line_of
from dipgen.variants._whole import Whole as Variant
from dipgen.variants.contact import contacts_of


def _aud(*levels: str) -> frozenset:
    return frozenset(levels)


class Stab(Variant):
    name = "stab"
    title = "Stab!"
    description = ("A hidden-movement game on the standard map: free initial placement, and reports that show "
                   "only the orders that came into contact with a foreign unit.")
    hidden = True
    setup_keys = frozenset({"placement"})
    #: the words of the Stab! rules (its example report): a move *fails* against a unit that
    #: stayed, *bounce*s off another country's move, and is in a *self-standoff* with its own
    result_vocabulary = MappingProxyType({**STANDARD_WORDS, Bounce.HELD: "fails", Bounce.STANDOFF: "bounce",
                                          Bounce.SELF_STANDOFF: "self-standoff"})
    #: home spaces that are not home for placement, and spaces a power may place in besides its own
    not_home = frozenset({"fin"})
    extra_places = {"England": ("nth",)}

    # ------------------------------------------------------------------ placement
    def home_spaces(self, power: str) -> list[str]:
        spaces = [p for p in self.board.home_territories.get(power, ()) if p not in self.not_home]
        return spaces + list(self.extra_places.get(power, ()))

    def initial_position(self, game, draws=None, secret=None) -> Position:
        first = self.calendar.first(game.start)
        owners = {p.id: p.home for p in self.board.provinces.values() if p.home}
        pf = game.phases.get(first)
        if pf is None:
            return Position(first, (), owners)  # the placement comes with the first orders
        raw = pf.extra.get("placement")
        if not isinstance(raw, dict):
            raise GameError([Problem(pf.name, line_of(raw) or 1,
                                     "a Stab! game's first phase file needs 'placement': each power's starting units",
                                     "e.g.\n      placement:\n        England: [F Lon, F NTH, A Yor]")])
        problems: list[Problem] = []
        units: list[Unit] = []
        placed: dict[str, str] = {}
        given: set[str] = set()
        for power, specs, kline in by_power(self.board, raw, pf.name, problems, "under placement",
                                            "keep one list of units for each power"):
            given.add(power)
            if specs is None or isinstance(specs, str):
                specs = [s for s in (specs or "").splitlines() if s.strip()]
            elif not isinstance(specs, list):
                problems.append(Problem(pf.name, kline, f"{power}'s placement must be a list of units, not "
                                        f"{kind_of(specs)}", "e.g. England: [F Lon, F NTH, A Yor]"))
                continue
            need = len(self.board.home_centres(power))
            if len(specs) != need:
                problems.append(Problem(pf.name, kline, f"{power} places {len(specs)} units; it must place {need}",
                                        f"{power} starts with {need} units, one for each home centre"))
            allowed = self.home_spaces(power)
            for spec in specs:
                line = line_of(spec) or kline
                if not isinstance(spec, str):
                    problems.append(Problem(pf.name, line, f"a unit to place is text such as F Lon, not {kind_of(spec)}"))
                    continue
                try:
                    kind, loc = parse_unit(self.board, spec, self.order_words)
                except (OrderSyntaxError, ValueError) as e:
                    problems.append(Problem(pf.name, line, str(e)))
                    continue
                prov = province_of(loc)
                names = ", ".join(self.board.format_loc(p) for p in allowed)
                if prov not in allowed:
                    problems.append(Problem(pf.name, line, f"{self.board.full_name(prov)} is not a home space of {power}",
                                            f"{power} may place units in: {names}"))
                    continue
                p = self.board.provinces[prov]
                terrain = self.unit_kinds[kind].terrain
                if terrain == "land" and not p.is_land:
                    problems.append(Problem(pf.name, line, f"an army cannot stand in {p.name}"))
                    continue
                if terrain == "sea":
                    if p.type == "land":
                        problems.append(Problem(pf.name, line, f"a fleet cannot stand inland in {p.name}"))
                        continue
                    if p.coasts and loc not in self.board.fleet_locations(prov):
                        problems.append(Problem(pf.name, line, f"say which coast of {p.name} the fleet is on",
                                                f"e.g. F {p.abbr}/{p.coasts[-1]}"))
                        continue
                    if not p.coasts:
                        loc = prov
                else:
                    loc = prov
                if prov in placed:
                    problems.append(Problem(pf.name, line, f"two units placed in {p.name} ({placed[prov]} has one)"))
                    continue
                placed[prov] = power
                units.append(Unit(power, kind, loc))
        for power in self.powers():
            if power not in given:
                # RULING: a power that sends no placement starts with the usual opening units.
                for spec in self.board.starting_units.get(power, ()):
                    kind, loc = parse_unit(self.board, spec)
                    units.append(Unit(power, kind, loc))
        if problems:
            raise GameError(problems)
        return Position(first, tuple(sorted(units, key=lambda u: u.loc)), owners)

    def start_visibility(self, history, position: Position) -> PositionVisibility:
        return _private_position(position)

    # ------------------------------------------------------------------ what each level knows
    def record_visibility(self, history, record) -> RecordVisibility:
        if record.kind == MOVEMENT:
            return _movement_visibility(record, self.unit_kinds)
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
            touched.update((c.move.unit, c.other))
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

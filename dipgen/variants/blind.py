"""Blind Diplomacy: every position is secret. A power learns of a foreign unit when it
attacks it, is attacked by it, or meets it trying for the same province, and through its
spies, which move unseen and report on the unit in their province.

Spies are units of a kind that neither occupies a province nor fights: they share provinces
with anything, are never dislodged, and die only by counter-espionage. Rulings where the rule text is silent
are listed on the rules page (site_src/rules/blind.md) and marked RULING below.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from dipgen.core.board import province_of
from dipgen.engine.adjustments import distances_to_centres
from dipgen.engine.movement import MovementOutcome
from dipgen.core.results import Illegal, Kind, Note, OrderResult
from dipgen.core.errors import GameError, Problem
from dipgen.core.orders import STANDARD_KINDS, Convoy, CounterEspionage, Hold, Move, Support, UnitRef
from dipgen.core.phase import MOVEMENT
from dipgen.core.position import Position, Unit
from dipgen.core.units import AIR, STANDARD_UNIT_KINDS, UnitKind
from dipgen.rules.visibility import EVERYONE, NOBODY, PositionVisibility, RecordVisibility, own_nmr
from dipgen.io.yamlfile import by_power, kind_of, line_of
from dipgen.variants._whole import Whole as Variant
from dipgen.variants.contact import contacts_of

SPY = UnitKind("S", "spy", AIR, strength=0, occupies=False, fights=False, takes_centres=False,
               build_cost=0, upkeep=0, plural="spies")


def _aud(*levels: str) -> frozenset:
    return frozenset(levels)


class Blind(Variant):
    name = "blind"
    title = "Blind Diplomacy"
    description = ("A hidden game on the standard map: every position is secret; powers learn of foreign "
                   "units by fighting them and through their spies.")
    hidden = True
    unit_kinds = {**STANDARD_UNIT_KINDS, "S": SPY}
    order_words = {**STANDARD_KINDS, "s": "S", "spy": "S"}
    setup_keys = frozenset({"spies"})
    movement_orders = (Hold, Move, Support, Convoy, CounterEspionage)
    movement_orders_text = ("movement orders: hold, move, support and convoy, and for spies move, hold and "
                            "counter-espionage (S Par - Bur, S Par H, S Par CE)")
    #: RULING: the capitals are those the rule text's companion variant names
    capitals = {"Austria": "vie", "England": "lon", "France": "par", "Germany": "ber", "Italy": "rom",
                "Russia": "mos", "Turkey": "ank"}
    spies_at_start = 2

    # ------------------------------------------------------------------ the start
    def initial_position(self, game, draws=None, secret=None) -> Position:
        position = super().initial_position(game, draws, secret)  # a variant composed with Blind sets up its own board
        pf = game.phases.get(self.calendar.first(game.start))
        raw = pf.extra.get("spies") if pf else None
        problems: list[Problem] = []
        spies: list[Unit] = []
        chosen: dict[str, list] = {}
        key_lines: dict[str, int | None] = {}
        if raw is not None:
            if not isinstance(raw, dict):
                raise GameError([Problem(pf.name, line_of(raw) or 1, "spies must map each power to its spies' places",
                                         "e.g.\n      spies:\n        England: [Lon, Edi]")])
            for power, places, kline in by_power(self.board, raw, pf.name, problems, "under spies",
                                                 "keep one list of places for each power"):
                chosen[power] = places if isinstance(places, list) else [places]
                key_lines[power] = kline
                if len(chosen[power]) != self.spies_at_start:
                    problems.append(Problem(pf.name, kline,
                                            f"{power} places {len(chosen[power])} spies; it has {self.spies_at_start}"))
        for power in self.powers():
            homes = self.home_centres(power)
            if power not in chosen:
                # RULING: spies not placed start in the capital and the next home centre in the board's order
                first = [self.capitals[power]] + [c for c in homes if c != self.capitals[power]]
                spies.extend(Unit(power, "S", c) for c in first[: self.spies_at_start])
                continue
            for place in chosen[power]:
                line = line_of(place) or key_lines[power]
                if not isinstance(place, str):
                    problems.append(Problem(pf.name, line, f"a spy's place is a province such as Lon, not {kind_of(place)}"))
                    continue
                try:
                    prov = province_of(self.board.location(place.removeprefix("S ").strip()))
                except ValueError as e:
                    problems.append(Problem(pf.name, line, str(e)))
                    continue
                if prov not in homes:
                    names = ", ".join(self.board.format_loc(c) for c in homes)
                    problems.append(Problem(pf.name, line, f"{self.board.full_name(prov)} is not a home centre of {power}",
                                            f"{power}'s spies start in its home centres: {names}"))
                    continue
                spies.append(Unit(power, "S", prov))
        if problems:
            raise GameError(problems)
        return position.with_(units=tuple(sorted(position.units + tuple(spies), key=lambda u: u.loc)))

    def start_visibility(self, history, position: Position) -> PositionVisibility:
        return _own(position)

    # ------------------------------------------------------------------ a movement phase
    def movement(self, position: Position, orders) -> MovementOutcome:
        spy_orders: dict[str, list] = defaultdict(list)
        regular: dict[str, list] = defaultdict(list)
        for power, given in orders.items():
            for order in given:
                ref = getattr(order, "unit", None)
                (spy_orders if ref is not None and ref.kind == "S" else regular)[power].append(order)
        out = super().movement(position, regular)  # the board's rules (a composed variant's own, e.g. Complicated's)
        results, spies = self.spy_phase(tuple(u for u in position.units if u.kind == "S"), spy_orders)
        units = tuple(sorted([u for u in out.units if u.kind != "S"] + list(spies), key=lambda u: u.loc))
        return replace(out, results=out.results + tuple(results), units=units)

    def spy_phase(self, spies: tuple[Unit, ...], orders) -> tuple[list[OrderResult], tuple[Unit, ...]]:
        """Spies move one space, through anything, or hold, or hunt (counter-espionage): a hunting
        spy kills every enemy spy in its province at the end of the turn, and two enemies
        hunting in the same province kill each other."""
        free: dict[tuple[str, str], list[Unit]] = defaultdict(list)
        for spy in sorted(spies):
            free[(spy.power, spy.province)].append(spy)
        plans: list[tuple[str, object, Unit | None, str | None, str]] = []  # power, order, spy, goes to, what
        for power, given in orders.items():
            for order in given:
                waiting = free[(power, order.unit.province)]
                if not waiting:
                    plans.append((power, order, None, None,
                                  f"{power} has no spy in {self.board.full_name(order.unit.province)}"))
                    continue
                spy = waiting.pop(0)
                if isinstance(order, Move):
                    dest = province_of(order.dest)
                    if dest in self.board.neighbours(spy.province):
                        plans.append((power, order, spy, dest, "move"))
                    else:  # RULING: a spy moves one space a season, as an army or a fleet would
                        plans.append((power, order, spy, spy.province,
                                      f"{self.board.full_name(dest)} is not next to {self.board.full_name(spy.province)}"))
                elif isinstance(order, (Hold, CounterEspionage)):
                    plans.append((power, order, spy, spy.province, "ce" if isinstance(order, CounterEspionage) else "hold"))
                else:
                    plans.append((power, order, spy, spy.province, "a spy may only move, hold or counter-spy"))
        for waiting in free.values():
            for spy in waiting:
                plans.append((spy.power, None, spy, spy.province, "unordered"))
        where = [(p, dest) for p, _, spy, dest, _ in plans if spy is not None]
        hunters = [(p, dest) for p, _, spy, dest, what in plans if what == "ce"]
        results: list[OrderResult] = []
        survivors: list[Unit] = []
        for power, order, spy, dest, what in plans:
            if spy is None:
                results.append(OrderResult(power, order, None, False, (Note(Kind.ILLEGAL, Illegal.NO_UNIT, what),)))
                continue
            caught = any(h != power and place == dest for h, place in hunters)
            notes: list[Note] = []
            if what not in ("move", "hold", "ce", "unordered"):
                notes.append(Note(Kind.ILLEGAL, Illegal.IMPOSSIBLE, what))
            if what == "ce":
                victims = sum(1 for p, place in where if p != power and place == dest)
                if victims:
                    notes.append(Note(Kind.CAUGHT, why=f"{victims} enemy {'spy' if victims == 1 else 'spies'}"))
            if caught:
                notes.append(Note(Kind.DESTROYED, why="counter-espionage"))
            else:
                survivors.append(replace(spy, loc=dest))
            ok = not caught and what in ("move", "hold", "ce", "unordered")
            shown = order if order is not None else Hold(UnitRef("S", spy.loc))
            results.append(OrderResult(power, shown, spy, ok, tuple(notes), default=order is None))
        return results, tuple(sorted(survivors))

    # ------------------------------------------------------------------ spies come and go
    def spies_due(self, power: str, owners) -> int:
        """Two, less one without the capital, plus one for each enemy capital held; none
        without a single home centre."""
        homes = self.home_centres(power)
        if not any(owners.get(c) == power for c in homes):
            return 0
        own_capital = owners.get(self.capitals[power]) == power
        taken = sum(1 for p, c in self.capitals.items() if p != power and owners.get(c) == power)
        return self.spies_at_start - (0 if own_capital else 1) + taken

    def after_fall(self, position: Position) -> Position:
        """RULING: spies are lost and replaced when the Fall turn ends and centres change hands:
        a power short of spies gets new ones in its capital (or, without it, its first home
        centre it still owns); a power with too many loses those farthest from its home."""
        pieces = [u for u in position.units if u.kind == "S"]
        owners = position.owners
        for power in self.powers():
            mine = sorted((p for p in pieces if p.power == power), key=lambda s: s.loc)
            due = self.spies_due(power, owners)
            owned_homes = [c for c in self.home_centres(power) if owners.get(c) == power]
            if len(mine) > due:
                dist = distances_to_centres(self.board, owned_homes)
                far = sorted(mine, key=lambda s: (-dist.get(s.province, 99), self.board.provinces[s.province].name))
                for spy in far[: len(mine) - due]:
                    pieces.remove(spy)
            elif len(mine) < due and owned_homes:
                cap = self.capitals[power]
                home = cap if owners.get(cap) == power else owned_homes[0]
                pieces.extend(Unit(power, "S", home) for _ in range(due - len(mine)))
        others = [u for u in position.units if u.kind != "S"]
        return position.with_(units=tuple(sorted(others + pieces, key=lambda u: u.loc)))

    # ------------------------------------------------------------------ who knows what
    def record_visibility(self, history, record) -> RecordVisibility:
        if record.kind == MOVEMENT:
            return _movement_visibility(record, self.unit_kinds)
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
            learns(c.other.power, c.move.unit, with_result=True)  # the defender sees the attack
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


"""Property tests: random positions and orders never crash the engine, and its invariants hold."""

import random
import types

from hypothesis import given, settings, strategies as st

from dipgen.core.board import province_of
from dipgen.resources.boards import load_board
from dipgen.engine.adjustments import adjudicate_adjustments, adjustment_counts
from dipgen.engine.movement import adjudicate_movement
from dipgen.engine.retreats import adjudicate_retreats
from dipgen.core.orders import Build, Convoy, Disband, Hold, Move, Remove, Retreat, Support, UnitRef, Waive
from dipgen.core.position import Unit

BOARD = load_board("standard")
POWERS = list(BOARD.powers)
PROVS = sorted(BOARD.provinces)


def random_units(rng: random.Random, n: int) -> list[Unit]:
    units = []
    for prov in rng.sample(PROVS, n):
        p = BOARD.provinces[prov]
        kinds = ["A"] if p.type == "land" else ["F"] if p.type == "sea" else ["A", "F"]
        kind = rng.choice(kinds)
        loc = rng.choice(BOARD.fleet_locations(prov)) if kind == "F" else prov
        units.append(Unit(rng.choice(POWERS), kind, loc))
    return units


def neighbours_of(unit: Unit) -> list[str]:
    if unit.kind == "A":
        return sorted(BOARD.army_adj[unit.province])
    return sorted(BOARD.fleet_adj[unit.loc])


def random_order(rng: random.Random, unit: Unit, units: list[Unit]):
    ref = UnitRef(rng.choice([unit.kind, unit.kind, None]), unit.loc)
    other = rng.choice(units)
    nb = neighbours_of(unit)
    roll = rng.random()
    if roll < 0.15:
        return Hold(ref)
    if roll < 0.55:
        dest = rng.choice(nb) if nb and rng.random() < 0.85 else rng.choice(BOARD.locations())
        return Move(ref, dest, rng.random() < 0.1)
    if roll < 0.85:
        o_nb = neighbours_of(other)
        if rng.random() < 0.4 or not o_nb:
            return Support(ref, UnitRef(other.kind, other.loc))
        return Support(ref, UnitRef(other.kind, other.loc), province_of(rng.choice(o_nb)))
    coastal = [u for u in units if u.kind == "A" and BOARD.provinces[u.province].is_coastal]
    army = rng.choice(coastal) if coastal else other
    dests = [p for p in PROVS if BOARD.provinces[p].is_coastal]
    return Convoy(ref, UnitRef(army.kind, army.loc), rng.choice(dests))


def random_orders(rng: random.Random, units: list[Unit]) -> dict[str, list]:
    orders: dict[str, list] = {}
    for u in units:
        if rng.random() < 0.9:
            orders.setdefault(u.power, []).append(random_order(rng, u, units))
        if rng.random() < 0.03:  # a second order for the same unit, or one for a foreign unit
            orders.setdefault(rng.choice(POWERS), []).append(random_order(rng, u, units))
    return orders


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 34))
def test_movement_invariants(seed, n):
    rng = random.Random(seed)
    units = random_units(rng, n)
    orders = random_orders(rng, units)
    out = _same_but_notes(units, orders)  # with notes; and without them, the same but for the notes

    # one unit per province, no unit lost or made
    provinces = [u.province for u in out.units]
    assert len(provinces) == len(set(provinces))
    assert len(out.units) + len(out.dislodged) + len(out.destroyed) == len(units)
    assert sorted(u.power for u in out.units + tuple(d.unit for d in out.dislodged + out.destroyed)) == \
        sorted(u.power for u in units)

    # every unit has exactly one result that counts: its order, or the hold the rules give it
    # (a unit with several different orders holds: its orders are ignored and it gets a hold)
    for u in units:
        assert len([r for r in out.results if r.unit == u and r.effective]) == 1

    # dislodged units: their province now holds the attacker, they never retreat to where the
    # attacker came from (unless it came by convoy), nor to an occupied or stood-off province
    after = {u.province: u for u in out.units}
    for d in out.dislodged + out.destroyed:
        assert d.unit.province in after
        assert after[d.unit.province].power == d.by_power != d.unit.power
        for loc in d.retreats:
            assert province_of(loc) not in after
            assert province_of(loc) not in out.standoffs
        attack = next(r for r in out.results if r.unit is not None and r.unit.province == d.attacker_from
                      and isinstance(r.order, Move) and r.succeeded)
        land_route = not attack.order.via_convoy and d.unit.province in (
            BOARD.army_adj.get(d.attacker_from, ()) if attack.unit.kind == "A" else
            {province_of(x) for x in BOARD.fleet_adj.get(attack.unit.loc, ())})
        if land_route:
            assert d.attacker_from not in {province_of(x) for x in d.retreats}

    # deterministic, and independent of the order in which powers are listed
    again = adjudicate_movement(BOARD, list(reversed(units)), dict(reversed(list(orders.items()))))
    assert set(again.units) == set(out.units)
    assert {d.unit for d in again.dislodged} == {d.unit for d in out.dislodged}

    # retreats: still one unit per province afterwards
    retreat_orders: dict[str, list] = {}
    for d in out.dislodged:
        ref = UnitRef(d.unit.kind, d.unit.loc)
        choice = rng.choice(list(d.retreats) + ["disband"])
        retreat_orders.setdefault(d.unit.power, []).append(
            Disband(ref) if choice == "disband" else Retreat(ref, choice))
    ret = adjudicate_retreats(BOARD, out.units, out.dislodged, retreat_orders)
    provinces = [u.province for u in ret.units]
    assert len(provinces) == len(set(provinces))
    assert len(out.units) <= len(ret.units) <= len(out.units) + len(out.dislodged)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_adjustment_invariants(seed):
    rng = random.Random(seed)
    units = random_units(rng, rng.randint(0, 30))
    centres = sorted(BOARD.centres)
    owners = {c: rng.choice(POWERS) for c in rng.sample(centres, rng.randint(0, 34))}
    orders: dict[str, list] = {}
    for power in POWERS:
        for _ in range(rng.randint(0, 4)):
            roll = rng.random()
            if roll < 0.4:
                home = rng.choice(BOARD.home_centres(power))
                loc = rng.choice([home] + list(BOARD.fleet_locations(home)))
                orders.setdefault(power, []).append(Build(UnitRef(rng.choice(["A", "F", None]), loc)))
            elif roll < 0.8 and units:
                u = rng.choice(units)
                orders.setdefault(power, []).append(Remove(UnitRef(u.kind, u.loc)))
            else:
                orders.setdefault(power, []).append(Waive())
    counts = adjustment_counts(units, owners, POWERS)
    out = adjudicate_adjustments(BOARD, units, owners, orders)
    provinces = [u.province for u in out.units]
    assert len(provinces) == len(set(provinces))
    for power in POWERS:
        before = sum(u.power == power for u in units)
        now = sum(u.power == power for u in out.units)
        centres_owned = sum(o == power for o in owners.values())
        if counts[power] < 0:
            assert now == centres_owned  # removals are always completed, by civil disorder if need be
        else:
            assert before <= now <= max(before, centres_owned)
    for u in out.units:
        if u not in units:  # built: in an owned, home centre of its power
            assert owners.get(u.province) == u.power
            assert u.province in BOARD.home_centres(u.power)


def _same_but_notes(units, orders, board=BOARD, kinds=None, plane_limit=False):
    """adjudicate_movement with and without notes: equal in everything but the notes (and the routes
    of convoyed moves, which only the words and maps read); and without results (`dipgen datc`'s),
    equal in everything but the results."""
    from dataclasses import replace

    extra = {} if kinds is None else {"kinds": kinds, "plane_limit": plane_limit}
    full = adjudicate_movement(board, units, orders, **extra)
    bare = adjudicate_movement(board, units, orders, notes=False, **extra)
    assert all(r.notes == () for r in bare.results)
    assert [replace(r, notes=(), route=()) for r in full.results] == list(bare.results)
    assert replace(full, results=()) == replace(bare, results=())
    positions = adjudicate_movement(board, units, orders, notes=False, results=False, **extra)
    assert positions.results == ()
    assert positions == replace(full, results=())
    return full


def test_results_without_notes_agree_on_the_datc_and_variant_cases():
    """Every movement case of the DATC and of the variants' files (planes, the plane limit)."""
    from pathlib import Path

    from dipgen.usecases.datc import _Lines, parse_cases, variant_of

    root = Path(__file__).resolve().parent
    files = [root / "datc" / "datc_v3_0.txt", *sorted((root / "datc_variants").glob("*.txt")),
             root / "datc_armor" / "armor.txt"]
    noted = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        variant = variant_of(text, str(path))
        read = _Lines(variant.rules.board, variant.rules.unit_kinds, variant.rules.order_words)
        for case in parse_cases(text, str(path)):
            if case.kind != "movement":
                continue
            units = read.units(case.sections.get("PRESTATE", []))
            orders = read.orders(case.sections.get("ORDERS", []), "movement")
            full = _same_but_notes(units, orders, variant.rules.board, variant.rules.unit_kinds,
                                   getattr(variant, "plane_limit", False))
            noted += sum(len(r.notes) for r in full.results)
    assert noted > 200  # the cases' results do have notes to leave out


def test_adjudication_leaves_no_reference_cycles():
    """A phase's resolver is freed as soon as the phase is adjudicated, not left for the cycle
    collector (a recursive closure once kept every phase with a convoy alive until it ran)."""
    import gc

    rng = random.Random(25)
    phases = []
    for _ in range(60):
        units = random_units(rng, rng.randint(10, 34))
        phases.append((units, random_orders(rng, units)))
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for units, orders in phases:
            for notes in (True, False):
                adjudicate_movement(BOARD, units, orders, notes=notes)
        gc.collect()
        left = [o for o in gc.garbage if _of_dipgen(o)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []


def _of_dipgen(thing) -> bool:
    """Whether an object is dipgen's (its class's module, or a function's own): what else the
    process lets go meanwhile (a browser's objects, in a worker that ran browser tests before this
    one) is not the engine's to answer for."""
    module = thing.__module__ if isinstance(thing, types.FunctionType) else type(thing).__module__
    return (module or "").startswith("dipgen")


def test_the_kind_tables_are_made_once_for_each_kind_table():
    """The tables a phase reads of its units' kinds are made once per board and kind table, and a
    kind table never gets another's (a table made and dropped again and again, as tests do)."""
    import dataclasses

    from dipgen.core.units import AIR, ARMY, FLEET, UnitKind
    from dipgen.engine.battlefield import kind_tables

    standard = {"A": ARMY, "F": FLEET}
    tables = kind_tables(BOARD, standard)
    assert kind_tables(BOARD, standard) is tables
    assert tables.one_a_province
    assert tables.all_fight
    assert tables.near["A"] is BOARD.army_reach
    planes = {**standard, "P": UnitKind("P", "plane", AIR, steps=2, occupies=False)}
    assert not kind_tables(BOARD, planes).one_a_province
    assert kind_tables(BOARD, planes).near["P"] is None
    for i in range(200):
        kinds = {"A": dataclasses.replace(ARMY, fights=bool(i % 2))}
        assert kind_tables(BOARD, kinds).all_fight == bool(i % 2)

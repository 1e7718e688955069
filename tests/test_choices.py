"""The order sheet's enumeration (dipgen.rules.choices) against the adjudicator itself: every
order it offers is one the variant's adjudication accepts when given alone, and every order the
adjudication accepts, out of all the orders that could be written for a unit of a random
position, is offered. Standard, Armor, Complicated (planes, bombers and bombing) and Blind (spies)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import Phase as Stage, given, settings, strategies as st

from dipgen.core.orders import (Build, Convoy, Disband, Downgrade, Hold, Move, Remove, Retreat, Support, UnitRef,
                                Upgrade, Waive, parse_order)
from dipgen.core.phase import Phase
from dipgen.core.position import Position, Unit
from dipgen.core.units import AIR, LAND, SEA
from dipgen.engine.battlefield import Battlefield
from dipgen.rules.choices import accepted, legal_orders
from dipgen.variants import get_variant

#: no shrinking: a failing example is reported as found (each one adjudicates thousands of orders)
QUICK = (Stage.explicit, Stage.reuse, Stage.generate)
VARIANTS = {name: get_variant(name) for name in ("standard", "armor", "complicated", "blind")}


def random_position(rules, rng: random.Random, n: int, phase: Phase) -> Position:
    board, kinds = rules.board, rules.unit_kinds
    units: list[Unit] = []
    for prov in rng.sample(sorted(board.provinces), n):
        p = board.provinces[prov]
        for occupying in (True, False):
            fit = [k for k in kinds.values() if k.occupies == occupying and (
                k.terrain == LAND and p.is_land or k.terrain == SEA and not p.type == "land"
                or k.terrain == AIR and (p.is_land or k.may_end_at_sea))]
            if not fit or (not occupying and rng.random() < 0.7):
                continue
            k = rng.choice(fit)
            loc = rng.choice(board.fleet_locations(prov)) if k.terrain == SEA else prov
            units.append(Unit(rng.choice(rules.powers()), k.letter, loc))
    owners = {c: rng.choice(rules.powers()) for c in sorted(board.centres) if rng.random() < 0.8}
    return Position(phase, tuple(sorted(units, key=lambda u: u.loc)), owners)


def alone(rules, position: Position, power: str, order) -> bool:
    """Does the variant's adjudication accept `order`, given alone?"""
    kind = position.phase.kind
    if kind == "movement":
        results = rules.movement(position, {power: [order]}).results
    elif kind == "retreats":
        results = rules.retreats(position, {power: [order]}).results
    else:
        return any(r.power == power and accepted(r) and r.succeeded
                   for r in rules.adjustments(position, {power: [order]}).results)
    return any(accepted(r) and r.unit is not None and r.power == power and not r.default for r in results)


def every_movement_order(rules, position: Position, unit: Unit):
    """Every order that could be written for `unit`: each kind of order to every location."""
    board = rules.board
    me = UnitRef(unit.kind, unit.loc)
    yield Hold(me)
    for loc in board.locations():
        yield Move(me, loc)
        yield Move(me, loc, True)
    for other in position.units:
        if other == unit or not rules.unit_kinds[other.kind].fights:
            continue  # (a support 'of a spy' names the unit occupying its province, tried by its own letter)
        them = UnitRef(other.kind, other.province)
        yield Support(me, them)
        for prov in board.provinces:
            yield Support(me, them, prov)
            yield Convoy(me, them, prov)
    for verb in rules.verbs:
        for prov in board.provinces:
            yield verb.order(me, prov) if verb.aims else verb.order(me)


def pointless(position: Position, order, rules) -> bool:
    """RULING (README): a move 'via convoy' to a neighbour no fleets could carry it to is legal but
    cannot succeed, and the sheet leaves it out."""
    if not (isinstance(order, Move) and order.via_convoy):
        return False
    unit = next(u for u in position.units if u.loc == order.unit.loc)
    f = Battlefield(rules.board, rules.unit_kinds, position.units)
    return not f.convoys.necessary_fleets(unit.province, order.dest.split("/")[0], f.convoy_fleets())


def spelt_with_coast(order, offered, kinds=None) -> bool:
    """The same order as one offered, written another way: a move or retreat to a split-coast
    province without its coast where only one coast can be reached (the engine reads it so; the
    sheet writes the coast), an army's move with a coast (ignored), a move to a province that is
    no neighbour written 'via convoy' (the sheet leaves the words out: there is no other way), or
    the move of a unit no convoy carries (a fleet: `kinds`, the rules' unit kinds) written 'via
    convoy' (the engine's check drops the words: `F WES - Spa via convoy` is `F WES - Spa/sc`)."""
    if not isinstance(order, (Move, Retreat)):
        return False
    if isinstance(order, Move) and order.via_convoy and kinds is not None and not kinds[order.unit.kind].convoyable:
        order = replace(order, via_convoy=False)
    prov = order.dest.split("/")[0]
    spellings = {order, replace(order, dest=prov)}
    if isinstance(order, Move):
        spellings |= {replace(o, via_convoy=False) for o in spellings}
    if any(o in offered for o in spellings):
        return True
    if "/" in order.dest:
        return False
    return any(type(o) is type(order) and o.unit == order.unit and o.dest.startswith(order.dest + "/")
               and getattr(o, "via_convoy", False) == getattr(order, "via_convoy", False) for o in offered)


def check_roundtrip(rules, orders) -> None:
    for order in orders:
        text = order.format(rules.board)
        assert parse_order(rules.board, text, rules.order_words, rules.verbs) == order, text


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=6, deadline=None, phases=QUICK)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 9))
def test_movement_orders_are_exactly_the_legal_ones(name, seed, n):
    rules = VARIANTS[name].rules
    rng = random.Random(seed)
    position = random_position(rules, rng, n, Phase(1903, 0))
    unit = rng.choice(position.units)
    offered = legal_orders(rules, position, unit.power)
    assert set(offered) == {u for u in position.units if u.power == unit.power}
    mine = offered[unit]
    assert Hold(UnitRef(unit.kind, unit.loc)) in mine
    assert len(set(mine)) == len(mine)
    check_roundtrip(rules, mine)
    for order in mine:
        assert alone(rules, position, unit.power, order), order.format(rules.board)
    for order in every_movement_order(rules, position, unit):
        if order not in mine and not spelt_with_coast(order, mine, rules.unit_kinds) \
                and alone(rules, position, unit.power, order):
            assert pointless(position, order, rules), f"{order.format(rules.board)} is legal but not offered"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=5, deadline=None, phases=QUICK)
@given(seed=st.integers(0, 2**32 - 1))
def test_retreats_are_exactly_the_legal_ones(name, seed):
    rules = VARIANTS[name].rules
    rng = random.Random(seed)
    before = random_position(rules, rng, 20, Phase(1903, 0))
    orders: dict[str, list] = {}
    for u in before.units:  # everyone attacks somewhere: some units are dislodged
        moves = [o for o in legal_orders(rules, before, u.power, [u])[u] if not isinstance(o, Hold)]
        if moves:
            orders.setdefault(u.power, []).append(rng.choice(moves))
    out = rules.movement(before, orders)
    position = Position(Phase(1903, 0, True), out.units, before.owners, out.dislodged)
    for d in out.dislodged:
        offered = legal_orders(rules, position, d.unit.power)[d.unit]
        me = UnitRef(d.unit.kind, d.unit.loc)
        check_roundtrip(rules, offered)
        every = [Disband(me)] + [Retreat(me, loc) for loc in rules.board.locations()]
        legal = {o for o in every if alone(rules, position, d.unit.power, o)}
        assert set(offered) <= legal
        assert {o for o in legal - set(offered) if not spelt_with_coast(o, offered)} == set()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=5, deadline=None, phases=QUICK)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 16))
def test_adjustments_are_exactly_the_legal_ones(name, seed, n):
    rules = VARIANTS[name].rules
    rng = random.Random(seed)
    position = random_position(rules, rng, n, Phase(1903, 2))
    due = rules.adjustment_counts(position)
    for power in rules.powers():
        offered = legal_orders(rules, position, power)[None]
        if power not in due:  # RULING: nothing to build where nothing can be built, nothing to remove
            assert offered == []
            continue
        check_roundtrip(rules, offered)
        every = [Waive()] + [Build(UnitRef(k, loc)) for k in rules.unit_kinds for loc in rules.board.locations()]
        for u in position.units:
            ref = UnitRef(u.kind, u.loc)
            every += [Remove(ref), Upgrade(ref), Downgrade(ref)]
        assert {o for o in every if alone(rules, position, power, o)} == set(offered)


def test_the_opening_offers_what_a_player_expects():
    rules = VARIANTS["standard"].rules
    position = rules.start()
    texts = {u.describe(rules.board): {o.format(rules.board) for o in orders}
             for u, orders in legal_orders(rules, position, "France").items()}
    assert {"A Par H", "A Par - Bur", "A Par - Pic", "A Par S A Mar - Bur", "A Par S F Bre - Pic"} <= texts["A Par"]
    assert "A Par - Mar" not in texts["A Par"]
    assert "A Par S A Mar - Spa" not in texts["A Par"]
    assert {"F Bre - MAO", "F Bre - ENG"} <= texts["F Bre"]
    assert not any("Lon" in t for t in texts["A Par"])  # no convoys without fleets at sea


def test_coasts_and_convoys_are_written_out():
    rules = VARIANTS["standard"].rules
    units = (Unit("France", "F", "mao"), Unit("England", "F", "nth"), Unit("England", "A", "lon"),
             Unit("France", "A", "bre"), Unit("France", "F", "eng"))
    position = Position(Phase(1903, 0), units, {})
    texts = {u.describe(rules.board): {o.format(rules.board) for o in orders}
             for u, orders in legal_orders(rules, position, "France").items()}
    assert {"F MAO - Spa/nc", "F MAO - Spa/sc", "F MAO - Por"} <= texts["F MAO"]
    assert "F MAO - Spa" not in texts["F MAO"]
    assert {"F ENG C A Bre - Lon", "F ENG C A Bre - Wal", "F ENG C A Lon - Bre"} <= texts["F ENG"]
    assert {"A Bre - Lon", "A Bre - Wal", "A Bre - Pic via convoy", "A Bre - Pic"} <= texts["A Bre"]
    assert "A Bre - Gas via convoy" in texts["A Bre"]  # (ENG and MAO carry it round)


def test_adjustments_offer_builds_removals_and_upgrades():
    armor = VARIANTS["armor"].rules
    position = armor.start().with_(phase=Phase(1901, 2))
    owners = dict(position.owners, bel="France", spa="France")
    units = tuple(u for u in position.units if u.loc != "par")
    offered = legal_orders(armor, position.with_(owners=owners, units=units), "France")[None]
    texts = {o.format(armor.board) for o in offered}
    assert {"Build A Par", "Build T Par", "Waive", "Upgrade A Mar"} <= texts
    assert "Build F Par" not in texts
    assert "Build A Mar" not in texts

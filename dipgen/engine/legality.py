"""Is an order legal where it stands? A legal order becomes an `Ord` with its places
resolved; an illegal one, a sentence saying why (DATC 4.E.1: illegal orders are ignored).

Coasts follow DATC 4.B: a fleet's move names a coast where it must, a support's coast must
match the move's if named. An army may be ordered to a coast it does not touch when some
chain of fleets could convoy it there.
"""

from __future__ import annotations

from collections.abc import Callable

from dipgen.core.board import province_of
from dipgen.core.orders import Convoy, Hold, Move, Order, Support
from dipgen.core.position import Unit
from dipgen.core.units import LAND, SEA
from dipgen.engine.battlefield import Battlefield, ConvoyOrd, HoldOrd, MoveOrd, Ord, SupportOrd

Checked = tuple[Ord | None, str]


class Elsewhere(str):
    """Why an order is illegal, when the cause is other units rather than the ordered unit and
    the map (`Illegal.ELSEWHERE`)."""


def check(f: Battlefield, power: str, key: int, unit: Unit, order: Order) -> Checked:
    """The order as a legal `Ord`, or (None, why it is illegal)."""
    checker = _CHECKERS.get(type(order)) or next(  # by the order's class: one lookup, but for a subclass
        (check for kind, check in _CHECKERS.items() if isinstance(order, kind)), None)
    if checker is None:
        return None, "not an order for a movement phase"
    return checker(f, power, key, unit, order)


def fleet_landing(f: Battlefield, unit: Unit, dest_loc: str) -> tuple[str | None, str]:
    """Where a fleet's move to `dest_loc` lands (its coast), or (None, why)."""
    b = f.board
    prov = province_of(dest_loc)
    p = b.provinces[prov]
    nbrs = b.fleet_adj.get(unit.loc, ())
    if p.type == "land":
        return None, f"a fleet cannot move inland to {p.name}"
    if not p.coasts:
        return (prov, "") if prov in nbrs else (None, f"{p.name} is not next to {b.full_name(unit.loc)}")
    if "/" in dest_loc and dest_loc.split("/")[1] in p.coasts:
        if dest_loc in nbrs:
            return dest_loc, ""
        return None, f"{b.full_name(dest_loc)} cannot be reached from {b.full_name(unit.loc)}"
    reachable = [loc for loc in b.fleet_locations(prov) if loc in nbrs]
    if len(reachable) == 1:
        return reachable[0], ""
    if not reachable:
        return None, f"{p.name} is not next to {b.full_name(unit.loc)}"
    return None, f"both coasts of {p.name} can be reached: say which"


def _hold(f: Battlefield, power: str, key: int, unit: Unit, order: Hold) -> Checked:
    return HoldOrd(key, unit, power, order), ""


def _move(f: Battlefield, power: str, key: int, unit: Unit, order: Move) -> Checked:
    b, k = f.board, f.kinds[unit.kind]
    dest = province_of(order.dest)
    if dest == unit.province:
        return None, "a unit cannot move to where it is"
    if k.terrain == LAND:
        if dest in b.seas:
            return None, f"{k.article} {k.name} cannot move to sea ({b.full_name(dest)})"
        if f.reaches(unit, dest):
            return MoveOrd(key, unit, power, order, dest, dest, order.via_convoy), ""
        if k.convoyable and b.provinces[unit.province].is_coastal and b.provinces[dest].is_coastal:
            if f.convoys.necessary_fleets(unit.province, dest, f.convoy_fleets()):
                return MoveOrd(key, unit, power, order, dest, dest, True), ""
            return None, Elsewhere(f"{b.full_name(dest)} is not next to {b.full_name(unit.province)} "
                                   "and no fleets could convoy there")
        return None, f"{b.full_name(dest)} is not next to {b.full_name(unit.province)}"
    if k.terrain == SEA:
        loc, why = fleet_landing(f, unit, order.dest)
        if loc is None:
            return None, why
        return MoveOrd(key, unit, power, order, dest, loc), ""
    if not k.may_end_at_sea and b.provinces[dest].is_sea:
        return None, f"{k.article} {k.name} cannot end its move at sea ({b.full_name(dest)})"
    if not f.reaches(unit, dest):
        return None, f"{b.full_name(dest)} is more than {k.steps} spaces from {b.full_name(unit.province)}"
    return MoveOrd(key, unit, power, order, dest, dest), ""


def _support(f: Battlefield, power: str, key: int, unit: Unit, order: Support) -> Checked:
    """What the supporting unit and the map decide is checked first, then the unit it names
    (`Elsewhere`): an order unlawful on the map is so whoever stands where it points."""
    b, k = f.board, f.kinds[unit.kind]
    target = order.target.province
    if not k.supports:
        return None, f"{k.article} {k.name} cannot support"
    dest = None if order.dest is None else province_of(order.dest)
    if dest is None and not f.support_reaches(unit, target):
        return None, f"{b.full_name(unit.loc)} cannot reach {b.full_name(target)}, so cannot support there"
    if dest is not None:
        if dest == unit.province and k.occupies:  # a plane beside the unit there may (Complicated)
            return None, "a unit cannot support a move into its own province"
        if dest == target:
            return None, "a unit cannot be supported to move to where it is"
        if not f.support_reaches(unit, dest):
            return None, f"{b.full_name(unit.loc)} cannot reach {b.full_name(dest)}, so cannot support a move there"
    tkey = f.find(order.target)
    if tkey == key:
        return None, "a unit cannot support itself"
    if tkey is None:
        return None, Elsewhere(f"there is no unit in {b.full_name(target)} to support")
    if dest is None or order.dest is None:  # a support to hold
        return SupportOrd(key, unit, power, order, tkey, None, None), ""
    other = f.units[tkey]
    ok = f.reaches(other, dest)
    if not ok and f.kind(other).convoyable and b.provinces[target].is_coastal and b.provinces[dest].is_coastal:
        ok = bool(f.convoys.necessary_fleets(target, dest, f.convoy_fleets() - {unit.province}))
    if not ok:
        return None, Elsewhere(f"the unit in {b.full_name(target)} cannot reach {b.full_name(dest)}")
    coast = order.dest if "/" in order.dest else None  # a coast, if named, must match (4.B.4)
    return SupportOrd(key, unit, power, order, tkey, dest, coast), ""


def _convoy(f: Battlefield, power: str, key: int, unit: Unit, order: Convoy) -> Checked:
    """As `_support`: the fleet and the map first, then the army it names and the other fleets."""
    b, k = f.board, f.kinds[unit.kind]
    target = order.target.province
    dest = province_of(order.dest)
    if not (k.convoys and unit.province in b.seas):
        return None, "only a fleet at sea can convoy"
    if not (b.provinces[target].is_coastal and b.provinces[dest].is_coastal) or dest == target:
        return None, "a convoy goes from one coastal province to another"
    tkey = f.find(order.target)
    if tkey is None:
        return None, Elsewhere(f"there is no unit in {b.full_name(target)} to convoy")
    other = f.units[tkey]
    if not f.kind(other).convoyable:
        return None, Elsewhere(f"a {f.kind(other).name} cannot be convoyed")
    if unit.province not in f.convoys.necessary_fleets(target, dest, f.convoy_fleets()):
        return None, Elsewhere(f"this fleet is on no convoy route from {b.full_name(target)} to {b.full_name(dest)}")
    return ConvoyOrd(key, unit, power, order, tkey, dest), ""


#: each kind of order's check, by its class
_CHECKERS: dict[type, Callable[..., Checked]] = {Hold: _hold, Move: _move, Support: _support, Convoy: _convoy}

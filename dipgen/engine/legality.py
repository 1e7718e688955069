"""Is an order legal where it stands? A legal order becomes an `Ord` with its places
resolved; an illegal one, a sentence saying why (DATC 4.E.1: illegal orders are ignored).

Coasts follow DATC 4.B: a fleet's move names a coast where it must, a support's coast must
match the move's if named. An army may be ordered to a coast it does not touch when some
chain of fleets could convoy it there.
"""

from __future__ import annotations

from dipgen.core.board import province_of
from dipgen.core.orders import Convoy, Hold, Move, Order, Support
from dipgen.core.position import Unit
from dipgen.core.units import LAND, SEA
from dipgen.engine.battlefield import Battlefield, ConvoyOrd, HoldOrd, MoveOrd, Ord, SupportOrd

Checked = tuple[Ord | None, str]


def check(f: Battlefield, power: str, key: int, unit: Unit, order: Order) -> Checked:
    """The order as a legal `Ord`, or (None, why it is illegal)."""
    if isinstance(order, Hold):
        return HoldOrd(key, unit, power, order), ""
    if isinstance(order, Move):
        return _move(f, power, key, unit, order)
    if isinstance(order, Support):
        return _support(f, power, key, unit, order)
    if isinstance(order, Convoy):
        return _convoy(f, power, key, unit, order)
    return None, "not an order for a movement phase"


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
            return None, (f"{b.full_name(dest)} is not next to {b.full_name(unit.province)} "
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
    b, k = f.board, f.kinds[unit.kind]
    target = order.target.province
    tkey = f.find(order.target)
    if tkey is None:
        return None, f"there is no unit in {b.full_name(target)} to support"
    if tkey == key:
        return None, "a unit cannot support itself"
    if not k.supports:
        return None, f"{k.article} {k.name} cannot support"
    other = f.units[tkey]
    if order.dest is None:
        if not f.support_reaches(unit, target):
            return None, f"{b.full_name(unit.loc)} cannot reach {b.full_name(target)}, so cannot support there"
        return SupportOrd(key, unit, power, order, tkey, None, None), ""
    dest = province_of(order.dest)
    if dest == unit.province and k.occupies:  # a plane beside the unit there may (Complicated)
        return None, "a unit cannot support a move into its own province"
    if dest == target:
        return None, "a unit cannot be supported to move to where it is"
    if not f.support_reaches(unit, dest):
        return None, f"{b.full_name(unit.loc)} cannot reach {b.full_name(dest)}, so cannot support a move there"
    ok = f.reaches(other, dest)
    if not ok and f.kind(other).convoyable and b.provinces[target].is_coastal and b.provinces[dest].is_coastal:
        ok = bool(f.convoys.necessary_fleets(target, dest, f.convoy_fleets() - {unit.province}))
    if not ok:
        return None, f"the unit in {b.full_name(target)} cannot reach {b.full_name(dest)}"
    coast = order.dest if "/" in order.dest else None  # a coast, if named, must match (4.B.4)
    return SupportOrd(key, unit, power, order, tkey, dest, coast), ""


def _convoy(f: Battlefield, power: str, key: int, unit: Unit, order: Convoy) -> Checked:
    b, k = f.board, f.kinds[unit.kind]
    target = order.target.province
    dest = province_of(order.dest)
    tkey = f.find(order.target)
    if not (k.convoys and unit.province in b.seas):
        return None, "only a fleet at sea can convoy"
    if tkey is None:
        return None, f"there is no unit in {b.full_name(target)} to convoy"
    other = f.units[tkey]
    if not f.kind(other).convoyable:
        return None, f"a {f.kind(other).name} cannot be convoyed"
    if not (b.provinces[target].is_coastal and b.provinces[dest].is_coastal) or dest == target:
        return None, "a convoy goes from one coastal province to another"
    if unit.province not in f.convoys.necessary_fleets(target, dest, f.convoy_fleets()):
        return None, f"this fleet is on no convoy route from {b.full_name(target)} to {b.full_name(dest)}"
    return ConvoyOrd(key, unit, power, order, tkey, dest), ""

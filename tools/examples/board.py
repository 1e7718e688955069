"""What the example games' players know of the standard board: distances, reach, names."""

from __future__ import annotations

import dataclasses

from collections import deque

from dipgen.core.board import province_of
from dipgen.core.position import Unit
from dipgen.variants import get_variant

VARIANT = get_variant("standard")
BOARD = VARIANT.rules.board
POWERS = VARIANT.rules.powers()
#: every unit kind the examples use (Blind's spies do not occupy their province; 'Complicated' adds
#: tanks, planes and bombers)
KINDS = {**get_variant("complicated").rules.unit_kinds, **get_variant("blind").rules.unit_kinds}


def occupant(pos, prov: str) -> Unit | None:
    """The unit occupying `prov` (not a spy beside it)."""
    return pos.occupant(prov, KINDS)


def spies_of(pos) -> list[Unit]:
    """The units beside the board's units (Blind's spies), sorted."""
    return sorted(u for u in pos.units if not KINDS[u.kind].occupies)


def units_of(pos, power: str) -> list[Unit]:
    """`power`'s units that occupy provinces (not its spies)."""
    return [u for u in pos.units if u.power == power and KINDS[u.kind].occupies]


def on_board(pos):
    """The position with only the units that occupy provinces: what the bots plan with."""
    if all(KINDS[u.kind].occupies for u in pos.units):
        return pos
    units = tuple(u for u in pos.units if KINDS[u.kind].occupies)
    return pos.with_(units=units) if hasattr(pos, "with_") else dataclasses.replace(pos, units=units)  # a view


# ====================================================================== geometry

def _bfs(start, step):
    dist = {start: 0}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        for q in sorted(step(p)):
            if q not in dist:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


ARMY_DIST = {p: _bfs(p, lambda x: BOARD.army_adj.get(x, ())) for p in sorted(BOARD.army_adj)}
FLEET_DIST_LOC = {loc: _bfs(loc, lambda x: BOARD.fleet_adj.get(x, ())) for loc in sorted(BOARD.fleet_adj)}
FLEET_DIST = {}
for _loc, _d in FLEET_DIST_LOC.items():
    out = {}
    for l2, n in _d.items():
        p2 = province_of(l2)
        out[p2] = min(n, out.get(p2, 99))
    FLEET_DIST[_loc] = out
ANY_DIST = {p: _bfs(p, BOARD.neighbours) for p in sorted(BOARD.provinces)}
SEAS = {p for p, v in BOARD.provinces.items() if v.is_sea}
CENTRES = sorted(BOARD.centres)
HOME = {p: set(BOARD.home_centres(p)) for p in POWERS}


def dist(unit: Unit, prov: str) -> int:
    if unit.kind == "A":
        return ARMY_DIST.get(unit.province, {}).get(prov, 99)
    return FLEET_DIST.get(unit.loc, {}).get(prov, 99)


def dist_from(kind: str, loc: str, prov: str) -> int:
    if kind == "A":
        return ARMY_DIST.get(province_of(loc), {}).get(prov, 99)
    return FLEET_DIST.get(loc, {}).get(prov, 99)


def move_targets(unit: Unit) -> list[str]:
    """Locations a unit can move to directly."""
    if unit.kind == "A":
        return sorted(BOARD.army_adj.get(unit.province, ()))
    return sorted(BOARD.fleet_adj.get(unit.loc, ()))


def reaches(unit: Unit, prov: str) -> bool:
    """Could `unit` move to province `prov` (coasts ignored): the test for support."""
    if unit.kind == "A":
        return prov in BOARD.army_adj.get(unit.province, ())
    nbrs = BOARD.fleet_adj.get(unit.loc, ())
    return any(loc in nbrs for loc in BOARD.fleet_locations(prov)) if prov in BOARD.provinces else False


def sea_touches(sea: str, prov: str) -> bool:
    nbrs = BOARD.fleet_adj.get(sea, ())
    return any(loc in nbrs for loc in BOARD.fleet_locations(prov))


# ====================================================================== names

def full_name(loc: str) -> str:
    return BOARD.full_name(loc)


def place_name(loc: str) -> str:
    """A province as press names it: 'Munich', 'the North Sea'."""
    name = BOARD.full_name(loc)
    return f"the {name}" if province_of(loc) in SEAS else name


def abbr(loc: str) -> str:
    return BOARD.format_loc(loc)


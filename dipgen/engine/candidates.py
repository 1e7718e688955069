"""Every order a unit might be given, from the map alone: the candidates the order sheet's
enumeration (`dipgen.rules.choices`) hands the variant's adjudication to keep the legal ones.

Pure geometry, never a rule of legality: a candidate may be illegal (a convoy with no route,
a support of a move its unit cannot make); it is the adjudicator that says. What must hold is
the other way round: no legal order is missing from the candidates. The standard kinds of order
are narrowed by `legality.check` (the engine's own test) before the variant's hook sees them;
the variants' own verbs (`Verb`) are offered against every location of the board.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence

from dipgen.core.board import Board
from dipgen.core.orders import (Build, Convoy, Disband, Downgrade, Hold, Move, Order, Remove, Retreat, Support,
                                Upgrade, UnitRef, Verb, Waive)
from dipgen.core.position import Dislodged, Unit
from dipgen.core.reach import destinations
from dipgen.core.units import LAND, SEA
from dipgen.engine.battlefield import Battlefield
from dipgen.engine.legality import check


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.kind, unit.loc)


def _target(unit: Unit) -> UnitRef:
    """A unit named by another's order (a support's, a convoy's): its kind and province."""
    return UnitRef(unit.kind, unit.province)


def _move_dests(f: Battlefield, unit: Unit) -> list[tuple[str, bool]]:
    """(location, via convoy) of every move worth trying: where the unit's kind reaches (each
    coast of a split-coast province for a fleet), and for a kind that may be convoyed, every
    coastal province, once plainly and, where it is also a neighbour, once via convoy."""
    b, k = f.board, f.kinds[unit.kind]
    out: list[tuple[str, bool]] = []
    if k.terrain == SEA:
        out = [(loc, False) for loc in b.fleet_adj.get(unit.loc, ())]
    else:
        out = [(p, False) for p in destinations(b, k, unit.loc)]
    if k.convoyable and k.terrain == LAND and b.provinces[unit.province].is_coastal:
        near = {p for p, _ in out}
        fleets = f.convoy_fleets()
        for p in sorted(b.provinces):
            if p == unit.province or not b.provinces[p].is_coastal:
                continue
            if p not in near:
                out.append((p, False))  # `check` keeps it where fleets could convoy it there
            elif f.convoys.necessary_fleets(unit.province, p, fleets):
                out.append((p, True))  # RULING: a neighbour via convoy only where fleets could carry it
    return list(dict.fromkeys(out))


def movement_candidates(f: Battlefield, power: str, unit: Unit, verbs: Sequence[Verb] = ()) -> Iterator[Order]:
    """The orders of a movement phase the engine's `check` finds legal for `unit` (of the
    battlefield `f`), then every order of the variant's `verbs` (aimed at every location)."""
    key = f.units.index(unit) if unit in f.units else -1
    me = _ref(unit)
    kinds = f.kinds
    yield Hold(me)
    if key >= 0:
        for loc, via in _move_dests(f, unit):
            order = Move(me, loc, via)
            if check(f, power, key, unit, order)[0] is not None:
                yield order
        reaches = _reaches(f, unit) if kinds[unit.kind].supports else frozenset()
        known = _known(f)
        for tkey, other in enumerate(f.units):
            if tkey == key:
                continue
            yield from _supports(f, power, key, unit, other, reaches, known)
            if kinds[unit.kind].convoys and kinds[other.kind].convoyable:
                yield from _convoys(f, power, key, unit, other, known)
    else:  # a unit outside combat (a spy): where its kind reaches, as its variant's rules move it
        for loc in destinations(f.board, kinds[unit.kind], unit.loc):
            yield Move(me, loc)
    for verb in verbs:
        if not verb.aims:
            yield verb.order(me)
            continue
        for p in sorted(f.board.provinces):
            yield verb.order(me, p)


def _reaches(f: Battlefield, unit: Unit) -> frozenset[str]:
    """The provinces `unit` may support in (`Battlefield.support_reaches`): a few, asked once each."""
    return frozenset(p for p in f.board.provinces if f.support_reaches(unit, p))


class _Known:
    """What the candidates of every unit of one battlefield ask again of each other unit: where it
    might be supported to (`_support_dests`), and where it might be convoyed and by which fleets
    (`_convoy_routes`). Made once a battlefield (`_known`), each entry when first asked."""

    def __init__(self) -> None:
        self.dests: dict[Unit, frozenset[str]] = {}
        self.routes: dict[Unit, tuple[tuple[str, frozenset[str]], ...]] = {}


_KNOWN: weakref.WeakKeyDictionary[Battlefield, _Known] = weakref.WeakKeyDictionary()


def _known(f: Battlefield) -> _Known:
    known = _KNOWN.get(f)
    if known is None:
        known = _KNOWN[f] = _Known()
    return known


def _support_dests(f: Battlefield, other: Unit, known: _Known) -> frozenset[str]:
    """The provinces a support of `other`'s move might name: where its kind reaches (a coast's
    province), and every coastal province for a unit that may be convoyed from a coast."""
    dests = known.dests.get(other)
    if dests is None:
        b, k = f.board, f.kinds[other.kind]
        reach = destinations(b, k, other.loc)
        found = {p for p in reach if "/" not in p} | {loc.split("/")[0] for loc in reach}
        if k.convoyable and b.provinces[other.province].is_coastal:
            found |= b.coastal  # where a unit that may be convoyed might go
        dests = known.dests[other] = frozenset(found)
    return dests


def _supports(f: Battlefield, power: str, key: int, unit: Unit, other: Unit,
              reaches: frozenset[str], known: _Known) -> Iterator[Order]:
    """`check`'s first test of a support is whether the supporting unit reaches the province it
    supports in (`reaches`: `Battlefield.support_reaches`): a province it does not reach is not
    tried (the same orders, without building and refusing the many a far unit's moves would give)."""
    if not reaches:
        return
    me, them = _ref(unit), _target(other)
    if other.province in reaches:
        hold = Support(me, them)
        if check(f, power, key, unit, hold)[0] is not None:
            yield hold
    for dest in sorted(reaches & _support_dests(f, other, known)):
        order = Support(me, them, dest)
        if check(f, power, key, unit, order)[0] is not None:
            yield order


def _convoy_routes(f: Battlefield, other: Unit, known: _Known) -> tuple[tuple[str, frozenset[str]], ...]:
    """(province, the fleets on a route there) of each coastal province fleets could convoy the
    army `other` to, in the board's order of names: the same for every fleet that might convoy it."""
    routes = known.routes.get(other)
    if routes is None:
        fleets = f.convoy_fleets()
        routes = known.routes[other] = tuple(
            (dest, needed) for dest, prov in sorted(f.board.provinces.items())
            if dest != other.province and prov.is_coastal
            and (needed := f.convoys.necessary_fleets(other.province, dest, fleets)))
    return routes


def _convoys(f: Battlefield, power: str, key: int, unit: Unit, other: Unit, known: _Known) -> Iterator[Order]:
    b = f.board
    if not b.provinces[other.province].is_coastal or unit.province not in b.seas:
        return  # `check`: only a fleet at sea convoys, an army on a coast
    me, them = _ref(unit), _target(other)
    for dest, needed in _convoy_routes(f, other, known):
        # `check`'s last test first: this fleet on a route from the army's province to `dest`
        if unit.province in needed:
            order = Convoy(me, them, dest)
            if check(f, power, key, unit, order)[0] is not None:
                yield order


def retreat_candidates(board: Board, d: Dislodged) -> Iterator[Order]:
    """A dislodged unit's retreats: every location its kind could reach from where it stood
    (the variant's retreat rules keep the open ones), and disbanding."""
    me = _ref(d.unit)
    for loc in sorted(set(board.fleet_adj.get(d.unit.loc, ())) | set(board.army_adj.get(d.unit.province, ()))
                      | set(d.retreats or ())):
        yield Retreat(me, loc)
    yield Disband(me)


def adjustment_candidates(board: Board, letters: Sequence[str], units: Sequence[Unit], homes: Sequence[str],
                          due: int) -> Iterator[Order]:
    """A power's adjustment orders worth trying, for `due` builds (+) or removals (-): a build of
    every kind (`letters`) at every location of each home centre, a waive and an upgrade of each of
    its units; or a removal and a downgrade of each."""
    if due > 0:
        for home in homes:
            for loc in [home, *board.fleet_locations(home)]:
                for letter in letters:
                    yield Build(UnitRef(letter, loc))
        yield Waive()
        for u in units:
            yield Upgrade(_ref(u))
    elif due < 0:
        for u in units:
            yield Remove(_ref(u))
        for u in units:
            yield Downgrade(_ref(u))

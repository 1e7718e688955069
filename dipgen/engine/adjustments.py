"""Adjudication of a winter adjustment phase: builds, removals, waivers and civil disorder.

Orders are taken one by one, as DATC 3.0 prefers (4.D.4-4.D.6): the first legal builds up to
the number allowed, the first legal removals up to the number owed. A power that removes
too few has units removed for it by the 2023 rule: farthest from its nearest owned centre
first (moving through land and sea alike), units that move by sea before the others (fleets
before armies), then by the province's name. Builds not ordered are waived.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Sequence

from ..board import Board
from ..orders import Build, Order, Remove, UnitRef, Waive
from ..position import Unit
from ..units import LAND, SEA, STANDARD_UNIT_KINDS, UnitKind, kind_for_terrain
from .results import Illegal, Kind, Note, OrderResult


@dataclass(frozen=True)
class AdjustmentOutcome:
    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]


def adjustment_counts(units: Iterable[Unit], owners: Mapping[str, str], powers: Iterable[str],
                      kinds: Mapping[str, UnitKind] = STANDARD_UNIT_KINDS) -> dict[str, int]:
    """For each power: centres minus the upkeep of its units (positive: builds due, negative:
    removals owed). In the standard game every unit costs one centre to keep."""
    out = {p: 0 for p in powers}
    for o in owners.values():
        if o in out:
            out[o] += 1
    for u in units:
        if u.power in out:
            out[u.power] -= kinds[u.kind].upkeep
    return out


def distances_to_centres(board: Board, centres: Iterable[str]) -> dict[str, int]:
    """Moves from each province to the nearest of `centres`, over land and sea alike."""
    dist = {c: 0 for c in centres}
    queue = deque(dist)
    while queue:
        p = queue.popleft()
        for q in board.neighbours(p):
            if q not in dist:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


def civil_disorder_order(board: Board, units: Sequence[Unit], owned: Iterable[str],
                         kinds: Mapping[str, UnitKind] = STANDARD_UNIT_KINDS) -> list[Unit]:
    """The order in which a power in civil disorder loses units (first removed first)."""
    dist = distances_to_centres(board, owned)
    far = max(dist.values(), default=0) + 100
    return sorted(units, key=lambda u: (-dist.get(u.province, far), kinds[u.kind].terrain != SEA,
                                        board.provinces[u.province].name))


def adjudicate_adjustments(board: Board, units: Iterable[Unit], owners: Mapping[str, str],
                           orders: Mapping[str, Sequence[Order]],
                           kinds: Mapping[str, UnitKind] = STANDARD_UNIT_KINDS,
                           home_centres: Callable[[str], Iterable[str]] | None = None) -> AdjustmentOutcome:
    units = list(units)
    homes = home_centres or board.home_centres
    counts = adjustment_counts(units, owners, board.powers, kinds)
    results: list[OrderResult] = []
    occupied = {u.province for u in units if kinds[u.kind].occupies}
    removed: set[Unit] = set()
    built: list[Unit] = []
    used = {p: 0 for p in board.powers}
    for power, orders_ in orders.items():
        due = counts.get(power, 0)
        for order in orders_:
            if not isinstance(order, (Build, Remove, Waive)):
                results.append(OrderResult(power, order, None, False, (Note(Kind.ILLEGAL, Illegal.WRONG_PHASE, "not an order for an adjustment phase"),)))
                continue
            if isinstance(order, (Build, Waive)) and due <= 0:
                results.append(OrderResult(power, order, None, False, (Note(Kind.VOID, why=f"{power} has no builds"),)))
                continue
            if isinstance(order, Remove) and due >= 0:
                results.append(OrderResult(power, order, None, False, (Note(Kind.VOID, why=f"{power} has no units to remove"),)))
                continue
            if used[power] >= abs(due):
                what = "builds" if due > 0 else "removals"
                results.append(OrderResult(power, order, None, False, (Note(Kind.VOID, why=f"{power} has no {what} left"),)))
                continue
            if isinstance(order, Waive):
                used[power] += 1
                results.append(OrderResult(power, order, None, True))
                continue
            if isinstance(order, Remove):
                here = [u for u in units if u.province == order.unit.province and u not in removed
                        and kinds[u.kind].upkeep]
                unit = next((u for u in here if u.kind == order.unit.kind), here[0] if here else None)
                if unit is None or unit.power != power:
                    why = "no unit there" if unit is None else f"the unit there is {unit.power}'s"
                    code = Illegal.NO_UNIT if unit is None else Illegal.NOT_YOURS
                    results.append(OrderResult(power, order, unit, False, (Note(Kind.ILLEGAL, code, why),)))
                    continue
                removed.add(unit)
                used[power] += 1
                results.append(OrderResult(power, replace(order, unit=UnitRef(unit.kind, unit.loc)), unit, True))
                continue
            unit, why = _build(board, kinds, power, order.unit, owners, occupied, homes)
            if unit is None:
                results.append(OrderResult(power, order, None, False, (Note(Kind.ILLEGAL, Illegal.CANNOT_BUILD, why),)))
                continue
            occupied.add(unit.province)
            built.append(unit)
            used[power] += 1
            results.append(OrderResult(power, Build(UnitRef(unit.kind, unit.loc)), unit, True))
    for power, due in counts.items():
        if due < 0 and used[power] < -due:
            mine = [u for u in units if u.power == power and u not in removed and kinds[u.kind].upkeep]
            for unit in civil_disorder_order(board, mine, [c for c, o in owners.items() if o == power], kinds)[: -due - used[power]]:
                removed.add(unit)
                results.append(OrderResult(power, Remove(UnitRef(unit.kind, unit.loc)), unit, True,
                                           (Note(Kind.CIVIL_DISORDER, why="too few removals ordered"),), default=True))
    after = [u for u in units if u not in removed] + built
    return AdjustmentOutcome(tuple(results), tuple(sorted(after, key=lambda u: u.loc)))


def _build(board: Board, kinds: Mapping[str, UnitKind], power: str, ref: UnitRef, owners: Mapping[str, str],
           occupied: set[str], homes) -> tuple[Unit | None, str]:
    prov = ref.province
    p = board.provinces[prov]
    if prov not in set(homes(power)):
        return None, f"{p.name} is not a home centre of {power}"
    if owners.get(prov) != power:
        return None, f"{power} does not own {p.name} now"
    if prov in occupied:
        return None, f"{p.name} is occupied"
    kind = ref.kind
    coast = ref.loc.split("/")[1] if "/" in ref.loc else None
    if kind is None:  # 4.C.3: best effort
        plain = kind_for_terrain(kinds, LAND if p.type == "land" else SEA if coast and coast in p.coasts else "")
        if plain is None:
            return None, f"say whether to build an army or a fleet in {p.name}"
        kind = plain.letter
    k = kinds.get(kind)
    if k is None:
        return None, f"unknown unit kind {kind}"
    if k.terrain != SEA:
        return Unit(power, kind, prov), ""
    if p.type == "land":
        return None, f"a {k.name} cannot be built inland in {p.name}"
    if p.coasts:
        if coast not in p.coasts:
            return None, f"say which coast of {p.name} the {k.name} is built on, e.g. {board.format_loc(prov)}/{p.coasts[0]}"
        return Unit(power, kind, f"{prov}/{coast}"), ""
    return Unit(power, kind, prov), ""

"""Adjudication of a retreat phase: each dislodged unit retreats to a legal place or disbands.

Two or more units retreating to one province all disband. A unit with no order, an illegal
retreat, or a disband order disbands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from dipgen.core.board import Board, province_of
from dipgen.core.orders import Disband, Order, Retreat, UnitRef
from dipgen.core.position import Dislodged, Unit
from dipgen.core.units import SEA, STANDARD_UNIT_KINDS, UnitKind
from dipgen.core.results import Bounce, Illegal, Kind, Note, OrderResult
from dipgen.engine.matching import pick


@dataclass(frozen=True)
class RetreatOutcome:
    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]  # all units after the phase


def _retreat_target(board: Board, kind: UnitKind, d: Dislodged, dest: str) -> str | None:
    """The legal location the retreat order names, or None. A coast named for a unit that
    moves by sea must be the coast it can reach."""
    retreats = d.retreats
    if retreats is None:  # only a view of a hidden game leaves them unknown, and views are not adjudicated
        raise ValueError(f"the retreats of the dislodged {d.unit} are not known")
    if dest in retreats:
        return dest
    prov = province_of(dest)
    options = [loc for loc in retreats if province_of(loc) == prov]
    if len(options) == 1 and ("/" not in dest or kind.terrain != SEA or dest == options[0]
                              or not board.provinces[prov].coasts):
        return options[0]
    return None


def adjudicate_retreats(board: Board, units: Iterable[Unit], dislodged: Sequence[Dislodged],
                        orders: Mapping[str, Sequence[Order]],
                        kinds: Mapping[str, UnitKind] = STANDARD_UNIT_KINDS) -> RetreatOutcome:
    by_prov: dict[str, list[Dislodged]] = {}
    for one in dislodged:  # several where units stand together (a plane with an army)
        by_prov.setdefault(one.unit.province, []).append(one)
    results: list[OrderResult] = []
    chosen: dict[int, tuple[int, str | None]] = {}  # index of dislodged unit -> (result index, target)
    index = {id(d): i for i, d in enumerate(dislodged)}
    for power, orders_ in orders.items():
        for order in orders_:
            if not isinstance(order, (Retreat, Disband)):
                results.append(OrderResult(power, order, None, False,
                                           (Note(Kind.ILLEGAL, Illegal.WRONG_PHASE,
                                                 "not an order for a retreat phase"),)))
                continue
            ref = order.unit
            d = _named(by_prov.get(ref.province, ()), ref, power, kinds, chosen, index)
            if d is None:
                results.append(OrderResult(power, order, None, False,
                                           (Note(Kind.ILLEGAL, Illegal.NO_UNIT,
                                                 f"no dislodged unit in {board.full_name(ref.province)}"),)))
                continue
            if d.unit.power != power:
                results.append(OrderResult(power, order, d.unit, False,
                                           (Note(Kind.ILLEGAL, Illegal.NOT_YOURS,
                                                 f"the unit in {board.full_name(ref.province)} is {d.unit.power}'s"),)))
                continue
            order = replace(order, unit=UnitRef(d.unit.kind, d.unit.loc))
            if index[id(d)] in chosen:
                results.append(OrderResult(power, order, d.unit, False,
                                           (Note(Kind.IGNORED, why="a second order for the same unit"),)))
                continue
            if isinstance(order, Disband):
                target = None
            else:
                target = _retreat_target(board, kinds[d.unit.kind], d, order.dest)
                if target is None:  # ignored: the unit has no valid order and disbands
                    results.append(OrderResult(power, order, d.unit, False, (
                        Note(Kind.ILLEGAL, Illegal.IMPOSSIBLE, f"cannot retreat to {board.full_name(order.dest)}"),)))
                    continue
            results.append(OrderResult(power, order, d.unit, True))
            chosen[index[id(d)]] = (len(results) - 1, target)
    # units that occupy bounce off each other; the others (planes) may retreat together
    counts = Counter(province_of(t) for i, (_, t) in chosen.items() if t and kinds[dislodged[i].unit.kind].occupies)
    after = list(units)
    for i, (idx, target) in chosen.items():
        r, unit = results[idx], dislodged[i].unit
        if target is None:
            if isinstance(r.order, Disband):
                results[idx] = replace(r, succeeded=True, notes=(Note(Kind.DISBANDED),))
            continue
        if kinds[unit.kind].occupies and counts[province_of(target)] > 1:
            results[idx] = replace(r, succeeded=False, notes=(Note(Kind.BOUNCE, Bounce.STANDOFF), Note(Kind.DISBANDED)))
            continue
        after.append(replace(unit, loc=target))
    for i, d in enumerate(dislodged):
        if i not in chosen:
            results.append(OrderResult(d.unit.power, Disband(UnitRef(d.unit.kind, d.unit.loc)), d.unit, True,
                                       (Note(Kind.DISBANDED, why="no valid retreat order"),), default=True))
    return RetreatOutcome(tuple(results), tuple(sorted(after, key=lambda u: u.loc)))


def _named(here: Sequence[Dislodged], ref: UnitRef, power: str, kinds: Mapping[str, UnitKind],
           chosen: Mapping[int, object], index: Mapping[int, int]) -> Dislodged | None:
    """The dislodged unit an order names among those of its province, by the one rule
    (`matching.pick`): a unit already ordered is passed over while another remains."""
    if len(here) <= 1:
        return here[0] if here else None
    i = pick([d.unit for d in here], ref.kind, power, kinds, [j for j, d in enumerate(here) if index[id(d)] in chosen])
    return None if i is None else here[i]

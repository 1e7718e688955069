"""Every legal order of each unit in the phase a position waits for: the one enumeration the
order sheet, its test oracle and the reader of e-mailed orders share.

The map proposes (`dipgen.engine.candidates`), the variant's own adjudication disposes: each
candidate is adjudicated through the variant's hook for the phase (`Rules.movement`,
`Rules.retreats`, `Rules.adjustments`), one candidate per unit at a time, and kept when its
result names the unit and carries no note of illegality. So a variant's own orders (a bomber's
bombing, a spy's counter-espionage, Armor's upgrades) and its own limits (a bomber ends only in
land its power controls) are offered exactly as its rules allow them, and no variant is named.

`position` may be what one level knows (a hidden game's view): the enumeration sees only its
units, so no order names a unit that level cannot know is there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from dipgen.core.orders import Order
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS
from dipgen.core.position import Position, Unit
from dipgen.core.results import Kind, OrderResult
from dipgen.engine.battlefield import Battlefield
from dipgen.engine.candidates import adjustment_candidates, movement_candidates, retreat_candidates
from dipgen.rules.variant import Rules


def accepted(result: OrderResult) -> bool:
    """Did the adjudicator take this order as legal (given, not supplied, not illegal)? (A legal
    order may still fail, or be void because of what others did: a support of a unit that moved.)"""
    return not result.default and not result.has(Kind.ILLEGAL)


def movement_orders(rules: Rules, position: Position, units: Iterable[Unit]) -> dict[Unit, list[Order]]:
    """Each of `units`' legal orders in the movement phase `position` waits for."""
    f = Battlefield(rules.board, rules.unit_kinds, position.units)
    wanted = list(dict.fromkeys(units))  # (two spies of one power in one province: one list serves both)
    candidates = {u: list(dict.fromkeys(movement_candidates(f, u.power, u, rules.verbs))) for u in wanted}
    return _by_rounds(candidates, lambda orders: rules.movement(position, orders).results)


def retreat_orders(rules: Rules, position: Position, units: Iterable[Unit] | None = None) -> dict[Unit, list[Order]]:
    """Each dislodged unit's legal retreats and its disbanding (`units`: only these of them)."""
    keep = None if units is None else set(units)
    dislodged = [d for d in position.dislodged if keep is None or d.unit in keep]
    candidates = {d.unit: list(dict.fromkeys(retreat_candidates(rules.board, d))) for d in dislodged}
    return _by_rounds(candidates, lambda orders: rules.retreats(position, orders).results)


def _by_rounds(candidates: Mapping[Unit, Sequence[Order]], adjudicate) -> dict[Unit, list[Order]]:
    """The candidates the adjudicator accepts, tried one per unit at a time (a unit given two
    orders would hold, whatever they were): round i gives every unit its i-th candidate."""
    legal: dict[Unit, list[Order]] = {u: [] for u in candidates}
    rounds = max((len(c) for c in candidates.values()), default=0)
    for i in range(rounds):
        given: dict[Unit, Order] = {u: c[i] for u, c in candidates.items() if i < len(c)}
        orders: dict[str, list[Order]] = {}
        for u, order in given.items():
            orders.setdefault(u.power, []).append(order)
        for result in adjudicate(orders):
            unit = result.unit
            if unit in given and accepted(result):
                legal[unit].append(given.pop(unit))
    return legal


def adjustment_orders(rules: Rules, position: Position, power: str) -> list[Order]:
    """`power`'s legal adjustment orders (each one alone): builds where she may build, waives,
    removals, and the variant's upgrades and downgrades; none when she has nothing to adjust."""
    due = rules.adjustment_counts(position).get(power, 0)
    mine = [u for u in position.units if u.power == power]
    homes = [c for c in rules.home_centres(power) if position.owners.get(c) == power]
    out: list[Order] = []
    for order in dict.fromkeys(adjustment_candidates(rules.board, list(rules.unit_kinds), mine, homes, due)):
        results = rules.adjustments(position, {power: [order]}).results
        if any(r.power == power and accepted(r) and r.succeeded for r in results):  # (a void one did nothing)
            out.append(order)
    return out


def legal_orders(rules: Rules, position: Position, power: str, units: Iterable[Unit] | None = None) -> dict:
    """`power`'s legal orders in the phase `position` waits for: unit -> its orders in a movement
    or retreat phase (`units`: only these, e.g. those a level is told must retreat), or
    ``{None: orders}`` in an adjustment phase (its orders name no one unit)."""
    return powers_orders(rules, position, [power], units)[power]


def powers_orders(rules: Rules, position: Position, powers: Sequence[str],
                  units: Iterable[Unit] | None = None) -> dict[str, dict]:
    """`legal_orders` of each of `powers` (power -> its orders), the units of all of them tried
    together: one adjudication a round serves every power."""
    kind = position.phase.kind
    wanted = set(powers)
    mine = [u for u in (position.units if units is None else units) if u.power in wanted]
    found: dict = {}
    if kind == MOVEMENT:
        found = movement_orders(rules, position, mine)
    elif kind == RETREATS:
        dislodged = [d.unit for d in position.dislodged if d.unit.power in wanted]
        found = retreat_orders(rules, position, dislodged if units is None else [u for u in dislodged if u in mine])
    elif kind == ADJUSTMENTS:
        return {p: {None: adjustment_orders(rules, position, p)} for p in powers}
    out: dict[str, dict] = {p: {} for p in powers}
    for unit, orders in found.items():
        out[unit.power][unit] = orders
    return out

"""Adjudication of a winter adjustment phase: builds, removals, waivers and civil disorder.

Orders are taken one by one, as DATC 3.0 prefers (4.D.4-4.D.6): the first legal builds up to
the number allowed, the first legal removals up to the number owed. A power that removes
too few has units removed for it by the 2023 rule: farthest from its nearest owned centre
first (moving through land and sea alike), units that move by sea before the others (fleets
before armies), then by the province's name. Builds not ordered are waived.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from dipgen.core.board import Board
from dipgen.core.orders import ADJUSTMENT_ORDERS, Build, Downgrade, Order, Remove, UnitRef, Upgrade, Waive
from dipgen.core.position import Unit
from dipgen.core.units import LAND, SEA, STANDARD_UNIT_KINDS, UnitKind, downgrade_of, kind_for_terrain
from dipgen.core.results import Illegal, Kind, Note, OrderResult
from dipgen.engine.matching import pick


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


def upgrade_cost(kinds: Mapping[str, UnitKind], kind: str) -> int:
    """Builds an upgrade of a unit of kind `kind` takes (0: it cannot be upgraded)."""
    k = kinds.get(kind)
    if k is None or not k.upgrades_to or k.upgrades_to not in kinds:
        return 0
    return max(1, kinds[k.upgrades_to].build_cost - k.build_cost)


def downgrade_relief(kinds: Mapping[str, UnitKind], kind: str) -> int:
    """Removals a downgrade of a unit of kind `kind` counts for (0: it cannot be downgraded)."""
    k, weaker = kinds.get(kind), downgrade_of(kinds, kind)
    if k is None or weaker is None:
        return 0
    return max(1, k.upkeep - weaker.upkeep)


def order_cost(order: Order, units: Iterable[Unit], kinds: Mapping[str, UnitKind]) -> int:
    """How many builds (Build, Upgrade, Waive) or removals (Remove, Downgrade) an adjustment
    order counts for, read from the kinds: a build costs its kind's build cost, a removal the
    removed unit's upkeep. An order whose unit is unknown counts one."""
    if isinstance(order, Build):
        k = kinds.get(order.unit.kind) if order.unit.kind else None
        return k.build_cost if k is not None else 1
    if isinstance(order, (Remove, Upgrade, Downgrade)):
        ref = order.unit
        here = [u for u in units if u.province == ref.province and kinds[u.kind].upkeep]
        unit = next((u for u in here if u.kind == ref.kind), here[0] if here else None)
        if unit is None:
            return 1
        if isinstance(order, Upgrade):
            return upgrade_cost(kinds, unit.kind) or 1
        if isinstance(order, Downgrade):
            return downgrade_relief(kinds, unit.kind) or 1
        return kinds[unit.kind].upkeep
    return 1


def _count(n: int) -> str:
    return {1: "one", 2: "two", 3: "three"}.get(n, str(n))


#: the orders of an adjustment phase (`ADJUSTMENT_ORDERS`)
AdjustmentOrder = Build | Remove | Upgrade | Downgrade | Waive


def gate(power: str, order: Order, due: int, nothing_to_build: str, nothing_to_remove: str) -> OrderResult | None:
    """The checks every adjustment order passes first (None: it passes): an order of another
    phase is illegal (`wrong_phase`); a build, upgrade or waive with nothing due, or a removal or
    downgrade with nothing owed, is void (`void`)."""
    if not isinstance(order, ADJUSTMENT_ORDERS):
        return wrong_phase(power, order)
    return void(power, order, due, nothing_to_build, nothing_to_remove)


def wrong_phase(power: str, order: Order) -> OrderResult:
    """The result of an order of another phase given in an adjustment phase."""
    return OrderResult(power, order, None, False,
                       (Note(Kind.ILLEGAL, Illegal.WRONG_PHASE, "not an order for an adjustment phase"),))


def void(power: str, order: AdjustmentOrder, due: int, nothing_to_build: str,
         nothing_to_remove: str) -> OrderResult | None:
    """The result of a build, upgrade or waive with nothing due, or a removal or downgrade with
    nothing owed: void, said as `nothing_to_build` or `nothing_to_remove` (None: neither)."""
    if isinstance(order, (Build, Waive, Upgrade)) and due <= 0:
        return OrderResult(power, order, None, False, (Note(Kind.VOID, why=nothing_to_build),))
    if isinstance(order, (Remove, Downgrade)) and due >= 0:
        return OrderResult(power, order, None, False, (Note(Kind.VOID, why=nothing_to_remove),))
    return None


def adjudicate_adjustments(board: Board, units: Iterable[Unit], owners: Mapping[str, str],
                           orders: Mapping[str, Sequence[Order]],
                           kinds: Mapping[str, UnitKind] = STANDARD_UNIT_KINDS,
                           home_centres: Callable[[str], Iterable[str]] | None = None) -> AdjustmentOutcome:
    """Counts are in the kinds' costs: a build takes its kind's build cost from the builds due,
    a removal gives its unit's upkeep, an upgrade takes the difference of the build costs, a
    downgrade gives the difference of the upkeeps. Orders are taken in the order written; an
    order that needs more builds than are left fails, a removal is carried out whenever one
    is still owed (a tank removed when one removal is owed counts its two)."""
    units = list(units)
    counts = adjustment_counts(units, owners, board.powers, kinds)
    return Winter(board, kinds, units, owners, counts, home_centres or board.home_centres).run(orders)


class Winter:
    """One adjustment phase as it is adjudicated: what each power may still build (`left` > 0)
    or must still remove (`left` < 0), and the units built, removed and changed so far.

    Each kind of order is one method, and each step of one a method of its own, so that a
    variant whose winter differs in one step (which unit an order names, what a build costs,
    what civil disorder does) overrides that step (Complicated's `ComplicatedWinter`).

    Removed and changed units are kept by identity (`id`), not by value: units compare as a
    player sees them, and two of a power's planes in one province are equal."""

    #: why an order is void when there is nothing to build, or nothing to remove
    nothing_to_build = "{power} has no builds"
    nothing_to_remove = "{power} has no units to remove"
    #: why civil disorder removed a unit
    disorder_why = "too few removals ordered"

    def __init__(self, board: Board, kinds: Mapping[str, UnitKind], units: list[Unit], owners: Mapping[str, str],
                 due: Mapping[str, int], homes: Callable[[str], Iterable[str]]) -> None:
        self.board, self.kinds, self.units, self.owners, self.homes = board, kinds, units, owners, homes
        self.due = due
        self.left = {p: due.get(p, 0) for p in board.powers} | dict(due)
        self.occupied = {u.province for u in units if kinds[u.kind].occupies}
        self.removed: set[int] = set()  # ids of the units removed
        self.changed: dict[int, Unit] = {}  # upgraded or downgraded: the unit's id -> the unit after
        self.built: list[Unit] = []
        self.results: list[OrderResult] = []

    def run(self, orders: Mapping[str, Sequence[Order]]) -> AdjustmentOutcome:
        for power, given in orders.items():
            due = self.due.get(power, 0)
            for order in given:
                if not isinstance(order, ADJUSTMENT_ORDERS):
                    self.results.append(wrong_phase(power, order))
                    continue
                refused = void(power, order, due, self.nothing_to_build.format(power=power),
                               self.nothing_to_remove.format(power=power))
                self.results.append(refused if refused is not None else self.carry_out(power, order))
        for power, due in self.due.items():
            if due < 0 and self.left[power] < 0:
                self.civil_disorder(power)
        return AdjustmentOutcome(tuple(self.results), tuple(sorted(self.after(), key=lambda u: u.loc)))

    def after(self) -> list[Unit]:
        """The units when the phase is over: those kept, those built, then those changed (in
        that order before they are sorted by place, where units that share a place keep it)."""
        kept = [u for u in self.units if id(u) not in self.removed and id(u) not in self.changed]
        return kept + self.built + [self.changed[id(u)] for u in self.units if id(u) in self.changed]

    def standing(self, u: Unit) -> bool:
        """Is `u` still there to be named: not yet removed or changed, and a unit that costs
        upkeep (removing a piece that costs nothing saves nothing)?"""
        return id(u) not in self.removed and id(u) not in self.changed and bool(self.kinds[u.kind].upkeep)

    def carry_out(self, power: str, order: AdjustmentOrder) -> OrderResult:
        """The result of one order that passed the `gate`."""
        spent = self.exhausted(power, order)
        if spent is not None:
            return spent
        if isinstance(order, Waive):
            return self.waive(power, order)
        if isinstance(order, Build):
            return self.build(power, order)
        if isinstance(order, Remove):
            return self.remove(power, order)
        return self.change(power, order)

    def exhausted(self, power: str, order: AdjustmentOrder) -> OrderResult | None:
        """The result of an order given when the power has nothing left to build or remove
        (None: something is left)."""
        due, left = self.due.get(power, 0), self.left[power]
        if (due > 0 and left <= 0) or (due < 0 and left >= 0):  # (a tank's removal may pay more than was owed)
            what = "builds" if due > 0 else "removals"
            return OrderResult(power, order, None, False, (Note(Kind.VOID, why=f"{power} has no {what} left"),))
        return None

    def waive(self, power: str, order: Waive) -> OrderResult:
        self.left[power] -= 1
        return OrderResult(power, order, None, True)

    def named(self, power: str, ref: UnitRef) -> Unit | None:
        """The unit a removal, upgrade or downgrade names, by the one rule (`matching.pick`),
        among those `standing`."""
        here = [u for u in self.units if u.province == ref.province and self.standing(u)]
        i = pick(here, ref.kind, power, self.kinds)
        return None if i is None else here[i]

    def own(self, power: str, order: Remove | Upgrade | Downgrade) -> Unit | OrderResult:
        """The unit `order` names, or the result of an order that names none, or another's."""
        unit = self.named(power, order.unit)
        if unit is None or unit.power != power:
            why = "no unit there" if unit is None else f"the unit there is {unit.power}'s"
            code = Illegal.NO_UNIT if unit is None else Illegal.NOT_YOURS
            return OrderResult(power, order, unit, False, (Note(Kind.ILLEGAL, code, why),))
        return unit

    def remove(self, power: str, order: Remove) -> OrderResult:
        unit = self.own(power, order)
        if isinstance(unit, OrderResult):
            return unit
        self.removed.add(id(unit))
        self.left[power] += self.kinds[unit.kind].upkeep
        return OrderResult(power, replace(order, unit=UnitRef(unit.kind, unit.loc)), unit, True)

    def change(self, power: str, order: Upgrade | Downgrade) -> OrderResult:
        unit = self.own(power, order)
        if isinstance(unit, OrderResult):
            return unit
        kinds, left = self.kinds, self.left[power]
        up = isinstance(order, Upgrade)
        new, cost, why = _change(self.board, kinds, power, unit, self.owners, self.homes, up)
        if new is not None and up and cost > left:
            k = kinds[new.kind]
            new, why = None, (f"an upgrade to {k.article} {k.name} takes {_count(cost)} builds; "
                              f"{power} has {_count(left)} left")
        if new is None:
            return OrderResult(power, order, unit, False, (Note(Kind.ILLEGAL, Illegal.IMPOSSIBLE, why),))
        self.changed[id(unit)] = new
        self.left[power] += -cost if up else cost
        return OrderResult(power, type(order)(UnitRef(unit.kind, unit.loc)), unit, True)

    def buildable(self, power: str, ref: UnitRef) -> tuple[Unit | None, str, Unit | None]:
        """(the unit `ref` would build, "", None), or (None, why not, the unit in the way where
        one is why)."""
        unit, why = _build(self.board, self.kinds, power, ref, self.owners, self.occupied, self.homes)
        return unit, why, None

    def too_dear(self, power: str, kind: UnitKind, left: int) -> str:
        """Why a build of a unit of `kind` fails when `power` has only `left` builds left."""
        return f"{kind.article} {kind.name} takes {_count(kind.build_cost)} builds; {power} has {_count(left)} left"

    def build(self, power: str, order: Build) -> OrderResult:
        kinds, left = self.kinds, self.left[power]
        unit, why, source = self.buildable(power, order.unit)
        if unit is not None and kinds[unit.kind].build_cost > left:
            why = self.too_dear(power, kinds[unit.kind], left)
        if unit is None or why:
            return OrderResult(power, order, None, False,
                               (Note(Kind.ILLEGAL, Illegal.CANNOT_BUILD, why, source=source),))
        self.occupied.add(unit.province)
        self.built.append(unit)
        self.left[power] -= kinds[unit.kind].build_cost
        return OrderResult(power, Build(UnitRef(unit.kind, unit.loc)), unit, True)

    def civil_disorder(self, power: str) -> None:
        """Remove (or downgrade) units of a power that removed too few, in the order `disorder` says."""
        mine = [u for u in self.units if u.power == power and self.standing(u)]
        owned = [c for c, o in self.owners.items() if o == power]
        note = (Note(Kind.CIVIL_DISORDER, why=self.disorder_why),)
        for unit, new in self.disorder(power, mine, owned, -self.left[power]):
            if new is None:
                self.removed.add(id(unit))
                order: Order = Remove(UnitRef(unit.kind, unit.loc))
            else:
                self.changed[id(unit)] = new
                order = Downgrade(UnitRef(unit.kind, unit.loc))
            self.results.append(OrderResult(power, order, unit, True, note, default=True))

    def disorder(self, power: str, mine: list[Unit], owned: list[str], owed: int) -> list[tuple[Unit, Unit | None]]:
        """The units of `mine` civil disorder removes (new None) or downgrades, by the 2023 rule."""
        return _civil_disorder(self.board, self.kinds, mine, owned, owed, self.homes(power))


def _civil_disorder(board: Board, kinds: Mapping[str, UnitKind], mine: list[Unit], owned: list[str], owed: int,
                    homes: Iterable[str]) -> list[tuple[Unit, Unit | None]]:
    """The units civil disorder removes (new None) or downgrades, `owed` removals in all.

    The 2023 rule's order picks each unit in turn. A unit whose upkeep is no more than what is
    still owed is removed. One that costs more (a tank when one removal is owed) is downgraded
    where it stands on an owned home centre, and otherwise passed over for the next unit in the
    order; if only such units are left, the first of them is removed (the power loses more
    than it owed rather than keep more than it may)."""
    homes = set(homes)
    out: list[tuple[Unit, Unit | None]] = []
    passed: list[Unit] = []
    for unit in civil_disorder_order(board, mine, owned, kinds):
        if owed <= 0:
            break
        cost = kinds[unit.kind].upkeep
        if cost <= owed:
            out.append((unit, None))
            owed -= cost
            continue
        relief, weaker = downgrade_relief(kinds, unit.kind), downgrade_of(kinds, unit.kind)
        if weaker is not None and relief <= owed and unit.province in homes and unit.province in owned:
            out.append((unit, replace(unit, kind=weaker.letter)))
            owed -= relief
            continue
        passed.append(unit)
    for unit in passed:
        if owed <= 0:
            break
        out.append((unit, None))
        owed -= kinds[unit.kind].upkeep
    return out


def _change(board: Board, kinds: Mapping[str, UnitKind], power: str, unit: Unit, owners: Mapping[str, str],
            homes: Callable[[str], Iterable[str]], up: bool) -> tuple[Unit | None, int, str]:
    """An upgrade (`up`) or downgrade of `unit` where it stands: (the unit after, its cost in
    builds or removals, why not)."""
    k = kinds[unit.kind]
    name = board.provinces[unit.province].name
    if up:
        cost = upgrade_cost(kinds, unit.kind)
        new_kind = kinds[k.upgrades_to] if cost else None
        if new_kind is None:
            return None, 0, f"{k.article} {k.name} cannot be upgraded"
    else:
        cost = downgrade_relief(kinds, unit.kind)
        new_kind = downgrade_of(kinds, unit.kind) if cost else None
        if new_kind is None:
            return None, 0, f"{k.article} {k.name} cannot be downgraded"
    if unit.province not in set(homes(power)):
        return None, 0, f"{name} is not a home centre of {power}"
    if owners.get(unit.province) != power:
        return None, 0, f"{power} does not own {name} now"
    return replace(unit, kind=new_kind.letter), cost, ""


def _build(board: Board, kinds: Mapping[str, UnitKind], power: str, ref: UnitRef, owners: Mapping[str, str],
           occupied: set[str], homes: Callable[[str], Iterable[str]]) -> tuple[Unit | None, str]:
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
            return None, (f"say which coast of {p.name} the {k.name} is built on, "
                          f"e.g. {board.format_loc(prov)}/{p.coasts[0]}")
        return Unit(power, kind, f"{prov}/{coast}"), ""
    return Unit(power, kind, prov), ""

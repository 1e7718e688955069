"""'Complicated' Diplomacy's rules: supply points instead of one unit per centre, and two kinds of
aircraft beside armies and fleets (tanks come from Armor).

Planes (P) and bombers (B) are unit kinds that fly (AIR) and do not occupy: the engine
treats their moves as flights (through anything, attacking nothing), lets planes support
anything within two spaces, seas and their own province included (a move into it too), and
dislodges them with the unit they stand with, unless they supported the move that does it
(dipgen/engine/movement.py). What is this variant's own: bombing, where bombers may
end, and the economy of supply points (its table on the game page is `words.py`'s; the game's
options are read by `files.py`). Rulings where the seed is silent are on the rules page
(site_src/rules/complicated.md) and marked RULING below.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from dipgen.core.board import province_of
from dipgen.core.orders import (STANDARD_KINDS, Convoy, Downgrade, Hold, Move, Order, Remove, Strike, Support,
                                UnitRef, Upgrade, Verb, Waive)
from dipgen.core.position import Position, Unit
from dipgen.core.results import Illegal, Kind, Note, OrderResult
from dipgen.core.units import AIR, ARMY, FLEET, UnitKind, downgrade_of
from dipgen.engine.adjustments import AdjustmentOrder, AdjustmentOutcome, Winter, _build, civil_disorder_order
from dipgen.core.reach import within
from dipgen.engine.movement import MovementOutcome, adjudicate_movement
from dipgen.rules.variant import Rules
from dipgen.variants.armor.rules import TANK as ARMOR_TANK

PLANE = UnitKind("P", "plane", AIR, strength=Fraction(1, 2), steps=2, occupies=False, takes_centres=False,
                 may_end_at_sea=False, build_cost=2, upkeep=1)
BOMBER = UnitKind("B", "bomber", AIR, strength=0, steps=3, occupies=False, takes_centres=False,
                  may_end_at_sea=False, supports=False, build_cost=2, upkeep=1)
#: a tank as in Armor (strength 2), at the seed's prices
TANK = replace(ARMOR_TANK, build_cost=4, upkeep=2)
KINDS: Mapping[str, UnitKind] = MappingProxyType({
    "A": replace(ARMY, build_cost=2, upkeep=1, upgrades_to="T"), "F": replace(FLEET, build_cost=2, upkeep=1),
    "T": TANK, "P": PLANE, "B": BOMBER})
#: the seed: "Armies may be upgraded to Tank armies in home centers for a cost of 3 supply points"
UPGRADE_COST = 3

#: supply points a centre gives its owner each year: in its own home country, elsewhere
HOME_POINTS, OTHER_POINTS = 3, 2
BOMB_RANGE = 3


class Bombing(Enum):
    HIT = "hit"            # the bombing succeeded: the centre gives one point less this year
    DEFENDED = "defended"  # planes defending the centre were as many as the bombers or more


@dataclass(frozen=True)
class Supply:
    """One power's supply account at the end of a year."""

    income: int      # points its centres give before bombing
    bombed: int      # points lost to bombing
    upkeep: int      # what its units cost to keep

    @property
    def net(self) -> int:
        """Points left to build with (negative: upkeep it cannot pay)."""
        return self.income - self.bombed - self.upkeep


class Bomb(Strike):
    """A bomber bombs a supply centre within its range: ``B Mun bomb Par``."""

    VERB = "bomb"


BOMB = Verb(frozenset({"bomb", "bombs"}), Bomb, aims=True)


class ComplicatedRules(Rules):
    unit_kinds = KINDS
    order_words = MappingProxyType({**STANDARD_KINDS, "t": "T", "tank": "T", "p": "P", "plane": "P", "b": "B",
                                    "bomber": "B"})
    verbs = (BOMB,)
    movement_orders = (Hold, Move, Support, Convoy, Bomb)
    movement_orders_text = "movement orders: hold, move, support and convoy, and for bombers bomb (B Mun bomb Par)"
    capitals = {"Austria": "vie", "England": "lon", "France": "par", "Germany": "ber", "Italy": "rom",
                "Russia": "mos", "Turkey": "ank"}
    #: the seed's optional rule (game.yml ``options: {plane_limit: true}``, which `files.py` reads)
    plane_limit = False

    # ------------------------------------------------------------------ the start
    def start(self, year: int | None = None) -> Position:
        position = super().start(year)
        planes = tuple(Unit(p, "P", c) for p, c in self.capitals.items())
        return position.with_(units=tuple(sorted(position.units + planes, key=lambda u: u.loc)))

    def initial_position(self, game, draws=None, secret=None) -> Position:
        """The opening position, planes included; `game.setup` says whether the game plays with
        the plane limit (`None` for a game: the standard opening of the board's start year)."""
        if game is not None and "plane_limit" in game.setup:
            self.plane_limit = game.setup["plane_limit"]
        return self.start(game.start if game is not None else None)

    # ------------------------------------------------------------------ control
    def controls(self, power: str, units, owners: Mapping[str, str]) -> set[str]:
        """RULING: the land a power controls: its owned centres, and land where a unit of its own
        occupies the province."""
        kinds, board = self.unit_kinds, self.board
        out = {c for c, p in owners.items() if p == power}
        out |= {u.province for u in units if u.power == power and kinds[u.kind].occupies}
        return {p for p in out if board.provinces[p].is_land}

    # ------------------------------------------------------------------ a movement phase
    def movement(self, position: Position, orders) -> MovementOutcome:
        board, kinds = self.board, self.unit_kinds
        given: dict[str, list[Order]] = defaultdict(list)
        bombs: list[tuple[str, Bomb, Hold]] = []
        early: list[OrderResult] = []
        control: dict[str, set[str]] = {}
        for power, orders_ in orders.items():
            for order in orders_:
                ref = getattr(order, "unit", None)
                kind = kinds.get(ref.kind) if ref is not None else None
                if isinstance(order, Bomb):
                    if kind is not BOMBER:
                        early.append(OrderResult(power, order, None, False,
                                                 (Note(Kind.ILLEGAL, Illegal.IMPOSSIBLE, "only a bomber can bomb"),)))
                        continue
                    hold = Hold(order.unit)
                    bombs.append((power, order, hold))
                    given[power].append(hold)
                    continue
                if kind is BOMBER and isinstance(order, Move):
                    dest = province_of(order.dest)
                    mine = control.get(power)
                    if mine is None:
                        mine = control[power] = self.controls(power, position.units, position.owners)
                    if dest not in mine:
                        early.append(OrderResult(power, order, None, False, (Note(
                            Kind.ILLEGAL, Illegal.IMPOSSIBLE,
                            f"a bomber may end only in land {power} controls, and {board.full_name(dest)} is not"),)))
                        continue
                given[power].append(order)
        out = adjudicate_movement(board, position.units, given, kinds, self.plane_limit)
        results = list(out.results)
        economy = self.economy_of(position)
        bombed = dict(economy["bombed"])
        if bombs:
            results, hits = self.bombing(position, results, bombs)
            for c in hits:
                bombed[c] = bombed.get(c, 0) + 1
        # RULING: a dislodged bomber retreats only to land its power controls after the turn
        dislodged = []
        for d in out.dislodged:
            if kinds[d.unit.kind] is BOMBER:
                ok = self.controls(d.unit.power, out.units, position.owners)
                d = replace(d, retreats=tuple(r for r in d.retreats or () if province_of(r) in ok))
            dislodged.append(d)
        stay = tuple(d for d in dislodged if d.retreats)
        gone = out.destroyed + tuple(d for d in dislodged if not d.retreats)
        return replace(out, results=tuple(early) + tuple(results), dislodged=stay, destroyed=gone,
                       economy=MappingProxyType({"year": position.phase.year, "bombed": MappingProxyType(bombed)}))

    def economy_of(self, position: Position) -> Mapping:
        """This year's economy so far (bombing losses per centre); a new year starts with none."""
        e = position.economy
        if e is None or e.get("year") != position.phase.year:
            return {"year": position.phase.year, "bombed": {}}
        return e

    def bombing(self, position: Position, results: list[OrderResult], bombs):
        """Each bombing's result, and the centres hit. A bombing succeeds when its bombers
        outnumber the planes defending the centre: planes of other powers that support the
        unit in it or a move into it, and planes that stood in it and did not fly away."""
        board, kinds = self.board, self.unit_kinds
        pending = defaultdict(list)  # (power, hold) -> bomb orders waiting for their bomber
        for power, bomb, hold in bombs:
            pending[(power, hold)].append(bomb)
        by_centre: dict[str, list[int]] = defaultdict(list)  # centre -> indexes of legal bombings
        out = list(results)
        for i, r in enumerate(results):
            if not isinstance(r.order, Hold) or r.default or r.unit is None:
                continue
            waiting = pending.get((r.power, Hold(UnitRef(r.unit.kind, r.unit.province))))
            if not waiting:
                continue
            bomb = replace(waiting.pop(0), unit=UnitRef(r.unit.kind, r.unit.loc))
            target = province_of(bomb.target)
            keep = tuple(n for n in r.notes if n.kind is Kind.DISLODGED)
            if target not in board.centres:
                out[i] = replace(r, order=bomb, succeeded=False, notes=(Note(
                    Kind.ILLEGAL, Illegal.IMPOSSIBLE, f"{board.full_name(target)} is not a supply centre"),) + keep)
            elif target != r.unit.province and target not in within(board, r.unit.province, BOMB_RANGE):
                out[i] = replace(r, order=bomb, succeeded=False, notes=(Note(
                    Kind.ILLEGAL, Illegal.IMPOSSIBLE,
                    f"{board.full_name(target)} is more than {BOMB_RANGE} spaces away"),) + keep)
            else:
                out[i] = replace(r, order=bomb)
                by_centre[target].append(i)
        hits = []
        for centre, idxs in sorted(by_centre.items()):
            attackers = {out[i].power for i in idxs}
            supporting, standing = set(), set()
            for r in results:
                u = r.unit
                if u is None or kinds[u.kind].occupies or u.power in attackers or not r.effective:
                    continue
                if not kinds[u.kind].strength:
                    continue  # only planes defend (a bomber has no strength in combat)
                o = r.order
                if isinstance(o, Support) and (province_of(o.dest) if o.dest else o.target.province) == centre:
                    supporting.add(u.uid)
                elif u.province == centre and not isinstance(o, Move):
                    standing.add(u.uid)
            defenders = len(supporting) + len(standing - supporting)
            ok = len(idxs) > defenders
            if ok:
                hits.append(centre)
            for i in idxs:
                r = out[i]
                name = board.full_name(centre)
                if ok:
                    note = Note(Kind.EFFECT, Bombing.HIT, why=f"{name} gives one supply point less this year")
                else:
                    note = Note(Kind.BOUNCE, Bombing.DEFENDED,
                                why=f"{_count(len(idxs), 'bomber')} against "
                                    f"{_count(defenders, 'defending plane')} over {name}")
                out[i] = replace(r, succeeded=ok, notes=(note,) + r.notes)
        return out, hits

    # ------------------------------------------------------------------ supply
    def supply(self, position: Position) -> dict[str, Supply]:
        """Each power's supply account at the end of the year (after the Fall turn)."""
        kinds = self.unit_kinds
        bombed = self.economy_of(position)["bombed"]
        acc = {p: [0, 0, 0] for p in self.powers()}
        for c, p in position.owners.items():
            if p in acc:
                acc[p][0] += HOME_POINTS if c in self.home_centres(p) else OTHER_POINTS
                # RULING: a centre gives no less than nothing, however often it was bombed
                acc[p][1] += min(bombed.get(c, 0), HOME_POINTS if c in self.home_centres(p) else OTHER_POINTS)
        for u in position.units:
            if u.power in acc:
                acc[u.power][2] += kinds[u.kind].upkeep
        return {p: Supply(*v) for p, v in acc.items()}

    def adjustment_counts(self, position: Position) -> dict[str, int]:
        """Supply points each power may spend (+) or upkeep it cannot pay (-). A power with
        points but nothing it could build (too few points, no free home centre) has no winter."""
        kinds = self.unit_kinds
        # not a composed variant's free pieces (spies)
        cheapest = min(k.build_cost for k in kinds.values() if k.build_cost)
        occupied = {u.province for u in position.units if kinds[u.kind].occupies}
        out = {}
        for power, s in self.supply(position).items():
            n = s.net
            if n > 0:
                homes = [c for c in self.home_centres(power) if position.owners.get(c) == power]
                free = [c for c in homes if c not in occupied]
                upgradable = n >= UPGRADE_COST and any(
                    u.power == power and u.province in homes and kinds[u.kind].upgrades_to for u in position.units)
                if not ((n >= cheapest and free) or upgradable):
                    continue
            if n:
                out[power] = n
        return out

    def adjustments(self, position: Position, orders: Mapping[str, Sequence[Order]]) -> AdjustmentOutcome:
        """Builds are paid from the points in the order written, while they last; a power that
        cannot pay its upkeep removes units until it can (RULING: its own removals first, in
        the order written, then the standard civil-disorder order). Points left are lost."""
        return ComplicatedWinter(self, position, self.adjustment_counts(position)).run(orders)

    def can_build(self, power: str, ref: UnitRef, position: Position,
                  occupied: set[str]) -> tuple[Unit | None, str, Unit | None]:
        """(the unit, "", None) or (None, why not, the foreign unit in the way if that is why): an
        owned home centre with no unit that occupies it and no plane or bomber of another power.
        RULING: the reason does not say whose aircraft bars the build, nor which kind (the note
        names it, for a level that sees it): see `Note.source`."""
        unit, why = _build(self.board, self.unit_kinds, power, ref, position.owners, occupied, self.home_centres)
        kinds = self.unit_kinds
        blocker = next((u for u in position.units_at(ref.province) if u.power != power and kinds[u.kind].fights
                        and not kinds[u.kind].occupies), None)  # a spy stands outside the fighting, and bars nothing
        if unit is not None and blocker is not None:
            return None, f"a plane or bomber of another power stands in {self.board.full_name(ref.province)}", blocker
        return unit, why, None


class ComplicatedWinter(Winter):
    """The engine's winter (`Winter`) paid in supply points: `left` is points, not builds.

    What differs: a waive costs nothing; a build is barred by another power's plane or bomber
    in the centre; an upgrade costs `UPGRADE_COST` points, a downgrade saves the upkeep between
    the two kinds; a removal names the power's own unit in the province first; civil disorder
    removes units in the standard order until the upkeep is paid (no downgrades)."""

    nothing_to_build = "{power} has no points to build with"
    nothing_to_remove = "{power} can pay its upkeep"
    disorder_why = "upkeep it could not pay"

    def __init__(self, rules: ComplicatedRules, position: Position, due: Mapping[str, int]) -> None:
        super().__init__(rules.board, rules.unit_kinds, list(position.units), position.owners, due, rules.home_centres)
        self.rules, self.position = rules, position

    def exhausted(self, power: str, order: AdjustmentOrder) -> OrderResult | None:
        """Only a removal is refused up front, once the upkeep is paid; a build is refused by
        its price, an upgrade or downgrade by `change`."""
        if isinstance(order, Remove) and self.left[power] >= 0:
            return OrderResult(power, order, None, False, (Note(Kind.VOID, why=f"{power} has removed enough"),))
        return None

    def waive(self, power: str, order: Waive) -> OrderResult:
        return OrderResult(power, order, None, True)  # points left are lost anyway

    def buildable(self, power: str, ref: UnitRef) -> tuple[Unit | None, str, Unit | None]:
        return self.rules.can_build(power, ref, self.position, self.occupied)

    def too_dear(self, power: str, kind: UnitKind, left: int) -> str:
        return f"{power} has {left} supply point(s) left, a {kind.name} costs {kind.build_cost}"

    def change(self, power: str, order: Upgrade | Downgrade) -> OrderResult:
        """An upgrade (for `UPGRADE_COST` points) or a downgrade (saving the upkeep between the
        two kinds, when upkeep cannot be paid) of a unit of `power` on an owned home centre: the
        unit the order names, by the rule every order is read by (`own`: `Upgrade P Bud` names a
        plane there, never the army beside it)."""
        kinds, board, left = self.kinds, self.board, self.left[power]
        up = isinstance(order, Upgrade)
        prov = order.unit.province
        unit = self.own(power, order)
        if isinstance(unit, OrderResult):  # no unit there to name, or another power's
            return unit
        why = ""
        if not (kinds[unit.kind].upgrades_to if up else downgrade_of(kinds, unit.kind)):
            k = kinds[unit.kind]
            why = f"{k.article} {k.name} cannot be {'upgraded' if up else 'downgraded'}"
        elif prov not in self.homes(power) or self.owners.get(prov) != power:
            why = f"{board.full_name(prov)} is not an owned home centre of {power}"
        elif up and left < UPGRADE_COST:
            why = f"{power} has {left} supply point(s) left, an upgrade costs {UPGRADE_COST}"
        elif not up and left >= 0:
            why = f"{power} has removed enough"
        if why:
            return OrderResult(power, order, unit, False, (Note(Kind.ILLEGAL, Illegal.CANNOT_BUILD, why),))
        if up:
            self.changed[id(unit)] = replace(unit, kind=kinds[unit.kind].upgrades_to)
            self.left[power] -= UPGRADE_COST
        else:
            weaker = downgrade_of(kinds, unit.kind)
            assert weaker is not None  # checked above
            self.changed[id(unit)] = replace(unit, kind=weaker.letter)
            self.left[power] += kinds[unit.kind].upkeep - weaker.upkeep
        return OrderResult(power, replace(order, unit=UnitRef(unit.kind, unit.loc)), unit, True)

    def disorder(self, power: str, mine: list[Unit], owned: list[str], owed: int) -> list[tuple[Unit, Unit | None]]:
        """The standard order, each unit removed in turn until the upkeep is paid (a tank's
        removal saves its two)."""
        out: list[tuple[Unit, Unit | None]] = []
        for unit in civil_disorder_order(self.board, mine, owned, self.kinds):
            if owed <= 0:
                break
            out.append((unit, None))
            owed -= self.kinds[unit.kind].upkeep
        return out


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"

"""The scripted player: a heuristic bot that plans each power's orders, and the diplomacy it keeps to."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from dipgen.core.board import province_of
from dipgen.core.orders import Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, Support, UnitRef, Waive
from dipgen.core.position import Position, Unit

from .board import (ARMY_DIST, BOARD, CENTRES, dist, dist_from, HOME, move_targets, occupant, POWERS, reaches,
                    sea_touches, SEAS, units_of)

#: how keen each power is on fleets when it builds
FLEET_TASTE = {"England": 0.75, "Turkey": 0.45, "Italy": 0.45, "France": 0.4, "Germany": 0.3,
               "Russia": 0.3, "Austria": 0.15}
#: powers whose armies expect to travel by sea
CONVOY_MINDED = {"England", "Italy", "Turkey"}


# ====================================================================== diplomacy

@dataclass
class Relations:
    """Who trusts whom. `ally` is symmetric as the public sees it; a stab is one-sided for a season."""

    allies: set = field(default_factory=set)          # frozenset({a, b})
    wars: set = field(default_factory=set)            # frozenset({a, b}): declared enemies
    stabbing: dict = field(default_factory=dict)      # stabber -> victim, for the current phase only

    def allied(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.allies

    def trusts(self, a: str, b: str) -> bool:
        """Does `a` treat `b` as a friend this phase?"""
        return self.allied(a, b) and self.stabbing.get(a) != b

    def at_war(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.wars or self.stabbing.get(a) == b


# ====================================================================== the bot

@dataclass
class Plan:
    orders: dict  # province -> Order
    notes: list = field(default_factory=list)


class Bot:
    """One scripted player per power; all share the board knowledge and the relations."""

    def __init__(self, rng: random.Random, rel: Relations, aggression: dict | None = None):
        self.rng = rng
        self.rel = rel
        self.aggression = aggression or {}

    # ----- valuation
    def centre_values(self, pos: Position, power: str, fall: bool) -> dict[str, float]:
        counts = pos.centre_counts(POWERS)
        values = {}
        for c in CENTRES:
            owner = pos.owners.get(c)
            there = occupant(pos, c)
            if owner == power:
                v = 0.0
            elif owner is None:
                v = 10.0
            elif self.rel.trusts(power, owner):
                v = 0.0
            else:
                v = 4.0 + self.aggression.get(power, 0)
                if self.rel.at_war(power, owner):
                    v += 6.0
                if self.rel.stabbing.get(power) == owner:
                    v += 4.0
                if counts.get(owner, 0) <= 3:
                    v += 2.0  # finish off the weak
                if c in HOME[power]:
                    v += 6.0  # our own home centre, lost: take it back
            if there is not None and there.power != power and v > 0:
                v *= 0.75  # harder to take
            if there is not None and there.power != power and self.rel.trusts(power, there.power):
                v = 0.0
            values[c] = v
        return values

    def threats(self, pos: Position, power: str) -> dict[str, int]:
        """For each province: the number of units not friendly to `power` that could move there."""
        out: Counter = Counter()
        for u in pos.units:
            if u.power == power or self.rel.trusts(power, u.power):
                continue
            for loc in move_targets(u):
                out[province_of(loc)] += 1
        return out

    def potential(self, values, kind: str, loc: str) -> float:
        total = 0.0
        for c, v in values.items():
            if v <= 0:
                continue
            d = dist_from(kind, loc, c)
            if d < 20:
                total += v * (0.42 ** d)
        return total

    # ----- movement
    def movement(self, pos: Position, power: str, claims_by_allies: set[str]) -> Plan:
        fall = pos.phase.season_index == 1
        rng = self.rng
        units = sorted(units_of(pos, power), key=lambda u: u.loc)
        values = self.centre_values(pos, power, fall)
        threat = self.threats(pos, power)
        my_centres = set(pos.centres_of(power))
        occupied = {u.province: u for u in pos.units}

        # candidate actions: (score, unit province, kind, dest location or None)
        cands = []
        pot_cache = {}

        def pot(kind, loc):
            key = (kind, loc)
            if key not in pot_cache:
                pot_cache[key] = self.potential(values, kind, loc)
            return pot_cache[key]

        for u in units:
            here = u.province
            hold = pot(u.kind, u.loc) * 0.8
            if here in BOARD.centres and pos.owners.get(here) != power:
                hold += values.get(here, 0) * (2.2 if fall else 0.4) + (6 if fall else 0)
            if here in my_centres and threat[here]:
                hold += (6 if fall else 2) * min(threat[here], 2)
                if here in HOME[power] and fall:
                    hold += 3
            hold += rng.uniform(0, 1.5)
            cands.append((hold, here, "hold", None))
            for loc in move_targets(u):
                prov = province_of(loc)
                if prov in claims_by_allies:
                    continue
                occ = occupied.get(prov)
                if occ is not None and occ.power != power and self.rel.trusts(power, occ.power):
                    continue
                owner = pos.owners.get(prov)
                if owner and owner != power and self.rel.trusts(power, owner) and prov in HOME.get(owner, ()):
                    continue
                s = pot(u.kind, loc)
                if prov in BOARD.centres and owner != power:
                    s += values.get(prov, 0) * (1.6 if fall else 0.5)
                if prov in my_centres and prov not in occupied and threat[prov] and fall:
                    s += 10 + (4 if prov in HOME[power] else 0)
                if occ is not None and occ.power != power:
                    s *= 0.8
                if prov in SEAS and u.kind == "F" and power in CONVOY_MINDED:
                    # a ferry: sit beside our own armies that have nowhere to go by land
                    for a in units:
                        if a.kind == "A" and BOARD.provinces[a.province].is_coastal and sea_touches(prov, a.province):
                            s += 2.5 if self._stuck(a, values) else 0.5
                if here in my_centres and threat[here] and fall:
                    s -= 6  # leaving a threatened centre open
                s += rng.uniform(0, 2.0)
                cands.append((s, here, "move", loc))

        # convoys: armies carried by chains of our own fleets
        convoy_plans = self.convoy_options(pos, power, units, values, fall, claims_by_allies, pot)
        for s, army, dest, chain in convoy_plans:
            cands.append((s, army, "convoy", (dest, chain)))

        cands.sort(key=lambda c: (-c[0], c[1], c[2], str(c[3])))
        assigned: dict[str, tuple] = {}
        claimed: set[str] = set()
        moving_out: set[str] = set()
        reserved_fleets: set[str] = set()
        changed = True
        while changed:
            changed = False
            for s, here, kind, dest in cands:
                if here in assigned or here in reserved_fleets:
                    continue
                if kind == "hold":
                    if here in claimed:
                        continue
                    assigned[here] = ("hold", None, s)
                    claimed.add(here)
                    changed = True
                    break
                if kind == "convoy":
                    loc, chain = dest
                    prov = province_of(loc)
                    if prov in claimed or any(f in assigned or f in reserved_fleets for f in chain):
                        continue
                    occ = occupied.get(prov)
                    if occ is not None and occ.power == power and prov not in moving_out:
                        continue
                    assigned[here] = ("convoy", dest, s)
                    for f in chain:
                        reserved_fleets.add(f)
                        assigned[f] = ("convoying", (here, loc), s)
                        claimed.add(f)
                    claimed.add(prov)
                    moving_out.add(here)
                    changed = True
                    break
                prov = province_of(dest)
                if prov in claimed:
                    continue
                occ = occupied.get(prov)
                if occ is not None and occ.power == power and prov not in moving_out:
                    continue
                if occ is not None and occ.power == power and assigned.get(prov, ("",))[0] in ("move", "convoy") \
                        and province_of(_dest_of(assigned[prov])) == here:
                    continue  # a swap would bounce
                assigned[here] = ("move", dest, s)
                claimed.add(prov)
                moving_out.add(here)
                changed = True
                break
        for u in units:
            assigned.setdefault(u.province, ("hold", None, 0))

        orders: dict[str, Order] = {}
        for u in units:
            a = assigned[u.province]
            ref = UnitRef(u.kind, u.loc)
            if a[0] == "hold":
                orders[u.province] = Hold(ref)
            elif a[0] == "move":
                orders[u.province] = Move(ref, a[1])
            elif a[0] == "convoy":
                orders[u.province] = Move(ref, a[1][0], via_convoy=False)
            elif a[0] == "convoying":
                army_prov, dest = a[1]
                army = occupied[army_prov]
                orders[u.province] = Convoy(ref, UnitRef(army.kind, army.loc), dest)

        self.add_supports(pos, power, units, orders, assigned, threat, fall)
        return Plan(orders)

    def _stuck(self, army: Unit, values) -> bool:
        """An army whose best land target is far away."""
        best = min((ARMY_DIST.get(army.province, {}).get(c, 99) for c, v in values.items() if v > 0), default=99)
        return best >= 3

    def convoy_options(self, pos, power, units, values, fall, claims_by_allies, pot):
        fleets = {u.province: u for u in units if u.kind == "F" and u.province in SEAS}
        if not fleets:
            return []
        out = []
        for a in units:
            if a.kind != "A" or not BOARD.provinces[a.province].is_coastal:
                continue
            # chains of our fleets, breadth first, up to three long
            start = [(f,) for f in sorted(fleets) if sea_touches(f, a.province)]
            seen_dest = {}
            frontier = start
            depth = 0
            while frontier and depth < 3:
                depth += 1
                nxt = []
                for chain in frontier:
                    last = chain[-1]
                    for loc in sorted(BOARD.fleet_adj.get(last, ())):
                        prov = province_of(loc)
                        if prov in SEAS:
                            if prov in fleets and prov not in chain:
                                nxt.append(chain + (prov,))
                            continue
                        if prov == a.province or prov in ARMY_DIST[a.province] and ARMY_DIST[a.province][prov] == 1:
                            continue
                        if prov not in seen_dest:
                            seen_dest[prov] = chain
                frontier = nxt
            for prov, chain in sorted(seen_dest.items()):
                if prov in claims_by_allies:
                    continue
                occ = occupant(pos, prov)
                if occ is not None and (occ.power == power or self.rel.trusts(power, occ.power)):
                    continue
                owner = pos.owners.get(prov)
                if owner and owner != power and self.rel.trusts(power, owner) and prov in HOME.get(owner, ()):
                    continue
                s = pot("A", prov)
                if prov in BOARD.centres and owner != power:
                    s += values.get(prov, 0) * (1.6 if fall else 0.7)
                if occ is not None:
                    s *= 0.6  # a convoyed army cannot be supported by its convoy
                s += 2.0 + self.rng.uniform(0, 2.0)  # islanders like sailing
                if len(chain) > 1:
                    s += 1.0
                out.append((s, a.province, prov, chain))
        return out

    def add_supports(self, pos, power, units, orders, assigned, threat, fall):
        """Turn idle units into supports where an attack alone would bounce, or a centre needs holding."""
        occupied = {u.province: u for u in pos.units}
        idle = [u for u in units if isinstance(orders[u.province], Hold)
                and not (u.province in pos.centres_of(power) and threat[u.province] >= 2)]
        # weakest attacks first: moves into occupied or contested provinces
        attacks = []
        for u in units:
            o = orders[u.province]
            if not isinstance(o, Move):
                continue
            prov = province_of(o.dest)
            occ = occupied.get(prov)
            hostile = occ is not None and occ.power != power
            contest = threat[prov]
            need = (1 if hostile else 0) + (1 if contest >= 2 or (hostile and contest >= 1) else 0)
            if not hostile and contest:
                need = max(need, 1)
            if need:
                attacks.append((-(need + (2 if hostile else 0)), u.province, prov, need))
        attacks.sort()
        for _, src, prov, need in attacks:
            got = 0
            for s in list(idle):
                if got >= need:
                    break
                if s.province == prov or not reaches(s, prov):
                    continue
                mover = occupied[src]
                orders[s.province] = Support(UnitRef(s.kind, s.loc), UnitRef(mover.kind, mover.loc), prov)
                idle.remove(s)
                got += 1
            if (got == 0 and occupied.get(prov) is not None and occupied[prov].power != power
                    and self.rng.random() < 0.5):
                # the attack would only bounce: think again and sit tight
                u = occupied[src]
                followed = any(isinstance(o, Move) and province_of(o.dest) == src for o in orders.values())
                if not followed and not (u.province in BOARD.centres and pos.owners.get(u.province) != power):
                    orders[src] = Hold(UnitRef(u.kind, u.loc))
                    idle.append(u)
        # support threatened units on centres
        for u in units:
            if not isinstance(orders[u.province], Hold):
                continue
            if u.province not in BOARD.centres or threat[u.province] == 0:
                continue
            for s in list(idle):
                if s is u or not reaches(s, u.province):
                    continue
                orders[s.province] = Support(UnitRef(s.kind, s.loc), UnitRef(u.kind, u.loc))
                idle.remove(s)
                break

    def ally_supports(self, pos, plans: dict, rng) -> None:
        """Allies lend idle units to each other's attacks on a common enemy."""
        occupied = {u.province: u for u in pos.units}
        for power in sorted(plans):
            for friend in sorted(plans):
                if friend == power or not self.rel.trusts(power, friend) or not self.rel.trusts(friend, power):
                    continue
                for src, o in sorted(plans[friend].orders.items()):
                    if not isinstance(o, Move):
                        continue
                    prov = province_of(o.dest)
                    occ = occupied.get(prov)
                    if occ is None or occ.power in (power, friend) or self.rel.trusts(power, occ.power):
                        continue
                    for p2, o2 in sorted(plans[power].orders.items()):
                        if isinstance(o2, Hold) and reaches(occupied[p2], prov) and rng.random() < 0.7:
                            mover = occupied[src]
                            plans[power].orders[p2] = Support(o2.unit, UnitRef(mover.kind, mover.loc), prov)
                            plans[power].notes.append(("ally_support", friend, prov))
                            break

    # ----- retreats
    def retreats(self, pos: Position, power: str, will_have_too_many: bool) -> dict[str, Order]:
        values = self.centre_values(pos, power, True)
        mine = set(pos.centres_of(power))
        taken = set()
        out = {}
        for d in sorted(pos.dislodged, key=lambda d: d.unit.loc):
            if d.unit.power != power:
                continue
            ref = UnitRef(d.unit.kind, d.unit.loc)
            best, best_s = None, -1e9
            for loc in d.retreats:
                prov = province_of(loc)
                if prov in taken:
                    continue
                s = self.potential(values, d.unit.kind, loc)
                if prov in mine:
                    s += 8 + (4 if prov in HOME[power] else 0)
                if prov in BOARD.centres and pos.owners.get(prov) != power and values.get(prov, 0) > 0:
                    s += 5
                s -= 0.5 * min(dist_from(d.unit.kind, loc, h) for h in HOME[power])
                s += self.rng.uniform(0, 1)
                if s > best_s:
                    best, best_s = loc, s
            onto_own = best is not None and province_of(best) in mine
            if best is None or (will_have_too_many and not onto_own and self.rng.random() < 0.85):
                out[d.unit.province] = Disband(ref)
            else:
                taken.add(province_of(best))
                out[d.unit.province] = Retreat(ref, best)
        return out

    # ----- adjustments
    def adjustments(self, pos: Position, power: str, n: int) -> list[Order]:
        units = units_of(pos, power)
        values = self.centre_values(pos, power, False)
        threat = self.threats(pos, power)
        if n > 0:
            occupied = {u.province for u in pos.units}
            free = [c for c in sorted(HOME[power]) if pos.owners.get(c) == power and c not in occupied]
            free.sort(key=lambda c: (-threat[c], -self.potential(values, "A", c), c))
            fleets = sum(1 for u in units if u.kind == "F")
            orders = []
            for c in free[:n]:
                prov = BOARD.provinces[c]
                want_fleet = prov.is_coastal and (fleets + 0.5) / (len(units) + len(orders) + 1) < FLEET_TASTE[power]
                if prov.is_coastal and not want_fleet and self.potential(values, "F", BOARD.fleet_locations(c)[0]) > \
                        1.6 * self.potential(values, "A", c):
                    want_fleet = True
                if want_fleet:
                    locs = BOARD.fleet_locations(c)
                    loc = max(locs, key=lambda where: (self.potential(values, "F", where), where))
                    orders.append(Build(UnitRef("F", loc)))
                    fleets += 1
                else:
                    orders.append(Build(UnitRef("A", c)))
            if len(orders) < n and self.rng.random() < 0.5:
                orders.append(Waive())
            return orders
        # removals: the units doing least, far from home
        scored = []
        for u in units:
            s = self.potential(values, u.kind, u.loc)
            if u.province in pos.centres_of(power) and threat[u.province]:
                s += 20
            s -= 2 * min(dist(u, h) for h in HOME[power])
            scored.append((s, u.loc, u))
        scored.sort(key=lambda t: (t[0], t[1]))
        return [Remove(UnitRef(u.kind, u.loc)) for _, _, u in scored[:-n]]


def _dest_of(a):
    if a[0] == "move":
        return a[1]
    if a[0] == "convoy":
        return a[1][0]
    return ""



def movement_orders(bot: Bot, rel: Relations, board: Position, rng) -> dict[str, list[Order]]:
    """Every power's movement orders as the bots plan them on `board` for a scripted example game:
    each power keeps clear of the provinces its trusted friends already claimed (any order's
    destination), then allies add their supports. Power -> orders, by the unit's location."""
    plans, claimed = {}, {}
    for p in POWERS:
        if units_of(board, p):
            friends = set().union(*(cl for q, cl in claimed.items() if rel.trusts(p, q))) if claimed else set()
            plans[p] = bot.movement(board, p, friends)
            claimed[p] = {(getattr(o, "dest", None) or "")[:3] for o in plans[p].orders.values()} - {""}
    bot.ally_supports(board, plans, rng)
    return {p: [plan.orders[k] for k in sorted(plan.orders)] for p, plan in plans.items()}


def retreat_orders(bot: Bot, board: Position, dislodged) -> dict[str, list[Order]]:
    """The retreats the bots order for `dislodged` units, by power (none expecting too many units)."""
    out = {}
    for p in sorted({d.unit.power for d in dislodged}):
        rs = bot.retreats(board, p, False)
        out[p] = [rs[k] for k in sorted(rs)]
    return out

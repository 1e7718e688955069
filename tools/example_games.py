#!/usr/bin/env python3
"""Generate the bundled example games under ``games/`` with a scripted player.

    python tools/example_games.py            # (re)write the example games
    python tools/example_games.py --check    # generate in memory, print the summaries, write nothing
    python tools/example_games.py --force    # overwrite folders even if they were edited by hand

The player is a heuristic bot, not a random one: each power values the centres it could
take by distance, keeps threatened home centres covered, supports its attacks when an
attack alone would bounce, convoys armies over water, keeps to its alliances for a while
and now and then stabs. The diplomacy (who is allied with whom, when the stabs come) is
written down per game in a small script, so that the games tell a story; the moves are
the bot's. Every phase is stepped with dipgen's own engine while generating, the files
are then written, and the written folder is replayed with ``dipgen`` to make sure it says
the same thing. Everything is drawn from a fixed seed: the output is the same every run.

Two of the games are Stab! games (hidden movement): the first phase file carries each power's
free ``placement``; the players lose track of foreign units now and then (``Script.fog``) and
so blunder into each other; a few scenes the reports must show (a convoying fleet under
attack, a self-standoff a foreign unit reveals) are set up on purpose if the bot has not
produced them (``Script.wants``); and since press in a hidden game is public, its press and GM
notes are written from dipgen's own public view of each season, so they say only what the
public report shows: rumour, diplomacy, bluster and the revealed contacts.

Two are Blind games (every position secret, spies): the first phase file places some powers'
spies (``spies``); each player plans with its own units, its allies' and the foreign units
its fights and spies revealed (dipgen's own private view of each season), and forgets them as
they go stale; spies scout toward enemy centres and fronts, sit in key places and hunt enemy
spies at home and abroad, and two hunts the example must show (a kill, two hunters killing
each other) are set up if the spies have not produced them. The public learns only the centre
totals and the NMRs, so the press names no province, unit or order, and the GM's notes keep
to deadlines, rulings, player changes and the result.

Each folder gets a ``.generated`` manifest (hashes of the files written). A folder whose
files no longer match it has been edited by hand, and is left alone unless ``--force``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from dipgen.board import province_of  # noqa: E402
from dipgen.orders import (Build, Concealed, Convoy, CounterEspionage, Disband, Hold, Move, Order, Remove, Retreat, Support,  # noqa: E402
                           UnitRef, Waive, for_phase, parse_order)
from dipgen.variants.stab import contacts  # noqa: E402
from dipgen.phase import Phase  # noqa: E402
from dipgen.position import Position, Unit  # noqa: E402
from dipgen.variants import get_variant  # noqa: E402

VARIANT = get_variant("standard")
BOARD = VARIANT.board
POWERS = VARIANT.powers()
MANIFEST = ".generated"

CAPITAL = {"Austria": "Vienna", "England": "London", "France": "Paris", "Germany": "Berlin",
           "Italy": "Rome", "Russia": "Moscow", "Turkey": "Constantinople"}
OTHER_CITY = {"Austria": "Budapest", "England": "Edinburgh", "France": "Marseilles", "Germany": "Kiel",
              "Italy": "Naples", "Russia": "St Petersburg", "Turkey": "Ankara"}
ADJ = {"Austria": "Austrian", "England": "English", "France": "French", "Germany": "German",
       "Italy": "Italian", "Russia": "Russian", "Turkey": "Turkish"}
#: how keen each power is on fleets when it builds
FLEET_TASTE = {"England": 0.75, "Turkey": 0.45, "Italy": 0.45, "France": 0.4, "Germany": 0.3,
               "Russia": 0.3, "Austria": 0.15}
#: powers whose armies expect to travel by sea
CONVOY_MINDED = {"England", "Italy", "Turkey"}


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
            occupant = pos.unit_at(c)
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
            if occupant is not None and occupant.power != power and v > 0:
                v *= 0.75  # harder to take
            if occupant is not None and occupant.power != power and self.rel.trusts(power, occupant.power):
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
        units = sorted(pos.units_of(power), key=lambda u: u.loc)
        values = self.centre_values(pos, power, fall)
        threat = self.threats(pos, power)
        my_centres = set(pos.centres_of(power))
        occupied = {u.province: u for u in pos.units}
        n_units, n_centres = len(units), len(my_centres)

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
                occ = pos.unit_at(prov)
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
            if got == 0 and occupied.get(prov) is not None and occupied[prov].power != power and self.rng.random() < 0.5:
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
        units = pos.units_of(power)
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
                    loc = max(locs, key=lambda l: (self.potential(values, "F", l), l))
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


# ====================================================================== writing orders as people do

def _full(loc: str) -> str:
    return BOARD.full_name(loc)


def _place(loc: str) -> str:
    """A province as press names it: 'Munich', 'the North Sea'."""
    name = BOARD.full_name(loc)
    return f"the {name}" if province_of(loc) in SEAS else name


def _abbr(loc: str) -> str:
    return BOARD.format_loc(loc)


def write_order(order: Order, style: str, rng: random.Random) -> str:
    """The order as a player with writing habit `style` might send it."""
    canon = order.format(BOARD)
    if style == "canonical" or isinstance(order, Waive):
        text = canon
    elif style == "compact":
        text = canon.replace(" - ", "-")
    elif style == "lower":
        text = canon.lower()
    elif style == "names":  # kind letters, full province names
        text = _names(order, lambda loc: _full(loc), lambda k: k)
    elif style == "wordy":  # Army/Fleet, full names, words for the verbs
        text = _names(order, lambda loc: _full(loc), lambda k: {"A": "Army", "F": "Fleet"}[k], wordy=True)
    elif style == "arrows":
        text = canon.replace(" - ", " -> ")
    else:
        raise ValueError(style)
    if isinstance(order, Move) and not reaches_loc(order.unit, order.dest) and style in ("canonical", "compact", "lower"):
        r = rng.random()
        if r < 0.3:
            text += " via convoy" if style != "lower" else " via convoy"
    return text


def reaches_loc(ref: UnitRef, dest: str) -> bool:
    return reaches(Unit("?", ref.kind or "A", ref.loc), province_of(dest))


def _names(order: Order, loc, kind, wordy: bool = False) -> str:
    def unit(ref: UnitRef) -> str:
        return f"{kind(ref.kind)} {loc(ref.loc)}"
    arrow = " -> " if wordy else " - "
    if isinstance(order, Hold):
        return f"{unit(order.unit)}{' holds' if wordy else ' H'}"
    if isinstance(order, Move):
        return f"{unit(order.unit)}{arrow}{loc(order.dest)}"
    if isinstance(order, Support):
        s = f"{unit(order.unit)} {'supports' if wordy else 'S'} {unit(order.target)}"
        return s + (f"{arrow}{loc(order.dest)}" if order.dest else "")
    if isinstance(order, Convoy):
        return f"{unit(order.unit)} {'convoys' if wordy else 'C'} {unit(order.target)}{arrow}{loc(order.dest)}"
    if isinstance(order, Retreat):
        return f"{unit(order.unit)} {'retreats' if wordy else 'R'} {loc(order.dest)}" if not wordy else \
            f"{unit(order.unit)} R {loc(order.dest)}"
    if isinstance(order, Disband):
        return f"{unit(order.unit)} disbands" if wordy else f"{unit(order.unit)} disband"
    if isinstance(order, Build):
        return f"{'Build' if wordy else 'Build'} {unit(order.unit)}"
    if isinstance(order, Remove):
        return f"{'Disband' if wordy else 'Remove'} {unit(order.unit)}"
    return order.format(BOARD)


def _same(a: Order, b: Order) -> bool:
    if isinstance(a, Move) and isinstance(b, Move):
        return a.unit == b.unit and a.dest == b.dest
    return a == b


def written(order: Order, style: str, kind: str, rng: random.Random) -> str:
    """Write `order` in `style`; fall back to the canonical form if dipgen would read it otherwise."""
    canon = order.format(BOARD)
    assert _same(for_phase(parse_order(BOARD, canon), kind), order), canon
    text = write_order(order, style, rng)
    try:
        if _same(for_phase(parse_order(BOARD, text), kind), order):
            return text
    except ValueError:
        pass
    return canon


# ====================================================================== the game script and the simulation

@dataclass
class Script:
    slug: str
    title: str
    gm: str
    players: dict                    # power -> name, or [name, (name, "1905-fall")] for a replacement
    description: str
    seed: int
    alliances: list                  # [(a, b)] from the start
    events: dict                     # phase slug -> [(kind, a, b)]: ally, break, war, peace, stab
    styles: dict                     # power -> writing habit
    blocks: set = frozenset()        # powers whose orders come as one block of lines
    nmr: set = frozenset()           # {(phase slug, power)}
    cd_power: tuple = ()             # the first of these that must remove from cd_after on sends no orders
    cd_after: int = 1904
    misorders: dict = field(default_factory=dict)  # phase slug -> (power, "far" | "kind")
    aggression: dict = field(default_factory=dict)
    stop: str = ""                   # running game: the phase it waits for
    draw_after: str = ""             # finished game: the GM declares a draw after this Fall
    overrides: dict = field(default_factory=dict)  # phase slug -> {power: [order text]}: scripted decisions
    deadlines: tuple = ("Sunday 20:00 UK time", "Wednesday 22:00 CET", "Friday noon GMT")
    expect: tuple = ()               # ("solo", power) or ("draw", n): the result the story needs
    variant: str = "standard"        # "stab": a hidden-movement game (see the Stab! section below)
    placement: dict = field(default_factory=dict)  # Stab!: power -> [unit], the free initial placement
    fog: float = 0.0                 # Stab!: the chance a player has lost track of a foreign unit
    wants: dict = field(default_factory=dict)  # Stab!: feature -> earliest phase slug to set it up
    spies: dict = field(default_factory=dict)  # Blind: power -> [home centre], where its spies start


@dataclass
class PhaseLog:
    phase: Phase
    before: Position
    after: Position
    texts: dict          # power -> [text]
    orders: dict         # power -> [Order] as adjudicated
    results: tuple = ()
    dislodged: tuple = ()
    destroyed: tuple = ()
    changes: tuple = ()  # (centre, old, new)
    due: dict = field(default_factory=dict)
    nmr: tuple = ()
    misorders: list = field(default_factory=list)  # (power, text, why)
    events: list = field(default_factory=list)     # diplomacy applied this phase
    ally_supports: list = field(default_factory=list)
    press: str = ""
    notes: str = ""
    placement: dict | None = None  # Stab!: the initial placement, written in the first phase file
    tweaks: list = field(default_factory=list)     # Stab!: scenes set up on purpose (feature, power, ...)
    spies: dict | None = None  # Blind: where the spies start, written in the first phase file


class Sim:
    def __init__(self, script: Script):
        self.s = script
        self.rng = random.Random(script.seed)
        self.rel = Relations()
        for a, b in script.alliances:
            self.rel.allies.add(frozenset((a, b)))
        self.bot = Bot(self.rng, self.rel, script.aggression)
        self.variant = get_variant(script.variant)
        self.pos = VARIANT.start(1901) if not script.placement else placed_position(self.variant, script.placement)
        self.fog_rng = random.Random(script.seed * 31 + 7)  # only Stab! games draw from it
        self.shown: Counter = Counter()  # Stab!: contact kinds seen so far (to know which scenes are still wanted)
        self.log: list[PhaseLog] = []
        self.result = None  # ("solo", power) or ("draw", powers)
        self.cd_done = False

    # ----- diplomacy
    def apply_events(self, slug: str) -> list:
        self.rel.stabbing.clear()
        evs = self.s.events.get(slug, [])
        for kind, a, b in evs:
            pair = frozenset((a, b))
            if kind == "ally":
                self.rel.allies.add(pair)
                self.rel.wars.discard(pair)
            elif kind == "break":
                self.rel.allies.discard(pair)
            elif kind == "war":
                self.rel.allies.discard(pair)
                self.rel.wars.add(pair)
            elif kind == "peace":
                self.rel.wars.discard(pair)
            elif kind == "stab":
                self.rel.stabbing[a] = b
        return list(evs)

    def after_events(self, evs) -> None:
        for kind, a, b in evs:
            if kind == "stab":
                pair = frozenset((a, b))
                self.rel.allies.discard(pair)
                self.rel.wars.add(pair)

    def alive(self, pos: Position) -> list[str]:
        return [p for p in POWERS if pos.units_of(p) or pos.centres_of(p)]

    # ----- the loop
    def run(self) -> "Sim":
        stop = Phase.from_slug(self.s.stop) if self.s.stop else None
        draw_after = Phase.from_slug(self.s.draw_after) if self.s.draw_after else None
        while True:
            pos = self.pos
            phase = pos.phase
            if stop is not None and phase >= stop:
                break
            if draw_after is not None and phase > draw_after and not (
                    phase.retreats and phase.year == draw_after.year and phase.season_index == draw_after.season_index):
                alive = self.alive(pos)
                self.result = ("draw", [p for p in alive if len(pos.centres_of(p)) >= 3] or alive)
                break
            evs = self.apply_events(phase.slug)
            if phase.kind == "movement":
                log = self.movement(pos)
            elif phase.kind == "retreats":
                log = self.retreats(pos)
            else:
                log = self.adjustments(pos)
            log.events = evs
            self.after_events(evs)
            self.log.append(log)
            self.pos = log.after
            if phase.season_index == 1 and self.pos.phase.season_index == 2:
                w = VARIANT.winner(self.pos)
                if w:
                    self.result = ("solo", [w])
                    break
            self.pos = self.skip_empty(self.pos)
        return self

    def skip_empty(self, pos: Position) -> Position:
        while True:
            ph = pos.phase
            if ph.kind == "retreats" and not pos.dislodged:
                pos = pos.with_(phase=ph.next_candidates()[0])
            elif ph.kind == "adjustments" and not VARIANT.adjustment_counts(pos):
                pos = pos.with_(phase=ph.next_candidates()[0])
            else:
                return pos

    def end_of_season(self, after: Position):
        ph = after.phase
        changes = ()
        if ph.season_index == 1:
            owners = VARIANT.update_owners(after.units, after.owners)
            changes = tuple((c, after.owners.get(c), o) for c, o in sorted(owners.items()) if after.owners.get(c) != o)
            after = after.with_(owners=owners, phase=Phase(ph.year, 2), dislodged=())
        else:
            after = after.with_(phase=Phase(ph.year, 1), dislodged=())
        return after, changes

    # ----- Stab!: play in the dark, and the scenes an example must show
    def believed(self, pos: Position, power: str) -> Position:
        """What `power` thinks the board looks like: its own units, its allies' (they talk), foreign
        units in its own centres (the GM tells it), and each other foreign unit unless it has lost
        track of it."""
        mine = set(pos.centres_of(power))
        keep = [u for u in pos.units if u.power == power or self.rel.trusts(power, u.power) or u.province in mine
                or self.fog_rng.random() >= self.s.fog]
        return pos.with_(units=tuple(keep))

    def set_scenes(self, pos: Position, plans: dict) -> list:
        """Stab!: for each feature the example still lacks (see `Script.wants`), look for a place on
        the board where two players' plans could plausibly produce it, and change those orders."""
        done = []
        for feature, since in self.s.wants.items():
            if pos.phase < Phase.from_slug(since) or self.shown[feature]:
                continue
            scene = getattr(self, f"scene_{feature}")(pos, plans)
            if scene:
                done.append((feature, *scene))
        return done

    def _mine_idle(self, plans, power: str, prov: str) -> bool:
        o = plans[power].orders.get(prov)
        return isinstance(o, (Hold, Support))

    def _undo_supports_of(self, plans, power: str, provs: set) -> None:
        for q, o in list(plans[power].orders.items()):
            if isinstance(o, Support) and o.target.province in provs:
                plans[power].orders[q] = Hold(o.unit)

    def _targets(self, plans) -> Counter:
        return Counter(province_of(o.dest) for plan in plans.values() for o in plan.orders.values()
                       if isinstance(o, Move))

    def scene_convoy_attacked(self, pos: Position, plans: dict):
        """An army crosses a sea to an empty coast, and a foreign fleet picks that season to attack
        the convoying fleet (it sees a convoy, not what is convoyed)."""
        occupied = {u.province: u for u in pos.units}
        targets = self._targets(plans)
        for power in sorted(plans):
            for f in sorted(pos.units_of(power), key=lambda u: u.loc):
                if f.kind != "F" or f.province not in SEAS or isinstance(plans[power].orders.get(f.province), Convoy):
                    continue
                # an enemy's fleet, or failing that a friend's that did not know what was there
                attackers = sorted((g for g in pos.units if g.power != power and g.power in plans and g.kind == "F"
                                    and reaches(g, f.province)),
                                   key=lambda g: (self.rel.trusts(g.power, power), g.loc))
                if not attackers:
                    continue
                for a in sorted(pos.units_of(power), key=lambda u: u.loc):
                    if a.kind != "A" or not sea_touches(f.province, a.province):
                        continue
                    dests = [d for d in sorted(BOARD.provinces) if d not in SEAS and d != a.province
                             and sea_touches(f.province, d) and d not in occupied and not targets[d]
                             and d not in BOARD.army_adj.get(a.province, ())]
                    if not dests:
                        continue
                    d, g = dests[0], attackers[0]
                    for q, o in list(plans[power].orders.items()):
                        if isinstance(o, Move) and province_of(o.dest) == d:
                            plans[power].orders[q] = Hold(o.unit)
                    self._undo_supports_of(plans, power, {a.province, f.province})
                    plans[power].orders[a.province] = Move(UnitRef("A", a.loc), d)
                    plans[power].orders[f.province] = Convoy(UnitRef("F", f.loc), UnitRef("A", a.loc), d)
                    self._undo_supports_of(plans, g.power, {g.province})
                    plans[g.power].orders[g.province] = Move(UnitRef(g.kind, g.loc), f.province)
                    return power, g.power, f.province
        return None

    def scene_self_standoff_shown(self, pos: Position, plans: dict):
        """Two of a power's units try for the same empty space, while a foreign unit attacks one of
        them where it stood: the report shows that one's self-standoff, not the other."""
        occupied = {u.province: u for u in pos.units}
        targets = self._targets(plans)
        for power in sorted(plans):
            for q, o in sorted(((q, o) for p2, plan in plans.items() if p2 != power for q, o in plan.orders.items()),
                               key=lambda t: t[0]):
                if not isinstance(o, Move):
                    continue
                u1 = occupied.get(province_of(o.dest))
                if u1 is None or u1.power != power or not self._mine_idle(plans, power, u1.province):
                    continue
                for u2 in sorted(pos.units_of(power), key=lambda u: u.loc):
                    if u2 == u1 or not self._mine_idle(plans, power, u2.province):
                        continue
                    xs = [x for x in sorted(BOARD.provinces) if x not in occupied and not targets[x]
                          and reaches(u1, x) and reaches(u2, x)]
                    if xs:
                        x = xs[0]
                        self._undo_supports_of(plans, power, {u1.province, u2.province})
                        for u in (u1, u2):
                            loc = next(l for l in BOARD.fleet_locations(x) if l in BOARD.fleet_adj.get(u.loc, ())) \
                                if u.kind == "F" else x
                            plans[power].orders[u.province] = Move(UnitRef(u.kind, u.loc), loc)
                        return power, occupied[q].power, x
        return None

    def texts_for(self, power: str, orders: list[Order], kind: str) -> list[str]:
        style = self.s.styles.get(power, "canonical")
        out = []
        for o in orders:
            st = style
            if self.rng.random() < 0.12:  # nobody is perfectly consistent
                st = self.rng.choice(["canonical", "compact", "lower", "names", "arrows"])
            out.append(written(o, st, kind, self.rng))
        return out

    def parse_back(self, texts: dict, kind: str) -> dict:
        return {p: [for_phase(parse_order(BOARD, t), kind) for t in ts] for p, ts in texts.items()}

    def movement(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        plans = {}
        claimed: dict[str, set] = {}
        for power in POWERS:
            if not pos.units_of(power):
                continue
            friends = set()
            for q, cl in claimed.items():
                if self.rel.trusts(power, q):
                    friends |= cl
            seen = self.believed(pos, power) if self.s.fog else pos
            plan = self.bot.movement(seen, power, friends)
            plans[power] = plan
            claimed[power] = {province_of(o.dest) for o in plan.orders.values() if isinstance(o, Move)}
        self.bot.ally_supports(pos, plans, self.rng)
        tweaks = self.set_scenes(pos, plans) if self.s.wants else []
        orders = {p: [plan.orders[k] for k in sorted(plan.orders)] for p, plan in plans.items()}
        texts = {p: self.texts_for(p, os, "movement") for p, os in orders.items()}
        for p, ts in self.s.overrides.get(slug, {}).items():
            texts[p] = list(ts)
        misorders = []
        if slug in self.s.misorders:
            power, how = self.s.misorders[slug]
            mis = self.misorder(pos, power, orders[power], how)
            if mis:
                i, text, why = mis
                texts[power][i] = text
                misorders.append((power, text, why))
        nmr = tuple(p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts)
        for p in nmr:
            del texts[p]
        parsed = self.parse_back(texts, "movement")
        out = self.variant.movement(pos, parsed)
        ph = pos.phase
        after = Position(Phase(ph.year, ph.season_index, True), out.units, pos.owners, out.dislodged)
        changes = ()
        if not out.dislodged:
            after, changes = self.end_of_season(after)
        log = PhaseLog(ph, pos, after, texts, parsed, out.results, out.dislodged, out.destroyed, changes,
                       nmr=nmr, misorders=misorders)
        log.ally_supports = [(p, n) for p, plan in plans.items() for n in plan.notes]
        log.tweaks = tweaks
        if self.s.placement and ph == Phase(1901, 0):
            log.placement = self.s.placement
        if self.s.variant == "stab":
            self.shown.update(contact_kinds(log))
        return log

    def misorder(self, pos, power, orders, how):
        """A plausible slip of the pen: a move to a province two steps away, or the wrong unit letter."""
        for i, o in enumerate(orders):
            u = pos.unit_at(o.unit.province)
            if how == "kind" and isinstance(o, Move):
                other = "F" if u.kind == "A" else "A"
                text = f"{other} {_abbr(u.loc)} - {_abbr(o.dest)}"
                return i, text, f"the unit in {_full(u.province)} is {'an army' if u.kind == 'A' else 'a fleet'}; read as {o.format(BOARD)}"
            if how == "far" and isinstance(o, Move) and (u.kind == "F" or not BOARD.provinces[u.province].is_coastal):
                dest = province_of(o.dest)
                far = sorted(q for q in BOARD.neighbours(dest) if q != u.province and not reaches(u, q)
                             and (u.kind == "A" and BOARD.provinces[q].is_land
                                  or u.kind == "F" and BOARD.provinces[q].type != "land" and not BOARD.provinces[q].coasts))
                if far:
                    q = far[0]
                    return i, f"{u.kind} {_abbr(u.loc)} - {_abbr(q)}", f"{_full(q)} does not border {_full(u.province)}; the unit held"
        return None

    def retreats(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        powers = sorted({d.unit.power for d in pos.dislodged})
        orders = {}
        for p in powers:
            units_after = len(pos.units_of(p)) + sum(1 for d in pos.dislodged if d.unit.power == p)
            centres_next = len(pos.centres_of(p))
            if pos.phase.season_index == 1:
                owners = VARIANT.update_owners(pos.units, pos.owners)
                centres_next = sum(1 for o in owners.values() if o == p)
            rs = self.bot.retreats(pos, p, units_after > centres_next)
            orders[p] = [rs[k] for k in sorted(rs)]
        texts = {p: self.texts_for(p, os, "retreats") for p, os in orders.items()}
        nmr = tuple(p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts)
        for p in nmr:
            del texts[p]
        parsed = self.parse_back(texts, "retreats")
        out = VARIANT.retreats(pos, parsed)
        after, changes = self.end_of_season(Position(pos.phase, out.units, pos.owners))
        return PhaseLog(pos.phase, pos, after, texts, parsed, out.results, changes=changes, nmr=nmr)

    def adjustments(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        due = VARIANT.adjustment_counts(pos)
        orders = {p: self.bot.adjustments(pos, p, n) for p, n in sorted(due.items())}
        texts = {p: self.texts_for(p, os, "adjustments") for p, os in orders.items() if os}
        nmr = [p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts]
        if not self.cd_done and pos.phase.year >= self.s.cd_after:
            for cd in self.s.cd_power:
                if due.get(cd, 0) < 0:
                    nmr.append(cd)
                    self.cd_done = True
                    break
        for p in nmr:
            texts.pop(p, None)
        parsed = self.parse_back(texts, "adjustments")
        out = VARIANT.adjustments(pos, parsed)
        after = Position(Phase(pos.phase.year + 1, 0), out.units, pos.owners)
        return PhaseLog(pos.phase, pos, after, texts, parsed, out.results, due=due, nmr=tuple(nmr))


# ====================================================================== press and GM notes

# Each template is said by {me} (a capital) to {you} (a capital, or "All"); other slots are
# filled from what happened. Templates are drawn without repeats until a category runs dry.
PRESS = {
    "opening": [
        "{me} to All: Greetings from {me}. We have no designs on anyone and a great many designs on everyone.",
        "{me} to {you}: A quiet border is the best kind. Shall we keep ours that way this year?",
        "{me} to All: Our generals have been given the spring off. Our admirals have not.",
        "{me} to {you}: I'm told you opened well in your last game. I'm told a lot of things.",
        "{me} to All: Good luck, everyone. Especially to whoever is going to need it most.",
        "{me} to {you}: Let's talk before the deadline, not after it. I answer email quickly.",
    ],
    "ally": [
        "{me} to {you}: Agreed, then. You take the east side of the table, we take the west.",
        "{me} to {you}: Shaking hands on it. {prov} stays empty; everything else we discuss.",
        "{me} to All: {me} and {you} have signed a pact of friendship. Read into that what you like.",
        "{me} to {you}: I'll support you into {prov} if you keep your fleets where we agreed.",
        "{me} to {you}: Our ambassadors have drunk the embassy dry. I take that as a yes.",
        "{me} to {you}: Good talk last night. Same time next season?",
    ],
    "war": [
        "{me} to {you}: You know why. Don't pretend you don't.",
        "{me} to All: {me} regrets that {you} has left us no choice.",
        "{me} to {you}: Your last three emails said 'peace'. Your units said something else.",
        "{me} to All: The {adj} government has recalled its ambassador from {you}.",
        "{me} to {you}: Nothing personal. Well, a little personal.",
        "{me} to All: Mobilisation orders have gone out. Our neighbours in {you} will know what for.",
    ],
    "stab_lie": [
        "{me} to {you}: All quiet on our side of {prov}, exactly as we agreed.",
        "{me} to {you}: Don't worry about my units near {prov}. They're facing the other way.",
        "{me} to {you}: Same orders as last season. You have my word.",
        "{me} to {you}: Honestly, you could leave {prov} empty this time. Nobody's coming.",
        "{me} to {you}: Counting on you to hold the line in the north while I sort out the south.",
        "{me} to {you}: Our friendship is the one fixed point on this board.",
    ],
    "stab_outrage": [
        "{me} to {you}: {prov}. Really. After everything.",
        "{me} to All: For the record: {you} promised {prov} was safe the night before the deadline. Choose your allies accordingly.",
        "{me} to {you}: I hope the extra centre keeps you warm.",
        "{me} to All: {you} is a liar and I have the emails to prove it.",
        "{me} to {you}: Well played, I suppose. You'll regret it by {year}.",
        "{me} to All: Anyone who wants to help us teach {you} a lesson, my inbox is open.",
    ],
    "stab_excuse": [
        "{me} to {you}: You'd have done the same by next year. I just got there first.",
        "{me} to All: {me} has secured its border. No further comment.",
        "{me} to {you}: It was {prov} or my whole western flank. Sorry. Mostly.",
        "{me} to {you}: Let's not make this personal. Talk to me in the winter.",
        "{me} to All: Alliances are seasonal. So is the weather.",
    ],
    "dislodged": [
        "{me} to {you}: Was that really necessary in {prov}?",
        "{me} to {you}: You'll want to look at a map. {prov} was ours.",
        "{me} to All: Our brave garrison in {prov} withdrew in perfect order. Entirely voluntarily.",
        "{me} to {you}: Point taken about {prov}. What do you want?",
        "{me} to {you}: Impressive support work in {prov}. Shame about the target.",
        "{me} to All: We have been pushed out of {prov}. We will be back.",
        "{me} to {you}: That was a lot of units to bring to {prov} just for us. Flattered.",
        "{me} to {you}: Shall we talk about {prov} before it happens again?",
    ],
    "boast": [
        "{me} to All: {prov} welcomes its new administrators.",
        "{me} to {you}: Thank you for keeping {prov} warm for us.",
        "{me} to All: Another week, another flag over {prov}.",
        "{me} to {you}: No hard feelings about {prov}. Well, none on our side.",
        "{me} to All: The people of {prov} have voted with their feet. Our feet, mostly.",
        "{me} to {you}: {prov} is under new management. Complaints to the usual address.",
        "{me} to All: Pleased to report that {prov} has joined the family.",
        "{me} to {you}: Sorry about {prov}. You weren't using it properly.",
    ],
    "lost_centre": [
        "{me} to All: The loss of {prov} is a temporary arrangement.",
        "{me} to {you}: Enjoy {prov} while it lasts.",
        "{me} to All: {prov} was a drain on the treasury anyway.",
        "{me} to {you}: Keep {prov}. I'll want it back with interest.",
        "{me} to All: We mourn {prov}. Briefly. Then we plan.",
        "{me} to {you}: Taking {prov} was the easy part. Holding it is another matter.",
        "{me} to All: For the record, {prov} was taken by a trick, not by arms.",
    ],
    "bounce": [
        "{me} to {you}: We both seem to have wanted {prov}. Shall we both not want it next time?",
        "{me} to {you}: Fancy meeting you in {prov}.",
        "{me} to {you}: That bounce in {prov} was a misunderstanding, surely?",
        "{me} to All: Traffic in {prov} was heavy this season. Nobody got through.",
        "{me} to {you}: DMZ in {prov}? Proposed in good faith.",
    ],
    "convoy": [
        "{me} to All: The navy delivers. {prov}, meet the army.",
        "{me} to All: Our fleets have discovered they can carry things. Ask {prov}.",
        "{me} to {you}: Did you see that convoy into {prov}? Neither did you, until it landed.",
        "{me} to All: Seaborne and seasick, our army is ashore in {prov}.",
        "{me} to All: An army on the water is a message in a bottle. This one was addressed to {prov}.",
    ],
    "thanks": [
        "{me} to {you}: Thanks for the support into {prov}. I owe you one.",
        "{me} to {you}: Textbook. {prov} is ours thanks to you.",
        "{me} to {you}: That support into {prov} was worth a hundred emails.",
        "{me} to {you}: Couldn't have taken {prov} without you. Next one's on me.",
    ],
    "builds": [
        "{me} to All: {units} this winter. Purely defensive, naturally.",
        "{me} to All: Our shipyards and barracks thank the taxpayers of {prov}.",
        "{me} to {you}: Don't read anything into the new units. Really.",
        "{me} to All: Growth is good. More growth is better.",
        "{me} to {you}: Yes, I built there. No, it isn't pointed at you. Yet.",
    ],
    "removals": [
        "{me} to All: We are consolidating. Strategically.",
        "{me} to All: Fewer units, fewer problems. Or so our treasurer says.",
        "{me} to {you}: You'll notice I'm smaller. You'll also notice I'm still here.",
        "{me} to All: Our empire is not shrinking. It is becoming more concentrated.",
    ],
    "endgame_winner": [
        "{me} to All: Thank you all. It was a long road from {prov}, and I enjoyed every season of it, even the ones I nearly lost.",
        "{me} to All: Eighteen. I'd like to thank my allies, both of them, and my enemies, all of them, in roughly that order.",
        "{me} to All: Good game, everyone. The turning point was the stab in the south: after that I simply could not afford to stop.",
    ],
    "endgame": [
        "{me} to All: Thank you all. It was a long road from {prov}, and I enjoyed every season of it, even the ones I lost.",
        "{me} to All: Well played, {you}. I never quite found the moment to stop you, and by the end nobody did.",
        "{me} to All: Congratulations to {you}. Next time I'm writing to everyone in 1901, not 1909.",
        "{me} to All: Thanks to the GM for running it, and to everyone who kept sending press when things were grim.",
    ],
    "eliminated": [
        "{me} to All: That's us out. Thanks for a good game, and watch {you}.",
        "{me} to All: Last message from {me}: it was fun while it lasted. Mostly.",
        "{me} to {you}: Congratulations, I suppose. I'll be watching from the gallery.",
        "{me} to All: Farewell. Please don't let {you} win. Please.",
    ],
    "eulogy": [
        "{me} to All: A moment's silence for {you}. That's long enough.",
        "{me} to All: {you} fought to the last unit. We salute them.",
        "{me} to All: The board is poorer without {you}. And a bit emptier.",
    ],
    "leader": [
        "{me} to All: Has anyone else counted {you}'s centres lately? I have. It's {n}.",
        "{me} to All: If {you} gets much bigger we will all be writing to the GM for tips on surrender.",
        "{me} to All: Stop the leader. I'm not saying who. It's {you}.",
        "{me} to {you}: {n} centres is a lot of centres. Some of us are getting nervous.",
        "{me} to All: A friendly reminder that 18 is the number, and {you} is at {n}.",
    ],
    "nmr": [
        "{me} to {you}: Everything all right over there? Your units looked lonely.",
        "{me} to All: {you}'s armies stood still all season. Either genius or holiday.",
        "{me} to {you}: Missed you this turn. Your units didn't miss us.",
    ],
    "quiet": [
        "{me} to All: Nothing to report. Which is to say, everything to report next season.",
        "{me} to {you}: How's the weather over there? Ours is mild, with a chance of fleets.",
        "{me} to All: Our cat walked across the order form again. If something odd happens, blame him.",
        "{me} to {you}: Still friends? Just checking.",
        "{me} to All: Reports of our ambitions have been greatly exaggerated.",
        "{me} to {you}: I've drawn a lot of lines on my map this week. None of them through your centres.",
        "{me} to All: Somebody is lying and it isn't us. This time.",
        "{me} to {you}: Is it just me or is the board very crowded this year?",
        "{me} to All: The {adj} Gazette reports record harvests and absolutely no troop movements.",
        "{me} to {you}: Spoke to the others. Nobody trusts anybody. Business as usual.",
        "Anonymous to All: Someone on this board has promised the same centre to three different people.",
        "Anonymous to All: Watch the quiet ones.",
        "{me} to All: Our foreign minister is on holiday. Please address all threats to the Minister of Agriculture.",
        "{me} to {you}: Did you get my last email? The one with the map? Ignore the arrows.",
        "{me} to All: We'd like to thank the GM for another season of impartial suffering.",
        "{me} to {you}: Serious question: what do you actually want out of this year?",
        "{me} to All: Rumours of a secret treaty are false. The treaty is not secret.",
    ],
    "propaganda": [
        "The {adj} Gazette: Triumph in {prov}! Crowds cheer, bands play, the price of bread is unaffected.",
        "The {adj} Herald: Our correspondent in {prov} reports that the situation is entirely under control.",
        "Radio {me}: And now the news. Everything is going according to plan. Here is some music.",
        "The {adj} Courier: Generals confirm that the retreat was, in fact, an advance in the other direction.",
        "The {adj} Gazette: Foreign ambassadors express admiration for our restraint, our fleets and our moustaches.",
    ],
    "draw": [
        "{me} to All: I'd vote for a draw. Nobody's going anywhere.",
        "{me} to All: Stalemate lines look solid from here. Shall we call it?",
        "{me} to {you}: I'll accept a draw including you. Not sure about the others.",
    ],
}

NOTES = {
    "deadline": [
        "Deadline for {next} is {when}.",
        "Next deadline: {when}, for {next}.",
        "Orders for {next} are due {when}. Late orders will be used if they arrive before I adjudicate.",
        "Reminder: {next} is due {when}. Please send retreats with your orders where you can.",
        "{next} deadline {when}. Send me a 'no change' if you want your units to hold; silence counts as NMR.",
        "Deadline for {next}: {when}. I'm travelling that week, so results may be a few hours late.",
        "{next}: {when}.",
        "Please have {next} to me by {when}.",
        "{when} for {next}, as usual. Extensions only if you ask before the deadline.",
        "I'll adjudicate {next} at {when}.",
    ],
    "all_in": [
        "All orders were in on time. Thank you.",
        "Everyone ordered; two of you with ten minutes to spare.",
        "Orders from all powers received. A well-behaved board this season.",
        "All in. {late} sent theirs twice; I used the later set.",
    ],
    "press": [
        "A reminder that all press is published. If you want something private, email the player.",
        "Please sign your press with a capital or 'Anonymous'; I won't publish unsigned messages.",
        "Press is welcome, but keep it in character please.",
    ],
    "nmr": [
        "No orders from {power}; its units hold.",
        "{power} did not send orders this season (NMR). All its units held.",
        "Nothing from {power} by the deadline. I've written to the player; units hold.",
    ],
    "cd_removal": [
        "{power} sent no winter orders and had to remove; removals follow the civil-disorder rule: {units}.",
        "No adjustments from {power}. Civil disorder removes {units}: the rule takes the units farthest from home first.",
    ],
    "replaced": [
        "{new} has kindly taken over {power} from {old}. Welcome aboard, and good luck with it.",
        "{old} has had to drop out. {new} is the new player for {power}; please make them welcome.",
    ],
    "misorder": [
        "Ruling: {power}'s '{text}' cannot be done ({why}). It stands as written and the unit holds.",
        "{power} wrote '{text}'. {why_cap}. Orders are adjudicated as sent.",
        "A note on '{text}' ({power}): {why}. I don't correct orders; please double-check yours.",
    ],
    "eliminated": [
        "{power} is out of the game. Thank you, {player}, for playing it to the end.",
        "{power} has been eliminated. {player} stays on the list to read the press.",
    ],
    "retreats": [
        "Retreats were sent with the orders, so this phase was quick.",
        "Retreats adjudicated as received.",
    ],
    "misc": [
        "Apologies for the late adjudication; my internet went down on Sunday.",
        "Maps are up on the site as usual.",
        "If you spot a mistake in the adjudication, tell me before the next deadline.",
        "Two people asked about conditional orders: I don't take them. One set per season, please.",
        "A quick poll: nobody objects to moving deadlines to Monday evenings from next year, so I'll do that.",
        "One player asked whether a unit can support a unit that is convoyed. It can; the convoying fleets cannot.",
        "Someone sent orders for the wrong game. Easy mistake; they were not used.",
    ],
    "misc_winter": [
        "Happy new year to all.",
        "Adjustments were simple this winter. Well done everyone for writing the coasts.",
        "Builds are in. The map is getting crowded.",
    ],
    "draw_proposal": [
        "A draw proposal ({powers}) was put to the board and vetoed. Play on.",
        "Someone proposed a draw between {powers}. It failed; votes are secret.",
    ],
}


class Writer:
    """Draws press and notes from the template grammar without repeating itself."""

    def __init__(self, rng: random.Random, style: str):
        self.rng = rng
        self.used: dict[str, set] = {}
        self.style = style  # "bold" or "plain" headings for press items

    def pick(self, table: dict, cat: str) -> str:
        items = table[cat]
        used = self.used.setdefault(f"{id(table)}:{cat}", set())
        free = [i for i in range(len(items)) if i not in used]
        if not free:
            used.clear()
            free = list(range(len(items)))
        i = self.rng.choice(free)
        used.add(i)
        return items[i]

    def press(self, cat: str, me: str, you: str = "All", **slots) -> str:
        text = self.pick(PRESS, cat)
        me_c = CAPITAL.get(me, me)
        you_c = CAPITAL.get(you, you)
        line = text.format(me=me_c, you=you_c, adj=ADJ.get(me, me), **slots)
        head, _, body = line.partition(": ")
        if self.style == "bold":
            return f"**{head}:** {body}"
        return f"*{head}:* {body}"

    def note(self, cat: str, **slots) -> str:
        return self.pick(NOTES, cat).format(**slots)


def movement_events(log: PhaseLog) -> dict:
    """What a movement phase did, in the terms press talks about."""
    ev = {"dislodged": [], "bounces": [], "convoys": [], "thanks": []}
    for d in list(log.dislodged) + list(log.destroyed):
        ev["dislodged"].append((d.unit.power, d.by_power, d.unit.province))
    moved_ok = {}
    for r in log.results:
        if isinstance(r.order, Move) and r.unit is not None:
            moved_ok[r.unit.province] = r.succeeded
            if r.succeeded and r.unit.kind == "A" and not reaches(r.unit, province_of(r.order.dest)):
                ev["convoys"].append((r.power, province_of(r.order.dest)))
            for n in r.notes:
                if n.kind == "bounce":
                    for q in n.against:
                        other = log.before.unit_at(q)
                        theirs = next((o for o in log.orders.get(other.power, []) if other is not None
                                       and o.unit.province == other.province), None) if other else None
                        standoff = isinstance(theirs, Move) and province_of(theirs.dest) == province_of(r.order.dest)
                        if other is not None and other.power != r.power and standoff and r.power < other.power:
                            ev["bounces"].append((r.power, other.power, province_of(r.order.dest)))
    for r in log.results:
        if isinstance(r.order, Support) and r.order.dest and r.succeeded:
            target = log.before.unit_at(r.order.target.province)
            if target is not None and target.power != r.power and moved_ok.get(target.province):
                ev["thanks"].append((target.power, r.power, r.order.dest))
    return ev


class Composer:
    """Press and GM notes for each phase of a simulated game, keyed to what happened."""

    def __init__(self, sim: Sim, rng: random.Random, style: str):
        self.sim, self.rng = sim, rng
        self.w = Writer(rng, style)
        self.s = sim.s
        self.replacements = {}
        for power, who in self.s.players.items():
            if isinstance(who, list):
                for item in who[1:]:
                    self.replacements[item[1]] = (power, who[0] if isinstance(who[0], str) else who[0][0], item[0])
        self.draw_proposed = False

    def player(self, power: str, phase: Phase) -> str:
        who = self.s.players[power]
        if isinstance(who, str):
            return who
        name = who[0]
        for n, since in who[1:]:
            if Phase.from_slug(since) <= phase:
                name = n
        return name

    def neighbour(self, power: str, pos: Position, pool=None) -> str:
        """A power whose units are near `power`'s, for press addressed to someone plausible."""
        alive = [p for p in (pool or POWERS) if p != power and (pos.units_of(p) or pos.centres_of(p))]
        if not alive:
            return "All"
        mine = [u.province for u in pos.units_of(power)] or sorted(HOME[power])

        def closeness(p):
            theirs = [u.province for u in pos.units_of(p)] or sorted(HOME[p])
            return min(ANY_DIST[a].get(b, 99) for a in mine for b in theirs)
        alive.sort(key=lambda p: (closeness(p), p))
        return self.rng.choice(alive[:2])

    def compose(self) -> None:
        logs = self.sim.log
        last_move = None
        for i, log in enumerate(logs):
            prev = logs[last_move:i] if last_move is not None else []
            if log.phase.kind == "movement":
                log.press = self.movement_press(log, prev, logs[last_move] if last_move is not None else None)
                last_move = i
            elif log.phase.kind == "retreats":
                log.press = self.retreat_press(log)
            else:
                log.press = self.winter_press(log)
            log.notes = self.notes(log, i)
        self.finish()

    def finish(self) -> None:
        """End-of-game statements and the GM's last word, on the last phase played."""
        if self.sim.result is None:
            self.standings()
            return
        log = self.sim.log[-1]
        kind, powers = self.sim.result
        alive = [p for p in POWERS if log.after.units_of(p)]
        items = []
        if kind == "solo":
            winner = powers[0]
            items.append(self.w.press("endgame_winner", winner, "All",
                                      prov=_place(self.rng.choice(sorted(HOME[winner])))))
            for p in self.rng.sample([x for x in alive if x != winner], 2):
                items.append(self.w.press("endgame", p, winner, prov=_place(sorted(HOME[p])[0])))
            n = len(log.after.centres_of(winner))
            note = (f"{winner} has {n} supply centres and wins. Congratulations to {self.player(winner, log.phase)}, "
                    "and thanks to everyone for playing it out. End-of-game statements are welcome; "
                    "I'll publish them with the final map.")
        else:
            for p in self.rng.sample(powers, 2):
                items.append(self.w.press("endgame", p, self.rng.choice([x for x in powers if x != p]),
                                          prov=_place(sorted(HOME[p])[0])))
            note = (f"The draw proposal ({_and_words(powers)}) passed unanimously. The game ends after "
                    f"{log.phase.name}. Thank you all.")
        log.press = (log.press + "\n" if log.press else "") + self._join(items)
        log.notes = (log.notes + "\n" if log.notes else "") + note + "\n"

    def standings(self) -> None:
        """A running game: the GM sums up where things stand in the last phase's notes."""
        log = self.sim.log[-1]
        pos = log.after
        counts = {p: len(pos.centres_of(p)) for p in POWERS if pos.units_of(p) or pos.centres_of(p)}
        ranked = sorted(counts, key=lambda p: (-counts[p], p))
        top = [p for p in ranked if counts[p] == counts[ranked[0]]]
        low = ranked[-1]
        stabs = [(Phase.from_slug(ph), a, b) for ph, evs in self.s.events.items() for k, a, b in evs if k == "stab"]
        lines = [f"Where we stand after {log.phase.name}: {_and_words(top)} "
                 f"{'leads' if len(top) == 1 else 'lead'} on {counts[top[0]]} centres; "
                 f"{low} is down to {counts[low]}."]
        if stabs:
            ph, a, b = max(stabs)
            lines.append(f"{a} and {b} have not been on speaking terms since {ph.name}, "
                         "and the press suggests nobody has forgiven anybody.")
        if pos.phase.name not in log.notes:
            lines.append(f"{pos.phase.name} orders are due {self.s.deadlines[0]}.")
        log.notes = (log.notes + "\n" if log.notes else "") + " ".join(lines) + "\n"

    def _join(self, items) -> str:
        return "\n\n".join(items) + "\n" if items else ""

    def movement_press(self, log: PhaseLog, prev: list, last_move: PhaseLog | None) -> str:
        pos = log.before
        w, rng = self.w, self.rng
        cands = []  # (priority, text)
        alive = [p for p in POWERS if pos.units_of(p)]
        if log.phase == Phase(1901, 0):
            for p in rng.sample(alive, 3):
                cands.append((5, w.press("opening", p, self.neighbour(p, pos))))
        for kind, a, b in log.events:
            prov = self.border(pos, a, b)
            if kind == "ally":
                cands.append((6, w.press("ally", a, b, prov=_place(prov))))
            elif kind == "war":
                cands.append((6, w.press("war", a, b)))
            elif kind == "stab":
                target = self.stab_target(log, a, b) or prov
                cands.append((7, w.press("stab_lie", a, b, prov=_place(target))))
        if last_move is not None:
            for kind, a, b in last_move.events:
                if kind == "stab":
                    target = self.stab_target(last_move, a, b) or self.border(pos, a, b)
                    cands.append((8, w.press("stab_outrage", b, a, prov=_place(target), year=pos.phase.year + 1)))
                    if rng.random() < 0.6:
                        cands.append((4, w.press("stab_excuse", a, b, prov=_place(target))))
            ev = movement_events(last_move)
            for victim, attacker, prov in ev["dislodged"]:
                if pos.units_of(victim) and rng.random() < 0.5:
                    cands.append((3 + rng.random(), w.press("dislodged", victim, attacker, prov=_place(prov))))
            for a, b, prov in ev["bounces"][:2]:
                if rng.random() < 0.35:
                    cands.append((2 + rng.random(), w.press("bounce", a, b, prov=_place(prov))))
            for p, prov in ev["convoys"][:1]:
                cands.append((4 + rng.random(), w.press("convoy", p, "All", prov=_place(prov))))
            for mover, helper, prov in ev["thanks"][:1]:
                if rng.random() < 0.7:
                    cands.append((4 + rng.random(), w.press("thanks", mover, helper, prov=_place(prov))))
            if last_move.nmr and rng.random() < 0.7:
                p = last_move.nmr[0]
                q = self.neighbour(p, pos)
                if q != "All":
                    cands.append((3, w.press("nmr", q, p)))
        if last_move is not None:
            for p in POWERS:
                if last_move.before.units_of(p) and not pos.units_of(p) and not pos.centres_of(p):
                    q = rng.choice([x for x in alive if x != p])
                    cands.append((5, w.press("eulogy", q, p)))
            ev = movement_events(last_move)
            if (ev["dislodged"] or ev["convoys"]) and rng.random() < 0.3:
                who, prov = (ev["dislodged"][0][1], ev["dislodged"][0][2]) if ev["dislodged"] else ev["convoys"][0]
                if pos.units_of(who):
                    cands.append((3.5, w.press("propaganda", who, prov=_place(prov))))
        changes = [c for lg in prev for c in lg.changes]
        gained = [(c, old, new) for c, old, new in changes if old is not None]
        for c, old, new in gained[:3]:
            if rng.random() < 0.5:
                cands.append((3 + rng.random(), w.press("boast", new, old, prov=_place(c))))
            elif pos.units_of(old):
                cands.append((3 + rng.random(), w.press("lost_centre", old, new, prov=_place(c))))
        counts = pos.centre_counts(POWERS)
        leader = max(POWERS, key=lambda p: (counts[p], p))
        if counts[leader] >= 11 and rng.random() < 0.6:
            other = self.neighbour(leader, pos)
            if other != "All":
                cands.append((5, w.press("leader", other, leader, n=counts[leader])))
        if self.s.draw_after:
            end = Phase.from_slug(self.s.draw_after)
            if end.year - pos.phase.year <= 1 and rng.random() < 0.6:
                p = rng.choice(alive)
                cands.append((4, w.press("draw", p, self.neighbour(p, pos))))
        while len(cands) < 2:
            p = rng.choice(alive)
            cands.append((1 + rng.random(), w.press("quiet", p, self.neighbour(p, pos))))
        if rng.random() < 0.4:
            p = rng.choice(alive)
            cands.append((1 + rng.random(), w.press("quiet", p, self.neighbour(p, pos))))
        cands.sort(key=lambda c: -c[0])
        k = rng.choice([2, 3, 3, 4])
        return self._join([t for _, t in cands[:k]])

    def retreat_press(self, log: PhaseLog) -> str:
        if self.rng.random() < 0.5:
            return ""
        d = log.before.dislodged[0]
        return self._join([self.w.press("dislodged", d.unit.power, d.by_power, prov=_place(d.unit.province))])

    def winter_press(self, log: PhaseLog) -> str:
        items = []
        pos = log.before
        for p, n in sorted(log.due.items(), key=lambda t: -abs(t[1])):
            if len(items) >= 2:
                break
            if n >= 2 or (n > 0 and self.rng.random() < 0.3):
                home = [c for c in sorted(HOME[p]) if pos.owners.get(c) == p]
                units = "One new unit" if n == 1 else f"{_count_word(n)} new units"
                items.append(self.w.press("builds", p, self.neighbour(p, pos), units=units,
                                          prov=_place(self.rng.choice(home))))
            elif n < 0 and p not in log.nmr and self.rng.random() < 0.6:
                items.append(self.w.press("removals", p, self.neighbour(p, pos)))
        # farewells for powers that were just eliminated
        for p in POWERS:
            if pos.units_of(p) and not pos.centres_of(p) and self.rng.random() < 0.9:
                taker = self.last_taker(p)
                items.append(self.w.press("eliminated", p, taker or "All"))
        return self._join(items)

    def last_taker(self, power: str) -> str | None:
        for log in reversed(self.sim.log):
            for c, old, new in log.changes:
                if old == power:
                    return new
        return None

    def border(self, pos: Position, a: str, b: str) -> str:
        """A province between two powers, for press about them."""
        best = None
        for p in sorted(BOARD.provinces):
            if p in SEAS:
                continue
            da = min((ANY_DIST[p].get(h, 99) for h in HOME[a]), default=99)
            db = min((ANY_DIST[p].get(h, 99) for h in HOME[b]), default=99)
            key = (max(da, db), abs(da - db), p)
            if best is None or key < best[0]:
                best = (key, p)
        return best[1]

    def stab_target(self, log: PhaseLog, a: str, b: str) -> str | None:
        for o in log.orders.get(a, []):
            if isinstance(o, Move):
                prov = province_of(o.dest)
                occ = log.before.unit_at(prov)
                if (occ is not None and occ.power == b) or log.before.owners.get(prov) == b:
                    return prov
        return None

    def notes(self, log: PhaseLog, i: int) -> str:
        w, rng = self.w, self.rng
        out = []
        for power, text, why in log.misorders:
            out.append(w.note("misorder", power=power, text=text, why=why, why_cap=why[0].upper() + why[1:]))
        if log.phase.kind == "adjustments":
            for p in log.nmr:
                removed = [r.order.format(BOARD).replace("Remove ", "") for r in log.results
                           if r.power == p and r.default]
                out.append(w.note("cd_removal", power=p, units=_and_words(removed)))
        else:
            for p in log.nmr:
                out.append(w.note("nmr", power=p))
        if log.phase.slug in self.replacements:
            power, old, new = self.replacements[log.phase.slug]
            out.append(w.note("replaced", power=power, old=old, new=new))
        for p in POWERS:
            if (log.before.units_of(p) or log.before.centres_of(p)) and not (log.after.units_of(p) or log.after.centres_of(p)):
                out.append(w.note("eliminated", power=p, player=self.player(p, log.phase)))
        if log.phase.kind == "retreats" and rng.random() < 0.3:
            out.append(w.note("retreats"))
        if log.phase.kind == "movement" and not log.nmr and not out and rng.random() < 0.25:
            late = rng.choice([p for p in POWERS if log.before.units_of(p)])
            out.append(w.note("all_in", late=late))
        if i == 1 or (rng.random() < 0.08):
            out.append(w.note("press"))
        if rng.random() < 0.12:
            out.append(w.note("misc_winter" if log.phase.kind == "adjustments" else "misc"))
        if self.s.draw_after and not self.draw_proposed and log.phase.kind == "movement":
            end = Phase.from_slug(self.s.draw_after)
            if log.phase.year == end.year - 1 and log.phase.season_index == 1:
                alive = [p for p in POWERS if log.after.units_of(p)]
                big = sorted(alive, key=lambda p: -len(log.after.centres_of(p)))[:3]
                out.append(w.note("draw_proposal", powers=_and_words(sorted(big))))
                self.draw_proposed = True
        nxt = self.next_phase(i)
        if nxt is not None and (rng.random() < 0.3 or not out):
            out.append(w.note("deadline", next=nxt.name, when=rng.choice(self.s.deadlines)))
        return self._join(out)

    def next_phase(self, i: int) -> Phase | None:
        logs = self.sim.log
        if i + 1 < len(logs):
            return logs[i + 1].phase
        return self.sim.pos.phase if self.sim.result is None else None


def _count_word(n: int) -> str:
    return {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five"}.get(n, str(n))


def _public_name(phase: Phase) -> str:
    """A hidden game's public notes name only the next public turn, never a retreat or an
    adjustment phase (that would tell everyone that someone was dislodged, or adjusts)."""
    if phase.kind == "movement":
        return phase.name
    return (Phase(phase.year, 1) if phase.season_index == 0 else Phase(phase.year + 1, 0)).name


def _and_words(items) -> str:
    items = list(items)
    if not items:
        return "nothing"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ====================================================================== files

def _scalar(text: str) -> str:
    """A YAML scalar for one order line: plain when YAML reads it back unchanged."""
    try:
        if yaml.safe_load(f"- {text}") == [text]:
            return text
    except yaml.YAMLError:
        pass
    return json.dumps(text)


def _block(text: str, indent: int) -> str:
    pad = " " * indent
    return "|\n" + "".join((pad + line if line.strip() else "") + "\n" for line in text.rstrip("\n").split("\n"))


def phase_yaml(log: PhaseLog, blocks: set) -> str:
    out = []
    if log.placement:
        out.append("placement:\n")
        for power in POWERS:
            if power in log.placement:
                out.append(f"  {power}: [{', '.join(log.placement[power])}]\n")
    if log.spies:
        out.append("spies:\n")
        for power in POWERS:
            if power in log.spies:
                out.append(f"  {power}: [{', '.join(log.spies[power])}]\n")
    if log.texts:
        out.append("orders:\n")
        for power in POWERS:
            if power not in log.texts:
                continue
            lines = log.texts[power]
            if power in blocks and lines:
                out.append(f"  {power}: " + _block("\n".join(lines), 4))
            elif not lines:
                out.append(f"  {power}: []\n")
            else:
                out.append(f"  {power}:\n" + "".join(f"    - {_scalar(t)}\n" for t in lines))
    else:  # nobody sent orders: an empty mapping would be an error (taken for a mistake)
        out.append("orders:\n" + "".join(f"  {power}: []\n" for power in POWERS))
    if log.press:
        out.append("press: " + _block(log.press, 2))
    if log.notes:
        out.append("notes: " + _block(log.notes, 2))
    return "".join(out)


def game_yaml(sim: Sim) -> str:
    s = sim.s
    out = [f"title: {_scalar(s.title)}\n", f"variant: {s.variant}\n", f"gm: {_scalar(s.gm)}\n", "start: 1901\n"]
    out.append("description: " + _block(s.description, 2))
    out.append("players:\n")
    for power in POWERS:
        who = s.players[power]
        if isinstance(who, str):
            out.append(f"  {power}: {_scalar(who)}\n")
        else:
            out.append(f"  {power}:\n    - name: {_scalar(who[0])}\n")
            for name, since in who[1:]:
                out.append(f"    - name: {_scalar(name)}\n      from: {since}\n")
    if sim.result and sim.result[0] == "draw":
        powers = sim.result[1]
        last = sim.log[-1].phase
        out.append("end:\n")
        out.append(f"  draw: [{', '.join(powers)}]\n")
        out.append(f"  phase: {last.slug}\n")
        out.append("  note: " + _scalar(f"The survivors agreed a {len(powers)}-way draw after {last.name}.") + "\n")
    return "".join(out)


def render(sim: Sim) -> dict[str, str]:
    files = {"game.yml": game_yaml(sim)}
    for log in sim.log:
        files[f"{log.phase.slug}.yml"] = phase_yaml(log, set(sim.s.blocks))
    for name, text in files.items():
        data = yaml.safe_load(text)
        assert isinstance(data, dict), name
    return files


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hand_edited(folder: Path) -> list[str]:
    """Files in `folder` that differ from what this script last wrote there ([] if untouched)."""
    if not folder.exists():
        return []
    manifest = folder / MANIFEST
    present = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != MANIFEST)
    if not manifest.exists():
        return present or []
    known = json.loads(manifest.read_text(encoding="utf-8"))["files"]
    changed = [n for n in present if n not in known or _sha((folder / n).read_text(encoding="utf-8")) != known[n]]
    changed += [n for n in known if n not in present]
    return sorted(changed)


def write_folder(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    manifest = folder / MANIFEST
    for stale in sorted(folder.glob("*.y*ml")):  # phase files this run does not write would break the game
        if stale.name not in files:
            stale.unlink()
    if manifest.exists():
        for name in json.loads(manifest.read_text(encoding="utf-8"))["files"]:
            if name not in files and (folder / name).exists():
                (folder / name).unlink()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    manifest.write_text(json.dumps({"generator": "tools/example_games.py",
                                    "files": {n: _sha(t) for n, t in sorted(files.items())}}, indent=1) + "\n",
                        encoding="utf-8")


# ====================================================================== checking what was written

def feature_counts(history) -> Counter:
    """Counts of the things an example game must show, read from dipgen's own replay."""
    c: Counter = Counter()
    for rec in history.records:
        kind = rec.phase.kind
        c["press"] += bool(rec.press.strip())
        c["notes"] += bool(rec.notes.strip())
        c["nmr"] += len(rec.nmr)
        if kind == "movement":
            c["dislodgements"] += len(rec.dislodged) + len(rec.destroyed)
            moved = {r.unit.province: r for r in rec.results if isinstance(r.order, Move) and r.unit}
            convoying = Counter((r.order.target.province, r.order.dest) for r in rec.results
                                if isinstance(r.order, Convoy) and r.succeeded)
            beaten = {d.attacker_from for d in rec.dislodged + rec.destroyed}
            for r in moved.values():
                if r.succeeded and r.unit.kind == "A" and not reaches(r.unit, province_of(r.order.dest)):
                    c["convoys"] += 1
                    if convoying[(r.unit.province, r.order.dest)] >= 2:
                        c["multi_fleet_convoys"] += 1
            for r in rec.results:
                if isinstance(r.order, Support) and r.order.dest and r.succeeded and r.order.target.province in beaten:
                    c["supported_attacks"] += 1
        elif kind == "retreats":
            for r in rec.results:
                if isinstance(r.order, Retreat) and r.succeeded:
                    c["retreats"] += 1
                if isinstance(r.order, Disband) and not r.default:
                    c["disbands"] += 1
        else:
            for r in rec.results:
                if isinstance(r.order, Build) and r.succeeded:
                    c["builds"] += 1
                if isinstance(r.order, Remove) and r.succeeded:
                    c["removals"] += 1
                    if r.default:
                        c["cd_removals"] += 1
    pos = history.position
    c["eliminated"] = sum(1 for p in POWERS if not pos.units_of(p) and not pos.centres_of(p))
    c["years"] = history.records[-1].phase.year - history.records[0].phase.year + 1 if history.records else 0
    c["warnings"] = len(history.warnings)
    return c


def summary(history, sim: Sim | None = None) -> str:
    lines = [f"{history.game.slug}: {history.game.title}"]
    lines.append("  " + (history.result_line() or f"running, waits for {history.next_phase.name}"))
    table = history.centre_table()
    lines.append("  " + "         " + " ".join(f"{str(y)[2:]:>3}" for y, _ in table))
    for p in POWERS:
        lines.append(f"  {p:<9}" + " ".join(f"{counts.get(p, 0):>3}" for _, counts in table))
    c = feature_counts(history)
    keys = ["years", "convoys", "multi_fleet_convoys", "supported_attacks", "dislodgements", "retreats", "disbands",
            "builds", "removals", "cd_removals", "nmr", "eliminated", "press", "notes", "warnings"]
    lines.append("  " + ", ".join(f"{k} {c[k]}" for k in keys))
    if history.game.variant.name == "stab":
        sc = stab_counts(history)
        lines.append("  contacts: " + ", ".join(f"{k} {sc[k]}" for k in STAB_KEYS))
    if history.game.variant.name == "blind":
        bc = blind_counts(history)
        lines.append("  spies: " + ", ".join(f"{k} {bc[k]}" for k in BLIND_KEYS))
        lines.append("  contacts: " + ", ".join(f"{k} {bc[k]}" for k in
                                                ("attack_found", "attack_received", "meetings", "spy_reports", "destroyed")))
    if sim is not None:
        stabs = [(ph, a, b) for ph, evs in sorted(sim.s.events.items()) for k, a, b in evs if k == "stab"]
        lines.append("  stabs: " + "; ".join(f"{a} stabs {b} ({Phase.from_slug(ph).name})" for ph, a, b in stabs))
    return "\n".join(lines)


# ====================================================================== Stab!

def placed_position(variant, placement: dict) -> Position:
    """The opening position of a Stab! game from its placement, read by the variant itself."""
    from dipgen.game import PhaseFile

    first = Phase(1901, 0)
    pf = PhaseFile(first, Path("1901-spring.yml"), {}, {}, extra={"placement": placement})
    game = type("Placed", (), {"start": 1901, "phases": {first: pf}})()
    return variant.initial_position(game)


def contact_kinds(rec) -> Counter:
    """The kinds of contact a Stab! movement phase shows (rec: a PhaseLog or a PhaseRecord), by
    dipgen's own `contacts`: who touched a foreign unit, and whose orders were disputed."""
    touched, disputed = contacts(rec)
    unit_at = {u.province: u for u in rec.before.units}
    eff = [r for r in rec.results if r.effective]
    moves = [r for r in eff if isinstance(r.order, Move) and not r.has("no_convoy")]
    moved = {m.unit.province for m in moves if m.succeeded}
    by_dest = defaultdict(list)
    for m in moves:
        by_dest[province_of(m.order.dest)].append(m)
    c: Counter = Counter()
    for m in moves:
        there = unit_at.get(province_of(m.order.dest))
        if there is not None and there.power != m.power and m.unit in touched and there in touched:
            c["direct"] += 1
    for dest, ms in by_dest.items():
        there = unit_at.get(dest)
        if len({m.power for m in ms}) >= 2 and (there is None or dest in moved):
            c["same_space"] += 1
            if there is None and not any(m.succeeded for m in ms):
                c["empty_bounce"] += 1
    for r in eff:
        if isinstance(r.order, Support) and r.unit in disputed:
            if r.has("cut"):
                c["cut"] += 1
            elif r.succeeded and unit_at.get(r.order.target.province) in touched:
                c["support_contact"] += 1
        if isinstance(r.order, Convoy) and r.unit in disputed:
            if unit_at.get(r.order.target.province) in touched:
                c["convoy_contact"] += 1
            elif r.unit in touched:
                c["convoy_attacked"] += 1
        if isinstance(r.order, Move) and any(n.kind == "bounce" and n.why == "self-standoff" for n in r.notes):
            c["self_standoff"] += 1
            c["self_standoff_shown"] += r.unit in disputed
    c["hidden_orders"] = sum(1 for r in eff if r.unit not in disputed)
    return c


STAB_KEYS = ("direct", "empty_bounce", "same_space", "support_contact", "convoy_contact", "cut", "convoy_attacked",
             "self_standoff", "self_standoff_shown", "hidden_orders", "destroyed")


def stab_counts(history) -> Counter:
    c: Counter = Counter()
    for rec in history.records:
        if rec.phase.kind == "movement":
            c.update(contact_kinds(rec))
            c["destroyed"] += len(rec.destroyed)
    return c


# Press in a hidden game is public: it may say only what the public report shows (revealed
# orders, dislodgements, NMRs, centre totals), diplomacy, rumour and bluster. {prov} slots are
# filled from the public report (or a home centre at the end), never from where units really are.
STAB_PRESS = {
    "opening": [
        "{me} to All: Nobody can see anybody in this game. We intend to be the nobody you should have looked for.",
        "{me} to {you}: I won't ask where you placed your units if you don't ask where I placed mine.",
        "{me} to All: Our placement was made by a committee of generals and one very confident admiral.",
        "{me} to {you}: A blind board is a trusting board. Or a very nervous one. Let's be the first kind.",
        "{me} to All: Good luck, everyone. You'll need it more than usual: the lights are off.",
        "{me} to {you}: Tell me roughly where your border units are and I'll tell you roughly where mine aren't.",
    ],
    "ally": [
        "{me} to {you}: Agreed. Our border stays empty, and if either of us finds a unit on it, we talk before we shoot.",
        "{me} to All: {me} and {you} have signed a pact of friendship. Where our armies stand remains a private matter.",
        "{me} to {you}: I'll tell you where my fleets are if you tell me where yours are. On three.",
        "{me} to {you}: Our ambassadors have drunk the embassy dry. I take that as a yes.",
        "{me} to {you}: Good talk last night. Same time next season, same lies to everyone else?",
    ],
    "war": [
        "{me} to {you}: You know why. Don't pretend you don't.",
        "{me} to All: {me} regrets that {you} has left us no choice.",
        "{me} to All: The {adj} government has recalled its ambassador from {you}.",
        "{me} to {you}: Nothing personal. Well, a little personal.",
        "{me} to All: Mobilisation orders have gone out. Where to is nobody's business but ours.",
        "{me} to {you}: Your emails say peace. The GM's report says something else.",
    ],
    "stab_lie": [
        "{me} to {you}: All quiet on our side of the border, exactly as we agreed.",
        "{me} to {you}: Same orders as last season. You have my word.",
        "{me} to {you}: Honestly, you could leave the border empty this time. Nobody's coming.",
        "{me} to {you}: You can't see my units and I can't see yours. That's what trust is for.",
        "{me} to {you}: Our friendship is the one fixed point on this board.",
    ],
    "stab_outrage": [
        "{me} to {you}: Really. After everything.",
        "{me} to All: For the record: {you} swore the night before the deadline that we were safe. Choose your allies accordingly.",
        "{me} to {you}: I hope it was worth it.",
        "{me} to All: {you} is a liar and I have the emails to prove it.",
        "{me} to {you}: Well played, I suppose. You'll regret it by {year}.",
        "{me} to All: Anyone who wants to help us teach {you} a lesson, my inbox is open.",
    ],
    "stab_excuse": [
        "{me} to {you}: You'd have done the same by next year. I just got there first.",
        "{me} to All: {me} has secured its border. No further comment.",
        "{me} to {you}: Let's not make this personal. Talk to me in the winter.",
        "{me} to All: Alliances are seasonal. So is the weather.",
    ],
    "dislodged": [
        "{me} to {you}: Was that really necessary in {prov}?",
        "{me} to All: Our garrison in {prov} withdrew in perfect order. Where to, we're not saying.",
        "{me} to {you}: Point taken about {prov}. What do you want?",
        "{me} to All: We have been pushed out of {prov}. We will be back, and you won't see us coming.",
        "{me} to {you}: That was a lot of units to bring to {prov} just for us. Flattered.",
        "{me} to {you}: Shall we talk about {prov} before it happens again?",
    ],
    "dislodger": [
        "{me} to {you}: Nothing personal about {prov}. We just needed the room.",
        "{me} to All: As the report says: {prov} has changed hands, and the previous tenant has left no forwarding address.",
        "{me} to {you}: You'll get a letter from the GM about {prov}. So did we.",
    ],
    "bounce": [
        "{me} to {you}: We both seem to have wanted {prov}. Shall we both not want it next time?",
        "{me} to {you}: Fancy meeting you in {prov}. In the dark, too.",
        "{me} to {you}: That bounce in {prov} was a misunderstanding, surely?",
        "{me} to All: Traffic in {prov} was heavy this season. Nobody got through, and now everybody knows it.",
        "{me} to {you}: DMZ in {prov}? Proposed in good faith, and this time let's both mean it.",
    ],
    "held": [
        "{me} to {you}: Our unit in {prov} sends its regards. It isn't going anywhere.",
        "{me} to {you}: Knock before you come into {prov} next time.",
        "{me} to All: Someone tried the door in {prov}. It was locked.",
    ],
    "cut": [
        "{me} to All: {you}'s unit in {prov} was supporting something, and then it wasn't. What, we wonder?",
        "Anonymous to All: Ask {you} what that support from {prov} was for. Go on, ask.",
        "{me} to {you}: Sorry about the support in {prov}. Or not sorry. It depends what it was for.",
    ],
    "convoy_seen": [
        "{me} to All: The report shows one of {you}'s fleets convoying in {prov}. Convoying whom, and where to? Answers on a postcard.",
        "Anonymous to All: A fleet in {prov} was carrying something last season. Coastal towns, lock your doors.",
    ],
    "convoy": [
        "{me} to All: The navy delivers. {prov}, meet the army.",
        "{me} to All: Seaborne and seasick, our army is ashore in {prov}. Yes, it was in the report. We wanted you to know.",
    ],
    "thanks": [
        "{me} to {you}: Thanks for the support into {prov}. I owe you one.",
        "{me} to {you}: Textbook. That support into {prov} was worth a hundred emails.",
        "{me} to {you}: Couldn't have done {prov} without you. Next one's on me.",
    ],
    "self_standoff": [
        "{me} to All: Has anyone else noticed {you}'s units queuing politely outside {prov}? After you. No, after you.",
        "Anonymous to All: The report has {you} bouncing off itself at {prov}. The fog is thicker than we thought.",
    ],
    "totals_up": [
        "{me} to All: {you} is up {n} and nobody saw a thing. I'd like to know where from.",
        "Anonymous to All: {you} gained {n} last year. Check your centres, everyone. Then check them again.",
        "{me} to {you}: Congratulations on the new centres. Whose were they, out of interest?",
    ],
    "totals_down": [
        "{me} to All: We are down {n}. We know who. Do you?",
        "{me} to All: Somebody has been in our larder. The GM's letter was very informative.",
        "{me} to All: The loss of a centre is a temporary arrangement.",
    ],
    "rumour": [
        "Anonymous to All: Someone on this board has promised the same centre to three different people.",
        "Anonymous to All: Watch the quiet ones. In this game they're all quiet.",
        "{me} to All: We hear {you} has been building fleets. We also hear {you} has been building armies. We hear a lot.",
        "Anonymous to All: Three powers have asked me where {you}'s armies are. I don't know either.",
        "{me} to {you}: My spies say you're coming for us. My other spies say you're not. I've fired them both.",
        "{me} to All: The {adj} Gazette reports record harvests and absolutely no troop movements. None. Don't look.",
        "{me} to {you}: Did you get my last email? The one with the map? Ignore the arrows, it's a decoy.",
        "Anonymous to All: The GM sends longer letters to some of you than to others. Draw your own conclusions.",
        "{me} to All: If you found one of our units where you didn't expect it, so did we.",
        "{me} to {you}: Is it just me or is it very crowded out there? I keep bumping into things.",
        "{me} to All: Our foreign minister is on holiday. Please address all threats to the Minister of Agriculture.",
        "{me} to {you}: Serious question: where do you think everyone is? I'll show you my guess if you show me yours.",
        "{me} to All: Rumours of a secret treaty are false. The treaty is not secret. Everything else is.",
        "{me} to {you}: Still friends? Just checking. It's hard to tell in the dark.",
    ],
    "leader": [
        "{me} to All: Has anyone else counted {you}'s centres lately? I have. It's {n}, and we can't even see where they are.",
        "{me} to All: A friendly reminder that 18 is the number, and {you} is at {n}.",
        "{me} to {you}: {n} centres is a lot of centres. Some of us are getting nervous.",
        "{me} to All: Stop the leader. I'm not saying who. It's {you}.",
    ],
    "nmr": [
        "{me} to {you}: Everything all right over there? The report says you sent nothing.",
        "{me} to All: {you}'s units stood still all season, wherever they are. Either genius or holiday.",
        "{me} to {you}: Missed you this turn.",
    ],
    "builds": [
        "{me} to All: New units this winter. Purely defensive, naturally. Where? Defensive places.",
        "{me} to All: Our shipyards and barracks thank the taxpayers.",
        "{me} to {you}: Don't read anything into the new units. Really.",
        "{me} to All: Growth is good. More growth is better. Telling you where would be bad.",
    ],
    "removals": [
        "{me} to All: We are consolidating. Strategically.",
        "{me} to {you}: You'll notice I'm smaller. You won't notice where.",
        "{me} to All: Our empire is not shrinking. It is becoming harder to find.",
    ],
    "disband": [
        "{me} to All: One of our units has been stood down with honour. Yes, the report says so. No, we won't say which.",
        "{me} to All: We had a unit with nowhere it wanted to go. It has gone home. All the way home.",
    ],
}
STAB_PRESS["draw_end"] = [
    "{me} to All: Thank you all. It was a long road from {prov}, most of it in the dark. I look forward to finding out where everyone actually was.",
    "{me} to All: A fair result. I'd have liked one more year, but I'd have liked to see the board too.",
    "{me} to All: Thanks to the GM for all those private letters, and to everyone who kept the press coming when nobody knew anything.",
]
STAB_PRESS["survivor"] = [
    "{me} to All: Not in the draw, but still here. You never did find all of us.",
    "{me} to All: We survived to the end, which in a game like this is a kind of victory. A small one.",
]
for _cat in ("eliminated", "eulogy", "endgame", "endgame_winner", "draw", "propaganda"):
    STAB_PRESS[_cat] = PRESS[_cat]

STAB_NOTES = {
    "deadline": NOTES["deadline"][:3] + NOTES["deadline"][4:],
    "nmr": [
        "No orders from {power} (NMR). Its units held; the report shows them only where something came into contact with them.",
        "{power} did not send orders this season (NMR).",
        "Nothing from {power} by the deadline. I've written to the player.",
    ],
    "cd_removal": [
        "No winter orders from {power} (NMR). I applied the civil-disorder rule and have told {power}'s player what it did.",
    ],
    "ruling": [
        "A reminder of how the report works: you see an order only when it came into contact with a foreign unit. A support that was cut is shown as cut, and nothing more.",
        "Two of you asked: a convoying fleet that is attacked is reported as convoying, but the army and where it was going are not.",
        "Retreats are not published. Each attacker has been told privately where the units it dislodged went.",
        "Private reports went out with this adjudication: your units, your centres, and anything that walked into them.",
        "Ruling: a self-standoff is reported only where a foreign unit was involved. If the report shows a power bumping into itself, that is why.",
        "Orders that could not be carried out are not reported, publicly or privately to anyone else. Check your private report.",
        "Centre totals are published before each winter; who owns which centre is not. Your own list is in your private report.",
        "Builds and removals are private. The totals tell you who could build; they don't tell you what or where.",
    ],
    "placement": [
        "Placements came in with the Spring 1901 orders and are not published. Everyone placed legally. Whether England took up its special option, you'll find out at the end.",
    ],
    "all_in": NOTES["all_in"][:3],
    "replaced": NOTES["replaced"],
    "eliminated": NOTES["eliminated"],
    "retreats": ["Retreats adjudicated as received. Their results went to the players concerned."],
    "misc": [
        "Apologies for the late adjudication; my internet went down on Sunday.",
        "If you spot a mistake in your private report, tell me before the next deadline.",
        "Two people asked about conditional orders: I don't take them. One set per season, please.",
        "The public map shows only what the reports revealed. It is not the board.",
    ],
    "draw_proposal": NOTES["draw_proposal"],
}


class StabWriter(Writer):
    def press(self, cat: str, me: str, you: str = "All", **slots) -> str:
        text = self.pick(STAB_PRESS, cat)
        line = text.format(me=CAPITAL.get(me, me), you=CAPITAL.get(you, you),
                           adj=ADJ.get(me, me), youadj=ADJ.get(you, you), **slots)
        head, _, body = line.partition(": ")
        return f"**{head}:** {body}" if self.style == "bold" else f"*{head}:* {body}"

    def note(self, cat: str, **slots) -> str:
        return self.pick(STAB_NOTES, cat).format(**slots)


def public_news(pub) -> dict:
    """What the public report of a movement phase (its public view) shows, in press terms."""
    ev = {k: [] for k in ("bounces", "held", "dislodged", "cut", "convoy_seen", "convoys", "thanks", "self")}
    shown = {}
    for r in pub.results:
        if r.unit is not None:
            shown[r.unit.province] = r
    for r in pub.results:
        o = r.order
        if isinstance(o, Move):
            dest = province_of(o.dest)
            for n in r.notes:
                if n.kind != "bounce":
                    continue
                if n.why == "self-standoff":
                    ev["self"].append((r.power, dest))
                for q in n.against:
                    other = shown.get(q)
                    if other is None or other.power == r.power:
                        continue
                    if n.why == "standoff" and isinstance(other.order, Move) and province_of(other.order.dest) == dest \
                            and r.power < other.power:
                        ev["bounces"].append((r.power, other.power, dest))
                    elif n.why == "held" and q == dest:
                        ev["held"].append((other.power, r.power, dest))
            if r.succeeded and r.unit.kind == "A" and not reaches(r.unit, dest):
                ev["convoys"].append((r.power, dest))
        elif isinstance(o, Concealed):
            if o.verb == "S" and r.has("cut"):
                ev["cut"].append((r.power, r.unit.province))
            elif o.verb == "C":
                ev["convoy_seen"].append((r.power, r.unit.province))
        elif isinstance(o, Support):
            if o.dest and r.succeeded:
                target = shown.get(o.target.province)
                if target is not None and target.power != r.power and target.succeeded:
                    ev["thanks"].append((target.power, r.power, province_of(o.dest)))
    for d in pub.dislodged + pub.destroyed:
        ev["dislodged"].append((d.unit.power, d.by_power or "All", d.unit.province))
    return ev


class StabComposer(Composer):
    """Press and notes for a Stab! game: everything said in public keeps to the public report."""

    def __init__(self, sim: Sim, history, rng: random.Random, style: str):
        super().__init__(sim, rng, style)
        from dipgen.visibility import view_record

        self.w = StabWriter(rng, style)
        self.public = [view_record(history, rec, "public") for rec in history.records]
        assert [r.phase for r in history.records] == [lg.phase for lg in sim.log]

    def compose(self) -> None:
        logs = self.sim.log
        last_move = None
        for i, log in enumerate(logs):
            if log.phase.kind == "movement":
                log.press = self.stab_movement_press(i, last_move)
                last_move = i
            elif log.phase.kind == "retreats":
                log.press = self.stab_retreat_press(i)
            else:
                log.press = self.stab_winter_press(log)
            log.notes = self.stab_notes(log, i)
        self.finish()

    def stab_movement_press(self, i: int, j: int | None) -> str:
        log = self.sim.log[i]
        pos = log.before
        w, rng = self.w, self.rng
        alive = [p for p in POWERS if pos.units_of(p)]
        cands = []
        if log.phase == Phase(1901, 0):
            for p in rng.sample(alive, 3):
                cands.append((5, w.press("opening", p, self.neighbour(p, pos))))
        for kind, a, b in log.events:
            prov = _place(self.border(pos, a, b))
            if kind == "ally":
                cands.append((6, w.press("ally", a, b, prov=prov)))
            elif kind == "war":
                cands.append((6, w.press("war", a, b)))
            elif kind == "stab":
                cands.append((7, w.press("stab_lie", a, b, prov=prov)))
        if j is not None:
            last = self.sim.log[j]
            for kind, a, b in last.events:
                if kind == "stab":
                    cands.append((8, w.press("stab_outrage", b, a, year=pos.phase.year + 1)))
                    if rng.random() < 0.6:
                        cands.append((4, w.press("stab_excuse", a, b)))
            ev = public_news(self.public[j])
            for victim, attacker, prov in ev["dislodged"][:2]:
                if pos.units_of(victim) and rng.random() < 0.6:
                    cands.append((3 + rng.random(), w.press("dislodged", victim, attacker, prov=_place(prov))))
                elif attacker != "All" and pos.units_of(attacker) and rng.random() < 0.5:
                    cands.append((3 + rng.random(), w.press("dislodger", attacker, victim, prov=_place(prov))))
            for a, b, prov in ev["bounces"][:2]:
                if rng.random() < 0.6:
                    cands.append((3 + rng.random(), w.press("bounce", a, b, prov=_place(prov))))
            for d, a, prov in ev["held"][:1]:
                if rng.random() < 0.4:
                    cands.append((2 + rng.random(), w.press("held", d, a, prov=_place(prov))))
            for p, prov in ev["cut"][:1]:
                others = [x for x in alive if x != p]
                if others and rng.random() < 0.6:
                    cands.append((3 + rng.random(), w.press("cut", rng.choice(others), p, prov=_place(prov))))
            for p, prov in ev["convoy_seen"][:1]:
                others = [x for x in alive if x != p]
                cands.append((4 + rng.random(), w.press("convoy_seen", rng.choice(others), p, prov=_place(prov))))
            for p, prov in ev["convoys"][:1]:
                cands.append((4 + rng.random(), w.press("convoy", p, "All", prov=_place(prov))))
            for mover, helper, prov in ev["thanks"][:1]:
                if rng.random() < 0.7:
                    cands.append((4 + rng.random(), w.press("thanks", mover, helper, prov=_place(prov))))
            for p, prov in ev["self"][:1]:
                others = [x for x in alive if x != p]
                cands.append((4 + rng.random(), w.press("self_standoff", rng.choice(others), p, prov=_place(prov))))
            if last.nmr and rng.random() < 0.8:
                p = last.nmr[0]
                q = self.neighbour(p, pos)
                if q != "All":
                    cands.append((3, w.press("nmr", q, p)))
            for p in POWERS:
                if last.before.units_of(p) and not pos.units_of(p) and not pos.centres_of(p):
                    cands.append((5, w.press("eulogy", rng.choice([x for x in alive if x != p]), p)))
            if ev["dislodged"] and rng.random() < 0.25:
                _, who, prov = ev["dislodged"][0]
                if who != "All" and pos.units_of(who):
                    cands.append((3.5, w.press("propaganda", who, prov=_place(prov))))
        if pos.phase.season_index == 0 and pos.phase.year > 1901:
            # the centre totals published before the winter, against the year before
            now = pos.centre_counts(POWERS)
            before = self.totals_before(pos.phase.year - 1)
            ups = sorted((now[p] - before[p], p) for p in POWERS if now[p] > before[p])
            downs = sorted((now[p] - before[p], p) for p in POWERS if now[p] < before[p] and pos.units_of(p))
            if ups and rng.random() < 0.7:
                n, p = ups[-1]
                others = [x for x in alive if x != p]
                cands.append((3 + rng.random(), w.press("totals_up", rng.choice(others), p, n=_count_word(n).lower())))
            if downs and rng.random() < 0.5:
                n, p = downs[0]
                cands.append((3 + rng.random(), w.press("totals_down", p, n=_count_word(-n).lower())))
        counts = pos.centre_counts(POWERS)
        leader = max(POWERS, key=lambda p: (counts[p], p))
        if counts[leader] >= 10 and rng.random() < 0.6:
            other = self.neighbour(leader, pos)
            if other != "All":
                cands.append((5, w.press("leader", other, leader, n=counts[leader])))
        if self.s.draw_after:
            end = Phase.from_slug(self.s.draw_after)
            if end.year - pos.phase.year <= 1 and rng.random() < 0.6:
                p = rng.choice(alive)
                cands.append((4, w.press("draw", p, self.neighbour(p, pos))))
        while len(cands) < 2 or rng.random() < 0.35:
            p = rng.choice(alive)
            cands.append((1 + rng.random(), w.press("rumour", p, self.neighbour(p, pos))))
        cands.sort(key=lambda c: -c[0])
        return self._join([t for _, t in cands[:rng.choice([2, 3, 3, 4])]])

    def finish(self) -> None:
        if self.sim.result is None:
            return self.standings()
        kind, powers = self.sim.result
        if kind == "solo":
            return super().finish()
        log = self.sim.log[-1]
        items = []
        for p in self.rng.sample(powers, 2):
            items.append(self.w.press("draw_end", p, "All", prov=_place(sorted(HOME[p])[0])))
        out = [p for p in POWERS if p not in powers and log.after.centres_of(p)]
        if out:
            items.append(self.w.press("survivor", out[0], "All"))
        note = (f"The draw proposal ({_and_words(powers)}) passed unanimously. The game ends after "
                f"{log.phase.name}. Thank you all. The full game, every unit and every order, is now "
                "published beside the blind reports.")
        log.press = (log.press + "\n" if log.press else "") + self._join(items)
        log.notes = (log.notes + "\n" if log.notes else "") + note + "\n"

    def totals_before(self, year: int) -> dict:
        """The centre totals published before the winter of `year` (the opening ones before 1901)."""
        for log in self.sim.log:
            if log.phase.year == year and log.after.phase.kind == "adjustments":
                return log.after.centre_counts(POWERS)
        return self.sim.log[0].before.centre_counts(POWERS)

    def stab_retreat_press(self, i: int) -> str:
        log = self.sim.log[i]
        pub = self.public[i]
        if self.rng.random() < 0.4:
            return ""
        disbands = [r for r in pub.results if isinstance(r.order, Disband)]
        if disbands and self.rng.random() < 0.6:
            return self._join([self.w.press("disband", disbands[0].power)])
        d = log.before.dislodged[0]  # that it was dislodged, and by whom, was in the public report
        return self._join([self.w.press("dislodged", d.unit.power, d.by_power, prov=_place(d.unit.province))])

    def stab_winter_press(self, log: PhaseLog) -> str:
        items = []
        pos = log.before
        for p, n in sorted(log.due.items(), key=lambda t: -abs(t[1])):
            if len(items) >= 2:
                break
            if n >= 2 or (n > 0 and self.rng.random() < 0.3):
                items.append(self.w.press("builds", p, self.neighbour(p, pos)))
            elif n < 0 and p not in log.nmr and self.rng.random() < 0.6:
                items.append(self.w.press("removals", p, self.neighbour(p, pos)))
        for p in POWERS:
            if pos.units_of(p) and not pos.centres_of(p) and self.rng.random() < 0.9:
                items.append(self.w.press("eliminated", p, self.neighbour(p, pos)))
        return self._join(items)

    def stab_notes(self, log: PhaseLog, i: int) -> str:
        w, rng = self.w, self.rng
        out = []
        if log.placement:
            out.append(w.note("placement"))
        if log.phase.kind == "adjustments":
            for p in log.nmr:
                out.append(w.note("cd_removal", power=p))
        else:
            for p in log.nmr:
                out.append(w.note("nmr", power=p))
        if log.phase.slug in self.replacements:
            power, old, new = self.replacements[log.phase.slug]
            out.append(w.note("replaced", power=power, old=old, new=new))
        for p in POWERS:
            if (log.before.units_of(p) or log.before.centres_of(p)) and not (log.after.units_of(p) or log.after.centres_of(p)):
                out.append(w.note("eliminated", power=p, player=self.player(p, log.phase)))
        if log.phase.kind == "retreats" and rng.random() < 0.4:
            out.append(w.note("retreats"))
        if log.phase.kind == "movement" and not log.nmr and not out and rng.random() < 0.2:
            out.append(w.note("all_in", late=rng.choice([p for p in POWERS if log.before.units_of(p)])))
        if (i in (1, 2) or rng.random() < 0.15) and log.phase.kind != "adjustments":
            out.append(w.note("ruling"))
        if rng.random() < 0.08:
            out.append(w.note("misc"))
        if self.s.draw_after and not self.draw_proposed and log.phase.kind == "movement":
            end = Phase.from_slug(self.s.draw_after)
            if log.phase.year == end.year - 1 and log.phase.season_index == 1:
                alive = [p for p in POWERS if log.after.units_of(p)]
                big = sorted(alive, key=lambda p: -len(log.after.centres_of(p)))[:3]
                out.append(w.note("draw_proposal", powers=_and_words(sorted(big))))
                self.draw_proposed = True
        nxt = self.next_phase(i)
        if nxt is not None and (rng.random() < 0.3 or not out):
            out.append(w.note("deadline", next=_public_name(nxt), when=rng.choice(self.s.deadlines)))
        return self._join(out)


# ====================================================================== Blind

BLIND = get_variant("blind")


def blind_start(spies: dict) -> Position:
    """The opening position of a Blind game, spies included, read by the variant itself from the
    first phase file's ``spies`` key (powers left out start in the capital and the next home centre)."""
    from dipgen.game import PhaseFile

    first = Phase(1901, 0)
    pf = PhaseFile(first, Path("1901-spring.yml"), {}, {}, extra={"spies": spies} if spies else {})
    game = type("Blind", (), {"start": 1901, "phases": {first: pf}})()
    return BLIND.initial_position(game)


def spy_text(order: Order, style: str) -> str:
    """A spy's order as a player with writing habit `style` might send it: ``S Par - Bur``,
    ``s par ce``, ``S Paris holds``..."""
    canon = order.format(BOARD)
    if style == "compact":
        return canon.replace(" - ", "-")
    if style == "lower":
        return canon.lower()
    if style == "arrows":
        return canon.replace(" - ", " -> ")
    if style in ("names", "wordy"):
        here = _full(order.unit.loc)
        if isinstance(order, Move):
            return f"S {here} - {_full(order.dest)}" if style == "names" else f"Spy {here} -> {_full(order.dest)}"
        if isinstance(order, CounterEspionage):
            return f"S {here} CE" if style == "names" else f"Spy {here} counter-espionage"
        return f"S {here} H" if style == "names" else f"Spy {here} holds"
    return canon


def spy_survivors(rec) -> list[Unit]:
    """The spies standing when a movement phase's spy turn ends, before any are lost or replaced
    at the end of the Fall turn (rec: a PhaseLog or a PhaseRecord)."""
    out = []
    for r in rec.results:
        if r.unit is None or r.unit.kind != "S" or r.has("destroyed"):
            continue
        moved = isinstance(r.order, Move) and r.succeeded
        out.append(Unit(r.power, "S", province_of(r.order.dest) if moved else r.unit.province))
    return out


def spy_kinds(rec, pieces_before_fall=None) -> Counter:
    """What the spies did in one phase (rec: a PhaseLog or a PhaseRecord of a Blind game): moves,
    holds, counter-espionage, kills (one in two hunters killing each other), and the spies lost
    and added when the Fall turn ended."""
    c: Counter = Counter()
    if rec.phase.kind == "movement":
        hunters = defaultdict(set)
        for r in rec.results:
            if r.unit is None or r.unit.kind != "S":
                continue
            o = r.order
            if isinstance(o, Move):
                c["spy_moves"] += r.succeeded
                c["spy_misorders"] += r.has("illegal")
            elif isinstance(o, CounterEspionage):
                c["counter_espionage"] += 1
                hunters[r.unit.province].add(r.power)
                c["ce_at_home"] += r.unit.province in HOME[r.power]
                c["ce_abroad"] += r.unit.province not in HOME[r.power]
            else:
                c["spy_holds"] += 1
            if r.has("destroyed"):
                c["spies_killed"] += 1
        dead = {(r.power, r.unit.province) for r in rec.results if r.unit is not None and r.unit.kind == "S"
                and r.has("destroyed")}
        c["mutual_kills"] += sum(1 for prov, ps in hunters.items()
                                 if len(ps) >= 2 and sum((p, prov) in dead for p in ps) >= 2)
        standing = spy_survivors(rec)
    else:
        standing = list(rec.before.pieces)
    if rec.phase.season_index == 1 and rec.after.phase.season_index == 2:  # the Fall turn ended
        added = Counter(s.power for s in (Counter(rec.after.pieces) - Counter(standing)).elements())
        lost = Counter(s.power for s in (Counter(standing) - Counter(rec.after.pieces)).elements())
        c["spies_added"] += sum(added.values())
        c["spies_lost"] += sum(lost.values())
        before, after = rec.before.owners, rec.after.owners
        for power, n in added.items():
            taken = sum(1 for p, cap in BLIND.capitals.items() if p != power and after.get(cap) == power
                        and before.get(cap) != power)
            c["spies_for_capitals"] += min(n, taken)
        for power, n in lost.items():
            cap = BLIND.capitals[power]
            c["spies_lost_with_capital"] += min(n, 1) if before.get(cap) == power and after.get(cap) != power else 0
    return c


class BlindSim(Sim):
    """A Blind game: nobody sees the board. Each player plans with what it knows: its own units,
    its allies' (they talk), and the foreign units its fights and its spies revealed (dipgen's own
    private view of each season), which it forgets again as they go stale. Spies scout toward
    enemy centres and fronts, sit in key places, and hunt enemy spies at home and abroad."""

    def __init__(self, script: Script):
        super().__init__(script)
        self.variant = BLIND
        self.pos = blind_start(script.spies)
        self.spy_rng = random.Random(script.seed * 53 + 11)
        self.memory: dict[str, dict[str, tuple[Unit, int]]] = {p: {} for p in POWERS}  # province -> (unit, when)
        self.tick = 0
        self.alarmed: set[str] = set()  # powers that lost a centre last Fall: their spies hunt at home

    # ----- what each power knows
    def believed(self, pos: Position, power: str) -> Position:
        units = [u for u in pos.units if u.power == power or self.rel.trusts(power, u.power)]
        taken = {u.province for u in units}
        for prov, (u, _) in sorted(self.memory[power].items()):
            if prov not in taken and not self.rel.trusts(power, u.power):
                units.append(u)
                taken.add(prov)
        return pos.with_(units=tuple(units))

    def forget(self) -> None:
        for power in POWERS:
            mem = self.memory[power]
            for prov in sorted(mem):
                _, when = mem[prov]
                if self.tick - when > 3 or (when < self.tick and self.fog_rng.random() < self.s.fog):
                    del mem[prov]

    def learn(self, log: PhaseLog) -> None:
        """Each power's private view of the season (dipgen's own rulings) updates what it knows."""
        from dipgen.history import PhaseRecord
        from dipgen.visibility import apply

        if log.phase.kind == "movement":
            rec = PhaseRecord(log.phase, log.before, {p: () for p in log.texts}, log.results, log.after,
                              log.dislodged, log.destroyed, log.changes)
            vis = BLIND.record_visibility(None, rec)
            for power in POWERS:
                view = apply(rec, vis, power)
                mem = self.memory[power]
                for u in view.before.units:
                    if u.power != power:
                        mem.pop(u.province, None)
                for u in list(log.after.units) + list(log.after.pieces):
                    if u.power == power:
                        mem.pop(u.province, None)  # its own units and spies see their province
                for u in view.after.units:
                    if u.power != power:
                        mem[u.province] = (u, self.tick)
        for c, old, new in log.changes:  # the GM tells a power which centres it lost, and to whom
            u = log.after.unit_at(c)
            if old is not None and u is not None and u.power == new:
                self.memory[old][c] = (u, self.tick)
        if log.phase.season_index == 1 and log.after.phase.season_index != 1:
            self.alarmed = {old for _, old, _ in log.changes if old is not None}

    def foes(self, pos: Position, power: str) -> set[str]:
        alive = [p for p in POWERS if p != power and (pos.units_of(p) or pos.centres_of(p))]
        war = {p for p in alive if self.rel.at_war(power, p)}
        return war or {p for p in alive if not self.rel.trusts(power, p)} or set(alive)

    # ----- spies
    def spy_orders(self, pos: Position, power: str) -> list[Order]:
        rng = self.spy_rng
        spies = sorted(p for p in pos.pieces if p.power == power)
        homes = {c for c in HOME[power] if pos.owners.get(c) == power}
        foes = self.foes(pos, power)
        targets: Counter = Counter()
        for c in CENTRES:
            owner = pos.owners.get(c)
            if owner in foes:
                targets[c] += 3 + (2 if c in HOME[owner] else 0)
        for u in self.believed(pos, power).units:
            if u.power in foes:
                targets[u.province] += 2
        claimed: set[str] = set()
        guarded = False
        out: list[Order] = []
        for spy in spies:
            here = spy.province
            ref = UnitRef("S", here)
            if here in homes and not guarded and (len(spies) == 1 or power in self.alarmed or rng.random() < 0.6):
                guarded = True
                hunt = 0.7 if power in self.alarmed else 0.3
                out.append(CounterEspionage(ref) if rng.random() < hunt else Hold(ref))
                continue
            if targets[here] and here not in claimed and rng.random() < 0.75:
                claimed.add(here)
                out.append(CounterEspionage(ref) if rng.random() < 0.12 else Hold(ref))
                continue
            options = [t for t in sorted(targets) if t != here and t not in claimed]
            if not options:
                out.append(Hold(ref))
                continue
            goal = min(options, key=lambda t: (ANY_DIST[here].get(t, 99) - 0.4 * targets[t] + rng.uniform(0, 1.5), t))
            claimed.add(goal)
            d = ANY_DIST[here].get(goal, 99)
            steps = sorted(n for n in BOARD.neighbours(here) if ANY_DIST[n].get(goal, 99) == d - 1)
            out.append(Move(ref, rng.choice(steps)) if steps else Hold(ref))
        return out

    def spy_scene(self, pos: Position, spy_orders: dict, mutual: bool):
        """A hunt the example must show: two powers' spies share a province and both hunt (they
        kill each other), or a spy at home hunts an enemy spy sitting there."""
        by_prov = defaultdict(list)
        for spy in sorted(pos.pieces):
            if spy.power in spy_orders:
                by_prov[spy.province].append(spy)
        for prov, spies in sorted(by_prov.items()):
            powers = sorted({s.power for s in spies})
            if len(powers) < 2:
                continue
            if mutual:
                a, b = powers[:2]
            else:
                home = [p for p in powers if prov in HOME[p]]
                if not home:
                    continue
                a = home[0]
                b = next(p for p in powers if p != a)
            for p, what in ((a, "ce"), (b, "ce" if mutual else "hold")):
                orders = spy_orders[p]
                i = next(i for i, o in enumerate(orders) if o.unit.province == prov)
                orders[i] = CounterEspionage(orders[i].unit) if what == "ce" else Hold(orders[i].unit)
            return a, b, prov
        return None

    # ----- the phases
    def movement(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        self.tick += 1
        self.forget()
        plans = {}
        claimed: dict[str, set] = {}
        for power in POWERS:
            if not pos.units_of(power):
                continue
            friends = set()
            for q, cl in claimed.items():
                if self.rel.trusts(power, q):
                    friends |= cl
            plan = self.bot.movement(self.believed(pos, power), power, friends)
            plans[power] = plan
            claimed[power] = {province_of(o.dest) for o in plan.orders.values() if isinstance(o, Move)}
        self.bot.ally_supports(pos, plans, self.rng)
        orders = {p: [plan.orders[k] for k in sorted(plan.orders)] for p, plan in plans.items()}
        texts = {p: self.texts_for(p, os, "movement") for p, os in orders.items()}
        for p, ts in self.s.overrides.get(slug, {}).items():
            texts[p] = list(ts)
        misorders = []
        how = self.s.misorders.get(slug, (None, None))
        if how[0] and how[1] != "spy_far":
            mis = self.misorder(pos, how[0], orders[how[0]], how[1])
            if mis:
                i, text, why = mis
                texts[how[0]][i] = text
                misorders.append((how[0], text, why))
        spies = {p: self.spy_orders(pos, p) for p in plans}
        tweaks = []
        for feature, since in self.s.wants.items():
            if pos.phase >= Phase.from_slug(since) and not self.shown[feature]:
                scene = self.spy_scene(pos, spies, mutual=feature == "mutual_kills")
                if scene:
                    tweaks.append((feature, *scene))
        spy_texts = {p: [spy_text(o, self.s.styles.get(p, "canonical")) for o in os] for p, os in spies.items()}
        if how[1] == "spy_far" and spies.get(how[0]):
            # a spy sent two spaces: the one that was moving, or failing that the first
            mine = spies[how[0]]
            i = next((i for i, o in enumerate(mine) if isinstance(o, Move)), 0)
            o = mine[i]
            first = province_of(o.dest) if isinstance(o, Move) else sorted(BOARD.neighbours(o.unit.province))[0]
            far = sorted(q for q in BOARD.neighbours(first) if ANY_DIST[o.unit.province].get(q, 99) == 2)
            text = f"S {_abbr(o.unit.loc)} - {_abbr(far[0])}"
            spy_texts[how[0]][i] = text
            misorders.append((how[0], text, f"a spy moves one space a season; {_full(far[0])} is two "
                                            f"from {_full(o.unit.loc)}"))
        for p in texts:
            texts[p] = texts[p] + spy_texts.get(p, [])
        nmr = tuple(p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts)
        for p in nmr:
            del texts[p]
        parsed = self.parse_back(texts, "movement")
        out = BLIND.movement(pos, parsed)
        ph = pos.phase
        after = Position(Phase(ph.year, ph.season_index, True), out.units, pos.owners, out.dislodged,
                         pieces=out.pieces)
        changes = ()
        if not out.dislodged:
            after, changes = self.end_of_season(after)
        log = PhaseLog(ph, pos, after, texts, parsed, out.results, out.dislodged, out.destroyed, changes,
                       nmr=nmr, misorders=misorders)
        log.ally_supports = [(p, n) for p, plan in plans.items() for n in plan.notes]
        log.tweaks = tweaks
        if self.s.spies and ph == Phase(1901, 0):
            log.spies = self.s.spies
        self.shown.update(spy_kinds(log))
        self.learn(log)
        return log

    def parse_back(self, texts: dict, kind: str) -> dict:
        return {p: [for_phase(parse_order(BOARD, t, BLIND.order_words), kind) for t in ts] for p, ts in texts.items()}

    def end_of_season(self, after: Position):
        ph = after.phase
        changes = ()
        if ph.season_index == 1:
            owners = BLIND.update_owners(after.units, after.owners)
            changes = tuple((c, after.owners.get(c), o) for c, o in sorted(owners.items()) if after.owners.get(c) != o)
            after = BLIND.after_fall(after.with_(owners=owners, phase=Phase(ph.year, 2), dislodged=()))
        else:
            after = after.with_(phase=Phase(ph.year, 1), dislodged=())
        return after, changes

    def retreats(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        powers = sorted({d.unit.power for d in pos.dislodged})
        orders = {}
        for p in powers:
            units_after = len(pos.units_of(p)) + sum(1 for d in pos.dislodged if d.unit.power == p)
            centres_next = len(pos.centres_of(p))
            if pos.phase.season_index == 1:
                owners = BLIND.update_owners(pos.units, pos.owners)
                centres_next = sum(1 for o in owners.values() if o == p)
            rs = self.bot.retreats(pos, p, units_after > centres_next)
            orders[p] = [rs[k] for k in sorted(rs)]
        texts = {p: self.texts_for(p, os, "retreats") for p, os in orders.items()}
        nmr = tuple(p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts)
        for p in nmr:
            del texts[p]
        parsed = self.parse_back(texts, "retreats")
        out = BLIND.retreats(pos, parsed)
        after, changes = self.end_of_season(Position(pos.phase, out.units, pos.owners, pieces=pos.pieces))
        log = PhaseLog(pos.phase, pos, after, texts, parsed, out.results, changes=changes, nmr=nmr)
        self.shown.update(spy_kinds(log))
        self.learn(log)
        return log

    def adjustments(self, pos: Position) -> PhaseLog:
        slug = pos.phase.slug
        due = BLIND.adjustment_counts(pos)
        orders = {p: self.bot.adjustments(pos, p, n) for p, n in sorted(due.items())}
        texts = {p: self.texts_for(p, os, "adjustments") for p, os in orders.items() if os}
        nmr = [p for (ph, p) in sorted(self.s.nmr) if ph == slug and p in texts]
        if not self.cd_done and pos.phase.year >= self.s.cd_after:
            for cd in self.s.cd_power:
                if due.get(cd, 0) < 0:
                    nmr.append(cd)
                    self.cd_done = True
                    break
        for p in nmr:
            texts.pop(p, None)
        parsed = self.parse_back(texts, "adjustments")
        out = BLIND.adjustments(pos, parsed)
        after = Position(Phase(pos.phase.year + 1, 0), out.units, pos.owners, pieces=pos.pieces)
        return PhaseLog(pos.phase, pos, after, texts, parsed, out.results, due=due, nmr=tuple(nmr))


BLIND_KEYS = ("spy_moves", "spy_holds", "counter_espionage", "ce_at_home", "ce_abroad", "spies_killed",
              "mutual_kills", "spies_lost", "spies_lost_with_capital", "spies_added", "spies_for_capitals",
              "spy_misorders")


def blind_counts(history) -> Counter:
    """Spy events, and the contacts each power's private reports show, from dipgen's replay."""
    from dipgen.visibility import view_record

    c: Counter = Counter()
    for rec in history.records:
        c.update(spy_kinds(rec))
        if rec.phase.kind != "movement":
            continue
        c["destroyed"] += len(rec.destroyed)
        c.update(blind_contacts(history, rec, view_record))
    return c


def blind_contacts(history, rec, view_record) -> Counter:
    """From each power's private view of a movement phase: foreign units it found by attacking
    them where they stood, attacks it received, meetings in a province both tried for, and units
    only its spies saw."""
    c: Counter = Counter()
    left = {r.unit.province for r in rec.results if isinstance(r.order, Move) and r.succeeded and r.unit is not None}
    for power in POWERS:
        view = view_record(history, rec, power)
        at = {u.province: u for u in view.before.units}
        moves = [r for r in view.results if isinstance(r.order, Move) and r.unit is not None and r.unit.kind != "S"]
        mine = [r for r in moves if r.power == power]
        theirs = [r for r in moves if r.power != power]
        for r in mine:
            there = at.get(province_of(r.order.dest))
            if there is not None and there.power != power and there.province not in left:
                c["attack_found"] += 1  # the unit attacked stayed to meet it
        for r in theirs:
            there = at.get(province_of(r.order.dest))
            if there is not None and there.power == power:
                c["attack_received"] += 1
        for r in mine:
            c["meetings"] += sum(1 for q in theirs if province_of(q.order.dest) == province_of(r.order.dest))
        spied = {s.province for s in rec.after.pieces if s.power == power}
        c["spy_reports"] += sum(1 for u in view.before.units if u.power != power and u.province in spied)
    return c


# Press in a Blind game is public, and the public learns only the centre totals and who sent no
# orders: the press is diplomacy, rumour and bluster that names no province, unit or order. The
# players know more (their own reports), and say so only in ways that give no position away.
BLIND_PRESS = {
    "opening": [
        "{me} to All: Nobody can see anybody in this game. We intend to enjoy that more than you do.",
        "{me} to {you}: I won't ask where your armies are going if you don't ask where mine are.",
        "{me} to All: Our spies have packed their bags. Where they've gone is between them and the GM.",
        "{me} to {you}: A blind board is a trusting board. Or a very nervous one. Let's be the first kind.",
        "{me} to All: Good luck, everyone. The lights are off and the furniture has been moved.",
        "{me} to {you}: Shall we agree now that if our units bump into each other, we write before we shoot?",
    ],
    "spies": [
        "{me} to All: Our spies report that everyone is exactly where they say they are. We've fired our spies.",
        "Anonymous to All: Somebody's spy came home last season in a box. Nobody has claimed the box.",
        "{me} to {you}: One of our friends abroad has stopped writing home. If you know anything, now is the time.",
        "{me} to All: A reminder to foreign visitors: our counter-intelligence service works weekends.",
        "Anonymous to All: Two spies walked into the same tavern. Neither walked out. The GM won't say which tavern.",
        "{me} to {you}: My spy says your spy says my spy is lying. I believe all three of them.",
        "{me} to All: We have new spies this year. The old ones are enjoying a long rest.",
        "{me} to {you}: You can call your man home. We know what he looks like now.",
    ],
    "fight": [
        "{me} to {you}: We ran into you last season. Don't tell me it was an accident.",
        "{me} to {you}: So that's where you've been. I had wondered.",
        "{me} to {you}: Our units met yours in the dark. Next time, knock.",
        "{me} to {you}: The GM's letter mentioned you. It wasn't a friendly mention.",
        "{me} to All: We have met {you} on the road, going somewhere it swore it wasn't.",
    ],
    "dislodged": [
        "{me} to {you}: Was that really necessary?",
        "{me} to {you}: Point taken. What do you want?",
        "{me} to All: One of our units has been pushed out of its post. We know by whom.",
        "{me} to {you}: That was a lot of units to bring against us. Flattered.",
    ],
    "disband": [
        "{me} to All: One of our units had nowhere to go. It has been stood down with honour.",
        "{me} to All: A unit fewer. We will miss it, and so, eventually, will you.",
    ],
    "endgame_winner": [
        "{me} to All: Thank you all. Eighteen, and I still don't know where half of you were. Neither, I suspect, do you.",
        "{me} to All: Good game, everyone. My spies deserve most of the credit and will get none of it.",
    ],
    "endgame": [
        "{me} to All: Well played, {you}. I never once saw you coming, which I suppose was the point.",
        "{me} to All: Thanks to the GM for all those private letters, and to everyone who kept writing press in the dark.",
        "{me} to All: Congratulations to {you}. I look forward to finding out where everyone actually was.",
    ],
    "draw_end": [
        "{me} to All: Thank you all. A fair result, and now I get to find out where everyone actually was.",
        "{me} to All: A good game, played entirely by ear. I'd have liked one more year, but I'd have liked to see the board too.",
        "{me} to All: Thanks to the GM for all those private letters, and to everyone who kept the press coming when nobody knew anything.",
    ],
}
for _cat in ("ally", "war", "stab_lie", "stab_outrage", "stab_excuse", "totals_up", "totals_down", "rumour",
             "leader", "nmr", "builds", "removals", "survivor"):
    BLIND_PRESS[_cat] = STAB_PRESS[_cat]
for _cat in ("eliminated", "eulogy", "draw"):
    BLIND_PRESS[_cat] = PRESS[_cat]

BLIND_NOTES = {
    "deadline": STAB_NOTES["deadline"],
    "nmr": [
        "No orders from {power} (NMR). Its units and its spies held.",
        "{power} did not send orders this season (NMR).",
        "Nothing from {power} by the deadline. I've written to the player; everything of {power}'s held.",
    ],
    "cd_removal": [
        "No winter orders from {power} (NMR). I applied the civil-disorder rule and have told {power}'s player what it did.",
    ],
    "spies": [
        "Spy placements came in with the Spring 1901 orders and are not published. Anyone who didn't place "
        "theirs has them in the capital and the next home centre, as the rules page says.",
    ],
    "ruling": [
        "A reminder of how the reports work: the public learns the centre totals and who sent no orders, and "
        "nothing else. Everything your units ran into, and everything your spies saw, is in your private report.",
        "Ruling: a spy moves one space a season, by land or sea. An order to go further leaves it where it is.",
        "Two of you asked: counter-espionage kills every enemy spy in the province, friend or foe of yours. "
        "If two hunters from different countries are in the same place, both die.",
        "Spies lost are replaced at the end of each Fall turn, in the capital (or the first home centre you "
        "still hold). Taking an enemy capital earns a spy; losing your own costs one.",
        "Private reports went out with this adjudication: your units, your spies, your centres, and anything "
        "that walked into you.",
        "Ruling: a unit that moves away before you arrive is not met, and you are not told of it. Only units "
        "that stay to meet you, or that try for the same place, show up in your report.",
        "Builds and removals are private. The totals tell everyone who could build, not what or where.",
        "Retreats are private. An attacker is told that the unit it dislodged has gone, not where.",
    ],
    "spy_misorder": [
        "Ruling on one of this season's spy orders: a spy moves one space a season. The order asked for two, so "
        "the spy stayed put. The player has been told.",
    ],
    "replaced": NOTES["replaced"],
    "eliminated": NOTES["eliminated"],
    "retreats": ["Retreats adjudicated as received. Their results went to the players concerned."],
    "misc": [
        "If you spot a mistake in your private report, tell me before the next deadline.",
        "Two people asked about conditional orders: I don't take them. One set per season, please.",
        "The public map is empty on purpose. Your own map is on your private page.",
    ],
    "draw_proposal": NOTES["draw_proposal"],
}


class BlindWriter(StabWriter):
    def press(self, cat: str, me: str, you: str = "All", **slots) -> str:
        text = self.pick(BLIND_PRESS, cat)
        line = text.format(me=CAPITAL.get(me, me), you=CAPITAL.get(you, you), adj=ADJ.get(me, me), **slots)
        head, _, body = line.partition(": ")
        return f"**{head}:** {body}" if self.style == "bold" else f"*{head}:* {body}"

    def note(self, cat: str, **slots) -> str:
        return self.pick(BLIND_NOTES, cat).format(**slots)


class BlindComposer(StabComposer):
    """Press and notes for a Blind game: the public learns only the centre totals and the NMRs,
    so what is said in public names no province, unit or order. The players' press draws on what
    their own reports told them (who they fought, whose spies they caught) without saying where."""

    def __init__(self, sim: Sim, history, rng: random.Random, style: str):
        super().__init__(sim, history, rng, style)
        self.w = BlindWriter(rng, style)
        self.history = history

    def compose(self) -> None:
        logs = self.sim.log
        last_move = None
        for i, log in enumerate(logs):
            if log.phase.kind == "movement":
                log.press = self.blind_movement_press(i, last_move)
                last_move = i
            elif log.phase.kind == "retreats":
                log.press = self.blind_retreat_press(log)
            else:
                log.press = self.stab_winter_press(log)
            log.notes = self.blind_notes(log, i)
        self.finish()

    def fights(self, j: int) -> list[tuple[str, str]]:
        """Pairs of powers whose units met in phase `j` (each knows; the public does not)."""
        from dipgen.visibility import view_record

        rec = self.history.records[j]
        pairs = []
        for power in POWERS:
            view = view_record(self.history, rec, power)
            for u in view.before.units:
                if u.power != power and (power, u.power) not in pairs:
                    pairs.append((power, u.power))
        return pairs

    def blind_movement_press(self, i: int, j: int | None) -> str:
        log = self.sim.log[i]
        pos = log.before
        w, rng = self.w, self.rng
        alive = [p for p in POWERS if pos.units_of(p)]
        cands = []
        if log.phase == Phase(1901, 0):
            for p in rng.sample(alive, 3):
                cands.append((5, w.press("opening", p, self.neighbour(p, pos))))
        for kind, a, b in log.events:
            if kind == "ally":
                cands.append((6, w.press("ally", a, b)))
            elif kind == "war":
                cands.append((6, w.press("war", a, b)))
            elif kind == "stab":
                cands.append((7, w.press("stab_lie", a, b)))
        if j is not None:
            last = self.sim.log[j]
            for kind, a, b in last.events:
                if kind == "stab":
                    cands.append((8, w.press("stab_outrage", b, a, year=pos.phase.year + 1)))
                    if rng.random() < 0.6:
                        cands.append((4, w.press("stab_excuse", a, b)))
            fights = [(a, b) for a, b in self.fights(j) if a in alive and b in alive]
            if fights and rng.random() < 0.6:
                a, b = rng.choice(fights)
                cands.append((3 + rng.random(), w.press("fight", a, b)))
            for d in list(last.dislodged)[:1]:
                if d.unit.power in alive and rng.random() < 0.5:
                    cands.append((3 + rng.random(), w.press("dislodged", d.unit.power, d.by_power)))
            k = spy_kinds(last)
            if (k["spies_killed"] or k["counter_espionage"]) and rng.random() < 0.6:
                p = rng.choice(alive)
                cands.append((3 + rng.random(), w.press("spies", p, self.neighbour(p, pos))))
            if last.nmr and rng.random() < 0.8:
                p = last.nmr[0]
                q = self.neighbour(p, pos)
                if q != "All":
                    cands.append((3, w.press("nmr", q, p)))
            for p in POWERS:
                if last.before.units_of(p) and not pos.units_of(p) and not pos.centres_of(p):
                    cands.append((5, w.press("eulogy", rng.choice([x for x in alive if x != p]), p)))
        if pos.phase.season_index == 0 and pos.phase.year > 1901:
            now = pos.centre_counts(POWERS)
            before = self.totals_before(pos.phase.year - 1)
            ups = sorted((now[p] - before[p], p) for p in POWERS if now[p] > before[p])
            downs = sorted((now[p] - before[p], p) for p in POWERS if now[p] < before[p] and pos.units_of(p))
            if ups and rng.random() < 0.7:
                n, p = ups[-1]
                others = [x for x in alive if x != p]
                cands.append((3 + rng.random(), w.press("totals_up", rng.choice(others), p, n=_count_word(n).lower())))
            if downs and rng.random() < 0.5:
                n, p = downs[0]
                cands.append((3 + rng.random(), w.press("totals_down", p, n=_count_word(-n).lower())))
        counts = pos.centre_counts(POWERS)
        leader = max(POWERS, key=lambda p: (counts[p], p))
        if counts[leader] >= 10 and rng.random() < 0.6:
            other = self.neighbour(leader, pos)
            if other != "All":
                cands.append((5, w.press("leader", other, leader, n=counts[leader])))
        if self.s.draw_after:
            end = Phase.from_slug(self.s.draw_after)
            if end.year - pos.phase.year <= 1 and rng.random() < 0.6:
                p = rng.choice(alive)
                cands.append((4, w.press("draw", p, self.neighbour(p, pos))))
        while len(cands) < 2 or rng.random() < 0.35:
            p = rng.choice(alive)
            cat = "spies" if rng.random() < 0.25 else "rumour"
            cands.append((1 + rng.random(), w.press(cat, p, self.neighbour(p, pos))))
        cands.sort(key=lambda c: -c[0])
        return self._join([t for _, t in cands[:rng.choice([2, 3, 3, 4])]])

    def blind_retreat_press(self, log: PhaseLog) -> str:
        if self.rng.random() < 0.5:
            return ""
        disbands = [r for r in log.results if isinstance(r.order, Disband)]
        if disbands and self.rng.random() < 0.6:
            return self._join([self.w.press("disband", disbands[0].power)])
        d = log.before.dislodged[0]
        return self._join([self.w.press("dislodged", d.unit.power, d.by_power)])

    def blind_notes(self, log: PhaseLog, i: int) -> str:
        w, rng = self.w, self.rng
        out = []
        if log.spies:
            out.append(w.note("spies"))
        if log.misorders:
            out.append(w.note("spy_misorder"))
        if log.phase.kind == "adjustments":
            for p in log.nmr:
                out.append(w.note("cd_removal", power=p))
        else:
            for p in log.nmr:
                out.append(w.note("nmr", power=p))
        if log.phase.slug in self.replacements:
            power, old, new = self.replacements[log.phase.slug]
            out.append(w.note("replaced", power=power, old=old, new=new))
        for p in POWERS:
            if (log.before.units_of(p) or log.before.centres_of(p)) and not (log.after.units_of(p) or log.after.centres_of(p)):
                out.append(w.note("eliminated", power=p, player=self.player(p, log.phase)))
        if log.phase.kind == "retreats" and rng.random() < 0.4:
            out.append(w.note("retreats"))
        if (i in (1, 2) or rng.random() < 0.15) and log.phase.kind != "adjustments":
            out.append(w.note("ruling"))
        if rng.random() < 0.08:
            out.append(w.note("misc"))
        if self.s.draw_after and not self.draw_proposed and log.phase.kind == "movement":
            end = Phase.from_slug(self.s.draw_after)
            if log.phase.year == end.year - 1 and log.phase.season_index == 1:
                alive = [p for p in POWERS if log.after.units_of(p)]
                big = sorted(alive, key=lambda p: -len(log.after.centres_of(p)))[:3]
                out.append(w.note("draw_proposal", powers=_and_words(sorted(big))))
                self.draw_proposed = True
        nxt = self.next_phase(i)
        if nxt is not None and (rng.random() < 0.3 or not out):
            out.append(w.note("deadline", next=_public_name(nxt), when=rng.choice(self.s.deadlines)))
        return self._join(out)

    def standings(self) -> None:
        """A running game: the GM gives the totals (public) and the next deadline, nothing more."""
        log = self.sim.log[-1]
        pos = log.after
        counts = {p: len(pos.centres_of(p)) for p in POWERS if pos.units_of(p) or pos.centres_of(p)}
        ranked = sorted(counts, key=lambda p: (-counts[p], p))
        top = [p for p in ranked if counts[p] == counts[ranked[0]]]
        line = (f"Where we stand after {log.phase.name}: {_and_words(top)} "
                f"{'leads' if len(top) == 1 else 'lead'} on {counts[top[0]]} centres.")
        if _public_name(pos.phase) not in log.notes:
            line += f" {_public_name(pos.phase)} orders are due {self.s.deadlines[0]}."
        log.notes = (log.notes + "\n" if log.notes else "") + line + "\n"

    def finish(self) -> None:
        if self.sim.result is None:
            return self.standings()
        log = self.sim.log[-1]
        kind, powers = self.sim.result
        alive = [p for p in POWERS if log.after.units_of(p)]
        items = []
        if kind == "solo":
            winner = powers[0]
            items.append(self.w.press("endgame_winner", winner))
            for p in self.rng.sample([x for x in alive if x != winner], min(2, len(alive) - 1)):
                items.append(self.w.press("endgame", p, winner))
            n = len(log.after.centres_of(winner))
            note = (f"{winner} has {n} supply centres and wins. Congratulations to {self.player(winner, log.phase)}. "
                    "The whole game, every unit, spy and order, is now published beside the blind reports.")
        else:
            for p in self.rng.sample(powers, 2):
                items.append(self.w.press("draw_end", p))
            out = [p for p in POWERS if p not in powers and log.after.centres_of(p)]
            if out:
                items.append(self.w.press("survivor", out[0]))
            note = (f"The draw proposal ({_and_words(powers)}) passed unanimously. The game ends after "
                    f"{log.phase.name}. Thank you all. The whole game, every unit, spy and order, is now "
                    "published beside the blind reports.")
        log.press = (log.press + "\n" if log.press else "") + self._join(items)
        log.notes = (log.notes + "\n" if log.notes else "") + note + "\n"


# ====================================================================== the games

FINISHED = Script(
    slug="winter-palace",
    title="The Winter Palace",
    gm="Margaret Quill",
    players={
        "Austria": ["Mirela Vasic", ("Tomas Kral", "1905-fall")],
        "England": "Hugh Penhallow",
        "France": "Odile Marchand",
        "Germany": "Konrad Siebert",
        "Italy": "Lucia Ferrante",
        "Russia": "Pavel Ostrov",
        "Turkey": "Deniz Kaplan",
    },
    description=(
        "An email game from the club's autumn league, 1901 to 1912. Three pacts were signed in the first "
        "winter: England and France against Germany, Russia and Turkey against Austria, and a friendship "
        "between Austria and Italy that Italy ended in Fall 1903. Turkey's stab of Russia in 1906 was meant "
        "to settle the east; instead the Tsar survived it, swallowed the Balkans and Anatolia, and took the "
        "eighteenth centre in 1912 while the West was still arguing about the Channel.\n\n"
        "*An example game: the orders were written by dipgen's scripted player "
        "(`tools/example_games.py`) and every name in it is invented.*"
    ),
    seed=32,
    expect=("solo", "Russia"),
    alliances=[("England", "France"), ("Russia", "Turkey"), ("Austria", "Italy")],
    events={
        "1902-spring": [("war", "England", "Germany"), ("war", "France", "Germany"),
                        ("war", "Russia", "Austria"), ("war", "Turkey", "Austria")],
        "1903-fall": [("stab", "Italy", "Austria")],
        "1906-fall": [("stab", "Turkey", "Russia"), ("ally", "Turkey", "Italy")],
        "1907-spring": [("war", "Italy", "France")],
        "1908-spring": [("stab", "France", "England")],
    },
    styles={"Austria": "canonical", "England": "canonical", "France": "compact", "Germany": "canonical",
            "Italy": "names", "Russia": "lower", "Turkey": "arrows"},
    blocks={"England", "Russia"},
    nmr={("1905-spring", "Austria")},
    cd_power=("Turkey", "Italy", "England", "Germany", "France"),
    cd_after=1907,
    misorders={"1903-spring": ("Germany", "far"), "1907-fall": ("France", "kind")},
    draw_after="1915-fall",
)

RUNNING = Script(
    slug="north-sea-ledger",
    title="The North Sea Ledger",
    gm="Declan Rourke",
    players={
        "Austria": "Felix Haberl",
        "England": "Imogen Strand",
        "France": "Bastien Leclerc",
        "Germany": "Greta Vogt",
        "Italy": "Matteo Rinaldi",
        "Russia": "Anya Belova",
        "Turkey": "Emre Tosun",
    },
    description=(
        "A game still in progress. England and Germany opened as partners in the north, Austria and Turkey "
        "in the Balkans, France and Italy in the Mediterranean; two of those three pacts have already gone "
        "the way of all pacts. Orders for the next season are awaited.\n\n"
        "*An example game: the orders were written by dipgen's scripted player "
        "(`tools/example_games.py`) and every name in it is invented.*"
    ),
    seed=14,
    alliances=[("England", "Germany"), ("Austria", "Turkey"), ("France", "Italy")],
    events={
        "1902-spring": [("war", "England", "Russia"), ("war", "Germany", "France"), ("war", "Austria", "Russia")],
        "1903-fall": [("stab", "Germany", "England")],
        "1904-spring": [("ally", "England", "France")],
        "1904-fall": [("stab", "Turkey", "Austria")],
    },
    styles={"Austria": "lower", "England": "canonical", "France": "names", "Germany": "compact",
            "Italy": "canonical", "Russia": "wordy", "Turkey": "canonical"},
    blocks={"France", "Turkey"},
    stop="1905-spring",
    deadlines=("Monday 21:00 UK", "Thursday 21:00 UK"),
)

STAB_FINISHED = Script(
    slug="masked-ball",
    title="The Masked Ball",
    variant="stab",
    gm="Rosalind Achterberg",
    players={
        "Austria": "Jakob Lindqvist",
        "England": "Harriet Vane-Oduya",
        "France": "Amelie Rousseau",
        "Germany": ["Dieter Brandt", ("Sabine Kohl", "1905-spring")],
        "Italy": "Giulia Moretti",
        "Russia": "Mikhail Sorokin",
        "Turkey": "Selin Aydin",
    },
    description=(
        "A Stab! game: nobody sees the board, each report shows only the orders that ran into a foreign "
        "unit, and the players placed their own starting units. Germany and Russia agreed a northern "
        "partition before a unit had moved, France and Italy split the Mediterranean, and Austria and "
        "Turkey kept a Balkan peace until Turkey broke it in Fall 1903. Italy turned on France in 1905, "
        "France turned to England, and England, down to three centres in 1904, came back out of the fog "
        "to lead the board. Germany was gone by 1909; Austria held on to a single centre for a decade. "
        "England, France and Turkey agreed a three-way draw after Fall 1914.\n\n"
        "*An example game: the orders were written by dipgen's scripted player "
        "(`tools/example_games.py`) and every name in it is invented.*"
    ),
    seed=5,
    alliances=[("Germany", "Russia"), ("France", "Italy"), ("Austria", "Turkey")],
    events={
        "1902-spring": [("war", "England", "Germany"), ("war", "France", "England"), ("war", "Turkey", "Russia")],
        "1903-fall": [("stab", "Turkey", "Austria")],
        "1905-spring": [("stab", "Italy", "France")],
        "1906-spring": [("ally", "France", "England")],
    },
    styles={"Austria": "canonical", "England": "compact", "France": "names", "Germany": "canonical",
            "Italy": "lower", "Russia": "canonical", "Turkey": "arrows"},
    blocks={"Germany", "Turkey"},
    nmr={("1904-fall", "Austria")},
    cd_power=("Austria", "England", "Russia", "Germany", "France", "Italy", "Turkey"),
    cd_after=1905,
    draw_after="1914-fall",
    expect=("draw", 3),
    placement={
        "Austria": ["A Gal", "A Tyr", "F Tri"],
        "England": ["F NTH", "F Lon", "A Yor"],
        "France": ["A Bur", "F Bre", "A Gas"],
        "Germany": ["A Ruh", "F Kie", "A Sil"],
        "Italy": ["A Pie", "F Nap", "A Ven"],
        "Russia": ["A Ukr", "F Sev", "F StP/nc", "A War"],
        "Turkey": ["A Arm", "F Ank", "A Con"],
    },
    fog=0.3,
    wants={"convoy_attacked": "1902-spring", "self_standoff_shown": "1902-spring"},
    deadlines=("Sunday 20:00 UK time", "Tuesday 22:00 CET"),
)

STAB_RUNNING = Script(
    slug="lamps-out",
    title="The Lamps Go Out",
    variant="stab",
    gm="Tobias Wren",
    players={
        "Austria": "Katalin Szabo",
        "England": "Owen Pritchard",
        "France": "Lucien Fabre",
        "Germany": "Heike Sommer",
        "Italy": "Paolo Esposito",
        "Russia": "Irina Volkova",
        "Turkey": "Murat Demir",
    },
    description=(
        "A Stab! game in progress: hidden movement on the standard map, with a report each season of "
        "only the orders that came into contact with a foreign unit. Orders for the next season are "
        "awaited; what stands where is known only to the GM.\n\n"
        "*An example game: the orders were written by dipgen's scripted player "
        "(`tools/example_games.py`) and every name in it is invented.*"
    ),
    seed=23,
    alliances=[("England", "France"), ("Austria", "Russia"), ("Italy", "Turkey")],
    events={
        "1902-spring": [("war", "Germany", "England"), ("war", "Russia", "Turkey")],
        "1903-spring": [("stab", "France", "England")],
    },
    styles={"Austria": "compact", "England": "canonical", "France": "canonical", "Germany": "lower",
            "Italy": "names", "Russia": "wordy", "Turkey": "canonical"},
    blocks={"Russia"},
    nmr={("1903-fall", "Italy")},
    stop="1904-fall",
    placement={
        "Austria": ["A Boh", "A Bud", "F Tri"],
        "England": ["F NTH", "F Edi", "A Wal"],
        "France": ["A Pic", "F Mar", "A Par"],
        "Germany": ["A Pru", "A Mun", "F Ber"],
        "Italy": ["A Tus", "F Rom", "A Apu"],
        "Russia": ["A Lvn", "F StP/sc", "A Mos", "F Sev"],
        "Turkey": ["F Con", "A Syr", "F Smy"],
    },
    fog=0.35,
    wants={"convoy_attacked": "1902-fall", "self_standoff_shown": "1902-spring"},
    deadlines=("Saturday noon UK", "Wednesday 21:00 UK"),
)

BLIND_FINISHED = Script(
    slug="whispering-gallery",
    title="The Whispering Gallery",
    variant="blind",
    gm="Ingrid Halvorsen",
    players={
        "Austria": "Viktor Nemeth",
        "England": "Rowena Ashby",
        "France": "Claude Perrin",
        "Germany": "Lukas Reiter",
        "Italy": ["Chiara Bellini", ("Marco Gentile", "1905-spring")],
        "Russia": "Oksana Petrenko",
        "Turkey": "Kerem Yilmaz",
    },
    description=(
        "A Blind game: every position secret, each player knowing only her own units, what they ran into, "
        "and what her spies saw. Italy, at peace with Austria, went west first and took Spain and Portugal "
        "from France, while Russia marched into Vienna; Italy's stab in Fall 1904 finished Austria within a "
        "year. Germany's raid on Moscow in 1905 cost the Tsar a spy and his peace of mind, and Turkey turned "
        "on Russia in 1906. In the scramble nobody saw the Italian fleets coming: Italy, under a new player "
        "from 1905, took Constantinople, Moscow and Munich in the last two years and its eighteenth centre "
        "in Fall 1911, while England was still sharing out Germany.\n\n"
        "*An example game: the orders were written by dipgen's scripted player "
        "(`tools/example_games.py`) and every name in it is invented.*"
    ),
    seed=18,
    alliances=[("England", "France"), ("Russia", "Turkey"), ("Austria", "Italy")],
    events={
        "1902-spring": [("war", "England", "Germany"), ("war", "France", "Germany"),
                        ("war", "Russia", "Austria"), ("war", "Turkey", "Austria")],
        "1904-fall": [("stab", "Italy", "Austria")],
        "1906-spring": [("stab", "Turkey", "Russia")],
        "1907-spring": [("war", "France", "Italy")],
    },
    styles={"Austria": "canonical", "England": "compact", "France": "names", "Germany": "canonical",
            "Italy": "lower", "Russia": "canonical", "Turkey": "arrows"},
    blocks={"Russia"},
    nmr={("1903-fall", "Germany")},
    cd_power=("Germany", "Austria", "Italy"),
    cd_after=1905,
    misorders={"1904-spring": ("Austria", "spy_far")},
    draw_after="1912-fall",
    spies={"England": ["Lvp", "Edi"], "Germany": ["Kie", "Mun"], "Turkey": ["Con", "Smy"]},
    fog=0.3,
    wants={"spies_killed": "1902-spring", "mutual_kills": "1903-spring"},
    deadlines=("Sunday 21:00 CET", "Wednesday 21:00 CET"),
)

BLIND_RUNNING = Script(
    slug="closed-shutters",
    title="Closed Shutters",
    variant="blind",
    gm="Samuel Okafor",
    players={
        "Austria": "Petra Horvat",
        "England": "Callum Reid",
        "France": "Manon Girard",
        "Germany": "Jonas Becker",
        "Italy": "Alessia Conti",
        "Russia": ["Dmitri Orlov", ("Yulia Sokolova", "1903-fall")],
        "Turkey": "Aylin Kaya",
    },
    description=(
        "A Blind game in progress: nobody sees the board, and each player's private report tells her only "
        "what her units ran into and what her spies saw. The public gets the centre totals and the press. "
        "Orders for the next season are awaited.\n\n"
        "*An example game: the orders were written by dipgen's scripted player "
        "(`tools/example_games.py`) and every name in it is invented.*"
    ),
    seed=8,
    alliances=[("England", "Germany"), ("Austria", "Russia"), ("France", "Italy")],
    events={
        "1902-spring": [("war", "England", "France"), ("war", "Germany", "France"), ("war", "Austria", "Turkey"),
                        ("war", "Russia", "Turkey")],
        "1903-spring": [("stab", "Germany", "England")],
    },
    styles={"Austria": "compact", "England": "canonical", "France": "wordy", "Germany": "lower",
            "Italy": "names", "Russia": "canonical", "Turkey": "arrows"},
    blocks={"Italy"},
    nmr={("1903-spring", "Austria")},
    stop="1904-fall",
    spies={"France": ["Bre", "Mar"], "Russia": ["StP", "War"]},
    fog=0.3,
    wants={"spies_killed": "1902-spring", "mutual_kills": "1902-fall"},
    deadlines=("Saturday noon UK", "Tuesday 21:00 UK"),
)

GAMES = [FINISHED, RUNNING, STAB_FINISHED, STAB_RUNNING, BLIND_FINISHED, BLIND_RUNNING]


def generate(script: Script) -> tuple[Sim, dict[str, str]]:
    sim = (BlindSim if script.variant == "blind" else Sim)(script).run()
    rng = random.Random(script.seed * 7919 + 1)
    if script.variant in ("stab", "blind"):
        # press may say only what the public report shows: compose it from dipgen's public view
        # of the game as played (written without press first, and replayed)
        import tempfile

        from dipgen.game import load_game
        from dipgen.history import replay

        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / script.slug
            write_folder(folder, render(sim))
            history = replay(load_game(folder))
        composer = BlindComposer if script.variant == "blind" else StabComposer
        composer(sim, history, rng, "plain" if script.stop else "bold").compose()
        if script.stop:  # a running hidden game: what is written in a retreat or winter file stays unpublished
            for log in sim.log:
                if log.phase.kind != "movement":
                    log.notes = log.press = ""
    else:
        Composer(sim, rng, "bold" if script is FINISHED else "plain").compose()
    return sim, render(sim)


def verify(folder: Path, sim: Sim):
    """Replay the written folder with dipgen and make sure it tells the same story as the simulation."""
    from dipgen.game import load_game
    from dipgen.history import replay

    history = replay(load_game(folder))
    assert len(history.records) == len(sim.log), (len(history.records), len(sim.log))
    for rec, log in zip(history.records, sim.log):
        assert rec.phase == log.phase, (rec.phase, log.phase)
        assert sorted(rec.after.units) == sorted(log.after.units), rec.phase
        assert dict(rec.after.owners) == dict(log.after.owners), rec.phase
        assert sorted(rec.after.pieces) == sorted(log.after.pieces), rec.phase
    return history


def require(history, sim: Sim) -> None:
    """The features each example game exists to show; regenerating must not lose them."""
    if sim.s.variant == "stab":
        return require_stab(history, sim)
    if sim.s.variant == "blind":
        return require_blind(history, sim)
    c = feature_counts(history)
    s = sim.s
    stabs = [e for evs in s.events.values() for e in evs if e[0] == "stab"]
    movement = [r for r in history.records if r.phase.kind == "movement"]
    assert all(r.press.strip() for r in movement), "every season has press"
    assert c["warnings"] == sum(1 for log in sim.log if log.misorders), "warnings come only from deliberate misorders"
    assert c["notes"] >= len(history.records) // 4, c
    assert c["dislodgements"] >= 3 and c["retreats"] >= 1 and c["builds"] >= 5, c
    assert stabs, "a stab or two"
    if s.stop:
        assert history.next_phase is not None and history.result is None
        assert c["years"] >= 3, c
        return
    assert history.result is not None, "the finished game has a result"
    if s.expect:
        assert history.result.kind == s.expect[0], history.result
        assert s.expect[0] != "solo" or history.result.powers == (s.expect[1],), history.result
    assert c["years"] >= 10, c
    assert c["convoys"] >= 3 and c["multi_fleet_convoys"] >= 1, c
    convoyers = {r.power for rec in history.records for r in rec.results
                 if isinstance(r.order, Move) and r.succeeded and r.unit and r.unit.kind == "A"
                 and not reaches(r.unit, province_of(r.order.dest))}
    assert len(convoyers & {"England", "Italy", "Turkey"}) >= 2, convoyers
    assert c["supported_attacks"] >= 5 and c["dislodgements"] >= 8, c
    assert c["retreats"] >= 3 and c["disbands"] >= 1, c
    assert c["builds"] >= 15 and c["removals"] >= 3, c
    assert c["cd_removals"] + c["nmr"] >= 2 and c["cd_removals"] >= 1, c
    assert c["eliminated"] >= 1, c
    assert 1 <= c["warnings"] <= 3, c
    assert any(k == "ally" for evs in s.events.values() for k, _, _ in evs), "alliances form during the game"


def require_stab(history, sim: Sim) -> None:
    """A Stab! example shows every kind of contact the reports reveal, and the usual life of a game."""
    c, k = feature_counts(history), stab_counts(history)
    s = sim.s
    first = history.records[0]
    assert first.phase == Phase(1901, 0) and sim.log[0].placement, "the first phase places the units"
    assert c["warnings"] == 0, c
    assert all(r.press.strip() for r in history.records if r.phase.kind == "movement"), "every season has press"
    assert c["notes"] >= len(history.records) // 4, c
    assert k["direct"] >= 3 and k["empty_bounce"] >= 1 and k["support_contact"] >= 2, k
    assert k["cut"] >= 1 and k["convoy_attacked"] >= 1 and k["self_standoff_shown"] >= 1, k
    assert c["dislodgements"] >= 2 and c["retreats"] >= 1 and c["builds"] >= 3, c
    assert c["nmr"] >= 1, c
    if s.stop:
        assert history.next_phase is not None and history.result is None
        assert c["years"] >= 3, c
        return
    assert history.result is not None and c["years"] >= 8, c
    if s.expect:
        assert history.result.kind == s.expect[0], history.result
        assert len(history.result.powers) == s.expect[1] if s.expect[0] == "draw" else \
            history.result.powers == (s.expect[1],), history.result
    assert k["convoy_contact"] >= 1 and k["destroyed"] >= 1, k
    assert c["removals"] >= 2 and c["disbands"] >= 1 and c["dislodgements"] >= 6, c
    assert c["eliminated"] >= 1, c


def require_blind(history, sim: Sim) -> None:
    """A Blind example shows its spies at work, every kind of contact, and the usual life of a game."""
    c, k = feature_counts(history), blind_counts(history)
    s = sim.s
    assert sim.log[0].spies, "the first phase places some spies"
    assert c["warnings"] == sum(1 for log in sim.log if log.misorders), "warnings come only from deliberate misorders"
    assert all(r.press.strip() for r in history.records if r.phase.kind == "movement"), "every season has press"
    assert c["notes"] >= len(history.records) // 4, c
    assert k["spy_moves"] >= 10 and k["spy_holds"] >= 5 and k["ce_at_home"] >= 1 and k["ce_abroad"] >= 1, k
    assert k["spies_killed"] >= 2 and k["mutual_kills"] >= 1 and k["spies_added"] >= 1, k
    assert k["attack_found"] >= 3 and k["attack_received"] >= 3 and k["meetings"] >= 2 and k["spy_reports"] >= 3, k
    assert c["dislodgements"] >= 2 and c["retreats"] >= 1 and c["builds"] >= 3, c
    assert c["nmr"] >= 1, c
    assert any(isinstance(w, list) for w in s.players.values()), "a power changes hands"
    if s.stop:
        assert history.next_phase is not None and history.result is None
        assert 3 <= c["years"] <= 4, c
        return
    assert history.result is not None and c["years"] >= 8, c
    assert k["spies_lost_with_capital"] >= 1 and k["spies_for_capitals"] >= 1 and k["destroyed"] >= 1, k
    assert c["removals"] >= 2 and c["dislodgements"] >= 6, c
    assert 1 <= c["warnings"] <= 2, c


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "games"), help="where the game folders go (default: games/)")
    ap.add_argument("--force", action="store_true", help="overwrite folders that were edited by hand")
    ap.add_argument("--check", action="store_true", help="generate and verify in a temporary folder; write nothing")
    args = ap.parse_args(argv)
    import tempfile

    out = Path(args.out)
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        for script in GAMES:
            sim, files = generate(script)
            scratch = Path(tmp) / script.slug
            write_folder(scratch, files)
            history = verify(scratch, sim)
            require(history, sim)
            print(summary(history, sim))
            print()
            if args.check:
                continue
            folder = out / script.slug
            edited = hand_edited(folder)
            if edited and not args.force:
                print(f"{folder}: edited by hand ({', '.join(edited[:5])}{'...' if len(edited) > 5 else ''}); "
                      "left alone. Use --force to overwrite.", file=sys.stderr)
                status = 1
                continue
            write_folder(folder, files)
            verify(folder, sim)
            print(f"wrote {folder} ({len(files)} files)")
    return status


if __name__ == "__main__":
    sys.exit(main())

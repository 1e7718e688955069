"""The 'Complicated' Diplomacy example game, games/supply-lines/, as a GM would have received it.

The armies and fleets move as the example bots plan them (bot.py), which see every tank as an
army and no aircraft at all; the aircraft and the supply points are the script's:

- a plane supports its power's most useful move or hold within two spaces (an attack on a
  centre first, then the hold of a threatened centre); a plane with nothing to support flies to
  the power's unit nearest a foreign centre, so that planes gather into stacks at the front;
- a bomber bombs the foreign centre within three spaces of a power it is at war with (or any
  neighbour's when none), preferring one no plane stands in; with nothing in range it flies,
  up to three spaces, to controlled land nearer the enemy;
- in the winter the points go to upkeep first, then, per power's taste (`TASTE`), to tanks,
  upgrades, planes and bombers and the bots' armies and fleets; a power short of points removes
  its aircraft farthest from home first, except `DISORDER`, whose player sends no winter orders
  in one winter: the rules then remove for it (civil disorder).

The game is declared a draw of the powers still standing at the end of 1908 (plane_limit on, as
the seed's author proposed).
"""

from __future__ import annotations

import random

from dipgen.core.board import province_of
from dipgen.core.reach import within
from dipgen.core.orders import Build, Hold, Move, Remove, Retreat, Disband, Support, UnitRef, Upgrade
from dipgen.variants import get_variant
from dipgen.variants.complicated.rules import UPGRADE_COST, Bomb

from .board import BOARD, HOME, POWERS
from .bot import Relations
from .press import CAPITAL
from .scripted import AIR, Scripted, bullets, ground, name, signed

VARIANT = get_variant("complicated")
KINDS = VARIANT.rules.unit_kinds
#: what each power spends its spare points on first: T tank (or upgrade), P plane, B bomber
TASTE = {"Austria": "PA", "England": "FBP", "France": "BPA", "Germany": "TBP", "Italy": "PBA",
         "Russia": "TPA", "Turkey": "BPF"}
#: (power, year): a winter whose removals that power's player never sends
DISORDER = ("Italy", 1906)
NAMES = {"Austria": "Greta Hollweg", "England": "Miles Farrant", "France": "Odile Marchal",
         "Germany": "Konrad Vogt", "Italy": "Paola Ferri", "Russia": "Arkady Lenski",
         "Turkey": "Selim Kaya"}
#: the capitals that sign the press (Turkey's from Ankara in this game)
CAPITALS = {**CAPITAL, "Turkey": "Ankara"}
GAME = {"title": "Supply Lines", "variant": "complicated", "gm": "Hester Quayle",
        "players": dict(NAMES), "options": {"plane_limit": True},
        "description": "A club game of 'Complicated' Diplomacy, 1901 to 1908, with the optional plane limit: "
                       "centres give supply points, and tanks, planes and bombers join the armies and fleets. "
                       "The GM's notes on each season name every bombing, hit or defended, the plane stacks, "
                       "and every power that could not pay its upkeep.\n\n*An example game: the moves were "
                       "written by dipgen's scripted player (`tools/complicated_example.py`), the aircraft and "
                       "the supply points by its script; every name is invented.*"}
#: the alliances and the wars the bots keep to all game
ALLIES = (("England", "France"), ("Austria", "Italy"), ("Russia", "Turkey"))
WARS = (("Germany", "France"), ("Germany", "England"), ("Austria", "Turkey"), ("Italy", "Turkey"),
        ("Russia", "Austria"))


# ====================================================================== the board as the bots see it

def near(a: str, b: str, steps: int) -> bool:
    return a == b or b in within(BOARD, a, steps)


def hops(a: str, b: str) -> int:
    for n in range(0, 12):
        if near(a, b, n):
            return n
    return 99


def enemies(rel: Relations, power: str) -> set[str]:
    wars = {q for q in POWERS if q != power and rel.at_war(power, q)}
    return wars or {q for q in POWERS if q != power and not rel.allied(power, q)}


# ====================================================================== the aircraft's orders

def air_orders(pos, ground_orders: dict, rel: Relations, rng: random.Random) -> dict[str, list]:
    """Each power's planes and bombers: supports, flights, bombings."""
    out: dict[str, list] = {}
    planes_at = {}
    for u in pos.units:
        if u.kind == "P":
            planes_at.setdefault(u.province, []).append(u)
    for power in POWERS:
        mine = [u for u in pos.units if u.power == power and u.kind in AIR]
        if not mine:
            continue
        orders = []
        gorders = ground_orders.get(power, [])
        attacks = [o for o in gorders if isinstance(o, Move) and province_of(o.dest) in BOARD.centres
                   and pos.owners.get(province_of(o.dest)) != power]
        threatened = [u for u in pos.units if u.power == power and u.kind not in AIR
                      and u.province in BOARD.centres and any(
                          v.power != power and v.kind not in AIR and near(v.province, u.province, 1)
                          and not rel.trusts(power, v.power) for v in pos.units)]
        front = sorted((u for u in pos.units if u.power == power and u.kind in ("A", "T")),
                       key=lambda u: (min((hops(u.province, c) for c in BOARD.centres
                                           if pos.owners.get(c) not in (power, None)), default=9), u.province))
        backed: dict[str, int] = {}
        foes = enemies(rel, power)
        for u in sorted(mine, key=lambda u: (u.kind, u.province)):
            if u.kind == "P":
                order = None
                for o in attacks:
                    if near(u.province, province_of(o.dest), 2) and backed.get(o.dest, 0) < 2:
                        order = Support(UnitRef("P", u.loc), o.unit, o.dest)
                        backed[o.dest] = backed.get(o.dest, 0) + 1
                        break
                if order is None:
                    for t in threatened:
                        if near(u.province, t.province, 2) and backed.get(t.province, 0) < 1:
                            order = Support(UnitRef("P", u.loc), UnitRef(t.kind, t.loc))
                            backed[t.province] = 1
                            break
                if order is None and front:
                    goal = front[0].province
                    if goal != u.province:
                        # as close to the front as two spaces take it, ending on land
                        reach = [p for p in within(BOARD, u.province, 2) if BOARD.provinces[p].is_land]
                        best = min(reach, key=lambda p: (hops(p, goal), p))
                        if hops(best, goal) < hops(u.province, goal):
                            order = Move(UnitRef("P", u.loc), best)
                orders.append(order or Hold(UnitRef("P", u.loc)))
            else:  # a bomber
                targets = [c for c in sorted(BOARD.centres) if near(u.province, c, 3)
                           and pos.owners.get(c) in foes]
                targets.sort(key=lambda c: (len(planes_at.get(c, [])) + (1 if rng.random() < 0.3 else 0), c))
                if targets:
                    orders.append(Bomb(UnitRef("B", u.loc), targets[0]))
                    continue
                mine_land = VARIANT.rules.controls(power, pos.units, pos.owners)
                goals = [c for c in BOARD.centres if pos.owners.get(c) in foes]
                reach = [p for p in within(BOARD, u.province, 3) if p in mine_land]
                if reach and goals:
                    best = min(reach, key=lambda p: (min(hops(p, g) for g in goals), p))
                    if min(hops(best, g) for g in goals) < min(hops(u.province, g) for g in goals):
                        orders.append(Move(UnitRef("B", u.loc), best))
                        continue
                orders.append(Hold(UnitRef("B", u.loc)))
        out[power] = orders
    return out


# ====================================================================== the winter

def winter(bot, pos, year: int) -> dict:
    """Points to spend: the power's taste first, then the bots' armies and fleets. Points short:
    aircraft farthest from home first, then the bots' choice of ground units."""
    out = {}
    for p, n in sorted(VARIANT.rules.adjustment_counts(pos).items()):
        mine = [u for u in pos.units if u.power == p]
        home = [c for c in sorted(HOME[p]) if pos.owners.get(c) == p]
        orders = []
        if n > 0:
            occupied = {u.province for u in pos.units if KINDS[u.kind].occupies}
            foreign_air = {u.province for u in pos.units if u.kind in AIR and u.power != p}
            free = [c for c in home if c not in occupied and c not in foreign_air]
            for letter in TASTE[p]:
                cost = KINDS[letter].build_cost
                if letter == "T":
                    armies = [u for u in mine if u.kind == "A" and u.province in home]
                    if n >= cost and free and not BOARD.provinces[free[-1]].is_coastal:
                        orders.append(Build(UnitRef("T", free.pop())))
                        n -= cost
                    elif n >= UPGRADE_COST and armies:
                        orders.append(Upgrade(UnitRef("A", armies[0].loc)))
                        n -= UPGRADE_COST
                elif n >= cost and free:
                    c = free.pop(0)
                    loc = BOARD.fleet_locations(c)[0] if letter == "F" and BOARD.provinces[c].is_coastal else c
                    if letter == "F" and not BOARD.provinces[c].is_coastal:
                        letter = "A"
                    orders.append(Build(UnitRef(letter, loc)))
                    n -= cost
            if n >= 2 and free:
                taken = {o.unit.loc[:3] for o in orders if isinstance(o, Build)}
                more = [o for o in bot.adjustments(ground(pos), p, len(free) + len(taken))
                        if isinstance(o, Build) and o.unit.loc[:3] not in taken]
                for o in more:
                    if n >= 2:
                        orders.append(o)
                        n -= 2
        else:
            if DISORDER[0] == p and DISORDER[1] in (None, year):
                out[p] = []
                continue
            owed = -n
            air = sorted((u for u in mine if u.kind in AIR),
                         key=lambda u: (-min(hops(u.province, h) for h in HOME[p]), u.loc))
            for u in air:
                if owed > 0:
                    orders.append(Remove(UnitRef(u.kind, u.loc)))
                    owed -= KINDS[u.kind].upkeep
            if owed > 0:
                for o in bot.adjustments(ground(pos), p, -len([u for u in mine if u.kind not in AIR])):
                    if owed > 0:
                        unit = next(u for u in mine if u.loc == o.unit.loc and u.kind not in AIR)
                        orders.append(Remove(UnitRef(unit.kind, unit.loc)))
                        owed -= KINDS[unit.kind].upkeep
        out[p] = orders
    return out


# ====================================================================== the press and notes

def movement_notes(record) -> tuple[list[str], dict]:
    """The GM's word on each bombing and on the plane stacks; a line of press from the bombed."""
    notes, press = [], {}
    for r in record.results:
        if isinstance(r.order, Bomb) and r.succeeded:
            target = province_of(r.order.target)
            owner = record.before.owners.get(target)
            notes.append(f"**{r.power}: {r.order.format(BOARD)}**: hit; {name(target)} gives one point less "
                         f"this year.")
            if owner and owner != r.power:
                press.setdefault(owner, f"Bombs on {name(target)}. We will remember who sent them.")
        elif isinstance(r.order, Bomb) and VARIANT.words.result_words(r) == ("defended",):
            target = province_of(r.order.target)
            notes.append(f"**{r.power}: {r.order.format(BOARD)}**: defended by the planes over {name(target)}.")
            owner = record.before.owners.get(target)
            if owner and owner != r.power:
                press.setdefault(owner, f"Our fighters turned back the raid on {name(target)}.")
    stacks = {}
    for u in record.after.units:
        if u.kind == "P":
            stacks.setdefault((u.power, u.province), []).append(u)
    for (power, prov), planes in sorted(stacks.items()):
        if len(planes) >= 3:
            notes.append(f"{power} has {len(planes)} planes over {name(prov)}.")
    return notes, press


def winter_notes(record) -> tuple[list[str], dict]:
    """The GM's word on each power short of its upkeep, and a line of press from it."""
    notes, press = [], {}
    for power, n in sorted(record.adjustments.items()):
        if n < 0:
            gone = [f"{r.unit.kind} {BOARD.format_loc(r.unit.loc)}" for r in record.results_of(power)
                    if r.succeeded and r.unit is not None]
            disorder = any(r.default for r in record.results_of(power) if r.succeeded)
            notes.append(f"**{power}** was {-n} supply point{'s' if n != -1 else ''} short of its upkeep"
                         + (": no removals arrived, so the rules removed " if disorder else " and removed ")
                         + ", ".join(gone) + ".")
            if not disorder:  # a player who sent no orders sends no press either
                press[power] = "Our treasury is empty: some of our forces stand down."
    return notes, press


# ====================================================================== the game

class Complicated(Scripted):
    slug = "supply-lines"
    last_year = 1908
    seed = 12
    allies, wars, GAME = ALLIES, WARS, GAME

    def movement(self, pos) -> dict:
        orders = super().movement(pos)
        for p, os in air_orders(pos, orders, self.rel, self.rng).items():
            orders.setdefault(p, []).extend(os)
        return orders

    def retreats(self, pos) -> dict:
        out = super().retreats(pos)
        for d in sorted(pos.dislodged, key=lambda d: d.unit.loc):
            if d.unit.kind in AIR:
                ref = UnitRef(d.unit.kind, d.unit.loc)
                home = [r for r in d.retreats if pos.owners.get(province_of(r)) == d.unit.power]
                dest = (home or sorted(d.retreats))[0] if d.retreats else None
                out.setdefault(d.unit.power, []).append(Retreat(ref, dest) if dest else Disband(ref))
        return out

    def adjustments(self, pos) -> dict:
        return winter(self.bot, pos, pos.phase.year)

    def annotate(self, history, data: dict) -> dict | None:
        record = history.records[-1]
        notes, press = (movement_notes(record) if record.kind == "movement" else
                        winter_notes(record) if record.kind == "adjustments" else ([], {}))
        if not notes:
            return None
        return {**data, **({"press": signed(press, CAPITALS)} if press else {}), "notes": bullets(notes)}

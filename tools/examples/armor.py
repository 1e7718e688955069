"""The Armor Diplomacy example game, games/tracks-in-the-mud/, as a GM would have received it.

The moves are the example bots' (bot.py), which plan with a tank as if it were an army; the tanks
are the script's: in the winter a tank-minded power (`TANK_MINDED`) builds a tank where it has two
builds and a free home centre, otherwise upgrades an army on a home centre, and when it must
remove it first downgrades a tank on a home centre. Every movement phase is adjudicated a second
time with every tank an army; where the outcome differs, the GM's notes on that season say so,
order by order, and the press of the powers concerned talks about it.
"""

from __future__ import annotations

import dataclasses

from dipgen.engine.movement import adjudicate_movement
from dipgen.core.orders import Build, Downgrade, Remove, Upgrade, UnitRef
from dipgen.variants import get_variant

from .board import BOARD, HOME, units_of
from .scripted import Scripted, bullets, ground, name, signed, tanks_in, with_kinds

VARIANT = get_variant("armor")
KINDS = VARIANT.rules.unit_kinds
TANK_MINDED = ("Germany", "Russia", "France", "Turkey")
NAMES = {"Austria": "Ilse Brandauer", "England": "Rupert Ashdown", "France": "Colette Arnaud",
         "Germany": "Jonas Reinholt", "Italy": "Marco Bellini", "Russia": "Yelena Sorokina",
         "Turkey": "Emre Aydin"}


# ====================================================================== the winter

def winter(bot, pos) -> dict:
    """Builds, upgrades, downgrades and removals: the bots' choices, with the tank-minded powers' tanks."""
    board = ground(pos)
    out = {}
    for p, n in sorted(VARIANT.rules.adjustment_counts(pos).items()):
        mine = [u for u in pos.units if u.power == p]
        home = [c for c in sorted(HOME[p]) if pos.owners.get(c) == p]
        orders = []
        if n > 0:
            if p in TANK_MINDED:
                occupied = {u.province for u in pos.units}
                free = [c for c in home if c not in occupied and not BOARD.provinces[c].is_coastal]
                free += [c for c in home if c not in occupied and c not in free]
                if n >= 2 and free:
                    orders.append(Build(UnitRef("T", free[0])))
                    n -= 2
                armies = [u for u in mine if u.kind == "A" and u.province in home]
                if n >= 1 and armies:
                    orders.append(Upgrade(UnitRef("A", armies[0].loc)))
                    n -= 1
            if n > 0:
                taken = {o.unit.loc[:3] for o in orders if isinstance(o, Build)}
                more = [o for o in bot.adjustments(board, p, n + len(taken)) if not (
                    isinstance(o, Build) and o.unit.loc[:3] in taken)]
                orders += more[:n]
        else:
            owed = -n
            for u in mine:
                if owed and u.kind == "T" and u.province in home:
                    orders.append(Downgrade(UnitRef("T", u.loc)))
                    owed -= 1
            downgraded = {o.unit.loc for o in orders}
            tanks = tanks_in(pos.units)
            for o in bot.adjustments(board, p, -len(units_of(board, p))):
                cost = 2 if o.unit.loc[:3] in tanks else 1
                if owed and cost <= owed and o.unit.loc not in downgraded:
                    orders.append(with_kinds(o, tanks))
                    owed -= cost
        out[p] = orders
    return out


# ====================================================================== what the tanks did

def _as_army(units, orders, tank: str):
    """The units and orders with the tank in province `tank` an army."""
    units = [dataclasses.replace(u, kind="A") if u.province == tank else u for u in units]

    def plain(o):
        return dataclasses.replace(o, **{f: dataclasses.replace(getattr(o, f), kind="A") for f in ("unit", "target")
                                         if isinstance(getattr(o, f, None), UnitRef) and getattr(o, f).loc[:3] == tank})
    return units, {p: [plain(o) for o in os] for p, os in orders.items()}


def tank_moments(record, orders) -> list[tuple[str, str, bool, str]]:
    """The battles of a movement phase a tank decided, as (power, province, whether that power won,
    what the GM says): the phase adjudicated again with one tank an army, for each tank; and every
    tank dislodged."""
    tanks = {u.province: u for u in record.before.units if u.kind == "T"}
    real = {r.unit.province: r for r in record.results if r.unit is not None}
    lost = {d.unit.province for d in record.dislodged + record.destroyed}
    decided: dict[str, list[str]] = {}
    for t in sorted(tanks):
        units, plain = _as_army(record.before.units, orders, t)
        alt = adjudicate_movement(BOARD, units, plain, KINDS)
        alt_lost = {d.unit.province for d in alt.dislodged + alt.destroyed}
        for r in alt.results:
            if r.unit is None or r.unit.province not in real:
                continue
            prov = r.unit.province
            if r.succeeded != real[prov].succeeded or (prov in alt_lost) != (prov in lost):
                decided.setdefault(prov, []).append(t)
    out = []
    for prov in sorted(decided, key=lambda p: (real[p].power, p)):
        r = real[prov]
        text = f"**{r.power}: {r.order.format(BOARD)}**"
        if decided[prov] == [prov]:
            why, other = "because it is a tank", "as an army"
        else:
            why = "because of " + " and ".join(f"{tanks[t].power}'s tank in {name(t)}" for t in decided[prov])
            other = "had that tank been an army"
        moved = type(r.order).__name__ == "Move"
        if prov in lost:
            out.append((r.power, prov, False, f"{text}: dislodged {why}; {other}, the unit would have stood."))
        elif moved and r.succeeded:
            out.append((r.power, prov, True, f"{text} succeeded {why}; {other}, the move would have failed."))
        elif moved:
            out.append((r.power, prov, False, f"{text} failed {why}; {other}, the move would have succeeded."))
        else:
            out.append((r.power, prov, True, f"{text}: the unit stood {why}; {other}, it would have been "
                                             f"dislodged."))
    for d in record.dislodged + record.destroyed:
        if d.unit.kind == "T":
            out.append((d.unit.power, d.unit.province, False,
                        f"**{d.unit.power}'s tank in {name(d.unit.province)}** was dislodged from "
                        f"{name(d.attacker_from)}: a tank holds with two, so the attack had at least three."))
    return out


def winter_notes(record) -> tuple[list[str], dict]:
    notes, press = [], {}
    for r in record.results:
        if r.order is None or not r.succeeded:
            continue
        text = r.order.format(BOARD)
        if isinstance(r.order, Build) and r.order.unit.kind == "T":
            notes.append(f"**{r.power}: {text}**: a tank, for two of {r.power}'s builds.")
            press.setdefault(r.power, "The new tank is ready. It counts as two, and we intend to make it count.")
        elif isinstance(r.order, Upgrade):
            notes.append(f"**{r.power}: {text}**: the army becomes a tank for one build.")
            press.setdefault(r.power, "Our army at home has been given armour. Neighbours, take note.")
        elif isinstance(r.order, Downgrade):
            notes.append(f"**{r.power}: {text}**: the tank becomes an army, which counts as one removal: "
                         f"{r.power} keeps the unit and loses the armour.")
            press.setdefault(r.power, "We cannot feed the tank any longer; the crew walks on.")
        elif isinstance(r.order, Remove) and r.order.unit.kind == "T":
            notes.append(f"**{r.power}: {text}**: a tank removed counts as two removals.")
    return notes, press


# ====================================================================== the game

class Armor(Scripted):
    slug = "tracks-in-the-mud"
    last_year = 1906
    seed = 7
    allies = (("England", "France"), ("Austria", "Italy"), ("Russia", "Turkey"))
    GAME = {"title": "Tracks in the Mud", "variant": "armor", "gm": "Walter Kessel", "players": NAMES,
            "description": "A club game of Armor Diplomacy, 1901 to 1906: the standard board, with tank armies "
                           "that count as two in battle and in supply. The GM's notes on each season point at the "
                           "battles a tank decided, which the same orders with armies would have ended otherwise, "
                           "and at every tank built, upgraded, downgraded or removed.\n\n*An example game: the "
                           "moves were written by dipgen's scripted player (`tools/armor_example.py`), the tanks "
                           "by its script; every name is invented.*"}

    def adjustments(self, pos) -> dict:
        return winter(self.bot, pos)

    def annotate(self, history, data: dict) -> dict | None:
        record = history.records[-1]
        if record.kind == "movement":
            moments = tank_moments(record, self.sent)
            notes, press = [n for *_, n in moments], {}
            for power, prov, won, _ in moments:
                press.setdefault(power, f"{name(prov)}: armour {'carried the day' if won else 'was not on our side'}"
                                        f". {'Noted, and enjoyed.' if won else 'Noted, and remembered.'}")
        elif record.kind == "adjustments":
            notes, press = winter_notes(record)
        else:
            notes, press = [], {}
        if not notes:
            return None
        return {**data, "press": signed(press), "notes": "What the tanks did this season:\n\n" + bullets(notes)}

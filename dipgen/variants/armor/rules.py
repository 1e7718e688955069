"""Armor Diplomacy: the standard game with tank armies (``T``).

A tank is an army that counts as two: strength 2 in attack, hold, defence and support (its
own, so no cut or dislodgement of another unit touches it), two centres to build and to keep.
An army on an owned home centre may be upgraded to a tank for one build, and a tank there
downgraded to an army for one removal. All of it is data (the kinds' strength, costs and
``upgrades_to``); the engine reads it. Rulings: site_src/rules/armor.md.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from dipgen.core.orders import STANDARD_KINDS
from dipgen.core.units import ARMY, FLEET, LAND, UnitKind
from dipgen.rules.variant import Rules

TANK = UnitKind("T", "tank", LAND, strength=2, convoyable=True, build_cost=2, upkeep=2)
ARMOR_UNIT_KINDS = MappingProxyType({"A": replace(ARMY, upgrades_to="T"), "F": FLEET, "T": TANK})


class ArmorRules(Rules):
    unit_kinds = ARMOR_UNIT_KINDS
    order_words = MappingProxyType({**STANDARD_KINDS, "t": "T", "tank": "T"})

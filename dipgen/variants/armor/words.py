"""Armor Diplomacy's name, and the tank's symbol on the maps."""

from types import MappingProxyType

from dipgen.present.svg.symbols import TANK
from dipgen.rules.variant import Words


class ArmorWords(Words):
    title = "Armor Diplomacy"
    description = ("The standard game with tank armies: a tank is an army that counts as two, in battle and in "
                   "supply; armies on home centres may be upgraded to tanks and tanks downgraded.")
    unit_symbols = MappingProxyType({"T": TANK})

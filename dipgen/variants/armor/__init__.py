"""Armor Diplomacy: the standard game with tank armies (rules.py), drawn with their own symbol (words.py)."""

from dipgen.rules.variant import Variant
from dipgen.variants.armor.rules import ArmorRules
from dipgen.variants.armor.words import ArmorWords


def variant() -> Variant:
    return Variant.of("armor", ArmorRules(), words=ArmorWords)

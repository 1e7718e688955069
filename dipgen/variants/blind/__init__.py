"""Blind Diplomacy: the standard game with every position secret. A power learns of a foreign unit
when it attacks it, is attacked by it, or meets it trying for the same province, and through its
spies, which move unseen and report on the unit in their province."""

from dipgen.rules.variant import Variant
from dipgen.variants.blind.files import BlindFiles
from dipgen.variants.blind.rules import BlindRules, StandardBoard
from dipgen.variants.blind.visibility import BlindPolicy
from dipgen.variants.blind.words import BlindWords


def variant() -> Variant:
    rules = BlindRules(StandardBoard())
    return Variant("blind", rules, BlindFiles(rules), BlindPolicy(rules), BlindWords(rules))

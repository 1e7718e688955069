"""Stab!: hidden movement. Nobody sees the board; each season's report shows only the orders
that came into contact with a foreign unit, and the GM tells each power privately what it is
owed. Players place their units freely with the Spring 1901 orders."""

from dipgen.rules.variant import Variant
from dipgen.variants.stab.files import StabFiles
from dipgen.variants.stab.rules import StabRules
from dipgen.variants.stab.visibility import StabPolicy
from dipgen.variants.stab.words import StabWords


def variant() -> Variant:
    return Variant.of("stab", StabRules(), files=StabFiles, policy=StabPolicy, words=StabWords)

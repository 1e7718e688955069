"""'Complicated' Diplomacy: supply points instead of one unit per centre; planes and bombers beside
armies, fleets and tanks; bombing of centres."""

from dipgen.rules.variant import Variant
from dipgen.variants.complicated.files import ComplicatedFiles
from dipgen.variants.complicated.rules import ComplicatedRules
from dipgen.variants.complicated.words import ComplicatedWords


def variant() -> Variant:
    return Variant.of("complicated", ComplicatedRules(), files=ComplicatedFiles, words=ComplicatedWords)

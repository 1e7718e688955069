"""Double Diplomacy: seven players, each the captain of two powers, each power with two captains
whose orders are synchronised."""

from dipgen.rules.variant import Variant
from dipgen.variants.double.files import DoubleFiles
from dipgen.variants.double.rules import DoubleRules
from dipgen.variants.double.words import DoubleWords


def variant() -> Variant:
    return Variant.of("double", DoubleRules(), files=DoubleFiles, words=DoubleWords)

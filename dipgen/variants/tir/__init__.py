"""The 2-player game with a Table of International Relations (TIR): two players each rule a Great
Power; the other five act through the orders both players write for them, as far as the TIR allows."""

from dipgen.rules.variant import Variant
from dipgen.variants.tir.files import TirFiles
from dipgen.variants.tir.rules import TirRules
from dipgen.variants.tir.words import TirWords


def variant() -> Variant:
    return Variant.of("tir", TirRules(), files=TirFiles, words=TirWords)

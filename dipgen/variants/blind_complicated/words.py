"""Blind Complicated's name, and Complicated's words (said of the rules of Complicated's board,
which Blind's are laid over)."""

from dipgen.variants.blind.rules import BlindRules
from dipgen.variants.complicated.words import ComplicatedWords


class BlindComplicatedWords(ComplicatedWords):
    title = "Blind Complicated Diplomacy"
    description = ("'Complicated' Diplomacy played blind: supply points, tanks, planes and bombers, every "
                   "position secret; powers learn of foreign units by fighting them and through their spies.")
    rules_page = "complicated#blind-complicated"

    def __init__(self, rules: BlindRules) -> None:
        super().__init__(rules.base)

"""Blind Diplomacy's name."""

from dipgen.rules.variant import Words


class BlindWords(Words):
    title = "Blind Diplomacy"
    description = ("A hidden game on the standard map: every position is secret; powers learn of foreign "
                   "units by fighting them and through their spies.")

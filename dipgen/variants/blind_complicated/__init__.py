"""Blind Complicated Diplomacy: Complicated's board (supply points, tanks, planes, bombers) played
blind, with Blind's spies. Composed of the two: Blind's rules over Complicated's (rules.py), Blind's
files over Complicated's, Blind's policy with the witnesses of each bombing (visibility.py), and
Complicated's words (the supply accounts stay private while the game runs: words.py)."""

from dipgen.rules.variant import Variant
from dipgen.variants.blind.rules import BlindRules
from dipgen.variants.blind_complicated.files import BlindComplicatedFiles
from dipgen.variants.blind_complicated.rules import Board
from dipgen.variants.blind_complicated.visibility import BlindComplicatedPolicy
from dipgen.variants.blind_complicated.words import BlindComplicatedWords


def variant() -> Variant:
    return Variant.of("blind-complicated", BlindRules(Board()), files=BlindComplicatedFiles,
                      policy=BlindComplicatedPolicy, words=BlindComplicatedWords)

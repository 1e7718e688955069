"""Blind Complicated's files: Blind's (the spies' places) over Complicated's (its options)."""

from dipgen.variants.blind.files import BlindFiles
from dipgen.variants.blind.rules import BlindRules
from dipgen.variants.complicated.files import ComplicatedFiles


class BlindComplicatedFiles(BlindFiles):
    def __init__(self, rules: BlindRules) -> None:
        super().__init__(rules, ComplicatedFiles(rules.base))

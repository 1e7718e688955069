"""The standard game: every default of `Variant`."""

from dipgen.rules.variant import Variant


class Standard(Variant):
    pass

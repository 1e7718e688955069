"""The standard game: every default of `Variant`."""

from dipgen.variants._whole import Whole as Variant


class Standard(Variant):
    pass

"""The standard game: every default of `dipgen.rules.variant`."""

from dipgen.rules.variant import Rules, Variant


def variant() -> Variant:
    return Variant.of("standard", Rules())

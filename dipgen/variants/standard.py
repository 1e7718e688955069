"""The standard game: every default of `Variant`."""

from .base import Variant


class Standard(Variant):
    pass

"""Blind Complicated's rules are Blind's laid over these (`dipgen.variants.blind.rules.BlindRules`):
Blind's movement splits off the spies and hands the rest to Complicated's (bombing included),
Blind's set-up places spies on Complicated's opening board, and spies come and go at the end of
each Fall as in Blind. What is left to say here is how Complicated's rules treat the spies.
"""

from __future__ import annotations

from types import MappingProxyType

from dipgen.core.orders import UnitRef
from dipgen.core.position import Position
from dipgen.variants.blind.rules import SPY
from dipgen.variants.complicated.rules import KINDS, ComplicatedRules


class Board(ComplicatedRules):
    """Complicated's rules on a board where Blind's spies stand too: they step over the spies,
    which cost nothing and are never built."""

    unit_kinds = MappingProxyType({**KINDS, "S": SPY})

    def can_build(self, power: str, ref: UnitRef, position: Position, occupied: set[str]):
        """Spies are never built: lost ones come back at the end of each Fall (Blind)."""
        kind = self.unit_kinds.get(ref.kind) if ref.kind else None
        if kind is not None and not kind.fights:
            return None, f"{kind.names} are not built: lost ones are replaced at the end of each Fall", None
        return super().can_build(power, ref, position, occupied)

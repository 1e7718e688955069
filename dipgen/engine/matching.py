"""Which unit an order names: the one rule the replay's checks and the engine's three phases share.

An order names a unit by its province and, where it matters, its letter (``A Par``,
``P Par``). In a province where one unit occupies and others stand beside it (a spy, a
plane), an order with the letter of a kind that does not occupy names one of those, the
ordering power's first, one not yet ordered first; any other order names the occupying unit.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from dipgen.core.position import Unit
from dipgen.core.units import UnitKind


def names_occupant(kind: str | None, kinds: Mapping[str, UnitKind]) -> bool:
    """Does an order written with letter `kind` name the unit occupying its province (rather than
    one of a kind that stands beside it)?"""
    named = kinds.get(kind) if kind else None
    return named is None or named.occupies


def pick(candidates: Sequence[Unit], kind: str | None, power: str | None, kinds: Mapping[str, UnitKind],
         taken: Collection[int] = ()) -> int | None:
    """The index in `candidates` (the units standing in the order's province) of the unit an
    order of `power` with letter `kind` names, or None when none stands there to be named
    (`power` None: a unit named by another's order, a support's or a convoy's, of any power).
    `taken`: indexes already ordered (by the same writer), passed over while others remain."""
    if not names_occupant(kind, kinds):
        same = [i for i, u in enumerate(candidates) if u.kind == kind]
        mine = [i for i in same if candidates[i].power == power]
        free = [i for i in mine if i not in taken]
        found = free or mine or same
        return found[0] if found else None
    occupying = [i for i, u in enumerate(candidates) if kinds[u.kind].occupies]
    return occupying[0] if occupying else None

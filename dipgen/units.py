"""Unit kinds. The standard game has armies and fleets; variants declare more (tanks, planes, spies)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True)
class UnitKind:
    letter: str      # how orders write it: "A"
    name: str        # "army"
    terrain: str     # "land": moves on the army graph; "sea": on the fleet graph
    strength: int = 1  # counts in attack, hold and support
    convoyable: bool = False  # can be carried by convoy
    convoys: bool = False     # can convoy others (from a sea province)
    takes_centres: bool = True
    plural: str = ""

    @property
    def names(self) -> str:
        """The plural: "armies", "spies"."""
        return self.plural or self.name + "s"


ARMY = UnitKind("A", "army", "land", convoyable=True)
FLEET = UnitKind("F", "fleet", "sea", convoys=True)
STANDARD_UNIT_KINDS: Mapping[str, UnitKind] = {"A": ARMY, "F": FLEET}

"""Unit kinds as data. The standard game has armies and fleets; variants declare more
(tanks, planes, bombers, spies) by making more `UnitKind` values, never by branching on a letter.

The engine, the retreat and adjustment rules, the reports and the renderer read a unit's
kind from the variant's table (letter -> `UnitKind`) and ask it what they need to know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # a strength may be a Fraction; the variants that use one import it
    from fractions import Fraction

#: what a unit counts in attack, hold and support: an int, or an exact Fraction (a plane's 1/2)
Strength: TypeAlias = "int | Fraction"

#: terrains a kind moves on: ``land`` (the army graph), ``sea`` (the fleet graph, coasts
#: included), ``air`` (every province, land and sea, through any unit)
LAND, SEA, AIR = "land", "sea", "air"


@dataclass(frozen=True)
class UnitKind:
    letter: str      # how orders write it: "A"
    name: str        # "army"
    terrain: str     # LAND, SEA or AIR: the graph it moves on
    strength: Strength = 1    # counts in attack, hold and support
    steps: int = 1            # how many spaces one move may cover (a plane 2, a bomber 3)
    convoyable: bool = False  # can be carried by convoy
    convoys: bool = False     # can convoy others (from a sea province)
    #: stands in its province as *the* unit there: at most one occupying unit per province,
    #: which blocks moves and retreats. A kind that does not occupy (a spy, a plane) shares a
    #: province with the occupying unit.
    occupies: bool = True
    fights: bool = True       # takes part in combat at all (a spy does not)
    takes_centres: bool = True
    may_end_at_sea: bool = True  # only checked for AIR kinds: a plane may not end a move at sea
    #: gives support (a bomber does not); an AIR kind supports anything within `steps`, seas included
    supports: bool = True
    build_cost: int = 1       # what it costs to build, in the variant's economy
    upkeep: int = 1           # what it costs to keep each year, in the variant's economy
    #: the letter of the kind this one may be upgraded to where it stands on an owned home
    #: centre (Armor's army -> tank); the dearer kind may be downgraded back the same way. The
    #: upgrade costs the difference of the build costs, the downgrade gives back the
    #: difference of the upkeeps
    upgrades_to: str = ""
    plural: str = ""

    @property
    def names(self) -> str:
        """The plural: "armies", "spies"."""
        return self.plural or self.name + "s"

    @property
    def article(self) -> str:
        """``an`` army, ``a`` fleet."""
        return "an" if self.name[:1] in "aeiou" else "a"


ARMY = UnitKind("A", "army", LAND, convoyable=True, plural="armies")
FLEET = UnitKind("F", "fleet", SEA, convoys=True)
STANDARD_UNIT_KINDS: Mapping[str, UnitKind] = {"A": ARMY, "F": FLEET}


def kind_for_terrain(kinds: Mapping[str, UnitKind], terrain: str) -> UnitKind | None:
    """The plainest buildable kind that moves on `terrain` (the one a civil-disorder rule or a
    bare ``Build Par`` means): the first such kind in the variant's table."""
    for kind in kinds.values():
        if kind.terrain == terrain and kind.occupies and kind.fights:
            return kind
    return None


def downgrade_of(kinds: Mapping[str, UnitKind], letter: str) -> UnitKind | None:
    """The kind a unit of kind `letter` becomes when downgraded (the kind that upgrades to it)."""
    return next((k for k in kinds.values() if k.upgrades_to and k.upgrades_to == letter), None)

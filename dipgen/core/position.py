"""Positions: the units on the board, who owns each centre, and dislodged units awaiting retreat.

A unit has an identity (`Unit.uid`) that survives its moves, retreats and changes of kind, so
that the History can follow one unit through the game. Several units may stand in one
province where their kinds allow it: at most one of them *occupies* it (the unit that blocks
moves and retreats); the others (Blind's spies, Complicated's planes) stand beside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from dipgen.core.board import Board, province_of
from dipgen.core.frozen import made
from dipgen.core.phase import Phase
from dipgen.core.units import UnitKind

@dataclass(frozen=True, order=True)
class Unit:
    """A unit of `power` of kind `kind` (a letter of the variant's kind table: ``"A"`` army,
    ``"F"`` fleet, ...) at `loc`, with its identity `uid` (0: new, numbered by the Position).

    Units compare as a player sees them (power, kind, place); `uid` follows one unit through
    the game and is not compared."""

    power: str
    kind: str
    loc: str
    uid: int = field(default=0, compare=False)

    @cached_property
    def province(self) -> str:
        return province_of(self.loc)

    def describe(self, board: Board) -> str:
        return f"{self.kind} {board.format_loc(self.loc)}"

    def moved(self, loc: str) -> Unit:
        """The same unit at `loc`: the value ``Unit(power, kind, loc, uid)`` is, made in a third of the
        time (`dipgen.core.frozen`; the engine moves thousands of units in a DATC file)."""
        return made(Unit, {"power": self.power, "kind": self.kind, "loc": loc, "uid": self.uid})


@dataclass(frozen=True)
class Dislodged:
    """A unit dislodged in the last movement phase, with where it may retreat."""

    unit: Unit
    attacker_from: str  # province the successful attack came from
    by_power: str
    retreats: tuple[str, ...] | None  # legal retreat locations, sorted; None in a view that may not know them


@dataclass(frozen=True)
class Position:
    phase: Phase
    units: tuple[Unit, ...]
    owners: Mapping[str, str]  # centre -> power; unowned centres are absent
    dislodged: tuple[Dislodged, ...] = ()
    #: centre totals, when they are known but the owners are not (a view of a hidden game)
    counts: Mapping[str, int] | None = None
    #: the variant's economy beyond one unit per centre (Complicated's supply points), per power
    economy: Mapping[str, object] | None = None
    #: province -> the units standing there, made when first asked (`units_at`)
    _by_province: dict[str, tuple[Unit, ...]] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if any(u.uid == 0 for u in self.units):  # new units (builds, placements) get the next numbers
            n = max((u.uid for u in self.units), default=0)
            numbered = []
            for u in self.units:
                if u.uid == 0:
                    n += 1
                    u = replace(u, uid=n)
                numbered.append(u)
            object.__setattr__(self, "units", tuple(numbered))

    def units_at(self, prov: str) -> tuple[Unit, ...]:
        """Every unit standing in province `prov` (coasts collapsed), in the position's order."""
        by = self._by_province
        if by is None:
            by = {}
            for u in self.units:
                by[u.province] = by.get(u.province, ()) + (u,)
            object.__setattr__(self, "_by_province", by)
        return by.get(prov, ())

    def occupant(self, prov: str, kinds: Mapping[str, UnitKind]) -> Unit | None:
        """The unit that occupies province `prov`, if any (`kinds`: the variant's kind table)."""
        return next((u for u in self.units_at(prov) if kinds[u.kind].occupies), None)

    def units_of(self, power: str, kinds: Mapping[str, UnitKind] | None = None) -> list[Unit]:
        """`power`'s units; given the variant's `kinds`, only those that fight (not its spies):
        the units a power is counted as having."""
        if kinds is None:
            return [u for u in self.units if u.power == power]
        return [u for u in self.units if u.power == power and kinds[u.kind].fights]

    def centres_of(self, power: str) -> list[str]:
        return sorted(c for c, p in self.owners.items() if p == power)

    def centre_counts(self, powers: Iterable[str]) -> dict[str, int]:
        if self.counts is not None:
            return {p: self.counts.get(p, 0) for p in powers}
        counts = {p: 0 for p in powers}
        for owner in self.owners.values():
            counts[owner] = counts.get(owner, 0) + 1
        return counts

    def with_(self, **changes: Any) -> Position:
        return replace(self, _by_province=None, **changes)


def initial_position(board: Board, year: int | None = None) -> Position:
    """The standard opening position: starting units, each power owning its home centres."""
    from dipgen.core.orders import parse_unit

    units = []
    for power, specs in board.starting_units.items():
        for spec in specs:
            kind, loc = parse_unit(board, spec)
            units.append(Unit(power, kind, loc))
    owners = {p.id: p.home for p in board.provinces.values() if p.home}
    return Position(Phase(year or board.start_year, 0), tuple(sorted(units, key=lambda u: u.loc)), owners)

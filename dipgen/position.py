"""Positions: the units on the board, who owns each centre, and dislodged units awaiting retreat."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Mapping

from .board import Board, province_of
from .phase import Phase

UNIT_NAMES = {"A": "army", "F": "fleet"}


@dataclass(frozen=True, order=True)
class Unit:
    """A unit of `power` of kind `kind` (``"A"`` army, ``"F"`` fleet; variants add more) at `loc`."""

    power: str
    kind: str
    loc: str

    @cached_property
    def province(self) -> str:
        return province_of(self.loc)

    def describe(self, board: Board) -> str:
        return f"{self.kind} {board.format_loc(self.loc)}"


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
    #: pieces that neither occupy nor fight (Blind's spies); several may share a province
    pieces: tuple[Unit, ...] = ()
    _by_province: dict = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def unit_at(self, prov: str) -> Unit | None:
        """The unit standing in province `prov` (coasts collapsed), if any."""
        by = self._by_province
        if by is None:
            by = {u.province: u for u in self.units}
            object.__setattr__(self, "_by_province", by)
        return by.get(prov)

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units if u.power == power]

    def centres_of(self, power: str) -> list[str]:
        return sorted(c for c, p in self.owners.items() if p == power)

    def centre_counts(self, powers) -> dict[str, int]:
        if self.counts is not None:
            return {p: self.counts.get(p, 0) for p in powers}
        counts = {p: 0 for p in powers}
        for owner in self.owners.values():
            counts[owner] = counts.get(owner, 0) + 1
        return counts

    def with_(self, **changes) -> "Position":
        return replace(self, _by_province=None, **changes)


def initial_position(board: Board, year: int | None = None) -> Position:
    """The standard opening position: starting units, each power owning its home centres."""
    from .orders import parse_unit  # local: orders imports position

    units = []
    for power, specs in board.starting_units.items():
        for spec in specs:
            kind, loc = parse_unit(board, spec)
            units.append(Unit(power, kind, loc))
    owners = {p.id: p.home for p in board.provinces.values() if p.home}
    return Position(Phase(year or board.start_year, 0), tuple(sorted(units, key=lambda u: u.loc)), owners)

"""The units of one movement phase where they stand, and where each can go.

`Battlefield` is what every step of the movement adjudication reads and never changes: the
units in combat (each keyed by its index), who stands in which province, and the board's
geometry as each unit kind sees it. `Ord` is one unit's legal order with its places resolved.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal

from dipgen.core.board import Board
from dipgen.core.orders import Convoy, Hold, Move, Support, UnitRef
from dipgen.core.position import Unit
from dipgen.core.reach import destinations, within
from dipgen.core.units import AIR, LAND, SEA, Strength, UnitKind
from dipgen.engine.convoys import ConvoyRoutes
from dipgen.engine.matching import names_occupant, pick


@dataclass(slots=True)
class _Ord:
    """What every legal order of a unit has: the unit, its key (its index among the units in
    combat) and the power that ordered it."""

    key: int
    unit: Unit
    power: str

    @property
    def src(self) -> str:
        return self.unit.province


@dataclass(slots=True)
class HoldOrd(_Ord):
    kind: ClassVar[Literal["hold"]] = "hold"
    given: Hold | None  # None: the hold the rules give a unit without a usable order


@dataclass(slots=True)
class MoveOrd(_Ord):
    kind: ClassVar[Literal["move"]] = "move"
    given: Move
    dest: str               # province
    dest_loc: str           # location (a coast for fleets on split-coast provinces)
    via: bool = False       # needs a convoy: not adjacent, or ordered via convoy (`legality`)
    convoyed: bool = False  # goes by convoy: `via`, or its own power convoys it (set by the adjudicator)


@dataclass(slots=True)
class SupportOrd(_Ord):
    kind: ClassVar[Literal["support"]] = "support"
    given: Support
    target: int             # key of the supported unit
    dest: str | None        # the province it is supported into; None: support to hold
    dest_loc: str | None    # the coast the support names, if it names one (DATC 4.B.4)


@dataclass(slots=True)
class ConvoyOrd(_Ord):
    kind: ClassVar[Literal["convoy"]] = "convoy"
    given: Convoy
    target: int             # key of the convoyed army
    dest: str               # the province it is convoyed to


#: A legal order of one unit, with its places resolved: one class per kind of order, each with
#: the fields that kind has (a move always has a destination, a support a supported unit), told
#: apart by `kind` (a class constant, which the type checker narrows on: ``o.kind == "move"``)
Ord = HoldOrd | MoveOrd | SupportOrd | ConvoyOrd


class _KindTables:
    """What a variant's unit kinds say, as tables the adjudication reads, made once per board and
    kind table (not once per phase: `kind_tables`). Read only."""

    __slots__ = ("board", "kinds", "occupies", "one_a_province", "near", "all_fight")

    def __init__(self, board: Board, kinds: Mapping[str, UnitKind]) -> None:
        self.board, self.kinds = board, kinds  # held, so that their ids are not used again while this is kept
        self.occupies = {letter: k.occupies for letter, k in kinds.items()}
        self.one_a_province = all(self.occupies.values())
        self.near = {letter: None if k.steps != 1 else board.army_reach if k.terrain == LAND
                     else board.fleet_touches if k.terrain == SEA else None for letter, k in kinds.items()}
        self.all_fight = all(k.fights for k in kinds.values())


#: (id of the board, id of the kind table) -> their tables; a few boards and kind tables live in a process
_TABLES: dict[tuple[int, int], _KindTables] = {}


def kind_tables(board: Board, kinds: Mapping[str, UnitKind]) -> _KindTables:
    tables = _TABLES.get((id(board), id(kinds)))
    if tables is None or tables.board is not board or tables.kinds is not kinds:
        if len(_TABLES) >= 64:  # kind tables made on the fly (tests): keep the cache small
            _TABLES.clear()
        tables = _TABLES[(id(board), id(kinds))] = _KindTables(board, kinds)
    return tables


class Battlefield:
    def __init__(self, board: Board, kinds: Mapping[str, UnitKind], units: Iterable[Unit]) -> None:
        self.board, self.kinds = board, kinds
        tables = kind_tables(board, kinds)
        #: per kind letter: does it occupy its province (`UnitKind.occupies`)?
        self.occupies: Mapping[str, bool] = tables.occupies
        #: does every kind occupy (no spies, no planes)? Then a province holds one unit at most
        self.one_a_province: bool = tables.one_a_province
        #: per kind letter: the board's table of where a unit of that kind can move from each
        #: location, for kinds that move one space on land or sea (None: worked out by `destinations`)
        self.near: Mapping[str, Mapping[str, frozenset[str]] | None] = tables.near
        #: the units that fight, each decision keyed by the unit's index here
        self.units: list[Unit]
        #: units outside combat (Blind's spies): they stay where they are unless the variant moves them
        self.bystanders: list[Unit]
        if tables.all_fight:
            self.units, self.bystanders = list(units), []
        else:
            units = list(units)
            self.units = [u for u in units if kinds[u.kind].fights]
            self.bystanders = [u for u in units if not kinds[u.kind].fights]
        #: province -> the key of the unit in combat occupying it
        self.at: dict[str, int]
        if self.one_a_province:
            self.at = {u.province: k for k, u in enumerate(self.units)}
        else:
            occupies = self.occupies
            self.at = {u.province: k for k, u in enumerate(self.units) if occupies[u.kind]}
        #: does each province hold one unit in combat at most (the usual case: then `at` says all)?
        self.single = self.one_a_province and len(self.at) == len(self.units)
        self._here: dict[str, list[int]] | None = None
        self.convoys = ConvoyRoutes(board)
        self._convoy_fleets: frozenset[str] | None = None

    @property
    def here(self) -> dict[str, list[int]]:
        """Province -> the keys of the units in combat standing there (made when first asked)."""
        if self._here is None:
            here: dict[str, list[int]] = defaultdict(list)
            for k, u in enumerate(self.units):
                here[u.province].append(k)
            self._here = here
        return self._here

    def kind(self, unit: Unit) -> UnitKind:
        return self.kinds[unit.kind]

    def strength(self, unit: Unit) -> Strength:
        return self.kinds[unit.kind].strength

    def reaches(self, unit: Unit, prov: str) -> bool:
        """Can `unit` move to province `prov` directly (coasts ignored)?"""
        near = self.near[unit.kind]
        if near is not None:
            return prov in near.get(unit.loc, ())
        return prov in destinations(self.board, self.kinds[unit.kind], unit.loc)

    def support_reaches(self, unit: Unit, prov: str) -> bool:
        """Can `unit` support in province `prov`? Where it could move; a kind that flies (AIR),
        anywhere within its `steps`, seas included, and its own province."""
        kind = self.kinds[unit.kind]
        if kind.terrain != AIR:
            return self.reaches(unit, prov)
        return prov == unit.province or prov in within(self.board, unit.province, kind.steps)

    def convoy_fleets(self) -> frozenset[str]:
        """The seas where a fleet stands that could convoy (worked out once, when an order first asks)."""
        if self._convoy_fleets is None:
            kinds, units, seas = self.kinds, self.units, self.board.seas
            self._convoy_fleets = frozenset(p for p, k in self.at.items() if p in seas and kinds[units[k].kind].convoys)
        return self._convoy_fleets

    def find(self, ref: UnitRef, power: str | None = None, taken: set[int] | None = None) -> int | None:
        """The key of the unit in combat an order of `power` names (`matching.pick`: the rule the
        replay's checks use too); `taken`: keys already ordered."""
        if self.single:  # one unit a province: the one there, if any
            return self.at.get(ref.province)
        keys = self.here.get(ref.province)
        if not keys:
            return None
        if len(keys) == 1:  # the usual case, said quickly: a lone occupant, named as `pick` names it
            k = keys[0]
            if power is None or self.one_a_province or (
                    names_occupant(ref.kind, self.kinds) and self.occupies[self.units[k].kind]):
                return k
        i = pick([self.units[k] for k in keys], ref.kind, power, self.kinds,
                 [j for j, k in enumerate(keys) if taken and k in taken])
        return None if i is None else keys[i]

"""Orders as value types: what each order is made of, and its one canonical printed form
(``Move(UnitRef("A", "par"), "bur").format(board)`` is ``"A Par - Bur"``). Reading what people
write is `dipgen.core.orders`'s."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from dipgen.core.board import Board, province_of

@dataclass(frozen=True)
class UnitRef:
    """A unit as an order names it: its kind (None when the writer left it out) and location."""

    kind: str | None
    loc: str

    def format(self, board: Board) -> str:
        loc = board.format_loc(self.loc)
        return f"{self.kind} {loc}" if self.kind else loc

    @cached_property
    def province(self) -> str:  # read for every order adjudicated: worked out once per reference
        return province_of(self.loc)


@dataclass(frozen=True)
class Hold:
    unit: UnitRef

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} H"


@dataclass(frozen=True)
class Move:
    unit: UnitRef
    dest: str
    via_convoy: bool = False

    def format(self, board: Board) -> str:
        via = " via convoy" if self.via_convoy else ""
        return f"{self.unit.format(board)} - {board.format_loc(self.dest)}{via}"


@dataclass(frozen=True)
class Support:
    """Support to hold (``dest`` None) or to move to ``dest``."""

    unit: UnitRef
    target: UnitRef
    dest: str | None = None

    def format(self, board: Board) -> str:
        s = f"{self.unit.format(board)} S {self.target.format(board)}"
        return s + (f" - {board.format_loc(self.dest)}" if self.dest else "")


@dataclass(frozen=True)
class Convoy:
    unit: UnitRef
    target: UnitRef
    dest: str

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} C {self.target.format(board)} - {board.format_loc(self.dest)}"


@dataclass(frozen=True)
class Retreat:
    unit: UnitRef
    dest: str

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} R {board.format_loc(self.dest)}"


@dataclass(frozen=True)
class Disband:
    """A dislodged unit disbands instead of retreating."""

    unit: UnitRef

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} disband"


@dataclass(frozen=True)
class Build:
    unit: UnitRef

    def format(self, board: Board) -> str:
        return f"Build {self.unit.format(board)}"


@dataclass(frozen=True)
class Remove:
    unit: UnitRef

    def format(self, board: Board) -> str:
        return f"Remove {self.unit.format(board)}"


@dataclass(frozen=True)
class _Change:
    """A unit on an owned home centre changes kind where it stands (``Upgrade A Par``)."""

    unit: UnitRef
    VERB = ""

    def format(self, board: Board) -> str:
        return f"{self.VERB} {self.unit.format(board)}"


class Upgrade(_Change):
    """Becomes the stronger kind, for a build (Armor: the army becomes a tank)."""

    VERB = "Upgrade"


class Downgrade(_Change):
    """Becomes the weaker kind, for a removal (Armor: the tank becomes an army)."""

    VERB = "Downgrade"


@dataclass(frozen=True)
class Waive:
    def format(self, board: Board) -> str:
        return "Waive"


@dataclass(frozen=True)
class Strike:
    """An order by which a unit strikes a location from where it stands, without moving: a
    variant's (Complicated's bombing, ``B Mun bomb Par``), each with the word it is written
    with (`VERB`). The maps draw it as a run to its target."""

    unit: UnitRef
    target: str
    VERB = ""

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} {self.VERB} {board.format_loc(self.target)}"


@dataclass(frozen=True)
class Action:
    """An order by which a unit does a thing of its variant's own where it stands, aiming at
    nothing (Blind's counter-espionage, ``S Par CE``), written with the word `VERB`."""

    unit: UnitRef
    VERB = ""

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} {self.VERB}"


@dataclass(frozen=True)
class Concealed:
    """What a hidden game's report shows of an order whose object is secret:
    ``A Pic S`` (it supported something), ``F ENG C`` (it convoyed something).
    Views make these; nobody writes them."""

    unit: UnitRef
    verb: str  # "S" or "C"

    def format(self, board: Board) -> str:
        return f"{self.unit.format(board)} {self.verb}"


#: the orders of the grammar's own; a variant adds kinds of its own (`Verb`), each a `Strike` or an `Action`
Order = (Hold | Move | Support | Convoy | Retreat | Disband | Build | Remove | Upgrade | Downgrade | Waive | Strike
         | Action | Concealed)
MOVEMENT_ORDERS = (Hold, Move, Support, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Remove, Upgrade, Downgrade, Waive)

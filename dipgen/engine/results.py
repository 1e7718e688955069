"""What happened to each order, as typed values a player can be told in words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..board import Board
from ..orders import Order
from ..position import Unit


@dataclass(frozen=True)
class Note:
    """One reason an order did what it did.

    kind is one of:
      ``bounce``     the move failed; ``against`` lists the provinces of the units that stopped it and
                     ``why`` says how: ``held`` (the unit there stayed), ``standoff`` (other moves
                     to the same province), ``self-standoff`` (only its own power's units)
      ``cut``        the support was cut by the unit from ``source``
      ``dislodged``  the unit was dislodged by the unit from ``source`` (of power ``power``)
      ``void``       the order was legal but did not match (``why``)
      ``illegal``    the order could never be carried out and was ignored (``why``)
      ``ignored``    the order was one of several for the same unit and was not used (``why``)
      ``no_convoy``  the army's convoy did not take place
      ``destroyed``  the unit was dislodged with nowhere to retreat
      ``disbanded``  the dislodged unit disbanded (ordered, or it could not retreat)
      ``civil_disorder`` a unit removed because the power gave too few removals
    """

    kind: str
    why: str = ""
    source: str | None = None
    power: str | None = None
    against: tuple[str, ...] = ()


@dataclass(frozen=True)
class OrderResult:
    """An order as given (``order``), by ``power``, for ``unit`` (None if there was no such unit),
    whether it succeeded, and why."""

    power: str
    order: Order | None
    unit: Unit | None
    succeeded: bool
    notes: tuple[Note, ...] = field(default=())
    default: bool = False  # an order the rules supplied (hold of an unordered unit, a CD removal)

    def has(self, kind: str) -> bool:
        return any(n.kind == kind for n in self.notes)

    @property
    def effective(self) -> bool:
        """Is this the order the unit carried out (its own, or one the rules gave it)?"""
        return self.unit is not None and not self.has("illegal") and not self.has("ignored")

    def tags(self) -> list[str]:
        """The classic result words: ``bounce``, ``cut``, ``dislodged``, ``void``..."""
        return self.words()

    def words(self, vocabulary: Mapping[str, str] | None = None) -> list[str]:
        """The result words, in a variant's vocabulary: keys are a note kind or ``kind:why``."""
        words = {"no_convoy": "no convoy", "civil_disorder": "civil disorder", "ignored": "void",
                 **(vocabulary or {})}
        out: list[str] = []
        for n in self.notes:
            w = words.get(f"{n.kind}:{n.why}", words.get(n.kind, n.kind))
            if w not in out:
                out.append(w)
        return out

    def format(self, board: Board, vocabulary: Mapping[str, str] | None = None) -> str:
        """``A Edi - Hol (*bounce*)``, ``A Pic S A Bur (*cut, dislodged*)``."""
        text = self.order_text(board)
        tags = self.words(vocabulary)
        return f"{text} (*{', '.join(tags)}*)" if tags else text

    def order_text(self, board: Board) -> str:
        if self.order is None:
            return self.unit.describe(board) + " H" if self.unit else ""
        return self.order.format(board)

    def explain(self, board: Board) -> str:
        """A sentence on why, for people: 'bounced with A Mun', 'cut by A Boh', ..."""
        parts = []
        for n in self.notes:
            if n.kind == "bounce" and n.against:
                parts.append("bounced with " + ", ".join(board.format_loc(p) for p in n.against))
            elif n.kind == "cut" and n.source:
                parts.append(f"cut by the unit from {board.format_loc(n.source)}")
            elif n.kind == "dislodged" and n.source:
                parts.append(f"dislodged by {n.power} from {board.format_loc(n.source)}")
            elif n.why:
                parts.append(f"{n.kind.replace('_', ' ')}: {n.why}")
            else:
                parts.append(n.kind.replace("_", " "))
        return "; ".join(parts)

"""What happened to each order, as typed values a player can be told in words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

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

    def explain(self, board: Board, unit_at: Callable[[str], Unit | None] = lambda prov: None) -> str:
        """Why, in words: 'bounced with Germany's A Kie', 'cut by France's A Bur',
        'dislodged by Italy's F ION from ION', 'void: the supported unit did not do that'.
        `unit_at` names the unit that stood in a province when the phase began."""

        def who(prov: str | None, own: bool = False) -> str:
            unit = unit_at(prov) if prov else None
            if unit is not None:
                return unit.describe(board) if own else f"{unit.power}'s {unit.describe(board)}"
            if prov:
                return f"the unit from {board.format_loc(prov)}"
            return "one of its own units" if own else "another unit"

        cut = next((n for n in self.notes if n.kind == "cut"), None)
        parts = []
        for n in self.notes:
            if n.kind == "bounce":
                own = n.why == "self-standoff"
                if own and not n.against:
                    parts.append("stood off by one of its own units")
                    continue
                how = {"held": "held off by ", "self-standoff": "stood off by its own "}.get(n.why, "bounced with ")
                parts.append(how + (" and ".join(who(p, own) for p in n.against) if n.against else "another unit"))
            elif n.kind == "cut":
                dislodged = next((d for d in self.notes if d.kind == "dislodged"), None)
                if dislodged is not None and dislodged.source == n.source:
                    continue  # said once, below
                parts.append(f"cut by {who(n.source)}")
            elif n.kind == "dislodged":
                both = cut is not None and cut.source == n.source
                parts.append(f"{'cut and ' if both else ''}dislodged by {who(n.source)}")
            elif n.kind == "no_convoy":
                parts.append("no convoy route")
            elif n.why:
                parts.append(f"{n.kind.replace('_', ' ')}: {n.why}")
            else:
                parts.append(n.kind.replace("_", " "))
        return "; ".join(parts)

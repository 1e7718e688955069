"""What happened to each order, as typed values a player can be told in words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from dipgen.core.board import Board
from dipgen.core.frozen import made
from dipgen.core.orders import Order
from dipgen.core.position import Unit


class Kind(Enum):
    """What happened to an order: the kind of a `Note`."""

    BOUNCE = "bounce"                  # the move failed; the reason says how (`Bounce`)
    CUT = "cut"                        # the support was cut
    DISLODGED = "dislodged"            # the unit was dislodged
    VOID = "void"                      # the order was legal but did not match what happened
    ILLEGAL = "illegal"                # the order could never be carried out (`Illegal` says why)
    IGNORED = "ignored"                # one of several orders for the same unit, not used
    NO_CONVOY = "no_convoy"            # the army's convoy did not take place
    DESTROYED = "destroyed"            # the unit was destroyed (nowhere to retreat; a spy caught)
    DISBANDED = "disbanded"            # the dislodged unit disbanded (ordered, or it could not retreat)
    CIVIL_DISORDER = "civil_disorder"  # a unit removed because the power gave too few removals
    CAUGHT = "caught"                  # Blind: a spy's counter-espionage caught enemy spies
    EFFECT = "effect"                  # a variant's order had its effect (a bombing hit); the reason says which
    INTAKE = "intake"                  # the variant's order intake changed or replaced the order;
    #                                    the reason is the variant's own (an Enum it defines)


class Bounce(Enum):
    """How a move failed."""

    HELD = "held"                    # the unit in the target province stayed
    STANDOFF = "standoff"            # other moves to the same province
    SELF_STANDOFF = "self-standoff"  # only its own power's units stopped it


class Illegal(Enum):
    """Why an order could never be carried out (the note's ``why`` says it to a person)."""

    WRONG_PHASE = "wrong-phase"      # not an order for this kind of phase
    NO_UNIT = "no-unit"              # no unit (or no dislodged unit) where the order names one
    NOT_YOURS = "not-yours"          # the unit belongs to another power
    IMPOSSIBLE = "impossible"        # the unit cannot do this: out of reach, not adjacent, no route...
    #: impossible because of other units, not the ordered unit and the map: the unit a support or
    #: convoy names is not there, or is not of a kind that can make the move; no fleets could
    #: convoy the army. One who sees only the ordered unit cannot tell it from a lawful order
    #: that failed, and a view for such a reader must not (`dipgen.view.seen`)
    ELSEWHERE = "elsewhere"
    CANNOT_BUILD = "cannot-build"    # a build in a place, or of a kind, the rules do not allow


#: a note's reason: `Bounce`, `Illegal`, or an Enum a variant defines (for `Kind.INTAKE`)
Reason = Enum


@dataclass(frozen=True)
class Note:
    """One reason an order did what it did: its `kind`, the typed `reason` where the kind has
    several (`Bounce` for a bounce, `Illegal` for an illegal order, a variant's own Enum for an
    intake note), and ``why``, the same in a sentence for a person (nothing may branch on it).

    The units a note names are the units themselves, as they stood when the phase began (where
    several share a province, a province would not say which): ``against``, the units that
    stopped a bounced move; ``source``, the unit that cut a support or dislodged a unit, or the
    unit that stood where an order wrongly named one of the orderer's own (`Illegal.NOT_YOURS`).
    A view (`dipgen.rules.visibility`) drops those its level may not see.
    """

    kind: Kind
    reason: Reason | None = None
    why: str = ""
    source: Unit | None = None
    against: tuple[Unit, ...] = ()

    def __post_init__(self) -> None:
        if type(self.kind) is not Kind or not (self.reason is None or isinstance(self.reason, Enum)):
            raise TypeError(f"a Note takes a Kind and an Enum reason, not {self.kind!r}, {self.reason!r}")


#: the classic result words, keyed by the typed values (a reason's word comes before its kind's)
STANDARD_WORDS: Mapping[Kind | Enum, str] = MappingProxyType({
    Kind.BOUNCE: "bounce", Kind.CUT: "cut", Kind.DISLODGED: "dislodged", Kind.VOID: "void",
    Kind.ILLEGAL: "illegal", Kind.IGNORED: "void", Kind.NO_CONVOY: "no convoy",
    Kind.DESTROYED: "destroyed", Kind.DISBANDED: "disbanded", Kind.CIVIL_DISORDER: "civil disorder",
    Kind.CAUGHT: "caught", Kind.EFFECT: "done", Kind.INTAKE: "changed",
})


#: how a bounce is said, by its reason (any other: "bounced with ")
_BOUNCED_BY: Mapping[Reason | None, str] = {Bounce.HELD: "held off by ", Bounce.SELF_STANDOFF: "stood off by its own "}


def result_words(notes: Iterable[Note], vocabulary: Mapping[Kind | Enum, str] = STANDARD_WORDS) -> tuple[str, ...]:
    """The words of an order's result, each once, in the order of its notes: a note's reason's
    word if the vocabulary has one, else its kind's. A variant's `result_vocabulary` is
    `STANDARD_WORDS` with its own words laid over it."""
    out: list[str] = []
    for n in notes:
        w = vocabulary.get(n.reason) if n.reason is not None else None
        if w is None:
            w = vocabulary[n.kind]
        if w not in out:
            out.append(w)
    return tuple(out)


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
    #: a convoyed move: the fleets it went by (or would have), in order from its start
    route: tuple[Unit, ...] = ()

    @classmethod
    def made(cls, power: str, order: Order | None, unit: Unit | None, succeeded: bool,
             notes: tuple[Note, ...] = (), default: bool = False, route: tuple[Unit, ...] = ()) -> OrderResult:
        """The same result as the constructor's, made in a third of the time (`dipgen.core.frozen`):
        the engine makes one per order, tens of thousands in a DATC file."""
        return made(cls, {"power": power, "order": order, "unit": unit, "succeeded": succeeded, "notes": notes,
                          "default": default, "route": route})

    def has(self, kind: Kind) -> bool:
        return any(n.kind is kind for n in self.notes)

    @property
    def effective(self) -> bool:
        """Is this the order the unit carried out (its own, or one the rules gave it)?"""
        return self.unit is not None and not self.has(Kind.ILLEGAL) and not self.has(Kind.IGNORED)

    def format(self, board: Board, vocabulary: Mapping[Kind | Enum, str] = STANDARD_WORDS) -> str:
        """``A Edi - Hol (*bounce*)``, ``A Pic S A Bur (*cut, dislodged*)``."""
        text = self.order_text(board)
        tags = result_words(self.notes, vocabulary)
        return f"{text} (*{', '.join(tags)}*)" if tags else text

    def order_text(self, board: Board) -> str:
        if self.order is None:
            return self.unit.describe(board) + " H" if self.unit else ""
        return self.order.format(board)

    def explain(self, board: Board) -> str:
        """Why, in words: 'bounced with Germany's A Kie', 'cut by France's A Bur',
        'dislodged by Italy's F ION', 'void: the supported unit did not do that'."""

        def who(unit: Unit | None, own: bool = False) -> str:
            if unit is not None:
                return unit.describe(board) if own else f"{unit.power}'s {unit.describe(board)}"
            return "one of its own units" if own else "another unit"

        cut = next((n for n in self.notes if n.kind is Kind.CUT), None)
        parts = []
        for n in self.notes:
            if n.kind is Kind.BOUNCE and n.why and not n.against:  # a variant's own failure, said its way
                parts.append(n.why)
            elif n.kind is Kind.BOUNCE:
                own = n.reason is Bounce.SELF_STANDOFF
                if own and not n.against:
                    parts.append("stood off by one of its own units")
                    continue
                how = _BOUNCED_BY.get(n.reason, "bounced with ")
                parts.append(how + (" and ".join(who(u, own) for u in n.against) if n.against else "another unit"))
            elif n.kind is Kind.CUT:
                dislodged = next((d for d in self.notes if d.kind is Kind.DISLODGED), None)
                if dislodged is not None and dislodged.source == n.source:
                    continue  # said once, below
                parts.append(f"cut by {who(n.source)}")
            elif n.kind is Kind.DISLODGED:
                both = cut is not None and cut.source == n.source
                parts.append(f"{'cut and ' if both else ''}dislodged by {who(n.source)}")
            elif n.kind is Kind.NO_CONVOY:
                parts.append("no convoy route")
            elif n.why:
                there = f" ({who(n.source)} is there)" if n.source is not None else ""
                parts.append(f"{n.kind.value.replace('_', ' ')}: {n.why}{there}")
            else:
                parts.append(n.kind.value.replace("_", " "))
        return "; ".join(parts)

"""The intake step: from the orders the GM received to the orders the engine adjudicates.

In the standard game each power's player writes its orders and they are adjudicated as
written. Variants change this one step (`Variant.intake`): Double Diplomacy merges the
orders of a power's two players ("not in sync: holds"), the 2-player game keeps only the
orders its Table of International Relations allows and picks between conflicting ones by a
draw. What the step decided is said in typed notes (`Note(Kind.INTAKE, reason)`, with a
reason Enum of the variant's own), attached by the replay to the result of the unit they
concern, so that the site, the maps and the reports say it in the variant's words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from dipgen.core.results import Note
from dipgen.core.orders import Order
from dipgen.core.orderline import OrderLine


@dataclass(frozen=True)
class Intake:
    """What the intake step hands the engine: each power's orders in the order they count, and
    the notes of what it decided, keyed by (power, province of the unit concerned)."""

    orders: Mapping[str, Sequence[Order]]
    notes: Mapping[tuple[str, str], tuple[Note, ...]] = field(default_factory=dict)
    #: the variant's state (`Position.economy`) once the step is over; None: as it was
    economy: Mapping | None = None
    #: what the step decided, for the variant's pages (kept as `PhaseRecord.intake`)
    report: object = None


def as_written(lines: Mapping[str, Sequence[OrderLine]]) -> Intake:
    """The standard intake: every order as written, each power's in the order written."""
    return Intake({power: [ol.order for ol in ls] for power, ls in lines.items() if ls})


def with_notes(results: Sequence, notes: Mapping[tuple[str, str], tuple[Note, ...]]) -> tuple:
    """`results` with each intake note added to the result of the unit it concerns: of the order
    the step handed over for it (even one the engine then found illegal: the note says what was
    decided, the engine's why that order failed), or else of the hold the rules gave it."""
    if not notes:
        return tuple(results)
    target: dict[tuple[str, str], int] = {}  # (power, province) -> the index of the result the notes go to
    for i, r in enumerate(results):
        if r.unit is None:
            continue
        key = (r.power, r.unit.province)
        if key in notes and (key not in target or results[target[key]].default and not r.default):
            target[key] = i
    out = list(results)
    for key, i in target.items():
        out[i] = replace(out[i], notes=out[i].notes + notes[key])
    return tuple(out)

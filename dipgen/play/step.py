"""One phase played: a position and a phase file's orders in, the phase's record out.

`play_phase` is a function of its inputs, in godip's order: validate (the units the orders
name, `dipgen.play.checks`), intake (the orders by who wrote them -> the orders adjudicated,
`Rules.intake`), resolve (the variant's adjudicator for the phase's kind), execute (the
position after), post-process (a season's end). The phase's kind says only which units, which
orders and which adjudicator; the adjudicator's outcome is typed by kind, so the record takes
what each kind has (a movement's dislodged units, a variant's economy) by its type. What the
GM must fix and what a player wrote that cannot be carried out come back with the record, for
the replay (`dipgen.play.replay`) to fold into the History or refuse.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dipgen.core.errors import GameError, Problem
from dipgen.core.orders import ADJUSTMENT_ORDERS, Disband, Order, Retreat
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from dipgen.core.position import Position, Unit
from dipgen.engine.adjustments import AdjustmentOutcome
from dipgen.engine.movement import MovementOutcome
from dipgen.engine.retreats import RetreatOutcome
from dipgen.play import checks
from dipgen.play.game import PhaseFile
from dipgen.play.records import PhaseRecord
from dipgen.rules.draws import PhaseDraws
from dipgen.rules.intake import Intake, with_notes
from dipgen.rules.variant import Rules, Variant

#: what a phase's adjudication hands back, by the phase's kind
Outcome = MovementOutcome | RetreatOutcome | AdjustmentOutcome
#: a centre that changed hands at a year's end: (centre, old owner, new owner)
CentreChange = tuple[str, "str | None", str]


@dataclass(frozen=True)
class PhaseResult:
    """A phase played: its record, what the GM must fix (`errors`: the record stands only if
    there are none) and the players' misorders she is told of (`warnings`)."""

    record: PhaseRecord
    errors: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()


def play_phase(variant: Variant, position: Position, pf: PhaseFile, draws: PhaseDraws | None = None) -> PhaseResult:
    """Play the phase `pf` is the file of from `position` (`draws`: the phase's, for variants
    that draw)."""
    rules, kind = variant.rules, pf.phase.kind
    position = rules.prepare(position, pf, draws)
    named = checks.check_units(rules, pf, _units(kind, position), "dislodged unit" if kind == RETREATS else "unit")
    found = named.problems + checks.empty_retreats(pf, position)
    allowed, what = _takes(kind, rules)
    lines, wrong = checks.of_this_phase(rules, pf, allowed, what, named.misorders)
    found += wrong
    intake = rules.intake(position, lines, draws)
    out = _adjudicate(kind, rules, position, intake.orders)
    found += checks.illegal_orders(rules, pf, out.results, named.units, (p for p in found if p.severity == "error"))
    after, changes, due = _after(variant, position, pf.phase, out, _economy(position, intake, out))
    dislodged, destroyed = (out.dislodged, out.destroyed) if isinstance(out, MovementOutcome) else ((), ())
    record = PhaseRecord(
        phase=pf.phase, before=position, orders={p: tuple(ls) for p, ls in pf.orders.items()},
        results=with_notes(out.results, intake.notes) + tuple(named.misorders.values()),
        after=after, dislodged=dislodged, destroyed=destroyed,
        centre_changes=changes, adjustments=due, nmr=_nmr(rules, pf, _powers(kind, position, due), position),
        press=pf.press, notes=pf.notes, source=pf.name, draws=draws.drawn if draws is not None else (),
        intake=intake.report)
    return PhaseResult(record, tuple(p for p in found if p.severity == "error"),
                       tuple(p for p in found if p.severity != "error"))


def step(variant: Variant, position: Position, phase_file: PhaseFile) -> PhaseRecord:
    """One phase on its own, drawing nothing: its record, or GameError on orders the GM must fix."""
    played = play_phase(variant, position, phase_file)
    if played.errors:
        raise GameError(list(played.errors))
    return played.record


def _units(kind: str, position: Position) -> tuple[Unit, ...]:
    """The units a phase's orders may name: the dislodged in a retreat phase, else all."""
    return tuple(d.unit for d in position.dislodged) if kind == RETREATS else position.units


def _takes(kind: str, rules: Rules) -> tuple[tuple[type, ...], str]:
    """The order classes a phase takes, and how to say so."""
    if kind == MOVEMENT:
        return rules.movement_orders, rules.movement_orders_text
    if kind == RETREATS:
        return (Retreat, Disband), "retreats and disbands"
    changes = "upgrades, downgrades, " if any(k.upgrades_to for k in rules.unit_kinds.values()) else ""
    return ADJUSTMENT_ORDERS, f"builds, {changes}removals and waives"


def _adjudicate(kind: str, rules: Rules, position: Position, orders: Mapping[str, Sequence[Order]]) -> Outcome:
    if kind == MOVEMENT:
        return rules.movement(position, orders)
    if kind == RETREATS:
        return rules.retreats(position, orders)
    if kind == ADJUSTMENTS:
        return rules.adjustments(position, orders)
    raise ValueError(f"a phase of an unknown kind: {kind!r}")


def _economy(position: Position, intake: Intake, out: Outcome) -> Mapping[str, object] | None:
    """The variant's state after a phase: as the adjudication left it (Complicated's bombing), or
    as the intake step left it (the TIR), or as it was. A retreat or an adjustment leaves the
    economy as the intake left it."""
    if isinstance(out, MovementOutcome) and out.economy is not None:
        return out.economy
    return intake.economy if intake.economy is not None else position.economy


def _after(variant: Variant, position: Position, phase: Phase, out: Outcome,
           economy: Mapping[str, object] | None) -> tuple[Position, tuple[CentreChange, ...], Mapping[str, int]]:
    """The position after a phase, the centres that changed hands, and the adjustments due."""
    calendar = variant.rules.calendar
    if isinstance(out, MovementOutcome):
        after = Position(calendar.retreats_of(phase), out.units, position.owners, out.dislodged, economy=economy)
        if out.dislodged or variant.policy.closed_by_file(after.phase):
            return after, (), {}
        return (*end_of_season(variant, after), {})
    if isinstance(out, RetreatOutcome):
        return (*end_of_season(variant, Position(phase, out.units, position.owners, economy=economy)), {})
    after = Position(calendar.after(phase), out.units, position.owners, economy=economy)
    return after, (), variant.rules.adjustment_counts(position)


def _powers(kind: str, position: Position, due: Mapping[str, int]) -> list[str]:
    """The powers that had to order in a phase."""
    if kind == RETREATS:
        return sorted({d.unit.power for d in position.dislodged})
    if kind == ADJUSTMENTS:
        return sorted(due)
    return sorted({u.power for u in position.units})


def _nmr(rules: Rules, pf: PhaseFile, powers: list[str], position: Position) -> tuple[str, ...]:
    """The powers that had to order and sent nothing."""
    return tuple(p for p in powers if not pf.orders.get(p) and rules.must_order(p, position))


def end_of_season(variant: Variant, after: Position) -> tuple[Position, tuple[CentreChange, ...]]:
    """After a season's last phase: at the end of the year's last season (the Fall) centres change
    hands (returned as (centre, old owner, new owner)) and the variant settles the rest
    (`Rules.after_fall`); then the next phase of the variant's calendar."""
    phase, calendar = after.phase, variant.rules.calendar
    changes: tuple[CentreChange, ...] = ()
    nxt = calendar.after_season(phase)
    if calendar.ends_year(phase):
        owners = variant.rules.update_owners(after.units, after.owners)
        changes = tuple((c, after.owners.get(c), o) for c, o in sorted(owners.items()) if after.owners.get(c) != o)
        after = variant.rules.after_fall(after.with_(owners=owners, phase=nxt, dislodged=()))
    else:
        after = after.with_(phase=nxt, dislodged=())
    return after, changes


def skip_empty(variant: Variant, position: Position) -> Position:
    """Move past phases with nothing to order (`Rules.phase_needed`): retreats nobody needs,
    winters nobody adjusts; but not a retreat phase the variant's policy closes by its file
    (`Policy.closed_by_file`)."""
    while not variant.rules.phase_needed(position) and not (
            position.phase.retreats and variant.policy.closed_by_file(position.phase)):
        position = position.with_(phase=variant.rules.calendar.after(position.phase))
    return position

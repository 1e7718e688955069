"""What one map shows: a phase's position and orders as one visibility level may know them.

`map_view(view, phase, when)` is what the renderer draws (`dipgen.present.svg` takes a `MapView`
and never a History): it is made from one level's `dipgen.view.GameView`, so a hidden
variant's filtering (and the public's fixed calendar) applies to every map. The site
(`dipgen.present.site.maps`) and `dipgen render` build it and hand it over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from dipgen.core.results import OrderResult
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase, PhaseKind
from dipgen.core.position import Dislodged, Unit
from dipgen.view import UNKNOWN, DislodgedView, GameView, PositionView

if TYPE_CHECKING:
    from dipgen.rules.variant import Variant

WHEN = ("orders", "after")


@dataclass(frozen=True)
class MapView:
    """Everything one map draws, already filtered for one visibility level."""

    title: str                      # "Spring 1901"
    subtitle: str                   # "orders and results", "after the moves", "awaiting orders"
    kind: PhaseKind | Literal["position"]  # a phase's orders, or a position alone
    units: tuple[Unit, ...]         # units standing at their anchors
    ghosts: frozenset[str]          # locations of units drawn faded (dislodged in this phase)
    dislodged: tuple[tuple[Dislodged, bool], ...]  # drawn at the dislodged anchor; True: destroyed
    owners: Mapping[str, str]
    results: tuple[OrderResult, ...] = ()
    after_units: tuple[Unit, ...] = ()  # where units ended up (to place a fleet's move on the right coast)
    counts: Mapping[str, int | None] = field(default_factory=dict)  # centres per power; None: not known
    pieces: tuple[Unit, ...] = ()       # units that do not occupy (Blind's spies), drawn small beside the units
    variant: Variant | None = None      # whose board, symbols and unit kinds to draw with


def centre_counts(pos: PositionView, powers) -> dict[str, int | None]:
    """Each power's centre total as the view knows it (None where the view does not know it)."""
    if pos.totals is not UNKNOWN:
        return {p: pos.totals.get(p, 0) for p in powers}
    seen: dict[str, int] = {}
    for owner in pos.owners.values():
        seen[owner] = seen.get(owner, 0) + 1
    return {p: seen.get(p) for p in powers}


def as_phase(phase) -> Phase | None:
    if phase is None or isinstance(phase, Phase):
        return phase
    return Phase.from_slug(str(phase))


def map_view(view: GameView, phase, when: str = "orders") -> MapView:
    """The map of `phase` (a `Phase`, its slug, or None for the position now) as `view`'s level
    knows it: ``when="orders"`` the orders and their results on the position before the phase,
    ``when="after"`` the position after it. ValueError for a phase the level does not know of,
    or another `when`."""
    variant = view.variant
    kinds = variant.rules.unit_kinds
    drawn, pos = _map_view(view, phase, when)
    # units that do not occupy their province (spies) are drawn small beside the one that does
    return replace(drawn, units=tuple(u for u in drawn.units if kinds[u.kind].occupies),
                   after_units=tuple(u for u in drawn.after_units if kinds[u.kind].occupies),
                   counts=centre_counts(pos, variant.rules.powers()),
                   pieces=tuple(u for u in pos.units if not kinds[u.kind].occupies), variant=variant)


def _dislodged(d: DislodgedView) -> Dislodged:
    """What the renderer draws of a dislodged unit: its attacker ('' where not known)."""
    attacker, by = "", ""
    if isinstance(d.attacker_from, str) and isinstance(d.by_power, str):  # a view knows both or neither
        attacker, by = d.attacker_from, d.by_power
    return Dislodged(d.unit, attacker, by, None if d.retreats is UNKNOWN else d.retreats)


def _map_view(view: GameView, phase, when: str) -> tuple[MapView, PositionView]:
    if when not in WHEN:
        raise ValueError(f"unknown map {when!r}: use 'orders' (the phase's orders and results) "
                         "or 'after' (the position after it)")
    phase = as_phase(phase)
    rec = None
    if phase is not None:
        try:
            rec = view.record(phase)
        except KeyError:
            if phase != view.now.phase or view.finished:
                shown = ", ".join(p.slug for p in view.phases()) or "none"
                raise ValueError(f"{phase.name} is not a phase of this game as the {view.level} view knows it "
                                 f"(known: {shown}; next: {view.now.phase.slug})") from None
    if rec is None:
        pos = view.now
        if view.finished and view.records:
            title, sub = view.records[-1].phase.name, "final position"
        else:
            title, sub = pos.phase.name, "awaiting orders"
        return MapView(title, sub, "position", pos.units, frozenset(),
                       tuple((_dislodged(d), False) for d in pos.dislodged), pos.owners), pos

    kind = rec.phase.kind
    if when == "after":
        pos = rec.after
        what = {MOVEMENT: "after the moves", RETREATS: "after the retreats",
                ADJUSTMENTS: "after builds and removals"}[kind]
        dislodged = tuple((_dislodged(d), False) for d in pos.dislodged) + \
            tuple((_dislodged(d), True) for d in rec.destroyed)
        return MapView(rec.phase.name, what, "position", pos.units, frozenset(), dislodged, pos.owners), pos

    before = rec.before
    if kind == MOVEMENT:
        hit = tuple((_dislodged(d), False) for d in rec.dislodged) + tuple((_dislodged(d), True) for d in rec.destroyed)
        ghosts = frozenset(d.unit.loc for d, _ in hit)
    elif kind == RETREATS:
        hit, ghosts = tuple((_dislodged(d), False) for d in before.dislodged), frozenset()
    else:
        hit, ghosts = (), frozenset()
    return MapView(rec.phase.name, "orders and results", kind, before.units, ghosts, hit, before.owners,
                   rec.results, rec.after.units), before

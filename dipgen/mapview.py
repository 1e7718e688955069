"""What one map shows: a phase's position and orders as one visibility level may know them.

`map_view(history, phase, level, when)` is the view the renderer draws (`dipgen.render`
takes a `MapView` and never a History). It reads the History only through the level's
`dipgen.timeline`, so a hidden variant's filtering (and the public's fixed calendar)
applies to every map: the site (`dipgen.site.maps`) and `dipgen render` build the view and
hand it over.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Mapping

from .engine.results import OrderResult
from .records import History
from .phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from .position import Dislodged, Position, Unit
from .timeline import timeline

if TYPE_CHECKING:
    from .variants import Variant

WHEN = ("orders", "after")


@dataclass(frozen=True)
class MapView:
    """Everything one map draws, already filtered for one visibility level."""

    title: str                      # "Spring 1901"
    subtitle: str                   # "orders and results", "after the moves", "awaiting orders"
    kind: str                       # movement | retreats | adjustments | position
    units: tuple[Unit, ...]         # units standing at their anchors
    ghosts: frozenset[str]          # locations of units drawn faded (dislodged in this phase)
    dislodged: tuple[tuple[Dislodged, bool], ...]  # drawn at the dislodged anchor; True: destroyed
    owners: Mapping[str, str]
    results: tuple[OrderResult, ...] = ()
    after_units: tuple[Unit, ...] = ()  # where units ended up (to place a fleet's move on the right coast)
    counts: Mapping[str, int | None] = field(default_factory=dict)  # centres per power; None: not known
    pieces: tuple[Unit, ...] = ()       # units that do not occupy (Blind's spies), drawn small beside the units
    variant: Variant | None = None      # whose board, symbols and unit kinds to draw with


def centre_counts(pos: Position, powers) -> dict[str, int | None]:
    """Each power's centre total as the view knows it (None where the view does not know it)."""
    if pos.counts is None or pos.counts:
        return dict(pos.centre_counts(powers))
    seen: dict[str, int] = {}
    for owner in pos.owners.values():
        seen[owner] = seen.get(owner, 0) + 1
    return {p: seen.get(p) for p in powers}


def as_phase(phase) -> Phase | None:
    if phase is None or isinstance(phase, Phase):
        return phase
    return Phase.from_slug(str(phase))


def map_view(history: History, phase, level: str, when: str = "orders") -> MapView:
    """The map of `phase` (a `Phase`, its slug, or None for the position now) as `level` ("gm",
    "public" or a power) knows it: ``when="orders"`` the orders and their results on the
    position before the phase, ``when="after"`` the position after it. ValueError for a phase
    the level does not know of, or another `when`."""
    variant = history.game.variant
    kinds = variant.unit_kinds
    view, pos = _map_view(history, phase, level, when)
    # units that do not occupy their province (spies) are drawn small beside the one that does
    return replace(view, units=tuple(u for u in view.units if kinds[u.kind].occupies),
                   after_units=tuple(u for u in view.after_units if kinds[u.kind].occupies),
                   counts=centre_counts(pos, variant.powers()),
                   pieces=tuple(u for u in pos.units if not kinds[u.kind].occupies), variant=variant)


def _map_view(history: History, phase, view: str, when: str) -> tuple[MapView, Position]:
    if when not in WHEN:
        raise ValueError(f"unknown map {when!r}: use 'orders' (the phase's orders and results) "
                         "or 'after' (the position after it)")
    phase = as_phase(phase)
    tl = timeline(history, view)
    rec = None
    if phase is not None:
        try:
            rec = tl.record(phase)
        except KeyError:
            if phase != tl.now.phase or history.finished:
                shown = ", ".join(p.slug for p in tl.phases()) or "none"
                raise ValueError(f"{phase.name} is not a phase of this game as the {view} view knows it (known: {shown}; "
                                 f"next: {tl.now.phase.slug})") from None
    if rec is None:
        pos = tl.now
        if history.finished and tl.records:
            title, sub = tl.records[-1].phase.name, "final position"
        else:
            title, sub = pos.phase.name, "awaiting orders"
        return MapView(title, sub, "position", pos.units, frozenset(),
                     tuple((d, False) for d in pos.dislodged), pos.owners), pos

    kind = rec.phase.kind
    if when == "after":
        pos = rec.after
        what = {MOVEMENT: "after the moves", RETREATS: "after the retreats",
                ADJUSTMENTS: "after builds and removals"}[kind]
        dislodged = tuple((d, False) for d in pos.dislodged) + tuple((d, True) for d in rec.destroyed)
        return MapView(rec.phase.name, what, "position", pos.units, frozenset(), dislodged, pos.owners), pos

    before = rec.before
    if kind == MOVEMENT:
        hit = tuple((d, False) for d in rec.dislodged) + tuple((d, True) for d in rec.destroyed)
        ghosts = frozenset(d.unit.loc for d, _ in hit)
    elif kind == RETREATS:
        hit, ghosts = tuple((d, False) for d in before.dislodged), frozenset()
    else:
        hit, ghosts = (), frozenset()
    return MapView(rec.phase.name, "orders and results", kind, before.units, ghosts, hit, before.owners,
                 rec.results, rec.after.units), before

"""The standard game: what its press talks about."""

from __future__ import annotations


from dipgen.board import province_of
from dipgen.orders import Move, Support
from .board import reaches
from .sim import PhaseLog

def movement_events(log: PhaseLog) -> dict:
    """What a movement phase did, in the terms press talks about."""
    ev = {"dislodged": [], "bounces": [], "convoys": [], "thanks": []}
    for d in list(log.dislodged) + list(log.destroyed):
        ev["dislodged"].append((d.unit.power, d.by_power, d.unit.province))
    moved_ok = {}
    for r in log.results:
        if isinstance(r.order, Move) and r.unit is not None:
            moved_ok[r.unit.province] = r.succeeded
            if r.succeeded and r.unit.kind == "A" and not reaches(r.unit, province_of(r.order.dest)):
                ev["convoys"].append((r.power, province_of(r.order.dest)))
            for n in r.notes:
                if n.kind == "bounce":
                    for q in n.against:
                        other = log.before.unit_at(q)
                        theirs = next((o for o in log.orders.get(other.power, []) if other is not None
                                       and o.unit.province == other.province), None) if other else None
                        standoff = isinstance(theirs, Move) and province_of(theirs.dest) == province_of(r.order.dest)
                        if other is not None and other.power != r.power and standoff and r.power < other.power:
                            ev["bounces"].append((r.power, other.power, province_of(r.order.dest)))
    for r in log.results:
        if isinstance(r.order, Support) and r.order.dest and r.succeeded:
            target = log.before.unit_at(r.order.target.province)
            if target is not None and target.power != r.power and moved_ok.get(target.province):
                ev["thanks"].append((target.power, r.power, r.order.dest))
    return ev



"""What each level of a Blind Complicated game knows: Blind's rulings on what fighting and spying
reveal, for every unit (planes and bombers are met where they are based, their flights meet
nobody), and who sees a bombing. The rulings are on the rules page (site_src/rules/complicated.md,
"Blind Complicated") and marked RULING below.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from dipgen.core.board import province_of
from dipgen.core.orders import Support
from dipgen.core.phase import MOVEMENT
from dipgen.core.results import Kind
from dipgen.rules.visibility import NOBODY, RecordVisibility
from dipgen.variants.blind.visibility import BlindPolicy, _spies_after_turn
from dipgen.variants.complicated.rules import Bomb


class BlindComplicatedPolicy(BlindPolicy):
    """Blind's policy, and the witnesses of each bombing."""

    def record_visibility(self, history, record) -> RecordVisibility:
        vis = super().record_visibility(history, record)
        if record.kind != MOVEMENT:
            return vis
        return _bombings_seen(record, vis, self.rules.unit_kinds)


def _bombings_seen(record, vis: RecordVisibility, kinds) -> RecordVisibility:
    """RULING: a bombing is seen from the centre it strikes: by the centre's owner, by every power
    with a unit based in it or a spy there at the end of the turn, and by every power whose plane
    supported a unit in it or a move into it (the planes that defend it). They learn the bomber,
    where it flew from, and the bombing's result; the bomber's power learns only the result
    (with how many bombers and defending planes met)."""
    witnesses: dict[str, set[str]] = defaultdict(set)
    owners = record.before.owners
    for centre in {province_of(r.order.target) for r in record.results if isinstance(r.order, Bomb)}:
        if owners.get(centre):
            witnesses[centre].add(owners[centre])
        witnesses[centre] |= {u.power for u in record.before.units if u.province == centre and kinds[u.kind].fights}
        witnesses[centre] |= {s.power for s in _spies_after_turn(record) if s.province == centre}
    for r in record.results:
        o, u = r.order, r.unit
        if isinstance(o, Support) and r.effective and u is not None and not kinds[u.kind].occupies:
            witnesses[province_of(o.dest) if o.dest else o.target.province].add(u.power)
    results = list(vis.results)
    before, after = dict(vis.before.units), dict(vis.after.units)
    later = {(u.power, u.kind, u.province): u for u in record.after.units}
    for i, r in enumerate(record.results):
        if not isinstance(r.order, Bomb) or not r.effective or r.unit is None or r.has(Kind.ILLEGAL):
            continue
        seen = frozenset(witnesses.get(province_of(r.order.target), ()))
        results[i] |= seen
        before[r.unit] = before.get(r.unit, NOBODY) | seen
        stays = later.get((r.unit.power, r.unit.kind, r.unit.province))
        if stays is not None:
            after[stays] = after.get(stays, NOBODY) | seen
    return replace(vis, results=tuple(results), before=replace(vis.before, units=before),
                   after=replace(vis.after, units=after))

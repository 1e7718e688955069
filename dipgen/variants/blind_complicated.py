"""Blind Complicated Diplomacy: Complicated's board (supply points, tanks, planes, bombers)
played blind, with Blind's spies.

Composed of the two variants: Blind's movement splits off the spies and hands the rest to
Complicated's (bombing included), Blind's set-up places spies on Complicated's opening board,
and Blind's rulings on what fighting and spying reveal apply to every unit (planes and bombers
are met where they are based, their flights meet nobody). What this module adds is who sees a
bombing, and that the supply accounts stay private. The rulings are on the rules page
(site_src/rules/complicated.md, "Blind Complicated") and marked RULING below.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from dipgen.core.board import province_of
from dipgen.core.results import Kind
from dipgen.core.orders import Bomb, Support
from dipgen.core.phase import MOVEMENT
from dipgen.rules.visibility import NOBODY, RecordVisibility
from dipgen.variants.blind import SPY, Blind, _spies_after_turn
from dipgen.variants.complicated import KINDS, Complicated


class BlindComplicated(Blind, Complicated):
    name = "blind-complicated"
    rules_page = "complicated#blind-complicated"
    title = "Blind Complicated Diplomacy"
    description = ("'Complicated' Diplomacy played blind: supply points, tanks, planes and bombers, every "
                   "position secret; powers learn of foreign units by fighting them and through their spies.")
    unit_kinds = {**KINDS, "S": SPY}
    order_words = {**Complicated.order_words, **Blind.order_words}
    unit_symbols = Complicated.unit_symbols
    movement_orders = tuple(dict.fromkeys(Complicated.movement_orders + Blind.movement_orders))
    movement_orders_text = ("movement orders: hold, move, support and convoy, for bombers bomb (B Mun bomb Par), "
                            "and for spies move, hold and counter-espionage (S Par - Bur, S Par H, S Par CE)")

    def can_build(self, power, ref, position, occupied):
        """Spies are never built: lost ones come back at the end of each Fall (Blind)."""
        kind = self.unit_kinds.get(ref.kind) if ref.kind else None
        if kind is not None and not kind.fights:
            return None, f"{kind.names} are not built: lost ones are replaced at the end of each Fall", None
        return super().can_build(power, ref, position, occupied)

    def record_visibility(self, history, record) -> RecordVisibility:
        vis = super().record_visibility(history, record)
        if record.kind != MOVEMENT:
            return vis
        return _bombings_seen(record, vis, self.unit_kinds)



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

"""Contact between units of different powers in a movement phase: what hidden variants
reveal. Stab! and Blind both start from these encounters and rule differently on what
each one shows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from dipgen.core.board import province_of
from dipgen.core.results import Kind, OrderResult
from dipgen.core.orders import Move
from dipgen.core.position import Unit
from dipgen.core.units import UnitKind


@dataclass(frozen=True)
class Contact:
    """A move (`move`) that met a unit of another power (`other`).

    kind ``conflict``: `other` stood in the destination and stayed there (or the two swapped
    head on, `head_on`); kind ``meeting``: `other` tried to move into the same province,
    which was empty or emptied that turn when `vacated`.
    """

    kind: Literal["conflict", "meeting"]
    move: OrderResult
    other: Unit
    other_result: OrderResult | None
    head_on: bool = False
    vacated: bool = False

    @property
    def mover(self) -> Unit:
        """The unit that moved (`move`'s: `contacts_of` takes only results that name their unit)."""
        assert self.move.unit is not None
        return self.move.unit


def contacts_of(record, kinds: Mapping[str, UnitKind]) -> list[Contact]:
    """Every contact of a movement record (each meeting is listed from both sides); `kinds`:
    the variant's unit kinds (units that do not fight meet nobody, nor do those that do not
    occupy a province: a plane's move is a flight, and the unit a move meets is the one that
    holds the province)."""
    on_board = {u for u in record.before.units if kinds[u.kind].fights and kinds[u.kind].occupies}
    eff = {r.unit.province: r for r in record.results if r.effective and r.unit is not None and r.unit in on_board}
    unit_at = {u.province: u for u in on_board}

    def moved(prov: str) -> bool:
        r = eff.get(prov)
        return r is not None and isinstance(r.order, Move) and r.succeeded

    # an army whose convoy failed never left: it meets nobody
    moves = [r for r in eff.values() if isinstance(r.order, Move) and not r.has(Kind.NO_CONVOY)]
    by_dest: dict[str, list[OrderResult]] = defaultdict(list)
    for m in moves:
        by_dest[province_of(m.order.dest)].append(m)
    out: list[Contact] = []
    for m in moves:
        dest = province_of(m.order.dest)
        there = unit_at.get(dest)
        if there is not None and there.power != m.power:
            back = eff.get(dest)
            head_on = (back is not None and isinstance(back.order, Move)
                       and province_of(back.order.dest) == m.unit.province)
            if not moved(dest) or head_on:
                out.append(Contact("conflict", m, there, back, head_on=head_on))
        vacated = there is None or moved(dest)
        for other in by_dest[dest]:
            if other is not m and other.power != m.power and other.unit is not None:
                out.append(Contact("meeting", m, other.unit, other, vacated=vacated))
    return out

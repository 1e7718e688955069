"""Double Diplomacy's rules: seven players, each the captain of two powers, each power with two captains.

Both captains of a power send a full set of orders for it; the intake step synchronises them
(`synchronise`): an order both gave (meaning the same, however written) is carried out, a unit
whose two orders differ holds, except that a support stands against a hold. What was not in
sync is said on the unit's result. The two captains of a power win together when it has 14
centres after a Fall turn. The seats (and their draw) are read by `files.py`. The rulings where
the seed is silent are on site_src/rules/double.md.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import replace

from dipgen.core.board import province_of
from dipgen.core.errors import GameError, Problem
from dipgen.core.orders import Build, Convoy, Disband, Hold, Move, Order, Support, UnitRef, Waive
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS
from dipgen.core.results import Kind, Note
from dipgen.rules.seats import Seating
from dipgen.rules.variant import Rules

#: the seed's table: player number -> her two powers (each power has two players)
TABLE: dict[int, tuple[str, str]] = {
    1: ("England", "Turkey"), 2: ("Turkey", "Germany"), 3: ("Germany", "Italy"), 4: ("Italy", "Russia"),
    5: ("Russia", "France"), 6: ("France", "Austria"), 7: ("England", "Austria")}
PAIRS = {frozenset(p) for p in TABLE.values()}
VICTORY = 14
SEATS_DRAW = "seats"  # the label of the set-up draw of random seats


class Sync(enum.Enum):
    """What the synchronisation decided for a unit (the reason of a `Kind.INTAKE` note)."""

    HOLDS = "not in sync: holds"
    SUPPORT_STANDS = "support stands over hold"
    DISBANDS = "not in sync: disbanded"


WORDS: dict[enum.Enum, str] = {Sync.HOLDS: "not in sync: holds", Sync.SUPPORT_STANDS: "support stands over hold",
         Sync.DISBANDS: "not in sync: disbanded"}


class DoubleRules(Rules):
    makes_draws = True  # only a game with `seats: random` draws (its seats, at the set-up)

    def drawn_seating(self, game, draws):
        """With `seats: random` (`game.setup`), the players in the order drawn are players 1-7 of the seed's table."""
        if not game.setup.get("random_seats"):
            return None
        order = draws.shuffle(SEATS_DRAW, game.seating.keys())
        control = {p: tuple(order[n - 1] for n in sorted(TABLE) if p in TABLE[n]) for p in self.powers()}
        return Seating(game.seating.seats, control)

    def initial_position(self, game, draws=None, secret=None):
        """The standard opening; first, every order is checked to be written by a captain of its power."""
        problems = []
        seating = game.seating
        for phase, pf in sorted(game.phases.items()):
            for (power, writer), key_line in pf.writers.items():  # an empty list counts too
                captains = {seating.seat(k).name(phase): k for k in seating.controllers(power, phase)
                            if seating.seat(k)}
                if writer in captains:
                    continue
                ol = next((ol for ol in pf.orders.get(power, ()) if ol.writer == writer), None)
                line = ol.line if ol is not None else key_line
                problems.append(Problem(pf.name, line, f"{writer} gives orders for {power}, which she does not "
                                        f"play in {phase.name}", f"{power}'s captains then: "
                                        f"{' and '.join(captains) or 'nobody'}; move the orders under the right power",
                                        code="not-her-power"))
        if problems:
            raise GameError(problems)
        return super().initial_position(game, draws, secret)

    # ------------------------------------------------------------------ intake
    def intake(self, position, lines, draws=None):
        from dipgen.rules.intake import Intake

        orders, notes = {}, {}
        for power, ls in lines.items():
            if not ls:
                continue
            given, notes_of = synchronise(self.board, position, power, ls)
            if given:
                orders[power] = given
            notes.update(notes_of)
        return Intake(orders, notes)

    # ------------------------------------------------------------------ victory
    def winners(self, position):
        counts = position.centre_counts(self.powers())
        return tuple(p for p in self.powers() if counts.get(p, 0) >= VICTORY)



def synchronise(board, position, power: str, lines) -> tuple[list[Order], dict]:
    """The orders of `power` adjudicated, from its captains' `lines`, and the notes of what was
    not in sync, keyed by (power, province of the unit). A captain who sent no order for a unit
    counts as ordering what the standard game gives an unordered unit (hold; disband in a retreat)."""
    kind = position.phase.kind
    writers = list(dict.fromkeys(ol.writer for ol in lines))
    if kind == ADJUSTMENTS:
        return _sync_adjustments(board, position, power, lines, writers), {}
    units = position.units if kind == MOVEMENT else tuple(d.unit for d in position.dislodged)
    by_unit: dict[str, dict[str, Order]] = {}
    for ol in lines:
        by_unit.setdefault(ol.order.unit.province, {})[ol.writer] = same_form(board, position, ol.order)
    out, notes = [], {}
    for unit in units:
        if unit.power != power:
            continue
        mine = by_unit.get(unit.province, {})
        if not mine:
            continue
        ref = UnitRef(unit.kind, unit.loc)
        default = Hold(ref) if kind == MOVEMENT else Disband(ref)
        given = [mine.get(w, default) for w in writers] + ([default] if len(writers) < 2 else [])
        a, b = given[0], given[1]
        missing = " (one captain sent no order for it)" if len(mine) < 2 else ""
        if a == b:
            out.append(a)
        elif kind == MOVEMENT and {type(a), type(b)} == {Hold, Support}:
            out.append(a if isinstance(a, Support) else b)
            notes[(power, unit.province)] = (Note(Kind.INTAKE, Sync.SUPPORT_STANDS,
                                                  why="a support overrules a hold" + missing),)
        else:
            out.append(default)
            reason = Sync.HOLDS if kind == MOVEMENT else Sync.DISBANDS
            notes[(power, unit.province)] = (Note(Kind.INTAKE, reason, why="its captains' orders differ" + missing),)
    return out, notes


def _sync_adjustments(board, position, power: str, lines, writers) -> list[Order]:
    """Builds and removals both captains ordered (a build or removal only one ordered is not made)."""
    if len(writers) < 2:
        return []
    each = [Counter(same_form(board, position, ol.order) for ol in lines if ol.writer == w
                    and not isinstance(ol.order, Waive)) for w in writers[:2]]
    both = each[0] & each[1]
    return [o for o in (same_form(board, position, ol.order) for ol in lines if ol.writer == writers[0])
            if both.pop(o, 0)]


def same_form(board, position, order: Order) -> Order:
    """`order` with its units named as they stand (kind and coast), so that two orders that mean
    the same compare equal however they were written ('F Lon - NTH', 'London-North Sea')."""
    if isinstance(order, (Build, Waive)):
        return order
    units = position.units if position.phase.kind != RETREATS else tuple(d.unit for d in position.dislodged)
    at = {u.province: u for u in units}
    on_board = {u.province: u for u in position.units}

    def named(ref: UnitRef, where) -> UnitRef:
        u = where.get(ref.province)
        return UnitRef(u.kind, u.loc) if u is not None else ref

    out = replace(order, unit=named(order.unit, at))
    if isinstance(out, (Support, Convoy)):
        out = replace(out, target=named(out.target, on_board))
    if (isinstance(out, Move) and out.unit.kind == "A"
            and province_of(out.dest) not in board.army_adj.get(out.unit.province, ())):
        out = replace(out, via_convoy=True)  # 'A Edi - Nwy' can only go by convoy: 'via convoy' adds nothing
    return out

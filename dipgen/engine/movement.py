"""Adjudication of a movement phase.

Pure: a position and each power's orders in, a `MovementOutcome` out. Every order has one
decision (a move succeeds, a support is given, a convoying fleet is not dislodged), settled
by Kruijswijk's guess-and-check (`resolver`); a cycle with no single answer goes to the
backup rule: Szykman for convoy paradoxes (the convoys in the cycle fail), circular movement
otherwise (every move in the cycle succeeds). Where units stand and where they can go is
`battlefield`; which orders are legal, `legality`; convoy routes, `convoys`.

Rules follow the 2023 rulebook with DATC 3.0's preferences: illegal orders are ignored
(4.E.1), a unit with several different legal orders holds (4.D.3), an army moves by convoy
to an adjacent province only if ordered `via convoy` or a fleet of its own power is ordered
to convoy it, with no fallback to the land route (4.A.3), every route of a multi-route
convoy must be disrupted (4.A.1), convoyed moves are never head-to-head (4.A.7), coasts
follow 4.B.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import attrgetter

from dipgen.core.board import Board, province_of
from dipgen.core.frozen import made
from dipgen.core.orders import Convoy, Hold, Move, Order, Support, UnitRef
from dipgen.core.position import Dislodged, Unit
from dipgen.core.reach import destinations
from dipgen.core.results import Bounce, Illegal, Kind, Note, OrderResult
from dipgen.core.units import STANDARD_UNIT_KINDS, Strength, UnitKind
from dipgen.engine.battlefield import Battlefield, ConvoyOrd, HoldOrd, MoveOrd, Ord, SupportOrd
from dipgen.engine.convoys import shortest_chain
from dipgen.engine.legality import Elsewhere, check
from dipgen.engine.resolver import GuessAndCheck


@dataclass(frozen=True)
class MovementOutcome:
    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]            # units on the board after the phase (not dislodged)
    dislodged: tuple[Dislodged, ...]   # dislodged units with somewhere to retreat
    destroyed: tuple[Dislodged, ...]   # dislodged units with nowhere to go (retreats empty)
    standoffs: frozenset[str] = field(default_factory=frozenset)
    #: the variant's economy after the phase (`Position.economy`), when the phase changed it
    economy: Mapping[str, object] | None = None


# Notes are values: the common ones without particulars are made once
_NO_CONVOY = Note(Kind.NO_CONVOY)
_VOID_SUPPORT = Note(Kind.VOID, why="the supported unit did not do that")
_VOID_CONVOY = Note(Kind.VOID, why="the army did not move by this convoy")
_TWICE = Note(Kind.IGNORED, why="the same order twice")
_SEVERAL = Note(Kind.IGNORED, why="the unit had several different orders, so it holds")
#: the place of a legal order's result until the adjudication settles it (one value for all)
_PENDING = OrderResult("", None, None, False)


class _Movement(Battlefield, GuessAndCheck):
    def __init__(self, board: Board, kinds: Mapping[str, UnitKind], units: Iterable[Unit],
                 orders: Mapping[str, Sequence[Order]], limit: bool = False, notes: bool = True,
                 results: bool = True) -> None:
        Battlefield.__init__(self, board, kinds, units)
        GuessAndCheck.__init__(self)
        #: whether the results say why (their notes), or only whether each order succeeded
        self.explain = notes
        #: whether the outcome has the orders' results at all, or only the positions after the phase
        self.keep_results = results
        #: the optional rule of 'Complicated': no side counts more units that do not occupy
        #: (planes) than units that do (armies, fleets) in one battle
        self.limit = limit
        self.given = orders
        self.ords: dict[int, Ord] = {}
        #: per order given, its result; `_PENDING` for an order carried out (in `ords`) until `run` settles it
        self.results: list[OrderResult] = []

    # ------------------------------------------------------------------ orders in
    def collect(self) -> None:
        """Match the given orders to units, drop illegal ones, settle multiple orders."""
        units, results, occupies, ords = self.units, self.results, self.occupies, self.ords
        taken: set[int] = set()  # units that do not occupy, once ordered
        #: key -> the slot in `results` of the order it carries out (in `ords`)
        slots: dict[int, int] = {}
        more: dict[int, list[tuple[Ord, int]]] = {}  # key -> all its legal orders, where it has several
        for power, orders in self.given.items():
            for order in orders:
                if not isinstance(order, (Hold, Move, Support, Convoy)):
                    results.append(self.failed(power, order, None, lambda: Note(
                        Kind.ILLEGAL, Illegal.WRONG_PHASE, "not an order for a movement phase")))
                    continue
                ref: UnitRef = order.unit
                key = self.find(ref, power, taken)
                # `failed` calls its note at once, so the notes' lambdas below read this turn's `ref`,
                # `unit` and `why`, never a later one (ruff's B023 cannot see that)
                if key is None:
                    results.append(self.failed(power, order, None, lambda: Note(
                        Kind.ILLEGAL, Illegal.NO_UNIT,
                        f"no unit in {self.board.full_name(ref.province)}")))  # noqa: B023 (called at once)
                    continue
                unit = units[key]
                if not occupies[unit.kind]:
                    taken.add(key)
                if unit.power != power:
                    results.append(self.failed(power, order, unit, lambda: Note(
                        Kind.ILLEGAL, Illegal.NOT_YOURS,
                        f"the unit in {self.board.full_name(unit.province)} "  # noqa: B023 (called at once)
                        f"is {unit.power}'s")))  # noqa: B023 (called at once)
                    continue
                order = _with_unit(order, unit)
                o, why = check(self, power, key, unit, order)
                if o is None:
                    results.append(self.failed(power, order, unit, lambda: Note(
                        Kind.ILLEGAL, Illegal.ELSEWHERE if isinstance(why, Elsewhere)  # noqa: B023 (called at once)
                        else Illegal.IMPOSSIBLE, why)))  # noqa: B023 (called at once)
                    continue
                if key in ords:
                    more.setdefault(key, [(ords[key], slots[key])]).append((o, len(results)))
                else:
                    ords[key], slots[key] = o, len(results)
                results.append(_PENDING)  # settled by `run`
        for key, several in more.items():
            if len({o.given for o, _ in several}) == 1:
                for o, dup in several[1:]:
                    results[dup] = self.failed(o.power, o.given, o.unit, lambda: _TWICE)
            else:  # the unit holds (below)
                del ords[key]
                for o, slot in several:
                    results[slot] = self.failed(o.power, o.given, o.unit, lambda: _SEVERAL)
        self._slots = slots
        for key, unit in enumerate(units):
            if key not in ords:
                ords[key] = HoldOrd(key, unit, unit.power, None)
        self.link()

    def link(self) -> None:
        """What the orders say of each other, needed before anything resolves: which moves go by
        convoy (4.A.3), which moves and supports name each province, which moves meet head to head."""
        units, ords, occupies = self.units, self.ords, self.occupies
        # (from, to) -> the seas whose fleets are ordered to convoy that move
        convoys: dict[tuple[str, str], list[str]] = defaultdict(list)
        self._convoy_candidates = convoys
        self.moves_to: dict[str, list[MoveOrd]] = defaultdict(list)
        self.supports_of: dict[tuple[int, str | None], list[SupportOrd]] = defaultdict(list)
        moves: list[MoveOrd] = []
        for o in ords.values():  # one pass sorts them; the moves need every convoy first
            if o.kind == "move":
                moves.append(o)
            elif o.kind == "support":
                self.supports_of[(o.target, o.dest)].append(o)
            elif o.kind == "convoy":
                convoys[(units[o.target].province, o.dest)].append(o.unit.province)
        kinds, at, moves_to = self.kinds, self.at, self.moves_to
        for o in moves:
            kind = o.unit.kind
            # `check` marked `via` every move of an army that needs a convoy (not adjacent, or
            # ordered via convoy); an adjacent move goes by convoy too if its own power convoys it
            if kinds[kind].convoyable:
                seas = convoys.get((o.unit.province, o.dest)) if convoys else None
                o.convoyed = o.via or (seas is not None and any(ords[at[f]].power == o.power for f in seas))
            if not occupies[kind]:  # a flight: through any unit, attacks nothing, always arrives
                self.value_final[o.key] = True
                continue
            moves_to[o.dest].append(o)
        #: province -> the order of the unit occupying it
        self.occupant: dict[str, Ord] = {prov: ords[k] for prov, k in self.at.items()}
        #: key of a move -> the move it meets head to head (the unit at its destination moving to its
        #: source); kept here, not on the orders, where two orders naming each other would be a reference cycle
        self.head_on: dict[int, MoveOrd] = {}
        for ms in self.moves_to.values():
            for o in ms:  # convoyed moves are never head to head (4.A.7)
                other = None if o.convoyed else self.occupant.get(o.dest)
                if other is not None and other.kind == "move" and other.dest == o.src and not other.convoyed:
                    self.head_on[o.key] = other

    def failed(self, power: str, order: Order | None, unit: Unit | None, note: Callable[[], Note]) -> OrderResult:
        """The result of an order that failed before adjudication, and why (`note`, made only
        when the results say why)."""
        return OrderResult.made(power, order, unit, False, (note(),) if self.explain else ())

    # ------------------------------------------------------------------ decisions
    def backup_rule(self, cycle: list[int]) -> None:
        convoys = [k for k in cycle if self.ords[k].kind == "convoy"]
        if convoys:  # Szykman: the convoys in a paradox fail
            for k in convoys:
                self.value_final[k] = False
            return
        moves = {k: m for k in cycle if (m := self.ords[k]).kind == "move" and k not in self.value_final}
        ring: set[int] = set()
        for start in moves:  # the units that really go round in a circle
            chain, nxt = [start], self.at.get(moves[start].dest)
            while nxt in moves and nxt not in chain:
                chain.append(nxt)
                nxt = self.at.get(moves[nxt].dest)
            if nxt == start:
                ring.update(chain)
        for k in ring or moves:  # circular movement: every move in it goes
            self.value_final[k] = True

    def adjudicate(self, key: int) -> bool:
        o = self.ords[key]
        if o.kind == "move":
            return self.move_succeeds(o)
        if o.kind == "support":
            return self.support_given(o)
        if o.kind == "convoy":
            return not any(self.resolve(m.key) for m in self.moves_to.get(o.src, ()))
        return True

    def path(self, o: MoveOrd) -> bool:
        if not o.convoyed:
            return True

        def convoying(sea: str) -> bool:
            f = self.ords[self.at[sea]]
            return f.kind == "convoy" and self.resolve(f.key)

        return self.convoys.route_exists(o.src, o.dest, self._convoy_candidates.get((o.src, o.dest), ()), convoying)

    def valid_hold_support(self, target: int) -> bool:
        return self.ords[target].kind != "move"

    def support_total(self, o: MoveOrd, exclude_power: str | None = None) -> Strength:
        total: Strength = 0
        given: list[Unit] | None = [] if self.limit else None
        for s in self.supports_of.get((o.key, o.dest), ()):
            if exclude_power is not None and s.power == exclude_power:
                continue
            if self.resolve(s.key):
                total += self.strength(s.unit)
                if given is not None:
                    given.append(s.unit)
        if given:
            return self.limited(o.unit, given)
        return total

    def limited(self, unit: Unit, supporters: list[Unit]) -> Strength:
        """The supporters' strength under the optional rule: units that do not occupy count
        no more of themselves than the battle has units that do (`unit` and its supporters)."""
        kinds = self.kinds
        ground = [u for u in [unit, *supporters] if kinds[u.kind].occupies]
        air = sorted((kinds[u.kind].strength for u in supporters if not kinds[u.kind].occupies), reverse=True)
        return sum(kinds[u.kind].strength for u in ground if u is not unit) + sum(air[:len(ground)])

    def attack(self, o: MoveOrd) -> Strength:
        """The strength of move `o`, which has a path (its callers have checked `path`)."""
        there = self.occupant.get(o.dest)
        h2h = self.head_on.get(o.key)
        if there is None or (h2h is None and there.kind == "move" and self.resolve(there.key)):
            return self.strength(o.unit) + self.support_total(o)
        if there.power == o.power:
            return 0
        return self.strength(o.unit) + self.support_total(o, exclude_power=there.power)

    def hold_strength(self, prov: str) -> Strength:
        o = self.occupant.get(prov)
        if o is None:
            return 0
        if o.kind == "move":
            return 0 if self.resolve(o.key) else self.strength(o.unit)
        total = self.strength(o.unit)
        given: list[Unit] = []
        for s in self.supports_of.get((o.key, None), ()):
            if self.resolve(s.key):
                total += self.strength(s.unit)
                given.append(s.unit)
        if self.limit and given:
            return self.strength(o.unit) + self.limited(o.unit, given)
        return total

    def defend(self, o: MoveOrd) -> Strength:
        return self.strength(o.unit) + self.support_total(o)

    def prevent(self, o: MoveOrd) -> Strength:
        if not self.path(o):
            return 0
        h2h = self.head_on.get(o.key)
        if h2h is not None and self.resolve(h2h.key):
            return 0
        return self.strength(o.unit) + self.support_total(o)

    def move_succeeds(self, o: MoveOrd) -> bool:
        if not self.path(o):
            return False
        att = self.attack(o)
        h2h = self.head_on.get(o.key)
        if att <= (self.defend(h2h) if h2h is not None else self.hold_strength(o.dest)):
            return False
        for m in self.moves_to[o.dest]:  # every other move there must be weaker
            if m is not o and att <= self.prevent(m):
                return False
        return True

    def matches_move(self, o: SupportOrd) -> bool:
        """Does the supported unit make the move this support names?"""
        t = self.ords.get(o.target)
        return (t is not None and t.kind == "move" and t.dest == o.dest
                and (o.dest_loc is None or o.dest_loc == t.dest_loc))

    def support_given(self, o: SupportOrd) -> bool:
        if not self.support_valid(o):
            return False
        if o.dest is None and self.units[o.target].province == o.src:
            return True  # the hold of a unit it stands with: the attack on both is the one it fights
        for m in self.moves_to.get(o.src, ()):
            if m.power == o.power or m.key == o.target:  # (a plane supporting a move into its own province)
                continue
            if o.dest is not None and m.src == o.dest:
                if self.resolve(m.key):  # the attack it supports against dislodges it
                    return False
                continue
            if self.path(m):
                return False
        return True

    def backs(self, key: int, move: MoveOrd) -> bool:
        """Is the unit at `key` ordered to support `move` (a plane beside the unit it attacks: it
        fought on the mover's side, and is not overrun by the move it supported)?"""
        s = self.ords[key]
        return s.kind == "support" and s.target == move.key and s.dest == move.dest

    # ------------------------------------------------------------------ results out
    def run(self) -> MovementOutcome:
        self.collect()
        for key, o in self.ords.items():
            if o.kind != "hold":
                self.resolve(key)
        moved = {k: o for k, o in self.ords.items() if o.kind == "move" and self.value_final[k]}
        dislodger: dict[int, MoveOrd] = {}  # key of a dislodged unit -> the move that dislodged it
        kinds = self.kinds
        for o in moved.values():
            if not kinds[o.unit.kind].occupies:
                continue  # a flight dislodges nothing
            there = self.at.get(o.dest)
            if there is not None and there not in moved:
                dislodger[there] = o
            if not self.single and len(self.here[o.dest]) > (there is not None):
                # units beside the occupant (planes) that stayed are dislodged with it, unless its own
                for j in self.here[o.dest]:
                    if j != there and j not in moved and self.units[j].power != o.power and not self.backs(j, o):
                        dislodger[j] = o
        results, slots, explain = self.results, self._slots, self.explain
        # each order's result in its slot, the rules' holds after the orders given (none where not kept)
        for key, o in self.ords.items() if self.keep_results else ():
            ok, ns = self.outcome(o, dislodger)
            if o.given is None:
                results.append(OrderResult.made(o.power, Hold(UnitRef(o.unit.kind, o.unit.loc)), o.unit, ok, ns,
                                                default=True))
            else:
                route = self.route(o) if o.kind == "move" and o.convoyed and explain else ()
                results[slots[key]] = OrderResult.made(o.power, o.given, o.unit, ok, ns, route=route)
        after: list[Unit] = []
        occupied: set[str] = set()
        occupies = self.occupies
        for key, unit in enumerate(self.units):
            if key in moved:
                move = moved[key]
                after.append(unit.moved(move.dest_loc))
                if occupies[unit.kind]:
                    occupied.add(move.dest)
            elif key not in dislodger:
                after.append(unit)
                if occupies[unit.kind]:
                    occupied.add(unit.province)
        # standoffs: empty provinces where a real attempt to move failed
        standoffs: set[str] = set()
        for dest, ms in self.moves_to.items():
            if dest in occupied:
                continue
            for m in ms:
                if self.value_final[m.key] or not self.path(m):
                    continue
                h2h = self.head_on.get(m.key)
                if h2h is not None and self.value_final[h2h.key]:
                    continue
                standoffs.add(dest)
        dislodged: list[Dislodged] = []
        destroyed: list[Dislodged] = []
        for key, att in sorted(dislodger.items(), key=lambda item: self.units[item[0]].province):
            unit = self.units[key]
            options = retreat_options(self.board, self.kinds, unit, att.src, att.convoyed, occupied, standoffs)
            d = Dislodged(unit, att.src, att.power, tuple(sorted(options)))
            (dislodged if options else destroyed).append(d)
        return made(MovementOutcome, {  # (the constructor, in a third of the time: one a phase)
            "results": tuple(results) if self.keep_results else (),
            "units": tuple(sorted(after + self.bystanders, key=attrgetter("loc"))),
            "dislodged": tuple(dislodged), "destroyed": tuple(destroyed), "standoffs": frozenset(standoffs),
            "economy": None})

    def route(self, o: MoveOrd) -> tuple[Unit, ...]:
        """The fleets a convoyed move goes by, in order from its start (`convoys.shortest_chain`
        of the fleets ordered to convoy it, whether or not the convoy held)."""
        fleets = {self.units[k].province: self.units[k] for k, c in self.ords.items()
                  if c.kind == "convoy" and c.target == o.key and c.dest == o.dest}
        return shortest_chain(self.board, o.src, o.dest, fleets)

    def outcome(self, o: Ord, dislodger: Mapping[int, MoveOrd]) -> tuple[bool, tuple[Note, ...]]:
        """Whether order `o` succeeded and, when the results say why, its notes (an order that
        succeeded has none)."""
        key = o.key
        if o.kind == "move":
            ok = self.value_final[key]
        elif o.kind == "support":
            ok = self.support_valid(o) and self.value_final[key]
        elif o.kind == "convoy":
            ok = self.convoy_used(o)
        else:
            ok = True
        if key in dislodger and o.kind != "move":
            ok = False
        if ok or not self.explain:
            return ok, ()
        notes: list[Note] = []
        if o.kind == "move":
            notes.append(self.bounce(o))
        elif o.kind == "support":
            if not self.support_valid(o):
                notes.append(_VOID_SUPPORT)
            elif not self.value_final[key]:
                cutters = [m for m in self.moves_to.get(o.src, ()) if m.power != o.power and m.src != o.dest
                           and m.key != o.target and self.path(m)]
                if not cutters and key in dislodger:  # dislodged from where it supported into: cut too
                    cutters = [dislodger[key]]
                if cutters:
                    notes.append(Note(Kind.CUT, source=cutters[0].unit))
        elif o.kind == "convoy" and not self.convoy_used(o):
            notes.append(_VOID_CONVOY)
        if key in dislodger:
            att = dislodger[key]
            notes.append(Note(Kind.DISLODGED, source=att.unit))
        return ok, tuple(notes)

    def support_valid(self, o: SupportOrd) -> bool:
        """Did the supported unit do what support `o` names (hold, or make that move)?"""
        return self.valid_hold_support(o.target) if o.dest is None else self.matches_move(o)

    def convoy_used(self, o: ConvoyOrd) -> bool:
        """Did the army convoy `o` names move by convoy where it says?"""
        t = self.ords.get(o.target)
        return t is not None and t.kind == "move" and t.dest == o.dest and t.convoyed

    def bounce(self, o: MoveOrd) -> Note:
        """Why move `o` failed."""
        if not self.path(o):
            return _NO_CONVOY
        against = self.stoppers(o)
        if against and all(s.power == o.power for s in against):
            how = Bounce.SELF_STANDOFF  # stopped by its own power's units only
        elif against and against[0].src == o.dest:
            how = Bounce.HELD  # the unit there stayed and was not beaten
        else:
            how = Bounce.STANDOFF  # other moves into the same province stopped it
        return Note(Kind.BOUNCE, how, against=tuple(s.unit for s in against))

    def stoppers(self, o: MoveOrd) -> list[Ord]:
        """The orders of the units that stopped move `o`: the unit it attacked first, if it held."""
        att = self.attack(o)
        out: list[Ord] = []
        h2h = self.head_on.get(o.key)
        there = self.occupant.get(o.dest)
        if there is not None and not (there.kind == "move" and self.value_final[there.key] and h2h is None):
            if h2h is not None or att <= self.hold_strength(o.dest):
                out.append(there)
        for m in self.moves_to[o.dest]:
            if m is not o and self.prevent(m) >= att and m not in out:
                out.append(m)
        return out


def retreat_options(board: Board, kinds: Mapping[str, UnitKind], unit: Unit, attacker_from: str,
                    attacker_convoyed: bool, occupied: Iterable[str], standoffs: Iterable[str]) -> list[str]:
    """Where a dislodged unit may retreat: next to it, empty, not stood off, and not where its
    attacker came from (unless the attacker came by convoy, DATC 4.A.5)."""
    blocked = set(occupied) | set(standoffs) if kinds[unit.kind].occupies else set()
    if not attacker_convoyed:
        blocked.add(attacker_from)
    return [loc for loc in destinations(board, kinds[unit.kind], unit.loc) if province_of(loc) not in blocked]


def _with_unit(order: Hold | Move | Support | Convoy, unit: Unit) -> Hold | Move | Support | Convoy:
    """The order naming `unit` as it stands (its kind, its coast)."""
    ref = order.unit
    if type(ref) is UnitRef and ref.kind == unit.kind and ref.loc == unit.loc:
        return order
    return replace(order, unit=UnitRef(unit.kind, unit.loc))


def adjudicate_movement(board: Board, units: Iterable[Unit], orders: Mapping[str, Sequence[Order]],
                        kinds: Mapping[str, UnitKind] = STANDARD_UNIT_KINDS, plane_limit: bool = False,
                        notes: bool = True, results: bool = True) -> MovementOutcome:
    """Resolve one movement phase. `orders` maps each power to its orders, in the order written
    (`plane_limit`: no side counts more units that do not occupy than units that do, per battle).
    With `notes` false the results say only whether each order succeeded, not why (no notes);
    with `results` false the outcome has no results at all (an empty tuple), only the positions
    after the phase: everything else is the same, and a caller that reads only positions (a DATC
    case) saves the work."""
    return _Movement(board, kinds, units, orders, plane_limit, notes, results).run()

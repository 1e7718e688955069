"""Blind Diplomacy's rules: a board's game (the standard one, or Complicated's in Blind
Complicated) played with spies. Spies are units of a kind that neither occupies a province nor
fights: they share provinces with anything, are never dislodged, move one space a season through
anything, and die only by counter-espionage. Blind's rules are laid over the board's (`BlindRules`):
they hand the board's rules every order but the spies', and settle the spies themselves.

What each level learns (every position is secret) is `visibility.py`'s; the spies' places at the
start are read by `files.py`. Rulings where the rule text is silent are listed on the rules page
(site_src/rules/blind.md) and marked RULING below.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from dipgen.core.board import province_of
from dipgen.core.orders import Action, Hold, Move, UnitRef, Verb
from dipgen.core.position import Position, Unit
from dipgen.core.results import Illegal, Kind, Note, OrderResult
from dipgen.core.units import AIR, STANDARD_UNIT_KINDS, UnitKind
from dipgen.engine.adjustments import distances_to_centres
from dipgen.engine.movement import MovementOutcome
from dipgen.rules.variant import Rules

SPY = UnitKind("S", "spy", AIR, strength=0, occupies=False, fights=False, takes_centres=False,
               build_cost=0, upkeep=0, plural="spies")


class CounterEspionage(Action):
    """A spy hunts the enemy spies in its own province: ``S Par CE``."""

    VERB = "CE"


COUNTER_ESPIONAGE = Verb(frozenset({"ce", "counterespionage", "counter-espionage", "counter espionage"}),
                         CounterEspionage)
#: how the spies' orders are said, after the board's own movement orders
SPY_ORDERS = "for spies move, hold and counter-espionage (S Par - Bur, S Par H, S Par CE)"


class StandardBoard(Rules):
    """The standard game's rules, on a board where Blind's spies stand too (they step over them:
    a spy neither occupies nor fights)."""

    unit_kinds = MappingProxyType({**STANDARD_UNIT_KINDS, "S": SPY})


class BlindRules(Rules):
    """Blind's rules over the rules of the board it is played on (`base`, whose unit kinds hold
    the spy): every hook is the board's, but the set-up, the movement phase and the end of the Fall,
    which add the spies."""

    #: RULING: the capitals are those the rule text's companion variant names
    capitals = {"Austria": "vie", "England": "lon", "France": "par", "Germany": "ber", "Italy": "rom",
                "Russia": "mos", "Turkey": "ank"}
    spies_at_start = 2

    def __init__(self, base: Rules) -> None:
        if base.unit_kinds.get("S") is not SPY:
            raise ValueError(f"{type(base).__name__}'s unit kinds need Blind's spy (S) for Blind to be played on them")
        self.base = base
        self.board = base.board
        self.board_name = base.board_name
        self.unit_kinds: Mapping[str, UnitKind] = base.unit_kinds
        self.calendar = base.calendar
        self.makes_draws = base.makes_draws
        self.order_words = {**base.order_words, "s": "S", "spy": "S"}
        self.verbs = base.verbs + (COUNTER_ESPIONAGE,)
        self.movement_orders = tuple(dict.fromkeys(base.movement_orders + (CounterEspionage,)))
        # the board's orders are a list whose last item follows ", and "; the spies' come last
        head, sep, last = base.movement_orders_text.rpartition(", and ")
        self.movement_orders_text = f"{head}, {last}, and {SPY_ORDERS}" if sep else \
            f"{base.movement_orders_text}, and {SPY_ORDERS}"

    # ------------------------------------------------------------------ the board's own
    def powers(self) -> list[str]:
        return self.base.powers()

    def home_centres(self, power: str) -> tuple[str, ...]:
        return self.base.home_centres(power)

    def start(self, year: int | None = None) -> Position:
        return self.base.start(year)

    def drawn_seating(self, game, draws):
        return self.base.drawn_seating(game, draws)

    def phase_needed(self, position: Position) -> bool:
        return self.base.phase_needed(position)

    def prepare(self, position: Position, phase_file, draws=None) -> Position:
        return self.base.prepare(position, phase_file, draws)

    def must_order(self, power: str, position: Position) -> bool:
        return self.base.must_order(power, position)

    def intake(self, position: Position, lines, draws=None):
        return self.base.intake(position, lines, draws)

    def retreats(self, position: Position, orders):
        return self.base.retreats(position, orders)

    def adjustment_counts(self, position: Position) -> dict[str, int]:
        return self.base.adjustment_counts(position)

    def adjustments(self, position: Position, orders):
        return self.base.adjustments(position, orders)

    def update_owners(self, units, owners) -> dict[str, str]:
        return self.base.update_owners(units, owners)

    def control_changes(self, record, seating):
        return self.base.control_changes(record, seating)

    def winner(self, position: Position) -> str | None:
        return self.base.winner(position)

    def winners(self, position: Position) -> tuple[str, ...]:
        return self.base.winners(position)

    def game_result(self, position: Position, phase, seating, fall_over: bool):
        return self.base.game_result(position, phase, seating, fall_over)

    # ------------------------------------------------------------------ the start
    def initial_position(self, game, draws=None, secret=None) -> Position:
        """The board's opening position, with each power's spies where `game.setup` places them
        (RULING: spies not placed start in the capital and the next home centre in the board's order)."""
        position = self.base.initial_position(game, draws, secret)
        chosen = game.setup.get("spies", {})
        spies: list[Unit] = []
        for power in self.powers():
            if power in chosen:
                spies.extend(Unit(power, "S", prov) for prov in chosen[power])
                continue
            homes = self.home_centres(power)
            first = [self.capitals[power]] + [c for c in homes if c != self.capitals[power]]
            spies.extend(Unit(power, "S", c) for c in first[: self.spies_at_start])
        return position.with_(units=tuple(sorted(position.units + tuple(spies), key=lambda u: u.loc)))

    # ------------------------------------------------------------------ a movement phase
    def movement(self, position: Position, orders) -> MovementOutcome:
        spy_orders: dict[str, list] = defaultdict(list)
        regular: dict[str, list] = defaultdict(list)
        for power, given in orders.items():
            for order in given:
                ref = getattr(order, "unit", None)
                (spy_orders if ref is not None and ref.kind == "S" else regular)[power].append(order)
        out = self.base.movement(position, regular)
        results, spies = self.spy_phase(tuple(u for u in position.units if u.kind == "S"), spy_orders)
        units = tuple(sorted([u for u in out.units if u.kind != "S"] + list(spies), key=lambda u: u.loc))
        return replace(out, results=out.results + tuple(results), units=units)

    def spy_phase(self, spies: tuple[Unit, ...], orders) -> tuple[list[OrderResult], tuple[Unit, ...]]:
        """Spies move one space, through anything, or hold, or hunt (counter-espionage): a hunting
        spy kills every enemy spy in its province at the end of the turn, and two enemies
        hunting in the same province kill each other."""
        plans = self.spy_plans(spies, orders)
        where = [(p, dest) for p, _, spy, dest, _ in plans if spy is not None]
        hunters = [(p, dest) for p, _, spy, dest, what in plans if what == "ce"]
        results: list[OrderResult] = []
        survivors: list[Unit] = []
        for power, order, spy, dest, what in plans:
            if spy is None:
                results.append(OrderResult(power, order, None, False, (Note(Kind.ILLEGAL, Illegal.NO_UNIT, what),)))
                continue
            caught = any(h != power and place == dest for h, place in hunters)
            notes: list[Note] = []
            if what not in ("move", "hold", "ce", "unordered"):
                notes.append(Note(Kind.ILLEGAL, Illegal.IMPOSSIBLE, what))
            if what == "ce":
                victims = sum(1 for p, place in where if p != power and place == dest)
                if victims:
                    notes.append(Note(Kind.CAUGHT, why=f"{victims} enemy {'spy' if victims == 1 else 'spies'}"))
            if caught:
                notes.append(Note(Kind.DESTROYED, why="counter-espionage"))
            else:
                survivors.append(replace(spy, loc=dest))
            ok = not caught and what in ("move", "hold", "ce", "unordered")
            shown = order if order is not None else Hold(UnitRef("S", spy.loc))
            results.append(OrderResult(power, shown, spy, ok, tuple(notes), default=order is None))
        return results, tuple(sorted(survivors))

    def spy_plans(self, spies: tuple[Unit, ...], orders) -> list[tuple]:
        """What each spy does: (power, order, the spy or None, where it ends, what: "move", "hold",
        "ce", "unordered" or why the order cannot be carried out)."""
        free: dict[tuple[str, str], list[Unit]] = defaultdict(list)
        for spy in sorted(spies):
            free[(spy.power, spy.province)].append(spy)
        plans: list[tuple[str, object, Unit | None, str | None, str]] = []
        for power, given in orders.items():
            for order in given:
                waiting = free[(power, order.unit.province)]
                if not waiting:
                    plans.append((power, order, None, None,
                                  f"{power} has no spy in {self.board.full_name(order.unit.province)}"))
                    continue
                spy = waiting.pop(0)
                if isinstance(order, Move):
                    dest = province_of(order.dest)
                    if dest in self.board.neighbours(spy.province):
                        plans.append((power, order, spy, dest, "move"))
                    else:  # RULING: a spy moves one space a season, as an army or a fleet would
                        plans.append((power, order, spy, spy.province,
                                      f"{self.board.full_name(dest)} is not next to "
                                      f"{self.board.full_name(spy.province)}"))
                elif isinstance(order, (Hold, CounterEspionage)):
                    plans.append((power, order, spy, spy.province,
                                  "ce" if isinstance(order, CounterEspionage) else "hold"))
                else:
                    plans.append((power, order, spy, spy.province, "a spy may only move, hold or counter-spy"))
        for waiting in free.values():
            for spy in waiting:
                plans.append((spy.power, None, spy, spy.province, "unordered"))
        return plans

    # ------------------------------------------------------------------ spies come and go
    def spies_due(self, power: str, owners) -> int:
        """Two, less one without the capital, plus one for each enemy capital held; none
        without a single home centre."""
        homes = self.home_centres(power)
        if not any(owners.get(c) == power for c in homes):
            return 0
        own_capital = owners.get(self.capitals[power]) == power
        taken = sum(1 for p, c in self.capitals.items() if p != power and owners.get(c) == power)
        return self.spies_at_start - (0 if own_capital else 1) + taken

    def after_fall(self, position: Position) -> Position:
        """RULING: spies are lost and replaced when the Fall turn ends and centres change hands:
        a power short of spies gets new ones in its capital (or, without it, its first home
        centre it still owns); a power with too many loses those farthest from its home."""
        position = self.base.after_fall(position)
        pieces = [u for u in position.units if u.kind == "S"]
        owners = position.owners
        for power in self.powers():
            mine = sorted((p for p in pieces if p.power == power), key=lambda s: s.loc)
            due = self.spies_due(power, owners)
            owned_homes = [c for c in self.home_centres(power) if owners.get(c) == power]
            if len(mine) > due:
                dist = distances_to_centres(self.board, owned_homes)
                far = sorted(mine, key=lambda s: (-dist.get(s.province, 99), self.board.provinces[s.province].name))
                for spy in far[: len(mine) - due]:
                    pieces.remove(spy)
            elif len(mine) < due and owned_homes:
                cap = self.capitals[power]
                home = cap if owners.get(cap) == power else owned_homes[0]
                pieces.extend(Unit(power, "S", home) for _ in range(due - len(mine)))
        others = [u for u in position.units if u.kind != "S"]
        return position.with_(units=tuple(sorted(others + pieces, key=lambda u: u.loc)))


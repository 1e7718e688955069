"""Taskdip's rules (Andreas Kueck): 2 to 7 players on the standard board. Powers are drawn by lot
before the first phase (two each with two or three players, one each with more), and each
allotted power draws a secret task from its row of Table 1 (tasks.py). The other powers
are "originally neutral": their units hold. An order (successful or not) that moves, retreats,
supports or convoys into a neutral power's home country violates its neutrality; from the next
phase the neutral power is allotted to a player who respected it, by the rule's criteria.

Where the lots come from: the game's committed seed (public draws for the powers, secret ones
for the tasks, published at the reveal), or the GM's ``lots:`` in secrets.yml when the players
drew playing cards, used as written (`files.py` reads them, and the resignations). The board is
public; only the tasks are hidden (`visibility.py`).

The rulings where the rule text is silent are on site_src/rules/taskdip.md and marked RULING.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from types import MappingProxyType

from dipgen.core.board import province_of
from dipgen.core.errors import GameError, Problem
from dipgen.core.orders import Convoy, Move, Order, Retreat, Support
from dipgen.core.outcome import GameResult
from dipgen.core.phase import Phase
from dipgen.core.position import Position
from dipgen.core.results import Kind, Note
from dipgen.rules.intake import Intake
from dipgen.rules.seats import ControlChange, Seating
from dipgen.rules.variant import Rules
from dipgen.variants.taskdip.tasks import CARDS, Task, table

class Neutrality(Enum):
    VIOLATES = "violates"


@dataclass(frozen=True)
class Violation:
    """An order that violated `neutral`'s neutrality: by `seat`, for `power`, in `phase`."""

    neutral: str
    seat: str
    power: str
    order: str
    phase: Phase


@dataclass(frozen=True)
class Allotment:
    """The set-up: each seat's powers, each allotted power's task, and the cards drawn for it
    (two when the first was redrawn)."""

    powers: dict[str, tuple[str, ...]]        # seat -> powers, in the order drawn
    tasks: dict[str, Task]                    # power -> its task
    cards: dict[str, tuple[str, ...]]         # power -> cards drawn (the first redrawn if two)
    source: str                               # "seed" or "secrets.yml"
    #: the powers whose first task was redrawn: the rules have its player announce it, so everyone
    #: knows it (though not the cards); by default, read off `cards`
    redrawn: frozenset[str] | None = None

    def __post_init__(self) -> None:
        if self.redrawn is None:
            object.__setattr__(self, "redrawn", frozenset(p for p, c in self.cards.items() if len(c) > 1))


@dataclass(frozen=True)
class TaskdipState:
    """What one game has decided so far, kept in the position (`Position.economy["taskdip"]`), so
    that the variant object holds nothing of any game: the lots, who controls which power, the
    resignations (from the phase files), every violation so far, and the control changes that the
    phase just played made (`control_changes` hands them to the replay)."""

    allotment: Allotment
    seating: Seating
    resigned: Mapping[str, Phase] = field(default_factory=dict)  # seat -> the phase after which she resigned
    violations: tuple[Violation, ...] = ()
    pending: tuple[ControlChange, ...] = ()

    def resigned_before(self, seat: str, phase: Phase) -> bool:
        """Had `seat` resigned before `phase`?"""
        since = self.resigned.get(seat)
        return since is not None and since < phase

    def holds_only(self, power: str, phase: Phase) -> bool:
        """Do `power`'s units hold without orders in `phase` (neutral, or all its players resigned)?"""
        return all(self.resigned_before(s, phase) for s in self.seating.controllers(power, phase))

    def neutral(self, power: str, phase: Phase) -> bool:
        """Is `power` under nobody's control at `phase`?"""
        return not self.seating.controllers(power, phase)


def state_of(position: Position) -> TaskdipState | None:
    """The game's Taskdip state, kept in `position` (None: a position no Taskdip set-up made)."""
    state = (position.economy or {}).get("taskdip")
    return state if isinstance(state, TaskdipState) else None


def game_state(position: Position) -> TaskdipState:
    """The game's Taskdip state, in a position of a game Taskdip's set-up made (every one the
    replay hands the rules: `TaskdipRules.initial_position` puts it there)."""
    state = state_of(position)
    if state is None:
        raise ValueError(f"a Taskdip position keeps the game's state in its economy; {position.phase.name}'s has none")
    return state


def allotment_of(position) -> Allotment | None:
    """The lots of a game as `position` (a Position, or a view of one) holds them: each player's
    powers and each power's task (as far as a view may know them)."""
    state = state_of(position)
    return state.allotment if state else None


class TaskdipRules(Rules):
    makes_draws = True

    def __init__(self) -> None:
        super().__init__()
        self.tasks = table(self.board.home_centres)  # Table 1: data, the same for every game

    def powers_each(self, players: int) -> int:
        return 2 if players <= 3 else 1

    # ------------------------------------------------------------------ the set-up: lots and tasks
    def initial_position(self, game, draws=None, secret=None) -> Position:
        """The lots drawn before the first phase: as the GM wrote them (`secret`'s ``lots``, an
        `Allotment` as `files.py` read it from secrets.yml) or drawn from the game's seed."""
        seats = game.seating.keys()
        lots = (secret or {}).get("lots")
        allotment = lots if lots is not None else self._drawn_lots(draws, seats)
        control = {p: tuple(s for s in seats if p in allotment.powers[s]) for p in self.powers()}
        # the allotment is the game's seating from the first phase on (lots are drawn before it)
        game.seating = Seating(game.seating.seats, control)
        game.players = {p: [(game.seating.player(p), None)] for p in self.powers() if game.seating.player(p)}
        state = TaskdipState(allotment, game.seating, MappingProxyType(self._resignations(game)))
        return self.start(game.start).with_(economy=MappingProxyType({"taskdip": state}))

    def _resignations(self, game) -> dict[str, Phase]:
        """Each phase file's ``resign:`` (the players who resign after that phase, with their lines,
        as `files.py` read them): each player's first."""
        out: dict[str, Phase] = {}
        problems = []
        for phase, pf in sorted(game.phases.items()):
            for seat, line in pf.extra.get("resign", ()):
                if seat in out:
                    problems.append(Problem(pf.name, line, f"{seat} resigned already, after {out[seat].name}",
                                            "keep the first resignation", code="bad-resign"))
                else:
                    out[seat] = phase
        if problems:
            raise GameError(problems)
        return out

    def eligible(self, power: str, partner: tuple[str, ...]) -> list[str]:
        """The cards whose task needs no home centre of `partner` (the player's other power)."""
        theirs = [c for p in partner for c in self.board.home_centres(p)]
        return [card for card in CARDS if not self.tasks[power][card].needs_any_of(theirs)]

    def _drawn_lots(self, draws, seats: list[str]) -> Allotment:
        if draws is None:
            raise GameError([Problem("game.yml", None, "Taskdip draws its lots from the game's seed", code="no-seed")])
        order = draws.shuffle("powers", self.powers())
        k = self.powers_each(len(seats))
        powers = {s: tuple(order[i * k:(i + 1) * k]) for i, s in enumerate(seats)}
        tasks: dict[str, Task] = {}
        cards: dict[str, tuple[str, ...]] = {}
        for seat in seats:
            for power in powers[seat]:
                partner = tuple(p for p in powers[seat] if p != power)
                first = draws.choice(f"task {power}", CARDS, secret=True)
                drawn: tuple[str, ...] = (first,)
                if first not in self.eligible(power, partner):
                    rest = [c for c in self.eligible(power, partner) if c != first]
                    drawn += (draws.choice(f"task {power} redrawn", rest, secret=True),)
                tasks[power], cards[power] = self.tasks[power][drawn[-1]], drawn
        return Allotment(powers, tasks, cards, "seed")

    # ------------------------------------------------------------------ neutrals and violations
    def originally_neutral(self, allotment: Allotment) -> list[str]:
        taken = {p for ps in allotment.powers.values() for p in ps}
        return [p for p in self.powers() if p not in taken]

    def home_country(self, power: str) -> tuple[str, ...]:
        """RULING: every land or coastal province inside the power's border, Finland with Russia."""
        return tuple(self.board.home_territories.get(power, ()))

    def entered(self, order) -> str | None:
        """The province an order moves, retreats, supports or convoys a unit into, if any."""
        if isinstance(order, (Move, Retreat, Convoy)):
            return province_of(order.dest)
        if isinstance(order, Support) and order.dest:
            return province_of(order.dest)
        return None

    def prepare(self, position: Position, phase_file, draws=None) -> Position:
        """RULING: orders written for a power that holds (neutral, or its player resigned) are the
        GM's error, whatever they name: nobody may order it."""
        phase, state = position.phase, game_state(position)
        problems = []
        for power, ls in phase_file.orders.items():
            if ls and state.holds_only(power, phase):
                what = "neutral" if state.neutral(power, phase) else "played by nobody (its player resigned)"
                problems.append(Problem(ls[0].file, ls[0].line, f"{power} is {what} in {phase.name}: its units hold "
                                        "and take no orders", f"delete {power}'s orders", code="not-her-power"))
        if problems:
            raise GameError(problems)
        return position

    def intake(self, position: Position, lines, draws=None):
        """The orders as written (`prepare` refused any for a power that holds); an order that
        moves, retreats, supports or convoys into a neutral power's home country violates it. The
        orders that named no unit of their power never reach this step: they order nothing."""
        phase = position.phase
        state = game_state(position)
        orders: dict[str, list[Order]] = {}
        notes: dict[tuple[str, str], tuple[Note, ...]] = {}
        for power, ls in lines.items():
            if ls:
                orders[power] = [ol.order for ol in ls]
        neutrals = [p for p in self.originally_neutral(state.allotment) if state.neutral(p, phase)]
        found: dict[str, list[Violation]] = {}
        for power, ls in lines.items():
            for ol in ls:
                into = self.entered(ol.order)
                for n in neutrals:
                    if into is not None and into in self.home_country(n):
                        seat = state.seating.controllers(power, phase)[0]
                        v = Violation(n, seat, power, ol.text.strip(), phase)
                        found.setdefault(n, []).append(v)
                        unit = province_of(ol.order.unit.loc)
                        notes[(power, unit)] = notes.get((power, unit), ()) + (
                            Note(Kind.INTAKE, Neutrality.VIOLATES, why=f"violates {n}'s neutrality"),)
        changes = []
        for n, vs in found.items():
            seat, why = self.reallot(state, n, {v.seat for v in vs}, position, draws)
            who = ", ".join(f"{v.seat} ({v.power}: {v.order})" for v in vs)
            changes.append(ControlChange(n, None, seat, self.calendar.after(phase),
                                         f"{n}'s neutrality was violated in {phase.name} by {who}; {n} is allotted to "
                                         f"{seat}: {why}"))
        state = replace(state, seating=state.seating.after(changes), pending=tuple(changes),
                        violations=state.violations + tuple(v for vs in found.values() for v in vs))
        return Intake(orders, notes, MappingProxyType({**(position.economy or {}), "taskdip": state}))

    def reallot(self, state: TaskdipState, neutral: str, violators: set[str], position: Position,
                draws) -> tuple[str, str]:
        """Who receives `neutral`, and the criterion that decided it."""
        seating = state.seating
        phase = position.phase
        seats = [s for s in seating.keys() if not state.resigned_before(s, phase)]  # RULING: never to a resigned player
        respecting = [s for s in seats if s not in violators]
        pool = respecting or seats
        first = "the one player who respected its neutrality" if len(respecting) == 1 else ""
        if len(pool) == 1:
            return pool[0], first
        # the centres of the last Fall turn before the violation: the owners this phase began with
        counts = position.centre_counts(self.powers())
        total = {s: sum(counts.get(p, 0) for p in seating.powers_of(s, phase)) for s in pool}
        low = min(total.values())
        pool2 = [s for s in pool if total[s] == low]
        scores = ", ".join(f"{s} {total[s]}" for s in pool)
        among = "of the players who respected it" if respecting else "as every player violated it"
        if len(pool2) == 1:
            return pool2[0], f"fewest centres in total {among} ({scores})"
        strongest = {s: max((counts.get(p, 0) for p in seating.powers_of(s, phase)), default=0) for s in pool2}
        low2 = min(strongest.values())
        pool3 = [s for s in pool2 if strongest[s] == low2]
        scores2 = ", ".join(f"{s} {strongest[s]}" for s in pool2)
        if len(pool3) == 1:
            return pool3[0], (f"equal totals ({scores}); the fewest centres in her strongest power ({scores2})")
        if draws is None:
            raise GameError([Problem("game.yml", None,
                                     "Taskdip needs the game's seed to allot a neutral power by lot", code="no-seed")])
        seat = draws.choice(f"allot {neutral}", pool3)
        return seat, f"equal totals ({scores}) and strongest powers ({scores2}); drawn by lot among {', '.join(pool3)}"

    def control_changes(self, record, seating: Seating):
        return game_state(record.after).pending  # what this phase's intake decided

    def must_order(self, power: str, position: Position) -> bool:
        return not game_state(position).holds_only(power, position.phase)

    def adjustment_counts(self, position: Position) -> dict[str, int]:
        # RULING: a neutral power never builds; it removes units it can no longer supply
        counts = super().adjustment_counts(position)
        state = game_state(position)
        return {p: n for p, n in counts.items() if n < 0 or not state.holds_only(p, position.phase)}

    # ------------------------------------------------------------------ victory
    def game_result(self, position: Position, phase: Phase, seating: Seating, fall_over: bool) -> GameResult | None:
        state = game_state(position)
        playing = [s for s in seating.keys() if not state.resigned_before(s, self.calendar.after(phase))]
        if len(playing) == 1 and state.resigned:
            mine = seating.powers_of(playing[0], phase) or seating.ever_controlled(playing[0])
            return GameResult("solo", (mine[0],), phase, condition="every other player resigned")
        if not fall_over:
            return None
        owners = position.owners
        counts = position.centre_counts(self.powers())
        a = state.allotment
        won: dict[str, tuple[str, str]] = {}  # seat -> (power, condition)
        for seat in playing:
            mine = seating.powers_of(seat, phase)
            for power in a.powers.get(seat, ()):
                task = a.tasks.get(power)
                owned = [c for c, o in owners.items() if o == power]
                if task and task.fulfilled(owned):
                    won.setdefault(seat, (power, f"{power}'s task fulfilled: {task.text[0].lower()}{task.text[1:]}"))
            for power in mine:
                if counts.get(power, 0) >= self.board.victory_centres:
                    won.setdefault(seat, (power, f"{power} holds {counts[power]} centres"))
            theirs = [p for s in seating.keys() if s != seat for p in seating.powers_of(s, phase)]
            for power in mine:
                full = [p for p in theirs if all(owners.get(c) == power for c in self.board.home_centres(p))]
                if len(full) >= 2:
                    won.setdefault(seat, (power, f"{power} holds every home centre of {full[0]} and {full[1]}"))
        if not won:
            return None
        if len(won) == 1:
            (seat, (power, why)), = won.items()
            return GameResult("solo", (power,), phase, condition=why)
        return GameResult("draw", tuple(p for p, _ in won.values()), phase,
                          condition="; ".join(why for _, why in won.values()))



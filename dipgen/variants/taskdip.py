"""Taskdip (Andreas Kueck): 2 to 7 players on the standard board. Powers are drawn by lot
before the first phase (two each with two or three players, one each with more), and each
allotted power draws a secret task from its row of Table 1 (taskdip_tasks.py). The other powers
are "originally neutral": their units hold. An order (successful or not) that moves, retreats,
supports or convoys into a neutral power's home country violates its neutrality; from the next
phase the neutral power is allotted to a player who respected it, by the rule's criteria.

Where the lots come from: the game's committed seed (public draws for the powers, secret ones
for the tasks, published at the reveal), or the GM's ``lots:`` in secrets.yml when the players
drew playing cards, used as written. The board is public; only the tasks are hidden.

The rulings where the rule text is silent are on site_src/rules/taskdip.md and marked RULING.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum
from types import MappingProxyType
from typing import Mapping

from dipgen.core.board import province_of
from dipgen.core.results import STANDARD_WORDS, Kind, Note
from dipgen.core.errors import GameError, Problem, display_path
from dipgen.rules.intake import Intake
from dipgen.core.orders import Convoy, Move, Retreat, Support
from dipgen.core.phase import Phase
from dipgen.core.position import Position
from dipgen.core.outcome import GameResult
from dipgen.rules.seats import ControlChange, Seat, Seating
from dipgen.rules.visibility import PositionVisibility, RecordVisibility, revealed
from dipgen.io.yamlfile import kind_of, line_of
from dipgen.variants._whole import Whole as Variant
from dipgen.variants.taskdip_tasks import CARD_NAMES, CARDS, Task, table


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
    return (position.economy or {}).get("taskdip")


def allotment_of(position) -> Allotment | None:
    """The lots of a game as `position` (a Position, or a view of one) holds them: each player's
    powers and each power's task (as far as a view may know them)."""
    state = state_of(position)
    return state.allotment if state else None


class Taskdip(Variant):
    name = "taskdip"
    title = "Taskdip"
    description = ("Two to seven players: powers and secret tasks drawn by lot, the other powers neutral until "
                   "someone violates their neutrality.")
    hidden = True  # RULING: the tasks only; the board and every order are public (record_visibility: default)
    makes_draws = True
    fixed_calendar = False  # the board is public: the public sees the phases as played
    phase_keys = frozenset({"resign"})
    result_vocabulary = MappingProxyType({**STANDARD_WORDS, Neutrality.VIOLATES: "violates neutrality"})

    def __init__(self) -> None:
        super().__init__()
        self.tasks = table(self.board.home_centres)  # Table 1: data, the same for every game

    # ------------------------------------------------------------------ seats
    def new_players(self):
        """Two to seven names: the powers are drawn for them by lot before Spring 1901."""
        return ["Player One", "Player Two", "Player Three"]

    def read_seats(self, raw, file: str, line: int | None, problems: list) -> Seating | None:
        example = "e.g.\n      players: [Andreas, Katja]"
        if not isinstance(raw, list):
            problems.append(Problem(file, line, f"a Taskdip game's players are a list of 2 to 7 names, not {kind_of(raw)}",
                                    example))
            return Seating((), {p: () for p in self.powers()})
        names: list[str] = []
        for item in raw:
            iline = line_of(item) or line
            if not isinstance(item, str) or not item.strip():
                problems.append(Problem(file, iline, f"each player is a name, not {kind_of(item)}", example))
                continue
            if item.strip().casefold() in {n.casefold() for n in names}:
                problems.append(Problem(file, iline, f"{item.strip()!r} is named twice", "name each player once"))
                continue
            names.append(item.strip())
        if not 2 <= len(raw) <= 7:
            problems.append(Problem(file, line, f"Taskdip is played by 2 to 7 players, not {len(raw)}", example))
        return Seating(tuple(Seat(n, ((n, None),)) for n in names), {p: () for p in self.powers()})

    def powers_each(self, players: int) -> int:
        return 2 if players <= 3 else 1

    # ------------------------------------------------------------------ the set-up: lots and tasks
    def initial_position(self, game, draws=None, secret=None) -> Position:
        seats = game.seating.keys()
        lots = (secret or {}).get("lots")
        lots_file = display_path(game.path / "secrets.yml")
        if lots is not None:
            allotment = self._written_lots(lots, lots_file, seats)
        else:
            allotment = self._drawn_lots(draws, seats)
        control = {p: tuple(s for s in seats if p in allotment.powers[s]) for p in self.powers()}
        # the allotment is the game's seating from the first phase on (lots are drawn before it)
        game.seating = Seating(game.seating.seats, control)
        game.players = {p: [(game.seating.player(p), None)] for p in self.powers() if game.seating.player(p)}
        state = TaskdipState(allotment, game.seating, MappingProxyType(self._resignations(game)))
        return self.start(game.start).with_(economy=MappingProxyType({"taskdip": state}))

    def _resignations(self, game) -> dict[str, Phase]:
        """Each phase file's ``resign:`` (a player, or a list of them, who resign after that phase)."""
        out: dict[str, Phase] = {}
        problems = []
        by_name = {s.casefold(): s for s in game.seating.keys()}
        for phase, pf in sorted(game.phases.items()):
            raw = pf.extra.get("resign")
            if raw is None:
                continue
            for name in [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else [raw]:
                line = line_of(name) or line_of(pf.extra, "resign")
                seat = by_name.get(str(name).strip().casefold()) if isinstance(name, str) else None
                if seat is None:
                    problems.append(Problem(pf.name, line, f"resign: {name!r} is not a player of this game",
                                            f"players: {', '.join(game.seating.keys())}; e.g. resign: [Katja]"))
                elif seat in out:
                    problems.append(Problem(pf.name, line, f"{seat} resigned already, after {out[seat].name}",
                                            "keep the first resignation"))
                else:
                    out[seat] = phase
        if problems:
            raise GameError(problems)
        return out

    def _eligible(self, power: str, partner: tuple[str, ...]) -> list[str]:
        """The cards whose task needs no home centre of `partner` (the player's other power)."""
        theirs = [c for p in partner for c in self.board.home_centres(p)]
        return [card for card in CARDS if not self.tasks[power][card].needs_any_of(theirs)]

    def _drawn_lots(self, draws, seats: list[str]) -> Allotment:
        if draws is None:
            raise GameError([Problem("game.yml", None, "Taskdip draws its lots from the game's seed")])
        order = draws.shuffle("powers", self.powers())
        k = self.powers_each(len(seats))
        powers = {s: tuple(order[i * k:(i + 1) * k]) for i, s in enumerate(seats)}
        tasks, cards = {}, {}
        for seat in seats:
            for power in powers[seat]:
                partner = tuple(p for p in powers[seat] if p != power)
                first = draws.choice(f"task {power}", CARDS, secret=True)
                drawn = (first,)
                if first not in self._eligible(power, partner):
                    rest = [c for c in self._eligible(power, partner) if c != first]
                    drawn += (draws.choice(f"task {power} redrawn", rest, secret=True),)
                tasks[power], cards[power] = self.tasks[power][drawn[-1]], drawn
        return Allotment(powers, tasks, cards, "seed")

    def _written_lots(self, lots, file: str, seats: list[str]) -> Allotment:
        """secrets.yml's ``lots:`` as the GM wrote them, checked against the rules."""
        problems: list[Problem] = []
        example = ("e.g.\n      lots:\n        powers:\n          Andreas: [Austria, Italy]\n          Katja: [Turkey, Germany]\n"
                   "        tasks:\n          Austria: [Eight, Nine]\n          Italy: Eight\n          Turkey: Seven\n"
                   "          Germany: Nine")
        if not isinstance(lots, dict) or not isinstance(lots.get("powers"), dict) or not isinstance(lots.get("tasks"), dict):
            raise GameError([Problem(file, line_of(lots), "lots must give the powers each player drew and the cards "
                                     "drawn for each power's task", example)])
        for key in lots:
            if key not in ("powers", "tasks"):
                problems.append(Problem(file, line_of(lots, key), f"unknown key {key!r} in lots", example))
        k = self.powers_each(len(seats))
        by_name = {s.casefold(): s for s in seats}
        by_power = {p.casefold(): p for p in self.powers()}
        powers: dict[str, tuple[str, ...]] = {}
        taken: dict[str, str] = {}
        for name, drawn in lots["powers"].items():
            line = line_of(lots["powers"], name)
            seat = by_name.get(str(name).strip().casefold())
            if seat is None:
                problems.append(Problem(file, line, f"{name!r} is not a player of this game", f"players: {', '.join(seats)}"))
                continue
            drawn = [drawn] if isinstance(drawn, str) else drawn
            if not isinstance(drawn, list):
                problems.append(Problem(file, line, f"{seat}'s powers are a list, not {kind_of(drawn)}", example))
                continue
            mine = []
            for p in drawn:
                power = by_power.get(str(p).strip().casefold())
                if power is None:
                    problems.append(Problem(file, line_of(p) or line, f"{p!r} is not a power", ", ".join(self.powers())))
                elif power in taken:
                    problems.append(Problem(file, line_of(p) or line, f"{power} is drawn twice ({taken[power]} has it)"))
                else:
                    taken[power] = seat
                    mine.append(power)
            if len(drawn) != k:
                problems.append(Problem(file, line, f"{seat} drew {len(drawn)} powers; with {len(seats)} players each "
                                        f"draws {k}"))
            powers[seat] = tuple(mine)
        for seat in seats:
            if seat not in powers:
                problems.append(Problem(file, line_of(lots, "powers"), f"no powers drawn for {seat}", example))
        tasks, cards = {}, {}
        given = {}
        for key, value in lots["tasks"].items():
            line = line_of(lots["tasks"], key)
            power = by_power.get(str(key).strip().casefold())
            if power is None or power not in taken:
                problems.append(Problem(file, line, f"{key!r} is not a power any player drew",
                                        f"powers drawn: {', '.join(taken) or 'none'}"))
                continue
            given[power] = (value, line)
        for power, seat in taken.items():
            if power not in given:
                problems.append(Problem(file, line_of(lots, "tasks"), f"no card drawn for {power}'s task", example))
                continue
            value, line = given[power]
            drawn = [value] if isinstance(value, (str, int)) else value
            if not isinstance(drawn, list) or not drawn:
                problems.append(Problem(file, line, f"{power}'s cards are a card or a list of cards", example))
                continue
            names = [CARD_NAMES.get(str(c).strip().casefold()) for c in drawn]
            if None in names:
                bad = drawn[names.index(None)]
                problems.append(Problem(file, line, f"{bad!r} is not a card of Table 1", f"cards: {', '.join(CARDS)}"))
                continue
            ok = self._eligible(power, tuple(p for p in powers.get(seat, ()) if p != power))
            wrong = None
            if len(names) > 2:
                wrong = "a task is redrawn at most once: give the card drawn first and, if it was redrawn, the second"
            elif len(names) == 2 and names[0] in ok:
                wrong = (f"{power}'s first card, {names[0]}, needs no home centre of {seat}'s other power: "
                         "it is not redrawn")
            elif len(names) == 2 and (names[1] not in ok or names[1] == names[0]):
                wrong = (f"{power}'s second card, {names[1]}, cannot be drawn: the redraw is among "
                         f"{', '.join(c for c in ok if c != names[0])}")
            elif len(names) == 1 and names[0] not in ok:
                wrong = (f"{power}'s {names[0]} needs a home centre of {seat}'s other power: it is redrawn; "
                         f"write both cards, e.g. [{names[0]}, {next(c for c in ok if c != names[0])}]")
            if wrong:
                problems.append(Problem(file, line, wrong))
                continue
            tasks[power], cards[power] = self.tasks[power][names[-1]], tuple(names)
        if problems:
            raise GameError(problems)
        return Allotment(powers, tasks, cards, "secrets.yml")

    # ------------------------------------------------------------------ neutrals and violations
    def originally_neutral(self, allotment: Allotment) -> list[str]:
        taken = {p for ps in allotment.powers.values() for p in ps}
        return [p for p in self.powers() if p not in taken]

    def home_country(self, power: str) -> tuple[str, ...]:
        """RULING: every land or coastal province inside the power's border, Finland with Russia."""
        return tuple(self.board.home_territories.get(power, ()))

    def entered(self, order) -> str | None:
        """The province an order moves, retreats, supports or convoys a unit into, if any."""
        if isinstance(order, (Move, Retreat, Convoy)) or isinstance(order, Support) and order.dest:
            return province_of(order.dest)
        return None

    def prepare(self, position: Position, phase_file, draws=None) -> Position:
        """RULING: orders written for a power that holds (neutral, or its player resigned) are the
        GM's error, whatever they name: nobody may order it."""
        phase, state = position.phase, state_of(position)
        problems = []
        for power, ls in phase_file.orders.items():
            if ls and state.holds_only(power, phase):
                what = "neutral" if state.neutral(power, phase) else "played by nobody (its player resigned)"
                problems.append(Problem(ls[0].file, ls[0].line, f"{power} is {what} in {phase.name}: its units hold "
                                        "and take no orders", f"delete {power}'s orders"))
        if problems:
            raise GameError(problems)
        return position

    def intake(self, position: Position, lines, draws=None):
        """The orders as written (`prepare` refused any for a power that holds); an order that
        moves, retreats, supports or convoys into a neutral power's home country violates it. The
        orders that named no unit of their power never reach this step: they order nothing."""
        phase = position.phase
        state = state_of(position)
        orders, notes = {}, {}
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
        return Intake(orders, notes, MappingProxyType({**position.economy, "taskdip": state}))

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
            raise GameError([Problem("game.yml", None, "Taskdip needs the game's seed to allot a neutral power by lot")])
        seat = draws.choice(f"allot {neutral}", pool3)
        return seat, f"equal totals ({scores}) and strongest powers ({scores2}); drawn by lot among {', '.join(pool3)}"

    def control_changes(self, record, seating: Seating):
        return state_of(record.after).pending  # what this phase's intake decided

    def must_order(self, power: str, position: Position) -> bool:
        return not state_of(position).holds_only(power, position.phase)

    def adjustment_counts(self, position: Position) -> dict[str, int]:
        # RULING: a neutral power never builds; it removes units it can no longer supply
        counts = super().adjustment_counts(position)
        state = state_of(position)
        return {p: n for p, n in counts.items() if n < 0 or not state.holds_only(p, position.phase)}

    def start_visibility(self, history, position: Position) -> PositionVisibility:
        """The board is public; of the game's state every level keeps all but the tasks: a player
        reads the tasks of the powers she drew, everyone reads them all once the game is revealed."""
        if revealed(history):
            return PositionVisibility.open(position)
        return replace(PositionVisibility.open(position), economy=lambda reader: _economy_for(position, reader))

    def record_visibility(self, history, record) -> RecordVisibility:
        vis = RecordVisibility.open(record)
        return replace(vis, before=self.start_visibility(history, record.before),
                       after=self.start_visibility(history, record.after))

    def secret_texts(self, history):
        """Each task, as the pages write it, and each card drawn for it (``Austria (card: Nine)``,
        ``Austria: [Eight, Nine]`` as in secrets.yml), until the game is revealed."""
        a = allotment_of(history.position)
        out = []
        for power, task in sorted(a.tasks.items()) if a else ():
            out.append((f"{power}'s secret task", (task.text, task.text[0].lower() + task.text[1:])))
            cards = "|".join(sorted(set(a.cards[power])))
            out.append((f"the card drawn for {power}'s task",
                        (re.compile(rf"\b{power}\b(?:</?\w+>|\W){{0,12}}(?:card:\s*)?\[?\s*(?:{cards})\b"),)))
        return out

    def game_section(self, view) -> str:
        return _game_section(self, view)

    # ------------------------------------------------------------------ victory
    def game_result(self, position: Position, phase: Phase, seating: Seating, fall_over: bool) -> GameResult | None:
        state = state_of(position)
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


def _economy_for(position: Position, reader: frozenset) -> Mapping | None:
    """`position`'s economy as `reader` (a level's names) may read it: the tasks, and the cards
    drawn for them, only of the powers the reader drew (the GM reads them all)."""
    state = state_of(position)
    if state is None:
        return position.economy
    if "gm" in reader:
        return position.economy
    a = state.allotment
    mine = {p for seat in reader for p in a.powers.get(seat, ())}
    kept = Allotment(a.powers, {p: t for p, t in a.tasks.items() if p in mine},
                     {p: c for p, c in a.cards.items() if p in mine}, a.source, a.redrawn)
    return MappingProxyType({**position.economy, "taskdip": replace(state, allotment=kept)})


# ---------------------------------------------------------------------- pages
def _tasks_html(variant: Taskdip, view, powers, progress: bool) -> str:
    """Each of `powers`' task (as the view knows them), its cards, and (if `progress`) centre by
    centre how far it is."""
    from html import escape

    a = allotment_of(view.now)
    owners = view.now.owners
    board = variant.board
    items = []
    for power in powers:
        task = a.tasks.get(power)
        if task is None:
            continue
        cards = a.cards[power]
        drawn = f"card: {cards[-1]}" + (f"; the {cards[0]} was redrawn" if len(cards) > 1 else "")
        line = f"<strong>{escape(power)}</strong> ({escape(drawn)}): {escape(task.text)}"
        if progress:
            parts = []
            for g, have in task.progress(c for c, o in owners.items() if o == power):
                names = ", ".join(board.format_loc(c) for c in g.centres)
                held = ", ".join(board.format_loc(c) for c in have) or "none"
                what = f"all of {names}" if g.count == len(g.centres) else f"{g.count} of {names}"
                parts.append(f"<li>{escape(what)}: {escape(power)} holds {escape(held)} "
                             f"({min(len(have), g.count)} of {g.count}{', done' if len(have) >= g.count else ''})</li>")
            done = " <em>Fulfilled.</em>" if task.fulfilled(c for c, o in owners.items() if o == power) else ""
            line += done + "<ul>" + "".join(parts) + "</ul>"
        items.append(f"<li>{line}</li>")
    return "<ul>" + "".join(items) + "</ul>" if items else ""


def _game_section(self: Taskdip, view) -> str:
    """Who plays which power, the neutral powers, violations and re-allotments (public); the tasks
    as far as the view knows them: on their player's private page, or once the game is revealed
    (or for the GM)."""
    from html import escape

    a = allotment_of(view.now)
    if a is None:
        return ""
    seating = view.seating
    level = view.level
    changes = [c for r in view.records for c in r.control]
    out = ['<section class="dg-taskdip">']
    seat = seating.seat(level)
    if seat is not None:
        out.append("<h2>Your tasks</h2>")
        out.append(_tasks_html(self, view, a.powers.get(level, ()), True) or "<p>None.</p>")
        later = [c.power for c in changes if c.new == level]
        if later:
            out.append(f"<p>Allotted to you later, without a task: {escape(', '.join(later))}.</p>")
        out.append("</section>")
        return "\n".join(out)
    out.append("<h2>Players and powers</h2><ul>")
    for s in seating.keys():
        powers = [escape(p) for p in a.powers.get(s, ())]
        later = [f"{escape(c.power)} (after {escape(r.phase.name)})" for r in view.records for c in r.control
                 if c.new == s]
        out.append(f"<li><strong>{escape(s)}</strong>: {', '.join(powers) or 'no power'}"
                   f"{'; later ' + ', '.join(later) if later else ''}</li>")
    out.append("</ul>")
    source = "drawn from the game's committed seed" if a.source == "seed" else "drawn with playing cards, as the GM wrote them"
    out.append(f"<p>Powers and tasks were {escape(source)} before the first phase.</p>")
    neutral = self.originally_neutral(a)
    if neutral:
        out.append("<h3>Originally neutral powers</h3><ul>")
        for n in neutral:
            mine = [c for c in changes if c.power == n]
            status = "neutral: its units hold" if not mine else escape(mine[0].why)
            out.append(f"<li><strong>{escape(n)}</strong>: {status}</li>")
        out.append("</ul>")
    allotted = [p for s in seating.keys() for p in a.powers.get(s, ())]
    redrawn = [p for p in allotted if p in a.redrawn]
    out.append("<h3>Tasks</h3>")
    if redrawn:
        out.append("<p>" + " ".join(f"{escape(p)}'s first task was redrawn (it needed a home centre of its "
                                    "player's other power)." for p in redrawn) + "</p>")
    if all(p in a.tasks for p in allotted):
        out.append(_tasks_html(self, view, allotted, True))
    else:
        out.append("<p>Each allotted power has a secret task, known only to its player until the game ends.</p>")
    out.append("</section>")
    return "\n".join(out)

"""Replay a game phase by phase into a History: one record per phase played.

`replay(game)` checks every order against the position it is given in and raises
GameError (file, line, what is wrong, a hint) on anything the GM must fix (two orders for
one unit from one writer, an order of another phase's kind); orders that are well formed
but cannot be carried out (a player's misorder: an impossible move, an order for a unit she
does not have, a build the rules refuse) are kept as written, adjudicated as the rules say
(void), and reported as warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any
from collections.abc import Callable, Mapping

from dipgen.engine.matching import pick
from dipgen.core.results import Illegal, Kind, Note, OrderResult
from dipgen.core.errors import GameError, Problem, display_path
from dipgen.play.game import Game, PhaseFile
from dipgen.rules.chain import Chain, make_chain, record_salt
from dipgen.rules.draws import GameDraws, PhaseDraws
from dipgen.rules.intake import Intake, with_notes
from dipgen.play.records import GameInfo, GameResult, History, OrderLine, PhaseRecord
from dipgen.rules.seats import control_after
from dipgen.rules.visibility import reveal_reached
from dipgen.core.orders import ADJUSTMENT_ORDERS, Build, Disband, Move, Order, Retreat, UnitRef
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from dipgen.core.position import Position, Unit


class _Replay:
    def __init__(self, game: Game | None, variant=None, draws: GameDraws | None = None, secret=None,
                 seed: bytes | None = None):
        self.game = game
        self.source = draws
        self.seed = seed  # the game's seed, checked against its commitment: the salt of a hidden game's record
        self.secret = secret  # what secrets.yml says for the set-up (Taskdip's lots, as its files read them), or None
        if variant is None:
            assert game is not None, "a phase alone is played by the variant it is given"
            variant = game.variant
        self.variant = variant
        self.board = self.variant.rules.board
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.game_draws: GameDraws | None = None  # the game's source of draws, for variants that make them
        self.draws: PhaseDraws | None = None       # the phase being played's draws
        # the phase being played: the unit each order line names (by the line's id), and the
        # lines that name none of their power's (a player's misorders), with their results
        self.named: dict[int, Unit] = {}
        self.misorders: dict[int, OrderResult] = {}

    def drawn(self) -> tuple:
        """What the phase being played drew (`dipgen.rules.draws.Draw`), in drawing order."""
        return self.draws.drawn if self.draws is not None else ()

    def err(self, file: str, line: int | None, message: str, hint: str, code: str) -> None:
        """An error with its code (`dipgen.core.errors.ERROR_CODES`)."""
        self.problems.append(Problem(file, line, message, hint, code=code))

    def warn(self, file: str, line: int | None, message: str, hint: str, code: str, subject: str = "") -> None:
        """A warning with its code (`dipgen.io.acknowledge.WARNING_CODES`) and the order it is about."""
        self.warnings.append(Problem(file, line, message, hint, severity="warning", code=code, subject=subject))

    def run(self) -> History:
        game = self.game
        assert game is not None, "a whole game is replayed from its files (step() plays one phase without them)"
        try:
            if self.variant.rules.makes_draws:
                self.game_draws = self.source or GameDraws(
                    game.seed_sha256.lower() if game.seed_sha256 else None, game.start,
                    bytes.fromhex(game.seed) if game.seed else None)
            setup = self.game_draws.phase(None) if self.game_draws is not None else None
            drawn = self.variant.rules.drawn_seating(game, setup)  # seats drawn at the set-up: the History's
            # the variant checks the phase files against the drawn seats; the loaded game stays as the GM wrote it
            position = self.variant.rules.initial_position(game if drawn is None else replace(game, seating=drawn),
                                                           setup, self.secret)
        except GameError as e:
            raise GameError(e.problems) from None
        records: list[PhaseRecord] = []
        used: set[Phase] = set()
        result: GameResult | None = None
        end_phase = game.ending.phase if game.ending else None
        seating = drawn or game.seating  # seats: who controls which power, as play goes on
        stopped = None
        unclosed: list[Phase] = []  # Falls no file closes, though later files follow: all named at once
        while True:
            phase = position.phase
            pf = game.phases.get(phase)
            if pf is None and self.closing_owed(game, position):
                unclosed.append(phase)
                pf = PhaseFile(phase, game.path / f"{phase.slug}.yml", {}, {})  # played as if it were there
            if pf is None:
                break
            used.add(phase)
            record = replace(self.play(position, pf), committed=pf.committed, data=pf.data)
            record, seating = control_after(self.variant, record, seating)  # seats: powers changing hands
            records.append(record)
            position = record.after
            if self.problems:
                stopped = phase  # the phases after it are not played
                break
            year_over = self.variant.rules.calendar.ends_year(phase) and position.phase.kind == ADJUSTMENTS
            result = self.variant.rules.game_result(position, phase, seating, year_over)
            if result is not None:
                break
            if end_phase is not None and phase == end_phase:
                if position.phase.retreats and not position.dislodged:  # the declared end closes the Fall
                    position, changes = end_of_season(self.variant, position)
                    records[-1] = replace(record, after=position, centre_changes=record.centre_changes + changes)
                break
            position = skip_empty(self.variant, position)
        # phases nobody may play
        if not self.problems:
            self.check_unused(game, used, records, position, result)
        for phase in unclosed:
            self.err(display_path(game.path / f"{phase.slug}.yml"), None,
                     f"this file is missing: nobody retreats in {phase.name[:-9]}, but in this hidden game its "
                     "retreats file closes the year, and later files follow",
                     "create it with the line `orders: {}` (the players are told their centres and their Winter "
                     "once it is in)", "fall-not-closed")
        if game.ending and result is None and not self.problems:
            last = records[-1].phase if records else None
            if end_phase is not None and last != end_phase:
                self.err(display_path(game.path / "game.yml"), game.ending.line,
                         f"the game is declared over after {end_phase.name}, but that phase was never played",
                         f"the last phase with orders is {last.name}" if last else "add the game's phase files",
                         "end-not-played")
            elif last is not None:
                result = GameResult(game.ending.kind, game.ending.powers, last, game.ending.note)
        if self.problems:  # the warnings of the phases before too; `stopped`: where the play stopped, if in a phase
            raise GameError(self.warnings + self.problems, stopped=stopped)
        if setup is not None and self.game_draws is not None:  # (a set-up draws only where the game does)
            self.game_draws.setup_draws = setup.drawn
        history = History(game_info(game), self.variant, drawn or game.seating, records, position,
                          None if result else position.phase, result, self.warnings, draws=self.game_draws)
        history.chain = self.chain(game, history)
        return history

    def chain(self, game: Game, history: History) -> Chain | None:
        """The game's record over its phase files (None: a hidden game's, where the build has no seed)."""
        seed = self.seed if self.seed is not None else self.game_draws.seed if self.game_draws is not None else None
        if seed is None and game.seed:
            seed = bytes.fromhex(game.seed)
        salt = record_salt(self.variant.visibility.hidden, seed, bool(game.seed_sha256), reveal_reached(history))
        return None if salt is None else make_chain(game.slug, salt, ((r.phase, r.data) for r in history.records))

    def closing_owed(self, game: Game, position: Position) -> bool:
        """Does `position` wait for the file that closes a Fall nobody retreats in
        (`Policy.closed_by_file`), while the game has files for later phases?"""
        return (position.phase.retreats and not position.dislodged
                and self.variant.visibility.closed_by_file(position.phase)
                and any(p > position.phase for p in game.phases))

    def check_unused(self, game: Game, used: set[Phase], records, position: Position, result) -> None:
        for phase, pf in sorted(game.phases.items()):
            if phase in used:
                continue
            name = pf.name
            last = records[-1].phase.name if records else "the start"
            if result is not None or (game.ending and game.ending.phase and phase > game.ending.phase):
                self.err(name, None, f"{phase.name} comes after the end of the game",
                         "delete this file, or change 'end' in game.yml", "after-the-end")
            elif phase < position.phase:
                why = {RETREATS: f"nobody had to retreat in {phase.name[:-9]}",
                       ADJUSTMENTS: f"nobody could build or had to remove units in {phase.name}"}.get(phase.kind, "")
                self.err(name, None, f"there is no {phase.name} phase: {why}" if why else f"{phase.name} was skipped",
                         "delete or rename this file; the next phase after "
                         f"{last} is {position.phase.name} ({position.phase.slug}.yml)", "skipped-phase")
            else:
                self.err(name, None, f"{phase.name} cannot be played yet: the game waits for {position.phase.name}",
                         f"create {position.phase.slug}.yml first, or rename this file if it is misnamed", "not-yet")

    # ------------------------------------------------------------------ one phase
    def play(self, position: Position, pf: PhaseFile) -> PhaseRecord:
        """One phase, in godip's order: validate (the units the orders name), intake (the orders by
        who wrote them -> the orders adjudicated), resolve (the engine, through the variant's rules),
        execute (the position after), post-process (a season's end); the phase's kind says only
        which units, which orders and which adjudicator (`_Step`)."""
        self.draws = self.game_draws.phase(pf.phase) if self.game_draws is not None else None
        self.named, self.misorders = {}, {}
        rules = self.variant.rules
        step = _STEPS[pf.phase.kind]
        position = rules.prepare(position, pf, self.draws)
        self.check_units(pf, step.units(position), step.unit_word)
        if pf.phase.retreats and position.dislodged and not pf.writers:  # `orders: {}`, kept for closing a Fall
            powers = sorted({d.unit.power for d in position.dislodged})
            self.err(pf.name, pf.order_lines.get("", None), f"orders is empty, but {', '.join(powers)} must retreat",
                     f"list the retreats received; if none were sent, write {powers[0]}: []", "no-orders")
        intake = self.orders_for(pf, step.orders(rules), step.orders_text(rules), position)
        out = step.resolve(rules, position, intake.orders)
        self.warn_illegal(pf, out.results)
        after, changes, due = step.after(self.variant, position, pf.phase, out, _economy(position, intake, out))
        return PhaseRecord(
            phase=pf.phase, before=position, orders=self.lines(pf), results=self.results(out.results, intake),
            after=after, dislodged=getattr(out, "dislodged", ()), destroyed=getattr(out, "destroyed", ()),
            centre_changes=changes, adjustments=due, nmr=self.nmr(pf, step.powers(position, due), position),
            press=pf.press, notes=pf.notes, file=pf.name, draws=self.drawn(), report=intake.report)

    def orders_for(self, pf: PhaseFile, allowed: tuple[type, ...], what: str, position: Position) -> Intake:
        """The orders the engine adjudicates: the lines of the phase's kind (any other is an
        error the GM must fix), through the variant's intake step (`Variant.intake`)."""
        out: dict[str, list[OrderLine]] = {}
        for power, lines in pf.orders.items():
            for ol in lines:
                if id(ol) in self.misorders:  # void: it names no unit of its power
                    continue
                if not isinstance(ol.order, allowed):
                    hint = f"{pf.phase.name} takes {what}"
                    if isinstance(ol.order, Retreat) and pf.phase.kind == MOVEMENT:
                        hint += f"; a move is written with '-': {Move(ol.order.unit, ol.order.dest).format(self.board)}"
                    self.err(pf.name, ol.line, f"{ol.text!r} is not an order for {pf.phase.name}", hint,
                             "not-this-phase")
                    continue
                out.setdefault(power, []).append(ol)
        return self.variant.rules.intake(position, out, self.draws)

    def check_units(self, pf: PhaseFile, units: tuple[Unit, ...], what: str) -> None:
        """The unit each order names (`named`). No unit gets two orders from one writer (the GM
        must fix that); an order that names no unit of its power where it says, none there or
        another power's, is the player's misorder (`misorder`). Where several units stand in a
        province the order's letter picks among them; units of a kind that does not occupy
        (spies) may be several of one power in one province, each taking one order."""
        kinds = self.variant.rules.unit_kinds
        by_prov: dict[str, list[Unit]] = {}
        for u in units:
            by_prov.setdefault(u.province, []).append(u)
        first: dict[tuple[str, int], OrderLine] = {}  # (writer, id of a unit) -> its order
        for power, lines in pf.orders.items():
            mine = [u for u in units if u.power == power and kinds[u.kind].occupies]
            listing = lambda mine=mine: ", ".join(  # noqa: E731 (said only for a misorder)
                u.describe(self.board) for u in sorted(mine, key=lambda u: u.loc)) or "none"
            for ol in lines:
                ref = getattr(ol.order, "unit", None)
                if ref is None or isinstance(ol.order, Build):
                    continue
                here = by_prov.get(ref.province, [])
                where = self.board.full_name(ref.province)
                taken = [i for i, u in enumerate(here) if (ol.writer, id(u)) in first]
                i = pick(here, ref.kind, power, kinds, taken)  # the rule the engine uses too
                unit = None if i is None else here[i]
                if ref.kind in kinds and not kinds[ref.kind].occupies:  # several of a kind may share a province
                    kind = kinds[ref.kind]
                    n = sum(1 for u in here if u.power == power and u.kind == ref.kind)
                    theirs = ", ".join(u.describe(self.board) for u in sorted(units)
                                       if u.power == power and u.kind == ref.kind) or "none"
                    if n and i in taken:
                        self.err(pf.name, ol.line, f"more orders than {kind.names}: {power} has {n} "
                                 f"{kind.name if n == 1 else kind.names} in {where}",
                                 f"{power}'s {kind.names}: {theirs}", "too-many-orders")
                    elif unit is None or unit.power != power:
                        self.misorder(pf, ol, unit, kind.name, f"{power}'s {kind.names}: {theirs}")
                    else:
                        first[(ol.writer, id(unit))] = ol
                        self.named[id(ol)] = unit
                    continue
                if unit is None or unit.power != power:
                    self.misorder(pf, ol, unit, what, f"{power}'s {what}s: {listing()}")
                    continue
                if ref.kind and ref.kind != unit.kind:
                    kind = kinds[unit.kind]
                    self.warn(pf.name, ol.line,
                              f"{ol.text!r}: the unit in {self.board.full_name(unit.province)} is "
                              f"{kind.article} {kind.name}",
                              f"read as {unit.describe(self.board)}", "wrong-unit-kind", ol.text)
                if (ol.writer, id(unit)) in first:  # one writer, two orders (two writers: the intake's)
                    self.err(pf.name, ol.line, f"a second order for {unit.describe(self.board)} (the first is on "
                             f"line {first[(ol.writer, id(unit))].line})", "keep one order per unit", "second-order")
                else:
                    first[(ol.writer, id(unit))] = ol
                    self.named[id(ol)] = unit

    def misorder(self, pf: PhaseFile, ol: OrderLine, there: Unit | None, what: str, listing: str) -> None:
        """An order naming no unit of its power where it says (`there`: the unit of another power
        standing there, if any): void as written, the unit there untouched; a warning for the GM.
        The note names `there` as its source, which a view shows only to a level that sees it."""
        named = getattr(ol.order, "unit", None)  # a misorder names a unit (a waive names none, and is none)
        assert isinstance(named, UnitRef)
        power, where = ol.power, self.board.full_name(named.province)
        why = f"{power} has no {what} in {where}"
        if there is None:
            note = Note(Kind.ILLEGAL, Illegal.NO_UNIT, why)
            message = f"{ol.text!r}: {why}"
        else:
            note = Note(Kind.ILLEGAL, Illegal.NOT_YOURS, why, source=there)
            name = self.variant.rules.unit_kinds[there.kind].name
            message = f"{ol.text!r}: the {name} in {where} is {there.power}'s, not {power}'s; it is not affected"
        self.misorders[id(ol)] = OrderResult(power, ol.order, None, False, (note,))
        self.warn(pf.name, ol.line, f"{message}; the order is void",
                  f"{listing} (fine if that is what the player wrote; otherwise correct the order)",
                  "no-unit" if there is None else "foreign-unit", ol.text)

    def results(self, engine: tuple, intake: Intake) -> tuple[OrderResult, ...]:
        """A phase's results: the engine's, with the intake's notes, then the misorders."""
        return with_notes(engine, intake.notes) + tuple(self.misorders.values())

    def nmr(self, pf: PhaseFile, powers, position: Position) -> tuple[str, ...]:
        return tuple(p for p in powers if not pf.orders.get(p) and self.variant.rules.must_order(p, position))

    def warn_illegal(self, pf: PhaseFile, results) -> None:
        """A warning for each order that reads clearly but cannot be carried out, at its own line
        (found by the unit it names, or by the order itself), saying what happens instead: in a
        movement phase the unit holds, in a retreat phase it disbands, in a winter the order is
        void (a build the rules refuse, one more than is due)."""
        wrong = {p.line for p in self.problems if p.file == pf.name}  # errors already say what is wrong
        refused = (Kind.ILLEGAL, Kind.VOID) if pf.phase.kind == ADJUSTMENTS else (Kind.ILLEGAL,)
        by_unit: dict[int, list[OrderLine]] = {}
        for ls in pf.orders.values():
            for ol in ls:
                if id(ol) in self.named:
                    by_unit.setdefault(self.named[id(ol)].uid, []).append(ol)
        for r in results:
            if r.default or r.order is None:
                continue
            n = next((n for n in r.notes if n.kind in refused), None)
            if n is None:
                continue
            why = n.why + (f" ({n.source.power}'s {n.source.describe(self.board)} is there)" if n.source else "")
            for ol in _lines_of(r, by_unit.get(r.unit.uid, []) if r.unit is not None else [],
                                pf.orders.get(r.power, ())):
                if ol.line not in wrong:
                    self.warn(pf.name, ol.line,
                              f"{ol.text!r} cannot be carried out ({why}); {self.instead(pf.phase.kind, r)}",
                              "fine if that is what the player wrote; otherwise correct the order", "illegal-order",
                              ol.text)

    def instead(self, kind: str, result: OrderResult) -> str:
        """What becomes of a unit whose order cannot be carried out."""
        if result.unit is None or kind == ADJUSTMENTS:
            return "the order is void"
        name = self.variant.rules.unit_kinds[result.unit.kind].name
        return f"the {name} is disbanded" if kind == RETREATS else f"the {name} holds"

    @staticmethod
    def lines(pf: PhaseFile) -> dict[str, tuple[OrderLine, ...]]:
        return {p: tuple(ls) for p, ls in pf.orders.items()}


def _lines_of(result: OrderResult, naming: list[OrderLine], lines) -> list[OrderLine]:
    """The order lines a result is about: of the lines `naming` its unit, those that gave its
    order (several writers may have); for a result with no unit, the line of its order (the same
    object as the engine was handed, or an equal one)."""
    order = result.order
    if naming:
        same = [ol for ol in naming if ol.order is order or _named_as(ol.order, order) == order]
        return same or naming
    return ([ol for ol in lines if ol.order is order] or [ol for ol in lines if ol.order == order]
            or [ol for ol in lines if _named_as(ol.order, order) == order][:1])


def _named_as(order: Order, like: Order | None) -> Order:
    """`order` naming its unit as `like` does (the engine names a unit as it stands: kind, coast)."""
    ref = getattr(like, "unit", None)
    return (replace(order, unit=ref) if ref is not None and hasattr(order, "unit") and type(order) is type(like)
            else order)


def _economy(position: Position, intake: Intake, out=None):
    """The variant's state after a phase: as the adjudication left it (Complicated's bombing), or
    as the intake step left it (the TIR), or as it was. A retreat or an adjustment leaves the
    economy as the intake left it."""
    if out is not None and getattr(out, "economy", None) is not None:
        return out.economy
    return intake.economy if intake.economy is not None else position.economy


@dataclass(frozen=True)
class _Step:
    """What a phase's kind decides in the one fold (`_Replay.play`)."""

    units: Callable[[Position], tuple[Unit, ...]]       # the units its orders may name
    unit_word: str                                      # ... called so in messages
    orders: Callable[[Any], tuple[type, ...]]           # the order classes it takes (from the rules)
    orders_text: Callable[[Any], str]                   # ... said in words
    resolve: Callable[[Any, Position, Any], Any]        # the rules' adjudicator
    #: the position after, the centres that changed hands, and the adjustments due
    after: Callable[[Any, Position, Phase, Any, Any], tuple[Position, tuple, Mapping[str, int]]]
    powers: Callable[[Position, Mapping[str, int]], list[str]]  # the powers that had to order


def _after_movement(variant, position: Position, phase: Phase, out, economy):
    after = Position(variant.rules.calendar.retreats_of(phase), out.units, position.owners, out.dislodged,
                     economy=economy)
    if out.dislodged or variant.visibility.closed_by_file(after.phase):
        return after, (), {}
    return (*end_of_season(variant, after), {})


def _after_retreats(variant, position: Position, phase: Phase, out, economy):
    return (*end_of_season(variant, Position(phase, out.units, position.owners, economy=economy)), {})


def _after_adjustments(variant, position: Position, phase: Phase, out, economy):
    after = Position(variant.rules.calendar.after(phase), out.units, position.owners, economy=economy)
    return after, (), variant.rules.adjustment_counts(position)


def _adjustment_words(rules) -> str:
    changes = "upgrades, downgrades, " if any(k.upgrades_to for k in rules.unit_kinds.values()) else ""
    return f"builds, {changes}removals and waives"


_STEPS = {
    MOVEMENT: _Step(lambda pos: pos.units, "unit", lambda rules: rules.movement_orders,
                    lambda rules: rules.movement_orders_text, lambda rules, pos, orders: rules.movement(pos, orders),
                    _after_movement, lambda pos, due: sorted({u.power for u in pos.units})),
    RETREATS: _Step(lambda pos: tuple(d.unit for d in pos.dislodged), "dislodged unit",
                    lambda rules: (Retreat, Disband), lambda rules: "retreats and disbands",
                    lambda rules, pos, orders: rules.retreats(pos, orders),
                    _after_retreats, lambda pos, due: sorted({d.unit.power for d in pos.dislodged})),
    ADJUSTMENTS: _Step(lambda pos: pos.units, "unit", lambda rules: ADJUSTMENT_ORDERS, _adjustment_words,
                       lambda rules, pos, orders: rules.adjustments(pos, orders), _after_adjustments,
                       lambda pos, due: sorted(due)),
}


def end_of_season(variant, after: Position) -> tuple[Position, tuple]:
    """After a season's last phase: at the end of the year's last season (the Fall) centres change
    hands (returned as (centre, old owner, new owner)) and the variant settles the rest
    (`Variant.after_fall`); then the next phase of the variant's calendar."""
    phase, calendar = after.phase, variant.rules.calendar
    changes: tuple = ()
    nxt = calendar.after_season(phase)
    if calendar.ends_year(phase):
        owners = variant.rules.update_owners(after.units, after.owners)
        changes = tuple((c, after.owners.get(c), o) for c, o in sorted(owners.items()) if after.owners.get(c) != o)
        after = variant.rules.after_fall(after.with_(owners=owners, phase=nxt, dislodged=()))
    else:
        after = after.with_(phase=nxt, dislodged=())
    return after, changes


def skip_empty(variant, position: Position) -> Position:
    """Move past phases with nothing to order (`Variant.phase_needed`): retreats nobody needs,
    winters nobody adjusts; but not a retreat phase the variant's policy closes by its file
    (`Policy.closed_by_file`)."""
    while not variant.rules.phase_needed(position) and not (
            position.phase.retreats and variant.visibility.closed_by_file(position.phase)):
        position = position.with_(phase=variant.rules.calendar.after(position.phase))
    return position


def game_info(game: Game) -> GameInfo:
    """What the History keeps of game.yml besides its players and phases."""
    return GameInfo(game.slug, game.title, game.gm, game.description, game.reveal, display_path(game.path),
                    dict(game.lines), game.start, game.deadline, game.created, game.reminders,
                    game.orders_to)


def step(variant, position: Position, phase_file: PhaseFile) -> PhaseRecord:
    """One phase on its own: a position and a phase file's orders in, its record out.
    Raises GameError on orders the GM must fix."""
    r = _Replay(None, variant)
    record = r.play(position, phase_file)
    if r.problems:
        raise GameError(r.problems)
    return record


def replay(game: Game, draws: GameDraws | None = None, secret=None, seed: bytes | None = None) -> History:
    """Adjudicate every phase of `game`. Raises GameError on anything the GM must fix. `draws`: the
    game's source of draws, from its seed (`dipgen.io.seed.game_draws`; without one, game.yml's
    published seed, unchecked); `secret`: what its secrets.yml says for the set-up, as the variant's
    files read it (Taskdip's lots); `seed`: the game's seed, checked against its commitment
    (`dipgen.io.seed.seed_of`), which salts a hidden game's record. All come from `dipgen.io.load`,
    read once; the replay reads no file."""
    return _Replay(game, draws=draws, secret=secret, seed=seed).run()

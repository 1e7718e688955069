"""Replay a game phase by phase into a History: one record per phase played.

`replay(game)` checks every order against the position it is given in and raises
GameError (file, line, what is wrong, a hint) on anything the GM must fix; orders that
are well formed but impossible (a player's misorder) are kept, adjudicated as the rules
say, and reported as warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Mapping

from .engine.adjustments import _build, order_cost
from .engine.matching import pick
from .engine.results import Kind, OrderResult
from .errors import GameError, Problem, display_path
from .game import Game, PhaseFile, load_game, phase_files
from .gameseed import game_draws, load_seed
from .intake import Intake, with_notes
from .records import GameResult, History, OrderLine, PhaseRecord
from .seats import control_after
from .orders import ADJUSTMENT_ORDERS, Build, Disband, Downgrade, Move, Order, Remove, Retreat, Upgrade, Waive
from .phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from .position import Dislodged, Position, Unit


class _Replay:
    def __init__(self, game: Game | None, variant=None):
        self.game = game
        self.variant = variant or game.variant
        self.board = self.variant.board
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.game_draws = None  # the game's source of draws, for variants that make them
        self.draws = None       # the phase being played's draws

    def drawn(self) -> tuple:
        """What the phase being played drew (`dipgen.draws.Draw`), in drawing order."""
        return self.draws.drawn if self.draws is not None else ()

    def err(self, file: str, line: int | None, message: str, hint: str = "") -> None:
        self.problems.append(Problem(file, line, message, hint))

    def warn(self, file: str, line: int | None, message: str, hint: str = "") -> None:
        self.warnings.append(Problem(file, line, message, hint, severity="warning"))

    def run(self) -> History:
        game = self.game
        try:
            if self.variant.makes_draws:
                self.game_draws = game_draws(game, load_seed(game))
            setup = self.game_draws.phase(None) if self.game_draws is not None else None
            drawn = self.variant.drawn_seating(game, setup)  # seats drawn at the set-up: the History's
            # the variant checks the phase files against the drawn seats; the loaded game stays as the GM wrote it
            position = self.variant.initial_position(game if drawn is None else replace(game, seating=drawn), setup)
        except GameError as e:
            raise GameError(e.problems)
        records: list[PhaseRecord] = []
        used: set[Phase] = set()
        result: GameResult | None = None
        end_phase = game.ending.phase if game.ending else None
        seating = drawn or game.seating  # seats: who controls which power, as play goes on
        stopped = None
        while True:
            phase = position.phase
            pf = game.phases.get(phase)
            if pf is None:
                break
            used.add(phase)
            record = self.play(position, pf)
            record, seating = control_after(self.variant, record, seating)  # seats: powers changing hands
            records.append(record)
            position = record.after
            if self.problems:
                stopped = phase  # the phases after it are not played
                break
            year_over = self.variant.calendar.ends_year(phase) and position.phase.kind == ADJUSTMENTS
            result = self.variant.game_result(position, phase, seating, year_over)
            if result is not None:
                break
            if end_phase is not None and phase == end_phase:
                break
            position = skip_empty(self.variant, position)
        # phases nobody may play
        if not self.problems:
            self.check_unused(game, used, records, position, result)
        if game.ending and result is None and not self.problems:
            last = records[-1].phase if records else None
            if end_phase is not None and last != end_phase:
                self.err(display_path(game.path / "game.yml"), game.ending.line,
                         f"the game is declared over after {end_phase.name}, but that phase was never played",
                         f"the last phase with orders is {last.name}" if last else "add the game's phase files")
            elif last is not None:
                result = GameResult(game.ending.kind, game.ending.powers, last, game.ending.note)
        if self.problems:  # the warnings of the phases before too; `stopped`: where the play stopped, if in a phase
            raise GameError(self.warnings + self.problems, stopped=stopped)
        if self.variant.hidden and result is None and game.reveal != "now":
            for r in records:
                if r.kind != MOVEMENT and (r.press.strip() or r.notes.strip()):
                    self.warn(r.file, None, f"the press and notes of {r.phase.name} stay unpublished until the game "
                              "is revealed: the public may not learn that this phase took place",
                              "put news for everyone in the next Spring or Fall file")
        if setup is not None:
            self.game_draws.setup_draws = setup.drawn
        return History(game, records, position, None if result else position.phase, result, self.warnings,
                       draws=self.game_draws, drawn_seating=drawn)

    def check_unused(self, game: Game, used: set[Phase], records, position: Position, result) -> None:
        for phase, pf in sorted(game.phases.items()):
            if phase in used:
                continue
            name = pf.name
            last = records[-1].phase.name if records else "the start"
            if result is not None or (game.ending and game.ending.phase and phase > game.ending.phase):
                self.err(name, None, f"{phase.name} comes after the end of the game",
                         "delete this file, or change 'end' in game.yml")
            elif phase < position.phase:
                why = {RETREATS: f"nobody had to retreat in {phase.name[:-9]}",
                       ADJUSTMENTS: f"nobody could build or had to remove units in {phase.name}"}.get(phase.kind, "")
                self.err(name, None, f"there is no {phase.name} phase: {why}" if why else f"{phase.name} was skipped",
                         "delete or rename this file; the next phase after "
                         f"{last} is {position.phase.name} ({position.phase.slug}.yml)")
            else:
                self.err(name, None, f"{phase.name} cannot be played yet: the game waits for {position.phase.name}",
                         f"create {position.phase.slug}.yml first, or rename this file if it is misnamed")

    # ------------------------------------------------------------------ one phase
    def play(self, position: Position, pf: PhaseFile) -> PhaseRecord:
        self.draws = self.game_draws.phase(pf.phase) if self.game_draws is not None else None
        kind = pf.phase.kind
        position = self.variant.prepare(position, pf, self.draws)
        if kind == MOVEMENT:
            return self.movement(position, pf)
        if kind == RETREATS:
            return self.retreats(position, pf)
        return self.adjustments(position, pf)

    def orders_for(self, pf: PhaseFile, allowed: tuple[type, ...], what: str, position: Position) -> Intake:
        """The orders the engine adjudicates: the lines of the phase's kind (any other is an
        error the GM must fix), through the variant's intake step (`Variant.intake`)."""
        out: dict[str, list[OrderLine]] = {}
        for power, lines in pf.orders.items():
            for ol in lines:
                if not isinstance(ol.order, allowed):
                    hint = f"{pf.phase.name} takes {what}"
                    if isinstance(ol.order, Retreat) and pf.phase.kind == MOVEMENT:
                        hint += f"; a move is written with '-': {Move(ol.order.unit, ol.order.dest).format(self.board)}"
                    self.err(pf.name, ol.line, f"{ol.text!r} is not an order for {pf.phase.name}", hint)
                    continue
                out.setdefault(power, []).append(ol)
        return self.variant.intake(position, out, self.draws)

    def check_units(self, pf: PhaseFile, units: tuple[Unit, ...], what: str) -> None:
        """Each order names a unit of its power that stands where it says (the GM must fix it
        otherwise), and no unit gets two orders. Where several units stand in a province the
        order's letter picks among them; units of a kind that does not occupy (spies) may be
        several of one power in one province, each taking one order."""
        kinds = self.variant.unit_kinds
        by_prov: dict[str, list[Unit]] = {}
        for u in units:
            by_prov.setdefault(u.province, []).append(u)
        first: dict[tuple[str, int], OrderLine] = {}  # (writer, id of a unit) -> its order
        for power, lines in pf.orders.items():
            for ol in lines:
                ref = getattr(ol.order, "unit", None)
                if ref is None or isinstance(ol.order, Build):
                    continue
                here = by_prov.get(ref.province, [])
                where = self.board.full_name(ref.province)
                taken = [i for i, u in enumerate(here) if (ol.writer, id(u)) in first]
                i = pick(here, ref.kind, power, kinds, taken)  # the rule the engine uses too
                if ref.kind in kinds and not kinds[ref.kind].occupies:  # several of a kind may share a province
                    kind = kinds[ref.kind]
                    mine_here = [u for u in here if u.power == power and u.kind == ref.kind]
                    if i is None or here[i].power != power or i in taken:
                        mine = ", ".join(u.describe(self.board) for u in sorted(units) if u.power == power and u.kind == ref.kind)
                        n = len(mine_here)
                        message = (f"more orders than {kind.names}: {power} has {n} {kind.name if n == 1 else kind.names} in {where}"
                                   if mine_here else f"{power} has no {kind.name} in {where}")
                        self.err(pf.name, ol.line, message, f"{power}'s {kind.names}: {mine or 'none'}")
                    else:
                        first[(ol.writer, id(here[i]))] = ol
                    continue
                unit = None if i is None else here[i]
                mine = [u for u in units if u.power == power and kinds[u.kind].occupies]
                listing = ", ".join(u.describe(self.board) for u in sorted(mine, key=lambda u: u.loc)) or "none"
                if unit is None:
                    self.err(pf.name, ol.line, f"{power} has no {what} in {where}", f"{power}'s {what}s: {listing}")
                    continue
                if unit.power != power:
                    self.err(pf.name, ol.line, f"the {kinds[unit.kind].name} in {self.board.full_name(unit.province)} "
                             f"is {unit.power}'s, not {power}'s", f"{power}'s {what}s: {listing}")
                    continue
                if ref.kind and ref.kind != unit.kind:
                    kind = kinds[unit.kind]
                    self.warn(pf.name, ol.line,
                              f"{ol.text!r}: the unit in {self.board.full_name(unit.province)} is {kind.article} {kind.name}",
                              f"read as {unit.describe(self.board)}")
                if (ol.writer, id(unit)) in first:  # one writer, two orders (two writers: the intake's)
                    self.err(pf.name, ol.line, f"a second order for {unit.describe(self.board)} (the first is on "
                             f"line {first[(ol.writer, id(unit))].line})", "keep one order per unit")
                else:
                    first[(ol.writer, id(unit))] = ol

    def nmr(self, pf: PhaseFile, powers, position: Position) -> tuple[str, ...]:
        return tuple(p for p in powers if not pf.orders.get(p) and self.variant.must_order(p, position))

    def movement(self, position: Position, pf: PhaseFile) -> PhaseRecord:
        self.check_units(pf, position.units, "unit")
        intake = self.orders_for(pf, self.variant.movement_orders, self.variant.movement_orders_text, position)
        out = self.variant.movement(position, intake.orders)
        self.warn_illegal(pf, out.results)
        phase = pf.phase
        after = Position(self.variant.calendar.retreats_of(phase), out.units, position.owners, out.dislodged,
                         economy=_economy(position, intake, out))
        changes: tuple = ()
        if not out.dislodged:
            after, changes = end_of_season(self.variant, after)
        powers = sorted({u.power for u in position.units})
        return PhaseRecord(phase, position, self.lines(pf), with_notes(out.results, intake.notes), after, out.dislodged,
                           out.destroyed, changes, {}, self.nmr(pf, powers, position), pf.press, pf.notes, pf.name,
                           draws=self.drawn(), report=intake.report)

    def retreats(self, position: Position, pf: PhaseFile) -> PhaseRecord:
        self.check_units(pf, tuple(d.unit for d in position.dislodged), "dislodged unit")
        intake = self.orders_for(pf, (Retreat, Disband), "retreats and disbands", position)
        out = self.variant.retreats(position, intake.orders)
        self.warn_illegal(pf, out.results)
        after, changes = end_of_season(self.variant,
                                       Position(pf.phase, out.units, position.owners,
                                                economy=_economy(position, intake)))
        powers = sorted({d.unit.power for d in position.dislodged})
        return PhaseRecord(pf.phase, position, self.lines(pf), with_notes(out.results, intake.notes), after, (), (),
                           changes, {}, self.nmr(pf, powers, position), pf.press, pf.notes, pf.name, draws=self.drawn(),
                           report=intake.report)

    def adjustments(self, position: Position, pf: PhaseFile) -> PhaseRecord:
        due = self.variant.adjustment_counts(position)
        kinds = self.variant.unit_kinds
        occupied = {u.province for u in position.units if kinds[u.kind].occupies}
        for power, lines, occupied in _per_writer(pf.orders, occupied):  # each writer's, where several write
            n = due.get(power, 0)
            taken = set(occupied)
            builds = [ol for ol in lines if isinstance(ol.order, (Build, Upgrade, Waive))]
            removes = [ol for ol in lines if isinstance(ol.order, (Remove, Downgrade))]
            if lines and n == 0:
                self.err(pf.name, pf.order_lines.get(power), f"{power} has no builds or removals in {pf.phase.name}",
                         f"remove {power}'s orders from this file")
                continue
            if n > 0 and removes:
                self.err(pf.name, removes[0].line, f"{power} builds this winter and cannot remove units",
                         f"{power} may build {n}")
            if n < 0 and builds:
                self.err(pf.name, builds[0].line, f"{power} must remove {-n} and cannot build",
                         "order removals such as 'Remove A Par'")
            # counted in the kinds' costs (a tank's build takes two): an order is extra when the
            # ones before it already take all that is due; a build needing more than is left fails
            costs = [order_cost(ol.order, position.units, kinds) for ol in (builds if n > 0 else removes)]
            extra = next((i for i in range(len(costs)) if sum(costs[:i]) >= abs(n)), None)
            if n > 0 and extra is not None:
                self.err(pf.name, builds[extra].line, f"too many builds: {power} may build {n}, the orders have "
                         f"{sum(costs)}", "drop the extra builds")
            if n < 0 and extra is not None:
                self.err(pf.name, removes[extra].line, f"too many removals: {power} must remove {-n}, the orders "
                         f"have {sum(costs)}", "drop the extra removals")
            for ol in builds:
                if isinstance(ol.order, Build) and n > 0:
                    unit, why = _build(self.board, self.variant.unit_kinds, power, ol.order.unit, position.owners,
                                       taken, self.variant.home_centres)
                    if unit is None:
                        free = [self.board.format_loc(c) for c in self.variant.home_centres(power)
                                if position.owners.get(c) == power and c not in taken]
                        self.err(pf.name, ol.line, f"cannot build {ol.text!r}: {why}",
                                 f"{power} can build in: {', '.join(free) or 'nowhere'}")
                    else:
                        taken.add(unit.province)
        self.check_units(pf, position.units, "unit")
        changes = "upgrades, downgrades, " if any(k.upgrades_to for k in kinds.values()) else ""
        intake = self.orders_for(pf, ADJUSTMENT_ORDERS, f"builds, {changes}removals and waives", position)
        out = self.variant.adjustments(position, intake.orders)
        self.refuse_illegal(pf, out.results)
        after = Position(self.variant.calendar.after(pf.phase), out.units, position.owners,
                         economy=_economy(position, intake))
        return PhaseRecord(pf.phase, position, self.lines(pf), with_notes(out.results, intake.notes), after, (), (),
                           (), due, self.nmr(pf, sorted(due), position), pf.press, pf.notes, pf.name, draws=self.drawn(),
                           report=intake.report)

    def refuse_illegal(self, pf: PhaseFile, results) -> None:
        """An error for each adjustment order the rules refuse that the checks above let pass
        (an upgrade off a home centre, a tank's build with one build left): the GM fixes it."""
        lines = {(ol.power, ol.order.unit.province if getattr(ol.order, "unit", None) else None): ol
                 for ls in pf.orders.values() for ol in ls}
        wrong = {p.line for p in self.problems if p.file == pf.name}
        for r in results:
            ref = getattr(r.order, "unit", None)
            ol = lines.get((r.power, ref.province if ref else None))
            n = next((n for n in r.notes if n.kind is Kind.ILLEGAL), None)
            if n is not None and ol is not None and ol.line not in wrong:
                self.err(pf.name, ol.line, f"{ol.text!r} cannot be carried out: {n.why}",
                         "correct the order, or leave it out")

    def warn_illegal(self, pf: PhaseFile, results) -> None:
        """A warning for each order that reads clearly but cannot be carried out, saying what
        happens instead: in a movement phase the unit holds, in a retreat phase it disbands."""
        lines = {(ol.power, ol.order.unit.province if getattr(ol.order, "unit", None) else None): ol
                 for ls in pf.orders.values() for ol in ls}
        wrong = {p.line for p in self.problems if p.file == pf.name}  # errors already say what is wrong
        for r in results:
            if r.default or r.order is None:
                continue
            for n in r.notes:
                if n.kind is Kind.ILLEGAL:
                    ref = getattr(r.order, "unit", None)
                    ol = lines.get((r.power, ref.province if ref else None))
                    if ol is not None and ol.line not in wrong:
                        self.warn(pf.name, ol.line,
                                  f"{ol.text!r} cannot be carried out ({n.why}); {self.instead(pf.phase.kind, r)}",
                                  "fine if that is what the player wrote; otherwise correct the order")

    def instead(self, kind: str, result: OrderResult) -> str:
        """What becomes of a unit whose order cannot be carried out."""
        if result.unit is None:
            return "the order is ignored"
        name = self.variant.unit_kinds[result.unit.kind].name
        return f"the {name} is disbanded" if kind == RETREATS else f"the {name} holds"

    @staticmethod
    def lines(pf: PhaseFile) -> dict[str, tuple[OrderLine, ...]]:
        return {p: tuple(ls) for p, ls in pf.orders.items()}


def _per_writer(orders, occupied: set):
    """(power, lines, provinces occupied) for each writer's adjustment orders for each power: each
    writer's are checked on their own, as the variant merges them after (`Variant.intake`)."""
    for power, lines in orders.items():
        writers: dict[str, list] = {}
        for ol in lines:
            writers.setdefault(ol.writer, []).append(ol)
        for mine in writers.values() or [[]]:
            yield power, mine, set(occupied)


def _economy(position: Position, intake: Intake, out=None):
    """The variant's state after a phase: as the adjudication left it (Complicated's bombing), or
    as the intake step left it (the TIR), or as it was."""
    if out is not None and getattr(out, "economy", None) is not None:
        return out.economy
    return intake.economy if intake.economy is not None else position.economy


def end_of_season(variant, after: Position) -> tuple[Position, tuple]:
    """After a season's last phase: at the end of the year's last season (the Fall) centres change
    hands (returned as (centre, old owner, new owner)) and the variant settles the rest
    (`Variant.after_fall`); then the next phase of the variant's calendar."""
    phase, calendar = after.phase, variant.calendar
    changes: tuple = ()
    nxt = calendar.after_season(phase)
    if calendar.ends_year(phase):
        owners = variant.update_owners(after.units, after.owners)
        changes = tuple((c, after.owners.get(c), o) for c, o in sorted(owners.items()) if after.owners.get(c) != o)
        after = variant.after_fall(after.with_(owners=owners, phase=nxt, dislodged=()))
    else:
        after = after.with_(phase=nxt, dislodged=())
    return after, changes


def skip_empty(variant, position: Position) -> Position:
    """Move past phases with nothing to order (`Variant.phase_needed`): retreats nobody needs,
    winters nobody adjusts."""
    while not variant.phase_needed(position):
        position = position.with_(phase=variant.calendar.after(position.phase))
    return position


def step(variant, position: Position, phase_file: PhaseFile) -> PhaseRecord:
    """One phase on its own: a position and a phase file's orders in, its record out.
    Raises GameError on orders the GM must fix."""
    r = _Replay(None, variant)
    record = r.play(position, phase_file)
    if r.problems:
        raise GameError(r.problems)
    return record


def replay(game: Game) -> History:
    """Adjudicate every phase of `game`. Raises GameError on anything the GM must fix."""
    return _Replay(game).run()


def replay_folder(path) -> History:
    """Read and adjudicate a game folder, reporting every independent problem at once: when
    phase files are broken, the phases before the first broken one are still played, so that
    their problems and warnings are reported with the rest rather than after the GM has fixed
    the later file; the phases that cannot be adjudicated because of an earlier error are said
    once, in a note, rather than given errors that follow from it. The GameError carries the
    game as far as it could be read (`partial`), or None if game.yml itself is broken."""
    try:
        game = load_game(path)
    except GameError as e:
        if e.partial is None:
            raise GameError(in_file_order(e.problems) + not_adjudicated(path, None)) from None
        try:
            earlier, stopped = replay(e.partial).warnings, e.stopped
        except GameError as inner:
            earlier, stopped = inner.problems, inner.stopped or e.stopped
        note = not_adjudicated(path, stopped) if stopped is not None else []
        raise GameError(in_file_order(earlier + e.problems) + note, partial=e.partial, stopped=stopped) from None
    try:
        return replay(game)
    except GameError as e:
        note = not_adjudicated(path, e.stopped) if e.stopped is not None else []
        raise GameError(e.problems + note, partial=game, stopped=e.stopped) from None


def in_file_order(problems: list[Problem]) -> list[Problem]:
    """Problems as a compiler lists them: game.yml's first, then each phase file's in the order of
    play, each file's by line (the order found, where lines are equal); other files last."""
    def key(p: Problem):
        name = Path(p.file).name
        try:
            return (1, Phase.from_slug(Path(name).stem), p.line or 0)
        except ValueError:
            return (0 if name == "game.yml" else 2, name, p.line or 0)
    return sorted(problems, key=key)


def not_adjudicated(path, stopped: Phase | None) -> list[Problem]:
    """One note for the phase files after `stopped` (the phase whose errors stopped the play;
    None: game.yml's), which were read for their form only: nothing is said of them that
    follows from the earlier errors."""
    if stopped is None and not (Path(path) / "game.yml").is_file():
        return []  # no game to adjudicate: what is wrong says so
    later = [file for phase, file in sorted(phase_files(path).items()) if stopped is None or phase > stopped]
    if not later:
        return []
    if stopped is None:
        return [Problem(display_path(Path(path) / "game.yml"), None, f"the {len(later)} phase file(s) are not "
                        "adjudicated until the errors in game.yml are fixed", "their orders were checked only for "
                        "their form", severity="note")]
    after = f", nor the {len(later) - 1} phase file(s) after it" if len(later) > 1 else ""
    return [Problem(display_path(later[0]), None, f"not adjudicated{after}, until the errors in {stopped.name} are "
                    "fixed", "the orders were checked only for their form", severity="note")]

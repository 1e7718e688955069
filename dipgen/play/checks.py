"""The GM's checks of a game's files as they are played: what she must fix (errors) and what a
player wrote that cannot be carried out (warnings), each a `Problem` with its file, line, code
and a hint.

The play itself (`dipgen.play.step`, `dipgen.play.replay`) calls these and keeps what they find;
they decide nothing of the adjudication. Errors: two orders for one unit from one writer, an
order of another phase's kind, an empty retreats file where a power must retreat, a phase file
that cannot be played (skipped, too early, after the end), a Fall left unclosed. Warnings: an
order naming no unit of its power (a misorder, void as written), a unit named as the wrong kind,
an order the rules refuse (`dipgen.io.acknowledge.WARNING_CODES` lists the codes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from dipgen.core.errors import Problem

from dipgen.core.orderline import OrderLine
from dipgen.core.orders import Build, Move, Order, Retreat, UnitRef, Waive
from dipgen.core.outcome import GameResult
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from dipgen.core.position import Position, Unit
from dipgen.core.results import Illegal, Kind, Note, OrderResult
from dipgen.engine.matching import pick
from dipgen.play.game import Game, PhaseFile
from dipgen.play.records import PhaseRecord
from dipgen.rules.variant import Rules


def err(file: str, line: int | None, message: str, hint: str, code: str) -> Problem:
    """An error with its code (`dipgen.core.errors.ERROR_CODES`)."""
    return Problem(file, line, message, hint, code=code)


def warning(file: str, line: int | None, message: str, hint: str, code: str, subject: str = "") -> Problem:
    """A warning with its code (`dipgen.io.acknowledge.WARNING_CODES`) and the order it is about."""
    return Problem(file, line, message, hint, severity="warning", code=code, subject=subject)


def named_unit(order: Order) -> UnitRef | None:
    """The unit an order names (a waive names none)."""
    return None if isinstance(order, Waive) else order.unit


@dataclass
class Named:
    """What the orders of a phase file name: the unit of each order line (by the line's id), the
    lines that name none of their power's (a player's misorders) with their results, and what
    the check found."""

    units: dict[int, Unit] = field(default_factory=dict)
    misorders: dict[int, OrderResult] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def check_units(rules: Rules, pf: PhaseFile, units: tuple[Unit, ...], what: str) -> Named:
    """The unit each order names. No unit gets two orders from one writer (the GM must fix
    that); an order that names no unit of its power where it says, none there or another
    power's, is the player's misorder (`misorder`). Where several units stand in a province the
    order's letter picks among them; units of a kind that does not occupy (spies) may be several
    of one power in one province, each taking one order."""
    kinds, board = rules.unit_kinds, rules.board
    found = Named()
    by_prov: dict[str, list[Unit]] = {}
    for u in units:
        by_prov.setdefault(u.province, []).append(u)
    first: dict[tuple[str, int], OrderLine] = {}  # (writer, id of a unit) -> its order
    for power, lines in pf.orders.items():
        for ol in lines:
            ref = named_unit(ol.order)
            if ref is None or isinstance(ol.order, Build):
                continue
            here = by_prov.get(ref.province, [])
            taken = [i for i, u in enumerate(here) if (ol.writer, id(u)) in first]
            i = pick(here, ref.kind, power, kinds, taken)  # the rule the engine uses too
            unit = None if i is None else here[i]
            if ref.kind is not None and ref.kind in kinds and not kinds[ref.kind].occupies:  # several may share
                kind = kinds[ref.kind]
                n = sum(1 for u in here if u.power == power and u.kind == ref.kind)
                theirs = ", ".join(u.describe(board) for u in sorted(units)
                                   if u.power == power and u.kind == ref.kind) or "none"
                if n and i in taken:
                    found.problems.append(err(
                        pf.name, ol.line, f"more orders than {kind.names}: {power} has {n} "
                        f"{kind.name if n == 1 else kind.names} in {board.full_name(ref.province)}",
                        f"{power}'s {kind.names}: {theirs}", "too-many-orders"))
                elif unit is None or unit.power != power:
                    misorder(rules, pf, ol, unit, kind.name, f"{power}'s {kind.names}: {theirs}", found)
                else:
                    first[(ol.writer, id(unit))] = ol
                    found.units[id(ol)] = unit
                continue
            if unit is None or unit.power != power:
                mine = sorted((u for u in units if u.power == power and kinds[u.kind].occupies), key=lambda u: u.loc)
                listing = ", ".join(u.describe(board) for u in mine) or "none"
                misorder(rules, pf, ol, unit, what, f"{power}'s {what}s: {listing}", found)
                continue
            if ref.kind and ref.kind != unit.kind:
                kind = kinds[unit.kind]
                found.problems.append(warning(
                    pf.name, ol.line, f"{ol.text!r}: the unit in {board.full_name(unit.province)} is "
                    f"{kind.article} {kind.name}", f"read as {unit.describe(board)}", "wrong-unit-kind", ol.text))
            if (ol.writer, id(unit)) in first:  # one writer, two orders (two writers: the intake's)
                found.problems.append(err(
                    pf.name, ol.line, f"a second order for {unit.describe(board)} (the first is on "
                    f"line {first[(ol.writer, id(unit))].line})", "keep one order per unit", "second-order"))
            else:
                first[(ol.writer, id(unit))] = ol
                found.units[id(ol)] = unit
    return found


def misorder(rules: Rules, pf: PhaseFile, ol: OrderLine, there: Unit | None, what: str, listing: str,
             found: Named) -> None:
    """An order naming no unit of its power where it says (`there`: the unit of another power
    standing there, if any): void as written, the unit there untouched; a warning for the GM.
    The note names `there` as its source, which a view shows only to a level that sees it."""
    named = named_unit(ol.order)  # a misorder names a unit (a waive names none, and is none)
    assert named is not None
    power, where = ol.power, rules.board.full_name(named.province)
    why = f"{power} has no {what} in {where}"
    if there is None:
        note = Note(Kind.ILLEGAL, Illegal.NO_UNIT, why)
        message = f"{ol.text!r}: {why}"
    else:
        note = Note(Kind.ILLEGAL, Illegal.NOT_YOURS, why, source=there)
        name = rules.unit_kinds[there.kind].name
        message = f"{ol.text!r}: the {name} in {where} is {there.power}'s, not {power}'s; it is not affected"
    found.misorders[id(ol)] = OrderResult(power, ol.order, None, False, (note,))
    found.problems.append(warning(
        pf.name, ol.line, f"{message}; the order is void",
        f"{listing} (fine if that is what the player wrote; otherwise correct the order)",
        "no-unit" if there is None else "foreign-unit", ol.text))


def empty_retreats(pf: PhaseFile, position: Position) -> list[Problem]:
    """A retreats file with `orders: {}` (kept for closing a Fall) where units must retreat."""
    if not (pf.phase.retreats and position.dislodged and not pf.writers):
        return []
    powers = sorted({d.unit.power for d in position.dislodged})
    return [err(pf.name, pf.order_lines.get("", None), f"orders is empty, but {', '.join(powers)} must retreat",
                  f"list the retreats received; if none were sent, write {powers[0]}: []", "no-orders")]


def of_this_phase(rules: Rules, pf: PhaseFile, allowed: tuple[type, ...], what: str,
                  void: Mapping[int, OrderResult]) -> tuple[dict[str, list[OrderLine]], list[Problem]]:
    """The lines of the phase's kind, by power, but the `void` ones (misorders); any line of
    another kind is an error the GM must fix."""
    out: dict[str, list[OrderLine]] = {}
    problems: list[Problem] = []
    for power, lines in pf.orders.items():
        for ol in lines:
            if id(ol) in void:
                continue
            if not isinstance(ol.order, allowed):
                hint = f"{pf.phase.name} takes {what}"
                if isinstance(ol.order, Retreat) and pf.phase.kind == MOVEMENT:
                    hint += f"; a move is written with '-': {Move(ol.order.unit, ol.order.dest).format(rules.board)}"
                problems.append(err(pf.name, ol.line, f"{ol.text!r} is not an order for {pf.phase.name}", hint,
                                      "not-this-phase"))
                continue
            out.setdefault(power, []).append(ol)
    return out, problems


def illegal_orders(rules: Rules, pf: PhaseFile, results: Sequence[OrderResult], named: Mapping[int, Unit],
                   errors: Iterable[Problem]) -> list[Problem]:
    """A warning for each order that reads clearly but cannot be carried out, at its own line
    (found by the unit it names, or by the order itself), saying what happens instead: in a
    movement phase the unit holds, in a retreat phase it disbands, in a winter the order is
    void (a build the rules refuse, one more than is due). None at a line an error is about."""
    wrong = {p.line for p in errors if p.file == pf.name}  # errors already say what is wrong
    refused = (Kind.ILLEGAL, Kind.VOID) if pf.phase.kind == ADJUSTMENTS else (Kind.ILLEGAL,)
    by_unit: dict[int, list[OrderLine]] = {}
    for ls in pf.orders.values():
        for ol in ls:
            if id(ol) in named:
                by_unit.setdefault(named[id(ol)].uid, []).append(ol)
    found: list[Problem] = []
    for r in results:
        if r.default or r.order is None:
            continue
        n = next((n for n in r.notes if n.kind in refused), None)
        if n is None:
            continue
        why = n.why + (f" ({n.source.power}'s {n.source.describe(rules.board)} is there)" if n.source else "")
        for ol in _lines_of(r, by_unit.get(r.unit.uid, []) if r.unit is not None else [],
                            pf.orders.get(r.power, ())):
            if ol.line not in wrong:
                found.append(warning(
                    pf.name, ol.line, f"{ol.text!r} cannot be carried out ({why}); {_instead(rules, pf.phase.kind, r)}",
                    "fine if that is what the player wrote; otherwise correct the order", "illegal-order", ol.text))
    return found


def _instead(rules: Rules, kind: str, result: OrderResult) -> str:
    """What becomes of a unit whose order cannot be carried out."""
    if result.unit is None or kind == ADJUSTMENTS:
        return "the order is void"
    name = rules.unit_kinds[result.unit.kind].name
    return f"the {name} is disbanded" if kind == RETREATS else f"the {name} holds"


def _lines_of(result: OrderResult, naming: list[OrderLine], lines: Sequence[OrderLine]) -> list[OrderLine]:
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
    ref = None if like is None else named_unit(like)
    if ref is None or type(order) is not type(like) or isinstance(order, Waive):
        return order
    return replace(order, unit=ref)


def unplayed(game: Game, used: set[Phase], records: Sequence[PhaseRecord], position: Position,
             result: GameResult | None) -> list[Problem]:
    """The phase files the play never reached: after the game's end, of a phase that did not
    happen, or of one the game has not come to yet."""
    found: list[Problem] = []
    for phase, pf in sorted(game.phases.items()):
        if phase in used:
            continue
        name = pf.name
        last = records[-1].phase.name if records else "the start"
        if result is not None or (game.ending and game.ending.phase and phase > game.ending.phase):
            found.append(err(name, None, f"{phase.name} comes after the end of the game",
                               "delete this file, or change 'end' in game.yml", "after-the-end"))
        elif phase < position.phase:
            why = {RETREATS: f"nobody had to retreat in {phase.name[:-9]}",
                   ADJUSTMENTS: f"nobody could build or had to remove units in {phase.name}"}.get(phase.kind, "")
            found.append(err(
                name, None, f"there is no {phase.name} phase: {why}" if why else f"{phase.name} was skipped",
                f"delete or rename this file; the next phase after {last} is {position.phase.name} "
                f"({position.phase.slug}.yml)", "skipped-phase"))
        else:
            found.append(err(
                name, None, f"{phase.name} cannot be played yet: the game waits for {position.phase.name}",
                f"create {position.phase.slug}.yml first, or rename this file if it is misnamed", "not-yet"))
    return found


def unclosed_falls(game: Game, phases: Iterable[Phase]) -> list[Problem]:
    """The files that close a hidden game's Fall nobody retreats in, missing though later files follow."""
    return [err(game.shown_file(f"{phase.slug}.yml"), None,
                  f"this file is missing: nobody retreats in {phase.name[:-9]}, but in this hidden game its "
                  "retreats file closes the year, and later files follow",
                  "create it with the line `orders: {}` (the players are told their centres and their Winter "
                  "once it is in)", "fall-not-closed") for phase in phases]


def end_not_played(game: Game, last: Phase | None) -> list[Problem]:
    """game.yml declares the game over after a phase that was never played."""
    end = game.ending.phase if game.ending else None
    if game.ending is None or end is None or last == end:
        return []
    return [err(game.shown_file("game.yml"), game.ending.line,
                  f"the game is declared over after {end.name}, but that phase was never played",
                  f"the last phase with orders is {last.name}" if last else "add the game's phase files",
                  "end-not-played")]

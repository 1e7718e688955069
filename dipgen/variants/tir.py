"""The 2-player game with a Table of International Relations (TIR).

Two players each rule a Great Power; the other five powers act through the orders both
players write for them, as far as the TIR (one marker per pair of powers: At War .. Allied)
allows. Each Spring and Fall turn: the diplomacy points (``dp:``) and two dice per relationship
move the markers (`prepare`); the five powers' orders are checked against the table, a
conflict between two valid orders is settled by a die, and the players' own attacks, supports
and convoys of attacks push their relationships toward war (`intake`). Retreats and
adjustments of the five powers: each player suggests, a die decides.

Every die is a draw from the game's committed seed (`dipgen.rules.draws`); the TIR is carried from
phase to phase in `Position.economy`. The rulings where the rule text is silent are on the
rules page (site_src/rules/tir.md) and marked RULING below.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Mapping, Sequence

from dipgen.engine.movement import reachable
from dipgen.core.results import STANDARD_WORDS, Kind, Note
from dipgen.core.errors import GameError, Problem
from dipgen.rules.intake import Intake
from dipgen.core.orders import Convoy, Hold, Move, Support
from dipgen.core.phase import MOVEMENT
from dipgen.core.position import Position, Unit
from dipgen.rules.seats import Seat, Seating
from dipgen.io.yamlfile import Signed, by_power, kind_of, line_of
from dipgen.variants._whole import Whole as Variant

LEVELS = ("At War", "Hostile", "Neutral", "Friendly", "Allied")
WAR, HOSTILE, NEUTRAL, FRIENDLY, ALLIED = range(5)
MAX_POINTS, MAX_PER_RELATIONSHIP = 10, 2


class TirNote(Enum):
    """What the TIR's intake step decided about a unit's order."""

    INVALID = "invalid"      # no valid order: the unit holds
    OVERRULED = "overruled"  # one player's order was invalid: the other's was carried out
    CHOSEN = "chosen"        # two different valid orders: a die chose
    SUGGESTED = "suggested"  # a retreat or adjustment of the five powers: the players' suggestions


def shifted(level: int, total: int) -> int:
    """The marker after a roll of two dice plus the players' points (`total`): 2-3 (or less) to
    At War, 4-5 one step toward war, 6-8 unchanged, 9-10 one step toward alliance, 11-12 (or more) to Allied."""
    total = max(2, min(12, total))
    if total <= 3:
        return WAR
    if total <= 5:
        return max(WAR, level - 1)
    if total <= 8:
        return level
    if total <= 10:
        return min(ALLIED, level + 1)
    return ALLIED


@dataclass(frozen=True)
class Roll:
    """One relationship's roll in a turn: its two dice, each player's points, and the marker."""

    pair: str
    dice: tuple[int, int]
    points: tuple[tuple[str, int], ...]  # (player's power, points), both players
    total: int
    before: int
    after: int


@dataclass(frozen=True)
class OwnShift:
    """A marker a player's own order moved: an attack (to At War) or a support or convoy of an
    attack (two steps toward war)."""

    player: str
    pair: str
    order: str
    what: str     # "attack", "support" or "convoy"
    before: int
    after: int


@dataclass(frozen=True)
class Candidate:
    """One player's order (or suggestion) for a unit or a power of the five, and whether it is valid."""

    writer: str
    text: str
    valid: bool = True
    why: str = ""


@dataclass(frozen=True)
class Choice:
    """A unit (or, for adjustments, a power) of the five: the players' orders, which one counts and why."""

    power: str
    where: str             # the unit's province ('' for a power's adjustments)
    candidates: tuple[Candidate, ...]
    chosen: str            # the order adjudicated ('' when the unit holds for want of a valid one)
    die: int | None = None  # the die that chose, if the players disagreed
    draw: int | None = None  # its number among the phase's draws (1 = first)
    why: str = ""
    by: str = ""           # the player whose valid order was picked ('' when none was valid)


@dataclass(frozen=True)
class TirReport:
    """What a phase's TIR step decided: the table before and after, each roll, the players'
    own shifts, and each of the five powers' units with the players' orders."""

    players: tuple[str, str]
    before: Mapping[str, int]
    after: Mapping[str, int]
    rolls: tuple[Roll, ...] = ()
    shifts: tuple[OwnShift, ...] = ()
    choices: tuple[Choice, ...] = ()


def level_name(level: int) -> str:
    return LEVELS[level]


class Tir(Variant):
    name = "tir"
    title = "2-player Diplomacy with a Table of International Relations"
    description = ("Two players on the standard map; the other five powers follow both players' orders as far as "
                   "the Table of International Relations allows, with dice from the game's committed seed.")
    phase_keys = frozenset({"dp"})
    order_form = "writer/power"
    order_form_example = ("e.g.\n      orders:\n        France:\n          France: [A Par - Bur]\n"
                          "          Germany: [A Mun - Ruh, A Ber S A Mun]\n        Russia:\n"
                          "          Russia: [A War - Gal]\n          Germany: [A Mun H]")
    makes_draws = True
    result_vocabulary = MappingProxyType({**STANDARD_WORDS, TirNote.INVALID: "invalid under the TIR",
                                          TirNote.OVERRULED: "one order invalid", TirNote.CHOSEN: "chosen by die",
                                          TirNote.SUGGESTED: "by die"})

    # ------------------------------------------------------------------ the table
    def pairs(self) -> list[tuple[str, str]]:
        """Every relationship, each pair of powers in the board's order."""
        powers = self.powers()
        return [(a, b) for i, a in enumerate(powers) for b in powers[i + 1:]]

    def pair_name(self, a: str, b: str) -> str:
        order = self.powers()
        a, b = sorted((a, b), key=order.index)
        return f"{a}-{b}"

    @staticmethod
    def players_of(position: Position) -> tuple[str, str]:
        return tuple(position.economy["players"])

    @staticmethod
    def table(position: Position) -> Mapping[str, int]:
        return position.economy["tir"]

    def level(self, table: Mapping[str, int], a: str, b: str) -> int:
        return table[self.pair_name(a, b)]

    # ------------------------------------------------------------------ seats
    def new_players(self):
        """The two players' powers (any two the GM and players agree on), with their players."""
        return {"France": "to be announced", "Russia": "to be announced"}

    def read_seats(self, raw, file, line, problems):
        example = "e.g.\n      players:\n        France: Alice\n        Russia: Boris"
        if not isinstance(raw, dict):
            problems.append(Problem(file, line, f"players must name the two players' powers, not be {kind_of(raw)}",
                                    example))
            return Seating((), {p: () for p in self.powers()})
        seats = []
        for power, who, kline in by_power(self.board, raw, file, problems, "under players", "name each power once"):
            if not isinstance(who, str) or not who.strip():
                problems.append(Problem(file, kline, f"no player named for {power}", f"write {power}: <name>"))
                continue
            seats.append(Seat(power, ((who.strip(), None),)))
        if len(raw) != 2:
            problems.append(Problem(file, line, f"a TIR game has two players, each ruling one power; players names "
                                    f"{len(raw)}", example))
        order = self.powers()
        seats.sort(key=lambda s: order.index(s.key))
        return Seating(tuple(seats), {p: ((p,) if any(s.key == p for s in seats) else ()) for p in order})

    def writers(self, seating) -> dict[str, str]:
        """A player writes under her power's name or her own: either way her orders are her power's."""
        out = {}
        for seat in seating.seats:
            for name in [seat.key, *seat.names()]:
                out[name.casefold()] = seat.key
        return out

    def initial_position(self, game, draws=None, secret=None) -> Position:
        position = self.start(game.start)
        players = tuple(s.key for s in game.seating.seats)
        table = {self.pair_name(a, b): NEUTRAL for a, b in self.pairs()}
        if len(players) == 2:
            table[self.pair_name(*players)] = WAR
        return position.with_(economy={"players": players, "tir": MappingProxyType(table)})

    def must_order(self, power: str, position: Position) -> bool:
        """Only the two players owe orders: a unit of the five that nobody orders holds, and is no NMR."""
        return power in self.players_of(position) if "players" in position.economy else True

    # ------------------------------------------------------------------ phase 1-2: points and dice
    def prepare(self, position: Position, phase_file, draws=None) -> Position:
        """Check the phase file's points and that no player orders her opponent's units, then
        (in a Spring or Fall turn) roll two dice for every relationship and move the markers."""
        problems: list[Problem] = []
        players = self.players_of(position)
        for power, lines in phase_file.orders.items():
            for ol in lines:
                if power in players and ol.writer != power:
                    problems.append(Problem(phase_file.name, ol.line, f"{ol.writer}'s player cannot order "
                                            f"{power}'s units: they are her opponent's",
                                            f"delete {ol.text!r}; each player orders her own units and the five "
                                            "other powers' units"))
        raw = phase_file.extra.get("dp")
        movement = phase_file.phase.kind == MOVEMENT
        if raw is not None and not movement:
            problems.append(Problem(phase_file.name, None, f"diplomacy points (dp) are allotted in Spring and Fall "
                                    f"turns, not in {phase_file.phase.name}", "delete dp from this file"))
        points = self.read_points(raw, players, phase_file.name, problems) if movement else {}
        if problems:
            raise GameError(problems)
        if not movement:
            return position
        table = dict(self.table(position))
        fixed = self.pair_name(*players)
        rolls = []
        for a, b in self.pairs():
            name = self.pair_name(a, b)
            if name == fixed:
                continue
            dice = (draws.die(f"tir/{name}/1"), draws.die(f"tir/{name}/2"))
            given = tuple((p, points.get(p, {}).get(name, 0)) for p in players)
            total = sum(dice) + sum(n for _, n in given)
            before = table[name]
            table[name] = shifted(before, total)
            rolls.append(Roll(name, dice, given, total, before, table[name]))
        economy = dict(position.economy)
        economy.update(tir=MappingProxyType(table), turn=(self.table(position), tuple(rolls)))
        return position.with_(economy=economy)

    def read_points(self, raw, players, file: str, problems: list[Problem]) -> dict[str, dict[str, int]]:
        """``dp:``: each player's points per relationship, checked (at most 10 in all, at most 2 on
        one relationship, a known relationship, not the players' own)."""
        if raw is None:
            return {}
        example = "e.g.\n      dp:\n        France: {France-Germany: +2, England-Italy: -1}\n        Russia: {}"
        if not isinstance(raw, dict):
            problems.append(Problem(file, line_of(raw), f"dp must map each player to her points per relationship, "
                                    f"not be {kind_of(raw)}", example))
            return {}
        fixed = self.pair_name(*players)
        writers = {n.casefold(): p for p in players for n in (p,)}
        out: dict[str, dict[str, int]] = {}
        for key, given in raw.items():
            kline = line_of(raw, key)
            player = writers.get(str(key).strip().casefold())
            if player is None:
                problems.append(Problem(file, kline, f"{key!r} under dp is not a player's power",
                                        f"the players: {', '.join(players)}"))
                continue
            if player in out:
                problems.append(Problem(file, kline, f"{player} appears twice under dp", "merge the two"))
                continue
            out[player] = mine = {}
            if given is None:
                continue
            if not isinstance(given, dict):
                problems.append(Problem(file, kline, f"{player}'s points must map relationships to points, not be "
                                        f"{kind_of(given)}", example))
                continue
            for rel, n in given.items():
                line = line_of(given, rel) or kline
                name = self.relationship(rel)
                if name is None:
                    problems.append(Problem(file, line, f"{rel!r} is not a relationship: two powers joined by '-'",
                                            "e.g. France-Germany"))
                    continue
                if name == fixed:
                    problems.append(Problem(file, line, f"{name} is the players' own relationship: At War for the "
                                            "whole game, so it takes no points", f"delete {rel}"))
                    continue
                if name in mine:
                    problems.append(Problem(file, line, f"{player} gives points to {name} twice", "merge the two"))
                    continue
                if isinstance(n, bool) or not isinstance(n, int):
                    problems.append(Problem(file, line, f"points must be a whole number from -2 to +2, not "
                                            f"{kind_of(n)}", f"e.g. {name}: +2"))
                    continue
                if n > 0 and not isinstance(n, Signed):  # the seed: "positive or negative must be specified"
                    problems.append(Problem(file, line, f"{n} points on {name}: say whether for or against, "
                                            f"+{abs(n)} or -{abs(n)}", f"e.g. {name}: +{abs(n)}"))
                    continue
                if abs(n) > MAX_PER_RELATIONSHIP:
                    problems.append(Problem(file, line, f"{n:+d} points on {name}: at most {MAX_PER_RELATIONSHIP} "
                                            "(positive or negative) on one relationship", f"e.g. {name}: +2"))
                    continue
                mine[name] = n
            spent = sum(abs(n) for n in mine.values())
            if spent > MAX_POINTS:
                problems.append(Problem(file, kline, f"{player} allots {spent} points: at most {MAX_POINTS} in all "
                                        "(a negative point counts as one)", "take points off some relationships"))
        return out

    def relationship(self, text) -> str | None:
        if not isinstance(text, str) or text.count("-") != 1:
            return None
        a, b = (self.board.power_lookup(t.strip()) for t in text.split("-"))
        if a is None or b is None or a == b:
            return None
        return self.pair_name(a, b)

    # ------------------------------------------------------------------ phase 3: valid orders
    def attacked(self, position: Position, power: str, dest: str) -> list[str]:
        """The powers a move of `power`'s unit to `dest` attacks: RULING: the power of a unit there
        (even one ordered away), and the owner of a supply centre there, even empty."""
        out = []
        unit = position.occupant(dest.split("/")[0], self.unit_kinds)
        if unit is not None and unit.power != power:
            out.append(unit.power)
        owner = position.owners.get(dest.split("/")[0])
        if owner is not None and owner != power and owner not in out:
            out.append(owner)
        return out

    def intake(self, position: Position, lines: Mapping[str, Sequence], draws=None):
        if position.phase.kind != MOVEMENT:
            return self.suggestions(position, lines, draws)
        players = self.players_of(position)
        table = self.table(position)
        before, rolls = position.economy.get("turn", (table, ()))
        orders: dict[str, list] = {}
        notes: dict[tuple[str, str], tuple[Note, ...]] = {}
        final: dict[str, object] = {}   # province -> the order its unit carries out
        pending: list = []              # (unit, support, candidates, choice draw) checked once all are known
        by_unit: dict[tuple[str, str], dict[str, object]] = {}
        for power, ls in lines.items():
            for ol in ls:
                by_unit.setdefault((power, ol.order.unit.province), {})[ol.writer] = ol
        choices = []
        for unit in position.units:
            given = by_unit.get((unit.power, unit.province), {})
            if unit.power in players:
                ol = given.get(unit.power)
                if ol is not None:
                    final[unit.province] = ol.order
                continue
            cands = []
            for writer in players:
                ol = given.get(writer)
                if ol is None:
                    continue
                ok, why = self.valid(position, table, unit, ol.order)
                cands.append((writer, ol, ok, why))
            valid = list(dict.fromkeys(ol.order for _, ol, ok, _ in cands if ok))
            die = number = None
            if len(valid) > 1:  # RULING: two orders conflict when they differ
                die = draws.die(f"choice/{unit.power}/{unit.province}")
                number = len(draws.drawn)
                order = valid[0] if die <= 3 else valid[1]
            else:
                order = valid[0] if valid else None
            record = (unit, order, tuple(cands), die, number)
            if isinstance(order, Support):
                pending.append(record)
            else:
                if order is not None:
                    final[unit.province] = order
                if cands:
                    choices.append(self.choice(record, order, ""))
        for unit, support, cands, die, number in pending:  # supports find their objective
            order, why = self.objective(position, table, unit, support, final)
            if order is not None:
                final[unit.province] = order
            choices.append(self.choice((unit, support, cands, die, number), order, why))
        for unit in position.units:
            order = final.get(unit.province)
            if order is not None:
                orders.setdefault(unit.power, []).append(order)
        for c in choices:
            said = choice_notes(c, players) if c.candidates else []
            if said:
                notes[(c.power, c.where)] = tuple(said)
        shifts, after = self.own_shifts(position, table, players, final)
        economy = {"players": players, "tir": MappingProxyType(after)}
        report = TirReport(players, before, MappingProxyType(after), rolls, tuple(shifts), tuple(choices))
        return Intake(orders, notes, economy, report)

    def choice(self, record, order, why: str) -> Choice:
        unit, picked, cands, die, number = record
        fmt = self.board
        by = next((w for w, ol, ok, _ in cands if ok and ol.order == picked), "")
        return Choice(unit.power, unit.province,
                      tuple(Candidate(w, ol.order.format(fmt), ok, y) for w, ol, ok, y in cands),
                      order.format(fmt) if order is not None else "", die, number, why, by)

    def valid(self, position: Position, table, unit: Unit, order) -> tuple[bool, str]:
        """Is `order` for a unit of the five valid under the TIR, taken on its own? (A support is
        checked again once its objective is known.)"""
        power = unit.power
        if isinstance(order, Hold):
            return True, ""
        if isinstance(order, Move):
            for q in self.attacked(position, power, order.dest):
                if self.level(table, power, q) != WAR:
                    return False, (f"an attack on {q} needs {self.pair_name(power, q)} At War "
                                   f"(it is {level_name(self.level(table, power, q))})")
            return True, ""
        if isinstance(order, Convoy):
            army = position.occupant(order.target.province, self.unit_kinds)
            if army is None:
                return False, "no army there to convoy"
            if army.power == power:
                return True, ""
            if self.level(table, power, army.power) != ALLIED:
                return False, f"a convoy of {army.power}'s army needs {self.pair_name(power, army.power)} Allied"
            for q in self.attacked(position, army.power, order.dest):
                if q != power and self.level(table, power, q) == ALLIED:
                    return False, f"it convoys an attack on {q}, {power}'s ally"
            return True, ""
        if isinstance(order, Support):
            other = position.occupant(order.target.province, self.unit_kinds)
            if other is None:
                return False, "no unit there to support"
            if other.power != power and self.level(table, power, other.power) < FRIENDLY:
                return False, (f"a support of {other.power}'s unit needs {self.pair_name(power, other.power)} "
                               f"Friendly or Allied (it is {level_name(self.level(table, power, other.power))})")
            return True, ""
        return True, ""

    def objective(self, position: Position, table, unit: Unit, support: Support, final) -> tuple[object, str]:
        """RULING: a support of the five finds its objective in the order the supported unit carries
        out (a move: support of that move; anything else: support to hold); then rules 3 and 4."""
        power = unit.power
        other = position.occupant(support.target.province, self.unit_kinds)
        target_order = final.get(other.province)
        kind = self.unit_kinds[unit.kind]
        same = other.power == power
        level = self.level(table, power, other.power) if not same else ALLIED
        if isinstance(target_order, Move):
            dest = target_order.dest
            order = Support(support.unit, support.target, dest)
            if not reachable(self.board, kind, unit.loc, dest.split("/")[0]):
                return None, f"it cannot reach {self.board.full_name(dest)}, where the supported unit moves"
            hit = self.attacked(position, other.power, dest)
            if hit:
                if not same and level != ALLIED:
                    return None, (f"a support of {other.power}'s attack needs {self.pair_name(power, other.power)} "
                                  f"Allied (it is {level_name(level)})")
                for q in hit:
                    if q != power and self.level(table, power, q) > HOSTILE or q == power:
                        return None, (f"{power} supports an attack on {q} only when Hostile or At War with it")
                return order, ""
        else:
            order = Support(support.unit, support.target, None)
            if not reachable(self.board, kind, unit.loc, other.province):
                return None, f"it cannot reach {self.board.full_name(other.province)}"
        if not same and level < FRIENDLY:
            return None, f"the support needs {self.pair_name(power, other.power)} Friendly or Allied"
        return order, ""

    def own_shifts(self, position: Position, table, players, final) -> tuple[list[OwnShift], dict[str, int]]:
        """RULING: the players' own attacks (to At War) and supports or convoys of attacks (two steps
        toward war) move the markers after this turn's validity check: they count from the next turn."""
        after = dict(table)
        shifts = []
        for unit in position.units:
            if unit.power not in players:
                continue
            order = final.get(unit.province)
            hits, what = [], ""
            if isinstance(order, Move):
                hits, what = self.attacked(position, unit.power, order.dest), "attack"
            elif isinstance(order, (Support, Convoy)) and order.dest is not None:
                mover = position.occupant(order.target.province, self.unit_kinds)
                mover_power = mover.power if mover is not None else unit.power
                hits = self.attacked(position, mover_power, order.dest)
                what = "support" if isinstance(order, Support) else "convoy"
            for q in hits:
                if q in players:
                    continue  # the players are At War for the whole game
                name = self.pair_name(unit.power, q)
                old = after[name]
                after[name] = WAR if what == "attack" else max(WAR, old - 2)
                shifts.append(OwnShift(unit.power, name, order.format(self.board), what, old, after[name]))
        return shifts, after

    # ------------------------------------------------------------------ retreats and adjustments
    def suggestions(self, position: Position, lines, draws) -> Intake:
        """Retreats and adjustments: a player's own as she wrote them; for each unit (retreats) or
        power (adjustments) of the five, the players' suggestions, a die between them when they differ
        (1-3: the first player's in the board's order, 4-6: the second's)."""
        players = self.players_of(position)
        per_unit = position.phase.kind != "adjustments"
        groups: dict[tuple[str, str], dict[str, list]] = {}
        for power, ls in lines.items():
            for ol in ls:
                where = ol.order.unit.province if per_unit and getattr(ol.order, "unit", None) else ""
                groups.setdefault((power, where), {}).setdefault(ol.writer, []).append(ol.order)
        orders: dict[str, list] = {}
        notes: dict[tuple[str, str], tuple[Note, ...]] = {}
        choices = []
        for (power, where), given in groups.items():
            if power in players:
                orders.setdefault(power, []).extend(given.get(power, []))
                continue
            options = [(w, tuple(given[w])) for w in players if w in given]
            distinct = list(dict.fromkeys(tuple(sorted(o, key=repr)) for _, o in options))
            die = number = None
            if len(distinct) > 1:
                die = draws.die(f"suggestion/{power}" + (f"/{where}" if where else ""))
                number = len(draws.drawn)
                by, picked = options[0] if die <= 3 else options[1]
            else:
                by, picked = options[0]
            orders.setdefault(power, []).extend(picked)
            text = "; ".join(o.format(self.board) for o in picked)
            cands = tuple(Candidate(w, "; ".join(x.format(self.board) for x in o)) for w, o in options)
            choices.append(Choice(power, where, cands, text, die, number, by=by))
            if die is not None:
                both = " and ".join(f"{x.writer}'s {x.text}" for x in cands)
                why = (f"the players suggested {both}: draw {number} rolled {die} ({die_rule(players)}), "
                       f"so {by}'s")
                for o in picked:
                    unit = getattr(o, "unit", None)
                    if unit is not None:
                        notes[(power, unit.province)] = (Note(Kind.INTAKE, TirNote.SUGGESTED, why=why),)
        table = self.table(position)
        return Intake(orders, notes, None, TirReport(players, table, table, choices=tuple(choices)))

    # ------------------------------------------------------------------ victory
    def game_result(self, position: Position, phase, seating, fall_over: bool):
        """RULING: checked after every phase: a player wins once her opponent has no unit left
        (dislodged ones included) and owns no home centre she could build on."""
        from dipgen.core.outcome import GameResult

        won = self.winner_at(position)
        return GameResult("solo", (won,), phase) if won else None

    def winner_after(self, record) -> str | None:
        """The player's power that has won once `record`'s phase is over, if one has."""
        return self.winner_at(record.after)

    def winner_at(self, after: Position) -> str | None:
        """The player's power that has won in position `after`, if one has."""
        players = self.players_of(after)
        left = {u.power for u in after.units} | {d.unit.power for d in after.dislodged}
        for me, other in (players, players[::-1]):
            homes = [c for c in self.home_centres(other) if after.owners.get(c) == other]
            if other not in left and not homes and me in left:
                return me
        return None

    def winner(self, position: Position) -> str | None:
        return None  # a TIR game is won by elimination (`winner_after`), never by centres

    def victory_text(self) -> str:
        return ("A player wins once her opponent has no unit left and owns no home centre to build on; "
                "centres alone win nothing.")

    # ------------------------------------------------------------------ pages and reports
    def report_section(self, view, record) -> list[str]:
        """The TIR before and after a turn, relationship by relationship, in a report."""
        return report_lines(self, view, record.intake, record.phase) if isinstance(record.intake, TirReport) else []

    def season_section(self, view, record) -> str:
        return season_html(self, record.intake) if isinstance(record.intake, TirReport) else ""

    def game_section(self, view) -> str:
        """The chart of every relationship through the game (the board is open: every level sees it)."""
        return chart_svg(self, view.records)


def die_rule(players) -> str:
    """Which face of the choosing die picks whose order: '1-3 France's, 4-6 Russia's'."""
    return f"1-3 {players[0]}'s, 4-6 {players[1]}'s"


def choice_notes(c: Choice, players) -> list[Note]:
    """The notes on a unit of the five: which of the players' orders were invalid and why, and
    which one was carried out (by default, as the only valid one, or by the die)."""
    bad = [x for x in c.candidates if not x.valid]
    whys = "; ".join(f"{x.writer}'s {x.text} is invalid: {x.why}" for x in bad)
    out = []
    if c.die is not None and not c.chosen:  # the die chose a support that its objective then undid
        both = " and ".join(f"{x.writer}'s {x.text}" for x in c.candidates)
        return [Note(Kind.INTAKE, TirNote.INVALID, why=f"{both} are both valid as written: draw {c.draw} rolled "
                     f"{c.die} ({die_rule(players)}), so {c.by}'s, which then fails under the TIR ({c.why}); "
                     "the unit holds")]
    if not c.chosen:
        picked = next((x.text for x in c.candidates if x.writer == c.by and x.valid), "")
        reasons = "; ".join([w for w in (whys, c.why and f"{c.by}'s {picked}: {c.why}") if w])
        out.append(Note(Kind.INTAKE, TirNote.INVALID, why=f"no valid order under the TIR ({reasons}); the unit holds"))
    elif bad:
        out.append(Note(Kind.INTAKE, TirNote.OVERRULED, why=f"{whys}; {c.by}'s order is carried out"))
    if c.die is not None:
        both = " and ".join(f"{x.writer}'s {x.text}" for x in c.candidates)
        out.append(Note(Kind.INTAKE, TirNote.CHOSEN, why=f"{both} are both valid: draw {c.draw} rolled {c.die} "
                        f"({die_rule(players)})" + (f", so {c.by}'s" if c.by else "")))
    return out


BANDS = ((3, "to At War"), (5, "one step toward war"), (8, "no change"), (10, "one step toward alliance"),
         (12, "to Allied"))
RULE = ("Dice + points: 2-3 (or less) to At War, 4-5 one step toward war, 6-8 no change, 9-10 one step toward "
        "alliance, 11-12 (or more) to Allied. A player's attack moves her relationship with the attacked power "
        "to At War, her support or convoy of an attack two steps toward war, from the next turn.")


def band(total: int) -> str:
    """What a roll's total does, in words: 'total 9: one step toward alliance'."""
    return f"total {total}: " + next(text for top, text in BANDS if max(2, min(12, total)) <= top)


def shift_text(s: OwnShift) -> str:
    """A player's own shift in words: "France's A Bur - Mun attacks Germany: At War"."""
    other = next(p for p in s.pair.split("-") if p != s.player)
    what = f"attacks {other}" if s.what == "attack" else f"{s.what}s an attack on {other}"
    return f"{s.player}'s {s.order} {what}: {LEVELS[s.after]}"


def report_lines(variant: Tir, view, report: TirReport, phase) -> list[str]:
    """The report's TIR table: before, dice, each player's points, total, after, and why; '*'
    marks a relationship that changed."""
    if not report.rolls:
        return []
    rolls = {r.pair: r for r in report.rolls}
    shifts: dict[str, list[OwnShift]] = {}
    for sh in report.shifts:
        shifts.setdefault(sh.pair, []).append(sh)
    p1, p2 = report.players
    who = " and ".join(f"{p} ({view.player(p, phase)})" if view.player(p, phase) else p for p in (p1, p2))
    rows = [("Relationship", "Before", "Dice", p1, p2, "Total", "After", "Why")]
    marks = [" "]
    for a, b in variant.pairs():
        name = variant.pair_name(a, b)
        r = rolls.get(name)
        before, after = report.before[name], report.after[name]
        if r is None:
            why = "the players' own: At War for the whole game"
            rows.append((name, LEVELS[before], "", "", "", "", LEVELS[after], why))
        else:
            pts = dict(r.points)
            why = "; ".join([band(r.total)] + [shift_text(x) for x in shifts.get(name, ())])
            rows.append((name, LEVELS[before], f"{r.dice[0]} + {r.dice[1]}", f"{pts.get(p1, 0):+d}",
                         f"{pts.get(p2, 0):+d}", str(r.total), LEVELS[after], why))
        marks.append("*" if after != before else " ")
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    right = {3, 4, 5}
    out = [f"Table of International Relations, before and after the turn; points from {who}:"]
    for mark, row in zip(marks, rows):
        cells = [f"{c:>{w}}" if i in right else f"{c:{w}}" for i, (c, w) in enumerate(zip(row, widths))]
        out.append(f"  {mark} " + "  ".join(cells) + f"  {row[-1]}".rstrip())
    out.extend(textwrap.wrap("(* changed this turn) " + RULE, 100, initial_indent="  ", subsequent_indent="  "))
    return out + [""]


# ------------------------------------------------------------------ pages
def _esc(text) -> str:
    import html

    return html.escape(str(text), quote=True)


def season_html(variant: Tir, report: TirReport) -> str:
    """The TIR section of a season page: the table before and after, each roll, the players'
    own shifts, and each unit of the five with both players' orders."""
    out = []
    if report.rolls or report.before != report.after:
        rolls = {r.pair: r for r in report.rolls}
        shifts: dict[str, list[OwnShift]] = {}
        for s in report.shifts:
            shifts.setdefault(s.pair, []).append(s)
        p1, p2 = report.players
        out.append('<h2 id="tir">Table of International Relations</h2>\n<div class="dg-scroll"><table class="dg-tir">')
        out.append(f'<thead><tr><th scope="col">Relationship</th><th scope="col">Before</th><th scope="col">Dice</th>'
                   f'<th scope="col" class="dg-num">{_esc(p1)}</th><th scope="col" class="dg-num">{_esc(p2)}</th>'
                   '<th scope="col" class="dg-num">Total</th><th scope="col">After the dice</th>'
                   '<th scope="col">Players\' orders</th><th scope="col">After</th></tr></thead><tbody>')
        for a, b in variant.pairs():
            name = variant.pair_name(a, b)
            r = rolls.get(name)
            before, after = report.before[name], report.after[name]
            dice = f"{r.dice[0]} + {r.dice[1]}" if r else "—"
            pts = dict(r.points) if r else {}
            mid = r.after if r else before
            own = "; ".join(shift_text(s) for s in shifts.get(name, ()))
            changed = " dg-tir-changed" if after != before else ""
            out.append(f'<tr class="dg-tir-{after}{changed}"><th scope="row">{_esc(name)}</th><td>{LEVELS[before]}</td>'
                       f'<td>{dice}</td><td class="dg-num">{pts.get(p1, 0):+d}</td><td class="dg-num">{pts.get(p2, 0):+d}'
                       f'</td><td class="dg-num">{r.total if r else "—"}</td><td>{LEVELS[mid]}</td><td>{_esc(own)}</td>'
                       f'<td><strong>{LEVELS[after]}</strong></td></tr>')
        out.append('</tbody></table></div>')
        out.append(f'<p class="dg-small">{_esc(RULE)}</p>')
    if report.choices:
        out.append('<h2 id="tir-orders">The five powers\' orders</h2>\n<ul class="dg-tir-units">')
        for c in report.choices:
            what = _esc(c.where and variant.board.format_loc(c.where) or c.power)
            cands = "; ".join(f"{_esc(x.writer)}: <code>{_esc(x.text)}</code>"
                              + ("" if x.valid else f" <em>invalid: {_esc(x.why)}</em>") for x in c.candidates)
            if c.die is not None:
                verdict = (f"draw {c.draw} rolled {c.die} ({_esc(die_rule(report.players))})"
                           + (f": {_esc(c.by)}'s <code>{_esc(c.chosen)}</code>" if c.chosen
                              else f": {_esc(c.by)}'s, which then fails" if c.by else ""))
            elif c.chosen:
                verdict = (f"{_esc(c.by)}'s " if c.by else "") + f"<code>{_esc(c.chosen)}</code>"
            else:
                verdict = ""
            if not c.chosen:
                verdict += ("; " if verdict else "") + "holds" + (f" ({_esc(c.why)})" if c.why else "")
            out.append(f'<li><strong>{_esc(c.power)}</strong> {what}: {cands} → {verdict}</li>')
        out.append('</ul>')
    return "\n".join(out)


COLOURS = ("#b91c1c", "#ea580c", "#6b7280", "#16a34a", "#1d4ed8")


def chart_svg(variant: Tir, records) -> str:
    """The history of every relationship as a band of colour per relationship, one cell per turn
    (an SVG drawn here), narrow enough to read on a phone without scrolling sideways."""
    turns = [(r.phase, r.intake) for r in records if isinstance(r.intake, TirReport) and r.intake.rolls]
    if not turns:
        return ""
    first = turns[0][1]
    fixed = variant.pair_name(*first.players)
    names = [variant.pair_name(a, b) for a, b in variant.pairs() if variant.pair_name(a, b) != fixed]
    width, label_h, band_h, gap, top = 440, 15, 12, 7, 22
    cell = width / (len(turns) + 1)  # the start, then each turn
    row = label_h + band_h + gap
    height = top + row * len(names) + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="dg-tir-chart" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" style="width:100%;max-width:560px;height:auto" font-family="sans-serif" '
             'role="img" aria-label="Each relationship of the TIR, turn by turn">']
    # the years along the top, a faint line at each year's first turn
    every = max(1, -(-36 // int(2 * cell)))  # a label needs about 36 units
    years = [(j + 1, ph) for j, (ph, _) in enumerate(turns) if j == 0 or ph.year != turns[j - 1][0].year]
    for k, (j, ph) in enumerate(years):
        x = j * cell
        parts.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{top + row * len(names) - gap}" '
                     'stroke="#d1d5db" stroke-width="0.5"/>')
        if k % every == 0:
            parts.append(f'<text x="{x:.1f}" y="{top - 8}" font-size="11" fill="#374151">{ph.year}</text>')
    labels = ["the start"] + [ph.name for ph, _ in turns]
    for i, name in enumerate(names):
        y0 = top + i * row
        parts.append(f'<text x="0" y="{y0 + label_h - 4}" font-size="13">{_esc(name)}</text>')
        levels = [first.before[name]] + [rep.after[name] for _, rep in turns]
        j = 0
        while j < len(levels):  # one rectangle per run of turns at one level
            k = j
            while k + 1 < len(levels) and levels[k + 1] == levels[j]:
                k += 1
            span = labels[j] if j == k else f"{labels[j]} to {labels[k]}"
            parts.append(f'<rect x="{j * cell:.1f}" y="{y0 + label_h}" width="{(k - j + 1) * cell:.1f}" '
                         f'height="{band_h}" fill="{COLOURS[levels[j]]}"><title>{_esc(name)}: {LEVELS[levels[j]]} '
                         f'({_esc(span)})</title></rect>')
            j = k + 1
    y = height - 10
    for k, level in enumerate(LEVELS):
        x = k * width / len(LEVELS)
        parts.append(f'<rect x="{x:.0f}" y="{y - 10}" width="12" height="12" fill="{COLOURS[k]}"/>'
                     f'<text x="{x + 16:.0f}" y="{y}" font-size="12">{level}</text>')
    parts.append("</svg>")
    return ('<h2 id="tir-chart">Relationships through the game</h2>\n<div class="dg-tir-chart-box">' + "".join(parts)
            + f'</div>\n<p class="dg-small">Each band one relationship, from the start (left) to the last turn '
            f'(right), coloured by its step of the table; {_esc(fixed)}, the players\' own, is At War throughout. '
            'Point at a band for its turns.</p>')

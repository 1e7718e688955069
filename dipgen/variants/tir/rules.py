"""The 2-player game's rules: a Table of International Relations (TIR).

Two players each rule a Great Power; the other five powers act through the orders both
players write for them, as far as the TIR (one marker per pair of powers: At War .. Allied)
allows. Each Spring and Fall turn: the diplomacy points (``dp:``) and two dice per relationship
move the markers (`prepare`); the five powers' orders are checked against the table, a
conflict between two valid orders is settled by a die, and the players' own attacks, supports
and convoys of attacks push their relationships toward war (`intake`). Retreats and
adjustments of the five powers: each player suggests, a die decides.

Every die is a draw from the game's committed seed (`dipgen.rules.draws`); the TIR is carried from
phase to phase in `Position.economy`. The seats and the points are read by `files.py`, the table
is shown by `words.py`. The rulings where the rule text is silent are on the rules page
(site_src/rules/tir.md) and marked RULING below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from dipgen.core.reach import reachable
from dipgen.core.results import Kind, Note
from dipgen.core.errors import GameError, Problem
from dipgen.rules.intake import Intake
from dipgen.core.orderline import OrderLine
from dipgen.core.orders import Convoy, Hold, Move, Order, Support
from dipgen.core.phase import MOVEMENT
from dipgen.core.position import Position, Unit
from dipgen.rules.variant import Rules

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


class TirRules(Rules):
    makes_draws = True

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
        players = _kept(position, "players")
        if not isinstance(players, tuple) or len(players) != 2:
            raise _not_kept("players", players)
        return players[0], players[1]

    @staticmethod
    def table(position: Position) -> Mapping[str, int]:
        table = _kept(position, "tir")
        if not isinstance(table, Mapping):
            raise _not_kept("tir", table)
        return table

    def level(self, table: Mapping[str, int], a: str, b: str) -> int:
        return table[self.pair_name(a, b)]

    # ------------------------------------------------------------------ the start
    def initial_position(self, game, draws=None, secret=None) -> Position:
        position = self.start(game.start)
        players = tuple(s.key for s in game.seating.seats)
        table = {self.pair_name(a, b): NEUTRAL for a, b in self.pairs()}
        if len(players) == 2:
            table[self.pair_name(*players)] = WAR
        return position.with_(economy={"players": players, "tir": MappingProxyType(table)})

    def must_order(self, power: str, position: Position) -> bool:
        """Only the two players owe orders: a unit of the five that nobody orders holds, and is no NMR."""
        return power in self.players_of(position) if "players" in (position.economy or {}) else True

    # ------------------------------------------------------------------ phase 1-2: points and dice
    # ------------------------------------------------------------------ phase 1-2: points and dice
    def prepare(self, position: Position, phase_file, draws=None) -> Position:
        """Check that no player orders her opponent's units, then (in a Spring or Fall turn) roll two
        dice for every relationship and move the markers, with the phase file's points (``dp``, as
        `files.py` read them)."""
        problems: list[Problem] = []
        players = self.players_of(position)
        for power, lines in phase_file.orders.items():
            for ol in lines:
                if power in players and ol.writer != power:
                    problems.append(Problem(phase_file.name, ol.line, f"{ol.writer}'s player cannot order "
                                            f"{power}'s units: they are her opponent's",
                                            f"delete {ol.text!r}; each player orders her own units and the five "
                                            "other powers' units", code="not-her-power"))
        if problems:
            raise GameError(problems)
        if phase_file.phase.kind != MOVEMENT:
            return position
        points = phase_file.extra.get("dp") or {}
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
        economy = dict(position.economy or {})
        economy.update(tir=MappingProxyType(table), turn=(self.table(position), tuple(rolls)))
        return position.with_(economy=economy)

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
        turn = _kept(position, "turn") if "turn" in (position.economy or {}) else (table, ())
        if not isinstance(turn, tuple):
            raise _not_kept("turn", turn)
        before, rolls = turn
        orders: dict[str, list] = {}
        notes: dict[tuple[str, str], tuple[Note, ...]] = {}
        final: dict[str, Order] = {}    # province -> the order its unit carries out
        pending: list = []              # (unit, support, candidates, choice draw) checked once all are known
        by_unit: dict[tuple[str, str], dict[str, OrderLine]] = {}
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
            order: Order | None = valid[0] if valid else None
            if len(valid) > 1:  # RULING: two orders conflict when they differ
                die = draws.die(f"choice/{unit.power}/{unit.province}")
                number = len(draws.drawn)
                order = valid[0] if die <= 3 else valid[1]
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

    def objective(self, position: Position, table, unit: Unit, support: Support, final) -> tuple[Order | None, str]:
        """RULING: a support of the five finds its objective in the order the supported unit carries
        out (a move: support of that move; anything else: support to hold); then rules 3 and 4."""
        power = unit.power
        other = position.occupant(support.target.province, self.unit_kinds)
        if other is None:  # (`valid` let the support through: there is one)
            return None, "no unit there to support"
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


def _kept(position: Position, key: str) -> object:
    """What the TIR keeps under `key` in `position.economy`: the players, the table, this turn's rolls."""
    return (position.economy or {}).get(key)


def _not_kept(key: str, value: object) -> TypeError:
    return TypeError(f"a TIR position keeps {key!r} in its economy as this module put it, not {value!r}")

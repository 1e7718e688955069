"""Double Diplomacy: seven players, each the captain of two powers, each power with two captains.

Both captains of a power send a full set of orders for it; the intake step synchronises them
(`synchronise`): an order both gave (meaning the same, however written) is carried out, a unit
whose two orders differ holds, except that a support stands against a hold. What was not in
sync is said on the unit's result. The two captains of a power win together when it has 14
centres after a Fall turn. The rulings where the seed is silent are on site_src/rules/double.md.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import replace

from dipgen.core.results import Kind, Note
from dipgen.core.errors import GameError, Problem
from dipgen.core.board import province_of
from dipgen.core.orders import Build, Disband, Hold, Move, Order, Support, UnitRef, Waive
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from dipgen.rules.seats import Seat, Seating
from dipgen.io.yamlfile import kind_of, line_of, unknown_keys
from dipgen.variants._whole import Whole as Variant

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


WORDS = {Sync.HOLDS: "not in sync: holds", Sync.SUPPORT_STANDS: "support stands over hold",
         Sync.DISBANDS: "not in sync: disbanded"}

_EXAMPLE = ("e.g.\n      players:\n        Ann: [England, Turkey]\n        Ben: [Turkey, Germany]\n"
            "        Cleo: [Germany, Italy]\n        Dan: [Italy, Russia]\n        Eve: [Russia, France]\n"
            "        Fay: [France, Austria]\n        Gus: [England, Austria]\n"
            "    or, for seats drawn from the game's seed:\n      seats: random\n"
            "      players: [Ann, Ben, Cleo, Dan, Eve, Fay, Gus]")


class Double(Variant):
    name = "double"
    title = "Double Diplomacy"
    description = ("Seven players, each the captain of two powers; each power has two captains whose orders "
                   "are synchronised: what both ordered is carried out, a unit ordered differently holds.")
    order_form = "power/writer"
    order_form_example = ("e.g.\n      orders:\n        England:\n          Ann: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n"
                          "          Gus: [F Lon - ENG, F Edi - NWG, A Lvp - Yor]")
    result_vocabulary = {**Variant.result_vocabulary, **WORDS}
    game_keys = frozenset({"seats"})
    makes_draws = True  # only a game with `seats: random` draws (its seats, at the set-up)

    # ------------------------------------------------------------------ seats
    def read_seats(self, raw, file, line, problems):
        """`players:` as player -> her two powers (the seed's pairs), or, with `seats: random`,
        a list of seven names; a replaced player is {name:, later: [{name:, from:}]}."""
        if isinstance(raw, list):
            return self._random_seats(raw, file, line, problems)
        if not isinstance(raw, dict):
            problems.append(Problem(file, line, f"players must map each player to her two powers, not be {kind_of(raw)}",
                                    _EXAMPLE))
            return Seating((), {})
        seats, control = [], {p: [] for p in self.powers()}
        for name, value in raw.items():
            kline = line_of(raw, name) or line
            later = []
            if isinstance(value, dict):
                problems.extend(unknown_keys(value, {"powers", "later"}, file, f"under {name}"))
                later = _later(value.get("later"), name, file, kline, problems)
                value = value.get("powers")
            powers = [self.board.power_lookup(str(p)) for p in value] if isinstance(value, list) else []
            if len(powers) != 2 or None in powers or powers[0] == powers[1]:
                problems.append(Problem(file, kline, f"{name} must play two of the seven powers, not {value!r}",
                                        f"e.g. {name}: [England, Turkey] (the seed's pairs: {_pairs_text()})"))
                continue
            if frozenset(powers) not in PAIRS:
                problems.append(Problem(file, kline, f"{powers[0]} and {powers[1]} are not a pair of the seed's table",
                                        f"the pairs: {_pairs_text()}"))
                continue
            seats.append(Seat(str(name), ((str(name), None), *later)))
            for p in powers:
                control[p].append(str(name))
        if len(seats) == len(raw):
            for power, keys in control.items():
                if len(keys) != 2:
                    problems.append(Problem(file, line, f"{power} has {len(keys)} players ({', '.join(keys) or 'none'}): "
                                            "each power has two", _EXAMPLE))
        return Seating(tuple(seats), {p: tuple(k) for p, k in control.items()})

    def _random_seats(self, raw, file, line, problems):
        seats = []
        for item in raw:
            later, name = [], item
            if isinstance(item, dict):
                name = item.get("name")
                problems.extend(unknown_keys(item, {"name", "later"}, file, "in players"))
                later = _later(item.get("later"), name, file, line_of(item) or line, problems)
            if not isinstance(name, str) or not name.strip():
                problems.append(Problem(file, line_of(item) or line, f"a player is a name, not {kind_of(name)}", _EXAMPLE))
                continue
            seats.append(Seat(name.strip(), ((name.strip(), None), *later)))
        keys = [s.key.casefold() for s in seats]
        if len(raw) != 7 or len(set(keys)) != len(keys):
            problems.append(Problem(file, line, f"Double Diplomacy has seven players, each named once; "
                                    f"players lists {len(raw)}", _EXAMPLE))
        return Seating(tuple(seats), {p: () for p in self.powers()})

    def drawn_seating(self, game, draws):
        """With `seats: random`, the players in the order drawn are players 1-7 of the seed's table."""
        seats = game.raw.get("seats")
        if seats is None:
            if isinstance(game.raw.get("players"), list):
                raise GameError([Problem(_gfile(game), game.lines.get("players"), "players is a list of names, "
                                         "but game.yml does not say how they are seated", "add seats: random (the "
                                         "seats are drawn from the game's seed), or map each player to her two powers")])
            return None
        if seats != "random" or not isinstance(game.raw.get("players"), list):
            raise GameError([Problem(_gfile(game), game.lines.get("seats"), "seats: random is the one form of seats, "
                                     "with players: a list of seven names", _EXAMPLE)])
        order = draws.shuffle(SEATS_DRAW, game.seating.keys())
        control = {p: tuple(order[n - 1] for n in sorted(TABLE) if p in TABLE[n]) for p in self.powers()}
        return Seating(game.seating.seats, control)

    def seat_number(self, seating: Seating, key: str) -> int | None:
        """The number in the seed's table of the seat `key` (by the two powers it plays)."""
        mine = frozenset(seating.powers_of(key, None)) if seating.seat(key) else frozenset()
        return next((n for n, ps in TABLE.items() if frozenset(ps) == mine), None)

    def initial_position(self, game, draws=None, secret=None):
        """The standard opening; first, every order is checked to be written by a captain of its power."""
        problems = []
        seating = game.seating
        for phase, pf in sorted(game.phases.items()):
            for (power, writer), key_line in pf.writers.items():  # an empty list counts too
                captains = {seating.seat(k).name(phase): k for k in seating.controllers(power, phase) if seating.seat(k)}
                if writer in captains:
                    continue
                ol = next((ol for ol in pf.orders.get(power, ()) if ol.writer == writer), None)
                line = ol.line if ol is not None else key_line
                problems.append(Problem(pf.name, line, f"{writer} gives orders for {power}, which she does not "
                                        f"play in {phase.name}", f"{power}'s captains then: "
                                        f"{' and '.join(captains) or 'nobody'}; move the orders under the right power"))
        if problems:
            raise GameError(problems)
        return super().initial_position(game, draws, secret)

    def new_players(self):
        """Seven players, each with her two powers as the seed's table pairs them."""
        return {f"Player {n}": list(pair) for n, pair in TABLE.items()}

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

    def victory_text(self) -> str:
        return f"A power's two captains win together when it has {VICTORY} centres after a Fall turn."

    def result_line(self, history) -> str:
        r = history.result
        if r is None or r.kind != "solo":
            return ""
        parts = [f"{p}'s two captains, {history.player(p, r.phase)}," for p in r.powers]
        counts = history.records[-1].after.centre_counts(self.powers()) if history.records else {}
        centres = " and ".join(str(counts.get(p, 0)) for p in r.powers)
        verb = "win together" if len(parts) > 1 else "win"
        return f"{' and '.join(parts)} {verb} with {centres} centres in {r.phase.season_name}!"


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
    return [o for o in (same_form(board, position, ol.order) for ol in lines if ol.writer == writers[0]) if both.pop(o, 0)]


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
    if hasattr(out, "target"):
        out = replace(out, target=named(out.target, on_board))
    if isinstance(out, Move) and out.unit.kind == "A" and province_of(out.dest) not in board.army_adj.get(out.unit.province, ()):
        out = replace(out, via_convoy=True)  # 'A Edi - Nwy' can only go by convoy: 'via convoy' adds nothing
    return out


def _later(raw, name, file, line, problems) -> list[tuple[str, Phase]]:
    """The players who took over a seat: [{name:, from: 1905-spring}], each later than the one before."""
    if raw is None:
        return []
    example = f"e.g. later: [{{name: Zoe, from: 1905-spring}}] (Zoe plays {name}'s powers from Spring 1905)"
    if not isinstance(raw, list):
        problems.append(Problem(file, line, f"later must be a list of players with name and from, not {kind_of(raw)}",
                                example))
        return []
    out: list[tuple[str, Phase]] = []
    for item in raw:
        who = item.get("name") if isinstance(item, dict) else None
        since = item.get("from") if isinstance(item, dict) else None
        try:
            phase = Phase.from_slug(since) if isinstance(since, str) else None
        except ValueError:
            phase = None
        if not isinstance(who, str) or not who.strip() or phase is None or out and phase <= out[-1][1]:
            problems.append(Problem(file, line_of(item) or line, f"each player who took over {name}'s seat needs name: "
                                    "and from: (the first phase she played, later than the one before)", example))
            continue
        out.append((who.strip(), phase))
    return out


def _pairs_text() -> str:
    return "; ".join(" and ".join(ps) for ps in TABLE.values())


def _gfile(game) -> str:
    from dipgen.core.errors import display_path

    return display_path(game.path / "game.yml")

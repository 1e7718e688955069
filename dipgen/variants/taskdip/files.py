"""Taskdip's files: ``players:`` as a list of 2 to 7 names, each phase file's resignations
(``resign:``), and the lots the players drew by hand, which the GM writes in secrets.yml."""

from __future__ import annotations

from dipgen.core.errors import GameError, Problem
from dipgen.io.yamlfile import kind_of, line_of
from dipgen.rules.seats import Seat, Seating
from dipgen.rules.variant import Files
from dipgen.variants.taskdip.rules import Allotment, TaskdipRules
from dipgen.variants.taskdip.tasks import CARD_NAMES, CARDS


LOTS_EXAMPLE = ("e.g.\n      lots:\n        powers:\n          Andreas: [Austria, Italy]\n"
                "          Katja: [Turkey, Germany]\n"
                "        tasks:\n          Austria: [Eight, Nine]\n          Italy: Eight\n          Turkey: Seven\n"
                "          Germany: Nine")


class TaskdipFiles(Files):
    rules: TaskdipRules
    phase_keys = frozenset({"resign"})

    def new_players(self):
        """Two to seven names: the powers are drawn for them by lot before Spring 1901."""
        return ["Player One", "Player Two", "Player Three"]

    def read_seats(self, raw, file: str, line: int | None, problems: list) -> Seating | None:
        example = "e.g.\n      players: [Andreas, Katja]"
        if not isinstance(raw, list):
            problems.append(Problem(file, line,
                                    f"a Taskdip game's players are a list of 2 to 7 names, not {kind_of(raw)}",
                                    example, code="bad-player"))
            return Seating((), {p: () for p in self.rules.powers()})
        names: list[str] = []
        for item in raw:
            iline = line_of(item) or line
            if not isinstance(item, str) or not item.strip():
                problems.append(Problem(file, iline, f"each player is a name, not {kind_of(item)}", example,
                                        code="bad-player"))
                continue
            if item.strip().casefold() in {n.casefold() for n in names}:
                problems.append(Problem(file, iline, f"{item.strip()!r} is named twice", "name each player once",
                                        code="bad-player"))
                continue
            names.append(item.strip())
        if not 2 <= len(raw) <= 7:
            problems.append(Problem(file, line, f"Taskdip is played by 2 to 7 players, not {len(raw)}", example,
                                    code="bad-player"))
        return Seating(tuple(Seat(n, ((n, None),)) for n in names), {p: () for p in self.rules.powers()})

    def read_phase(self, phase, extra, file, first, seating, problems) -> dict:
        """``resign:``: a player, or a list of them, who resign after this phase, as (seat, line)."""
        out = dict(extra)
        raw = out.pop("resign", None)
        if raw is None or seating is None:
            return out
        by_name = {s.casefold(): s for s in seating.keys()}
        resigned = []
        for name in [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else [raw]:
            line = line_of(name) or line_of(extra, "resign")
            seat = by_name.get(str(name).strip().casefold()) if isinstance(name, str) else None
            if seat is None:
                problems.append(Problem(file, line, f"resign: {name!r} is not a player of this game",
                                        f"players: {', '.join(seating.keys())}; e.g. resign: [Katja]",
                                        code="bad-resign"))
            else:
                resigned.append((seat, line))
        out["resign"] = tuple(resigned)
        return out

    def read_secret(self, secret, file: str, seats):
        """secrets.yml's ``lots:`` as the GM wrote them (`Allotment`), checked against the rules."""
        lots = (secret or {}).get("lots")
        if lots is None:
            return secret
        return {**secret, "lots": self._written_lots(lots, file, list(seats))}

    def _written_lots(self, lots, file: str, seats: list[str]) -> Allotment:
        """secrets.yml's ``lots:`` as the GM wrote them, checked against the rules."""
        problems: list[Problem] = []
        if (not isinstance(lots, dict) or not isinstance(lots.get("powers"), dict)
                or not isinstance(lots.get("tasks"), dict)):
            raise GameError([Problem(file, line_of(lots), "lots must give the powers each player drew and the cards "
                                     "drawn for each power's task", LOTS_EXAMPLE, code="bad-lots")])
        for key in lots:
            if key not in ("powers", "tasks"):
                problems.append(Problem(file, line_of(lots, key), f"unknown key {key!r} in lots", LOTS_EXAMPLE,
                                        code="bad-lots"))
        powers, taken = self._drawn_powers(lots, file, seats, problems)
        tasks, cards = self._drawn_tasks(lots, file, powers, taken, problems)
        if problems:
            raise GameError(problems)
        return Allotment(powers, tasks, cards, "secrets.yml")

    def _drawn_powers(self, lots, file: str, seats: list[str], problems: list) -> tuple[dict, dict]:
        """``lots: powers:``: each seat's powers, and each power drawn -> the seat that drew it."""
        k = self.rules.powers_each(len(seats))
        by_name = {s.casefold(): s for s in seats}
        by_power = {p.casefold(): p for p in self.rules.powers()}
        powers: dict[str, tuple[str, ...]] = {}
        taken: dict[str, str] = {}
        for name, drawn in lots["powers"].items():
            line = line_of(lots["powers"], name)
            seat = by_name.get(str(name).strip().casefold())
            if seat is None:
                problems.append(Problem(file, line, f"{name!r} is not a player of this game",
                                        f"players: {', '.join(seats)}", code="bad-lots"))
                continue
            drawn = [drawn] if isinstance(drawn, str) else drawn
            if not isinstance(drawn, list):
                problems.append(Problem(file, line, f"{seat}'s powers are a list, not {kind_of(drawn)}", LOTS_EXAMPLE,
                                        code="bad-lots"))
                continue
            mine = []
            for p in drawn:
                power = by_power.get(str(p).strip().casefold())
                if power is None:
                    problems.append(Problem(file, line_of(p) or line, f"{p!r} is not a power",
                                            ", ".join(self.rules.powers()), code="bad-lots"))
                elif power in taken:
                    problems.append(Problem(file, line_of(p) or line,
                                            f"{power} is drawn twice ({taken[power]} has it)", code="bad-lots"))
                else:
                    taken[power] = seat
                    mine.append(power)
            if len(drawn) != k:
                problems.append(Problem(file, line, f"{seat} drew {len(drawn)} powers; with {len(seats)} players each "
                                        f"draws {k}", code="bad-lots"))
            powers[seat] = tuple(mine)
        for seat in seats:
            if seat not in powers:
                problems.append(Problem(file, line_of(lots, "powers"), f"no powers drawn for {seat}", LOTS_EXAMPLE,
                                        code="bad-lots"))
        return powers, taken

    def _drawn_tasks(self, lots, file: str, powers: dict, taken: dict, problems: list) -> tuple[dict, dict]:
        """``lots: tasks:``: each drawn power's task, and the cards drawn for it."""
        by_power = {p.casefold(): p for p in self.rules.powers()}
        tasks, cards = {}, {}
        given = {}
        for key, value in lots["tasks"].items():
            line = line_of(lots["tasks"], key)
            power = by_power.get(str(key).strip().casefold())
            if power is None or power not in taken:
                problems.append(Problem(file, line, f"{key!r} is not a power any player drew",
                                        f"powers drawn: {', '.join(taken) or 'none'}", code="bad-lots"))
                continue
            given[power] = (value, line)
        for power, seat in taken.items():
            if power not in given:
                problems.append(Problem(file, line_of(lots, "tasks"), f"no card drawn for {power}'s task",
                                        LOTS_EXAMPLE, code="bad-lots"))
                continue
            value, line = given[power]
            drawn = [value] if isinstance(value, (str, int)) else value
            if not isinstance(drawn, list) or not drawn:
                problems.append(Problem(file, line, f"{power}'s cards are a card or a list of cards", LOTS_EXAMPLE,
                                        code="bad-lots"))
                continue
            found = [CARD_NAMES.get(str(c).strip().casefold()) for c in drawn]
            names = [n for n in found if n is not None]
            if len(names) < len(found):
                bad = drawn[found.index(None)]
                problems.append(Problem(file, line, f"{bad!r} is not a card of Table 1", f"cards: {', '.join(CARDS)}",
                                        code="bad-lots"))
                continue
            wrong = self._redraw_error(power, seat, names, tuple(p for p in powers.get(seat, ()) if p != power))
            if wrong:
                problems.append(Problem(file, line, wrong, code="bad-lots"))
                continue
            tasks[power], cards[power] = self.rules.tasks[power][names[-1]], tuple(names)
        return tasks, cards

    def _redraw_error(self, power: str, seat: str, names: list[str], partner: tuple[str, ...]) -> str | None:
        """What is wrong with the cards `names` written for `power`'s task, if anything: a first
        card that needs a home centre of the seat's other power (`partner`) is redrawn, once."""
        ok = self.rules.eligible(power, partner)
        if len(names) > 2:
            return "a task is redrawn at most once: give the card drawn first and, if it was redrawn, the second"
        if len(names) == 2 and names[0] in ok:
            return f"{power}'s first card, {names[0]}, needs no home centre of {seat}'s other power: it is not redrawn"
        if len(names) == 2 and (names[1] not in ok or names[1] == names[0]):
            return (f"{power}'s second card, {names[1]}, cannot be drawn: the redraw is among "
                    f"{', '.join(c for c in ok if c != names[0])}")
        if len(names) == 1 and names[0] not in ok:
            return (f"{power}'s {names[0]} needs a home centre of {seat}'s other power: it is redrawn; "
                    f"write both cards, e.g. [{names[0]}, {next(c for c in ok if c != names[0])}]")
        return None

"""Stab!'s placement, read from the first phase file and checked: each power's units, as many as
its home centres, each in one of its home spaces and on ground its kind can stand on."""

from __future__ import annotations

from dipgen.core.board import province_of
from dipgen.core.errors import Problem
from dipgen.core.orders import OrderSyntaxError, parse_unit
from dipgen.core.position import Unit
from dipgen.io.yamlfile import by_power, kind_of, line_of
from dipgen.rules.variant import Files
from dipgen.variants.stab.rules import Placement, StabRules

EXAMPLE = "e.g. England: [F Lon, F NTH, A Yor]"


class StabFiles(Files):
    rules: StabRules
    setup_keys = frozenset({"placement"})

    def read_setup(self, game, problems: list) -> dict:
        pf = game.phases.get(self.rules.calendar.first(game.start))
        if pf is None:
            return {}  # the placement comes with the first orders
        raw = pf.extra.get("placement")
        if not isinstance(raw, dict):
            problems.append(Problem(pf.name, line_of(raw) or 1,
                                    "a Stab! game's first phase file needs 'placement': each power's starting units",
                                    "e.g.\n      placement:\n        England: [F Lon, F NTH, A Yor]",
                                    code="bad-placement"))
            return {}
        units: list[Unit] = []
        placed: dict[str, str] = {}
        given: set[str] = set()
        for power, specs, kline in by_power(self.rules.board, raw, pf.name, problems, "under placement",
                                            "keep one list of units for each power"):
            given.add(power)
            if specs is None or isinstance(specs, str):
                specs = [s for s in (specs or "").splitlines() if s.strip()]
            elif not isinstance(specs, list):
                problems.append(Problem(pf.name, kline, f"{power}'s placement must be a list of units, not "
                                        f"{kind_of(specs)}", EXAMPLE, code="bad-placement"))
                continue
            need = len(self.rules.board.home_centres(power))
            if len(specs) != need:
                problems.append(Problem(pf.name, kline, f"{power} places {len(specs)} units; it must place {need}",
                                        f"{power} starts with {need} units, one for each home centre",
                                        code="bad-placement"))
            for spec in specs:
                unit = self.unit(power, spec, line_of(spec) or kline, pf.name, placed, problems)
                if unit is not None:
                    placed[unit.province] = power
                    units.append(unit)
        return {"placement": Placement(tuple(units), frozenset(given))}

    def unit(self, power: str, spec, line: int | None, file: str, placed: dict[str, str],
             problems: list) -> Unit | None:
        """The unit `spec` places, if `power` may place it there (`placed`: province -> the power
        placed there so far)."""
        board = self.rules.board
        if not isinstance(spec, str):
            problems.append(Problem(file, line, f"a unit to place is text such as F Lon, not {kind_of(spec)}",
                                    code="bad-placement"))
            return None
        try:
            kind, loc = parse_unit(board, spec, self.rules.order_words)
        except (OrderSyntaxError, ValueError) as e:
            problems.append(Problem(file, line, str(e), code="bad-placement"))
            return None
        prov = province_of(loc)
        allowed = self.rules.home_spaces(power)
        if prov not in allowed:
            names = ", ".join(board.format_loc(p) for p in allowed)
            problems.append(Problem(file, line, f"{board.full_name(prov)} is not a home space of {power}",
                                    f"{power} may place units in: {names}", code="bad-placement"))
            return None
        p = board.provinces[prov]
        terrain = self.rules.unit_kinds[kind].terrain
        if terrain == "land" and not p.is_land:
            problems.append(Problem(file, line, f"an army cannot stand in {p.name}", code="bad-placement"))
            return None
        if terrain == "sea":
            if p.type == "land":
                problems.append(Problem(file, line, f"a fleet cannot stand inland in {p.name}", code="bad-placement"))
                return None
            if p.coasts and loc not in board.fleet_locations(prov):
                problems.append(Problem(file, line, f"say which coast of {p.name} the fleet is on",
                                        f"e.g. F {p.abbr}/{p.coasts[-1]}", code="bad-placement"))
                return None
            if not p.coasts:
                loc = prov
        else:
            loc = prov
        if prov in placed:
            problems.append(Problem(file, line, f"two units placed in {p.name} ({placed[prov]} has one)",
                                    code="bad-placement"))
            return None
        return Unit(power, kind, loc)

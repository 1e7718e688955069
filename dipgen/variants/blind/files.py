"""Blind's spies, read from the first phase file and checked (as many as the rules give each power,
each in one of its home centres), over the files of the board Blind is played on."""

from __future__ import annotations

from collections.abc import Mapping

from dipgen.core.board import province_of
from dipgen.core.errors import Problem
from dipgen.io.yamlfile import by_power, kind_of, line_of
from dipgen.rules.variant import Files
from dipgen.variants.blind.rules import BlindRules


class BlindFiles(Files):
    """What Blind reads: the board's files (`base`: its keys, players and orders), and the spies."""

    rules: BlindRules

    def __init__(self, rules: BlindRules, base: Files | None = None) -> None:
        super().__init__(rules)
        self.base = base or Files(rules.base)
        self.game_keys = self.base.game_keys
        self.phase_keys = self.base.phase_keys
        self.setup_keys = self.base.setup_keys | {"spies"}
        self.order_form = self.base.order_form
        self.order_form_example = self.base.order_form_example

    def read_seats(self, raw, file, line, problems):
        return self.base.read_seats(raw, file, line, problems)

    def writers(self, seating):
        return self.base.writers(seating)

    def new_players(self):
        return self.base.new_players()

    def read_phase(self, phase, extra, file, first, seating, problems) -> dict:
        return self.base.read_phase(phase, extra, file, first, seating, problems)

    def read_secret(self, secret, file, seats):
        return self.base.read_secret(secret, file, seats)

    def read_setup(self, game, problems: list) -> Mapping:
        """The board's set-up, and the spies: power -> the provinces its spies start in (a power
        that places none is not listed: its spies start where the rules say)."""
        setup = dict(self.base.read_setup(game, problems))
        pf = game.phases.get(self.rules.calendar.first(game.start))
        raw = pf.extra.get("spies") if pf else None
        if raw is None:
            return setup
        if not isinstance(raw, dict):
            problems.append(Problem(pf.name, line_of(raw) or 1, "spies must map each power to its spies' places",
                                    "e.g.\n      spies:\n        England: [Lon, Edi]", code="bad-spies"))
            return setup
        chosen: dict[str, list] = {}
        key_lines: dict[str, int | None] = {}
        n = self.rules.spies_at_start
        for power, places, kline in by_power(self.rules.board, raw, pf.name, problems, "under spies",
                                             "keep one list of places for each power"):
            chosen[power] = places if isinstance(places, list) else [places]
            key_lines[power] = kline
            if len(chosen[power]) != n:
                problems.append(Problem(pf.name, kline, f"{power} places {len(chosen[power])} spies; it has {n}",
                                        code="bad-spies"))
        spies = {}
        for power in self.rules.powers():
            if power in chosen:
                spies[power] = tuple(self.places(power, chosen[power], key_lines[power], pf.name, problems))
        return {**setup, "spies": spies}

    def places(self, power: str, places: list, kline: int | None, file: str, problems: list) -> list[str]:
        """The provinces of `places` that are home centres of `power`, each other one a problem."""
        board, homes = self.rules.board, self.rules.home_centres(power)
        out = []
        for place in places:
            line = line_of(place) or kline
            if not isinstance(place, str):
                problems.append(Problem(file, line, f"a spy's place is a province such as Lon, not {kind_of(place)}",
                                        code="bad-spies"))
                continue
            try:
                prov = province_of(board.location(place.removeprefix("S ").strip()))
            except ValueError as e:
                problems.append(Problem(file, line, str(e), code="bad-spies"))
                continue
            if prov not in homes:
                names = ", ".join(board.format_loc(c) for c in homes)
                problems.append(Problem(file, line, f"{board.full_name(prov)} is not a home centre of {power}",
                                        f"{power}'s spies start in its home centres: {names}", code="bad-spies"))
                continue
            out.append(prov)
        return out

"""Stab!'s rules: the standard game with a free initial placement. Each power places its units
in its home spaces with the Spring 1901 orders (`files.py` reads and checks the placement); what
is hidden, and from whom, is `visibility.py`'s.

The rulings where the rule text is silent are listed on the rules page (site_src/rules/stab.md)
and marked RULING below.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipgen.core.orders import parse_unit
from dipgen.core.position import Position, Unit
from dipgen.rules.variant import Rules


@dataclass(frozen=True)
class Placement:
    """The units placed at the start, and the powers that sent a placement (the others start as
    in the standard game)."""

    units: tuple[Unit, ...]
    powers: frozenset[str]


class StabRules(Rules):
    #: home spaces that are not home for placement, and spaces a power may place in besides its own
    not_home = frozenset({"fin"})
    extra_places = {"England": ("nth",)}

    def home_spaces(self, power: str) -> list[str]:
        spaces = [p for p in self.board.home_territories.get(power, ()) if p not in self.not_home]
        return spaces + list(self.extra_places.get(power, ()))

    def initial_position(self, game, draws=None, secret=None) -> Position:
        """The units of `game.setup`'s placement, on a board whose centres are owned as in the
        standard game; with no first phase file yet, no unit (the placement comes with the first orders)."""
        first = self.calendar.first(game.start)
        owners = {p.id: p.home for p in self.board.provinces.values() if p.home}
        if first not in game.phases:
            return Position(first, (), owners)
        placement = game.setup.get("placement") or Placement((), frozenset())
        units = list(placement.units)
        for power in self.powers():
            if power not in placement.powers:
                # RULING: a power that sends no placement starts with the usual opening units.
                for spec in self.board.starting_units.get(power, ()):
                    kind, loc = parse_unit(self.board, spec)
                    units.append(Unit(power, kind, loc))
        return Position(first, tuple(sorted(units, key=lambda u: u.loc)), owners)

"""What each level of a Taskdip game knows while it runs: the board and every order are public;
the tasks, and the cards drawn for them, only to the player who drew them (and the GM) until the
game is revealed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from dipgen.core.position import Position
from dipgen.rules.variant import Policy
from dipgen.rules.visibility import PositionVisibility, RecordVisibility, revealed
from dipgen.variants.taskdip.rules import Allotment, allotment_of, state_of


class TaskdipPolicy(Policy):
    hidden = True  # RULING: the tasks only; the board and every order are public (record_visibility: default)
    fixed_calendar = False  # the board is public: the public sees the phases as played

    def start_visibility(self, history, position: Position) -> PositionVisibility:
        """The board is public; of the game's state every level keeps all but the tasks: a player
        reads the tasks of the powers she drew, everyone reads them all once the game is revealed."""
        if revealed(history):
            return PositionVisibility.open(position)
        return replace(PositionVisibility.open(position), economy=lambda reader: _economy_for(position, reader))

    def record_visibility(self, history, record) -> RecordVisibility:
        vis = RecordVisibility.open(record)
        return replace(vis, before=self.start_visibility(history, record.before),
                       after=self.start_visibility(history, record.after))

    def secret_texts(self, history):
        """Each task, as the pages write it, and each card drawn for it (``Austria (card: Nine)``,
        ``Austria: [Eight, Nine]`` as in secrets.yml), until the game is revealed."""
        a = allotment_of(history.position)
        out = []
        for power, task in sorted(a.tasks.items()) if a else ():
            out.append((f"{power}'s secret task", (task.text, task.text[0].lower() + task.text[1:])))
            cards = "|".join(sorted(set(a.cards[power])))
            out.append((f"the card drawn for {power}'s task",
                        (re.compile(rf"\b{power}\b(?:</?\w+>|\W){{0,12}}(?:card:\s*)?\[?\s*(?:{cards})\b"),)))
        return out


def _economy_for(position: Position, reader: frozenset) -> Mapping | None:
    """`position`'s economy as `reader` (a level's names) may read it: the tasks, and the cards
    drawn for them, only of the powers the reader drew (the GM reads them all)."""
    state = state_of(position)
    if state is None:
        return position.economy
    if "gm" in reader:
        return position.economy
    a = state.allotment
    mine = {p for seat in reader for p in a.powers.get(seat, ())}
    kept = Allotment(a.powers, {p: t for p, t in a.tasks.items() if p in mine},
                     {p: c for p, c in a.cards.items() if p in mine}, a.source, a.redrawn)
    return MappingProxyType({**(position.economy or {}), "taskdip": replace(state, allotment=kept)})

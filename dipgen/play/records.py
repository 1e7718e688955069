"""The History and its records: what happened in each phase of a game, as plain values.

A leaf module: the replay (`dipgen.play.replay`) makes these, and everything downstream (views,
timeline, reports, maps, site, leak scanner) reads them without importing the replay.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property
from collections.abc import Mapping

from dipgen.rules.chain import Chain
from dipgen.rules.draws import Draw, GameDraws
from dipgen.core.results import OrderResult
from dipgen.core.errors import Problem
from dipgen.core.orderline import OrderLine
from dipgen.core.outcome import GameResult
from dipgen.core.phase import Phase
from dipgen.core.position import Dislodged, Position
from dipgen.rules.seats import ControlChange, Seating
from dipgen.rules.variant import Variant


@dataclass(frozen=True)
class PhaseRecord:
    """Everything that happened in one phase."""

    phase: Phase
    before: Position
    orders: Mapping[str, tuple[OrderLine, ...]]
    results: tuple[OrderResult, ...]
    after: Position                       # the position the next phase starts from
    dislodged: tuple[Dislodged, ...] = ()  # movement: units that must retreat
    destroyed: tuple[Dislodged, ...] = ()  # movement: dislodged with nowhere to go
    centre_changes: tuple[tuple[str, str | None, str], ...] = ()  # (centre, old owner, new owner)
    adjustments: Mapping[str, int] = field(default_factory=dict)  # winter: builds (+) / removals (-) due
    nmr: tuple[str, ...] = ()              # powers that had to order and sent nothing
    press: str = ""
    notes: str = ""
    #: the phase file, as the GM names it (None: a phase played without one)
    source: str | None = None
    #: on a calendar that folds retreats into their season (the public's, in a hidden game):
    #: the results of the retreats that followed this movement, as far as the level may know them
    retreat_results: tuple[OrderResult, ...] = ()
    #: powers that changed hands after this phase (`Variant.control_changes`), from the next phase on
    control: tuple[ControlChange, ...] = ()
    #: what the phase drew, in drawing order, secret draws included
    draws: tuple[Draw, ...] = ()
    #: what the variant's intake step decided, for its pages (`Intake.report`; the view's `RecordView.intake`)
    intake: object = None
    #: when its file was published: the time (UTC) of the commit that added it (None: not committed,
    #: or no git); which level may know it is the view's to say
    time: dt.datetime | None = None
    #: the phase file's exact bytes (the game's record hashes them; published once the game is open)
    data: bytes = field(default=b"", repr=False)

    @property
    def kind(self) -> str:
        return self.phase.kind

    def results_of(self, power: str) -> list[OrderResult]:
        return [r for r in self.results if r.power == power]


@dataclass(frozen=True)
class GameInfo:
    """What a game's game.yml says of it besides its players and phases: the facts every output
    names it by, and where its file is (for messages). The replay copies it from the loaded game,
    so that the History holds no file reader's types."""

    slug: str
    title: str
    gm: str = ""
    description: str = ""
    #: when a hidden game publishes everything: "end" (when it is over) or "now"
    reveal: str = "end"
    #: the game folder as the GM names it, and the line of each key of game.yml (for messages)
    folder: str = ""
    lines: Mapping[str, int | None] = field(default_factory=dict)
    start: int | None = None
    #: when the orders of the phase the game waits for are due (game.yml's ``deadline``, UTC)
    deadline: dt.datetime | None = None
    #: when game.yml was first committed (None: not committed, or no git)
    created: dt.datetime | None = None
    #: how long before the deadline its calendar reminds the players (game.yml's ``reminders``)
    reminders: tuple[dt.timedelta, ...] = (dt.timedelta(days=1),)
    #: the address the GM takes orders at (game.yml's ``orders_to``, public; '')
    orders_to: str = ""

    @property
    def file(self) -> str:
        """game.yml, as the GM names it."""
        return f"{self.folder}/game.yml" if self.folder else "game.yml"


@dataclass
class History:
    info: GameInfo
    variant: Variant
    #: the seats and who controlled which power at the start (drawn at the set-up, or as game.yml gives them)
    start_seating: Seating
    records: list[PhaseRecord]
    position: Position            # where the game stands now
    next_phase: Phase | None      # the phase awaiting orders; None when the game is over
    result: GameResult | None
    warnings: list[Problem] = field(default_factory=list)
    #: the game's draws: commitment, key source and the set-up's draws (None: the game draws nothing)
    draws: GameDraws | None = None
    #: the game's record, a chain of hashes over its phase files (`dipgen.rules.chain`); None when it
    #: cannot be published (a running hidden game without the seed its salt comes from)
    chain: Chain | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None

    @cached_property
    def seating(self) -> Seating:
        """The game's seats and who controlled which power, with every change made in play."""
        return self.start_seating.after(c for r in self.records for c in r.control)

    def player(self, power: str, phase: Phase | None = None) -> str:
        """Who played `power` at `phase` (by default: now); several players joined by 'and'."""
        return self.seating.player(power, phase)

    def record(self, phase: Phase) -> PhaseRecord:
        for r in self.records:
            if r.phase == phase:
                return r
        raise KeyError(phase)

    def centre_table(self) -> list[tuple[int, dict[str, int]]]:
        """Centre counts by year: after each Fall turn, of the years the game page counts
        (`Calendar.counted_years`: the last record of a year the game ended in sooner)."""
        powers = self.variant.rules.powers()
        calendar = self.variant.rules.calendar
        counted = calendar.counted_years([r.phase for r in self.records], self.result is not None)
        by_year: dict[int, Position] = {}
        for r in self.records:
            if r.phase.year in counted and (calendar.ends_year(r.phase) or r.phase.year not in by_year):
                by_year[r.phase.year] = r.after
        return [(y, p.centre_counts(powers)) for y, p in sorted(by_year.items())]

    def result_line(self) -> str:
        """'Turkey (Chris Morse) wins in Fall 1907!' and the like; '' while the game runs."""
        r = self.result
        if r is None:
            return ""
        said = self.variant.words.result_line(self)
        if said:
            return said
        who = [f"{p} ({self.player(p)})" if self.player(p) else p for p in r.powers]
        when = r.phase.season_name
        why = f" ({r.condition})" if r.condition else ""
        if r.kind == "solo":
            return f"{who[0]} wins in {when}{why}!"
        if r.kind == "concession":
            return f"Concession to {who[0]} in {when}."
        if r.kind == "draw":
            return f"{len(who)}-way draw between {_and(who)}, {when}{why}."
        return f"Abandoned after {when}." + (f" {r.note}" if r.note else "")


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

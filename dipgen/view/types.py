"""What one visibility level may know of a game: the values every output is made from.

`dipgen.view.game_view` makes a `GameView` from a History, the variant's visibility policy and
a level, and nothing else makes one. Pages, maps, search entries, private pages, reports,
draws, feeds and status lines read a view and never the History, so none can show what the
view left out. A fact the level may not know is `UNKNOWN`, never a ``None`` or an empty value
that a consumer could take for "none": `UNKNOWN` refuses to be read as true or false.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import Enum
from collections.abc import Mapping

from dipgen.rules.draws import Draw
from dipgen.core.results import OrderResult
from dipgen.core.orderline import OrderLine
from dipgen.core.outcome import GameResult
from dipgen.core.phase import ADJUSTMENTS, Phase
from dipgen.core.position import Unit
from dipgen.rules.seats import ControlChange, Seating
from dipgen.rules.variant import Variant


class Unknown(Enum):
    """A fact the level may not know."""

    UNKNOWN = "unknown"

    def __bool__(self) -> bool:
        raise TypeError("an UNKNOWN fact is neither true nor false: compare it with `is UNKNOWN`")

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = Unknown.UNKNOWN


@dataclass(frozen=True)
class DislodgedView:
    """A dislodged unit as a level knows it: who dislodged it and from where, and where it may
    retreat (``()``: nowhere, it is destroyed), each `UNKNOWN` where the level may not know it."""

    unit: Unit
    attacker_from: str | Unknown
    by_power: str | Unknown
    retreats: tuple[str, ...] | Unknown

    @property
    def fate_known(self) -> bool:
        return self.retreats is not UNKNOWN


@dataclass(frozen=True)
class PositionView:
    """A position as a level knows it.

    `units` and `owners` are those the level knows of; where it knows the `whole` position (a
    ruling of the policy, never read off what happens to be shown) nothing else stands on the
    board. `totals` is every power's centre total, or `UNKNOWN`."""

    phase: Phase
    units: tuple[Unit, ...]
    owners: Mapping[str, str]
    totals: Mapping[str, int] | Unknown
    dislodged: tuple[DislodgedView, ...] = ()
    #: the variant's state (`Position.economy`) as far as the level may read it (None: nothing)
    economy: Mapping[str, object] | None = None
    whole: bool = False

    def units_of(self, power: str, kinds: Mapping | None = None) -> list[Unit]:
        """`power`'s units the level knows of; given the variant's `kinds`, only those that fight."""
        if kinds is None:
            return [u for u in self.units if u.power == power]
        return [u for u in self.units if u.power == power and kinds[u.kind].fights]

    def units_at(self, province: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.province == province)

    def centres_of(self, power: str) -> list[str]:
        return sorted(c for c, p in self.owners.items() if p == power)

    def total(self, power: str) -> int | Unknown:
        return UNKNOWN if self.totals is UNKNOWN else self.totals.get(power, 0)

    def at(self, phase: Phase) -> PositionView:
        """The same knowledge, said of another phase (the season a level is told goes on)."""
        return PositionView(phase, self.units, self.owners, self.totals, self.dislodged, self.economy, self.whole)


@dataclass(frozen=True)
class Link:
    """A link of the game's record (`dipgen.rules.chain`): the chain's value (hex) after the phase
    file of `after`. A record of a hidden game's public calendar carries the link after its
    movement file (a year's totals: after its Fall's), never one after a file the level may not
    know of."""

    after: Phase
    value: str

    def __str__(self) -> str:
        return f"{self.after.slug}={self.value}"


@dataclass(frozen=True)
class ChainView:
    """What the level may check of the game's record: its first link, its salt (hex: '' for an open
    game, and for a hidden one until it is revealed), and once the game is open or revealed each
    phase file's exact bytes, in the order of play, so that anyone can recompute every link."""

    genesis: str
    salted: bool
    salt: str = ""
    files: tuple[tuple[Phase, bytes], ...] = ()
    #: the latest link the level is shown (None: none yet)
    latest: Link | None = None


@dataclass(frozen=True)
class RecordView:
    """One phase as a level is shown it: a page of the site, a report, a season of a private
    page. Every field is decided by the variant's policy for the level; a record of a fixed
    public calendar (`dipgen.view.timeline`) may stand for a season whose phases the level
    may not tell apart."""

    phase: Phase
    #: what the level calls it: 'Spring 1901', 'Fall 1901 retreats', 'Winter 1901 adjustments'
    #: ('Winter 1901' where the level may not know whether anyone adjusted)
    title: str
    before: PositionView
    after: PositionView
    #: each power's orders as written, where the level may read them
    orders: Mapping[str, tuple[OrderLine, ...]] = field(default_factory=dict)
    results: tuple[OrderResult, ...] = ()
    dislodged: tuple[DislodgedView, ...] = ()   # dislodged units (destroyed ones whose fate is unknown too)
    destroyed: tuple[DislodgedView, ...] = ()   # units known to have had nowhere to go
    centre_changes: tuple[tuple[str, str | None, str], ...] = ()  # (centre, old owner, new owner)
    adjustments: Mapping[str, int] = field(default_factory=dict)  # builds (+) / removals (-) due
    nmr: tuple[str, ...] = ()
    press: str = ""
    notes: str = ""
    #: the phase file the press and notes come from, for messages about them ('' for none)
    source: str = ""
    #: where the retreats that followed are folded into their season: what the level may know of them
    retreat_results: tuple[OrderResult, ...] = ()
    control: tuple[ControlChange, ...] = ()
    #: the draws the phase published, and the key that checks them (hex; '' when none)
    draws: tuple[Draw, ...] = ()
    draw_key: str = ""
    #: the variant's report of its intake step (`Intake.report`), where the level may read it
    intake: object = None
    #: only the year's centre totals (a Winter of the public calendar): no maps, no orders
    summary_only: bool = False
    #: does the page (and the report) of this record tell the centre totals after it?
    tells_totals: bool = False
    #: the builds (+) and removals (-) the level knows fall due after this record (a year's end)
    due_after: Mapping[str, int] = field(default_factory=dict)
    #: when the level may know it was published: the time (UTC) of the commit that added the phase
    #: file it is told of (on the public calendar of a hidden game: the movement file's; the year's
    #: totals, the Fall movement file's). None: that file has no time (not committed, or no git)
    time: dt.datetime | None = None
    #: the game's record after the phase file that opens this record (None: not the level's, or no record)
    link: Link | None = None

    @property
    def kind(self) -> str:
        return self.phase.kind

    def results_of(self, power: str) -> list[OrderResult]:
        return [r for r in self.results if r.power == power]


@dataclass(frozen=True)
class DemoSeat:
    """A seat of an example game that publishes its secrets on purpose: her page and passphrase."""

    name: str
    page: str        # the private page's site path
    passphrase: str


@dataclass(frozen=True)
class DrawsView:
    """What the level may check of the game's draws: the commitment and, once revealed, the seed."""

    commitment: str
    start: int
    chain: int
    seed: str          # hex, '' until the game is revealed
    setup: tuple[Draw, ...] = ()
    setup_key: str = ""


@dataclass(frozen=True)
class GameInfoView:
    """What game.yml says of the game that anyone may read."""

    slug: str
    title: str
    gm: str
    description: str
    file: str          # game.yml as the GM names it (for messages about the description)
    description_line: int | None = None
    #: when game.yml was first committed (None: not committed, or no git)
    created: dt.datetime | None = None
    #: how long before the deadline the calendar reminds its readers (game.yml's ``reminders``)
    reminders: tuple[dt.timedelta, ...] = (dt.timedelta(days=1),)
    #: the address the GM takes orders at (game.yml's ``orders_to``: public by the GM's choice; '')
    orders_to: str = ""


@dataclass(frozen=True)
class GameView:
    """A whole game as one level may know it."""

    level: str
    info: GameInfoView
    variant: Variant
    seating: Seating
    records: tuple[RecordView, ...]
    #: the position now, as the level knows it
    now: PositionView
    #: the phase the level is told the game waits for (None: over, or a season the level is told
    #: is being completed, `season`)
    due: Phase | None
    #: where the game stands while `due` is None and it runs: the season being completed
    season: Phase | None = None
    result: GameResult | None = None
    result_line: str = ""
    #: a hidden game's public calendar (`dipgen.view.timeline`): Spring, Fall and the year's totals
    fixed: bool = False
    #: may everything about the game be published (open, over, or ``reveal: now``)?
    revealed: bool = True
    #: does the variant hide anything from anyone while the game runs?
    hidden: bool = False
    #: the powers this level reads as its own now (a seat's; none for gm and public)
    own: tuple[str, ...] = ()
    draws: DrawsView | None = None
    #: an example game that publishes its passphrases (public level only), else None
    demo: tuple[DemoSeat, ...] | None = None
    #: how many phases the public calendar shows (the private pages' room is made of it)
    public_phases: int = 0
    #: what the level may know is owed in the phase `due`: each power's builds (+) or removals (-),
    #: and the units that must retreat
    owed: Mapping[str, int] = field(default_factory=dict)
    retreating: tuple[Unit, ...] = ()
    #: when the orders of the phase the game waits for are due (UTC), as game.yml says; None when
    #: it gives none, or the game is over
    deadline: dt.datetime | None = None
    #: the game's record as the level may check it (None: it cannot be published)
    chain: ChainView | None = None

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def slug(self) -> str:
        return self.info.slug

    @property
    def title(self) -> str:
        return self.info.title

    def record(self, phase: Phase) -> RecordView:
        for r in self.records:
            if r.phase == phase:
                return r
        raise KeyError(phase)

    def phases(self) -> list[Phase]:
        return [r.phase for r in self.records]

    def player(self, power: str, phase: Phase | None = None) -> str:
        return self.seating.player(power, phase)

    def due_title(self) -> str:
        """The phase the game waits for, as the level names it ('' when it waits for none)."""
        if self.due is None:
            return ""
        return self.due.name + (" adjustments" if self.due.kind == ADJUSTMENTS and not self.fixed else "")


#: a level's timeline: its records, the position now, the phase it is told the game waits for,
#: the season being completed (when it waits for a phase the level may not know of), and whether
#: it is the public's fixed calendar
Timeline = tuple[list[RecordView], PositionView, "Phase | None", "Phase | None", bool]


class DemoSecrets:
    """The secrets an example game publishes on purpose (``demo: true`` in its secrets.yml and
    ``demo_secrets: true`` in game.yml, both checked by `dipgen.io.load`): its seats' passphrases and
    the private pages' addresses."""

    def __init__(self, pages: Mapping[str, tuple[str, str]]):
        self.pages = dict(pages)  # seat -> (page path, passphrase)

    def __repr__(self) -> str:  # never print a passphrase by accident
        return f"DemoSecrets({len(self.pages)} seats)"

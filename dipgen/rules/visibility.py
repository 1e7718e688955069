"""A variant's visibility policy, as data: who may know each fact of a record or a position.

A fact is told to an *audience*: a set of levels. ``"gm"`` knows everything, ``"public"`` in an
audience means everyone, and each power's name (or a seat's key, `dipgen.rules.seats`) is a level of
its own. A hidden variant's hooks (``Variant.record_visibility``, ``start_visibility``) return
these values for every record; `dipgen.view` applies them, and nothing else decides what a
level is shown. Open variants tell everyone everything (`PositionVisibility.open`,
`RecordVisibility.open`).

This module reads no History: the variants' policies import it, and the History's types import
the variants.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from dipgen.core.position import Position, Unit

GM, PUBLIC = "gm", "public"
Audience = frozenset  # of level names; containing PUBLIC means everyone
EVERYONE: Audience = frozenset({PUBLIC})
NOBODY: Audience = frozenset()  # the GM only

#: a level as it reads a fact: one level's name, or a seat reading with the levels of the powers
#: it controls then (`dipgen.view.seen.reader`)
Reader = str | frozenset
#: what of a position's variant state (`Position.economy`) a reader may know: a value every reader
#: is given, or a function of the reader
EconomyRule = Mapping | None | Callable[[frozenset], Mapping | None]


def reveal_reached(history) -> bool:
    """Has the game (a `dipgen.play.records.History`) reached its reveal: is it over, or has the GM said
    ``reveal: now``? Then its seed and the draws the rules keep secret are published too."""
    return history.finished or history.info.reveal == "now"


def revealed(history) -> bool:
    """May everything about this game be published? An open game always; a hidden one once it has
    reached its reveal (`reveal_reached`). The one place this is decided: views, policies and the
    site all ask here."""
    return not history.variant.policy.hidden or reveal_reached(history)


def audience(*levels: str) -> Audience:
    """The audience of the given levels (none given: the GM alone)."""
    return frozenset(levels)


def knows(level: Reader, told: Audience) -> bool:
    """Whether `level` (or a seat reading with a set of levels) may know a fact told to `told`."""
    if isinstance(level, str):
        return level == GM or PUBLIC in told or level in told
    return GM in level or PUBLIC in told or not level.isdisjoint(told)


@dataclass(frozen=True)
class PositionVisibility:
    """Who may know each fact of a position."""

    units: Mapping[Unit, Audience]
    owners: Mapping[str, Audience]      # centre -> who knows its owner
    counts: Audience                    # who knows every power's centre total
    dislodged: Mapping[Unit, Audience]  # who knows the unit is dislodged
    retreats: Mapping[Unit, Audience]   # who knows where it may retreat
    #: what of the variant's state (`Position.economy`) each reader keeps (None: nothing)
    economy: EconomyRule = None
    #: who knows the whole position: every unit and every owner, so that what is not shown is not
    #: there. A policy's ruling, never read off what a view happens to hold (that could turn on a
    #: hidden fact); nobody but the GM unless the policy says so (`open` says everyone)
    whole: Audience = NOBODY

    @classmethod
    def open(cls, position: Position) -> PositionVisibility:
        """Everyone knows everything of `position`, its variant state included."""
        every = {d.unit: EVERYONE for d in position.dislodged}
        return cls({u: EVERYONE for u in position.units}, {c: EVERYONE for c in position.owners}, EVERYONE,
                   every, dict(every), position.economy, EVERYONE)

    def economy_for(self, reader: Reader) -> Mapping | None:
        rule = self.economy
        if callable(rule):
            return rule(frozenset({reader}) if isinstance(reader, str) else reader)
        return rule


@dataclass(frozen=True)
class RecordVisibility:
    """Who may know each fact of one PhaseRecord. Facts left out are the GM's alone."""

    before: PositionVisibility
    after: PositionVisibility
    results: tuple[Audience, ...]          # in full, index for index with record.results
    results_partial: tuple[Audience, ...]  # only that the unit supported / convoyed something
    dislodged: Mapping[Unit, Audience]     # that it was dislodged (a destroyed unit included)
    retreats: Mapping[Unit, Audience]      # its retreat options, or that it was destroyed
    centre_changes: tuple[Audience, ...]
    adjustments: Mapping[str, Audience]    # power -> who knows its builds/removals due
    #: power -> who may read its orders as written, and so know whether a unit had one (a power left
    #: out: itself alone)
    orders: Mapping[str, Audience]
    #: power -> who may know that it sent no orders (a power left out: everyone)
    nmr: Mapping[str, Audience] = field(default_factory=dict)
    #: who may read the press and the GM's notes of the phase's file
    text: Audience = EVERYONE
    #: who may read the variant's report of its intake step (`Intake.report`: TIR's table, dice)
    report: Audience = EVERYONE
    #: everyone knows every result as it is, and every unit it names: set by `open` alone (a view
    #: then takes the results as they are, without asking of each)
    every_result: bool = False

    @classmethod
    def open(cls, record) -> RecordVisibility:
        """Everyone knows everything of `record` (a `dipgen.play.records.PhaseRecord`)."""
        every = tuple(EVERYONE for _ in record.results)
        gone = {d.unit: EVERYONE for d in record.dislodged + record.destroyed}
        return cls(PositionVisibility.open(record.before), PositionVisibility.open(record.after), every, every,
                   gone, dict(gone), tuple(EVERYONE for _ in record.centre_changes),
                   {p: EVERYONE for p in record.adjustments},
                   {p: EVERYONE for p in [*record.orders, *(r.power for r in record.results)]}, every_result=True)


def own_nmr(powers: Sequence[str]) -> dict[str, Audience]:
    """An NMR each power alone may know of (in a phase whose very being is a secret: that a power
    had retreats or adjustments to order)."""
    return {p: audience(p) for p in powers}

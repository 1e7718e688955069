"""A variant's calendar: what phases a year has and what follows what.

The replay asks the variant's calendar (`Variant.calendar`) for every step of the sequence:
the phase after a movement (its retreats), the phase after a season's last phase, which
season ends with centres changing hands, and the phase after an adjustment. The standard
calendar is Spring and Fall movement, each with its retreats, and the Winter adjustments;
a phase with nothing to order is skipped (`Variant.phase_needed`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase


@dataclass(frozen=True)
class Calendar:
    """The standard year; a variant with another year subclasses it."""

    #: the seasons with movement, in order; centres change hands after the last of them
    movement_seasons: tuple[int, ...] = (0, 1)
    adjustment_season: int = 2

    def first(self, year: int) -> Phase:
        """The first phase of a game that starts in `year`."""
        return Phase(year, self.movement_seasons[0])

    def retreats_of(self, movement: Phase) -> Phase:
        """The retreat phase that follows a movement phase."""
        return Phase(movement.year, movement.season_index, True)

    def ends_year(self, phase: Phase) -> bool:
        """Does the season of `phase` end with centres changing hands (the Fall)?"""
        return phase.kind != ADJUSTMENTS and phase.season_index == self.movement_seasons[-1]

    def after_season(self, phase: Phase) -> Phase:
        """The phase after the last phase of `phase`'s season (its movement, or its retreats)."""
        seasons = self.movement_seasons
        i = seasons.index(phase.season_index)
        if i + 1 < len(seasons):
            return Phase(phase.year, seasons[i + 1])
        return Phase(phase.year, self.adjustment_season)

    def starts_year(self, phase: Phase) -> bool:
        """Is `phase` of the year's first season (the Spring, or its retreats)?"""
        return phase.kind != ADJUSTMENTS and phase.season_index == self.movement_seasons[0]

    def counted_years(self, phases: list[Phase], over: bool) -> set[int]:
        """The years whose centre totals a game's table and chart show, of the `phases` played: each
        year whose Fall was played (centres change hands then), and the year a game `over` ended
        in; never a year still being played."""
        years = {p.year for p in phases if self.ends_year(p) or p.kind == ADJUSTMENTS}
        return years | ({phases[-1].year} if over and phases else set())

    def adjustments(self, year: int) -> Phase:
        """The adjustment phase of `year` (the Winter)."""
        return Phase(year, self.adjustment_season)

    def season_of(self, phase: Phase) -> Phase:
        """The movement phase of `phase`'s season (``Fall 1901`` for its retreats too)."""
        return Phase(phase.year, phase.season_index)

    def next_movement(self, phase: Phase) -> Phase:
        """The movement phase after `phase`'s season, across the Winter (the Winter itself is not
        a movement)."""
        after = self.after_season(phase) if phase.kind != ADJUSTMENTS else self.first(phase.year + 1)
        return self.first(phase.year + 1) if after.kind == ADJUSTMENTS else after

    def last_season(self, year: int) -> Phase:
        """The movement phase of `year`'s last season (the Fall), after which centres change hands."""
        return Phase(year, self.movement_seasons[-1])

    def after(self, phase: Phase) -> Phase:
        """The phase that comes next after `phase` if `phase` turns out to have nothing to order."""
        if phase.kind == MOVEMENT:
            return self.retreats_of(phase)
        if phase.kind == RETREATS:
            return self.after_season(phase)
        return self.first(phase.year + 1)


STANDARD_CALENDAR = Calendar()

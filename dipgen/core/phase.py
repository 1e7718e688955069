"""Phases of the game as values: a year, a season, and whether it is the retreats; what follows
what is the variant's calendar (`dipgen.rules.seasons`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

SEASONS = ("spring", "fall", "winter")
#: what a phase is: its orders are moves, retreats, or builds and removals
PhaseKind = Literal["movement", "retreats", "adjustments"]
MOVEMENT: Final = "movement"
RETREATS: Final = "retreats"
ADJUSTMENTS: Final = "adjustments"


@dataclass(frozen=True, order=True)
class Phase:
    """A phase, ordered in time. Its file name stem is its ``slug`` (``1901-fall-retreats``)."""

    year: int
    season_index: int  # 0 spring, 1 fall, 2 winter
    retreats: bool = False

    @classmethod
    def make(cls, year: int, season: str, kind: PhaseKind = MOVEMENT) -> Phase:
        season = season.lower()
        if season == "autumn":
            season = "fall"
        if season not in SEASONS:
            raise ValueError(f"unknown season {season!r}")
        idx = SEASONS.index(season)
        if idx == 2 and kind != ADJUSTMENTS or idx < 2 and kind == ADJUSTMENTS:
            raise ValueError(f"{season} has no {kind} phase")
        return cls(year, idx, kind == RETREATS)

    @property
    def season(self) -> str:
        return SEASONS[self.season_index]

    @property
    def kind(self) -> PhaseKind:
        if self.season_index == 2:
            return ADJUSTMENTS
        return RETREATS if self.retreats else MOVEMENT

    @property
    def slug(self) -> str:
        return f"{self.year}-{self.season}" + ("-retreats" if self.retreats else "")

    @classmethod
    def from_slug(cls, slug: str) -> Phase:
        m = re.fullmatch(r"(\d{3,4})-(spring|fall|autumn|winter)(-retreats?)?", slug.lower())
        if not m:
            raise ValueError(f"{slug!r} is not a phase name like 1901-spring, 1901-fall-retreats or 1901-winter")
        kind: PhaseKind = RETREATS if m.group(3) else (ADJUSTMENTS if m.group(2) == "winter" else MOVEMENT)
        return cls.make(int(m.group(1)), m.group(2), kind)

    @property
    def name(self) -> str:
        """``Spring 1901``, ``Spring 1901 retreats``, ``Winter 1901``."""
        base = f"{self.season.capitalize()} {self.year}"
        return base + " retreats" if self.retreats else base

    @property
    def season_name(self) -> str:
        """``Fall 1901`` for the Fall movement and its retreats alike."""
        return f"{self.season.capitalize()} {self.year}"

    def __str__(self) -> str:
        return self.name

"""The scores of a finished game under the scoring systems the hobby uses, as pure functions: a
game's end (`Standing` of every power, and how it ended) in, each power's score out.

- **draw-size** (draw-size scoring, the per-game part of webDiplomacy's and PlayDiplomacy's
  points): a solo scores 1 for the soloist and 0 for the rest; a draw splits 1 equally among its
  members; everybody else scores 0.
- **sum-of-squares** (as webDiplomacy and tournament scorers define it): a solo scores 1 for the
  soloist and 0 for the rest; otherwise each power scores its centres squared over the sum of
  every power's centres squared. Draw membership is not read: a survivor left out of a declared
  draw still scores by her centres, an eliminated power scores 0 (no centres).
- **carnage** (the North American tournaments' system): a game is worth 28,034 points. A solo
  takes them all. Otherwise the powers are ranked by centres at the end, the eliminated ones
  below every survivor and among themselves by the year they were eliminated (later is better);
  the ranks are worth 7,000, 6,000 ... 1,000, powers sharing a rank split the points of the ranks
  they share, and each power adds 1 point per centre it holds.

A concession scores as a solo for the power conceded to. An abandoned game has no scores (None).
Scores are exact: `Fraction` for draw-size and sum-of-squares, whole points for Carnage.

`places` orders the powers of a finished game as the result does (the soloist first, a draw's
members tied first, the others by centres, the eliminated last by the year they fell): the order a
rating across games reads (`dipgen.rules.rating`), and Carnage's order below the result's powers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Callable, Mapping, Sequence

from dipgen.core.outcome import EndKind

#: the systems a site may choose (mkdocs.yml: ``plugins: - dipgen: {scoring: ...}``), the default first
SYSTEMS = ("draw-size", "sum-of-squares", "carnage")
DEFAULT = SYSTEMS[0]
#: Carnage's points for the ranks 1st to 7th, and for a solo (every rank's points and the 34 centres)
CARNAGE_RANKS = (7000, 6000, 5000, 4000, 3000, 2000, 1000)
CARNAGE_SOLO = sum(CARNAGE_RANKS) + 34

Score = Fraction | int


@dataclass(frozen=True)
class Standing:
    """A power at the end of a game: its centres, and the year it was eliminated (None: it survived)."""

    power: str
    centres: int
    eliminated: int | None = None


@dataclass(frozen=True)
class End:
    """How a game ended, as scoring reads it: its kind and the powers that won or shared the draw."""

    kind: EndKind
    powers: tuple[str, ...]


def draw_size(end: End, standings: Sequence[Standing]) -> dict[str, Score]:
    """1 split equally among the soloist or the draw's members; 0 for the rest."""
    share = Fraction(1, len(end.powers)) if end.powers else Fraction(0)
    return {s.power: share if s.power in end.powers else Fraction(0) for s in standings}


def sum_of_squares(end: End, standings: Sequence[Standing]) -> dict[str, Score]:
    """A solo: 1 to the soloist. Otherwise centres squared over the sum of every power's squares."""
    if end.kind in ("solo", "concession"):
        return draw_size(end, standings)
    total = sum(s.centres ** 2 for s in standings)
    return {s.power: Fraction(s.centres ** 2, total) if total else Fraction(0) for s in standings}


def _rank_key(s: Standing) -> tuple[int, int]:
    """Higher is better: survivors by centres, above every eliminated power (ranked by its year)."""
    return (1, s.centres) if s.eliminated is None else (0, s.eliminated)


def places(end: End, standings: Sequence[Standing]) -> dict[str, int] | None:
    """Each power's place in the game, 1 the best, powers that tie sharing the better place and
    the next place skipped (1, 1, 3: competition ranking): the result's powers (a soloist, the power
    conceded to, a draw's members) first and tied among themselves, then the others by `_rank_key`
    (centres; the eliminated below, the later out the better). None for an abandoned game."""
    if end.kind == "abandoned":
        return None
    key = {s.power: (1, 0, 0) if s.power in end.powers else (0, *_rank_key(s)) for s in standings}
    return {p: 1 + sum(1 for k in key.values() if k > mine) for p, mine in key.items()}


def carnage(end: End, standings: Sequence[Standing]) -> dict[str, Score]:
    """A solo: every point to the soloist. Otherwise rank points (shared ranks split) plus centres.
    With more powers than ranks, the ranks past the 7th are worth 0."""
    if end.kind in ("solo", "concession"):
        return {s.power: CARNAGE_SOLO if s.power in end.powers else 0 for s in standings}
    ordered = sorted(standings, key=_rank_key, reverse=True)
    points = [*CARNAGE_RANKS, *[0] * max(0, len(ordered) - len(CARNAGE_RANKS))]
    out: dict[str, Score] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and _rank_key(ordered[j]) == _rank_key(ordered[i]):
            j += 1
        shared = Fraction(sum(points[i:j]), j - i)
        for s in ordered[i:j]:
            value = shared + s.centres
            out[s.power] = int(value) if value.denominator == 1 else value
        i = j
    return out


SCORERS: Mapping[str, Callable[[End, Sequence[Standing]], dict[str, Score]]] = {
    "draw-size": draw_size, "sum-of-squares": sum_of_squares, "carnage": carnage}


def scores(system: str, end: End, standings: Sequence[Standing]) -> dict[str, Score] | None:
    """Each power's score under `system` (one of `SYSTEMS`), None for an abandoned game. ValueError
    for a system not in `SYSTEMS`."""
    if system not in SCORERS:
        raise ValueError(f"unknown scoring system {system!r}: one of {', '.join(SYSTEMS)}")
    if end.kind == "abandoned":
        return None
    return SCORERS[system](end, standings)

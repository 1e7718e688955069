"""A finished game's scores under the site's scoring system (`dipgen.rules.scoring`), as the game
page shows them: made from the public view of the game alone, like every page.

A variant whose games the hobby's systems do not fit (they score seven powers, each with one
player) says how its games score instead (`Words.scoring_note`), and the page shows that sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dipgen.present.site.model import centre_rows
from dipgen.rules.scoring import End, Score, Standing, scores
from dipgen.view import UNKNOWN, GameView

#: the page that defines every system (``site_src/scoring.md``, provided like the rules pages)
SCORING_PAGE = "scoring.md"
#: each system's name on the page
TITLES = {"draw-size": "Draw-size scoring", "sum-of-squares": "Sum-of-squares scoring", "carnage": "Carnage scoring"}


@dataclass(frozen=True)
class ScoreRow:
    power: str
    colour: str
    players: str
    centres: int
    out_year: int | None
    score: str


@dataclass(frozen=True)
class ScoreTable:
    """What the game page's scores section shows: the system, one row per power (best first), or
    the variant's sentence on how its games score (then no rows)."""

    system: str
    title: str
    rows: tuple[ScoreRow, ...] = ()
    note: str = ""


def score_text(system: str, value: Score) -> str:
    """A score as the page writes it: Carnage in whole points (``7,014``), the others as a share
    of 1 to three places (``0.333``)."""
    if system == "carnage":
        return f"{value:,}" if isinstance(value, int) else f"{float(value):,.1f}"
    return f"{float(Fraction(value)):.3f}"


def standings(view: GameView) -> list[Standing] | None:
    """Each power's centres at the end and the year it was eliminated, from the view's last record
    (None when the view does not know the final centres)."""
    if not view.records or view.records[-1].after.totals is UNKNOWN:
        return None
    totals = view.records[-1].after.totals
    _, rows = centre_rows(view)
    return [Standing(r.power, totals.get(r.power, 0), r.out_year) for r in rows]


def score_table(view: GameView, system: str) -> ScoreTable | None:
    """The scores of a finished game under `system` (None: the game is not finished, was
    abandoned, or its final centres are not known to the view)."""
    result = view.result
    if result is None:
        return None
    note = view.variant.words.scoring_note
    if note:
        return ScoreTable(system, TITLES[system], note=note)
    board = standings(view)
    got = None if board is None else scores(system, End(result.kind, result.powers), board)
    if board is None or got is None:
        return None
    _, rows = centre_rows(view)
    by_power = {r.power: r for r in rows}
    ordered = sorted(board, key=lambda s: (-got[s.power], view.variant.rules.powers().index(s.power)))
    return ScoreTable(system, TITLES[system], tuple(
        ScoreRow(s.power, by_power[s.power].colour, ", then ".join(by_power[s.power].players), s.centres,
                 s.eliminated, score_text(system, got[s.power])) for s in ordered))

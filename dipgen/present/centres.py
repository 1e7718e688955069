"""Each power's supply centres year by year, as one level's view knows them: the numbers of the
game page's centre table and of its centre chart."""

from __future__ import annotations

from dipgen.view import UNKNOWN, GameView, RecordView


def centre_table(view: GameView) -> list[tuple[int, dict[str, int]]]:
    """Centre totals by year: the position after each Fall turn (its retreats included), or after
    the year's last record if the game ended sooner. A year still being played (a running game's
    Spring) has no totals yet: its centres change hands in the Fall. On a fixed calendar
    (`dipgen.view.timeline`) only a published Winter tells a year's totals; a year whose totals
    the view does not know is left out."""
    by_year: dict[int, RecordView] = {}
    counted = view.variant.rules.calendar.counted_years([r.phase for r in view.records], view.result is not None)
    for r in view.records:
        if r.phase.year not in counted:
            continue
        if view.fixed and not r.summary_only:
            continue
        if not view.variant.rules.calendar.starts_year(r.phase) or r.phase.year not in by_year:
            by_year[r.phase.year] = r
    powers = view.variant.rules.powers()
    return [(y, {p: r.after.totals.get(p, 0) for p in powers}) for y, r in sorted(by_year.items())
            if r.after.totals is not UNKNOWN]

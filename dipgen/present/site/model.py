"""What the pages show, as plain data computed from one level's view of a game.

Nothing here knows about HTML or MkDocs: each function takes a `dipgen.view.GameView` (and its
records) and returns values the templates lay out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from dipgen.core.outcome import EndKind
from dipgen.core.phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from dipgen.view import GameView, RecordView
from dipgen.present.centres import centre_table
from dipgen.present.lines import and_list
from dipgen.present.times import orders_due


# ----------------------------------------------------------------------------- status

@dataclass(frozen=True)
class Status:
    """Where a game stands: not started, running, or how it ended."""

    kind: Literal["new", "running"] | EndKind
    label: str           # short, for the archive: 'Won by Turkey', 'Running: Fall 1903'
    line: str            # a sentence for the game page
    powers: tuple[str, ...] = ()
    sort_key: str = ""


def game_status(view: GameView) -> Status:
    """Where the game stands, as `view`'s level is told."""
    result = view.result
    if result is None:
        if not view.records and view.due is not None:
            due = orders_due(view.due.name, capital=False)
            return Status("new", "Not started", f"The game has not started: {due}.", (), "0")
        if view.due is None:
            season = view.season.season_name if view.season else ""  # that someone must retreat is not its to know
            return Status("running", f"Running: {season}",
                          f"The game is running: the {season} turn is being completed.", (), "1")
        if view.fixed:  # what is settled in private between two public turns may not show
            name = view.due.name
            return Status("running", f"Running: {name}", f"The game is running: {name} is the next turn.", (), "1")
        what = view.due_title()
        due = orders_due(what, capital=False)
        return Status("running", f"Running: {what}", f"The game is running: {due}.", (), "1")
    powers = result.powers
    if result.kind == "solo":
        label = f"Won by {and_list(list(powers))}"
    elif result.kind == "concession":
        label = f"Conceded to {powers[0]}"
    elif result.kind == "draw":
        label = f"Drawn between {and_list(list(powers))}"
    else:
        label = "Abandoned"
    return Status(result.kind, label, view.result_line, powers, "2" + result.kind)


def years_span(view: GameView) -> tuple[int, int] | None:
    """The first and last year of the phases the view shows."""
    if not view.records:
        return None
    return view.records[0].phase.year, view.records[-1].phase.year


# ----------------------------------------------------------------------------- centres

@dataclass
class Cell:
    year: int
    text: str      # the count, or '–' once the power is out
    css: str = ""  # 'out' after elimination, 'win' for the winner's winning year, 'gain'/'loss'


@dataclass
class CentreRow:
    power: str
    colour: str
    players: list[str]
    cells: list[Cell] = field(default_factory=list)
    out_year: int | None = None   # the year the power was eliminated
    winner: bool = False


def colour_of(view: GameView, power: str) -> str:
    info = view.variant.rules.board.powers.get(power)
    return info.colour if info else "#888"


def centre_rows(view: GameView) -> tuple[list[int], list[CentreRow]]:
    """The supply-centre table: years across, one row per power, eliminations marked."""
    variant = view.variant
    table = centre_table(view)
    last_of_year: dict[int, RecordView] = {}
    for r in view.records:
        last_of_year[r.phase.year] = r
    winners = set(view.result.powers) if view.result else set()
    rows = []
    for power in variant.rules.powers():
        row = CentreRow(power, colour_of(view, power), [view.seating.players_text(power) or "—"],
                        winner=power in winners)
        previous = len(variant.rules.home_centres(power))
        for year, counts in table:
            n = counts.get(power, 0)
            units = last_of_year[year].after.units_of(power, variant.rules.unit_kinds)
            if row.out_year is not None:
                row.cells.append(Cell(year, "–", "out"))
                continue
            css = "gain" if n > previous else "loss" if n < previous else ""
            if n == 0 and not units:
                row.out_year = year
                css = "loss out-now"
            row.cells.append(Cell(year, str(n), css))
            previous = n
        if row.winner and row.cells and view.result and view.result.kind == "solo":
            row.cells[-1].css += " win"
        rows.append(row)
    return [y for y, _ in table], rows


def centre_moves(record: RecordView) -> list[tuple[str, list[str], list[str]]]:
    """[(power, centres gained, centres lost)] for the record's centre changes, by power."""
    gained: dict[str, list[str]] = {}
    lost: dict[str, list[str]] = {}
    for centre, old, new in record.centre_changes:
        gained.setdefault(new, []).append(centre)
        if old:
            lost.setdefault(old, []).append(centre)
    powers = sorted(set(gained) | set(lost))
    return [(p, gained.get(p, []), lost.get(p, [])) for p in powers]


# ----------------------------------------------------------------------------- orders

@dataclass(frozen=True)
class SeatRow:
    """A player of a game whose players are apart from its powers: her powers, centres by year."""

    names: list[str]
    powers: list[tuple[str, str]]        # (power, colour)
    cells: list[tuple[str, ...]] = field(default_factory=list)  # per year: the count of each power, in order


def seat_rows(view: GameView, rows: list[CentreRow]) -> list[SeatRow]:
    """Each seat with the powers it ever controlled and their centres year by year (one count per power),
    from the centre table's `rows`; [] when each power is its own seat."""
    seating = view.seating
    if seating.standard:
        return []
    by_power = {r.power: r for r in rows}
    out = []
    for seat in seating.seats:
        powers = [p for p in seating.ever_controlled(seat.key) if p in by_power]
        cells = [tuple(c[i].text for c in (by_power[p].cells for p in powers))
                 for i in range(len(by_power[powers[0]].cells))] if powers else []
        out.append(SeatRow(seat.names(), [(p, colour_of(view, p)) for p in powers], cells))
    return out


def ordering_powers(view: GameView, record: RecordView) -> list[str]:
    """The powers that had something to order (or sent orders) in `record`, in board order."""
    return [p for p in view.variant.rules.powers()
            if record.results_of(p) or p in record.orders or p in record.nmr or p in record.adjustments]


# ----------------------------------------------------------------------------- history

def season_name(phase: Phase) -> str:
    """'Spring', 'Fall retreats', 'Winter': the phase within its year."""
    return phase.season.capitalize() + (" retreats" if phase.kind == RETREATS else "")


def phase_title(phase: Phase) -> str:
    """'Spring 1901', 'Fall 1901 retreats', 'Winter 1901 adjustments'."""
    return phase.name + (" adjustments" if phase.kind == ADJUSTMENTS else "")


def kind_line(phase: Phase) -> str:
    return {MOVEMENT: "Movement", RETREATS: "Retreats", ADJUSTMENTS: "Builds and removals"}[phase.kind]

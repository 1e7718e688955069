"""What the pages show, as plain data computed from views of a History.

Nothing here knows about HTML or MkDocs: each function takes a History and the views
(`dipgen.visibility.view_record`) of its records for one visibility level, and returns
values the templates lay out. The tests compare these with the History itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.results import Kind
from ..records import History, PhaseRecord
from ..phase import ADJUSTMENTS, MOVEMENT, RETREATS, Phase
from ..timeline import timeline
from ..written import WrittenRow, written_orders  # noqa: F401  (the pages' view of several writers)


def views(history: History, level: str) -> list[PhaseRecord]:
    """The records `level` is shown (`dipgen.timeline`), each as `level` may see it, in order."""
    return list(timeline(history, level).records)


def and_list(items: list[str]) -> str:
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ----------------------------------------------------------------------------- status

@dataclass(frozen=True)
class Status:
    """Where a game stands: ``kind`` is new, running, solo, draw, concession or abandoned."""

    kind: str
    label: str           # short, for the archive: 'Won by Turkey', 'Running: Fall 1903'
    line: str            # a sentence for the game page
    powers: tuple[str, ...] = ()
    sort_key: str = ""


def game_status(history: History, level: str = "public") -> Status:
    result = history.result
    if result is None:
        tl = timeline(history, level)
        nxt = tl.due
        if not history.records:
            return Status("new", "Not started", f"The game has not started: {nxt.name} orders are due.", (), "0")
        if nxt is None:
            season = history.next_phase.season_name  # that someone must retreat is not this level's to know
            return Status("running", f"Running: {season}",
                          f"The game is running: the {season} turn is being completed.", (), "1")
        if tl.fixed:  # what is settled in private between two public turns may not show
            return Status("running", f"Running: {nxt.name}", f"The game is running: {nxt.name} is the next turn.",
                          (), "1")
        what = f"{nxt.name} adjustments" if nxt.kind == ADJUSTMENTS else nxt.name
        return Status("running", f"Running: {what}", f"The game is running: {what} orders are due.", (), "1")
    powers = result.powers
    if result.kind == "solo":
        label = f"Won by {and_list(list(powers))}"
    elif result.kind == "concession":
        label = f"Conceded to {powers[0]}"
    elif result.kind == "draw":
        label = f"Drawn between {and_list(list(powers))}"
    else:
        label = "Abandoned"
    return Status(result.kind, label, history.result_line(), powers, "2" + result.kind)


def years_span(history: History, level: str = "gm") -> tuple[int, int] | None:
    """The first and last year of the phases `level` is shown."""
    records = timeline(history, level).records
    if not records:
        return None
    return records[0].phase.year, records[-1].phase.year


# ----------------------------------------------------------------------------- centres

def centre_table(history: History, records: list[PhaseRecord],
                 fixed: bool = False) -> list[tuple[int, dict[str, int]]]:
    """Centre counts by year, as `History.centre_table` counts them, from the given views:
    the position after each Fall turn (its retreats included), or after the year's last record
    if it ended sooner. On a fixed calendar (`dipgen.timeline`) only a published Winter
    tells a year's totals."""
    powers = history.game.variant.powers()
    by_year: dict[int, PhaseRecord] = {}
    for r in records:
        year = r.phase.year
        if fixed and r.phase.season_index != 2:
            continue
        if r.phase.season_index >= 1 or year not in by_year:
            by_year[year] = r
    return [(y, r.after.centre_counts(powers)) for y, r in sorted(by_year.items())]


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


def centre_rows(history: History, records: list[PhaseRecord],
                fixed: bool = False) -> tuple[list[int], list[CentreRow]]:
    """The supply-centre table: years across, one row per power, eliminations marked.
    `records`: the views of the records at one level (the totals are read from them)."""
    game = history.game
    board = game.variant.board
    table = centre_table(history, records, fixed)
    last_of_year: dict[int, PhaseRecord] = {}
    for r in records:
        last_of_year[r.phase.year] = r
    winners = set(history.result.powers) if history.result else set()
    rows = []
    for power in game.variant.powers():
        info = board.powers.get(power)
        row = CentreRow(power, info.colour if info else "#888", [history.seating.players_text(power) or "—"],
                        winner=power in winners)
        previous = len(game.variant.home_centres(power))
        for year, counts in table:
            n = counts.get(power, 0)
            units = last_of_year[year].after.units_of(power, game.variant.unit_kinds)
            if row.out_year is not None:
                row.cells.append(Cell(year, "–", "out"))
                continue
            css = "gain" if n > previous else "loss" if n < previous else ""
            if n == 0 and not units:
                row.out_year = year
                css = "loss out-now"
            row.cells.append(Cell(year, str(n), css))
            previous = n
        if row.winner and row.cells and history.result and history.result.kind == "solo":
            row.cells[-1].css += " win"
        rows.append(row)
    return [y for y, _ in table], rows


def centre_moves(record: PhaseRecord) -> list[tuple[str, list[str], list[str]]]:
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
class OrderItem:
    """One line of a power's orders: the classic text, its result words (the variant's,
    `Variant.result_words`), whether the rules
    supplied it (no order received), and whether it succeeded."""

    text: str
    tags: tuple[str, ...]
    default: bool
    succeeded: bool
    kinds: frozenset[Kind] = frozenset()  # the kinds of its notes, for what depends on them

    def classic(self, kind: str = MOVEMENT) -> str:
        """The line as `dipgen.report.order_lines` prints it for a phase of `kind`."""
        tags = f" (*{', '.join(self.tags)}*)" if self.tags else ""
        if self.default and kind == MOVEMENT:
            return f"{self.text} (no order){tags}"
        if self.default and "no order" not in self.text + tags:
            return f"{self.text}{tags} (no order)"
        return self.text + tags


def order_items(history: History, record: PhaseRecord, power: str) -> list[OrderItem]:
    """The orders of `power` in `record` (a view) with their results, in the report's order."""
    variant = history.game.variant
    out = []
    for r in record.results_of(power):
        out.append(OrderItem(r.order_text(variant.board), variant.result_words(r), r.default, r.succeeded,
                             frozenset(n.kind for n in r.notes)))
    return out


@dataclass(frozen=True)
class SeatRow:
    """A player of a game whose players are apart from its powers: her powers, centres by year."""

    names: list[str]
    powers: list[tuple[str, str]]        # (power, colour)
    cells: list[tuple[str, ...]] = field(default_factory=list)  # per year: the count of each power, in order


def seat_rows(history: History, rows: list[CentreRow]) -> list[SeatRow]:
    """Each seat with the powers it ever controlled and their centres year by year (one count per power),
    from the centre table's `rows` (as the level sees them); [] when each power is its own seat."""
    seating = history.seating
    if seating.standard:
        return []
    board = history.game.variant.board
    by_power = {r.power: r for r in rows}
    out = []
    for seat in seating.seats:
        powers = [p for p in seating.ever_controlled(seat.key) if p in by_power]
        cells = [tuple(c[i].text for c in (by_power[p].cells for p in powers))
                 for i in range(len(by_power[powers[0]].cells))] if powers else []
        out.append(SeatRow(seat.names(), [(p, board.powers[p].colour) for p in powers], cells))
    return out


def ordering_powers(history: History, record: PhaseRecord) -> list[str]:
    """The powers that had something to order (or sent orders) in `record`, in board order."""
    return [p for p in history.game.variant.powers()
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

"""What a season page shows, as typed values made from one level's view of a game: each power's
orders with their results, the units dislodged, the retreats folded into a season, the centres
that changed hands, and what the pager says after the last season. The page (`pages.season_page`)
adds the links and the maps, and the template lays these out.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipgen.core.phase import ADJUSTMENTS, MOVEMENT
from dipgen.present.lines import and_list, order_items
from dipgen.present.site.model import centre_moves, colour_of, ordering_powers
from dipgen.present.written import WrittenRow, written_orders
from dipgen.view import GameView, RecordView


@dataclass(frozen=True)
class OrderRow:
    """One order with its result: the text, the result words, where the "(no order)" mark goes
    (`dipgen.present.lines`), and the style of its line (carried out, failed, supplied by the rules)."""

    text: str
    tags: tuple[str, ...]
    no_order_first: bool
    no_order_last: bool
    css: str


@dataclass(frozen=True)
class PowerOrders:
    """A power's part of the orders section."""

    power: str
    colour: str
    player: str
    orders: tuple[OrderRow, ...]
    nmr: bool
    adjust: str       # the builds or removals it was due ('' for none)
    nmr_text: str     # what the page says of a power that sent nothing ('' otherwise)
    writers: tuple[str, ...]
    written: tuple[WrittenRow, ...]


@dataclass(frozen=True)
class DislodgedRow:
    power: str
    colour: str
    unit: str
    attacker: str     # where the attack came from ('' where the level may not know)
    by: str           # the attacker's power ('' likewise)
    fate_known: bool
    retreats: str     # where it may retreat, said in words ('' for nowhere or not known)


@dataclass(frozen=True)
class RetreatRow:
    power: str
    colour: str
    text: str
    tags: tuple[str, ...]


@dataclass(frozen=True)
class CentreMove:
    power: str
    colour: str
    gained: str
    lost: str


def _css(default: bool, succeeded: bool, tags: tuple[str, ...]) -> str:
    return "dg-default" if default else ("dg-fail" if not succeeded or tags else "dg-ok")


def power_orders(view: GameView, record: RecordView) -> list[PowerOrders]:
    """Every power that had something to order in `record`, with its orders and their results."""
    variant, phase = view.variant, record.phase
    out = []
    for p in ordering_powers(view, record):
        rows = tuple(OrderRow(o.text, o.tags, o.mark == "before", o.mark == "after",
                              _css(o.default, o.succeeded, o.tags)) for o in order_items(view, record, p))
        due = record.adjustments.get(p, 0)
        nmr_text = ""
        if p in record.nmr and not rows:
            nmr_text = "No orders received." + (" Builds waived." if due > 0 else "")
        writers, written = written_orders(view, record, p)
        out.append(PowerOrders(p, colour_of(view, p), view.player(p, phase), rows, p in record.nmr,
                               variant.words.adjustment_text(due) if due else "", nmr_text,
                               tuple(writers), tuple(written)))
    return out


def dislodged_rows(view: GameView, record: RecordView) -> list[DislodgedRow]:
    """The units dislodged (and destroyed) in `record`, with what the level knows of each."""
    board = view.variant.rules.board
    out = []
    for d in (*record.dislodged, *record.destroyed):
        src = d.attacker_from if isinstance(d.attacker_from, str) else None  # None: the level may not know
        by = d.by_power if src is not None and isinstance(d.by_power, str) else ""
        retreats = d.retreats if isinstance(d.retreats, tuple) else ()
        out.append(DislodgedRow(d.unit.power, colour_of(view, d.unit.power), d.unit.describe(board),
                                board.format_loc(src) if src is not None else "", by,
                                d.fate_known,
                                and_list([board.format_loc(x) for x in retreats]).replace(" and ", " or ")))
    return out


def retreat_rows(view: GameView, record: RecordView) -> list[RetreatRow]:
    """The retreats a season folds in (`RecordView.retreat_results`), as the level knows them."""
    board, words = view.variant.rules.board, view.variant.words
    return [RetreatRow(r.power, colour_of(view, r.power), r.order_text(board), words.result_words(r))
            for r in record.retreat_results]


def centre_move_rows(view: GameView, record: RecordView) -> list[CentreMove]:
    """The centres each power gained and lost with `record`."""
    board = view.variant.rules.board
    return [CentreMove(p, colour_of(view, p), ", ".join(board.format_loc(c) for c in gained),
                       ", ".join(board.format_loc(c) for c in lost))
            for p, gained, lost in centre_moves(record)]


def orders_heading(record: RecordView) -> str:
    return {MOVEMENT: "Orders", ADJUSTMENTS: "Builds and removals"}.get(record.kind, "Retreats")


def last_label(view: GameView, index: int) -> str:
    """What the pager says after the season at `index` when it is the last one shown: the game is
    over, or what the game waits for ('' before the last season)."""
    if index + 1 < len(view.records):
        return ""
    if view.finished:
        return "Game over"
    waits, season = view.due, view.season
    if view.fixed and waits:
        return f"{waits.name}: the next turn"
    if waits:
        return f"{view.due_title()}: orders due"
    return f"{season.season_name if season else 'This season'}: in play"


__all__ = ["CentreMove", "DislodgedRow", "OrderRow", "PowerOrders", "RetreatRow", "centre_move_rows",
           "dislodged_rows", "last_label", "orders_heading", "power_orders", "retreat_rows"]

"""Orders that several people wrote for one power (a variant whose `order_form` is not
``power``: Double Diplomacy's two captains, the TIR game's two players), laid side by side
with the order that was carried out. Pure: the pages and the text reports both read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dipgen.core.results import Kind, OrderResult
from dipgen.core.orders import Build
from dipgen.view import GameView, RecordView


@dataclass(frozen=True)
class WrittenRow:
    """One unit (or build) of a power whose orders several players wrote: what each wrote
    ('' for nothing), what was carried out with its result words, and whether they differed."""

    given: tuple[str, ...]
    executed: str
    tags: tuple[str, ...]
    differ: bool
    succeeded: bool = True
    result: OrderResult | None = field(default=None, compare=False)  # the carried-out order's result, for its reason


def written_orders(view: GameView, record: RecordView, power: str) -> tuple[list[str], list[WrittenRow]]:
    """Where a variant takes each power's orders from several writers (`Variant.order_form` not
    ``power``): the writers of `power` (its controllers then, and whoever wrote) and, per unit,
    their orders side by side with the order carried out. ([], []) in the standard form."""
    variant = view.variant
    board = variant.rules.board
    if variant.files.order_form == "power":
        return [], []
    lines = record.orders.get(power, ())
    seating = view.seating
    writers = [seat.name(record.phase) for k in seating.controllers(power, record.phase)
               if (seat := seating.seat(k)) is not None] if variant.files.order_form == "power/writer" else []
    writers += [w for w in dict.fromkeys(ol.writer for ol in lines) if w not in writers]
    if not writers:
        return [], []
    labels = [_label(seating, w, record.phase) for w in writers]

    def key(order) -> str:
        unit = getattr(order, "unit", None)
        return unit.province if unit is not None and not isinstance(order, Build) else order.format(board)

    given: dict[str, dict[str, str]] = {}
    for ol in lines:
        given.setdefault(key(ol.order), {})[ol.writer] = ol.order.format(board)
    rows, seen = [], set()
    ordered = {r.unit for r in record.results_of(power) if r.unit is not None and not r.default}
    for r in record.results_of(power):
        if r.order is None or r.default and r.unit in ordered:
            continue  # the hold of a unit whose order failed: its row is that order's
        k = key(r.order)  # a build by its order, as the writers gave it; any other by its unit
        seen.add(k)
        mine = given.get(k, {})
        texts = tuple(mine.get(w, "") for w in writers)
        changed = any(n.kind is Kind.INTAKE for n in r.notes)  # what the intake step decided, not the spelling
        rows.append(WrittenRow(texts, r.order_text(board), variant.words.result_words(r), changed, r.succeeded, r))
    for k, mine in given.items():  # orders that were not carried out at all (a build only one captain gave)
        if k not in seen:
            texts = tuple(mine.get(w, "") for w in writers)
            rows.append(WrittenRow(texts, "", (), len(set(texts)) > 1, False))
    return labels, rows


def _label(seating, writer: str, phase) -> str:
    """A writer as the columns name her: a seat keyed by its power also names its player (``France (Alice)``)."""
    seat = seating.seat(writer)
    name = seat.name(phase) if seat is not None else ""
    return f"{writer} ({name})" if name and name != writer else writer

"""Orders written as people write them: each player has a writing habit (`Script.styles`)."""

from __future__ import annotations

import random

from dipgen.core.board import province_of
from dipgen.core.orders import (Build, Convoy, Disband, for_phase, Hold, Move, Order, parse_order, Remove, Retreat,
                                Support, UnitRef, Waive)
from dipgen.core.position import Unit

from .board import BOARD, full_name, reaches


def write_order(order: Order, style: str, rng: random.Random) -> str:
    """The order as a player with writing habit `style` might send it."""
    canon = order.format(BOARD)
    if style == "canonical" or isinstance(order, Waive):
        text = canon
    elif style == "compact":
        text = canon.replace(" - ", "-")
    elif style == "lower":
        text = canon.lower()
    elif style == "names":  # kind letters, full province names
        text = _names(order, lambda loc: full_name(loc), lambda k: k)
    elif style == "wordy":  # Army/Fleet, full names, words for the verbs
        text = _names(order, lambda loc: full_name(loc), lambda k: {"A": "Army", "F": "Fleet"}[k], wordy=True)
    elif style == "arrows":
        text = canon.replace(" - ", " -> ")
    else:
        raise ValueError(style)
    if (isinstance(order, Move) and not reaches_loc(order.unit, order.dest)
            and style in ("canonical", "compact", "lower")):
        r = rng.random()
        if r < 0.3:
            text += " via convoy" if style != "lower" else " via convoy"
    return text


def reaches_loc(ref: UnitRef, dest: str) -> bool:
    return reaches(Unit("?", ref.kind or "A", ref.loc), province_of(dest))


def _names(order: Order, loc, kind, wordy: bool = False) -> str:
    def unit(ref: UnitRef) -> str:
        return f"{kind(ref.kind)} {loc(ref.loc)}"
    arrow = " -> " if wordy else " - "
    if isinstance(order, Hold):
        return f"{unit(order.unit)}{' holds' if wordy else ' H'}"
    if isinstance(order, Move):
        return f"{unit(order.unit)}{arrow}{loc(order.dest)}"
    if isinstance(order, Support):
        s = f"{unit(order.unit)} {'supports' if wordy else 'S'} {unit(order.target)}"
        return s + (f"{arrow}{loc(order.dest)}" if order.dest else "")
    if isinstance(order, Convoy):
        return f"{unit(order.unit)} {'convoys' if wordy else 'C'} {unit(order.target)}{arrow}{loc(order.dest)}"
    if isinstance(order, Retreat):
        return f"{unit(order.unit)} {'retreats' if wordy else 'R'} {loc(order.dest)}" if not wordy else \
            f"{unit(order.unit)} R {loc(order.dest)}"
    if isinstance(order, Disband):
        return f"{unit(order.unit)} disbands" if wordy else f"{unit(order.unit)} disband"
    if isinstance(order, Build):
        return f"{'Build' if wordy else 'Build'} {unit(order.unit)}"
    if isinstance(order, Remove):
        return f"{'Disband' if wordy else 'Remove'} {unit(order.unit)}"
    return order.format(BOARD)


def _same(a: Order, b: Order) -> bool:
    if isinstance(a, Move) and isinstance(b, Move):
        return a.unit == b.unit and a.dest == b.dest
    return a == b


def written(order: Order, style: str, kind: str, rng: random.Random) -> str:
    """Write `order` in `style`; fall back to the canonical form if dipgen would read it otherwise."""
    canon = order.format(BOARD)
    assert _same(for_phase(parse_order(BOARD, canon), kind), order), canon
    text = write_order(order, style, rng)
    try:
        if _same(for_phase(parse_order(BOARD, text), kind), order):
            return text
    except ValueError:
        pass
    return canon


"""An order as the GM wrote it in a phase file: a leaf value, read by the file reader, the
variants' intake step, the replay and the pages alike."""

from __future__ import annotations

from dataclasses import dataclass

from dipgen.core.orders import Order


@dataclass(frozen=True)
class OrderLine:
    """One order as the GM wrote it: the power whose unit it orders, the text, the parsed order,
    where it stands, and who wrote it (`writer`: the power itself in the standard game; a player
    where the variant takes orders per player, `Variant.order_form`)."""

    power: str
    text: str
    order: Order
    file: str
    line: int | None
    writer: str = ""

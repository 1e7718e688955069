"""The lines every output prints alike: a power's orders with their results, and the one rule
for the "(no order)" mark, which the season page, its search entry and the report a GM
e-mails (`dipgen adjudicate`) all read; and a list said in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipgen.core.phase import MOVEMENT
from dipgen.core.results import Kind
from dipgen.view import GameView, RecordView

NO_ORDER = "(no order)"


def and_list(items: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class OrderItem:
    """One line of a power's orders: the classic text, its result words (the variant's,
    `Words.result_words`), whether the rules supplied it (no order received), whether it
    succeeded, and where the "(no order)" mark goes (`mark`)."""

    text: str
    tags: tuple[str, ...]
    default: bool
    succeeded: bool
    kinds: frozenset[Kind] = frozenset()  # the kinds of its notes, for what depends on them
    #: where the "(no order)" mark goes: "before" the result words (a unit that held for want of an
    #: order), "after" them (a retreat or adjustment the rules supplied), or "" (none: an order
    #: given, or a line that already says why, such as civil disorder)
    mark: str = ""

    def classic(self) -> str:
        """The line as the report prints it: ``A Par H (no order) (*dislodged*)``."""
        tags = f" (*{', '.join(self.tags)}*)" if self.tags else ""
        if self.mark == "before":
            return f"{self.text} {NO_ORDER}{tags}"
        if self.mark == "after":
            return f"{self.text}{tags} {NO_ORDER}"
        return self.text + tags


def _mark(default: bool, kind: str, text: str, tags: tuple[str, ...], kinds: frozenset[Kind]) -> str:
    if not default:
        return ""
    if kind == MOVEMENT:
        return "before"
    said = "no order" in text + " ".join(tags) or Kind.CIVIL_DISORDER in kinds
    return "" if said else "after"


def order_items(view: GameView, record: RecordView, power: str) -> list[OrderItem]:
    """The orders of `power` in `record` with their results, in the report's order."""
    variant = view.variant
    items = []
    for r in record.results_of(power):
        text, tags, kinds = (r.order_text(variant.rules.board), variant.words.result_words(r),
                             frozenset(n.kind for n in r.notes))
        items.append(OrderItem(text, tags, r.default, r.succeeded, kinds,
                               _mark(r.default, record.kind, text, tags, kinds)))
    return items


__all__ = ["NO_ORDER", "OrderItem", "and_list", "order_items"]

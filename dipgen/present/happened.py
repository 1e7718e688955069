"""What happened in one season, in a few lines: what a player wants to know before the details.

Read from a `RecordView` and nothing else, so that a hidden game's summary says exactly what
the level's view holds: centres that changed hands, units dislodged (and by whom, where the
level knows it) or destroyed, units built and removed, powers eliminated. The season page
shows it at the top; the feed entry of the season is made of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from dipgen.core.orders import Build, Downgrade, Remove, Retreat, Upgrade
from dipgen.core.phase import ADJUSTMENTS
from dipgen.core.position import Unit
from dipgen.core.results import Kind, OrderResult
from dipgen.view.types import UNKNOWN, GameView, PositionView


@dataclass(frozen=True)
class Happening:
    """One line of the summary: what kind of event (`what`, for styling) and its words."""

    what: str   # 'centres', 'dislodged', 'destroyed', 'built', 'removed', 'retreated', 'eliminated'
    text: str


def _names(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _present(position: PositionView, power: str) -> bool | None:
    """Is `power` still in the game in `position` (None: the level cannot tell)?"""
    if position.totals is UNKNOWN:
        return None
    if position.totals.get(power, 0):
        return True
    if not position.whole:
        return None
    return any(u.power == power for u in position.units)


def what_happened(view: GameView, index: int) -> list[Happening]:
    """The events of the view's record at `index` as the view knows them, most telling first
    ([] when nothing happened that the level may know)."""
    board = view.variant.rules.board
    record = view.records[index]
    out: list[Happening] = []
    for power in view.variant.rules.powers():
        gained = [board.full_name(c) for c, _, new in record.centre_changes if new == power]
        if gained:
            out.append(Happening("centres", f"{power} took {_names(gained)}."))
    for power in view.variant.rules.powers():
        lost = [board.full_name(c) for c, old, new in record.centre_changes if old == power and new != power]
        if lost:
            out.append(Happening("centres", f"{power} lost {_names(lost)}."))
    if not record.centre_changes:
        out.extend(_totals(view, index))
    for d in record.dislodged:
        by = "" if d.by_power is UNKNOWN else f" by {d.by_power}"
        frm = "" if d.attacker_from is UNKNOWN else f" from {board.full_name(d.attacker_from)}"
        fate = " and destroyed, with nowhere to retreat" if d.retreats == () else ""
        out.append(Happening("destroyed" if fate else "dislodged",
                             f"{d.unit.power}'s {_unit(view, d.unit)} was dislodged{by}{frm}{fate}."))
    for d in record.destroyed:
        if d in record.dislodged:
            continue
        by = "" if d.by_power is UNKNOWN else f" by {d.by_power}"
        frm = "" if d.attacker_from is UNKNOWN else f" from {board.full_name(d.attacker_from)}"
        out.append(Happening("destroyed", f"{d.unit.power}'s {_unit(view, d.unit)} was destroyed{by}{frm}, "
                                          "with nowhere to retreat."))
    out.extend(_results(view, record.retreat_results))
    if record.kind == ADJUSTMENTS:
        out.extend(_results(view, record.results))
    for power in view.variant.rules.powers():
        if _present(record.before, power) and _present(record.after, power) is False:
            out.append(Happening("eliminated", f"{power} was eliminated."))
    return out


def _totals(view: GameView, index: int) -> list[Happening]:
    """Where the level knows only the centre totals at each year's end (a hidden game), how each
    power's total changed since the last record that told them (the start, for the first)."""
    record = view.records[index]
    after = record.after.totals
    if not record.tells_totals or after is UNKNOWN:
        return []
    told = [r.after.totals for r in view.records[:index] if r.tells_totals]
    before = told[-1] if told else view.records[0].before.totals
    if before is UNKNOWN:
        return []
    out = []
    for power in view.variant.rules.powers():
        n = after.get(power, 0) - before.get(power, 0)
        if n:
            word = "gained" if n > 0 else "lost"
            out.append(Happening("centres", f"{power} {word} {abs(n)} centre{'s' if abs(n) != 1 else ''}."))
    return out


def _unit(view: GameView, unit: Unit, article: bool = False) -> str:
    kind = view.variant.rules.unit_kinds.get(unit.kind)
    name = kind.name if kind else unit.kind
    a = f"{kind.article} " if article and kind else ""
    return f"{a}{name} in {view.variant.rules.board.full_name(unit.loc)}"


def _results(view: GameView, results: tuple[OrderResult, ...]) -> list[Happening]:
    """Builds and removals carried out (one line per power), retreats and disbands (one per unit)."""
    board = view.variant.rules.board
    built: dict[str, list[str]] = {}
    removed: dict[str, list[str]] = {}
    out: list[Happening] = []
    for r in results:
        order, unit = r.order, r.unit
        if unit is None:
            continue
        if isinstance(order, Build) and r.succeeded:
            built.setdefault(r.power, []).append(_unit(view, unit, article=True))
        elif isinstance(order, Remove) and r.succeeded:
            removed.setdefault(r.power, []).append(_unit(view, unit))
        elif isinstance(order, (Upgrade, Downgrade)) and r.succeeded:
            how = "upgraded" if isinstance(order, Upgrade) else "downgraded"
            out.append(Happening("changed", f"{r.power} {how} its {_unit(view, unit)}."))
        elif isinstance(order, Retreat) and r.succeeded:
            out.append(Happening("retreated",
                                 f"{r.power}'s {_unit(view, unit)} retreated to {board.full_name(order.dest)}."))
        elif any(n.kind is Kind.DISBANDED for n in r.notes):
            out.append(Happening("removed", f"{r.power}'s {_unit(view, unit)} disbanded."))
    lines = [Happening("built", f"{p} built {_names(items)}.") for p, items in built.items()]
    lines += [Happening("removed", f"{p} removed its {_names(items)}.") for p, items in removed.items()]
    return lines + out

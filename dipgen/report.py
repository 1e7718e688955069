"""Phase reports in plain text, as a GM sends them by e-mail.

Every report is made from a view (`dipgen.visibility`): the game report from the public
view of a hidden game (everything, in an open game), a power's private report from that
power's view, with the news the GM owes it.
"""

from __future__ import annotations

from .records import History, PhaseRecord
from .phase import ADJUSTMENTS, MOVEMENT, RETREATS
from .visibility import GM, PUBLIC, view_record


def _and(items: list[str]) -> str:
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def power_heading(history: History, power: str, record: PhaseRecord) -> str:
    player = history.game.player(power, record.phase)
    return f"{power} ({player})" if player else power


def order_lines(history: History, record: PhaseRecord, power: str) -> list[str]:
    """The classic lines for one power: its orders with results, then units that had none.
    `record` should be a view (see `dipgen.visibility.view_record`)."""
    variant = history.game.variant
    out = []
    for r in record.results_of(power):
        text = variant.format_result(r)
        if r.default and record.kind == MOVEMENT:
            words = variant.result_words(r)
            text = f"{r.order_text(variant.board)} (no order)" + (f" (*{', '.join(words)}*)" if words else "")
        out.append(text)
    return out


def reasons(history: History, record: PhaseRecord, power: str) -> list[str]:
    """Beside each of `order_lines`: why the order failed, in words ('' where it did not).
    `record` should be a view, so that only units the reader may know are named."""
    board = history.game.variant.board
    before = record.before
    units = {u.province: u for u in before.units} | {d.unit.province: d.unit for d in before.dislodged}
    return [r.explain(board, units.get) if r.notes else ""
            for r in record.results_of(power)]


def default_level(history: History) -> str:
    """The level of the game report: the public's in a hidden game that is not yet revealed
    (over, or ``reveal: now``), everything otherwise."""
    game = history.game
    if game.variant.hidden and not history.finished and game.reveal != "now":
        return PUBLIC
    return GM


def phase_report(history: History, record: PhaseRecord, power: str | None = None, level: str | None = None) -> str:
    """The report of one phase: the game report, with `power` that power's private report,
    or with `level` the report at that level (``gm``: everything)."""
    game, board = history.game, history.game.variant.board
    level = power or level or default_level(history)
    seen = view_record(history, record, level)
    title = f"{game.title}: {record.phase.name}" + (" adjustments" if record.kind == ADJUSTMENTS else "")
    if power:
        title += f", for {power}"
    elif level == GM and game.variant.hidden:
        title += ", the GM's full report"
    lines = [title, "=" * len(title), ""]
    for p in game.variant.powers():
        results = order_lines(history, seen, p)
        nmr = p in seen.nmr
        if not results and not nmr:
            continue
        lines.append(power_heading(history, p, record) + ":" + ("  no orders received (NMR)" if nmr else ""))
        width = max((len(t) for t in results), default=0)
        for text, why in zip(results, reasons(history, seen, p)):
            lines.append(f"  {text:{width}}  -- {why}" if why else f"  {text}")
        lines.append("")
    if seen.dislodged or seen.destroyed:
        lines.append("Dislodged:")
        for d in seen.dislodged:
            where = f" (attacked from {board.format_loc(d.attacker_from)})" if d.attacker_from else ""
            options = (f" may retreat to {_and([board.format_loc(x) for x in d.retreats])} or disband"
                       if d.retreats else "")
            lines.append(f"  {d.unit.power} {d.unit.describe(board)}{where}{options}.")
        for d in seen.destroyed:
            lines.append(f"  {d.unit.power} {d.unit.describe(board)} has nowhere to retreat and is destroyed.")
        lines.append("")
    if power:
        lines.extend(private_news(history, record, seen, power))
    if seen.centre_changes:
        lines.append("Supply centres changing hands:")
        for c, old, new in seen.centre_changes:
            lines.append(f"  {board.provinces[c].name}: {new}" + (f" (from {old})" if old else ""))
        lines.append("")
    lines.extend(centre_summary(history, record, seen, power))
    if record.press:
        lines += ["Press:", *("  " + x for x in record.press.strip().splitlines()), ""]
    if record.notes:
        lines += ["GM's notes:", *("  " + x for x in record.notes.strip().splitlines()), ""]
    lines.extend(next_steps(history, record, level))
    return "\n".join(lines).rstrip() + "\n"


def private_news(history: History, record: PhaseRecord, seen: PhaseRecord, power: str) -> list[str]:
    """What the GM tells one power privately besides what its view shows above (the retreats its
    attacks caused are among the results): its units, foreign units in its centres, the fate
    of units it dislodged, and (before the winter) the centres it owns."""
    board = history.game.variant.board
    lines = []
    kinds = history.game.variant.unit_kinds
    fighting = [u for u in seen.after.units if kinds[u.kind].fights]
    mine = sorted((u for u in fighting if u.power == power), key=lambda u: u.loc)
    lines.append(f"Your units: {', '.join(u.describe(board) for u in mine) or 'none'}.")
    for kind in kinds.values():  # units outside combat (spies) are listed apart, kind by kind
        if kind.fights or not any(u.kind == kind.letter for u in seen.before.units + seen.after.units):
            continue
        mine = sorted((u for u in seen.after.units if u.power == power and u.kind == kind.letter), key=lambda u: u.loc)
        lines.append(f"Your {kind.names}: {', '.join(u.describe(board) for u in mine) or 'none'}.")
    foreign = sorted((u for u in fighting if u.power != power), key=lambda u: (u.power, u.loc))
    if foreign and history.game.variant.hidden:
        lines.append("Foreign units in sight: " + ", ".join(f"{u.power} {u.describe(board)}" for u in foreign) + ".")
    intruders = [u for u in foreign if seen.before.owners.get(u.province) == power]
    for u in intruders:
        lines.append(f"{u.power} {u.describe(board)} stands in your centre {board.provinces[u.province].name}.")
    for d in seen.destroyed:
        if d.unit.power != power:
            lines.append(f"{d.unit.power} {d.unit.describe(board)}, dislodged by you, had nowhere to go and is destroyed.")
    if seen.after.phase.kind == ADJUSTMENTS or record.kind == ADJUSTMENTS:
        own = [board.format_loc(c) for c, p in sorted(seen.after.owners.items()) if p == power]
        lines.append(f"Your supply centres: {', '.join(own) or 'none'}.")
    lines.append("")
    return lines


def centre_summary(history: History, record: PhaseRecord, seen: PhaseRecord, power: str | None) -> list[str]:
    """Centre totals when a year's Fall is over (and owners, where the view knows them)."""
    if not record.centre_changes and record.kind != ADJUSTMENTS and not (
            record.phase.season_index == 1 and record.after.phase.season_index == 2):
        return []
    variant = history.game.variant
    after = seen.after
    counts = after.centre_counts(variant.powers())
    lines = ["Supply centres:"]
    for p in variant.powers():
        if counts.get(p, 0) == 0 and not after.units_of(p, variant.unit_kinds) and after.counts is None:
            continue
        centres = after.centres_of(p)
        listing = f"  ({', '.join(variant.board.format_loc(c) for c in centres)})" if centres else ""
        k = len(after.units_of(p, variant.unit_kinds))
        units = f", {k:2} unit{'' if k == 1 else 's'}" if after.counts is None else ""
        n = counts.get(p, 0)
        lines.append(f"  {p:8} {n:2} centre{'' if n == 1 else 's'}{units}{listing}")
    lines.append("")
    return lines


def next_steps(history: History, record: PhaseRecord, level: str) -> list[str]:
    """What comes next, if this is the latest record."""
    if history.records and record is not history.records[-1]:
        return []
    if history.result is not None:
        return ["Game over: " + history.result_line(), ""]
    nxt = history.next_phase
    if nxt is None:
        return []
    lines = [f"Next: {nxt.name}" + (" adjustments" if nxt.kind == ADJUSTMENTS else "") + "."]
    variant = history.game.variant
    if nxt.kind == ADJUSTMENTS:
        for p, n in sorted(variant.adjustment_counts(history.position).items()):
            if level in (GM, p) or not variant.hidden:
                lines.append(f"  {p} " + (f"builds {n}" if n > 0 else f"removes {-n}"))
    elif nxt.kind == RETREATS:
        for d in history.position.dislodged:
            if level in (GM, d.unit.power) or not variant.hidden:
                lines.append(f"  {d.unit.power} retreats {d.unit.describe(variant.board)}")
    lines.append("")
    return lines

"""Phase reports in plain text, as a GM sends them by e-mail."""

from __future__ import annotations

from .history import History, PhaseRecord
from .phase import ADJUSTMENTS, MOVEMENT, RETREATS


def _and(items: list[str]) -> str:
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def power_heading(history: History, power: str, record: PhaseRecord) -> str:
    player = history.game.player(power, record.phase)
    return f"{power} ({player})" if player else power


def order_lines(history: History, record: PhaseRecord, power: str) -> list[str]:
    """The classic lines for one power: its orders with results, then units that had none."""
    board = history.game.variant.board
    out = []
    for r in record.results_of(power):
        text = r.format(board)
        if r.default and record.kind == MOVEMENT:
            text = f"{r.order_text(board)} (no order)" + (f" (*{', '.join(r.tags())}*)" if r.tags() else "")
        elif r.default:
            text += " (no order)" if "no order" not in text else ""
        out.append(text)
    return out


def phase_report(history: History, record: PhaseRecord, power: str | None = None) -> str:
    """The report of one phase. `power`: that power's private report (in open games, the same)."""
    game, board = history.game, history.game.variant.board
    title = f"{game.title}: {record.phase.name}" + {MOVEMENT: "", RETREATS: "", ADJUSTMENTS: " adjustments"}[record.kind]
    lines = [title, "=" * len(title), ""]
    powers = [p for p in game.variant.powers() if record.results_of(p) or p in record.orders]
    for p in powers:
        lines.append(power_heading(history, p, record) + ":" + ("  no orders received (NMR)" if p in record.nmr else ""))
        lines.extend("  " + t for t in order_lines(history, record, p))
        lines.append("")
    if record.dislodged or record.destroyed:
        lines.append("Dislodged:")
        for d in record.dislodged:
            where = _and([board.format_loc(x) for x in d.retreats])
            lines.append(f"  {d.unit.power} {d.unit.describe(board)} (attacked from {board.format_loc(d.attacker_from)})"
                         f" may retreat to {where} or disband.")
        for d in record.destroyed:
            lines.append(f"  {d.unit.power} {d.unit.describe(board)} (attacked from {board.format_loc(d.attacker_from)})"
                         " has nowhere to retreat and is destroyed.")
        lines.append("")
    if record.centre_changes:
        lines.append("Supply centres changing hands:")
        for c, old, new in record.centre_changes:
            lines.append(f"  {board.provinces[c].name}: {new}" + (f" (from {old})" if old else ""))
        lines.append("")
    lines.extend(centre_summary(history, record))
    if record.press:
        lines += ["Press:", *("  " + x for x in record.press.strip().splitlines()), ""]
    if record.notes:
        lines += ["GM's notes:", *("  " + x for x in record.notes.strip().splitlines()), ""]
    lines.extend(next_steps(history, record))
    return "\n".join(lines).rstrip() + "\n"


def centre_summary(history: History, record: PhaseRecord) -> list[str]:
    if not record.centre_changes and record.kind != ADJUSTMENTS and not (
            record.phase.season_index == 1 and record.after.phase.season_index == 2):
        return []
    variant = history.game.variant
    after = record.after
    counts = after.centre_counts(variant.powers())
    units = {p: len(after.units_of(p)) for p in variant.powers()}
    lines = ["Supply centres and units:"]
    for p in variant.powers():
        if counts.get(p, 0) == 0 and units[p] == 0:
            continue
        centres = ", ".join(variant.board.format_loc(c) for c in after.centres_of(p))
        lines.append(f"  {p:8} {counts.get(p, 0):2} centres, {units[p]:2} units  ({centres})")
    lines.append("")
    return lines


def next_steps(history: History, record: PhaseRecord) -> list[str]:
    """What comes next, if this is the latest record."""
    if history.records and record is not history.records[-1]:
        return []
    if history.result is not None:
        return ["Game over: " + history.result_line(), ""]
    nxt = history.next_phase
    if nxt is None:
        return []
    lines = [f"Next: {nxt.name}" + (" adjustments" if nxt.kind == ADJUSTMENTS else "") + "."]
    if nxt.kind == ADJUSTMENTS:
        for p, n in sorted(history.game.variant.adjustment_counts(history.position).items()):
            lines.append(f"  {p} " + (f"builds {n}" if n > 0 else f"removes {-n}"))
    elif nxt.kind == RETREATS:
        for d in history.position.dislodged:
            lines.append(f"  {d.unit.power} retreats {d.unit.describe(history.game.variant.board)}")
    lines.append("")
    return lines

"""Phase reports in plain text, as a GM sends them by e-mail.

Every report is made from a view (`dipgen.visibility`): the game report from the public
view of a hidden game (everything, in an open game), a power's private report from that
power's view, with the news the GM owes it.
"""

from __future__ import annotations

from .records import History, PhaseRecord
from .phase import ADJUSTMENTS, MOVEMENT, RETREATS
from .visibility import GM, PUBLIC, own_powers, seating, view_record
from .written import written_orders


def _and(items: list[str]) -> str:
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def power_heading(history: History, power: str, record: PhaseRecord) -> str:
    player = history.player(power, record.phase)
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
    return [r.explain(board) if r.notes else ""
            for r in record.results_of(power)]


def written_table(history: History, record: PhaseRecord, writers: list[str], rows) -> list[str]:
    """Where several people write a power's orders (`dipgen.written`): what each wrote, side by
    side, then the order carried out with its result and why; ``!`` marks a unit whose orders
    the variant's intake changed (orders that differ), ``-`` one that a writer left out."""
    board = history.game.variant.board
    header = (*writers, "carried out")
    table = [header]
    whys = []
    for row in rows:
        words = f" (*{', '.join(row.tags)}*)" if row.tags else ""
        executed = (row.executed + words) if row.executed else "(not carried out)"
        table.append((*(t or "-" for t in row.given), executed))
        r = row.result
        whys.append(r.explain(board) if r is not None and r.notes else "")
    widths = [max(len(cells[i]) for cells in table) for i in range(len(header))]

    def line(mark: str, cells, why: str = "") -> str:
        text = "  ".join(f"{c:{w}}" for c, w in zip(cells, widths)).rstrip()
        return f"  {mark} {text}" + (f"  -- {why}" if why else "")

    out = [line(" ", header)]
    for row, cells, why in zip(rows, table[1:], whys):
        out.append(line("!" if row.differ else " ", cells, why))
    if any(row.differ for row in rows):
        out.append("  (! the orders written differ; the variant's rules decided what was carried out)")
    return out


def default_level(history: History) -> str:
    """The level of the game report: the public's in a hidden game that is not yet revealed
    (over, or ``reveal: now``), everything otherwise."""
    game = history.game
    if game.variant.hidden and not history.finished and game.reveal != "now":
        return PUBLIC
    return GM


def phase_report(history: History, record: PhaseRecord, power: str | None = None, level: str | None = None) -> str:
    """The report of one phase: the game report, with `power` that power's private report (or a
    seat's, given its key: a player's, for every power she controlled then), or with `level` the
    report at that level (``gm``: everything)."""
    game, board = history.game, history.game.variant.board
    level = power or level or default_level(history)
    seen = view_record(history, record, level)
    title = f"{game.title}: {record.phase.name}" + (" adjustments" if record.kind == ADJUSTMENTS else "")
    if power:
        seat = seating(history).seat(power)
        title += f", for {power if power in game.variant.powers() or seat is None else seat.name(record.phase)}"
    elif level == GM and game.variant.hidden:
        title += ", the GM's full report"
    lines = [title, "=" * len(title), ""]
    for p in game.variant.powers():
        results = order_lines(history, seen, p)
        nmr = p in seen.nmr
        if not results and not nmr:
            continue
        lines.append(power_heading(history, p, record) + ":" + ("  no orders received (NMR)" if nmr else ""))
        writers, rows = written_orders(history, seen, p)
        if writers:
            lines.extend(written_table(history, seen, writers, rows))
        else:
            width = max((len(t) for t in results), default=0)
            for text, why in zip(results, reasons(history, seen, p)):
                lines.append(f"  {text:{width}}  -- {why}" if why else f"  {text}")
        lines.append("")
    lines.extend(game.variant.report_section(history, seen, level))
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
        lines.extend(private_news(history, record, seen, own_powers(history, power, record.phase)))
    if seen.centre_changes:
        lines.append("Supply centres changing hands:")
        for c, old, new in seen.centre_changes:
            lines.append(f"  {board.provinces[c].name}: {new}" + (f" (from {old})" if old else ""))
        lines.append("")
    lines.extend(centre_summary(history, record, seen, power))
    lines.extend(control_lines(history, record))
    if record.press:
        lines += ["Press:", *("  " + x for x in record.press.strip().splitlines()), ""]
    if record.notes:
        lines += ["GM's notes:", *("  " + x for x in record.notes.strip().splitlines()), ""]
    lines.extend(next_steps(history, record, level))
    return "\n".join(lines).rstrip() + "\n"


def private_news(history: History, record: PhaseRecord, seen: PhaseRecord, mine_: tuple[str, ...]) -> list[str]:
    """What the GM tells one player privately besides what her view shows above (the retreats
    her attacks caused are among the results): her units, foreign units in her centres, the
    fate of units she dislodged, and (before the winter) the centres she owns. `mine_`: the
    powers she controlled in this phase (one, in the standard game; her units are then named
    with their power when she has several)."""
    board = history.game.variant.board
    lines = []
    kinds = history.game.variant.unit_kinds
    fighting = [u for u in seen.after.units if kinds[u.kind].fights]
    name = (lambda u: u.describe(board)) if len(mine_) <= 1 else (lambda u: f"{u.power} {u.describe(board)}")
    mine = sorted((u for u in fighting if u.power in mine_), key=lambda u: (u.power, u.loc))
    lines.append(f"Your units: {', '.join(name(u) for u in mine) or 'none'}.")
    for kind in kinds.values():  # units outside combat (spies) are listed apart, kind by kind
        if kind.fights or not any(u.kind == kind.letter for u in seen.before.units + seen.after.units):
            continue
        mine = sorted((u for u in seen.after.units if u.power in mine_ and u.kind == kind.letter),
                      key=lambda u: (u.power, u.loc))
        lines.append(f"Your {kind.names}: {', '.join(name(u) for u in mine) or 'none'}.")
    foreign = sorted((u for u in fighting if u.power not in mine_), key=lambda u: (u.power, u.loc))
    if foreign and history.game.variant.hidden:
        lines.append("Foreign units in sight: " + ", ".join(f"{u.power} {u.describe(board)}" for u in foreign) + ".")
    intruders = [u for u in foreign if seen.before.owners.get(u.province) in mine_]
    for u in intruders:
        lines.append(f"{u.power} {u.describe(board)} stands in your centre {board.provinces[u.province].name}.")
    for d in seen.destroyed:
        if d.unit.power not in mine_:
            lines.append(f"{d.unit.power} {d.unit.describe(board)}, dislodged by you, had nowhere to go and is destroyed.")
    if seen.after.phase.kind == ADJUSTMENTS or record.kind == ADJUSTMENTS:
        own = [board.format_loc(c) for c, p in sorted(seen.after.owners.items()) if p in mine_]
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
        held = after.units_of(p, variant.unit_kinds)
        k = len(held)
        units = f", {k:2} unit{'' if k == 1 else 's'}{_dear(held, variant.unit_kinds)}" if after.counts is None else ""
        n = counts.get(p, 0)
        lines.append(f"  {p:8} {n:2} centre{'' if n == 1 else 's'}{units}{listing}")
    lines.append("")
    return lines + player_summary(history, record, counts)


def _dear(units, kinds) -> str:
    """Among `units`, those that cost more than one centre to keep, in words: " (1 tank)"."""
    dear = [kinds[u.kind] for u in units if kinds[u.kind].upkeep > 1]
    counted = [(sum(1 for d in dear if d is k), k) for k in dict.fromkeys(dear)]
    return f" ({', '.join(f'{n} {k.name if n == 1 else k.names}' for n, k in counted)})" if dear else ""


def player_summary(history: History, record: PhaseRecord, counts: dict[str, int]) -> list[str]:
    """Where players are not powers (a player with several powers, a power changing hands):
    each player with the powers she controls after this phase and their centres together.
    Nothing in the standard form, whose report stays as it was."""
    seats = seating(history)
    if seats.standard:
        return []
    after = record.after.phase
    lines = ["Players:"]
    for seat in seats.seats:
        powers = seats.powers_of(seat.key, after)
        n = sum(counts.get(p, 0) for p in powers)
        lines.append(f"  {seat.name(after)}: {_and(list(powers)) or 'no power'}, "
                     f"{n} centre{'' if n == 1 else 's'}")
    lines.append("")
    return lines


def control_lines(history: History, record: PhaseRecord) -> list[str]:
    """The powers that changed hands after this phase (`PhaseRecord.control`), if any."""
    if not record.control:
        return []
    seats = seating(history)
    lines = ["Changing hands:"]
    for c in record.control:
        lines.append(f"  {c.power} passes from {_seat_name(seats, c.old, c.since)} to "
                     f"{_seat_name(seats, c.new, c.since)} from {c.since.name}" + (f": {c.why}" if c.why else "") + ".")
    lines.append("")
    return lines


def _seat_name(seats, key: str | None, phase) -> str:
    seat = seats.seat(key) if key else None
    return seat.name(phase) if seat else "nobody"


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
    own = own_powers(history, level, nxt) if level not in (GM, PUBLIC) else ()
    if nxt.kind == ADJUSTMENTS:
        for p, n in sorted(variant.adjustment_counts(history.position).items()):
            if level == GM or p in own or not variant.hidden:
                lines.append(f"  {p} " + variant.adjustment_text(n))
    elif nxt.kind == RETREATS:
        for d in history.position.dislodged:
            if level == GM or d.unit.power in own or not variant.hidden:
                lines.append(f"  {d.unit.power} retreats {d.unit.describe(variant.board)}")
    lines.append("")
    return lines

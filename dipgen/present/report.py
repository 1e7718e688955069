"""Phase reports in plain text, as a GM sends them by e-mail.

Every report is made from one level's view (`dipgen.view.game_view`) and nothing else: the
game report from the public view (so that it says exactly what the public site says: in a
hidden game that runs, the public calendar's seasons, totals and NMRs), a player's private
report from her seat's view, and the GM's full report from the GM's.
"""

from __future__ import annotations

from dipgen.core.phase import ADJUSTMENTS, RETREATS
from dipgen.view import UNKNOWN, GameView, RecordView
from dipgen.rules.visibility import GM, PUBLIC
from dipgen.present.lines import and_list, order_items
from dipgen.present.times import deadline_line
from dipgen.present.written import written_orders


def power_heading(view: GameView, power: str, record: RecordView) -> str:
    player = view.player(power, record.phase)
    return f"{power} ({player})" if player else power


def order_lines(view: GameView, record: RecordView, power: str) -> list[str]:
    """The classic lines for one power: its orders with their results, each with the page's mark."""
    return [item.classic() for item in order_items(view, record, power)]


def reasons(view: GameView, record: RecordView, power: str) -> list[str]:
    """Beside each of `order_lines`: why the order failed, in words ('' where it did not); the
    notes name only units the view knows (`dipgen.view.seen`)."""
    board = view.variant.rules.board
    return [r.explain(board) if r.notes else "" for r in record.results_of(power)]


def written_table(view: GameView, record: RecordView, writers: list[str], rows) -> list[str]:
    """Where several people write a power's orders (`dipgen.present.written`): what each wrote, side by
    side, then the order carried out with its result and why; ``!`` marks a unit whose orders
    the variant's intake changed (orders that differ), ``-`` one that a writer left out."""
    board = view.variant.rules.board
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
        text = "  ".join(f"{c:{w}}" for c, w in zip(cells, widths, strict=True)).rstrip()
        return f"  {mark} {text}" + (f"  -- {why}" if why else "")

    out = [line(" ", header)]
    for row, cells, why in zip(rows, table[1:], whys, strict=True):
        out.append(line("!" if row.differ else " ", cells, why))
    if any(row.differ for row in rows):
        out.append("  (! the orders written differ; the variant's rules decided what was carried out)")
    return out


def report_level(revealed: bool) -> str:
    """The level of the game report a GM sends everyone: the public's while a hidden game is not
    yet revealed, everything otherwise."""
    return GM if revealed else PUBLIC


def phase_report(view: GameView, record: RecordView) -> str:
    """The report of one of `view`'s records: the game report (a public or GM view) or a
    player's private report (her seat's view)."""
    variant, board = view.variant, view.variant.rules.board
    level = view.level
    title = f"{view.title}: {record.title}"
    if level not in (GM, PUBLIC):
        seat = view.seating.seat(level)
        title += f", for {level if level in variant.rules.powers() or seat is None else seat.name(record.phase)}"
    elif level == GM and view.hidden:
        title += ", the GM's full report"
    lines = [title, "=" * len(title), ""]
    for p in variant.rules.powers():
        results = order_lines(view, record, p)
        nmr = p in record.nmr
        if not results and not nmr:
            continue
        lines.append(power_heading(view, p, record) + ":" + ("  no orders received (NMR)" if nmr else ""))
        writers, rows = written_orders(view, record, p)
        if writers:
            lines.extend(written_table(view, record, writers, rows))
        else:
            width = max((len(t) for t in results), default=0)
            for text, why in zip(results, reasons(view, record, p), strict=True):
                lines.append(f"  {text:{width}}  -- {why}" if why else f"  {text}")
        lines.append("")
    lines.extend(variant.words.report_section(view, record))
    if record.dislodged or record.destroyed:
        lines.append("Dislodged:")
        for d in record.dislodged:
            where = f" (attacked from {board.format_loc(d.attacker_from)})" if d.attacker_from is not UNKNOWN else ""
            options = (f" may retreat to {and_list([board.format_loc(x) for x in d.retreats])} or disband"
                       if d.retreats is not UNKNOWN and d.retreats else "")
            lines.append(f"  {d.unit.power} {d.unit.describe(board)}{where}{options}.")
        for d in record.destroyed:
            lines.append(f"  {d.unit.power} {d.unit.describe(board)} has nowhere to retreat and is destroyed.")
        lines.append("")
    if record.retreat_results:  # retreats folded into their season (a hidden game's public calendar)
        lines.append("After the retreats:")
        lines.extend(f"  {r.power} {variant.words.format_result(r)}" for r in record.retreat_results)
        lines.append("")
    if level not in (GM, PUBLIC):
        lines.extend(private_news(view, record))
    if record.centre_changes:
        lines.append("Supply centres changing hands:")
        for c, old, new in record.centre_changes:
            lines.append(f"  {board.provinces[c].name}: {new}" + (f" (from {old})" if old else ""))
        lines.append("")
    lines.extend(centre_summary(view, record))
    lines.extend(control_lines(view, record))
    if record.press:
        lines += ["Press:", *("  " + x for x in record.press.strip().splitlines()), ""]
    if record.notes:
        lines += ["GM's notes:", *("  " + x for x in record.notes.strip().splitlines()), ""]
    lines.extend(next_steps(view, record))
    if record.link is not None:  # the players keep it: `dipgen verify --links` reads it back from the report
        lines += [f"Record after {record.link.after.slug}: {record.link.value}", ""]
    return "\n".join(lines).rstrip() + "\n"


def private_news(view: GameView, record: RecordView) -> list[str]:
    """What the GM tells one player privately besides what her view shows above (the retreats
    her attacks caused are among the results): her units, foreign units in her centres, the
    fate of units she dislodged, and (before the winter) the centres she owns. Her powers are
    those her seat controlled in this phase (one, in the standard game; her units are then named
    with their power when she has several)."""
    variant = view.variant
    board, kinds = variant.rules.board, variant.rules.unit_kinds
    mine_ = set(view.seating.powers_of(view.level, record.phase)) if view.level not in variant.rules.powers() \
        else {view.level}
    lines = []
    fighting = [u for u in record.after.units if kinds[u.kind].fights]
    name = (lambda u: u.describe(board)) if len(mine_) <= 1 else (lambda u: f"{u.power} {u.describe(board)}")
    mine = sorted((u for u in fighting if u.power in mine_), key=lambda u: (u.power, u.loc))
    lines.append(f"Your units: {', '.join(name(u) for u in mine) or 'none'}.")
    for kind in kinds.values():  # units outside combat (spies) are listed apart, kind by kind
        if kind.fights or not any(u.kind == kind.letter for u in record.before.units + record.after.units):
            continue
        mine = sorted((u for u in record.after.units if u.power in mine_ and u.kind == kind.letter),
                      key=lambda u: (u.power, u.loc))
        lines.append(f"Your {kind.names}: {', '.join(name(u) for u in mine) or 'none'}.")
    foreign = sorted((u for u in fighting if u.power not in mine_), key=lambda u: (u.power, u.loc))
    if foreign and view.hidden:
        lines.append("Foreign units in sight: " + ", ".join(f"{u.power} {u.describe(board)}" for u in foreign) + ".")
    for u in (u for u in foreign if record.before.owners.get(u.province) in mine_):
        lines.append(f"{u.power} {u.describe(board)} stands in your centre {board.provinces[u.province].name}.")
    for d in record.destroyed:
        if d.unit.power not in mine_:
            lines.append(f"{d.unit.power} {d.unit.describe(board)}, dislodged by you, had nowhere to go "
                         "and is destroyed.")
    if record.after.phase.kind == ADJUSTMENTS or record.kind == ADJUSTMENTS:
        own = [board.format_loc(c) for c, p in sorted(record.after.owners.items()) if p in mine_]
        lines.append(f"Your supply centres: {', '.join(own) or 'none'}.")
    lines.append("")
    return lines


def centre_summary(view: GameView, record: RecordView) -> list[str]:
    """The centre totals, where the record tells them (a year's end), with each power's units and
    centres where the view knows the whole position."""
    after = record.after
    if not record.tells_totals or after.totals is UNKNOWN:
        return []
    variant = view.variant
    counts = after.totals
    lines = ["Supply centres:"]
    for p in variant.rules.powers():
        held = after.units_of(p, variant.rules.unit_kinds)
        if counts.get(p, 0) == 0 and not held and after.whole:
            continue
        centres = after.centres_of(p)
        listing = f"  ({', '.join(variant.rules.board.format_loc(c) for c in centres)})" if centres else ""
        k = len(held)
        units = f", {k:2} unit{'' if k == 1 else 's'}{_dear(held, variant.rules.unit_kinds)}" if after.whole else ""
        n = counts.get(p, 0)
        lines.append(f"  {p:8} {n:2} centre{'' if n == 1 else 's'}{units}{listing}")
    lines.append("")
    return lines + player_summary(view, record, counts)


def _dear(units, kinds) -> str:
    """Among `units`, those that cost more than one centre to keep, in words: " (1 tank)"."""
    dear = [kinds[u.kind] for u in units if kinds[u.kind].upkeep > 1]
    counted = [(sum(1 for d in dear if d is k), k) for k in dict.fromkeys(dear)]
    return f" ({', '.join(f'{n} {k.name if n == 1 else k.names}' for n, k in counted)})" if dear else ""


def player_summary(view: GameView, record: RecordView, counts) -> list[str]:
    """Where players are not powers (a player with several powers, a power changing hands):
    each player with the powers she controls after this phase and their centres together.
    Nothing in the standard form, whose report stays as it was."""
    seats = view.seating
    if seats.standard:
        return []
    after = record.after.phase
    lines = ["Players:"]
    for seat in seats.seats:
        powers = seats.powers_of(seat.key, after)
        n = sum(counts.get(p, 0) for p in powers)
        lines.append(f"  {seat.name(after)}: {and_list(list(powers)) or 'no power'}, "
                     f"{n} centre{'' if n == 1 else 's'}")
    lines.append("")
    return lines


def control_lines(view: GameView, record: RecordView) -> list[str]:
    """The powers that changed hands after this phase, if any."""
    if not record.control:
        return []
    seats = view.seating
    lines = ["Changing hands:"]
    for c in record.control:
        lines.append(f"  {c.power} passes from {_seat_name(seats, c.old, c.since)} to "
                     f"{_seat_name(seats, c.new, c.since)} from {c.since.name}" + (f": {c.why}" if c.why else "") + ".")
    lines.append("")
    return lines


def _seat_name(seats, key: str | None, phase) -> str:
    seat = seats.seat(key) if key else None
    return seat.name(phase) if seat else "nobody"


def next_steps(view: GameView, record: RecordView) -> list[str]:
    """What comes next, if this is the view's latest record: as the level is told it."""
    if not view.records or record is not view.records[-1]:
        return []
    if view.result is not None:
        return ["Game over: " + view.result_line, ""]
    if view.due is None:
        return [f"Next: the {view.season.season_name} turn is being completed.", ""] if view.season else []
    lines = [f"Next: {view.due_title()}."]
    variant = view.variant
    if view.due.kind == ADJUSTMENTS:
        lines.extend(f"  {p} " + variant.words.adjustment_text(n) for p, n in view.owed.items())
    elif view.due.kind == RETREATS:
        lines.extend(f"  {u.power} retreats {u.describe(variant.rules.board)}" for u in view.retreating)
        if not view.retreating and view.level == GM:  # a hidden game's Fall, closed by its file (Policy.closed_by_file)
            lines.append(f"  Nobody retreats: {view.due.slug}.yml with `orders: {{}}` closes the Fall, and the "
                         "players are told their centres and their Winter.")
    due = deadline_line(view)  # (none that is stale)
    lines.extend([due] if due else [])
    lines.append("")
    return lines

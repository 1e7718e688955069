"""The order sheet: each unit's legal orders in the phase a game waits for, for the players to
pick from instead of writing orders from memory.

`sheet_data` is the sheet's JSON document, made from one view alone (`dipgen.rules.choices` over
the position that view knows: no order names a unit the level cannot know is there); `sheet_html`
is the sheet as the page shows it without JavaScript, a readable list of each unit's orders, which
``sheet.js`` (a static asset: the pages' CSP allows no inline script) turns into a menu per unit,
a free line, the orders as text with "Copy", and a ``mailto:`` link where the GM gives an address.
Nothing leaves the player's browser otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from markupsafe import Markup, escape

from dipgen.core.orders import Convoy, Hold, Move, Order, Retreat, Support
from dipgen.core.phase import RETREATS
from dipgen.core.position import Dislodged, Position, Unit
from dipgen.rules.choices import powers_orders
from dipgen.view import UNKNOWN, GameView

SHEET_JS_URI = "assets/dipgen/sheet.js"
#: the order kinds in the order a menu lists them: hold, moves, supports, convoys, the rest
_RANK = {Hold: 0, Move: 1, Retreat: 1, Support: 2, Convoy: 3}


def sheet_position(view: GameView) -> Position | None:
    """The position the sheet offers orders in: what the view knows, waiting for the phase it is
    told the game waits for (None: the game waits for none, or is over)."""
    if view.due is None or view.finished:
        return None
    now = view.now
    dislodged = tuple(Dislodged(d.unit, "" if d.attacker_from is UNKNOWN else str(d.attacker_from),
                                "" if d.by_power is UNKNOWN else str(d.by_power), tuple(d.retreats))
                      for d in now.dislodged if d.retreats is not UNKNOWN and d.retreats)
    return Position(view.due, now.units, now.owners, dislodged, economy=now.economy)


def _texts(view: GameView, orders: Sequence[Order]) -> list[str]:
    board = view.variant.rules.board
    return [text for _, text in sorted((_RANK.get(type(o), 4), o.format(board)) for o in orders)]


def _rows(view: GameView, power: str, found: dict) -> list[dict]:
    """One row per unit of `power` with its orders (`found`: its `powers_orders`; an adjustment
    phase: one row per build or removal due)."""
    board = view.variant.rules.board
    if None in found:
        due = view.owed.get(power, 0)
        orders = _texts(view, found[None])
        what = "Build" if due > 0 else "Removal"
        return [dict(unit=f"{what} {i} of {abs(due)}", orders=orders) for i in range(1, abs(due) + 1)] if orders else []
    mine = sorted(found, key=lambda u: u.loc)
    return [dict(unit=u.describe(board), orders=_texts(view, found[u])) for u in mine if found[u]]


def sheet_data(view: GameView, powers: Sequence[str], orders_to: str = "") -> dict | None:
    """The sheet's JSON document for `powers` (those the page's reader orders), from `view` alone;
    None when the game waits for no orders of theirs."""
    position = sheet_position(view)
    if position is None:
        return None
    rules = view.variant.rules
    powers = [p for p in powers if rules.must_order(p, position)]
    # a retreat phase: only the units she is told must retreat
    units: list[Unit] | None = list(view.retreating) if position.phase.kind == RETREATS else None
    found = powers_orders(rules, position, powers, units)
    out = []
    for power in powers:
        rows = _rows(view, power, found[power])
        if rows:
            out.append(dict(power=power, rows=rows))
    if not out:
        return None
    return dict(phase=view.due_title(), orders_to=orders_to, powers=out)


def dumps(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def sheet_html(data: dict, json_href: str = "", script_href: str = "", embed: bool = False,
               plain: bool = True) -> Markup:
    """The sheet as one HTML block: a list of each unit's orders (what a reader without JavaScript
    sees; `plain` False: none), the place ``sheet.js`` fills, and where it finds the data: `json_href` (a file beside
    the page) or, with `embed`, the document itself in a non-executable ``application/json`` script
    element (a private page, whose data must stay inside its encryption)."""
    parts = [f'<section class="dg-sheet" aria-labelledby="dg-sheet-title"'
             f'{f" data-dg-sheet={json.dumps(str(escape(json_href)))}" if json_href else ""}>',
             f'<h2 id="dg-sheet-title">Order sheet: {escape(data["phase"])}</h2>',
             '<p class="dg-sheet-help">Every legal order of each unit, from the adjudicator. Pick one per unit '
             '(type part of it, such as <kbd>bur</kbd>), then copy the orders into your e-mail to the game master'
             + (' or mail them' if data.get("orders_to") else "") + '.</p>',
             '<div class="dg-sheet-app" hidden></div>']
    for entry in data["powers"] if plain else ():
        parts.append(f'<details class="dg-sheet-power"><summary>{escape(entry["power"])}: '
                     f'{len(entry["rows"])} to order</summary>')
        parts.append('<ul class="dg-sheet-list">')
        for row in entry["rows"]:
            items = "".join(f"<li>{escape(o)}</li>" for o in row["orders"])
            parts.append(f'<li><details><summary>{escape(row["unit"])} ({len(row["orders"])} orders)</summary>'
                         f'<ul class="dg-sheet-orders">{items}</ul></details></li>')
        parts.append("</ul></details>")
    if embed:
        payload = dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        parts.append(f'<script type="application/json" class="dg-sheet-data">{payload}</script>')
    if script_href:
        parts.append(f'<script src="{escape(script_href)}" defer></script>')
    parts.append("</section>")
    return Markup("".join(parts))

"""Each seat's private page of a running hidden game (each power's, where one player plays one
power): its whole view, encrypted for its player.

`private_content` is the page itself (HTML, made from the power's view only: its current map
and units, and each season's private report with that power's maps); `private_shell` wraps
an encrypted envelope (`dipgen.present.site.crypt`) in a page that says nothing: a neutral title, no
game or power name, ``noindex``, a passphrase form and ``private.js``, which decrypts it in
the browser. The page is a static ``.html`` file, not a MkDocs page, so it is in neither
the search index nor the sitemap; its name is `dipgen.present.site.crypt.page_uri`.
"""

from __future__ import annotations

import json
import re
import string
from urllib.parse import quote

from markupsafe import Markup

from dipgen.present.report import phase_report
from dipgen.view import GameView
from dipgen.present.site import maps
from dipgen.present.svg import map_size
from dipgen.present.site.jinja import render
from dipgen.present.layout import PREFIX
from dipgen.present.site.links import game_uri, href
from dipgen.present.lines import and_list
from dipgen.present.times import orders_due
from dipgen.present.site.model import game_status
from dipgen.present.site.sheet import SHEET_JS_URI, sheet_data, sheet_html

PRIVATE_JS_URI = "assets/dipgen/private.js"


#: what a map's data: URI leaves as it is (`urllib.parse.quote`'s own safe characters and these)
URI_SAFE = " =:/;,.()!*?@$+-_~"
#: the percent-escape of every other ASCII character: `str.translate` applies it in C, where
#: `quote` goes byte by byte in Python (a season's private page holds two maps of some 40 kB)
_ESCAPED = {c: f"%{c:02X}" for c in range(128) if chr(c) not in set(string.ascii_letters + string.digits + URI_SAFE)}
#: the characters an envelope's JSON is made of: base64 and JSON punctuation only
_ENVELOPE = re.compile(r'[A-Za-z0-9{}\[\]":,+/=-]*')


def _data_uri(svg: str) -> str:
    """An overlay as a data: URI, so each map stays its own SVG document (inlined in the page,
    overlays would share one id space and one stylesheet). Percent-encoded rather than base64,
    so that the page compresses well before it is encrypted; `quote`'s very output."""
    return "data:image/svg+xml," + (svg.translate(_ESCAPED) if svg.isascii() else quote(svg, safe=URI_SAFE))


def _private_map(view: GameView, phase, when: str, caption: str) -> dict:
    size = map_size(view.variant)
    return dict(overlay=_data_uri(maps.overlay_map(view, phase, when)),
                width=f"{size.width:g}", height=f"{size.height:g}", caption=caption, alt=f"Map: {caption}")


def private_content(view: GameView, uri: str, prefix: str = PREFIX, directory_urls: bool = True) -> str:
    """The HTML of a seat's private page (before encryption), made from the seat's view alone, to
    be shown at `uri`."""
    variant = view.variant
    board = variant.rules.board
    seat_key = view.level
    colour = board.powers[seat_key].colour if seat_key in board.powers else "inherit"
    now = view.now
    own = view.own
    seat = view.seating.seat(seat_key)
    name = (lambda u: u.describe(board)) if len(own) <= 1 else (lambda u: f"{u.power} {u.describe(board)}")
    mine = sorted((u for u in now.units if u.power in own), key=lambda u: (u.power, u.loc))
    others = sorted((u for u in now.units if u.power not in own), key=lambda u: (u.power, u.loc))
    centres = [board.format_loc(c) for c, p in sorted(now.owners.items()) if p in own]

    if view.finished:
        now_heading, caption = "Final map", "Your view of the final position"
    elif view.records:
        now_heading = "Your map now"
        if view.due is not None:
            caption = f"What you know of the position: {orders_due(view.due_title(), capital=False)}"
        else:
            assert view.season is not None  # a running game with nothing due is completing a season
            caption = f"What you know of the position: the {view.season.season_name} turn is being completed"
    else:
        assert view.due is not None  # a game not finished and without records waits for its first orders
        now_heading, caption = "Starting map", f"The starting position: {orders_due(view.due.name, capital=False)}"

    seasons = []
    for record in reversed(view.records):
        seasons.append(dict(
            title=record.title, report=phase_report(view, record),
            orders_map=None if record.summary_only else
            _private_map(view, record.phase, "orders", f"{record.title}: your orders and what you saw"),
            after_map=None if record.summary_only else
            _private_map(view, record.phase, "after", f"After {record.title}: what you know")))

    return render(
        "private_content.html", power=seat_key if seat_key in board.powers or seat is None else and_list(list(own)),
        player=seat.name() if seat else view.player(seat_key), colour=colour, title=view.title,
        status=game_status(view).line, now_heading=now_heading,
        now_map=_private_map(view, None, "after", caption),
        units=", ".join(name(u) for u in mine), centres=", ".join(centres), centre_count=len(centres),
        others=and_list([f"{u.power} {u.describe(board)}" for u in others]),
        seasons=seasons, variant_section=Markup(variant.words.game_section(view)), sheet=_sheet(view),
        board=href(uri, maps.board_uri(variant), directory_urls),
        game_href=href(uri, game_uri(prefix, view.slug), directory_urls))


def _sheet(view: GameView) -> Markup:
    """The seat's order sheet, for the powers it orders now, from its view alone: its data inside
    the page (and so inside its encryption); no list for readers without JavaScript, who cannot
    open the page at all."""
    data = sheet_data(view, view.own, view.info.orders_to)
    return Markup("") if data is None else sheet_html(data, embed=True, plain=False)


def private_shell(envelope: dict, uri: str) -> str:
    """The published page: the envelope, a passphrase form and the script that opens it."""
    payload = json.dumps(envelope, separators=(",", ":"), sort_keys=True)
    # base64 and JSON punctuation only: nothing can close the <script> element
    assert _ENVELOPE.fullmatch(payload), "unexpected character in the envelope"
    return render("private_shell.html", payload=Markup(payload), script=href(uri, PRIVATE_JS_URI),
                  sheet_script=href(uri, SHEET_JS_URI))

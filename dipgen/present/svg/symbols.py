"""Unit symbols: one shape per unit kind, drawn around (0, 0) in map units.

Shapes, not colours, tell the kinds apart: an army is a round token with a rank chevron,
a fleet a ship under sail. A kind without an entry (a variant's tank, plane or spy) is
drawn as a square token with its letter, until a variant gives it a symbol of its own
through a ``unit_symbols`` mapping (letter -> `Symbol`).

Inside a symbol, class ``ub`` is the body (filled with the power's colour, through
``currentColor``) and ``ug`` the glyph (light or dark to contrast with the colour).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class Symbol:
    name: str       # for the legend: "army"
    body: str       # SVG elements drawn around (0, 0)
    radius: float   # how far arrows keep from the unit's anchor
    #: drawn beside the unit of its province when it does not occupy: (scale, x and y of the
    #: first piece from the province's anchor, step to the next piece of the row)
    beside: tuple[float, float, float, float] = (.55, -13.0, 13.0, 9.0)


ARMY = Symbol(
    "army",
    '<circle class="ub" r="10.6"/>'
    '<path class="ug" d="M-6.2-.4 0-5.7 6.2-.4V2.9L0-2.4-6.2 2.9ZM-6.2 3.7 0-1.5 6.2 3.7V6.8L0 1.8-6.2 6.8Z"/>',
    11.5,
)
FLEET = Symbol(
    "fleet",
    '<path class="ub" d="M-13.9 2.4H13.9L9.2 9.9H-9.7ZM-1.5.4V-13.6L10.1.4ZM-3.7.4V-10.6L-11.7.4Z"/>',
    13.0,
)

#: A tank (Armor's ``T``): a tracked hull with a turret and gun, wider than an army's token,
#: and its tracks' wheels as the glyph
TANK = Symbol(
    "tank",
    '<path class="ub" d="M-9.5-1.3H9.5A4.3 4.3 0 0 1 9.5 7.3H-9.5A4.3 4.3 0 0 1-9.5-1.3Z'
    'M-6.4-1.3V-7.7H4.6V-5.1H13.8V-2.3H4.6V-1.3Z"/>'
    '<path class="ug" d="M-9.5 1.5A1.6 1.6 0 1 0 -9.5 4.7 1.6 1.6 0 1 0 -9.5 1.5Z'
    'M-3.2 1.5A1.6 1.6 0 1 0 -3.2 4.7 1.6 1.6 0 1 0 -3.2 1.5Z'
    'M3.2 1.5A1.6 1.6 0 1 0 3.2 4.7 1.6 1.6 0 1 0 3.2 1.5Z'
    'M9.5 1.5A1.6 1.6 0 1 0 9.5 4.7 1.6 1.6 0 1 0 9.5 1.5Z"/>',
    13.0,
)

#: aircraft do not occupy: they are drawn in a row above the unit of their province, larger than a spy
ABOVE = (.85, -11.0, -18.0, 14.0)

#: A plane (Complicated's ``P``): an aeroplane seen from above, nose up: a cross of fuselage and
#: straight wings with a tailplane, and a stripe along the fuselage as the glyph
PLANE = Symbol(
    "plane",
    '<path class="ub" d="M0-10C1.3-10 1.8-8.4 1.8-6.4V-3.4L10-.5V2.6L1.8 1.3 1.4 5.9 4.5 7.7V9.8'
    'L0 8.7-4.5 9.8V7.7L-1.4 5.9-1.8 1.3-10 2.6V-.5L-1.8-3.4V-6.4C-1.8-8.4-1.3-10 0-10Z"/>'
    '<path class="ug" d="M-.7-7.2H.7V4H-.7Z"/>',
    10.5, ABOVE,
)
#: A bomber (Complicated's ``B``): a flying wing, a broad chevron with a saw-toothed trailing
#: edge, and a bomb under its middle as the glyph
BOMBER = Symbol(
    "bomber",
    '<path class="ub" d="M0-7.6 11.2 3.6 8.4 6.8 4.8 4.8 2.4 7.6 0 5.6-2.4 7.6-4.8 4.8-8.4 6.8-11.2 3.6Z"/>'
    '<path class="ug" d="M0-2.6A1.9 1.9 0 1 1 0 1.2 1.9 1.9 0 1 1 0-2.6ZM-.7.6H.7V3.4H-.7Z"/>',
    10.5, ABOVE,
)

#: The symbols the renderer knows, by kind letter.
SYMBOLS: Mapping[str, Symbol] = {"A": ARMY, "F": FLEET}


def lettered(letter: str, name: str = "") -> Symbol:
    """The default symbol for a kind without one: a square token with its letter."""
    return Symbol(
        name or letter,
        '<rect class="ub" x="-10" y="-10" width="20" height="20" rx="4"/>'
        f'<text class="ug ul" y="4.6">{escape(letter[:2], quote=False)}</text>',
        12.0,
    )


def symbol_table(variant) -> dict[str, Symbol]:
    """Every unit kind of `variant` with its symbol: the variant's own, ours, or the lettered default."""
    own: Mapping[str, Symbol] = variant.words.unit_symbols
    kinds = variant.rules.unit_kinds
    table: dict[str, Symbol] = {}
    for letter in sorted(set(kinds) | set(SYMBOLS) | set(own)):
        info = kinds.get(letter)
        if letter in own:
            table[letter] = own[letter]
        elif letter in SYMBOLS:
            table[letter] = SYMBOLS[letter]
        else:
            table[letter] = lettered(letter, getattr(info, "name", ""))
    return table


def symbol_id(letter: str) -> str:
    """The id of a kind's symbol in the overlay's ``<defs>``: ``u-A``, ``u-F``."""
    return "u-" + "".join(ch for ch in letter if ch.isalnum())

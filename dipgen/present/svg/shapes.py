"""The overlay's vocabulary: its style rules, its geometry in map units, and the small SVG
fragments every drawing is made of (a centre's dot, a unit standing or dislodged, a piece beside
the units, a cased layer, a cross, a burst). Plain strings, every coordinate rounded to 0.1:
`dipgen.present.svg.overlay` paints with them, `dipgen.present.svg.legend` explains them.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from xml.sax.saxutils import escape

from dipgen.core.board import Board
from dipgen.present.svg.colour import glyph_colour
from dipgen.present.svg.symbols import Symbol, symbol_id

INK = "#1d1b16"
PAPER = "#fffdf5"
# Lines are drawn once, inside a layer group whose stroke comes from the layer's class, and
# cased (outlined in ink) by a <use> of that same group underneath, with the casing's class.
CSS_RULES: tuple[str, ...] = (
    f".ub{{fill:currentColor;stroke:{INK};stroke-width:1.7;stroke-linejoin:round}}",
    ".ug{fill:var(--g,#fff)}",
    ".ul{font:700 11px sans-serif;text-anchor:middle}",
    f".pl{{font:700 8px sans-serif;text-anchor:middle;dominant-baseline:central;fill:{INK};paint-order:stroke;"
    f"stroke:{PAPER};stroke-width:2.6;stroke-linejoin:round}}",
    ".gh{opacity:.38}",
    ".lc{fill:none;stroke:currentColor;stroke-width:10.4;stroke-linecap:round}",
    f".kc{{stroke:{INK};stroke-width:13.2}}",
    ".lm{fill:none;stroke:currentColor;stroke-width:4;stroke-linecap:round;stroke-linejoin:round}",
    f".km{{stroke:{INK};stroke-width:6.6}}",
    ".ls{fill:none;stroke:currentColor;stroke-width:2.4;stroke-dasharray:6 3.5}",
    f".ks{{stroke:{INK};stroke-width:4.4}}",
    ".lr{fill:none;stroke:currentColor;stroke-width:3}",
    f".kr{{stroke:{INK};stroke-width:5.6}}",
    ".d{stroke-dasharray:7 5;stroke-linecap:butt}",
    ".dc{stroke-dasharray:5 3}",
    ".dt{stroke-dasharray:.1 5.4;stroke-linecap:round}",
    f".hd{{fill:currentColor;stroke:{INK};stroke-width:1.4;stroke-linejoin:round}}",
    f".sd{{fill:currentColor;stroke:{INK};stroke-width:1.4;stroke-dasharray:none}}",
    ".fa{opacity:.55}",
    f".x{{fill:{INK};stroke:{PAPER};stroke-width:1.5;paint-order:stroke;stroke-linejoin:round}}",
    f".dr{{fill:{PAPER};fill-opacity:.75;stroke:currentColor;stroke-width:3;stroke-dasharray:4 2.5}}",
    f".bb{{fill:{PAPER};stroke:{INK};stroke-width:1.4}}",
    f".bp{{fill:none;stroke:{INK};stroke-width:2}}",
    f".nw{{fill:none;stroke:{INK};stroke-width:1.6;stroke-dasharray:3 2}}",
    f".t{{font-family:sans-serif;fill:{INK};paint-order:stroke;stroke:{PAPER};stroke-width:3;stroke-linejoin:round}}",
    ".tt{font:700 26px Georgia,serif}",
    ".ts{font-size:12.5px;font-style:italic}",
    ".tl{font-size:11px}",
    ".tr{text-anchor:end}",
    f".pn{{fill:{PAPER};fill-opacity:.86;stroke:#6e6148;stroke-width:1.4}}",
    ".pz{color:#a39a86}",
)
CSS = "".join(CSS_RULES)
#: layers whose lines are cased: layer -> (class of the lines, class of their casing)
CASED = {"centres": ("lc", "kc"), "rings": ("lr", "kr"), "supports": ("ls", "ks"), "moves": ("lm", "km")}
# geometry, in map units
HEAD_LEN, HEAD_HALF = 13.0, 7.5
BAR_HALF = 8.0
BEND = 0.14
MAX_BEND = 22.0
DISLODGED_SCALE = 0.8
#: a dislodged unit sits at least this far from its province's unit anchor (in the direction of
#: the layout's dislodged anchor), so that it does not hide the unit that took its place
DISLODGED_MIN_OFFSET = 19.0
Pt = tuple[float, float]


@lru_cache(maxsize=1 << 14)  # a map's coordinates repeat: every unit of a province stands on its anchor
def num(v: float) -> str:
    """A coordinate rounded to 0.1, without a trailing ``.0``."""
    s = f"{v:.1f}"
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


@lru_cache(maxsize=1 << 14)
def pt(p: Pt) -> str:
    return f"{num(p[0])} {num(p[1])}"


def unit_vec(a: Pt, b: Pt) -> tuple[float, float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1e-9
    return dx / d, dy / d, d


def along(a: Pt, b: Pt, dist: float) -> Pt:
    ux, uy, _ = unit_vec(a, b)
    return a[0] + ux * dist, a[1] + uy * dist


def quad(s: Pt, c: Pt, e: Pt, t: float) -> Pt:
    u = 1 - t
    return (u * u * s[0] + 2 * u * t * c[0] + t * t * e[0], u * u * s[1] + 2 * u * t * c[1] + t * t * e[1])


def num2(v: float) -> str:
    """A scale factor, as short as it goes: ``.55``, ``.7``."""
    return f"{v:.2f}".rstrip("0").rstrip(".").removeprefix("0")


def rel(frm: Pt, to: Pt) -> str:
    """`to` relative to `frm`, for lower-case path commands."""
    return f"{num(to[0] - frm[0])} {num(to[1] - frm[1])}".replace(" -", "-")


def quad_d(s: Pt, c: Pt, e: Pt) -> str:
    return f"M{pt(s)}q{rel(s, c)} {rel(s, e)}"


def line_d(s: Pt, e: Pt) -> str:
    return f"M{pt(s)}l{rel(s, e)}"


def power_classes(board: Board) -> dict[str, str]:
    """Each power's CSS class in the overlay: ``p`` + its abbreviation (``pfra``)."""
    return dict(_power_classes(tuple((name, info.abbr) for name, info in board.powers.items())))


@lru_cache(maxsize=64)  # every map of a board asks again
def _power_classes(powers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    out: dict[str, str] = {}
    for i, (name, abbr) in enumerate(powers):
        cls = "p" + re.sub(r"[^a-z0-9]", "", (abbr or name).lower())
        if cls in out.values():
            cls = f"{cls}{i}"
        out[name] = cls
    return tuple(out.items())


def power_letters(board: Board) -> dict[str, str]:
    """The letter each power's units carry (colour is not the only cue): the first letter of its
    abbreviation, or as many as tell it from every other power's (``A``, ``E``, ``F``)."""
    return dict(_power_letters(tuple((name, info.abbr) for name, info in board.powers.items())))


@lru_cache(maxsize=64)  # every map of a board asks again
def _power_letters(powers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    abbr = {name: (a or name) for name, a in powers}
    out = {}
    for name, a in abbr.items():
        n = 1
        while n < len(a) and any(o != name and b[:n].lower() == a[:n].lower() for o, b in abbr.items()):
            n += 1
        out[name] = a[:n]
    return tuple(out.items())


def letter_mark(letter: str, at: Pt, r: float) -> str:
    """A unit's power letter, on the token's lower right (`r`: the unit's radius)."""
    return f'<text class="pl" x="{num(at[0] + r * .74)}" y="{num(at[1] + r * .74)}">{escape(letter)}</text>'


def title_element(text: str) -> str:
    return f"<title>{escape(text)}</title>" if text else ""


@lru_cache(maxsize=1 << 12)
def centre_dot(p: Pt) -> str:
    return f"M{pt(p)}h0"


def centre_dots(pts: list[Pt]) -> str:
    return '<path d="' + "".join(centre_dot(p) for p in pts) + '"/>'


@lru_cache(maxsize=4096)
def standing(kind: str, at: Pt) -> str:
    """A unit at its anchor (the attributes of its ``<use>``)."""
    return f'href="#{symbol_id(kind)}" x="{num(at[0])}" y="{num(at[1])}"'


def beside_at(sym: Symbol, at: Pt, i: int) -> Pt:
    """Where the `i`-th piece of its row beside the unit anchored at `at` is drawn."""
    _, dx, dy, step = sym.beside
    return at[0] + dx + step * i, at[1] + dy


def beside(kind: str, sym: Symbol, at: Pt, i: int) -> str:
    """The `i`-th piece that does not occupy, of a province whose unit anchor is `at` (its ``<use>``'s
    attributes): small, in a row whose place and size its symbol gives (`Symbol.beside`)."""
    x, y = beside_at(sym, at, i)
    return f'href="#{symbol_id(kind)}" transform="translate({num(x)} {num(y)}) scale({num2(sym.beside[0])})"'


def dislodged_glyph(kind: str, at: Pt, title: str, ring: str) -> str:
    return (f'<g transform="translate({num(at[0])} {num(at[1])})">{title}'
            f'<circle class="dr {ring}" r="14.5"/>'
            f'<use href="#{symbol_id(kind)}" transform="scale({DISLODGED_SCALE})"/></g>')


def use(attrs: str, inner: str = "") -> str:
    return f"<use {attrs}>{inner}</use>" if inner else f"<use {attrs}/>"


def cased(layer: str, content: str, gid: str) -> str:
    """Lines drawn once in a group with the layer's class, and cased by a <use> of that group beneath."""
    line, casing = CASED[layer]
    return f'<g class="{line}"><use href="#{gid}" class="{casing}"/><g id="{gid}">{content}</g></g>'


#: the id of the empty element that every map starts with: a map shown with ``#o-cb`` after its
#: address (``overlay.svg#o-cb``, or the page's switch) draws in the colour-blind palette, by CSS
#: ``:target`` alone, which works in an SVG shown as an image (no script runs there)
SAFE_TARGET = "o-cb"


@lru_cache(maxsize=64)
def power_rules(classes: tuple[tuple[str, str, str], ...]) -> str:
    """Each power's colour (and the colour of glyphs drawn on it) as a rule for its class, and its
    colour in the colour-blind palette when the map is the target of ``#o-cb`` (`SAFE_TARGET`)
    (`classes`: class, colour, colour-blind palette's colour)."""
    rules = []
    for cls, colour, _ in classes:
        g = glyph_colour(colour)
        extra = f";--g:{g}" if g != "#fff" else ""
        rules.append(f".{cls}{{color:{colour}{extra}}}")
    rules += [f"#{SAFE_TARGET}:target~* .{cls}{{color:{safe};--g:{glyph_colour(safe)}}}"
              for cls, colour, safe in classes if safe != colour]
    return "".join(rules)


@lru_cache(maxsize=4096)
def burst_path(outer: float, inner: float, points: int) -> str:
    """A burst (a bombing's mark): a star of `points` points, `outer` and `inner` radii."""
    pts = []
    for k in range(2 * points):
        a = math.pi * k / points - math.pi / 2
        rad = outer if k % 2 == 0 else inner
        pts.append((math.cos(a) * rad, math.sin(a) * rad))
    return "M" + "L".join(pt(p) for p in pts) + "Z"


@lru_cache(maxsize=4096)
def cross_path(arm: float, half: float) -> str:
    """A diagonal cross (×) as one closed outline: arms `arm` long, `half` thick each side."""
    pts = []
    for k in range(4):
        a = math.radians(45 + 90 * k)
        ca, sa = math.cos(a), math.sin(a)
        tip = (ca * arm, sa * arm)
        nx, ny = -sa, ca
        pts.append((tip[0] - nx * half, tip[1] - ny * half))
        pts.append((tip[0] + nx * half, tip[1] + ny * half))
        b = math.radians(45 + 90 * k + 45)
        r = half * math.sqrt(2)
        pts.append((math.cos(b) * r, math.sin(b) * r))
    return "M" + "L".join(pt(p) for p in pts) + "Z"

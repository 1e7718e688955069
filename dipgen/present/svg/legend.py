"""The map's title and legend: the phase's name, each power's colour and centre count, and a
key to what this map draws (only what it draws)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from dipgen.present.mapview import MapView
from dipgen.present.svg.overlay import Painter
from dipgen.present.svg.shapes import cased, centre_dots, line_d, num
from dipgen.present.svg.symbols import symbol_id

# ---------------------------------------------------------------------- the title and legend
KEY_ORDER = ("move", "failed", "support", "cut", "convoy", "hold", "secret", "dislodged", "retreat", "build",
             "remove", "upgrade", "downgrade", "bomb", "bomb-failed")


KEY_LABEL = {"move": "move", "failed": "failed move", "support": "support", "cut": "support cut",
             "convoy": "convoy", "hold": "hold", "dislodged": "dislodged", "retreat": "retreat",
             "build": "build", "remove": "removed, disbanded", "secret": "order unseen",
             "upgrade": "upgraded", "downgrade": "downgraded", "bomb": "bombing hit", "bomb-failed": "bombing defended"}


def _key_glyph(key: str, x: float, y: float, kind: str = "A") -> tuple[str, str]:
    """A small sample of a mark, 26 wide, centred on height `y`: (layer it is cased with, SVG)."""
    if key in ("move", "retreat"):
        return "moves", (f'<path d="{line_d((x, y), (x + 18, y))}"/>'
                         f'<path class="hd" d="M{num(x + 27)} {num(y)}L{num(x + 17)} {num(y - 5.5)} '
                         f'{num(x + 17)} {num(y + 5.5)}Z"/>')
    if key == "failed":
        return "moves", (f'<path class="d" d="{line_d((x, y), (x + 24, y))}"/>'
                         f'<path d="{line_d((x + 24, y - 6.5), (x + 24, y + 6.5))}"/>')
    if key in ("support", "cut"):
        out = (f'<path d="{line_d((x, y), (x + 24, y))}"/>'
               f'<circle class="sd" cx="{num(x + 24)}" cy="{num(y)}" r="3"/>')
        if key == "cut":
            out += f'<use href="#o-xs" x="{num(x + 12)}" y="{num(y)}" class="x"/>'
        return "supports", out
    c = f'cx="{num(x + 13)}" cy="{num(y)}" r="7.5"'
    if key == "convoy":
        return "rings", f'<circle class="dc" {c}/>'
    if key == "hold":
        return "rings", f"<circle {c}/>"
    if key == "secret":
        return "rings", f'<circle class="dt" {c}/>'
    if key == "dislodged":
        return "", (f'<g transform="translate({num(x + 13)} {num(y)})"><circle class="dr" r="8"/>'
                    f'<use href="#{symbol_id(kind)}" transform="scale(.6)"/></g>')
    if key == "build":
        return "", f'<use href="#o-bd" x="{num(x + 13)}" y="{num(y)}"/>'
    if key in ("bomb", "bomb-failed"):
        return "supports", (f'<path class="dt" d="{line_d((x, y), (x + 14, y))}"/>'
                         f'<use href="#o-bm" transform="translate({num(x + 20)} {num(y)}) scale(.7)" '
                         f'class="{"hd" if key == "bomb" else "bb"}"/>')
    if key in ("upgrade", "downgrade"):
        badge = "o-up" if key == "upgrade" else "o-dn"
        return "", f'<use href="#{badge}" x="{num(x + 13)}" y="{num(y)}"/>'
    if key == "remove":
        return "", f'<use href="#o-xs" x="{num(x + 13)}" y="{num(y)}" class="x"/>'
    return "", ""


def _count(n: int | None) -> str:
    return "?" if n is None else str(n)


def legend(p: Painter, sc: MapView, corner: tuple[float, float] = (0.0, 0.0)) -> str:
    """The phase name, each power's colour and centre count, and a key to what this map draws, in
    the top left corner of the part of the map shown (`corner`: its top left point)."""
    x0, y0, col = corner[0] + 10.0, corner[1] + 10.0, 98.0
    heads = (f'<text class="t tt" x="{num(x0 + 10)}" y="{num(y0 + 30)}">{escape(sc.title)}</text>'
             f'<text class="t ts" x="{num(x0 + 10)}" y="{num(y0 + 48)}">{escape(sc.subtitle)}</text>')
    out: list[str] = []
    dots: list[str] = []
    y = y0 + 70
    for i, power in enumerate(p.powers):
        cx = x0 + 10 + (i % 2) * col
        cy = y + (i // 2) * 17
        dots.append(f'<g class="{p.pclass[power]}">{centre_dots([(cx + 5, cy - 4)])}</g>')
        out.append(f'<text x="{num(cx + 14)}" y="{num(cy)}">{escape(power)}</text>'
                   f'<text class="tr" x="{num(cx + col - 12)}" y="{num(cy)}">{_count(sc.counts.get(power))}</text>')
    y += ((len(p.powers) + 1) // 2) * 17 + 6
    items: list[tuple[str, str]] = [("kind:" + k, p.kind_name(k)) for k in sorted(p.kinds_used)]
    items += [(k, KEY_LABEL[k]) for k in KEY_ORDER if k in p.keys]
    glyphs: dict[str, list[str]] = {}
    for i, (key, label) in enumerate(items):
        cx = x0 + 10 + (i % 2) * col
        cy = y + (i // 2) * 19
        if key.startswith("kind:"):
            glyphs.setdefault("", []).append(
                f'<use href="#{symbol_id(key[5:])}" x="{num(cx + 13)}" y="{num(cy - 4)}"/>')
        else:
            layer, svg = _key_glyph(key, cx, cy - 4, min(p.kinds_used, default="A"))
            glyphs.setdefault(layer, []).append(svg)
        out.append(f'<text x="{num(cx + 32)}" y="{num(cy)}">{escape(label)}</text>')
    rows = (len(items) + 1) // 2
    height = (y + rows * 19 - 6) - y0
    panel = f'<rect class="pn" x="{num(x0)}" y="{num(y0)}" width="{num(2 * col + 12)}" height="{num(height)}" rx="6"/>'
    samples = "".join(cased(layer, "".join(g), f"o-key-{layer}") if layer else "".join(g)
                      for layer, g in sorted(glyphs.items()))
    swatches = cased("centres", "".join(dots), "o-key-centres")
    return (f'<g id="o-legend">{panel}{heads}{swatches}<g class="pz">{samples}</g>'
            f'<g class="t tl">{"".join(out)}</g></g>')

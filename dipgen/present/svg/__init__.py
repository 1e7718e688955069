"""Maps of a game: the shared base map of a board, and a transparent overlay per phase.

The site shows the base map once (``board_svg``, embedded with ``<object>`` so province
names show on hover) and stacks each phase's overlay (``overlay_svg``, an ``<img>`` with
``pointer-events: none``) exactly on top: both share one viewBox (``map_size``). The
overlay never refers to the base map and is transparent wherever it draws nothing.
``render_standalone`` joins the two into one self-contained SVG for downloads and for
``dipgen render``; ``og_svg`` draws the same for a link preview, framed to ``raster.OG_SIZE``'s
shape (``raster.png`` draws either as a picture).

The renderer draws the view it is given: a `dipgen.present.mapview.MapView` (units, dislodgements,
owners, results, already filtered for one visibility level by `dipgen.present.mapview.map_view`).
It never reads a History.

The base maps live in ``svg_templates/<board>/``, which dipgen ships (`dipgen.resources.folders`).
"""

from __future__ import annotations

from typing import NamedTuple
from xml.sax.saxutils import escape

from dipgen.present.mapview import MapView
from dipgen.present.svg.assets import (board_inner, board_land_fill, board_sea_fill, board_text, layout,
                                      variant_board_name)
from dipgen.present.svg.colour import mix
from dipgen.present.svg.legend import legend
from dipgen.present.svg.overlay import Painter, centre_mark, unit_marks
from dipgen.present.svg.raster import OG_SIZE
from dipgen.present.svg.shapes import SAFE_TARGET, num, power_classes
from dipgen.present.svg.symbols import symbol_table

__all__ = ["MapSize", "board_svg", "centre_mark", "map_size", "og_frame", "og_svg", "overlay_svg", "render_standalone",
           "power_classes", "unit_marks"]

SVG_NS = "http://www.w3.org/2000/svg"


def board_svg(variant) -> str:
    """The base map of `variant`'s board, shared by every map of the site."""
    return board_text(variant_board_name(variant))


class MapSize(NamedTuple):
    """The width and height of a board's viewBox, which every overlay shares."""

    width: float
    height: float


def map_size(variant) -> MapSize:
    """The size of the board's viewBox, which every overlay shares."""
    width, height = layout(variant_board_name(variant)).size
    return MapSize(float(width), float(height))


def _paint(view: MapView, titles: bool) -> tuple[Painter, tuple[float, ...]]:
    lay = layout(variant_board_name(view.variant))
    painter = Painter(view.variant, lay, symbol_table(view.variant), titles=titles)
    painter.paint(view)
    return painter, lay.view_box


def _root(view_box, title: str, body: str, shown: tuple[float, float] | None = None) -> str:
    """The map's root element; its first child is the target of the colour-blind palette
    (`shapes.SAFE_TARGET`), before everything its rules colour."""
    x, y, w, h = view_box
    sw, sh = shown or (w, h)
    return (f'<svg xmlns="{SVG_NS}" viewBox="{num(x)} {num(y)} {num(w)} {num(h)}" width="{num(sw)}" height="{num(sh)}">'
            f'<title>{escape(title)}</title><g id="{SAFE_TARGET}"/>\n{body}\n</svg>\n')


def overlay_svg(view: MapView) -> str:
    """The transparent overlay that draws `view` (one phase's map at one visibility level)."""
    sc = view
    p, view_box = _paint(view, titles=False)
    content = f"{p.body()}\n{legend(p, sc)}"
    return _root(view_box, f"{sc.title}: {sc.subtitle}", f"{p.defs(content)}\n{content}")


def og_frame(board_name: str, shape: tuple[int, int] = OG_SIZE,
             margin: float = 30.0) -> tuple[float, float, float, float]:
    """The part of the board a link preview shows, in `shape`'s proportions: every supply centre
    with `margin` around (room for a unit's marker), centred on them; where that is wider than the
    board, the sea goes on at its sides (`raster.png`'s background)."""
    lay = layout(board_name)
    x, y, w, h = lay.view_box
    points = [c for prov in lay.provinces if (c := lay.centre(prov))]
    top, bottom = (min(p[1] for p in points) - margin, max(p[1] for p in points) + margin) if points else (y, y + h)
    height = min(h, bottom - top)
    width = height * shape[0] / shape[1]
    middle = (top + bottom) / 2
    top = max(y, min(y + h - height, middle - height / 2))
    return round(x + (w - width) / 2, 1), round(top, 1), round(width, 1), round(height, 1)


def og_svg(view: MapView) -> str:
    """`render_standalone` of `view` framed for a link preview (`og_frame`), the legend in the
    frame's corner, `raster.OG_SIZE` wide and high: `raster.png(og_svg(view))` is the picture."""
    return render_standalone(view, og_frame(variant_board_name(view.variant)), OG_SIZE)


def render_standalone(view: MapView, frame: tuple[float, float, float, float] | None = None,
                      shown: tuple[float, float] | None = None) -> str:
    """One self-contained SVG of `view`: the base map, owned centres' provinces tinted, and the
    overlay; `frame`: the part of the board shown (default: all of it), `shown`: its width and
    height (default: the frame's)."""
    sc = view
    p, view_box = _paint(view, titles=True)
    view_box = frame or view_box
    name = variant_board_name(view.variant)
    land = board_land_fill(name)
    by_power: dict[str, list[str]] = {}
    for prov, power in sorted(sc.owners.items()):
        if power in p.board.powers:
            by_power.setdefault(power, []).append(f"#{prov}")
    tint = "".join(f"{','.join(ids)}{{fill:{mix(p.board.powers[power].colour, land, 0.28)}}}"
                   for power, ids in by_power.items())
    tint += "".join(f"{','.join(f'#{SAFE_TARGET}:target~* {i}' for i in ids)}"
                    f"{{fill:{mix(p.board.powers[power].safe, land, 0.28)}}}"
                    for power, ids in by_power.items() if p.board.powers[power].safe != p.board.powers[power].colour)
    content = f"{p.body()}\n{legend(p, sc, (view_box[0], view_box[1]))}"
    sea = "" if frame is None else (f'<rect x="{num(view_box[0])}" y="{num(view_box[1])}" width="{num(view_box[2])}" '
                                    f'height="{num(view_box[3])}" fill="{board_sea_fill(name)}"/>\n')
    body = f"<style>{tint}</style>\n{sea}{board_inner(name)}\n{p.defs(content)}\n{content}"
    return _root(view_box, f"{sc.title}: {sc.subtitle}", body, shown)

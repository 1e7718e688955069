"""Maps of a game: the shared base map of a board, and a transparent overlay per phase.

The site shows the base map once (``board_svg``, embedded with ``<object>`` so province
names show on hover) and stacks each phase's overlay (``overlay_svg``, an ``<img>`` with
``pointer-events: none``) exactly on top: both share one viewBox (``map_size``). The
overlay never refers to the base map and is transparent wherever it draws nothing.
``render_standalone`` joins the two into one self-contained SVG for downloads and for
``dipgen render``.

The renderer draws the view it is given: a `dipgen.present.mapview.MapView` (units, dislodgements,
owners, results, already filtered for one visibility level by `dipgen.present.mapview.map_view`).
It never reads a History.

The base maps live in ``svg_templates/<board>/``, which dipgen ships (`dipgen.core.resources`).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from dipgen.present.mapview import MapView
from dipgen.present.svg.assets import board_inner, board_land_fill, board_text, layout, variant_board_name
from dipgen.present.svg.colour import mix
from dipgen.present.svg.legend import legend
from dipgen.present.svg.overlay import Painter, centre_mark, unit_marks
from dipgen.present.svg.shapes import num, power_classes
from dipgen.present.svg.symbols import symbol_table

__all__ = ["board_svg", "centre_mark", "map_size", "overlay_svg", "render_standalone", "power_classes", "unit_marks"]

SVG_NS = "http://www.w3.org/2000/svg"


def board_svg(variant) -> str:
    """The base map of `variant`'s board, shared by every map of the site."""
    return board_text(variant_board_name(variant))


def map_size(variant) -> tuple[float, float]:
    """The (width, height) of the board's viewBox, which every overlay shares."""
    return layout(variant_board_name(variant)).size


def _paint(view: MapView, titles: bool) -> tuple[Painter, tuple[float, ...]]:
    lay = layout(variant_board_name(view.variant))
    painter = Painter(view.variant, lay, symbol_table(view.variant), titles=titles)
    painter.paint(view)
    return painter, lay.view_box


def _root(view_box, title: str, body: str) -> str:
    x, y, w, h = view_box
    return (f'<svg xmlns="{SVG_NS}" viewBox="{num(x)} {num(y)} {num(w)} {num(h)}" width="{num(w)}" height="{num(h)}">'
            f"<title>{escape(title)}</title>\n{body}\n</svg>\n")


def overlay_svg(view: MapView) -> str:
    """The transparent overlay that draws `view` (one phase's map at one visibility level)."""
    sc = view
    p, view_box = _paint(view, titles=False)
    content = f"{p.body()}\n{legend(p, sc)}"
    return _root(view_box, f"{sc.title}: {sc.subtitle}", f"{p.defs(content)}\n{content}")


def render_standalone(view: MapView) -> str:
    """One self-contained SVG of `view`: the base map, owned centres' provinces tinted, and the overlay."""
    sc = view
    p, view_box = _paint(view, titles=True)
    name = variant_board_name(view.variant)
    land = board_land_fill(name)
    by_power: dict[str, list[str]] = {}
    for prov, power in sorted(sc.owners.items()):
        if power in p.board.powers:
            by_power.setdefault(power, []).append(f"#{prov}")
    tint = "".join(f"{','.join(ids)}{{fill:{mix(p.board.powers[power].colour, land, 0.28)}}}"
                   for power, ids in by_power.items())
    content = f"{p.body()}\n{legend(p, sc)}"
    body = f"<style>{tint}</style>\n{board_inner(name)}\n{p.defs(content)}\n{content}"
    return _root(view_box, f"{sc.title}: {sc.subtitle}", body)

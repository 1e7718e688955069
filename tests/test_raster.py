"""Maps as PNG pictures (dipgen.present.svg.raster): the labels are drawn with the font dipgen
brings (never the machine's), a link preview's picture frames every supply centre, and a picture
is drawn once per SVG in a process."""

from __future__ import annotations

import re
from pathlib import Path

from dipgen.usecases.games import load_checked
from dipgen.present.mapview import map_view
from dipgen.present.svg import og_frame, og_svg, raster, render_standalone
from dipgen.present.svg.assets import layout
from dipgen.view import game_view
from support.pictures import pixels, size

REPO = Path(__file__).resolve().parent.parent


def _view():
    return map_view(game_view(load_checked(REPO / "games" / "winter-palace").history, "public"), "1901-fall")


def _opaque(png: bytes) -> int:
    return sum(1 for *_, a in pixels(png) if a)


def test_text_is_drawn_with_the_shipped_font_whatever_the_machine_has():
    """Each family the maps name (sans-serif, serif, Georgia) draws ink, from the font files dipgen
    brings alone: resvg is never given the machine's fonts (a bare Debian has none)."""
    for family in ("sans-serif", "serif", "Georgia,serif"):
        svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">'
               f'<text x="4" y="30" style="font:italic 700 26px {family}">Mun</text></svg>')
        assert _opaque(raster.png(svg)) > 150, family
    assert all(Path(f).is_file() and "NotoSans" in Path(f).name for f in raster.fonts())


def test_a_map_picture_has_its_labels():
    """The map drawn with and without its text differ in thousands of pixels: the province names,
    the legend and the title are in the picture."""
    svg = render_standalone(_view())
    bare = re.sub(r"<text\b[^>]*>[^<]*</text>", "", svg)
    with_text, without = raster.png(svg, 550), raster.png(bare, 550)
    assert size(with_text) == size(without) == (550, 511)
    different = sum(1 for a, b in zip(pixels(with_text), pixels(without), strict=True) if a != b)
    assert different > 5000


def test_the_link_preview_frames_every_centre_at_1200_by_630():
    x, y, w, h = og_frame("standard")
    assert abs(w / h - 1200 / 630) < 0.01
    lay = layout("standard")
    centres = [c for p in lay.provinces if (c := lay.centre(p))]
    assert len(centres) == 34
    assert all(x < cx < x + w and y < cy < y + h for cx, cy in centres)
    svg = og_svg(_view())
    assert f'viewBox="{x:g} {y:g} {w:g} {h:g}"' in svg
    picture = raster.png(svg)
    assert size(picture) == (1200, 630)
    assert all(a == 255 for *_, a in pixels(picture))  # the sea goes on past the board's sides: no hole


def test_a_picture_is_drawn_once_per_svg():
    raster.forget()
    svg = render_standalone(_view())
    first = raster.png(svg, 200)
    assert raster.png(svg, 200) is first
    assert raster.png(svg, 300) is not first
    raster.forget()
    again = raster.png(svg, 200)
    assert again == first
    assert again is not first  # the same bytes, drawn again

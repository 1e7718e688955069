"""Province names stay readable under the marks of a crowded map (issue 37, point 8): the overlay
draws again, on top and with a halo, every name a unit, a ring, a dislodged unit, an arrow's head
or a line touches (dipgen.present.svg.labels). Checked on the pictures themselves: the name's
letters, as the bare board shows them, are all still there on the drawn map, at a zoom of four."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dipgen.usecases.games import load_checked
from dipgen.present.mapview import map_view
from dipgen.present.svg import overlay_svg, raster, render_standalone
from dipgen.present.svg.assets import board_text
from dipgen.present.svg.labels import board_labels
from dipgen.view import game_view
from support.pictures import pixels, size

REPO = Path(__file__).resolve().parent.parent
#: the colours of the base map's names: on land (#4a3f2a), at sea (#3d6a8f), on impassable land (#6f6657)
LETTERS = {"land": (74, 63, 42), "sea": (61, 106, 143), "impassable": (111, 102, 87)}
ZOOM = 4


def _view(game: str, phase: str):
    return map_view(game_view(load_checked(REPO / "games" / game).history, "public"), phase, "orders")


def _letters(svg: str, prov: str) -> set[tuple[int, int]]:
    """Where, in the box of `prov`'s name on the map drawn at `ZOOM`, the pixels are the name's colour."""
    label = next(lb for lb in board_labels("standard") if lb.prov == prov)
    colour = next(c for word, c in LETTERS.items() if word in label.cls.split())
    half = len(label.text) * label.size * 0.36
    x, y, w, h = label.x - half, label.y - label.size * 0.6, 2 * half, label.size * 1.2
    framed = re.sub(r'viewBox="[^"]*" width="[^"]*" height="[^"]*"',
                    f'viewBox="{x} {y} {w} {h}" width="{w * ZOOM:g}" height="{h * ZOOM:g}"', svg, count=1)
    png = raster.png(framed)
    width, _ = size(png)
    return {(i % width, i // width) for i, (r, g, b, _) in enumerate(pixels(png))
            if abs(r - colour[0]) + abs(g - colour[1]) + abs(b - colour[2]) < 40}


@pytest.mark.slow  # each name's box of the map drawn to PNG, twice a name
@pytest.mark.parametrize("game,phase,names", [
    ("winter-palace", "1903-fall", ["mun", "vie", "hol", "bel", "bud", "bul", "gal"]),
    ("lamps-out", "1902-fall", []),
    ("two-captains", "1901-fall", ["mun", "spa", "ukr"]),
])
def test_every_name_a_mark_covers_is_drawn_again_and_readable(game, phase, names):
    view = _view(game, phase)
    overlay = overlay_svg(view)
    drawn = re.findall(r'<text class="ol-label[^"]*" x="[^"]*" y="[^"]*">([^<]*)</text>', overlay)
    assert overlay.rindex("<g id=\"o-labels\">") > overlay.rindex("<g id=\"o-units\">")  # on top of the units
    texts = {lb.prov: lb.text for lb in board_labels("standard")}
    assert {texts[p] for p in names} <= set(drawn)
    full = render_standalone(view)
    bare = board_text("standard")
    # every name the map draws again: its letters all there, as on the bare board
    for prov in [lb.prov for lb in board_labels("standard") if lb.text in drawn]:
        want, have = _letters(bare, prov), _letters(full, prov)
        assert want, f"{texts[prov]}: {len(want & have)} of {len(want)}"
        assert len(want & have) >= 0.9 * len(want), f"{texts[prov]}: {len(want & have)} of {len(want)}"


def test_without_the_names_drawn_again_a_mark_hides_them():
    """The check above can fail: with the names' layer taken out, Munich's hold ring hides its name."""
    full = render_standalone(_view("winter-palace", "1903-fall"))
    without = re.sub(r'<g id="o-labels">.*?</g>', "", full, flags=re.S)
    want, have = _letters(board_text("standard"), "mun"), _letters(without, "mun")
    assert len(want & have) < 0.8 * len(want)


def test_an_overlay_repeats_only_the_names_its_marks_touch():
    overlay = overlay_svg(_view("winter-palace", "1903-fall"))
    drawn = re.findall(r'class="ol-label[^"]*"', overlay)
    assert 5 <= len(drawn) < len(board_labels("standard")) / 2

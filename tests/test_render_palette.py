"""The powers' colours stay apart for colour-blind players, and units differ by shape, not colour alone.

Colour-vision deficiencies are simulated with the Machado, Oliveira & Fernandes (2009)
matrices at full severity, applied in linear sRGB; colours are compared by CIEDE2000.
"""

from __future__ import annotations

import itertools
import re
import math
import xml.etree.ElementTree as ET

import pytest

from dipgen.resources.boards import load_board
from dipgen.present.svg.symbols import symbol_table
from dipgen.variants import get_variant

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}
MIN_DELTA_E = {"normal": 20.0, "protanopia": 11.0, "deuteranopia": 11.0, "tritanopia": 11.0}
LAND, SEA = "#efe6cc", "#c5dbe8"   # the base map's parchment and sea


def linear_rgb(hex_colour: str) -> tuple[float, ...]:
    h = hex_colour.lstrip("#")
    out = []
    for i in (0, 2, 4):
        c = int(h[i:i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return tuple(out)


def simulate(hex_colour: str, kind: str) -> tuple[float, ...]:
    rgb = linear_rgb(hex_colour)
    return tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in MACHADO[kind])


def lab(rgb: tuple[float, ...]) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = lambda t: t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116  # noqa: E731
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(c1, c2) -> float:
    (l1, a1, b1), (l2, a2, b2) = c1, c2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbar, cbarp = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6)) - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def test_ciede2000_matches_published_pairs():
    # Sharma, Wu & Dalal (2005), test data pairs 1 and 7
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)


def test_simulation_keeps_greys_grey():
    for kind in MACHADO:
        r, g, b = simulate("#808080", kind)
        assert max(r, g, b) - min(r, g, b) < 0.01


@pytest.mark.parametrize("vision", list(MACHADO))
def test_power_colours_stay_apart(vision):
    powers = load_board("standard").powers
    labs = {name: lab(simulate(p.colour, vision)) for name, p in powers.items()}
    worst = min((ciede2000(labs[a], labs[b]), a, b) for a, b in itertools.combinations(labs, 2))
    assert worst[0] >= MIN_DELTA_E[vision], f"{worst[1]} and {worst[2]} look alike with {vision}: ΔE00 {worst[0]:.1f}"


def test_power_colours_stand_out_from_the_map():
    """Units and centre dots are outlined in ink, but their fill should still differ from land and sea."""
    for name, p in load_board("standard").powers.items():
        for ground in (LAND, SEA):
            d = ciede2000(lab(linear_rgb(p.colour)), lab(linear_rgb(ground)))
            assert d >= 12, f"{name} is too close to {ground}: ΔE00 {d:.1f}"


def test_unit_symbols_differ_by_shape():
    """Not just colour: each kind's outline is a different shape."""
    table = symbol_table(get_variant("standard"))

    def outline(body: str):
        first = ET.fromstring(f"<g>{body}</g>")[0]
        return first.tag, tuple(sorted(first.attrib.items()))

    shapes = {kind: outline(sym.body) for kind, sym in table.items()}
    assert len(set(shapes.values())) == len(shapes) >= 2
    assert shapes["A"][0] == "circle"
    assert shapes["F"][0] == "path"


def test_units_carry_their_powers_letter():
    """Colour is not the only cue: every unit standing on a map carries its power's letter, one
    letter per power unless two powers share it, and never the same for two powers of a variant."""
    import re
    from pathlib import Path

    from dipgen.usecases.games import load_checked
    from dipgen.present.mapview import map_view
    from dipgen.present.svg import overlay_svg
    from dipgen.present.svg.shapes import power_letters
    from dipgen.variants import VARIANTS
    from dipgen.view import game_view

    for name in VARIANTS:
        letters = power_letters(get_variant(name).rules.board)
        assert len(set(letters.values())) == len(letters), name
    assert power_letters(load_board("standard")) == {"Austria": "A", "England": "E", "France": "F", "Germany": "G",
                                                     "Italy": "I", "Russia": "R", "Turkey": "T"}
    folder = Path(__file__).resolve().parent.parent / "games" / "winter-palace"
    view = map_view(game_view(load_checked(folder).history, "public"), "1903-fall", "orders")
    overlay = overlay_svg(view)
    units = ET.fromstring(overlay).find(".//{http://www.w3.org/2000/svg}g[@id='o-units']")
    assert units is not None
    for group in units:
        power = next(p for p, c in _classes().items() if c == group.get("class"))
        marks = [el for el in group if el.tag.endswith("text") and "pl" in el.get("class", "").split()]
        tokens = [el for el in group if el.tag.endswith("use")]
        assert len(marks) == len(tokens) > 0
        assert {m.text for m in marks} == {power[0]}
    assert len(re.findall(r'class="pl', overlay)) == len(view.units)


def _classes() -> dict[str, str]:
    from dipgen.present.svg.shapes import power_classes

    return power_classes(load_board("standard"))


@pytest.mark.parametrize("vision", ["protanopia", "deuteranopia", "tritanopia"])
def test_the_colour_blind_palette_keeps_every_pair_further_apart(vision):
    """The board's colour-blind palette (each power's safe_colour, a site option and a switch under
    each map): with each common deficiency simulated, every two powers at least 18 ΔE00 apart,
    further than the usual palette's closest pair, and each still clear of land and sea."""
    powers = load_board("standard").powers

    def closest(colours: dict[str, str]) -> float:
        labs = {name: lab(simulate(c, vision)) for name, c in colours.items()}
        return min(ciede2000(labs[a], labs[b]) for a, b in itertools.combinations(labs, 2))

    safe = {name: p.safe for name, p in powers.items()}
    assert all(p.safe_colour and p.safe_colour != p.colour for p in powers.values())
    assert closest(safe) >= 18.0 > closest({name: p.colour for name, p in powers.items()})
    for name, colour in safe.items():
        for ground in (LAND, SEA):
            assert ciede2000(lab(simulate(colour, vision)), lab(simulate(ground, vision))) >= 12, (name, ground)


def test_a_map_shown_as_its_colour_blind_target_has_the_palette_in_its_rules():
    """Every map starts with the target of the colour-blind palette (#o-cb), and its rules give
    each power, the legend's included, its safe colour under that target (CSS :target, which an
    SVG shown as an image honours: no script runs there)."""
    from pathlib import Path

    from dipgen.usecases.games import load_checked
    from dipgen.present.mapview import map_view
    from dipgen.present.svg import overlay_svg, render_standalone
    from dipgen.view import game_view

    folder = Path(__file__).resolve().parent.parent / "games" / "winter-palace"
    view = map_view(game_view(load_checked(folder).history, "public"), "1903-fall", "orders")
    classes = _classes()
    for svg in (overlay_svg(view), render_standalone(view)):
        root = ET.fromstring(svg)
        first = [el for el in root if not el.tag.endswith("title")][0]
        assert first.get("id") == "o-cb"
        assert len(first) == 0
        for name, p in load_board("standard").powers.items():
            assert f"#o-cb:target~* .{classes[name]}{{color:{p.safe};" in svg


def test_the_site_option_makes_the_colour_blind_palette_the_default():
    """palette: colour-blind (the plugin's option) gives every map of the pages the #o-cb target,
    which the reader's switch may still turn off; the usual palette gives none."""
    from pathlib import Path

    from dipgen.usecases.games import load_checked
    from dipgen.present.site.pages import SiteOptions
    from support import public_site

    history = load_checked(Path(__file__).resolve().parent.parent / "games" / "winter-palace").history
    for palette, target in (("colour-blind", "#o-cb"), ("usual", "")):
        page = str(public_site(history, SiteOptions(palette=palette))["games/winter-palace/1903-fall/index.md"])
        sources = re.findall(r'class="dg-map-overlay" src="([^"]*)"', page)
        assert len(sources) == 2, sources
        assert all(s.endswith(("1903-fall-orders.svg" + target, "1903-fall-after.svg" + target)) for s in sources), \
            sources


def test_every_swatch_carries_its_colour_blind_colour():
    """A power's name on a page carries its colour-blind colour beside its usual one (--dg-cs, which
    dipgen.css takes in that palette): one for each usual colour of the boards dipgen ships, so
    that a swatch knows its power's without knowing its board."""
    from dipgen.present.site.jinja import colour_vars, power_name
    from dipgen.resources.boards import shipped_boards

    boards = shipped_boards()
    safe_of: dict[str, set[str]] = {}
    for name in boards:
        for p in load_board(name).powers.values():
            safe_of.setdefault(p.colour.lower(), set()).add(p.safe.lower())
    assert all(len(s) == 1 for s in safe_of.values()), safe_of  # two boards, one colour, two safe ones
    for p in load_board("standard").powers.values():
        assert str(colour_vars(p.colour)) == f"--dg-c: {p.colour}; --dg-cs: {p.safe}"
        assert f'style="--dg-c: {p.colour}; --dg-cs: {p.safe}"' in str(power_name(p.name, p.colour))
    assert str(colour_vars("#888")) == "--dg-c: #888"  # no power's colour: nothing to switch to

"""The phase map renderer: parse the SVG it draws and check every unit, order and result
is where it belongs, and that a visibility level sees nothing it may not."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from dipgen.io.gamefiles import load_game
from dipgen.core.results import Kind
from dipgen.play.replay import replay
from dipgen.core.phase import Phase
from dipgen.present import svg as render
from dipgen.present.mapview import map_view
from dipgen.present.svg import board_svg, map_size, power_classes
from dipgen.present.svg.assets import board_inner, layout
from dipgen.present.svg.overlay import Painter
from dipgen.present.svg.shapes import DISLODGED_SCALE, num
from dipgen.present.svg.symbols import symbol_id, symbol_table
from dipgen.variants import VARIANTS, get_variant
from dipgen.rules.variant import Policy, Rules, Variant
from dipgen.view import game_view, levels
from dipgen.rules.visibility import EVERYONE, NOBODY, PositionVisibility, RecordVisibility


def overlay_svg(history, phase, level="public", when="orders"):
    """The site's overlay: the level's view of the phase, drawn."""
    return render.overlay_svg(map_view(game_view(history, level), phase, when))


def render_standalone(history, phase, level="public", when="orders"):
    return render.render_standalone(map_view(game_view(history, level), phase, when))


NS = "{http://www.w3.org/2000/svg}"
LAYOUT = layout("standard")

# A lively little game: a bounce, a support (one cut), a convoy, a dislodgement and its
# retreat, centres changing hands, a build and a removal.
LIVELY = {
    "1901-spring.yml": """
        orders:
          England: [F Lon - NTH, A Lvp - Yor, F Edi - NWG]
          France: [A Par - Pic, A Mar H, F Bre - MAO]
          Germany: [A Mun - Bur, A Ber H, F Kie H]
          Austria: [A Vie - Gal, A Bud - Ser, F Tri - Alb]
          Russia: [A War - Gal, A Mos - Ukr, F Sev - BLA, F StP/sc - BOT]
          Italy: [A Ven - Tyr, A Rom - Apu, F Nap - ION]
          Turkey: [F Ank - BLA, A Con - Bul, A Smy - Arm]
        """,
    "1901-fall.yml": """
        orders:
          England: [A Yor - Bel, F NTH C A Yor - Bel, F NWG - Nwy]
          France: [A Pic - Bur, A Mar S A Pic - Bur, F MAO - Por]
          Germany: [A Bur H, A Ber H, F Kie S A Ber]
          Russia: [A War - Sil, A Ukr - Gal, F Sev H, F BOT - Swe]
          Austria: [A Vie - Gal, F Alb - Gre, A Ser H]
          Italy: [A Tyr - Mun, A Apu - Tun, F ION C A Apu - Tun]
          Turkey: [A Bul H, F Ank - Con, A Arm - Sev]
        """,
    "1901-fall-retreats.yml": """
        orders:
          Germany: [A Bur - Ruh]
        """,
}


def winter(files: dict[str, str], orders: str) -> dict[str, str]:
    return {**files, "1901-winter.yml": orders}


@pytest.fixture
def lively(make_game):
    return replay(load_game(make_game(LIVELY)))


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def layer(root: ET.Element, name: str) -> ET.Element | None:
    for el in root.iter():
        if el.get("id") == f"o-{name}":
            return el
    return None


def by_power(root: ET.Element, name: str) -> dict[str, list[ET.Element]]:
    """A layer's elements under each power's group: {power class: [elements]}."""
    out: dict[str, list[ET.Element]] = {}
    g = layer(root, name)
    if g is None:
        return out
    for pg in g:
        out.setdefault(pg.get("class"), []).extend(list(pg))
    return out


def close(a, b, tol=0.11) -> bool:
    return math.dist(a, b) <= tol


def floats(text: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d*\.?\d+", text)]


def path_points(d: str) -> list[tuple[float, float]]:
    """The absolute points of a path made of M, l, q, L (what the renderer writes)."""
    pts, cur = [], (0.0, 0.0)
    for cmd, args in re.findall(r"([MLlqQZ])([^MLlqQZ]*)", d):
        vals = floats(args)
        pairs = list(zip(vals[::2], vals[1::2], strict=True))
        if cmd in "ML":
            for p in pairs:
                cur = p
                pts.append(cur)
        elif cmd in "lq":
            base = cur
            for p in pairs:
                pts.append((base[0] + p[0], base[1] + p[1]))
            if pairs:
                cur = pts[-1]
    return pts


def anchor(loc: str) -> tuple[float, float]:
    return LAYOUT.unit(loc)


def painter(history) -> Painter:
    v = history.variant
    return Painter(v, LAYOUT, symbol_table(v))


def drawn_units(root: ET.Element) -> set[tuple[str, str, float, float]]:
    out = set()
    for cls, els in by_power(root, "units").items():
        for el in els:
            if el.tag == NS + "use" and "gh" not in (el.get("class") or ""):
                out.add((cls, el.get("href"), float(el.get("x")), float(el.get("y"))))
    return out


def expected_units(units, pclass) -> set[tuple[str, str, float, float]]:
    return {(pclass[u.power], "#" + symbol_id(u.kind), float(num(anchor(u.loc)[0])), float(num(anchor(u.loc)[1])))
            for u in units}


# ---------------------------------------------------------------------------- the API

def test_board_and_overlay_share_the_viewbox(lively):
    variant = lively.variant
    w, h = map_size(variant)
    board = parse(board_svg(variant))
    assert floats(board.get("viewBox")) == [0, 0, w, h]
    for phase in [None] + [r.phase for r in lively.records]:
        for when in ("orders", "after"):
            root = parse(overlay_svg(lively, phase, "public", when))
            assert floats(root.get("viewBox")) == [0, 0, w, h]


def test_overlay_refers_only_to_itself(lively):
    """The overlay is an <img> over the board: it may not use the board's ids or any file."""
    for r in lively.records:
        svg = overlay_svg(lively, r.phase, "gm", "orders")
        root = parse(svg)
        ids = {el.get("id") for el in root.iter() if el.get("id")}
        refs = {el.get("href") for el in root.iter() if el.get("href")}
        assert refs, refs - {f"#{i}" for i in ids}
        assert all(ref.startswith("#") and ref[1:] in ids for ref in refs), refs - {f"#{i}" for i in ids}
        assert "<image" not in svg
        assert "url(" not in svg
        # transparent: no background filling the map
        assert not any(el.tag == NS + "rect" and el.get("width") in ("100%", num(map_size(lively.variant)[0]))
                       for el in root.iter())


def test_overlay_merges_into_the_board_without_clashes(lively):
    """The site's download merges both files into one document: no shared ids or class names."""
    board = parse(board_svg(lively.variant))
    board_ids = {el.get("id") for el in board.iter() if el.get("id")}
    board_classes = {c for el in board.iter() for c in (el.get("class") or "").split()}
    board_classes |= set(re.findall(r"\.([A-Za-z_][\w-]*)", "".join(s.text or "" for s in board.iter(NS + "style"))))
    svg = overlay_svg(lively, lively.records[1].phase, "gm", "orders")
    root = parse(svg)
    ids = {el.get("id") for el in root.iter() if el.get("id")}
    classes = {c for el in root.iter() for c in (el.get("class") or "").split()}
    classes |= set(re.findall(r"\.([A-Za-z_][\w-]*)\{", "".join(s.text or "" for s in root.iter(NS + "style"))))
    assert not ids & board_ids
    assert not classes & board_classes


def test_standalone_is_one_valid_svg_with_board_and_overlay(lively):
    svg = render_standalone(lively, lively.records[1].phase, "public", "orders")
    root = parse(svg)
    assert svg.count("<svg") == 1
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    assert "par" in ids
    assert "o-units" in ids
    assert "o-moves" in ids
    assert "<title>" in svg
    assert "France: A Pic - Bur" in svg  # orders carry tooltips when standalone


def test_output_is_deterministic(lively, make_game):
    again = replay(load_game(make_game(LIVELY, slug="again")))
    for r in lively.records:
        for when in ("orders", "after"):
            assert overlay_svg(lively, r.phase, "gm", when) == overlay_svg(again, r.phase, "gm", when)


def test_phase_by_slug_and_unknown_phase(lively):
    assert overlay_svg(lively, "1901-fall", "public") == overlay_svg(lively, Phase(1901, 1), "public")
    with pytest.raises(ValueError, match="not a phase of this game"):
        overlay_svg(lively, Phase(1905, 0), "public")
    with pytest.raises(ValueError, match="unknown view"):
        overlay_svg(lively, None, "Narnia")
    with pytest.raises(ValueError, match="unknown map"):
        overlay_svg(lively, None, "public", "before")


def test_phase_name_is_drawn(lively):
    root = parse(overlay_svg(lively, Phase(1901, 1), "public", "orders"))
    texts = [t.text for t in root.iter(NS + "text")]
    assert "Fall 1901" in texts
    now = parse(overlay_svg(lively, None, "public", "after"))
    assert lively.position.phase.name in [t.text for t in now.iter(NS + "text")]


# ---------------------------------------------------------------------------- units and centres

def test_every_unit_is_drawn_at_its_anchor_in_its_power_class(lively):
    pclass = power_classes(lively.variant.rules.board)
    for r in lively.records:
        orders = parse(overlay_svg(lively, r.phase, "gm", "orders"))
        ghosts = {d.unit.loc for d in r.dislodged + r.destroyed} if r.kind == "movement" else set()
        built = {res.unit for res in r.results if type(res.order).__name__ == "Build" and res.succeeded}
        assert drawn_units(orders) == expected_units([u for u in r.before.units if u.loc not in ghosts] + list(built),
                                                     pclass)
        after = parse(overlay_svg(lively, r.phase, "gm", "after"))
        assert drawn_units(after) == expected_units(r.after.units, pclass)
    now = parse(overlay_svg(lively, None, "gm", "after"))
    assert drawn_units(now) == expected_units(lively.position.units, pclass)


def test_army_and_fleet_symbols_differ_in_shape(lively):
    table = symbol_table(lively.variant)
    army, fleet = table["A"].body, table["F"].body
    shape = lambda body: [(el.tag, el.get("d"), el.get("r")) for el in ET.fromstring(f"<g>{body}</g>")]  # noqa: E731
    assert shape(army) != shape(fleet)
    assert ET.fromstring(f"<g>{army}</g>")[0].tag == "circle"
    assert ET.fromstring(f"<g>{fleet}</g>")[0].tag == "path"


def test_unknown_unit_kinds_get_a_lettered_symbol(lively):
    class Tanks(Rules):
        unit_kinds = {**Rules.unit_kinds, "T": replace(Rules.unit_kinds["A"], letter="T", name="tank")}

    table = symbol_table(Variant.of("tanks", Tanks()))
    assert "T" in table
    assert ">T<" in table["T"].body
    assert table["T"].body != table["A"].body


def test_owned_centres_are_marked_in_the_owners_colour(lively):
    pclass = power_classes(lively.variant.rules.board)
    rec = lively.record(Phase(1901, 1, True))  # retreats: centres change hands after them
    root = parse(overlay_svg(lively, rec.phase, "gm", "after"))
    drawn = {(cls, x, y) for cls, els in by_power(root, "centres").items() for el in els
             for x, y in zip(*[iter(floats(el.get("d").replace("h0", " ")))] * 2, strict=True)}
    expected = {(pclass[p], float(num(LAYOUT.centre(c)[0])), float(num(LAYOUT.centre(c)[1])))
                for c, p in rec.after.owners.items()}
    assert drawn == expected
    assert rec.after.owners["por"] == "France"
    assert rec.after.owners["bel"] == "England"


# ---------------------------------------------------------------------------- orders and results

def moves_of(root, cls):
    """Each move of a power as (points of its line, failed?, has a head?)."""
    out = []
    els = by_power(root, "moves").get(cls, [])
    i = 0
    while i < len(els):
        el = els[i]
        if el.tag == NS + "path" and el.get("class") in (None, "d"):
            failed = el.get("class") == "d"
            nxt = els[i + 1] if i + 1 < len(els) else None
            head = nxt is not None and nxt.get("class") == "hd"
            bar = path_points(nxt.get("d")) if nxt is not None and not head else None
            out.append((path_points(el.get("d")), failed, path_points(nxt.get("d")) if head else None, bar))
            i += 2
        else:
            i += 1
    return out


def find_move(root, cls, src, dst, r_src=14, r_dst=15):
    """The move of power class `cls` drawn from anchor `src` to anchor `dst`."""
    for pts, failed, head, bar in moves_of(root, cls):
        start = pts[0]
        tip = head[0] if head else pts[-1]
        if math.dist(start, src) <= r_src and math.dist(tip, dst) <= r_dst:
            return pts, failed, head, bar
    raise AssertionError(f"no move of {cls} from {src} to {dst}: {moves_of(root, cls)}")


def test_moves_are_arrows_between_anchors_and_failures_are_marked(lively):
    root = parse(overlay_svg(lively, Phase(1901, 0), "gm", "orders"))
    pts, failed, head, bar = find_move(root, "pfra", anchor("par"), anchor("pic"))
    assert not failed
    assert head
    assert bar is None
    # Austria's and Russia's armies bounced in Galicia: dashed lines, a bar instead of a head
    for cls, src in (("paus", "vie"), ("prus", "war")):
        pts, failed, head, bar = find_move(root, cls, anchor(src), anchor("gal"))
        assert failed
        assert head is None
        assert bar is not None
        assert len(bar) == 2
        assert math.dist(bar[0], bar[1]) > 10        # a visible bar across the line's end
    # Turkey's and Russia's fleets bounced in the Black Sea
    assert find_move(root, "ptur", anchor("ank"), anchor("bla"))[1]
    assert find_move(root, "prus", anchor("sev"), anchor("bla"))[1]
    # explicit holds are rings around the unit
    rings = by_power(root, "rings")["pfra"]
    assert any(close((float(c.get("cx")), float(c.get("cy"))), anchor("mar"), 0.1) for c in rings)


def test_every_ordered_move_is_drawn(lively):
    pclass = power_classes(lively.variant.rules.board)
    for r in lively.records:
        if r.kind != "movement":
            continue
        root = parse(overlay_svg(lively, r.phase, "gm", "orders"))
        moves = [res for res in r.results if type(res.order).__name__ == "Move"]
        drawn = sum(len(moves_of(root, cls)) for cls in pclass.values())
        assert drawn == len(moves)
        for res in moves:
            dest = res.order.dest
            _, failed, _, _ = find_move(root, pclass[res.power], anchor(res.unit.loc), anchor(dest), r_dst=16)
            assert failed == (not res.succeeded)


def supports_of(root, cls):
    """Each support line of a power: (start, end, faded?)."""
    out = []
    for el in by_power(root, "supports").get(cls, []):
        faded = el.tag == NS + "g" and el.get("class") == "fa"
        path = el.find(NS + "path") if el.tag == NS + "g" else (el if el.tag == NS + "path" else None)
        if path is not None:
            pts = path_points(path.get("d"))
            out.append((pts[0], pts[-1], faded))
    return out


def test_supports_lead_to_the_supported_move_and_cut_supports_are_marked(lively):
    rec = lively.record(Phase(1901, 1))
    root = parse(overlay_svg(lively, rec.phase, "gm", "orders"))
    # France: A Mar S A Pic - Bur, drawn from Marseilles to the Pic-Bur arrow
    (start, end, faded), = supports_of(root, "pfra")
    assert math.dist(start, anchor("mar")) < 13
    assert not faded
    pts, _, head, _ = find_move(root, "pfra", anchor("pic"), anchor("bur"))
    line = pts + [head[0]]
    assert min(math.dist(end, p) for p in line) < 15   # on (or at the control polygon of) the arrow
    # Germany: F Kie S A Ber, a support to hold: from Kiel to Berlin
    (start, end, faded), = supports_of(root, "pger")
    assert math.dist(start, anchor("kie")) < 14
    assert math.dist(end, anchor("ber")) < 16
    assert not faded


def test_cut_support_gets_a_cross(make_game):
    files = {"1901-spring.yml": """
        orders:
          Germany: [A Mun H, A Ber S A Mun]
          Russia: [A War - Sil]
        """,
             "1901-fall.yml": """
        orders:
          Germany: [A Mun H, A Ber S A Mun]
          Russia: [A Sil - Ber]
        """}
    h = replay(load_game(make_game(files)))
    res = next(r for r in h.record(Phase(1901, 1)).results if r.power == "Germany" and r.has(Kind.CUT))
    assert res.unit.loc == "ber"
    root = parse(overlay_svg(h, Phase(1901, 1), "gm", "orders"))
    (start, end, faded), = supports_of(root, "pger")
    assert faded
    crosses = [el for el in by_power(root, "marks").get("pger", []) if el.get("href") == "#o-xs"]
    assert len(crosses) == 1
    mid = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    assert close((float(crosses[0].get("x")), float(crosses[0].get("y"))), mid, 0.2)
    spring = parse(overlay_svg(h, Phase(1901, 0), "gm", "orders"))
    assert not by_power(spring, "marks")   # the spring support was not cut
    (start, end, faded), = supports_of(spring, "pger")
    assert not faded


def test_convoys_route_the_army_through_the_fleets(lively):
    root = parse(overlay_svg(lively, Phase(1901, 1), "gm", "orders"))
    # England: A Yor - Bel via F NTH: the line bends through the North Sea (its control point)
    pts, failed, head, _ = find_move(root, "peng", anchor("yor"), anchor("bel"))
    assert not failed
    assert any(close(p, anchor("nth"), 0.11) for p in pts)
    # and the convoying fleet is ringed (dashed) in its power's colour
    rings = [c for c in by_power(root, "rings")["peng"] if c.get("class") == "dc"]
    assert len(rings) == 1
    assert close((float(rings[0].get("cx")), float(rings[0].get("cy"))), anchor("nth"))
    # Italy: A Apu - Tun via F ION
    pts, failed, _, _ = find_move(root, "pita", anchor("apu"), anchor("tun"))
    assert not failed
    assert any(close(p, anchor("ion")) for p in pts)


def test_dislodged_units_sit_at_the_dislodged_anchor_with_their_attacker(lively):
    p = painter(lively)
    rec = lively.record(Phase(1901, 1))
    (d,) = rec.dislodged
    assert d.unit.loc == "bur"
    assert d.by_power == "France"
    at = p.dislodged_at("bur")
    # it moved towards the layout's dislodged anchor, and far enough not to hide the attacker
    lx, ly = LAYOUT.dislodged("bur")
    ux, uy = anchor("bur")
    assert math.dist(at, (ux, uy)) >= 18.9
    cross = (lx - ux) * (at[1] - uy) - (ly - uy) * (at[0] - ux)
    assert abs(cross) < 1e-6 * max(1, math.dist(at, (ux, uy)))
    for phase, when in ((rec.phase, "orders"), (rec.phase, "after"), (Phase(1901, 1, True), "orders")):
        root = parse(overlay_svg(lively, phase, "gm", when))
        (g,) = by_power(root, "dislodged")["pger"]
        assert g.get("transform") == f"translate({num(at[0])} {num(at[1])})"
        ring, use = g.find(NS + "circle"), g.find(NS + "use")
        assert ring.get("class") == "dr pfra"             # ringed in the attacker's colour
        assert use.get("href") == "#u-A"
        assert f"scale({DISLODGED_SCALE})" in use.get("transform")
    # in the movement map the unit is also shown, faded, where it stood
    root = parse(overlay_svg(lively, rec.phase, "gm", "orders"))
    ghosts = [el for el in by_power(root, "units")["pger"] if el.get("class") == "gh"]
    assert [(float(g.get("x")), float(g.get("y"))) for g in ghosts] == [(float(num(ux)), float(num(uy)))]


def test_retreats_are_arrows_from_the_dislodged_unit(lively):
    p = painter(lively)
    root = parse(overlay_svg(lively, Phase(1901, 1, True), "gm", "orders"))
    pts, failed, head, _ = find_move(root, "pger", p.dislodged_at("bur"), anchor("ruh"))
    assert not failed
    assert head


def test_disbands_are_crossed(make_game):
    files = {**LIVELY, "1901-fall-retreats.yml": "orders:\n  Germany: [A Bur disband]\n"}
    h = replay(load_game(make_game(files)))
    p = painter(h)
    root = parse(overlay_svg(h, Phase(1901, 1, True), "gm", "orders"))
    (x,) = by_power(root, "marks")["pger"]
    at = p.dislodged_at("bur")
    assert x.get("href") == "#o-xl"
    assert close((float(x.get("x")), float(x.get("y"))), at, 0.11)
    assert not by_power(root, "moves")


def test_builds_and_removals_are_marked(make_game):
    files = winter(LIVELY, """
        orders:
          France: [Build A Par]
          England: [Build F Lon]
          Germany: [Remove A Ruh]
        """)
    h = replay(load_game(make_game(files)))
    rec = h.record(Phase(1901, 2))
    assert rec.adjustments["Germany"] < 0
    assert rec.adjustments["France"] > 0
    root = parse(overlay_svg(h, rec.phase, "gm", "orders"))
    marks = by_power(root, "marks")
    # a badge beside each new unit, which is drawn in its place
    for cls, loc, kind in (("pfra", "par", "#u-A"), ("peng", "lon", "#u-F")):
        (badge,) = [el for el in marks[cls] if el.get("href") == "#o-bd"]
        (ring,) = [el for el in marks[cls] if el.get("class") == "nw"]
        assert close((float(ring.get("cx")), float(ring.get("cy"))), anchor(loc))
        assert math.dist((float(badge.get("x")), float(badge.get("y"))), anchor(loc)) < 20
        assert (cls, kind, float(num(anchor(loc)[0])), float(num(anchor(loc)[1]))) in drawn_units(root)
    # a large cross on the removed unit
    (x,) = marks["pger"]
    assert x.get("href") == "#o-xl"
    assert close((float(x.get("x")), float(x.get("y"))), anchor("ruh"))
    after = parse(overlay_svg(h, rec.phase, "gm", "after"))
    assert not layer(after, "marks")
    assert all(not (cls == "pger" and close((x_, y_), anchor("ruh"))) for cls, _, x_, y_ in drawn_units(after))


def test_civil_disorder_removals_are_crossed_too(make_game):
    files = winter(LIVELY, "orders:\n  France: [Build A Par]\n")   # Germany sends no removal
    h = replay(load_game(make_game(files)))
    rec = h.record(Phase(1901, 2))
    removed = [r.unit for r in rec.results if r.default]
    assert len(removed) == 1
    assert removed[0].power == "Germany"
    root = parse(overlay_svg(h, rec.phase, "gm", "orders"))
    (x,) = by_power(root, "marks")["pger"]
    assert close((float(x.get("x")), float(x.get("y"))), anchor(removed[0].loc))


# ---------------------------------------------------------------------------- visibility

class FogOfWar(Policy):
    """A made-up hidden variant: a power knows only its own units, centres and orders; the
    public knows nothing of the position."""

    hidden = True

    @staticmethod
    def _position_visibility(position):
        own = lambda power: frozenset({power})  # noqa: E731
        return PositionVisibility(
            {u: own(u.power) for u in position.units}, {c: own(p) for c, p in position.owners.items()},
            NOBODY, {d.unit: own(d.unit.power) for d in position.dislodged},
            {d.unit: own(d.unit.power) for d in position.dislodged})

    def start_visibility(self, history, position):
        return self._position_visibility(position)

    def record_visibility(self, history, record):
        own = lambda power: frozenset({power})  # noqa: E731
        gone = {d.unit: own(d.unit.power) for d in record.dislodged + record.destroyed}
        return RecordVisibility(
            self._position_visibility(record.before), self._position_visibility(record.after),
            tuple(own(r.power) for r in record.results), tuple(NOBODY for _ in record.results),
            gone, gone, tuple(own(new) for _, _, new in record.centre_changes),
            {p: own(p) for p in record.adjustments}, {p: own(p) for p in record.orders},
            {p: NOBODY for p in record.nmr})


@pytest.fixture
def fog(make_game, monkeypatch):
    monkeypatch.setitem(VARIANTS, "fogtest", lambda: Variant.of("fogtest", Rules(), policy=FogOfWar))
    game_yml = (
        "title: Fog\ngm: Grace\nvariant: fogtest\nplayers:\n"
        + "".join(f"  {p}: {p[0]}\n" for p in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"))
    )
    return replay(load_game(make_game({**LIVELY, "game.yml": game_yml}, slug="fog")))


def test_a_level_sees_nothing_it_may_not(fog):
    variant = fog.variant
    pclass = power_classes(variant.rules.board)
    hidden_powers = [p for p in variant.rules.powers() if p != "France"]
    secret_spots = set()
    for r in fog.records:
        for u in r.before.units + r.after.units:
            if u.power != "France":
                secret_spots.add(anchor(u.loc))
    french_spots = {anchor(u.loc) for r in fog.records for u in r.before.units + r.after.units if u.power == "France"}
    secret_spots -= french_spots
    for phase in [None] + [r.phase for r in fog.records]:
        for when in ("orders", "after"):
            for svg in (overlay_svg(fog, phase, "France", when), render_standalone(fog, phase, "France", when)):
                root = parse(svg)
                svg = svg.replace(board_inner("standard"), "")   # the base map is the same for everyone
                for name in ("units", "dislodged", "moves", "supports", "rings", "marks", "centres"):
                    for cls in by_power(root, name):
                        assert cls == pclass["France"], (phase, when, name, cls)
                for adj in (variant.rules.board.powers[p].adjective for p in hidden_powers):
                    assert not re.search(rf"\b{adj} (army|fleet)", svg)   # no "German army, Kiel" titles
                assert not any(f"{p}:" in svg for p in hidden_powers)   # no "Germany: A Mun - Bur" titles
                for x, y in secret_spots:
                    assert f'x="{num(x)}" y="{num(y)}"' not in svg
                    assert f"M{num(x)}" not in svg
    # the GM sees everyone; the public sees no units at all
    gm = parse(overlay_svg(fog, fog.records[0].phase, "gm", "orders"))
    assert set(by_power(gm, "units")) == set(pclass.values())
    public = overlay_svg(fog, fog.records[0].phase, "public", "orders")
    assert layer(parse(public), "units") is None
    assert "<use href=\"#u-" not in public.split('id="o-legend"')[0]


def test_every_level_renders(lively):
    for level in levels(lively):
        for r in lively.records:
            parse(overlay_svg(lively, r.phase, level, "orders"))
        parse(overlay_svg(lively, None, level, "after"))


# ---------------------------------------------------------------------------- print and phone

def test_no_hairlines():
    """At 1000 px wide, no line is thinner than 1.2 px (the map is 1100 units wide)."""
    from dipgen.present.svg.shapes import CSS

    min_units = 1.2 * map_size(get_variant("standard"))[0] / 1000
    widths = [float(w) for w in re.findall(r"stroke-width:([\d.]+)", CSS)]
    assert widths
    assert min(widths) >= min_units
    unit_stroke = float(re.search(r"\.ub\{[^}]*stroke-width:([\d.]+)", CSS).group(1))
    assert unit_stroke * DISLODGED_SCALE >= min_units


class Whispers(FogOfWar):
    """Everyone sees every unit, but only that a unit supported or convoyed, not what."""

    def record_visibility(self, history, record):
        vis = super().record_visibility(history, record)
        partial = tuple(EVERYONE if type(r.order).__name__ in ("Support", "Convoy") else NOBODY
                        for r in record.results)
        return replace(vis, before=PositionVisibility.open(record.before), results_partial=partial)


def test_orders_a_level_knows_only_in_part_are_dotted_rings(make_game, monkeypatch):
    monkeypatch.setitem(VARIANTS, "whispertest", lambda: Variant.of("whispertest", Rules(), policy=Whispers))
    game_yml = ("title: Whispers\ngm: Grace\nvariant: whispertest\nplayers:\n"
                + "".join(f"  {p}: {p[0]}\n" for p in ("Austria", "England", "France", "Germany", "Italy",
                                                       "Russia", "Turkey")))
    h = replay(load_game(make_game({**LIVELY, "game.yml": game_yml}, slug="whispers")))
    svg = overlay_svg(h, Phase(1901, 1), "public", "orders")
    root = parse(svg)
    assert not layer(root, "supports")
    assert not layer(root, "moves")  # nothing of what or where
    rings = by_power(root, "rings")
    france = [(float(c.get("cx")), float(c.get("cy"))) for c in rings["pfra"] if c.get("class") == "dt"]
    assert france == [(float(num(anchor("mar")[0])), float(num(anchor("mar")[1])))]   # A Mar S ...
    full = render_standalone(h, Phase(1901, 1), "public", "orders")
    assert "<title>France: A Mar S</title>" in full
    assert "S A Pic" not in full

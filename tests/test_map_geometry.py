"""Geometry checks of the standard board's base map (svg_templates/standard/).

The map is built by ``python -m tools.mapbuild`` from ``mapsrc/standard``. These tests
parse the committed SVG and layout and check them against the rules' board data.
"""
from __future__ import annotations

import itertools
import json
import re
import xml.etree.ElementTree as ET
from functools import reduce
from pathlib import Path

import pytest

shapely = pytest.importorskip("shapely")
from shapely.geometry import Point, Polygon  # noqa: E402
from shapely.ops import unary_union  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "svg_templates" / "standard" / "board.svg"
LAYOUT = ROOT / "svg_templates" / "standard" / "layout.json"
NS = "{http://www.w3.org/2000/svg}"

SEAS = set("adr aeg bal bar bla bot eas eng hel ion iri lyo mao nao nth nwg ska tys wes".split())
INLAND = set("boh bud bur gal mos mun par ruh ser sil tyr ukr vie war".split())
COASTAL = set("alb ank apu arm bel ber bre bul cly con den edi fin gas gre hol kie lon lvn lvp mar "
              "naf nap nwy pic pie por pru rom rum sev smy spa stp swe syr tri tun tus ven wal yor".split())
LAND = INLAND | COASTAL
PROVINCES = SEAS | LAND
COASTS = {"spa/nc", "spa/sc", "stp/nc", "stp/sc", "bul/ec", "bul/sc"}
CENTRES = set("ank ber bre bud bul con den edi gre hol kie lon lvp mar mos mun nap nwy par por rom "
              "rum ser sev smy spa stp swe tri tun ven vie war bel".split())

ADJ_MIN = 2.0   # SVG units of shared border that make two provinces adjacent on the map

# Where the map's geometry legitimately differs from the rules' adjacency.
EXPECTED_DIFFERENCES = {
    # adjacent on the rules, but not by a shared border on the map
    ("den", "swe"): "rules only: armies cross the Oresund, which is open water on the map",
    # share a border on the map, but not adjacent on the rules
    ("bal", "ska"): "map only: the Baltic meets the Kattegat in the Oresund and the Belts, "
                    "which the rules close (fleets pass through Denmark)",
}

_TOKEN = re.compile(r"[MmLlZz]|[-+]?(?:\d+\.?\d*|\.\d+)")


def parse_path(d: str):
    """Polygons of an SVG path made of M/m/L/l/Z commands (even-odd fill)."""
    rings, cur, pos, cmd, nums = [], [], (0.0, 0.0), "M", []

    def close():
        if len(cur) >= 3:
            rings.append(list(cur))
        cur.clear()

    for t in _TOKEN.findall(d):
        if t in "MmLlZz":
            if t in "Zz":
                close()
            else:
                cmd = t
            continue
        nums.append(float(t))
        if len(nums) < 2:
            continue
        x, y = nums
        nums = []
        if cmd in "ML":
            pos = (x, y)
        else:
            pos = (pos[0] + x, pos[1] + y)
        if cmd in "Mm":
            close()
            cur.append(pos)
            cmd = "L" if cmd == "M" else "l"   # implicit lineto after a moveto
        else:
            cur.append(pos)
    close()
    polys = [shapely.make_valid(Polygon(r)) for r in rings]
    return reduce(lambda a, b: a.symmetric_difference(b), polys) if polys else Polygon()


@pytest.fixture(scope="module")
def svg():
    return ET.parse(SVG).getroot()


@pytest.fixture(scope="module")
def layout():
    return json.loads(LAYOUT.read_text())


@pytest.fixture(scope="module")
def shapes(svg):
    out = {}
    for el in svg.iter(NS + "path"):
        cls = el.get("class", "").split()
        if "prov" in cls or "neutral" in cls or "water" in cls:
            out[el.get("id")] = (cls, parse_path(el.get("d")))
    return out


def _group(svg, gid):
    for g in svg.iter(NS + "g"):
        if g.get("id") == gid:
            return g
    raise AssertionError(f"no <g id={gid!r}> in board.svg")


def test_layers_present(svg):
    for gid in ("sea", "land", "impassable", "coasts", "centres", "labels"):
        _group(svg, gid)


def test_each_province_one_element(svg, shapes):
    ids = [el.get("id") for el in svg.iter() if el.get("id")]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for pid in PROVINCES:
        cls, geom = shapes[pid]
        want = "sea" if pid in SEAS else "land"
        assert cls == ["prov", want], (pid, cls)
        assert not geom.is_empty, pid
        assert geom.area > 20, pid
    assert shapes["swi"][0] == ["prov", "impassable"]
    prov_ids = {k for k, (cls, _) in shapes.items() if "prov" in cls}
    assert prov_ids == PROVINCES | {"swi"}
    sea_g, land_g, imp_g = (_group(svg, g) for g in ("sea", "land", "impassable"))
    assert {e.get("id") for e in sea_g if "prov" in e.get("class", "")} == SEAS
    assert {e.get("id") for e in land_g if "prov" in e.get("class", "")} == LAND
    assert {e.get("id") for e in imp_g} == {"swi"}


def test_titles(svg):
    for el in svg.iter(NS + "path"):
        if "prov" in el.get("class", ""):
            t = el.find(NS + "title")
            assert t is not None, el.get("id")
            assert t.text, el.get("id")
            assert len(t.text) > 3, el.get("id")
    par = next(e for e in svg.iter(NS + "path") if e.get("id") == "par")
    assert par.find(NS + "title").text == "Paris"


def test_coasts_centres_labels(svg):
    coasts = {e.get("id") for e in _group(svg, "coasts") if e.get("id")}
    assert coasts == {c.replace("/", "_") for c in COASTS}
    centres = {e.get("id") for e in _group(svg, "centres")}
    assert centres == {"sc_" + c for c in CENTRES}
    labels = {e.get("id"): e.text for e in _group(svg, "labels")}
    assert set(labels) == {"lbl_" + p for p in PROVINCES | {"swi"}}


def test_layout_complete(layout):
    assert set(layout["provinces"]) >= PROVINCES
    assert set(layout["coasts"]) == COASTS
    assert len(layout["viewBox"]) == 4
    for pid in PROVINCES:
        p = layout["provinces"][pid]
        assert p["name"]
        assert (p["centre"] is not None) == (pid in CENTRES), pid


def test_anchors_inside(layout, shapes):
    for pid in PROVINCES:
        geom = shapes[pid][1]
        p = layout["provinces"][pid]
        for key in ("unit", "dislodged", "label", "centre"):
            if p[key] is None:
                continue
            pt = Point(p[key])
            assert geom.contains(pt), f"{pid} {key} {p[key]} outside its province"
        assert geom.boundary.distance(Point(p["unit"])) >= 4, f"{pid} unit too close to the border"
        u, dl = Point(p["unit"]), Point(p["dislodged"])
        assert u.distance(dl) >= 10, f"{pid} dislodged anchor too close to the unit"
        if p["centre"]:
            assert u.distance(Point(p["centre"])) >= 10, f"{pid} centre marker under the unit"
    for coast, a in layout["coasts"].items():
        geom = shapes[coast[:3]][1]
        assert geom.contains(Point(a["unit"])), coast
        assert geom.contains(Point(a["dislodged"])), coast
        army = Point(layout["provinces"][coast[:3]]["unit"])
        assert army.distance(Point(a["unit"])) >= 10, f"{coast} fleet anchor on the army anchor"


def test_split_coasts_on_their_side(layout):
    c = layout["coasts"]
    assert c["spa/nc"]["unit"][1] < c["spa/sc"]["unit"][1]      # north above south
    assert c["stp/nc"]["unit"][1] < c["stp/sc"]["unit"][1]
    assert c["bul/ec"]["unit"][0] > c["bul/sc"]["unit"][0]      # east coast to the east


def test_no_overlaps(shapes):
    items = [(k, g) for k, (cls, g) in shapes.items()]
    tree = shapely.STRtree([g for _, g in items])
    for i, (a, ga) in enumerate(items):
        for j in tree.query(ga):
            if j <= i:
                continue
            b, gb = items[j]
            area = ga.intersection(gb).area
            assert area < 0.5, f"{a} and {b} overlap by {area:.2f} square units"


def test_land_covered_without_gaps(shapes):
    from tools.mapbuild import geometry
    from tools.mapbuild.config import load_all

    cfg, prov_cfg, borders = load_all()
    board = geometry.build(cfg, prov_cfg, borders)
    land = board.frame.project(board.land)
    covered = unary_union([g for k, (cls, g) in shapes.items()
                           if "land" in cls or "impassable" in cls or "neutral" in cls])
    missing = land.difference(covered).area
    extra = covered.difference(land).area
    # coordinates are simplified (0.6 units) and rounded (0.1): allow a thin seam
    assert missing < 0.01 * land.area, f"gaps: {missing:.1f} of {land.area:.1f}"
    assert extra < 0.01 * land.area, f"land provinces spill into the sea: {extra:.1f}"
    seas = unary_union([g for k, (cls, g) in shapes.items() if "sea" in cls or "water" in cls])
    assert seas.intersection(covered).area < 0.002 * land.area


def _map_adjacency(shapes):
    keys = sorted(PROVINCES)
    pairs = set()
    for a, b in itertools.combinations(keys, 2):
        ga, gb = shapes[a][1], shapes[b][1]
        if ga.distance(gb) > 0.5:
            continue
        if ga.boundary.intersection(gb.buffer(0.15)).length >= ADJ_MIN:
            pairs.add((a, b))
    return pairs


def test_adjacency_matches_rules(shapes):
    board_mod = pytest.importorskip("dipgen.resources.boards")
    board = board_mod.load_board("standard")
    rules = set()
    for p in PROVINCES:
        for q in board.neighbours(p):
            if q in PROVINCES:
                rules.add(tuple(sorted((p, q))))
    found = _map_adjacency(shapes)
    diff = (rules - found) | (found - rules)
    unexpected = sorted(d for d in diff if d not in EXPECTED_DIFFERENCES)
    assert not unexpected, (
        f"rules-only: {sorted(d for d in rules - found if d in unexpected)}; "
        f"map-only: {sorted(d for d in found - rules if d in unexpected)}")
    stale = sorted(set(EXPECTED_DIFFERENCES) - diff)
    assert not stale, f"expected differences that no longer occur: {stale}"

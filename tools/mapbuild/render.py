"""Project, simplify and write the board as SVG plus its layout.json."""
from __future__ import annotations

from itertools import pairwise
from xml.sax.saxutils import escape

import shapely
import shapely.ops
from shapely.ops import unary_union

from . import layout as L
from .geometry import polygons_of

SIMPLIFY = 0.6        # coverage simplification tolerance, SVG units
PRECISION = 0.1        # coordinates rounded to one decimal
MIN_PART = 0.4        # parts smaller than this (square SVG units) are dropped
ADJ_MIN = 2.0          # shared border length (SVG units) that counts as adjacency

CSS = """
svg{background:#c5dbe8}
.prov{stroke-linejoin:round}
.sea{fill:#c5dbe8;stroke:#8fb0c8;stroke-width:.6}
.water{fill:#c5dbe8;stroke:none}
.land{fill:#efe6cc;stroke:#6e6148;stroke-width:.8}
.neutral{fill:#e2ddd0;stroke:#6e6148;stroke-width:.8}
.impassable{fill:url(#hatch);stroke:#6e6148;stroke-width:.8}
.border{fill:none;stroke:#a89a78;stroke-width:.9;stroke-linejoin:round}
.coast{fill:none;stroke:#2f5f86;stroke-width:1.6;stroke-dasharray:3 2;stroke-linecap:round}
.coast-tag{font:italic 7px sans-serif;fill:#2f5f86;text-anchor:middle}
.sc{fill:#fffdf5;stroke:#3b3325;stroke-width:1.1}
.label{font:600 9px sans-serif;text-anchor:middle;dominant-baseline:central;pointer-events:none}
.label.land{fill:#4a3f2a}
.label.sea{font:italic 600 10px serif;fill:#3d6a8f;letter-spacing:.5px}
.label.impassable{fill:#6f6657;font-weight:400}
""".strip()


def _fmt(v):
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _rel(coords, close):
    """Compact SVG path data for one ring/line: absolute move, then relative steps in tenths."""
    t = [(round(x * 10), round(y * 10)) for x, y in coords]
    if close and len(t) > 1 and t[0] == t[-1]:
        t = t[:-1]
    if len(t) < 2:
        return ""
    out = [f"M{_tenths(t[0][0])} {_tenths(t[0][1])}l"]
    steps = []
    for (ax, ay), (bx, by) in pairwise(t):
        if (ax, ay) != (bx, by):
            steps.append(_pair(bx - ax, by - ay))
    if not steps:
        return ""
    out.append("".join(steps).lstrip(" "))
    if close:
        out.append("z")
    return "".join(out)


def _tenths(v):
    s = f"{v / 10:.1f}"
    s = s[:-2] if s.endswith(".0") else s
    if s.startswith("0."):
        s = s[1:]
    elif s.startswith("-0."):
        s = "-" + s[2:]
    return s


def _pair(dx, dy):
    a, b = _tenths(dx), _tenths(dy)
    sep_b = "" if b.startswith("-") or (b.startswith(".") and "." in a) else " "
    sep_a = "" if a.startswith("-") else " "
    return f"{sep_a}{a}{sep_b}{b}"


def path_d(geom):
    parts = []

    def ring(coords):
        c = list(coords)
        if len(c) < 4:
            return
        parts.append(_rel(c, True))

    for p in polygons_of(geom):
        ring(p.exterior.coords)
        for i in p.interiors:
            ring(i.coords)
    return "".join(parts)


def line_d(geom):
    parts = []
    lines = []
    if geom.geom_type == "LineString":
        lines = [geom]
    elif hasattr(geom, "geoms"):
        for g in geom.geoms:
            if g.geom_type == "LineString":
                lines.append(g)
            elif g.geom_type == "MultiLineString":
                lines.extend(g.geoms)
    for ln in lines:
        c = list(ln.coords)
        if len(c) >= 2:
            parts.append(_rel(c, False))
    return "".join(parts)


def project_all(board, prov_cfg):
    """Projected, coverage-simplified, rounded geometries: key -> (kind, geom)."""
    items = []
    provs = prov_cfg["provinces"]
    for pid in sorted(board.provinces):
        items.append((pid, provs[pid]["kind"], board.provinces[pid]))
    for k in sorted(board.neutral_land):
        items.append(("n_" + k, "neutral", board.neutral_land[k]))
    for k in sorted(board.neutral_water):
        items.append(("w_" + k, "water", board.neutral_water[k]))
    geoms = [board.frame.project(g) for _, _, g in items]
    geoms = list(shapely.coverage_simplify(geoms, SIMPLIFY, simplify_boundary=False))
    out = {}
    for (key, kind, _), g in zip(items, geoms, strict=True):
        g = shapely.set_precision(shapely.make_valid(g), PRECISION)
        g = unary_union([p for p in polygons_of(g) if p.area > MIN_PART])
        out[key] = (kind, g)
    return out


def adjacency(geo):
    """Pairs of provinces (not Switzerland) sharing a border longer than ADJ_MIN."""
    keys = [k for k, (kind, _) in geo.items() if kind in ("land", "sea")]
    pairs = set()
    tree_geoms = [geo[k][1] for k in keys]
    tree = shapely.STRtree(tree_geoms)
    for i, a in enumerate(keys):
        ga = tree_geoms[i]
        for j in tree.query(ga.buffer(0.5)):
            if j <= i:
                continue
            gb = tree_geoms[j]
            shared = ga.boundary.intersection(gb.buffer(0.15)).length
            if shared >= ADJ_MIN:
                pairs.add(tuple(sorted((a, keys[j]))))
    return pairs


def coast_lines(geo, prov):
    """Coastline stretches of each split coast (SVG units)."""
    def along(p, sea):
        return geo[p][1].boundary.intersection(geo[sea][1].buffer(0.4))

    out = {}
    spa_mao = [ln for ln in _lines(along("spa", "mao"))]
    nc = [ln for ln in spa_mao if ln.centroid.y < prov["spa_split_y"]]
    sc = [ln for ln in spa_mao if ln.centroid.y >= prov["spa_split_y"]]
    out["spa/nc"] = unary_union(nc)
    out["spa/sc"] = unary_union(sc + _lines(along("spa", "wes")) + _lines(along("spa", "lyo")))
    out["stp/nc"] = along("stp", "bar")
    out["stp/sc"] = along("stp", "bot")
    out["bul/ec"] = along("bul", "bla")
    out["bul/sc"] = along("bul", "aeg")
    return {k: shapely.line_merge(unary_union(v)) if not v.is_empty else v for k, v in out.items()}


def _lines(g):
    if g.is_empty:
        return []
    if g.geom_type == "LineString":
        return [g]
    res = []
    for gg in getattr(g, "geoms", []):
        res.extend(_lines(gg))
    return res


def make_layout(board, geo, prov_cfg):
    provs = prov_cfg["provinces"]
    fr = board.frame
    lay = {"viewBox": [0, 0, round(fr.w, 1), round(fr.h, 1)], "provinces": {}, "coasts": {}}
    for pid in sorted(provs):
        d = provs[pid]
        kind, g = geo[pid]
        text = L.abbr(pid, d["kind"])
        cxy = fr.px(*d["centre"]) if d.get("centre") else None
        uh = fr.px(*d["unit"]) if d.get("unit") else None
        lh = fr.px(*d["label"]) if d.get("label") else None
        a = L.place(pid, d["kind"], g, cxy, uh, lh, text)
        entry = {"unit": list(a["unit"]), "dislodged": list(a["dislodged"]), "label": list(a["label"]),
                 "centre": list(a["centre"]) if "centre" in a else None, "name": d["name"]}
        if kind == "impassable":
            entry["impassable"] = True
        lay["provinces"][pid] = entry
    for coast in sorted(prov_cfg["coasts"]):
        pid = coast.split("/")[0]
        p = lay["provinces"][pid]
        avoid = [p["unit"], p["label"]] + ([p["centre"]] if p["centre"] else [])
        a = L.place_coast(geo[pid][1], fr.px(*prov_cfg["coasts"][coast]), avoid)
        lay["coasts"][coast] = {"unit": list(a["unit"]), "dislodged": list(a["dislodged"])}
    return lay


def write_svg(board, geo, lay, prov_cfg, path):
    provs = prov_cfg["provinces"]
    fr = board.frame
    W, H = _fmt(fr.w), _fmt(fr.h)
    o = []
    o.append(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">')
    o.append("<title>Diplomacy: the standard board</title>")
    o.append("<desc>Original dipgen base map. Land: Natural Earth 1:50m (public domain). "
             "Lambert conformal conic projection, standard parallels 38N and 62N, central meridian 15E. "
             "Built by tools/mapbuild from mapsrc/standard.</desc>")
    o.append("<defs><style>" + CSS + "</style>"
             '<pattern id="hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
             '<rect width="5" height="5" fill="#ddd6c6"/><path d="M0 0V5" stroke="#a89f8c" stroke-width="1.6"/>'
             "</pattern></defs>")
    o.append(f'<rect width="{W}" height="{H}" fill="#c5dbe8"/>')

    def prov_path(pid, cls):
        return (f'<path id="{pid}" class="{cls}" d="{path_d(geo[pid][1])}">'
                f"<title>{escape(provs[pid]['name'])}</title></path>")

    o.append('<g id="sea">')
    for k, (kind, g) in geo.items():
        if kind == "water":
            name = prov_cfg["neutral_water"][k[2:]]["name"]
            o.append(f'<path id="{k}" class="water" d="{path_d(g)}"><title>{escape(name)}</title></path>')
    for pid in sorted(p for p in provs if provs[p]["kind"] == "sea"):
        o.append(prov_path(pid, "prov sea"))
    o.append("</g>")
    o.append('<g id="land">')
    for k, (kind, g) in geo.items():
        if kind == "neutral":
            nm = prov_cfg["neutral_land"].get(k[2:], {}).get("name", "Islands")
            o.append(f'<path id="{k}" class="neutral" d="{path_d(g)}"><title>{escape(nm)}</title></path>')
    for pid in sorted(p for p in provs if provs[p]["kind"] == "land"):
        o.append(prov_path(pid, "prov land"))
    o.append("</g>")
    o.append('<g id="impassable">')
    for pid in sorted(p for p in provs if provs[p]["kind"] == "impassable"):
        o.append(prov_path(pid, "prov impassable"))
    o.append("</g>")
    # land provinces are outlined in the coast colour; their shared borders are drawn
    # over that in the lighter border colour, so the coastline stays the darker line.
    landish = [g for k, (kind, g) in geo.items() if kind in ("land", "neutral", "impassable")]
    coast = unary_union(landish).boundary
    inner = unary_union([g.boundary for g in landish]).difference(coast.buffer(0.3))
    inner = shapely.line_merge(shapely.set_precision(inner, PRECISION))
    o.append(f'<g id="borders"><path class="border" d="{line_d(inner)}"/></g>')
    o.append('<g id="coasts">')
    cl = coast_lines(geo, {"spa_split_y": fr.px(-8.0, 40.0)[1]})
    for c in sorted(prov_cfg["coasts"]):
        cid = c.replace("/", "_")
        ax, ay = lay["coasts"][c]["unit"]
        near = shapely.ops.nearest_points(cl[c], shapely.Point(ax, ay))[0]
        vx, vy = near.x - ax, near.y - ay
        n = max((vx * vx + vy * vy) ** 0.5, 1e-6)
        tx, ty = near.x + vx / n * 7, near.y + vy / n * 7 + 2.5
        o.append(f'<g id="{cid}" class="coast-mark"><title>{escape(provs[c[:3]]["name"])} '
                 f'({"north" if c.endswith("nc") else "south" if c.endswith("sc") else "east"} coast)</title>'
                 f'<path class="coast" d="{line_d(cl[c])}"/>'
                 f'<text class="coast-tag" x="{_fmt(tx)}" y="{_fmt(ty)}">{c[4:]}</text></g>')
    o.append("</g>")
    o.append('<g id="centres">')
    for pid in sorted(lay["provinces"]):
        c = lay["provinces"][pid]["centre"]
        if c:
            o.append(f'<circle id="sc_{pid}" class="sc" cx="{_fmt(c[0])}" cy="{_fmt(c[1])}" r="3.2"/>')
    o.append("</g>")
    o.append('<g id="labels">')
    for pid in sorted(lay["provinces"]):
        x, y = lay["provinces"][pid]["label"]
        kind = provs[pid]["kind"]
        o.append(f'<text id="lbl_{pid}" class="label {kind}" x="{_fmt(x)}" y="{_fmt(y)}">'
                 f"{escape(L.abbr(pid, kind))}</text>")
    o.append("</g>")
    o.append("</svg>")
    path.write_text("\n".join(o) + "\n")

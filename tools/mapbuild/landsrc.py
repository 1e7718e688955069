"""Extract the board's land from Natural Earth 1:50m (TopoJSON, npm ``world-atlas@2.0.2``).

This is a one-off step; its output ``mapsrc/standard/land.geojson`` is committed, so the
map build itself never downloads anything. To regenerate::

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    python -m tools.mapbuild.landsrc package/land-50m.json
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import shapely
from shapely.geometry import Polygon, mapping
from shapely.ops import unary_union
from shapely.validation import make_valid

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "mapsrc" / "standard" / "land.geojson"
PRECISION = 0.005  # degrees (about 500 m): far below one SVG unit on the board


def _arcs(topo):
    tr = topo.get("transform")
    arcs = []
    for arc in topo["arcs"]:
        pts, x, y = [], 0, 0
        for p in arc:
            if tr:
                x += p[0]
                y += p[1]
                pts.append((x * tr["scale"][0] + tr["translate"][0], y * tr["scale"][1] + tr["translate"][1]))
            else:
                pts.append((p[0], p[1]))
        arcs.append(pts)
    return arcs


def _ring(arcs, idxs):
    out = []
    for i in idxs:
        a = arcs[i] if i >= 0 else arcs[~i][::-1]
        out.extend(a if not out else a[1:])
    # unwrap longitudes across the antimeridian so rings stay planar-continuous
    res, off = [], 0.0
    for k, (x, y) in enumerate(out):
        if k:
            d = x + off - res[-1][0]
            if d > 180:
                off -= 360
            elif d < -180:
                off += 360
        res.append((x + off, y))
    return res


def load_topojson_land(path, obj="land"):
    topo = json.loads(Path(path).read_text())
    arcs = _arcs(topo)
    polys = []

    def walk(g):
        if g["type"] == "Polygon":
            polys.append([_ring(arcs, r) for r in g["arcs"]])
        elif g["type"] == "MultiPolygon":
            polys.extend([[_ring(arcs, r) for r in p] for p in g["arcs"]])
        elif g["type"] == "GeometryCollection":
            for gg in g["geometries"]:
                walk(gg)

    walk(topo["objects"][obj])
    out = []
    for rings in polys:
        rings = [r for r in rings if len(r) >= 4]
        if not rings:
            continue
        p = Polygon(rings[0], rings[1:])
        out.append(p if p.is_valid else make_valid(p))
    return out


def window():
    """Generous lon/lat box around the board frame (the build clips to the exact frame)."""
    from .config import load_config
    from .proj import Frame
    cfg = load_config()
    fr = Frame.from_config(cfg["frame"])
    ring = Polygon(fr.outline_lonlat())
    return ring.buffer(0.5)


def extract(src):
    win = window()
    from shapely.affinity import translate
    parts = []
    for g in load_topojson_land(src):
        for dx in (-360.0, 0.0, 360.0):  # unwrapped rings may sit one turn off
            gg = translate(g, xoff=dx) if dx else g
            if gg.intersects(win):
                parts.append(gg.intersection(win))
    land = unary_union(parts)
    land = shapely.set_precision(land, PRECISION)
    land = shapely.make_valid(land)
    doc = {
        "type": "Feature",
        "properties": {
            "source": "Natural Earth 1:50m land, version 4.1.0, via npm world-atlas@2.0.2 (land-50m.json)",
            "license": "Natural Earth: public domain. See CREDITS.md.",
            "clipped_to": "the standard board's frame plus 0.5 degrees",
            "precision_degrees": PRECISION,
        },
        "geometry": mapping(land),
    }
    txt = json.dumps(doc, separators=(",", ":"))
    OUT.write_text(txt + "\n")
    print(f"wrote {OUT} ({len(txt)} bytes, {shapely.get_num_coordinates(land)} vertices)")


if __name__ == "__main__":
    extract(sys.argv[1] if len(sys.argv) > 1 else "package/land-50m.json")

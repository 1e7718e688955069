"""Cut the board's land and sea into provinces from the hand-authored borders."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import shapely
from shapely.geometry import LineString, Point, Polygon, shape
from shapely.ops import polygonize, unary_union

from .config import SRC
from .proj import Frame

SEGMENT_DEG = 0.05      # densify lon/lat borders so they curve properly once projected
SLIVER_DEG2 = 0.01      # unseeded faces smaller than this (about 1x2 SVG units) merge into a neighbour


class MapError(Exception):
    pass


def polygons_of(g):
    if g is None or g.is_empty:
        return []
    if g.geom_type == "Polygon":
        return [g]
    if hasattr(g, "geoms"):
        out = []
        for gg in g.geoms:
            out.extend(polygons_of(gg))
        return out
    return []


@dataclass
class Board:
    frame: Frame
    frame_ll: Polygon                      # frame as lon/lat polygon
    land: object                           # clipped (and strait-carved) land, lon/lat
    provinces: dict = field(default_factory=dict)   # id -> lon/lat geometry (land, sea, swi)
    neutral_land: dict = field(default_factory=dict)  # key -> lon/lat geometry
    neutral_water: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)


def load_land(src=SRC):
    doc = json.loads((src / "land.geojson").read_text())
    return shape(doc["geometry"])


def _line(points, junctions):
    pts = []
    for p in points:
        if isinstance(p, str):
            if p not in junctions:
                raise MapError(f"unknown junction {p!r}")
            pts.append(tuple(junctions[p]))
        else:
            pts.append((float(p[0]), float(p[1])))
    return LineString(pts).segmentize(SEGMENT_DEG)


def _faces(region, lines):
    noded = unary_union([region.boundary] + lines)
    out = []
    for f in polygonize(noded):
        if f.area > 0 and region.contains(f.representative_point()):
            out.append(f)
    return out


def _assign(faces, seeds, kind, warnings):
    """seeds: list of (owner, Point). Returns owner->list of faces and unassigned faces."""
    owned, free = {}, []
    tree = shapely.STRtree(faces)
    hits = {}
    for owner, pt in seeds:
        idx = tree.query(pt, predicate="intersects")
        if len(idx) == 0:
            raise MapError(f"{kind} seed of {owner!r} at {pt.x:.2f},{pt.y:.2f} lies in no {kind} face")
        hits.setdefault(int(idx[0]), set()).add(owner)
    for i, f in enumerate(faces):
        owners = hits.get(i, set())
        if len(owners) > 1:
            raise MapError(f"one {kind} face holds the seeds of {sorted(owners)} (a border is missing)")
        if owners:
            owned.setdefault(owners.pop(), []).append(f)
        else:
            free.append(f)
    return owned, free


def _merge_free(owned, free, kind, warnings, allow_islands, absorb=0.0):
    """Merge unseeded faces: slivers into their neighbour, islands by distance or as neutral."""
    merged_geo = {k: unary_union(v) for k, v in owned.items()}
    islands = []
    for f in sorted(free, key=lambda g: -g.area):
        touching = []
        for k, g in merged_geo.items():
            if g.distance(f) < 1e-9:
                shared = g.boundary.intersection(f.boundary).length
                if shared > 0:
                    touching.append((shared, k))
        if touching:
            touching.sort(reverse=True)
            k = touching[0][1]
            if f.area > SLIVER_DEG2:
                c = f.representative_point()
                raise MapError(f"unseeded {kind} face of {f.area:.3f} deg2 at {c.x:.2f},{c.y:.2f} "
                               f"touches {[t[1] for t in touching]} (a border is misdrawn)")
            owned[k].append(f)
            merged_geo[k] = merged_geo[k].union(f)
            c = f.representative_point()
            warnings.append(f"{kind} sliver of {f.area:.4f} deg2 at {c.x:.2f},{c.y:.2f} merged into {k}")
            continue
        if not allow_islands:
            c = f.representative_point()
            raise MapError(f"isolated unseeded {kind} face at {c.x:.2f},{c.y:.2f}")
        islands.append(f)
    return islands


def build(cfg, prov_cfg, borders, src=SRC) -> Board:
    frame = Frame.from_config(cfg["frame"])
    frame_ll = Polygon(frame.outline_lonlat())
    land = load_land(src).intersection(frame_ll)
    carve = [LineString(s["line"]).buffer(s["half_width"], cap_style="flat")
             for s in prov_cfg.get("straits", {}).values()]
    if carve:
        land = land.difference(unary_union(carve))
    land = shapely.make_valid(land)
    land = unary_union([p for p in polygons_of(land) if p.area > 1e-6])
    sea = frame_ll.difference(land)
    b = Board(frame=frame, frame_ll=frame_ll, land=land)

    junctions = borders["junctions"]
    land_lines = [_line(v, junctions) for v in borders["land"].values()]
    sea_lines = [_line(v, junctions) for v in borders["sea"].values()]

    provs = prov_cfg["provinces"]

    def seed_points(d):
        pts = [d["seed"]] + list(d.get("seeds", []))
        return [Point(p) for p in pts]

    # ---- land
    land_faces = _faces(land, land_lines)
    seeds = []
    for pid, d in provs.items():
        if d["kind"] != "sea":
            seeds += [(pid, p) for p in seed_points(d)]
    for key, d in prov_cfg.get("neutral_land", {}).items():
        seeds += [("~" + key, p) for p in seed_points(d)]
    for d in prov_cfg.get("islands", {}).values():
        seeds.append((d["to"], Point(d["at"])))
    owned, free = _assign(land_faces, seeds, "land", b.warnings)
    islands = _merge_free(owned, free, "land", b.warnings, allow_islands=True)
    absorb = float(prov_cfg.get("absorb_degrees", 0.0))
    land_ids = [p for p, d in provs.items() if d["kind"] == "land"]
    geo = {k: unary_union(v) for k, v in owned.items()}
    leftovers = []
    for f in islands:
        best = min(land_ids, key=lambda p: geo[p].distance(f))
        if geo[best].distance(f) <= absorb:
            owned[best].append(f)
        else:
            leftovers.append(f)

    # ---- sea
    sea_faces = _faces(sea, sea_lines)
    seeds = []
    for pid, d in provs.items():
        if d["kind"] == "sea":
            seeds += [(pid, p) for p in seed_points(d)]
    for key, d in prov_cfg.get("neutral_water", {}).items():
        if key != "edge":
            seeds += [("~" + key, p) for p in seed_points(d)]
    sowned, sfree = _assign(sea_faces, seeds, "sea", b.warnings)
    lakes = _merge_free(sowned, sfree, "sea", b.warnings, allow_islands=True)
    edge = frame_ll.exterior.buffer(1e-6)
    gulfs = [f for f in lakes if f.intersects(edge)]   # gulfs cut off by the frame: neutral water
    lakes = [f for f in lakes if not f.intersects(edge)]
    if gulfs:
        sowned.setdefault("~edge", []).extend(gulfs)
    for f in lakes:   # water enclosed by land (lagoons): give it to the land around it
        best = max(owned, key=lambda k: unary_union(owned[k]).boundary.intersection(f.boundary).length)
        owned[best].append(f)
        c = f.representative_point()
        b.warnings.append(f"lagoon of {f.area:.4f} deg2 at {c.x:.2f},{c.y:.2f} filled into {best}")

    for k, v in owned.items():
        g = unary_union(v)
        if k.startswith("~"):
            b.neutral_land[k[1:]] = g
        else:
            b.provinces[k] = g
    if leftovers:
        b.neutral_land["islands"] = unary_union(leftovers)
    for k, v in sowned.items():
        g = unary_union(v)
        if k.startswith("~"):
            b.neutral_water[k[1:]] = g
        else:
            b.provinces[k] = g
    missing = [p for p in provs if p not in b.provinces]
    if missing:
        raise MapError(f"provinces without geometry: {missing}")
    return b

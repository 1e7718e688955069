"""Place unit, dislodged-unit, label and supply-centre anchors inside each province."""
from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.ops import polylabel

from .geometry import polygons_of

UNIT_CLEAR = 11.0      # wanted clearance of a unit anchor from its province's edge
LABEL_H = 9.0


def abbr(pid: str, kind: str) -> str:
    if kind == "sea":
        return pid.upper()
    return "StP" if pid == "stp" else pid.capitalize()


def label_width(text: str, kind: str) -> float:
    return len(text) * (6.6 if kind == "sea" else 6.0)


class Grid:
    """Candidate points inside a province with their distance to its edge."""

    def __init__(self, geom, step=None):
        self.geom = geom
        minx, miny, maxx, maxy = geom.bounds
        if step is None:
            step = max(1.0, min(4.0, math.sqrt(geom.area) / 60))
        xs = np.arange(minx + step / 2, maxx, step)
        ys = np.arange(miny + step / 2, maxy, step)
        gx, gy = np.meshgrid(xs, ys)
        pts = shapely.points(gx.ravel(), gy.ravel())
        inside = shapely.contains(geom, pts)
        self.xy = np.column_stack([gx.ravel()[inside], gy.ravel()[inside]])
        self.pts = pts[inside]
        self.d = shapely.distance(self.pts, geom.boundary) if len(self.pts) else np.zeros(0)

    def dist_to(self, p):
        return np.hypot(self.xy[:, 0] - p[0], self.xy[:, 1] - p[1])

    def best(self, score, *masks):
        """Best-scoring candidate under the first mask (strictest first) that any meets."""
        for mask in masks + (None,):
            if mask is not None and not mask.any():
                continue
            s = np.where(mask, score, -1e9) if mask is not None else score
            i = int(np.argmax(s))
            return (round(float(self.xy[i, 0]), 1), round(float(self.xy[i, 1]), 1))


def _label_clear(grid: Grid, w: float, h: float):
    """Clearance of a w x h box centred on each candidate from the province edge."""
    xy = grid.xy
    corners = []
    for dx in (-w / 2, 0, w / 2):
        for dy in (-h / 2, h / 2):
            corners.append(shapely.points(xy[:, 0] + dx, xy[:, 1] + dy))
    inside = np.ones(len(xy), bool)
    for c in corners:
        inside &= shapely.contains(grid.geom, c)
    return np.where(inside, np.minimum(grid.d - w / 2 + 3, grid.d), -5.0)


def place(pid, kind, geom, centre_xy=None, unit_hint=None, label_hint=None, text=""):
    """Anchors for one province in SVG units; geom is its projected (multi)polygon."""
    main = max(polygons_of(geom), key=lambda p: p.area)
    g = Grid(main)
    pole = polylabel(main, tolerance=0.5)
    out = {}
    # supply centre: at the city when that is comfortably inside, else the nearest good spot
    if centre_xy is not None:
        parts = [p for p in polygons_of(geom) if p.area > 60] or [main]
        part = min(parts, key=lambda p: p.distance(Point(centre_xy)))
        gc = g if part is main else Grid(part, step=1.0)
        if part.contains(Point(centre_xy)) and part.boundary.distance(Point(centre_xy)) >= 4.5:
            out["centre"] = (round(centre_xy[0], 1), round(centre_xy[1], 1))
        else:
            out["centre"] = gc.best(-gc.dist_to(centre_xy), gc.d >= 4.5, gc.d >= 3)
    # unit: well inside, away from the centre marker, near the pole (or the hint)
    target = unit_hint if unit_hint is not None else (pole.x, pole.y)
    score = np.minimum(g.d, UNIT_CLEAR + 3) - (0.08 if unit_hint else 0.02) * g.dist_to(target)
    masks = [np.ones(len(g.xy), bool)]
    if "centre" in out:
        dc = g.dist_to(out["centre"])
        masks = [dc >= 15, dc >= 12]
    out["unit"] = g.best(score, *masks)
    # label: a box that fits inside, clear of unit and centre, preferably below the unit
    w = label_width(text, kind)
    h = LABEL_H if kind != "sea" else 10.0
    clear = _label_clear(g, w + 2, h + 2)
    ux, uy = out["unit"]
    dxl = np.abs(g.xy[:, 0] - ux)
    dyl = g.xy[:, 1] - uy
    sep = np.maximum(dxl - w / 2 - 9, np.abs(dyl) - h / 2 - 9)  # >0: box clear of unit symbol
    cfree = np.ones(len(g.xy), bool)
    if "centre" in out:
        cx, cy = out["centre"]
        cfree = np.maximum(np.abs(g.xy[:, 0] - cx) - w / 2 - 4, np.abs(g.xy[:, 1] - cy) - h / 2 - 4) >= 0
    ltarget = label_hint if label_hint is not None else (ux, uy + 17)
    score = np.minimum(clear, 4.0) - 0.04 * g.dist_to(ltarget)
    out["label"] = g.best(score, (sep >= 1.0) & cfree, (sep >= -3) & cfree, sep >= -3)
    # dislodged: beside the unit (up-right preferred), clear of label and centre
    du = g.dist_to(out["unit"])
    lx, ly = out["label"]
    lsep = np.maximum(np.abs(g.xy[:, 0] - lx) - w / 2, np.abs(g.xy[:, 1] - ly) - h / 2)
    csep = g.dist_to(out["centre"]) if "centre" in out else np.full(len(g.xy), 99.0)
    # far enough (about 20) that the shrunk dislodged unit does not hide the unit that took its place
    score = np.minimum(g.d, 9) - 0.05 * g.dist_to((ux + 15, uy - 15))
    masks = [(du >= lo) & (du <= hi) & (g.d >= e) & (lsep >= ls) & (csep >= cs)
             for lo, hi, e, ls, cs in ((20, 28, 5, 7, 9), (19, 30, 3.5, 4, 7), (16, 34, 2, 2, 5),
                                       (12, 30, 2, 2, 5), (10, 40, 1, 0, 3))]
    out["dislodged"] = g.best(score, *masks)
    return out


def place_coast(geom, hint, avoid):
    """Fleet anchor for a split coast: inside the province, near the hinted coast."""
    main = max(polygons_of(geom), key=lambda p: p.area)
    g = Grid(main, step=1.0)
    away = np.min([g.dist_to(a) for a in avoid], axis=0) if avoid else np.full(len(g.xy), 99.0)
    score = np.minimum(g.d, 8.5) - 0.08 * g.dist_to(hint)
    unit = g.best(score, away >= 15, away >= 12, away >= 10)
    du = g.dist_to(unit)
    score = np.minimum(g.d, 7) - 0.05 * g.dist_to((unit[0] + 15, unit[1] - 15))
    masks = [(du >= 20) & (du <= 28) & (g.d >= 5) & (away >= 10),
             (du >= 16) & (du <= 30) & (g.d >= 3) & (away >= 7),
             (du >= 12) & (du <= 26) & (g.d >= 3) & (away >= 7),
             (du >= 10) & (away >= 4)]
    return {"unit": unit, "dislodged": g.best(score, *masks)}

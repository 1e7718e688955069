"""Spherical Lambert conformal conic projection and the board's frame (pure Python)."""
from __future__ import annotations

import math

# standard parallels 38N and 62N, origin 50N 15E
LAT1, LAT2, LAT0, LON0 = 38.0, 62.0, 50.0, 15.0

_p1, _p2, _p0 = (math.radians(v) for v in (LAT1, LAT2, LAT0))
_N = math.log(math.cos(_p1) / math.cos(_p2)) / math.log(
    math.tan(math.pi / 4 + _p2 / 2) / math.tan(math.pi / 4 + _p1 / 2))
_F = math.cos(_p1) * math.tan(math.pi / 4 + _p1 / 2) ** _N / _N
_RHO0 = _F / math.tan(math.pi / 4 + _p0 / 2) ** _N


def fwd(lon: float, lat: float) -> tuple[float, float]:
    """lon/lat degrees -> projected (x east, y north), unit sphere."""
    rho = _F / math.tan(math.pi / 4 + math.radians(lat) / 2) ** _N
    th = _N * math.radians(lon - LON0)
    return rho * math.sin(th), _RHO0 - rho * math.cos(th)


def inv(x: float, y: float) -> tuple[float, float]:
    dy = _RHO0 - y
    rho = math.copysign(math.hypot(x, dy), _N)
    th = math.atan2(x, dy)
    phi = 2 * math.atan((_F / rho) ** (1 / _N)) - math.pi / 2
    return LON0 + math.degrees(th / _N), math.degrees(phi)


class Frame:
    """The board's rectangle in projected space, mapped to SVG units (y down)."""

    def __init__(self, west: float, east: float, south: float, north: float, width: float):
        # west/east/south/north are projected-space bounds derived from lon/lat probes
        self.x0, self.x1, self.y0, self.y1 = west, east, south, north
        self.k = width / (east - west)
        self.w = width
        self.h = (north - south) * self.k

    @classmethod
    def from_config(cls, cfg: dict) -> Frame:
        """Frame whose west/east/south/north edges pass through the given lon/lat points."""
        return cls(fwd(*cfg["west"])[0], fwd(*cfg["east"])[0], fwd(*cfg["south"])[1],
                   fwd(*cfg["north"])[1], cfg["width"])

    def px(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = fwd(lon, lat)
        return (x - self.x0) * self.k, (self.y1 - y) * self.k

    def lonlat(self, px: float, py: float) -> tuple[float, float]:
        return inv(px / self.k + self.x0, self.y1 - py / self.k)

    def outline_lonlat(self, step: float = 2.0) -> list[tuple[float, float]]:
        """The frame rectangle as a densified lon/lat ring (step in SVG units)."""
        pts = []
        corners = [(0, 0), (self.w, 0), (self.w, self.h), (0, self.h)]
        for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
            n = max(2, int(max(abs(bx - ax), abs(by - ay)) / step))
            for i in range(n):
                t = i / n
                pts.append(self.lonlat(ax + (bx - ax) * t, ay + (by - ay) * t))
        pts.append(pts[0])
        return pts

    def project(self, geom):
        import shapely

        def f(coords):
            import numpy as np
            out = np.array([self.px(x, y) for x, y in coords]) if len(coords) else coords
            return out
        return shapely.transform(geom, f)

"""Province names the overlay draws again, on top and with a halo, where its marks would hide them.

The base map names every province (``<text id="lbl_mun" class="label land" ...>``) just below its
unit's anchor, and the overlay is stacked on top of the base map: a hold's ring, a dislodged unit,
a spy beside a unit or a cross covered the name (Mun, Hol, Vie, Den), at every zoom. The overlay
now repeats the names its marks touch, in the base map's own style (its ``.label`` rules, each
class renamed with ``ol-`` so that the overlay's classes never clash with the board's when the two
are one document) over a halo of paper, as the last layer: the mark stays visible around the
name, and the name readable.
Only the names a mark touches are repeated, so an overlay grows by a few of them, never by all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from xml.sax.saxutils import escape

from dipgen.present.svg.assets import board_text

Pt = tuple[float, float]

#: the halo of every name the overlay draws: paper under it, about as wide as the legend text's
HALO = ".ol-label{paint-order:stroke;stroke:#fffdf5;stroke-width:2.6;stroke-linejoin:round;stroke-opacity:.9}"
_LABEL = re.compile(r'<text id="lbl_([^"]+)" class="(label[^"]*)" x="(-?[\d.]+)" y="(-?[\d.]+)">([^<]*)</text>')
_RULE = re.compile(r"(\.label[^{]*\{[^}]*\})")
#: a name's size in map units: the base map's sea names are 10px, the others 9px; a glyph's
#: advance is at most about 0.62 of it in the semibold sans-serif they are drawn in
_SIZE = {"sea": 10.0}
_ADVANCE = 0.62


@dataclass(frozen=True)
class Label:
    prov: str
    cls: str
    x: float
    y: float
    text: str

    @property
    def size(self) -> float:
        return next((s for word, s in _SIZE.items() if word in self.cls.split()), 9.0)

    @property
    def element(self) -> str:
        """The name drawn again, with its halo (no id: the standalone map holds the base map's too)."""
        return (f'<text class="{" ".join("ol-" + c for c in self.cls.split())}" x="{self.x:g}" y="{self.y:g}">'
                f"{escape(self.text)}</text>")

    @property
    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the name, in map units."""
        half_w, half_h = len(self.text) * self.size * _ADVANCE / 2, self.size / 2
        return self.x - half_w, self.y - half_h, self.x + half_w, self.y + half_h


#: the side of the cells names are filed by, in map units (a mark meets the names of the cells it covers)
CELL = 40.0
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class _Board:
    labels: tuple[Label, ...]
    elements: tuple[str, ...]  # each label's `Label.element`
    rules: str
    cells: dict[tuple[int, int], tuple[tuple[Label, Box], ...]]


@lru_cache(maxsize=8)
def _read(text: str) -> _Board:
    labels = tuple(Label(p, cls, float(x), float(y), name) for p, cls, x, y, name in _LABEL.findall(text))
    cells: dict[tuple[int, int], list[tuple[Label, Box]]] = {}
    for label in labels:
        x0, y0, x1, y1 = box = label.box
        for cx in range(int(x0 // CELL), int(x1 // CELL) + 1):
            for cy in range(int(y0 // CELL), int(y1 // CELL) + 1):
                cells.setdefault((cx, cy), []).append((label, box))
    rules = re.sub(r"\.([A-Za-z_][\w-]*)", r".ol-\1", "".join(_RULE.findall(text)))
    return _Board(labels, tuple(label.element for label in labels), rules, {k: tuple(v) for k, v in cells.items()})


def board_labels(board_name: str) -> tuple[Label, ...]:
    """The names on the board's base map."""
    return _read(board_text(board_name)).labels


def label_rules(board_name: str) -> str:
    """The base map's style rules for its names (their classes renamed), and the halo's."""
    return _read(board_text(board_name)).rules + HALO


def _near(board: _Board, x0: float, y0: float, x1: float, y1: float):
    """The names filed in the cells that the box (x0, y0)-(x1, y1) covers, with their boxes."""
    for cx in range(int(x0 // CELL), int(x1 // CELL) + 1):
        for cy in range(int(y0 // CELL), int(y1 // CELL) + 1):
            yield from board.cells.get((cx, cy), ())


def _segment_meets(a: Pt, b: Pt, r: float, box: Box) -> bool:
    """Whether the segment a-b, `r` wide on each side, meets the box (the box grown by `r`, clipped
    against the segment: Liang and Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - (box[0] - r)), (dx, box[2] + r - a[0]), (-dy, a[1] - (box[1] - r)),
                 (dy, box[3] + r - a[1])):
        if p == 0:
            if q < 0:
                return False
        elif p < 0:
            t0 = max(t0, q / p)
        else:
            t1 = min(t1, q / p)
    return t0 <= t1


@lru_cache(maxsize=4096)
def _disc(text: str, x: float, y: float, r: float) -> frozenset[str]:
    """The provinces whose names a disc touches on the board drawn by `text` (its base map, as
    `board_text` reads it again when its file changes): a unit's, a ring's, at the same few spots on
    every map of a board, so each is worked out once a process."""
    cells = _read(text).cells
    touched = set()
    for cx in range(int((x - r) // CELL), int((x + r) // CELL) + 1):
        for cy in range(int((y - r) // CELL), int((y + r) // CELL) + 1):
            for label, box in cells.get((cx, cy), ()):
                dx = max(box[0] - x, x - box[2], 0.0)
                dy = max(box[1] - y, y - box[3], 0.0)
                if dx * dx + dy * dy < r * r:
                    touched.add(label.prov)
    return frozenset(touched)


def hidden(board_name: str, discs: list[tuple[Pt, float]], lines: list[tuple[list[Pt], float]]) -> list[Label]:
    """The names that a mark touches, in the base map's order: a disc (its centre and radius: a unit,
    a ring, an arrow's head) or a line (its points and half its width: an arrow, a support)."""
    return _hidden(board_text(board_name), discs, lines)


def _hidden(text: str, discs: list[tuple[Pt, float]], lines: list[tuple[list[Pt], float]]) -> list[Label]:
    board = _read(text)
    touched: set[str] = set()
    for (x, y), r in discs:
        touched.update(_disc(text, x, y, r))
    for points, r in lines:
        for a, b in pairwise(points):
            touched.update(_segment(text, a, b, r))
    return [label for label in board.labels if label.prov in touched]


@lru_cache(maxsize=1 << 14)
def _segment(text: str, a: Pt, b: Pt, r: float) -> frozenset[str]:
    """The provinces whose names the segment a-b, `r` wide on each side, touches on the board drawn
    by `text`: an arrow between two provinces is drawn the same on many maps, so each is worked out
    once a process (as `_disc`)."""
    near = _near(_read(text), min(a[0], b[0]) - r, min(a[1], b[1]) - r, max(a[0], b[0]) + r, max(a[1], b[1]) + r)
    return frozenset(label.prov for label, box in near if _segment_meets(a, b, r, box))


def hidden_svg(board_name: str, discs: list[tuple[Pt, float]], lines: list[tuple[list[Pt], float]]) -> str:
    """The names that the marks touch (`hidden`), drawn again: "" if none."""
    text = board_text(board_name)
    board = _read(text)
    touched = {label.prov for label in _hidden(text, discs, lines)}
    return "".join(e for label, e in zip(board.labels, board.elements, strict=True) if label.prov in touched)

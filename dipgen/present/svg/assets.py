"""The base map of a board and its layout (unit anchors, centre markers), read from ``svg_templates/``
(found by `dipgen.resources.folders.shipped`: inside an installed package, or beside it in a checkout).
Files are read once and cached (keyed by their modification time, so a rebuilt map is
picked up by a long-running ``mkdocs serve``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from dipgen.core.board import coast_of, province_of
from dipgen.resources.folders import shipped

Point = tuple[float, float]


@lru_cache(maxsize=16)  # where a board's files are does not change while a process runs; their content may
def template_dir(board_name: str) -> Path:
    """The folder holding ``board.svg`` and ``layout.json`` for `board_name`."""
    root = shipped("svg_templates")
    folder = root / board_name
    if (folder / "board.svg").is_file() and (folder / "layout.json").is_file():
        return folder
    raise FileNotFoundError(f"no base map for board {board_name!r}: expected {folder}/board.svg and layout.json")


def variant_board_name(variant) -> str:
    return variant.rules.board_name


@dataclass(frozen=True)
class Layout:
    """Where things go on a board's base map."""

    view_box: tuple[float, float, float, float]
    provinces: Mapping[str, Mapping]
    coasts: Mapping[str, Mapping]

    @property
    def size(self) -> tuple[float, float]:
        return self.view_box[2], self.view_box[3]

    def _entry(self, loc: str) -> Mapping:
        if coast_of(loc) and loc in self.coasts:
            return self.coasts[loc]
        prov = province_of(loc)
        try:
            return self.provinces[prov]
        except KeyError:
            raise ValueError(f"the map has no place for {loc!r}") from None

    def unit(self, loc: str) -> Point:
        at = self._anchors.get(loc)
        if at is None:
            x, y = self._entry(loc)["unit"]
            at = self._anchors[loc] = (float(x), float(y))
        return at

    @cached_property
    def _anchors(self) -> dict[str, Point]:
        """Each place's unit anchor, as asked for (every map asks for the same few dozen)."""
        return {}

    def dislodged(self, loc: str) -> Point:
        e = self._entry(loc)
        x, y = e.get("dislodged") or e["unit"]
        return float(x), float(y)

    def centre(self, prov: str) -> Point | None:
        try:
            return self._centres[prov]
        except KeyError:
            p = self.provinces.get(prov)
            c = p.get("centre") if p else None
            at = self._centres[prov] = (float(c[0]), float(c[1])) if c else None
            return at

    @cached_property
    def _centres(self) -> dict[str, Point | None]:
        """Each province's centre marker, as asked for (every map asks for the same few dozen)."""
        return {}


@lru_cache(maxsize=16)
def _read_text(path: str, stamp: tuple[int, int]) -> str:
    return Path(path).read_text(encoding="utf-8")


@lru_cache(maxsize=16)
def _read_layout(path: str, stamp: tuple[int, int]) -> Layout:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    x, y, w, h = (float(v) for v in data["viewBox"])
    return Layout((x, y, w, h), data["provinces"], data.get("coasts", {}))


def _stamp(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_mtime_ns, st.st_size


@lru_cache(maxsize=32)
def _file(board_name: str, name: str) -> str:
    return str(template_dir(board_name) / name)


def board_text(board_name: str) -> str:
    path = _file(board_name, "board.svg")
    return _read_text(path, _stamp(path))


def layout(board_name: str) -> Layout:
    """The board's layout: read again only when its file changed (one `stat` a call)."""
    path = _file(board_name, "layout.json")
    return _read_layout(path, _stamp(path))


def board_land_fill(board_name: str, default: str = "#efe6cc") -> str:
    """The land colour the base map's stylesheet uses (for tinting owned provinces)."""
    m = re.search(r"\.land\{[^}]*fill:(#[0-9a-fA-F]{6})", board_text(board_name))
    return m.group(1) if m else default


def board_sea_fill(board_name: str, default: str = "#c5dbe8") -> str:
    """The colour the base map's stylesheet gives its background (the open sea)."""
    m = re.search(r"svg\{[^}]*background:(#[0-9a-fA-F]{6})", board_text(board_name))
    return m.group(1) if m else default


def board_inner(board_name: str) -> str:
    """The base map's content without its root ``<svg>`` element, title and description."""
    text = board_text(board_name)
    start = text.index(">", text.index("<svg")) + 1
    end = text.rindex("</svg>")
    inner = text[start:end]
    inner = re.sub(r"^\s*<title>.*?</title>", "", inner, count=1, flags=re.S)
    inner = re.sub(r"^\s*<desc>.*?</desc>", "", inner, count=1, flags=re.S)
    return inner.strip("\n")

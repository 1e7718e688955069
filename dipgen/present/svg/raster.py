"""Maps as pictures: an SVG drawn to PNG, for `dipgen render -o map.png` (a map to attach to an
e-mail or a forum post) and for each page's link preview (``og:image``, `og_png`).

The rasteriser is resvg (the ``resvg-py`` wheel: Rust, no system library). It is given one font,
Noto Sans (the ``fontpkg-noto-sans`` wheel, OFL), and never the machine's own: the maps ask for
``sans-serif``, ``serif`` and ``Georgia``, which a bare Debian with pip has none of (resvg would
then leave every label out), and a picture that depends on the fonts installed would differ
between the GM's laptop and CI. Every family the maps name is drawn in Noto Sans (its variable
weights and its italic give the labels' 600 and 700 and the sea names' slant).

Drawing is pure (the same SVG gives the same bytes) and costs about a fifth of a second a map
(bench/raster.py), so each picture is remembered by the hash of its SVG for the rest of the
process: under ``mkdocs serve`` an edit redraws only the maps whose SVG it changed.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from functools import lru_cache

#: the size of a link preview's picture (Open Graph's and the big consumers' 1.91:1)
OG_SIZE = (1200, 630)
#: how many bytes of pictures a process remembers (a 1200x630 map is about 250 kB)
MEMO_BYTES = 64 * 1024 * 1024

_memo: OrderedDict[str, bytes] = OrderedDict()
_memo_bytes = 0
_lock = threading.Lock()


@lru_cache(maxsize=1)
def fonts() -> tuple[str, ...]:
    """The font files the maps are drawn with (Noto Sans upright and italic)."""
    import fontpkg  # type: ignore[import-untyped]  # no stubs, no py.typed

    return tuple(str(fontpkg.path("Noto Sans", style=style)) for style in ("normal", "italic"))


def _draw(svg: str, width: int | None, height: int | None) -> bytes:
    import resvg_py

    family = "Noto Sans"
    return bytes(resvg_py.svg_to_bytes(
        svg_string=svg, width=width, height=height, skip_system_fonts=True, font_files=list(fonts()),
        font_family=family, serif_family=family, sans_serif_family=family, cursive_family=family,
        fantasy_family=family, monospace_family=family))


def png(svg: str, width: int | None = None, height: int | None = None) -> bytes:
    """`svg` drawn as a PNG, `width` x `height` pixels (default: the SVG's own size). Remembered by
    the SVG's hash for the rest of the process. ValueError if resvg cannot read the SVG."""
    global _memo_bytes
    key = hashlib.sha256(f"{width}x{height}\0{svg}".encode()).hexdigest()
    with _lock:
        done = _memo.get(key)
        if done is not None:
            _memo.move_to_end(key)
            return done
    data = _draw(svg, width, height)
    with _lock:
        if key not in _memo:
            _memo[key] = data
            _memo_bytes += len(data)
            while _memo_bytes > MEMO_BYTES and len(_memo) > 1:
                _memo_bytes -= len(_memo.popitem(last=False)[1])
    return data


def forget() -> None:
    """Forget every remembered picture (for tests and benchmarks that time the drawing itself)."""
    global _memo_bytes
    with _lock:
        _memo.clear()
        _memo_bytes = 0

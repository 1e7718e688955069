"""PNG pictures read back in the tests: their size and their pixels (8-bit RGBA or RGB, not
interlaced, as resvg and chromium write them), decoded here with zlib alone."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator


def size(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG\r\n\x1a\n"), "not a PNG"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def _chunks(png: bytes) -> Iterator[tuple[bytes, bytes]]:
    at = 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        yield kind, png[at + 8:at + 8 + length]
        at += 12 + length


def rows(png: bytes) -> list[bytes]:
    """The picture's rows of raw samples, unfiltered."""
    header = next(data for kind, data in _chunks(png) if kind == b"IHDR")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and not interlace, "a PNG these tests do not read"
    bpp = 4 if colour == 6 else 3
    raw = zlib.decompress(b"".join(data for kind, data in _chunks(png) if kind == b"IDAT"))
    stride = width * bpp
    out: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line))
        prev = line
    return out


def pixels(png: bytes) -> Iterator[tuple[int, int, int, int]]:
    """Every pixel as (r, g, b, a), row after row."""
    header = next(data for kind, data in _chunks(png) if kind == b"IHDR")
    bpp = 4 if header[9] == 6 else 3
    for line in rows(png):
        for i in range(0, len(line), bpp):
            yield (*line[i:i + 3], line[i + 3] if bpp == 4 else 255)  # type: ignore[misc]

"""Small colour helpers: parse, mix, and pick a glyph colour that contrasts with a power's colour."""

from __future__ import annotations


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.strip().lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    if len(h) != 6:
        raise ValueError(f"not a #rrggbb colour: {hex_colour!r}")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def to_hex(c: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(v))):02x}" for v in c)


def mix(a: str, b: str, t: float) -> str:
    """`t` of colour `a` over colour `b`."""
    ca, cb = rgb(a), rgb(b)
    red, green, blue = (x * t + y * (1 - t) for x, y in zip(ca, cb, strict=True))
    return to_hex((red, green, blue))


def luminance(hex_colour: str) -> float:
    """Relative luminance (WCAG)."""
    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def glyph_colour(hex_colour: str) -> str:
    """White on dark colours, ink on light ones (whichever contrasts more)."""
    lum = luminance(hex_colour)
    return "#fff" if (1.05 / (lum + 0.05)) >= ((lum + 0.05) / (0.0119 + 0.05)) else "#1d1b16"

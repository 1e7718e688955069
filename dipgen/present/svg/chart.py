"""Charts drawn as SVG for the pages: the pieces every chart of the site shares (a frame that
scales to the page and names itself to screen readers, year labels thinned to fit, a legend of
swatches), and the centre chart of a game page.

Pure string building, like the maps. A chart is set inline in its page, so its text takes the
page's colour (``currentColor``) and reads in both colour schemes; the powers' colours are the
board's. The centre chart is drawn from a `dipgen.view.GameView` and shows what that view knows:
a hidden game's public view knows each year's totals and nothing between them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from html import escape

from dipgen.present.centres import centre_table
from dipgen.present.svg.shapes import power_classes
from dipgen.view import UNKNOWN, GameView

SVG_NS = "http://www.w3.org/2000/svg"


def esc(text: object) -> str:
    return escape(str(text), quote=True)


def n1(v: float) -> str:
    """A coordinate rounded to 0.1, without a trailing ``.0``."""
    s = f"{v:.1f}"
    s = s[:-2] if s.endswith(".0") else s
    return "0" if s == "-0" else s


# ----------------------------------------------------------------------------- shared pieces

def frame(width: float, height: float, ident: str, title: str, desc: str, css_class: str, max_width: int) -> str:
    """The opening of a chart: a viewBox that scales to the column (never wider than `max_width`
    CSS px), ``role="img"`` named by its ``<title>`` and described by its ``<desc>`` (ids from
    `ident`, which must be unique on the page). Close it with ``</svg>``."""
    return (f'<svg xmlns="{SVG_NS}" class="{esc(css_class)}" viewBox="0 0 {n1(width)} {n1(height)}" '
            f'width="{n1(width)}" height="{n1(height)}" style="width:100%;max-width:{max_width}px;height:auto" '
            f'font-family="sans-serif" fill="currentColor" role="img" aria-labelledby="{esc(ident)}-title" '
            f'aria-describedby="{esc(ident)}-desc"><title id="{esc(ident)}-title">{esc(title)}</title>'
            f'<desc id="{esc(ident)}-desc">{esc(desc)}</desc>')


def polyline(values: Iterable[float], x: Callable[[int], float], y: Callable[[float], float]) -> list[str]:
    """The points ``x,y`` of a line through `values`, the i-th at x(i), y(value)."""
    return [f"{n1(x(i))},{n1(y(v))}" for i, v in enumerate(values)]


def label_step(slot: float, label_width: float) -> int:
    """Label every how many of a row of slots `slot` wide, so that labels `label_width` wide never touch."""
    return max(1, math.ceil(label_width / slot)) if slot > 0 else 1


def legend(items: list[tuple[str, str]], top: float, width: float, font: float,
           classes: list[str] | None = None) -> tuple[str, float]:
    """A legend of coloured swatches and their words in as many equal columns as fit `width`,
    from `top` down (`classes`: each swatch's class, if any); returns the SVG and the height it takes."""
    if not items:
        return "", 0.0
    widest = max(len(text) for _, text in items) * font * 0.6 + font * 1.6
    columns = max(1, min(len(items), int(width // widest)))
    column, row = width / columns, font * 1.6
    parts = []
    for i, (colour, text) in enumerate(items):
        x, y = (i % columns) * column, top + (i // columns) * row
        cls = f' class="{esc(classes[i])}"' if classes else ""
        parts.append(f'<rect{cls} x="{n1(x)}" y="{n1(y)}" width="{n1(font)}" height="{n1(font)}" rx="2" '
                     f'fill="{esc(colour)}" stroke="currentColor" stroke-opacity=".45"/>'
                     f'<text x="{n1(x + font * 1.3)}" y="{n1(y + font * 0.85)}" font-size="{n1(font)}">'
                     f'{esc(text)}</text>')
    return "".join(parts), math.ceil(len(items) / columns) * row


def grid(values: Iterable[int], y: Callable[[float], float], left: float, right: float) -> str:
    """A value chart's grid: a line across at each of `values` (at height `y(value)`, 0 darker), the
    value at its left."""
    return "".join(f'<line x1="{n1(left)}" x2="{n1(WIDTH - right)}" y1="{n1(y(v))}" y2="{n1(y(v))}" '
                   f'stroke="currentColor" stroke-opacity="{".45" if v == 0 else ".15"}"/>'
                   f'<text x="{n1(left - FONT * 0.4)}" y="{n1(y(v) + FONT * 0.35)}" font-size="{FONT}" '
                   f'text-anchor="end">{v}</text>' for v in values)


# ----------------------------------------------------------------------------- the centre chart

#: the chart's viewBox width and type size: 14 units read as 12.5 CSS px in the 358 px column of a
#: 390 px phone, and the chart is never drawn wider than MAX_WIDTH px
WIDTH, FONT, MAX_WIDTH = 400, 14, 560


def centre_series(view: GameView) -> tuple[list[str], dict[str, list[int]]]:
    """The chart's columns ('start', then each year whose totals the view knows) and each power's
    centres in them, a power's series ending with the year it was eliminated. Empty when the view
    knows no year's totals."""
    table = centre_table(view)
    if not table or not view.records or view.records[0].before.totals is UNKNOWN:
        return [], {}
    start = view.records[0].before.totals
    variant = view.variant
    last = {r.phase.year: r for r in view.records}
    series: dict[str, list[int]] = {}
    for power in variant.rules.powers():
        values = [start.get(power, 0)]
        for year, counts in table:
            values.append(counts.get(power, 0))
            if values[-1] == 0 and not last[year].after.units_of(power, variant.rules.unit_kinds):
                break
        series[power] = values
    return ["start"] + [str(y) for y, _ in table], series


def _scale(top: int) -> tuple[int, int]:
    """A step for the centre counts' grid lines (at most 7 of them) and the top of the scale."""
    step = next(s for s in (1, 2, 3, 4, 5, 6, 10, 20, 50) if math.ceil(top / s) <= 6)
    return step, max(step, math.ceil(top / step) * step)


def centre_summary(columns: list[str], series: dict[str, list[int]]) -> str:
    """The chart in words, for screen readers: each power at the start and at its last column."""
    parts = []
    for power, values in series.items():
        end = columns[len(values) - 1]
        gone = len(values) < len(columns) or (values[-1] == 0 and len(values) > 1)
        parts.append(f"{power} {values[0]} at the start, " + (f"out in {end}" if gone and values[-1] == 0
                                                              else f"{values[-1]} in {end}"))
    return "; ".join(parts) + ". The table of supply centres gives every year."


def centre_chart(view: GameView, ident: str = "dg-centre-chart") -> str:
    """A line chart of each power's supply centres at the start and at the end of each year the view
    knows, in the powers' colours; "" when it knows no year's totals."""
    columns, series = centre_series(view)
    if not columns:
        return ""
    step, top = _scale(max(max(v) for v in series.values()))
    left, right, head, plot_h = FONT * 2.2, FONT * 0.8, FONT * 1.1, 200.0
    slot = (WIDTH - left - right) / max(1, len(columns) - 1)
    x = lambda i: left + i * slot  # noqa: E731
    y = lambda n: head + plot_h * (1 - n / top)  # noqa: E731
    parts = [grid(range(0, top + 1, step), y, left, right)]
    every = label_step(slot, FONT * 2.6)
    base = head + plot_h + FONT * 1.3
    for i, name in enumerate(columns):  # the years below, as many as fit (the last always)
        if i % every == 0 and (i + every < len(columns) or i == len(columns) - 1) or i == len(columns) - 1:
            text = name if name == "start" else f"’{name[-2:]}" if len(columns) > 2 else name
            anchor = "start" if i == 0 else "end" if i == len(columns) - 1 else "middle"
            parts.append(f'<text x="{n1(x(i))}" y="{n1(base)}" font-size="{FONT}" text-anchor="{anchor}">'
                         f'{esc(text)}</text>')
    powers = view.variant.rules.board.powers
    colours = {p: powers[p].colour for p in series}
    classes = power_classes(view.variant.rules.board)
    for power, values in series.items():  # each power's line, cased in the page's colour to stand out
        points = " ".join(polyline(values, x, y))
        said = ", ".join(f"{columns[i]}: {v}" for i, v in enumerate(values))
        parts.append(f'<g><title>{esc(power)} ({esc(said)})</title>'
                     f'<polyline points="{points}" fill="none" stroke="currentColor" stroke-opacity=".4" '
                     f'stroke-width="4.6" stroke-linejoin="round" stroke-linecap="round"/>'
                     f'<polyline class="{classes[power]}" points="{points}" fill="none" '
                     f'stroke="{esc(colours[power])}" stroke-width="2.8" '
                     f'stroke-linejoin="round" stroke-linecap="round"/></g>')
    items, height = legend([(colours[p], p) for p in series], base + FONT * 0.9, WIDTH, FONT,
                           [classes[p] for p in series])
    total = base + FONT * 0.9 + height
    first, last = columns[1], columns[-1]
    title = f"Supply centres of each power, {first}" + (f" to {last}" if last != first else "")
    return (frame(WIDTH, total, ident, title, centre_summary(columns, series), "dg-chart", MAX_WIDTH)
            + _safe_rules({classes[p]: powers[p].safe for p in series if powers[p].safe != colours[p]})
            + "".join(parts) + items + "</svg>")


def _safe_rules(safe: dict[str, str]) -> str:
    """The chart's lines and swatches in the colour-blind palette while the page is in it (the
    class ``dg-cb`` on the page's root, which the palette switch under a map sets: dipgen.js)."""
    rules = "".join(f".dg-cb .dg-chart polyline.{cls}{{stroke:{c}}}.dg-cb .dg-chart rect.{cls}{{fill:{c}}}"
                    for cls, c in safe.items())
    return f"<style>{rules}</style>" if rules else ""

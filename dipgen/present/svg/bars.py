"""Horizontal bar charts as SVG, for the hall of fame: one bar a row, its label on the left, its
count at the bar's end (`bar_chart`: the wins per power, each bar in its power's colour, and in its
colour-blind one while the page is in that palette, as the power squares are); or each bar made of parts, with a legend
of the parts below (`stacked_bars`: the results of each variant's games). Pure string building;
the frame (scaling, its title and description for screen readers) and the legend are the centre
chart's (`chart.frame`, `chart.legend`)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

from dipgen.present.svg.chart import FONT, MAX_WIDTH, WIDTH, esc, frame, legend, n1


def bar_chart(rows: list[tuple[str, int, str]], ident: str, title: str, desc: str,
              safe: Mapping[str, str] | None = None) -> str:
    """Bars of `rows` ((label, count, colour), in the order given); '' when every count is 0.
    `safe`: a colour -> its colour in the colour-blind palette, which a bar takes while the page is
    in it (``--dg-cs`` on the bar, as the power squares have it: dipgen.css's ``.dg-cb .dg-bars``)."""
    top = max((n for _, n, _ in rows), default=0)
    if top <= 0:
        return ""
    row, label_w = FONT * 2, max(len(label) for label, _, _ in rows) * FONT * 0.6 + FONT
    room = WIDTH - label_w - FONT * 3
    parts = [frame(WIDTH, row * len(rows), ident, title, desc, "dg-bars", MAX_WIDTH)]
    for i, (label, n, colour) in enumerate(rows):
        y, w = i * row, room * n / top
        other = (safe or {}).get(colour, "")
        style = f' style="--dg-cs: {esc(other)}"' if other and other.lower() != colour.lower() else ""
        parts.append(f'<text x="{n1(label_w - FONT * 0.5)}" y="{n1(y + FONT * 1.3)}" font-size="{FONT}" '
                     f'text-anchor="end">{esc(label)}</text>'
                     f'<rect x="{n1(label_w)}" y="{n1(y + FONT * 0.35)}" width="{n1(max(w, 1))}" '
                     f'height="{n1(FONT * 1.3)}" '
                     f'rx="2" fill="{esc(colour)}"{style} stroke="currentColor" stroke-opacity=".45"/>'
                     f'<text x="{n1(label_w + max(w, 1) + FONT * 0.4)}" y="{n1(y + FONT * 1.3)}" '
                     f'font-size="{FONT}">{n}</text>')
    return "".join(parts) + "</svg>"


def stacked_bars(rows: list[tuple[str, list[int]]], parts: list[tuple[str, str]], ident: str, title: str,
                 desc: str) -> str:
    """A bar per row of `rows` ((label, a count per part), in the order given), its label above it
    (wrapped to the chart's width: a variant's name can be long), each bar made of the `parts`
    ((name, colour)) side by side, the row's total at its end, and a legend of the parts below;
    '' when every count is 0."""
    top = max((sum(counts) for _, counts in rows), default=0)
    if top <= 0:
        return ""
    room, line, bar = WIDTH - FONT * 3, FONT * 1.3, FONT * 1.3
    out, y = [], 0.0
    for label, counts in rows:
        for text in textwrap.wrap(label, max(8, int(WIDTH / (FONT * 0.6)))) or [""]:
            y += line
            out.append(f'<text x="0" y="{n1(y - FONT * 0.3)}" font-size="{FONT}">{esc(text)}</text>')
        x = 0.0
        for n, (_, colour) in zip(counts, parts, strict=True):
            if n:
                w = room * n / top
                out.append(f'<rect x="{n1(x)}" y="{n1(y + FONT * 0.1)}" width="{n1(w)}" height="{n1(bar)}" '
                           f'fill="{esc(colour)}" stroke="currentColor" stroke-opacity=".45"/>')
                x += w
        out.append(f'<text x="{n1(x + FONT * 0.4)}" y="{n1(y + FONT * 1.05)}" font-size="{FONT}">{sum(counts)}</text>')
        y += bar + FONT * 0.7
    key, key_h = legend([(colour, name) for name, colour in parts], y + FONT * 0.3, WIDTH, FONT)
    return (frame(WIDTH, y + FONT * 0.3 + key_h, ident, title, desc, "dg-bars", MAX_WIDTH) + "".join(out) + key
            + "</svg>")

"""A horizontal bar chart as SVG, for the hall of fame's wins per power: one bar a row, its label
on the left, its count at the bar's end. Pure string building; the frame (scaling, its title and
description for screen readers) is the centre chart's (`chart.frame`)."""

from __future__ import annotations

from dipgen.present.svg.chart import FONT, MAX_WIDTH, WIDTH, esc, frame, n1


def bar_chart(rows: list[tuple[str, int, str]], ident: str, title: str, desc: str) -> str:
    """Bars of `rows` ((label, count, colour), in the order given); '' when every count is 0."""
    top = max((n for _, n, _ in rows), default=0)
    if top <= 0:
        return ""
    row, label_w = FONT * 2, max(len(label) for label, _, _ in rows) * FONT * 0.6 + FONT
    room = WIDTH - label_w - FONT * 3
    parts = [frame(WIDTH, row * len(rows), ident, title, desc, "dg-bars", MAX_WIDTH)]
    for i, (label, n, colour) in enumerate(rows):
        y, w = i * row, room * n / top
        parts.append(f'<text x="{n1(label_w - FONT * 0.5)}" y="{n1(y + FONT * 1.3)}" font-size="{FONT}" '
                     f'text-anchor="end">{esc(label)}</text>'
                     f'<rect x="{n1(label_w)}" y="{n1(y + FONT * 0.35)}" width="{n1(max(w, 1))}" '
                     f'height="{n1(FONT * 1.3)}" '
                     f'rx="2" fill="{esc(colour)}" stroke="currentColor" stroke-opacity=".45"/>'
                     f'<text x="{n1(label_w + max(w, 1) + FONT * 0.4)}" y="{n1(y + FONT * 1.3)}" '
                     f'font-size="{FONT}">{n}</text>')
    return "".join(parts) + "</svg>"

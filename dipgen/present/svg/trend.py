"""A player's rating game after game, as SVG, for her page (`dipgen.present.site.players`): her
rating (μ − 3σ) as a line, the band up to her mean μ shaded above it (the band narrows as her
rating grows surer), one point a rated game. Pure string building, in the frame, grid and legend
of the centre chart (`chart`)."""

from __future__ import annotations

import math

from dipgen.present.svg.chart import FONT, MAX_WIDTH, WIDTH, frame, grid, label_step, legend, n1, polyline

#: the rating line's colour (read in both colour schemes; the mean's line is the page's own colour)
LINE = "#4f86c6"


def rating_chart(points: list[tuple[float, float]], ident: str, title: str, desc: str) -> str:
    """The chart of `points` ((mu, sigma) after each rated game, oldest first); '' with fewer than
    two (one point is no trend). `desc` says the chart in words for screen readers."""
    if len(points) < 2:
        return ""
    lows, highs = [m - 3 * s for m, s in points], [m for m, _ in points]
    step = 5 if max(highs) - min(0.0, *lows) <= 40 else 10
    bottom = math.floor(min(0.0, *lows) / step) * step
    top = max(math.ceil(max(highs) / step) * step, bottom + step)
    left, right, head, plot_h = FONT * 2.4, FONT * 0.8, FONT * 0.8, 160.0
    slot = (WIDTH - left - right) / (len(points) - 1)
    x = lambda i: left + i * slot  # noqa: E731
    y = lambda v: head + plot_h * (top - v) / (top - bottom)  # noqa: E731
    parts = [grid(range(bottom, top + 1, step), y, left, right)]
    every, base = label_step(slot, FONT * 1.8), head + plot_h + FONT * 1.3
    for i in range(len(points)):  # the games' numbers below, as many as fit (the last always)
        if i == len(points) - 1 or (i % every == 0 and i + every < len(points)):
            parts.append(f'<text x="{n1(x(i))}" y="{n1(base)}" font-size="{FONT}" text-anchor="middle">{i + 1}</text>')
    low, high = polyline(lows, x, y), polyline(highs, x, y)
    band = high + low[::-1]  # along the mean and back along the rating
    line, mean = " ".join(low), " ".join(high)
    parts.append(f'<polygon points="{" ".join(band)}" fill="{LINE}" fill-opacity=".15"/>'
                 f'<polyline points="{mean}" fill="none" stroke="currentColor" stroke-opacity=".6" '
                 f'stroke-dasharray="4 3" stroke-width="1.5"/>'
                 f'<polyline points="{line}" fill="none" stroke="{LINE}" stroke-width="2.8" '
                 f'stroke-linejoin="round" stroke-linecap="round"/>'
                 + "".join(f'<circle cx="{n1(x(i))}" cy="{n1(y(v))}" r="3.2" fill="{LINE}"/>'
                           for i, v in enumerate(lows)))
    key, key_h = legend([(LINE, "Rating, μ − 3σ"), ("none", "Mean μ (dashed)")], base + FONT * 0.9, WIDTH, FONT)
    return (frame(WIDTH, base + FONT * 0.9 + key_h, ident, title, desc, "dg-chart", MAX_WIDTH)
            + "".join(parts) + key + "</svg>")


"""The one Jinja2 environment of the site's templates (``templates/``), shared by the public
pages (`pages`) and the private ones (`privatepage`). It imports nothing of dipgen but `page`,
whose `heading` every page template may call. The pieces every page prints several times (a
power's name, result words, a map, the pager, the breadcrumbs) are Python functions given to
the templates, not macros: a Jinja macro costs more to call than the page costs to print."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from dipgen.present.site.page import heading

TEMPLATES = Path(__file__).parent / "templates"


def power_name(power: str, colour: str) -> Markup:
    """A power's name with its colour's swatch (every page prints many: a function, not a macro)."""
    return _POWER.format(colour, power)


def result_words(tags) -> Markup:
    """An order's result words, `` (<em>bounce, dislodged</em>)``, or nothing."""
    return _WORDS.format(Markup(", ").join(tags)) if tags else Markup("")


def map_figure(m: Mapping) -> Markup:
    """A map: the board beneath, the phase's overlay above, its caption and a download link."""
    width, height = int(round(float(m["width"]))), int(round(float(m["height"])))
    return _FIGURE.format(m["id"], m["width"], m["height"], m["board"], m["overlay"], width, height, m["alt"],
                          m["loading"], m["caption"], m["overlay"], m["board"], m["overlay"], m["filename"])


def season_pager(p: Mapping, label: str = "Seasons") -> Markup:
    """The links to the season before, the game's page and the season after."""
    prev, nxt = p["prev"], p["next"]
    before = _PREV.format(prev["url"], prev["label"]) if prev else _FIRST
    after = _NEXT.format(nxt["url"], nxt["label"]) if nxt else _LAST.format(p["last_label"])
    return _PAGER.format(label, before, p["up"], after)


def crumbs(items: Iterable[tuple[str, str | None]]) -> Markup:
    """Where a page is: each step a link, the page itself not."""
    steps = [_CRUMB.format(url, label) if url else _HERE.format(label) for label, url in items]
    return _CRUMBS.format(_SEP.join(steps))


_FIGURE = Markup(
    '<figure class="dg-map" id="{}">\n<div class="dg-map-stack" style="aspect-ratio: {} / {}">\n'
    '<object class="dg-map-board" type="image/svg+xml" data="{}" aria-hidden="true" tabindex="-1"></object>\n'
    '<img class="dg-map-overlay" src="{}" width="{}" height="{}" alt="{}" loading="{}">\n</div>\n'
    '<figcaption><span>{}</span> <a class="dg-download" hidden href="{}" data-board="{}" data-overlay="{}" '
    'download="{}">Download SVG</a></figcaption>\n</figure>')
_PAGER = Markup('<nav class="dg-pager" aria-label="{}">{}<a class="dg-up" href="{}">All seasons</a>{}</nav>')
_PREV = Markup('<a class="dg-prev" rel="prev" href="{}"><span class="dg-arrow" aria-hidden="true">←</span> {}</a>')
_FIRST = Markup('<span class="dg-prev dg-none">First season</span>')
_NEXT = Markup('<a class="dg-next" rel="next" href="{}">{} <span class="dg-arrow" aria-hidden="true">→</span></a>')
_LAST = Markup('<span class="dg-next dg-none">{}</span>')
_CRUMBS = Markup('<nav class="dg-crumbs" aria-label="Breadcrumb">{}</nav>')
_CRUMB = Markup('<a href="{}">{}</a>')
_HERE = Markup('<span aria-current="page">{}</span>')
_SEP = Markup('<span class="dg-sep" aria-hidden="true">›</span>')
_POWER = Markup('<span class="dg-power-name" style="--dg-c: {}"><span class="dg-swatch" aria-hidden="true"></span>'
                '{}</span>')
_WORDS = Markup(' <span class="dg-res">(<em>{}</em>)</span>')


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    # the templates are the package's own: read once a process (no check of their times at every page)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, auto_reload=False)
    env.globals.update(heading=heading, power_name=power_name, result_words=result_words, map_figure=map_figure,
                       season_pager=season_pager, crumbs=crumbs)
    return env


def render(template: str, **context) -> str:
    """The template named `template` (autoescaped HTML) filled with `context`."""
    return _env().get_template(template).render(**context)

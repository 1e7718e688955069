"""The one Jinja2 environment of the site's templates (``templates/``), shared by the public
pages (`pages`) and the private ones (`privatepage`). It imports nothing of dipgen but `page`,
whose `heading` every page template may call (and the boards, for the powers' colour-blind
colours). The pieces every page prints several times (a
power's name, result words, a map, the pager, the breadcrumbs) are Python functions given to
the templates, not macros: a Jinja macro costs more to call than the page costs to print."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import jinja2
from markupsafe import Markup, escape

from dipgen.present.site.page import heading

TEMPLATES = Path(__file__).parent / "templates"


@lru_cache(maxsize=1)
def _safe_colours() -> dict[str, str]:
    """Each power colour of the boards dipgen ships -> that power's colour in the colour-blind
    palette (`PowerInfo.safe`), where the two differ; a colour two boards would turn into two
    different ones is left out (tests/test_render_palette.py holds the shipped boards to one each)."""
    from dipgen.resources.boards import load_board, shipped_boards

    names = shipped_boards()
    found: dict[str, set[str]] = {}
    for name in names:
        for info in load_board(name).powers.values():
            found.setdefault(info.colour.lower(), set()).add(info.safe.lower())
    return {colour: safe.pop() for colour, safe in found.items() if len(safe) == 1 and colour not in safe}


def safe_colour(colour: str) -> str:
    """A power's colour in the colour-blind palette ('' where it is the same, or not known)."""
    return _safe_colours().get(colour.lower(), "")


@lru_cache(maxsize=256)  # a board's few colours, on every page
def colour_vars(colour: str) -> Markup:
    """The style of an element drawn in a power's colour: ``--dg-c``, its colour, and ``--dg-cs``,
    its colour in the colour-blind palette, which dipgen.css takes while the page is in that
    palette (the class dg-cb on the page's root, set by the switch under a map: dipgen.js)."""
    safe = safe_colour(colour)
    return Markup(f"--dg-c: {escape(colour)}" + (f"; --dg-cs: {escape(safe)}" if safe else ""))


@lru_cache(maxsize=1024)  # the same few powers, many times on every page
def power_name(power: str, colour: str) -> Markup:
    """A power's name with its colour's swatch (every page prints many: a function, not a macro)."""
    return Markup(f'<span class="dg-power-name" style="{colour_vars(colour)}"><span class="dg-swatch" '
                  f'aria-hidden="true"></span>{escape(power)}</span>')


class Due(Protocol):
    """A deadline as a page prints it (`dipgen.present.times.Deadline`, a card's `CardDeadline`)."""

    @property
    def iso(self) -> str: ...

    @property
    def text(self) -> str: ...


def deadline_time(d: Due) -> Markup:
    """A deadline as the pages print it: its time, which dipgen.js writes again in the reader's own."""
    return Markup(f'<time class="dg-time" datetime="{escape(d.iso)}" data-dg-deadline>{escape(d.text)}</time>')


def result_words(tags) -> Markup:
    """An order's result words, `` (<em>bounce, dislodged</em>)``, or nothing."""
    if not tags:
        return Markup("")
    return Markup(f' <span class="dg-res">(<em>{", ".join(escape(tag) for tag in tags)}</em>)</span>')


def map_figure(m: Mapping, shared: bool = False) -> Markup:
    """A map: the board beneath, the phase's overlay above, its caption and a download link.
    `shared`: a map after the first of the page, on the same board: its board is fetched only once
    the first one's has loaded (dipgen.js, from the browser's cache: one download a page), or at
    once without JavaScript (the `<noscript>`)."""
    width, height = int(round(float(m["width"]))), int(round(float(m["height"])))
    board, overlay = escape(m["board"]), escape(m["overlay"])
    tag = (f'<object class="dg-map-board" type="image/svg+xml" data="{board}" aria-hidden="true" '
           'tabindex="-1"></object>')
    return Markup(
        f'<figure class="dg-map" id="{escape(m["id"])}">\n<div class="dg-map-stack" style="aspect-ratio: '
        f'{escape(m["width"])} / {escape(m["height"])}">\n{f"<noscript>{tag}</noscript>" if shared else tag}'
        f'\n<img class="dg-map-overlay" src="{overlay}" '
        f'width="{width}" height="{height}" alt="{escape(m["alt"])}" loading="{escape(m["loading"])}">\n</div>\n'
        f'<figcaption><span>{escape(m["caption"])}</span> <a class="dg-download" hidden href="{overlay}" '
        f'data-board="{board}" data-overlay="{overlay}" download="{escape(m["filename"])}">Download SVG</a>'
        '</figcaption>\n</figure>')


def season_pager(p: Mapping, label: str = "Seasons") -> Markup:
    """The links to the season before, the game's page and the season after."""
    prev, nxt = p["prev"], p["next"]
    before = (f'<a class="dg-prev" rel="prev" href="{escape(prev["url"])}"><span class="dg-arrow" '
              f'aria-hidden="true">←</span> {escape(prev["label"])}</a>') if prev else \
        '<span class="dg-prev dg-none">First season</span>'
    after = (f'<a class="dg-next" rel="next" href="{escape(nxt["url"])}">{escape(nxt["label"])} '
             '<span class="dg-arrow" aria-hidden="true">→</span></a>') if nxt else \
        f'<span class="dg-next dg-none">{escape(p["last_label"])}</span>'
    return Markup(f'<nav class="dg-pager" aria-label="{escape(label)}">{before}<a class="dg-up" '
                  f'href="{escape(p["up"])}">All seasons</a>{after}</nav>')


def crumbs(items: Iterable[tuple[str, str | None]]) -> Markup:
    """Where a page is: each step a link, the page itself not."""
    steps = [f'<a href="{escape(url)}">{escape(label)}</a>' if url else
             f'<span aria-current="page">{escape(label)}</span>' for label, url in items]
    return Markup(f'<nav class="dg-crumbs" aria-label="Breadcrumb">{_SEP.join(steps)}</nav>')


_SEP = '<span class="dg-sep" aria-hidden="true">›</span>'


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    # the templates are the package's own: read once a process (no check of their times at every page)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, auto_reload=False)
    env.globals.update(heading=heading, power_name=power_name, colour_vars=colour_vars, result_words=result_words,
                       deadline_time=deadline_time, map_figure=map_figure,
                       season_pager=season_pager, crumbs=crumbs)
    return env


def render(template: str, **context) -> str:
    """The template named `template` (autoescaped HTML) filled with `context`."""
    return _env().get_template(template).render(**context)

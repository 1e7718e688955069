"""The one Jinja2 environment of the site's templates (``templates/``), shared by the public
pages (`pages`) and the private ones (`privatepage`). It imports nothing of dipgen but `page`,
whose `heading` every page template may call."""

from __future__ import annotations

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


_POWER = Markup('<span class="dg-power-name" style="--dg-c: {}"><span class="dg-swatch" aria-hidden="true"></span>'
                '{}</span>')
_WORDS = Markup(' <span class="dg-res">(<em>{}</em>)</span>')


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    # the templates are the package's own: read once a process (no check of their times at every page)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, auto_reload=False)
    env.globals.update(heading=heading, power_name=power_name, result_words=result_words)
    return env


def render(template: str, **context) -> str:
    """The template named `template` (autoescaped HTML) filled with `context`."""
    return _env().get_template(template).render(**context)

"""The one Jinja2 environment of the site's templates (``templates/``), shared by the public
pages (`pages`) and the private ones (`privatepage`). It imports nothing of dipgen but `page`,
whose `heading` every page template may call."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from dipgen.present.site.page import heading

TEMPLATES = Path(__file__).parent / "templates"


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    env.globals["heading"] = heading
    return env


def render(template: str, **context) -> str:
    """The template named `template` (autoescaped HTML) filled with `context`."""
    return _env().get_template(template).render(**context)

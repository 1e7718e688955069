"""A failure of a build said plainly: where, what dipgen was doing, and what to do (never a traceback)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from mkdocs.exceptions import PluginError

from dipgen.core.errors import Problem, visible

from dipgen.io.paths import display_path

log = logging.getLogger("mkdocs.plugins.dipgen")

BUG = ("'dipgen check' may name the file to fix; if it finds nothing, this is a bug in dipgen: report it "
       "with the game's files ('mkdocs build -v' shows the details)")


def failure(where: str, e: BaseException, what: str, hint: str = BUG) -> str:
    """An unexpected exception, said plainly: where, what dipgen was doing, and what to do."""
    detail = str(e).strip().splitlines()[0][:300] if str(e).strip() else ""
    said = Problem(where, None, f"{what} failed ({type(e).__name__}{': ' + detail if detail else ''})", hint,
                   code="build-failed")
    return visible(str(said))


#: what to look for where a generated page cannot be rendered
NESTED = ("look for Markdown nested very deeply (lists, quotes) in its press, notes or description; if there is "
          "none, this is a bug in dipgen: report it with the game's files")


def name_failures(page, origin: Callable[[], Path]) -> None:
    """Make a failure to render a generated page that MkDocs converts as any page (Markdown nested
    too deeply for the converter, say) a PluginError naming the game's file, rather than a traceback.
    A page that names its own failures (``names_failures``: `dipgen.mkdocs.speed.pages`) is left as it is.
    `origin` is asked only on a failure (it looks for the page's file on disk: once a page of every
    game, every rebuild, that was the plugin's share of a one-file edit that grew with the archive)."""
    if getattr(page, "names_failures", False):
        return
    render = page.render

    def guarded(config, files) -> None:
        try:
            render(config, files)
        except Exception as e:
            log.debug("dipgen: %s", page.file.src_uri, exc_info=True)
            raise PluginError(failure(display_path(origin()), e, f"rendering the page {page.file.src_uri}",
                                      NESTED)) from e

    page.render = guarded

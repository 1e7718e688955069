"""Under `mkdocs build`: a game's maps and other files that are not pages are put in the site beside
MkDocs's output, not handed to MkDocs.

MkDocs keeps a `File` of every file it is given until the build ends, with the paths it works out
for it (where it comes from, where it goes, its address): a game has some 90 such files (its maps,
its draws), so at 1,280 games MkDocs held some 115,000 of them, over 100 MB, only to copy each once.
Here each is linked (or copied) into the site as MkDocs would (`reuse.LinkedFile`: the same bytes,
the same permissions) as soon as the site folder is ready (`on_files`: MkDocs has cleaned it), and
nothing of it is kept. The games' pages still go to MkDocs, which draws them with the theme.

Only where nothing can tell the difference: a `mkdocs build` that writes a new site (not a dirty
build, which lists the files it wrote; not `mkdocs serve`, whose own layers take files from the
last site), where no plugin but dipgen and Material's search looks at the build's files or pages
(another might want to see them), and never for a game whose folder name mkdocs.yml or a
hand-written page mentions (MkDocs resolves and checks a Markdown link against the files it was
given: a link to one of its maps must find it there). A file a hand-written one shadows is handed
to MkDocs, which warns of it, as before.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from mkdocs.structure.files import InclusionLevel

from dipgen.mkdocs.output import Content
from dipgen.mkdocs.speed.partials import only_listeners
from dipgen.mkdocs.speed.reuse import LinkedFile

#: the events of a plugin that sees the build's files or pages
_EVENTS = ("files", "nav", "env", "pre_page", "page_read_source", "page_markdown", "page_content",
           "page_context", "post_page", "pre_template", "template_context", "post_template", "post_build")
_SEARCH = "material.plugins.search"  # the one other listener allowed: it reads pages, never other files


def usable(config, plugin) -> bool:
    """Whether no plugin but `plugin` (dipgen) and Material's search sees the build's files."""
    return only_listeners(config, _EVENTS, plugin, also=(_SEARCH,))


def put_beside(config, files: dict[str, Content], known, folders: Iterable[str],
               mentioned: Callable[[], Iterable[str]]) -> tuple[dict[str, Content], int]:
    """Put every file of the build cache in `files` (site path -> content) that is not a page and is
    in a game's folder (`folders`: each game's folder in the site, ``games/alpha/``) into the site
    folder; not those of a game whose folder's name one of the texts `mentioned` gives holds, nor
    those a file of `known` (MkDocs's files before the plugin's, by source path) shadows. Returns the
    files MkDocs is to be given, and how many were put beside."""
    text = "\0".join(mentioned())
    games = tuple(folder for folder in folders if folder.rstrip("/").rsplit("/", 1)[-1] not in text)
    out: dict[str, Content] = {}
    put = 0
    for uri, content in files.items():
        if uri.endswith(".md") or not isinstance(content, os.PathLike) or uri in known or not uri.startswith(games):
            out[uri] = content
        else:
            LinkedFile.made(config, uri, Path(content), InclusionLevel.UNDEFINED, None).copy_file()
            put += 1
    return out, put

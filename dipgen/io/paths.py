"""How the messages name a file: as the GM wrote its path, relative to the current folder when
inside it. It looks at the current folder and at links on the disk, so it lives with the reading of
files (io), not in the core's values: io names each game's folder and files when it reads them
(`dipgen.play.game.Game.shown`, `PhaseFile.shown`), and the replay's messages use those names."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path


def display_path(path: Path | str) -> str:
    """A path as the GM wrote it, relative to the current folder when inside it. Links are
    never followed: a link is named as the link, not as the file it leads to (and a link that
    loops or leads nowhere is named all the same)."""
    text, here = os.fspath(path), os.getcwd()  # the real path of the current folder
    inside = _inside(text, here)
    if inside is not None:
        return inside
    absolute = Path(os.path.abspath(text))
    try:  # reached through a link to a folder (/tmp -> /private/tmp): the folder resolved, the name kept
        return str(absolute.parent.resolve().relative_to(here) / absolute.name)
    except (ValueError, OSError, RuntimeError):
        return str(Path(text))


@lru_cache(maxsize=4096)  # every order names its file: a game's few files are named many times
def _inside(path: str, cwd: str) -> str | None:
    """`path` relative to `cwd` where it lies inside it, as text alone says (no link followed, no
    look at the disk: so it may be remembered); else None."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(cwd))
    except ValueError:
        return None

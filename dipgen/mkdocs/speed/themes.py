"""The theme's Jinja environments, spared what each build of a `mkdocs serve` session would do again.

MkDocs makes a new environment for every build, and Material's search plugin three more to
translate its settings; each would compile every template it loads (Material's language file is
long), and MkDocs lists the theme's folders (Material's 14,000 files, icons mostly) to find the
static ones. `Themes.hook` gives every environment a theme makes this process's compiled
templates (`SHARED`: every build of the process, whichever plugin object runs it; Jinja compares
each with its source, so a changed template is compiled again, and keys it by its file, so another
theme's or folder's is another entry) and a listing of the theme's folders that is made again only
where a folder changed (a file added, removed or renamed changes its folder's time; on a file
system whose times are coarse, a file added within the same tick as the last listing waits for the
next change to be seen).
"""

from __future__ import annotations

import os

import jinja2


class _Compiled(jinja2.BytecodeCache):
    """Templates compiled by earlier builds of this process, by name; Jinja compares each one's
    source with the one it was compiled from (a changed template is compiled again)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


#: a listing of some folders: the time of each folder when it was made, and the names found
_Listing = tuple[dict[str, int], tuple[str, ...]]


def _times(roots, followlinks: bool) -> dict[str, int] | None:
    """The time of every folder under `roots` (None if one cannot be read)."""
    out: dict[str, int] = {}
    try:
        for root in roots:
            for here, _dirs, _files in os.walk(root, followlinks=followlinks):
                out[here] = os.stat(here).st_mtime_ns
    except OSError:
        return None
    return out


def _unchanged(times: dict[str, int]) -> bool:
    try:
        return all(os.stat(folder).st_mtime_ns == t for folder, t in times.items())
    except OSError:
        return False


class _Listed(jinja2.FileSystemLoader):
    """A theme's loader whose listing of templates is kept while no folder of it changes."""

    def __init__(self, loader: jinja2.FileSystemLoader, listings: dict[tuple, _Listing]) -> None:
        super().__init__(loader.searchpath, loader.encoding, loader.followlinks)
        self._listings = listings

    def list_templates(self) -> list[str]:
        key = (tuple(self.searchpath), self.followlinks)
        known = self._listings.get(key)
        if known is not None and _unchanged(known[0]):
            return list(known[1])
        times = _times(self.searchpath, self.followlinks)  # before listing: a change meanwhile lists again
        names = super().list_templates()
        if times is not None:
            self._listings[key] = (times, tuple(names))
        return names


class Themes:
    """What the theme's environments share in this process (see the module)."""

    def __init__(self) -> None:
        self.compiled = _Compiled()
        self._listings: dict[tuple, _Listing] = {}

    def hook(self, theme) -> None:
        """Every environment `theme` (a configuration's `Theme`) makes from now on shares them."""
        make = theme.get_env
        if getattr(make, "dipgen_themes", None) is self:
            return

        def get_env() -> jinja2.Environment:
            env = make()
            if env.bytecode_cache is None:
                env.bytecode_cache = self.compiled
            if type(env.loader) is jinja2.FileSystemLoader:
                env.loader = _Listed(env.loader, self._listings)
            return env

        get_env.dipgen_themes = self  # type: ignore[attr-defined]
        theme.get_env = get_env


#: the process's: every build of it shares one (a plugin is made anew for each configuration MkDocs
#: loads, and a process may build several: tests, benchmarks, a script that builds two sites)
SHARED = Themes()

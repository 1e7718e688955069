"""The tests of `mkdocs serve`: the plugin as a serving session holds it (`serving`) and a server for
it (`reload_server`); what they compare: a served site's files, and the site a fresh full build of the
same project makes beside a serving plugin (tests/test_build_cache.py, tests/test_serve_cards.py,
tests/test_notify.py)."""

from __future__ import annotations

import contextlib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

from dipgen.usecases.cachefiles import FOLDER

from . import build, site_config

#: the live-reload script that `mkdocs serve` alone adds to a page (dipgen.mkdocs.livereload)
_RELOAD = re.compile(rb'\n *<script src="[./a-z]*assets/dipgen/livereload\.js"></script>\n *(?=\n)')


@contextlib.contextmanager
def serving(project: Path) -> Iterator:
    """The dipgen plugin of `project` as `mkdocs serve` holds it from one build to the next (MkDocs
    keeps one plugin, started once, for every config it loads: `site_config(project)` gives this one
    until the end): a new one, started as serve starts it; afterwards a build's again and shut down
    (its watcher stopped, its staging folder removed), so that no later test gets a serving plugin."""
    from mkdocs.config.defaults import MkDocsConfig

    MkDocsConfig.plugins.plugin_cache.pop("dipgen", None)
    plugin = site_config(project).plugins["dipgen"]
    plugin.on_startup(command="serve", dirty=False)
    try:
        yield plugin
    finally:
        plugin.on_startup(command="build", dirty=False)
        plugin.on_shutdown()


@contextlib.contextmanager
def reload_server(project: Path) -> Iterator:
    """MkDocs's live-reload server for `project`'s site, on a free port of the loopback address, its own
    watcher not started (a plugin's `on_serve` is given it): closed afterwards."""
    from mkdocs.livereload import LiveReloadServer

    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(project / "site"))
    try:
        yield server
    finally:
        server.server_close()


def site_bytes(project: Path) -> dict[str, bytes]:
    """The site's files, but the live-reload script that `mkdocs serve` alone adds."""
    site = project / "site"
    return {p.relative_to(site).as_posix(): _RELOAD.sub(b"", p.read_bytes()) if p.suffix == ".html" else p.read_bytes()
            for p in sorted(site.rglob("*")) if p.is_file() and p.name != "livereload.js"}


def fresh_site(project: Path, copy: Path, plugin) -> dict[str, bytes]:
    """The site a fresh full build of `project` makes (in `copy`: the project without its site and
    cache), while a `mkdocs serve` session's `plugin` goes on serving it afterwards."""
    from mkdocs.config.defaults import MkDocsConfig

    shutil.copytree(project, copy, ignore=shutil.ignore_patterns("site", FOLDER))
    MkDocsConfig.plugins.plugin_cache.pop("dipgen", None)
    config = site_config(copy)
    config.plugins.on_startup(command="serve", dirty=False)  # a first build of a server of its own
    try:
        build(config, serve_url="http://127.0.0.1:8000/")
    finally:
        config.plugins.on_shutdown()
    MkDocsConfig.plugins.plugin_cache["dipgen"] = plugin
    return site_bytes(copy)

"""Under `mkdocs serve`: which games changed since the last build, as the server's watcher saw it.

A rebuild must know which games changed before it can take the others as they were. Looking at
every game file (a `stat` each: `buildcache.stamps`) costs an edit some 0.2 s at 1,280 games, and
grows with the archive; but the games folder is watched already (`notify.watch`: through the
kernel, or by MkDocs's server), and the server rebuilds because a file there changed. The layer
listens to the same watcher (`internals.observe`): each path it reports changed, come or gone is
noted, and a rebuild looks again only at the games those paths are in (`changed`); the others keep
what the last look found.

Where the watcher cannot tell, a rebuild looks at every game, as without a watcher:

- the first build of a server, and the first after the layer began to listen (what changed before
  the watcher's first look at the folder is reported by nobody);
- a build after mkdocs.yml changed (the games folder may be another), or a build after the
  watcher stopped (the games folder was deleted: its watch ends) or did not catch up with the events
  it has queued within `CATCH_UP` seconds (each build first waits for the events queued so far to be
  heard, so that an edit that set off the build is never missed);
- a path reported outside every game's folder (a file of the games folder itself).

A path reported while a build runs counts for the next build (the watcher sets off that one too).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from dipgen.mkdocs.speed.internals import caught_up, observe, watching

#: seconds a build waits for the watcher to hear the events it has queued, before it looks at every game
CATCH_UP = 2.0


class Watched:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._observer = None      # the watchdog observer of the games folder
        self._folder = ""          # the games folder watched
        self._paths: set[str] = set()  # reported since the last `changed`
        self._everything = True    # something may have changed that no path tells
        self._config: tuple | None = None  # mkdocs.yml as the last build found it

    def listen(self, observer, folder: Path) -> None:
        """Listen to `observer`, the watcher of the games `folder` (`on_serve`, after the server's
        first build)."""
        if self._observer is observer and self._folder == str(folder):
            return
        with self._lock:
            self._observer, self._folder, self._paths, self._everything = observer, str(folder), set(), True
        observe(observer, str(folder), self._heard)

    def _heard(self, src: str, dest: str | None) -> None:
        with self._lock:
            self._paths.add(src)
            if dest:
                self._paths.add(dest)

    def changed(self, folder: Path, config_file: str | None) -> set[str] | None:
        """At the start of a build: the names of the games (folders in the games `folder`) where
        something changed since the last build; None where the watcher cannot tell (see the module).
        `config_file`: mkdocs.yml, which the server watches too."""
        observer = self._observer
        config = _stamp(config_file)
        config_changed, self._config = config != self._config, config
        if observer is None or str(folder) != self._folder or config_changed \
                or not watching(observer, self._folder) or not caught_up(observer, CATCH_UP):
            with self._lock:
                self._everything, self._paths = True, set()
            return None
        with self._lock:
            everything, paths = self._everything, self._paths
            self._everything, self._paths = False, set()
        if everything:
            return None
        top = self._folder.rstrip(os.sep) + os.sep
        names = {path[len(top):].split(os.sep, 1)[0] if path.startswith(top) else "" for path in paths}
        return None if "" in names else names  # "": the games folder itself, or a path outside it


def _stamp(path: str | None) -> tuple | None:
    try:
        st = os.stat(path) if path else None
    except OSError:
        return None
    return None if st is None else (path, st.st_size, st.st_mtime_ns, st.st_ino)

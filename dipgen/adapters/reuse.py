"""Under plain `mkdocs serve`: a generated page that has not changed is not rendered again.

MkDocs re-renders every page on each rebuild unless `--dirty` is given (which leaves the other
pages with a stale navigation). A generated page's output, though, is a function of its own
content (its file in the cache folder, named by the hash of its bytes) and of the rest of the
site: mkdocs.yml, the hand-written pages (the navigation), the theme, the plugin's settings. When
none of the rest changed since the last complete build (`state`: their paths, sizes and times),
a page whose content is the same file as then comes out as it came out then, so the plugin hands
MkDocs that output (a one-line template) instead of having the theme render it again, and the
search index the entries it gave then. Anything
else (a changed page, any change to the rest, a first build, a failed one) renders as usual.

The output is read from the site the last build put in place, which a staged build leaves where
it was until the new one replaces it (`dipgen.adapters.staging`); without staging, nothing is reused.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

#: the template of a page whose output is taken as it was (`page.dipgen_output`)
TEMPLATE = "dipgen-reused-output.html"


@dataclass
class _Last:
    state: str
    blobs: dict[str, str]  # generated page -> the name of its file in the cache folder
    site: Path             # the site that build put in place
    #: generated page -> its search entries and the ids of its anchors, as that build made them
    made: dict[str, tuple[list, set]] = field(default_factory=dict)


class Reuse:
    def __init__(self) -> None:
        self._last: _Last | None = None
        self._now: _Last | None = None
        self._candidates: dict[str, str] = {}
        self.reused = 0

    @staticmethod
    def state(config, *more: str) -> str:
        """A hash of what, beside its own content, a generated page's output depends on."""
        digest = hashlib.sha256("\0".join(more).encode())
        digest.update(repr(sorted(config.plugins)).encode() + str(config.site_url).encode())
        if config.config_file_path:
            digest.update(Path(config.config_file_path).read_bytes())
        for root in [config.docs_dir, *config.theme.dirs]:
            for folder, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))  # .icons: thousands, unchanged
                for name in sorted(files):
                    try:
                        st = os.stat(os.path.join(folder, name))
                    except OSError:
                        continue
                    digest.update(f"{folder}/{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        return digest.hexdigest()

    def begin(self, state: str, pages: dict[str, Path], site: Path | None) -> None:
        """A build starts: `pages`, each generated page's file in the cache; `site`, where the last
        build's site is while this one is made (None: nowhere to read it, nothing is reused)."""
        self._now = _Last(state, {uri: path.name for uri, path in pages.items()}, site or Path())
        last = self._last
        self.reused = 0
        if site is None or last is None or last.state != state or last.site != site:
            self._candidates = {}
        else:
            self._candidates = {uri: name for uri, name in self._now.blobs.items() if last.blobs.get(uri) == name}

    def output(self, page) -> tuple[str, list, set] | None:
        """The output of `page` as the last build wrote it, its search entries and its anchors'
        ids, if it may be taken as it is."""
        uri = page.file.src_uri
        if uri not in self._candidates or self._last is None or uri not in self._last.made:
            return None
        try:
            text = (self._last.site / page.file.dest_uri).read_text(encoding="utf-8")
        except (OSError, ValueError):
            return None
        self.reused += 1
        return (text, *self._last.made[uri])

    def made(self, page, entries: list, ids: set) -> None:
        """What a page of this build gave the search index, and its anchors' ids."""
        if self._now is not None:
            self._now.made[page.file.src_uri] = (entries, ids)

    def done(self, complete: bool) -> None:
        """The build ended: put in place (`complete`), or not (nothing of it is reused)."""
        self._last = self._now if complete else None
        self._now, self._candidates = None, {}

    @staticmethod
    def loader(env: jinja2.Environment) -> jinja2.Environment:
        """The theme's templates, and `TEMPLATE`."""
        theme = [env.loader] if env.loader is not None else []
        env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({TEMPLATE: "{{ page.dipgen_output }}"}), *theme])
        return env

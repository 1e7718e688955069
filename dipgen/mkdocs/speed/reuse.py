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
it was until the new one replaces it (`dipgen.mkdocs.speed.staging`); without staging, nothing is reused.
The same goes for the other generated files (maps, draws): one whose file in the cache folder is
the same as the last build's is linked into the new site from the last one (`LinkedFile`) instead
of being copied again. That site is removed once the new one is in place, and nothing writes into
the site's files where they are (a build writes a new folder), so the link is the file's only name
then. Where every file of a game's folder is taken so (the game and the rest of the site unchanged),
the folder itself moves from the last site into the new one as the build ends (`plan`, `move_into`):
one rename rather than a folder made for each page, a link for each file, and each old name removed.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from mkdocs.structure.files import File

from dipgen.mkdocs.speed.buildcache import folder_of, forget_folder

#: the template of a page whose output is taken as it was (`page.dipgen_output`)
TEMPLATE = "dipgen-reused-output.html"


@dataclass
class _Last:
    state: str
    blobs: dict[str, str]  # generated page -> the name of its file in the cache folder
    site: Path             # the site that build put in place
    #: generated page -> its search entries and the ids of its anchors, as that build made them
    made: dict[str, tuple[list, set]] = field(default_factory=dict)
    #: every other generated file (maps, draws) -> the name of its file in the cache folder
    files: dict[str, str] = field(default_factory=dict)
    #: how many generated pages and files went into each game's folder in the site, and elsewhere (`plan`)
    dests: Counter = field(default_factory=Counter)


class Reuse:
    def __init__(self) -> None:
        self._last: _Last | None = None
        self._now: _Last | None = None
        self._pages_comparable = False  # this build's pages may be taken from the last build's (`may_take`)
        self._files_comparable = False  # ... and its other files linked from the last site (`unchanged_file`)
        self._moving: dict[str, list[str]] = {}  # a folder of the site -> its files, taken whole (`plan`)
        self._moving_files: set[str] = set()
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

    def begin(self, state: str, pages: dict[str, str], site: Path | None, files: dict[str, str] | None = None) -> None:
        """A build starts: `pages`, the name of each generated page's file in the cache, and `files`
        every other generated file's; `site`, where the last build's site is while this one is made
        (None: nowhere to read it, nothing is reused)."""
        self._now = _Last(state, pages, site or Path(), files=files or {})
        last = self._last
        self.reused = 0
        self._files_comparable = site is not None and last is not None and last.site == site
        self._pages_comparable = self._files_comparable and last is not None and last.state == state

    def plan(self, files, folders: Iterable[str]) -> None:
        """Which of `folders` (each a game's folder of the site, ``games/alpha/``) the new site takes
        whole from the last one (`move_into`), rather than a link for each file and a folder for
        each page: those where this build makes the same files as the last, every one a generated
        page or file taken as the last build made it. Their files are neither linked nor written
        while the build runs. `files`: every file of the build (MkDocs's, every plugin's)."""
        now, last = self._now, self._last
        self._moving, self._moving_files = {}, set()
        if now is None:
            return
        wanted = set(folders)
        now.dests = Counter(_within(f.dest_uri, wanted) for f in files
                            if f.src_uri in now.blobs or f.src_uri in now.files)
        if last is None or not self._files_comparable:
            return
        found: dict[str, list[str]] = {}
        spoilt = set()
        for f in files:
            folder = _within(f.dest_uri, wanted)
            if folder is None:
                continue
            found.setdefault(folder, []).append(f.dest_uri)
            if not (self.may_take(f.src_uri) if f.is_documentation_page() else self._same_file(f.src_uri)):
                spoilt.add(folder)
        before = last.dests  # the same files: none fewer, none more, and the last site has them all
        self._moving = {folder: dests for folder, dests in found.items()
                        if folder not in spoilt and len(dests) == before[folder]
                        and _listing(last.site / folder) == {dest[len(folder):] for dest in dests}}
        self._moving_files = {dest for dests in self._moving.values() for dest in dests}
        for f in files:
            if isinstance(f, LinkedFile) and f.dest_uri in self._moving_files:
                f.moving = True

    def take_whole(self, folders: dict[str, list[str]], pages: Iterable[str]) -> None:
        """Folders of the last site the new one takes whole (`move_into`) though MkDocs was given
        none of their files (`dipgen.mkdocs.speed.settled`), each with its files; `pages`, theirs:
        what the last build recorded of them is kept for the next."""
        now, last = self._now, self._last
        if now is None or last is None or not folders:
            return
        self._moving.update(folders)
        for uri in pages:
            if uri in last.made:
                now.made[uri] = last.made[uri]
        for folder, dests in folders.items():
            now.dests[folder] += len(dests)

    def move_into(self, site: Path) -> list[tuple[str, str]]:
        """Put each folder `plan` chose into the new `site` (before it replaces the last one): the
        last site's folder renamed into it where nothing of the new build is there (another plugin
        may have written a page), else each file missing linked from the last site. Returns what
        was moved (`move_back`); OSError, with nothing moved, where a file cannot be put in place.
        (By paths as strings, each folder's parent made once: a big archive moves a folder a game
        on every edit under serve.)"""
        moved: list[tuple[str, str]] = []
        if self._last is None:
            return moved
        last, new = str(self._last.site), str(site)
        parents: set[str] = set()
        try:
            for folder, dests in self._moving.items():
                source, target = os.path.join(last, folder), os.path.join(new, folder)
                if not os.path.lexists(target):
                    try:
                        parent = os.path.dirname(target.rstrip("/"))
                        if parent not in parents:
                            os.makedirs(parent, exist_ok=True)
                            parents.add(parent)
                        os.rename(source, target)
                        moved.append((source, target))
                        continue
                    except OSError:
                        pass
                for dest in dests:
                    here = os.path.join(new, dest)
                    if not os.path.lexists(here) and not _link(os.path.join(last, dest), here):
                        raise OSError(errno.ENOENT, f"the last build's {dest} went while this one ran; build again")
        except OSError:
            self.move_back(moved)
            raise
        return moved

    @staticmethod
    def move_back(moved: list[tuple[str, str]]) -> None:
        """Give the last site back what `move_into` took (the new site did not replace it)."""
        for source, target in reversed(moved):
            try:
                os.rename(target, source)
            except OSError:
                pass

    def unchanged_file(self, uri: str) -> str | None:
        """Where the last build's site has the generated file `uri` exactly as this build makes it
        (the same file of the cache folder: a map depends on nothing else), if it does."""
        if not self._same_file(uri) or self._last is None:
            return None
        return os.path.join(self._last.site, uri)

    def may_take(self, uri: str) -> bool:
        """Whether the generated page `uri` may be taken as the last build made it (`output`)."""
        now, last = self._now, self._last
        return self._pages_comparable and now is not None and last is not None and uri in last.made \
            and last.blobs.get(uri) == now.blobs.get(uri) is not None

    def _same_file(self, uri: str) -> bool:
        """Whether the generated file `uri` (not a page) is the same file of the cache as the last build's."""
        now, last = self._now, self._last
        return self._files_comparable and now is not None and last is not None \
            and last.files.get(uri) == now.files.get(uri) is not None

    def output(self, page, read: bool = True) -> tuple[str, list, set] | None:
        """The output of `page` as the last build wrote it (with `read`; else "", where the file is
        only linked: `link_output`), its search entries and its anchors' ids, if it may be taken
        as it is."""
        uri = page.file.src_uri
        if not self.may_take(uri) or self._last is None:
            return None
        text = self.text_of(page) if read else "" if page.file.dest_uri in self._moving_files or \
            (self._last.site / page.file.dest_uri).is_file() else None  # (a moving folder's: `plan` saw it)
        if text is None:
            return None
        self.reused += 1
        return (text, *self._last.made[uri])

    def text_of(self, page) -> str | None:
        """The output of `page` in the last build's site, if it is there."""
        if self._last is None:
            return None
        try:
            return (self._last.site / page.file.dest_uri).read_text(encoding="utf-8")
        except (OSError, ValueError):
            return None

    def link_output(self, page) -> bool:
        """Put the output of a page taken as it was (`output`) into the new site as a link to the
        last site's file; False where that cannot be done (MkDocs then writes it)."""
        if self._last is None or page.reused is None:
            return False
        if page.file.dest_uri in self._moving_files:
            return True  # its folder moves into the new site whole (`move_into`)
        return _link(str(self._last.site / page.file.dest_uri), page.file.abs_dest_path)

    def made(self, page, entries: list, ids: set) -> None:
        """What a page of this build gave the search index, and its anchors' ids."""
        if self._now is not None:
            self._now.made[page.file.src_uri] = (entries, ids)

    def done(self, complete: bool) -> None:
        """The build ended: put in place (`complete`), or not (nothing of it is reused)."""
        self._last = self._now if complete else None
        self._now, self._pages_comparable, self._files_comparable = None, False, False
        self._moving, self._moving_files = {}, set()

    def loader(self, env: jinja2.Environment) -> jinja2.Environment:
        """The theme's templates, and `TEMPLATE`."""
        theme = [env.loader] if env.loader is not None else []
        env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({TEMPLATE: "{{ page.dipgen_output }}"}), *theme])
        return env


class LinkedFile(File):
    """A generated file (not a page), which `copy_file` links into the site rather than copying:
    from `previous`, the same file in the last build's site, where there is one, else from its
    file in the cache folder. A link is made under a new name and renamed over any file there, so
    nothing is ever written into a file the cache shares (a `--dirty` build in place included);
    where links cannot be made (another file system), the file is copied as MkDocs copies it."""

    previous: str | None = None
    linked = False  # whether `copy_file` linked it from the last site
    moving = False  # whether its folder moves into the new site whole (`Reuse.plan`): nothing to copy

    @classmethod
    def made(cls, config, uri: str, blob: Path, inclusion, previous: str | None) -> File:
        """The file `uri` of the site, from `blob` in the cache folder, or linked from `previous`."""
        file = cls.generated(config, uri, abs_src_path=str(blob), inclusion=inclusion)
        assert isinstance(file, LinkedFile)
        file.previous = previous
        return file

    def copy_file(self, dirty: bool = False) -> None:
        if dirty and not self.is_modified() or self.moving:
            return  # as MkDocs: a dirty build leaves a file newer than its source; or its folder moves whole
        dest = self.abs_dest_path
        for source, last in ((self.previous, True), (self.abs_src_path, False)):
            if source is not None and _link(str(source), dest):
                self.linked = last
                return
        super().copy_file(dirty)


def _new_file_mode() -> int:
    mask = os.umask(0o22)
    os.umask(mask)
    return 0o666 & ~mask


#: the permissions a file made now gets (MkDocs's copies): a linked file must have the same, or a
#: web server reading the site as another user could be refused it (an older cache's files are 0600)
NEW_FILE_MODE = _new_file_mode()


def _link(source: str, dest: str) -> bool:
    """`dest` as a new name of `source` (any file at `dest` replaced, never written into); False
    where that cannot be done, or where `source` has other permissions than a new file would."""
    try:
        if stat.S_IMODE(os.stat(source).st_mode) != NEW_FILE_MODE:
            return False
        folder_of(dest)
        try:
            os.link(source, dest)
        except FileExistsError:
            tmp = f"{dest}.dipgen-{os.getpid()}"
            os.link(source, tmp)
            os.replace(tmp, dest)
        return True
    except OSError:  # another file system, one without links, the file gone; a folder removed
        forget_folder(dest)
        return False


def _within(dest: str, folders) -> str | None:
    """The folder of `folders` (each ending in "/") that the site path `dest` is in, if any."""
    at = dest.rfind("/")
    while at > 0:
        if dest[:at + 1] in folders:
            return dest[:at + 1]
        at = dest.rfind("/", 0, at)
    return None


def _listing(folder: Path) -> set[str] | None:
    """Every entry under `folder` but its folders, by its path there (a link, to a folder or not, is
    an entry); None where it cannot be read, or has nothing."""
    out: set[str] = set()
    todo = [(str(folder), "")]
    while todo:
        path, base = todo.pop()
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        todo.append((entry.path, f"{base}{entry.name}/"))
                    else:
                        out.add(base + entry.name)
        except OSError:
            return None
    return out or None

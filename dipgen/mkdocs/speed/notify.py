"""Under `mkdocs serve`: the games folder watched through the kernel's own notice of each change,
where that notice can be trusted, instead of by MkDocs's polling.

MkDocs's server polls what it watches (watchdog's polling observer): twice a second it lists and
`stat`s every file and compares the lists in Python. A big archive's games folder is tens of
thousands of files: at 1,280 games the server spent half a core on it while nothing changed
(bench/archive.py, "the server's watcher, nothing changed"). Linux tells of each change as it
happens (inotify) and costs nothing while nothing does.

MkDocs polls because the notice does not come everywhere: a folder shared into a virtual machine
or a container from another system (9p, virtiofs, VirtualBox's shared folders), or mounted over a
network (NFS, SMB) or through FUSE, changes without this kernel hearing of it. So the layer
watches the games folder itself only on Linux, only where the folder is on a local file system of
a kind that reports every change (`LOCAL`), only where it holds no symbolic link (a game folder
linked from elsewhere: the kernel watches the link, not what it leads to), and only where its
folders fit well within the watches a user may hold (one a folder; fs.inotify.max_user_watches);
elsewhere, and where setting the watches fails, the server polls the folder as before, and the
log says why. The docs folder and mkdocs.yml stay with the server's own watcher: a few files, and
an editor that saves mkdocs.yml by replacing it would end a watch of the file itself.

The kernel's watcher reports what polling would: a file or folder written, made, removed, moved
or touched (`changes`); not a file opened or read, as every build reads the games, or each build
would set off the next. A change sets off a rebuild as one the server saw itself
(`internals.request_rebuild`).
"""

from __future__ import annotations

import logging
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from dipgen.io.paths import display_path
from dipgen.mkdocs.speed.internals import request_rebuild, server_observer

log = logging.getLogger("mkdocs.plugins.dipgen")

#: file systems whose every change passes through this kernel, which inotify reports
LOCAL = frozenset({"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "ramfs", "overlay", "zfs", "f2fs",
                   "bcachefs", "jfs", "reiserfs", "nilfs2", "vfat", "exfat", "ntfs3", "hfsplus"})
#: the share of a user's inotify watches the games folder may take (other programs hold some too)
SHARE = 0.5
MOUNTINFO = Path("/proc/self/mountinfo")
LIMIT = Path("/proc/sys/fs/inotify/max_user_watches")


@dataclass(frozen=True)
class GamesWatch:
    folder: Path
    observer: object  # the watchdog observer that watches the games folder
    own: bool         # started by this layer (and stopped by it), not the server's


def watch(server, folder: Path) -> GamesWatch:
    """Watch the games `folder` for MkDocs's `server` (`on_serve`): through the kernel, by an observer
    started here, where `why_not` finds no reason against it; else by the server's own watcher (on
    other systems without a word: MkDocs's way)."""
    if sys.platform.startswith("linux"):
        reason = why_not(folder)
        if reason is None:
            observer = None
            try:
                observer = _kernel_observer()
                observer.schedule(_rebuilds(server), str(folder), recursive=True)
                observer.start()
            except OSError as e:  # the watches or the inotify instances a user may hold, all taken
                reason = f"the kernel would not watch it ({e.strerror or e})"
                if observer is not None:
                    observer.stop()
            else:
                log.info("dipgen: watching '%s' for changes (the kernel's notices)", display_path(folder))
                return GamesWatch(folder, observer, own=True)
        log.info("dipgen: the server looks for changes in %s twice a second, since %s", display_path(folder), reason)
    server.watch(str(folder))
    return GamesWatch(folder, server_observer(server), own=False)


def stop(watched: GamesWatch | None) -> None:
    if watched is not None and watched.own:
        watched.observer.stop()  # type: ignore[attr-defined]
        if watched.observer.is_alive():  # type: ignore[attr-defined]
            watched.observer.join()  # type: ignore[attr-defined]


def why_not(folder: Path) -> str | None:
    """Why the kernel's notices cannot be trusted with `folder`, on Linux (None: they can)."""
    try:
        mountinfo = MOUNTINFO.read_text(encoding="utf-8", errors="replace")
        limit = int(LIMIT.read_text(encoding="ascii"))
    except (OSError, ValueError):
        return "there is no /proc to tell its file system"
    kind = mount_kind(os.path.realpath(folder), mountinfo)
    if kind not in LOCAL:
        return f"it is on a file system ({kind or 'of no known kind'}) whose changes the kernel may not hear of"
    count, link = folders(folder, int(limit * SHARE))
    if link is not None:
        return f"it holds a symbolic link ({display_path(link)}), which the kernel's watch does not follow"
    if count is None:
        return (f"it holds more folders than half the {limit} the kernel lets a user watch "
                "(sysctl fs.inotify.max_user_watches raises it)")
    return None


def mount_kind(path: str, mountinfo: str) -> str:
    """The kind of file system (``ext4``, ``nfs``...) the absolute, resolved `path` is on, by the text
    of /proc/self/mountinfo: the innermost mount holding it, the last mounted where two share a place
    ('' where none holds it)."""
    best, kind = -1, ""
    for line in mountinfo.splitlines():
        head, sep, tail = line.partition(" - ")
        fields, rest = head.split(), tail.split()
        if not sep or len(fields) < 5 or not rest:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])  # \040: a space
        inside = path == point or path.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= best:
            best, kind = len(point), rest[0]
    return kind


def folders(root: Path, most: int) -> tuple[int | None, Path | None]:
    """How many folders `root` is, with those inside it (None as soon as there are more than `most`),
    and the first symbolic link found in it, if any (a game folder linked from elsewhere: polling
    follows it, the kernel's watch of the folder does not)."""
    count, todo = 0, [str(root)]
    while todo:
        count += 1
        if count > most:
            return None, None
        try:
            entries = list(os.scandir(todo.pop()))
        except OSError:
            continue
        for entry in entries:
            if entry.is_symlink():
                return count, Path(entry.path)
            if entry.is_dir(follow_symlinks=False):
                todo.append(entry.path)
    return count, None


def changes() -> list[type]:
    """The events the kernel's watcher reports (see the module): what polling would report."""
    from watchdog import events as e

    return [e.FileCreatedEvent, e.FileDeletedEvent, e.FileModifiedEvent, e.FileAttribEvent, e.FileMovedEvent,
            e.FileClosedEvent, e.DirCreatedEvent, e.DirDeletedEvent, e.DirModifiedEvent, e.DirAttribEvent,
            e.DirMovedEvent]


def _kernel_observer():
    """watchdog's inotify observer, whose watches report `changes` unless told otherwise."""
    from watchdog.observers.inotify import InotifyObserver

    class Changes(InotifyObserver):
        def schedule(self, event_handler, path, *, recursive=False, event_filter=None, follow_symlink=False):
            return super().schedule(event_handler, path, recursive=recursive, event_filter=event_filter or changes(),
                                    follow_symlink=follow_symlink)

    return Changes()


def _rebuilds(server):
    from watchdog.events import FileSystemEventHandler

    class Rebuild(FileSystemEventHandler):
        def on_any_event(self, event) -> None:
            request_rebuild(server)

    return Rebuild()

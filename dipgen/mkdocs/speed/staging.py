"""Where a build is written: a staging folder that replaces the site folder only once the build is
complete (see `dipgen.mkdocs.speed`)."""

from __future__ import annotations

import logging
import os
import re
import secrets as _random
import shutil
import time
from pathlib import Path

from dipgen.io.paths import display_path

log = logging.getLogger("mkdocs.plugins.dipgen")


class _Staging:
    """A build written into a folder beside the site folder, which replaces the site folder only
    once the build is complete.

    Two builds may run at once (a `mkdocs serve` and a `mkdocs build`, two terminals): each
    writes its own folder, holds a lock on it (`flock`, released by the system when the process
    ends, however it ends) from the moment it is made until it becomes the site or is removed,
    and the last to finish gives the site, as with MkDocs alone. A folder of that name whose lock
    nobody holds is a leftover of a build that was killed: `sweep` removes it."""

    #: a leftover younger than this (seconds since it last changed) is left alone, lock or not: it
    #: may be a build's that has made its folder and not yet locked it (a matter of microseconds);
    #: where there are no locks, it may be a build still running, so a day
    GRACE = 10.0
    NO_LOCKS_GRACE = 24 * 3600.0

    def __init__(self, site: Path):
        self.site = site
        site.parent.mkdir(parents=True, exist_ok=True)
        self.path = site.with_name(f".{site.name}.dipgen-building-{_random.token_hex(4)}")
        self.path.mkdir()  # the mode the umask gives, as MkDocs would make the site folder
        try:
            self._lock = _lock(self.path)
        except OSError:
            self.path.rmdir()
            raise
        if site.is_dir():
            self.path.chmod(site.stat().st_mode & 0o7777)

    @staticmethod
    def usable(site: Path) -> bool:
        """A site folder that can be replaced by renaming: not a link, not a mount point, not a file."""
        return not site.is_symlink() and not os.path.ismount(site) and (site.is_dir() or not site.exists())

    @classmethod
    def sweep(cls, site: Path) -> list[str]:
        """Remove what builds that were killed left beside `site`: only folders named exactly as
        this class names them (not links), unchanged for GRACE, whose lock no running build holds.
        Returns the names removed."""
        pattern = re.compile(re.escape(f".{site.name}.dipgen-building-") + "[0-9a-f]{8}")
        removed: list[str] = []
        try:
            entries = list(site.parent.iterdir())
        except OSError:
            return removed
        for entry in entries:
            if not pattern.fullmatch(entry.name) or entry.is_symlink() or not entry.is_dir():
                continue
            try:
                age = time.time() - entry.stat().st_mtime
                lock = _lock(entry)
            except OSError:
                continue  # gone meanwhile, or in use (the lock is held)
            try:
                if age >= (cls.GRACE if lock is not None else cls.NO_LOCKS_GRACE):
                    shutil.rmtree(entry, ignore_errors=True)
                    removed.append(entry.name)
            finally:
                _unlock(lock)
        return removed

    def commit(self) -> None:
        try:
            self._commit()
        finally:
            _unlock(self._lock)
            self._lock = None

    def _commit(self) -> None:
        if not self.site.exists():
            self.path.rename(self.site)
            return
        old = self.site.with_name(f".{self.site.name}.dipgen-old-{_random.token_hex(4)}")
        self.site.rename(old)
        try:
            self.path.rename(self.site)
        except OSError:
            old.rename(self.site)
            raise
        kept = True
        for entry in old.iterdir():  # MkDocs never cleans hidden entries (a deploy checkout's .git): keep them
            if entry.name.startswith(".") and not (self.site / entry.name).exists():
                try:
                    entry.rename(self.site / entry.name)
                except OSError:
                    kept = False
        if kept:
            shutil.rmtree(old, ignore_errors=True)
        else:
            log.warning("dipgen: the previous site is kept in %s: some of its hidden files could not be moved",
                        display_path(old))

    def discard(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        _unlock(self._lock)
        self._lock = None


def _lock(folder: Path):
    """An exclusive lock on `folder` (a descriptor of it, locked with flock), or None where the
    system has no flock. OSError if another process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows: no locks; `sweep` then waits a day before it takes a folder for a leftover
        return None
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise
    return fd


def _unlock(fd) -> None:
    if fd is not None:
        os.close(fd)  # closing the descriptor releases the lock

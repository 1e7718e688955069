"""New files in a folder, all or none, never through a link: how `dipgen init` writes an archive.

Every path is checked before any is written (`obstacles`): a file or a link where a file is to
go, a file where a folder must be, a link on the way from the folder down. Then the files are
written one by one (`write_new`), each folder made and each file created new (never opened
through a link); should the system refuse one halfway (a full disk), what was written is
removed again.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from dipgen.core.errors import Problem

from dipgen.io.paths import display_path


def obstacles(root: Path, paths: list[str]) -> list[Problem]:
    """What stands in the way of writing each of `paths` (relative, with /) under `root`, once each."""
    out: dict[Path, Problem] = {}
    if root.is_symlink():
        out[root] = _link(root)
    elif root.exists() and not root.is_dir():
        out[root] = _file(root)
    else:
        for parent in root.parents:  # a folder above it that is a file (the links above it are the system's)
            if parent.exists() or parent.is_symlink():
                if not parent.is_dir():
                    out[parent] = _link(parent) if parent.is_symlink() else _file(parent)
                break
    if out:
        return list(out.values())
    for rel in paths:
        parts = PurePosixPath(rel).parts
        here = root
        for i, part in enumerate(parts):
            here = here / part
            last = i == len(parts) - 1
            if here in out:
                break
            if here.is_symlink():
                out[here] = _link(here)
            elif last and here.exists():
                out[here] = Problem(display_path(here), None, "already exists; dipgen init writes over nothing",
                                    "name a new folder, or move the file away", code="path-taken")
            elif not last and here.exists() and not here.is_dir():
                out[here] = _file(here)
            else:
                continue
            break
    return list(out.values())


def _link(path: Path) -> Problem:
    return Problem(display_path(path), None, "is a link: dipgen init never writes through one",
                   "name a folder whose way down holds no link", code="link-in-the-way")


def _file(path: Path) -> Problem:
    return Problem(display_path(path), None, "is a file where dipgen init must make a folder",
                   "move the file away, or name another folder", code="file-in-the-way")


def write_new(root: Path, files: Mapping[str, str | bytes]) -> None:
    """Write `files` (relative path -> text or bytes) under `root` as new files; all of them, or
    (an OSError halfway) none: what was made is removed before the error goes on."""
    made: list[Path] = []
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        for folder in [root, *(root / p for p in _folders(files))]:
            if not folder.is_dir():
                folder.mkdir(parents=folder == root)
                made.append(folder)
        for rel, content in files.items():
            path = root / rel
            fd = os.open(path, flags, 0o666)  # as any file: the umask's mode
            made.append(path)
            with os.fdopen(fd, "wb") as f:
                f.write(content.encode("utf-8") if isinstance(content, str) else content)
    except OSError:
        for path in reversed(made):
            try:
                path.rmdir() if path.is_dir() and not path.is_symlink() else path.unlink()
            except OSError:
                pass
        raise


def _folders(files: Mapping[str, str | bytes]) -> list[str]:
    """Every folder the files need, each after the folder that holds it."""
    out: set[str] = set()
    for rel in files:
        parents = PurePosixPath(rel).parents
        out.update(str(p) for p in parents if str(p) != ".")
    return sorted(out, key=lambda p: (p.count("/"), p))

"""What a dirty build no longer makes, removed from the site it wrote over (`prune`), as a clean
build would: a game no longer revealed loses its full edition (see `dipgen.mkdocs.plugin`)."""

from __future__ import annotations

import os
from pathlib import Path


def prune(site: Path, written: set[str], roots: set[str]) -> list[str]:
    """In a dirty build, remove the files under `roots` (the folders dipgen writes into) that
    this build did not write (`written`: the site paths of every file of the build), as a clean
    build would: a game that is no longer revealed loses its full edition, a revealed one its
    private pages, a deleted one its pages. Hidden entries (dot names) are left alone, as MkDocs
    leaves them. Returns the paths removed."""
    removed = []
    for root in sorted(roots):
        top = site / root
        if top.is_symlink() or not top.is_dir():
            continue
        for folder, dirs, files in os.walk(top, topdown=False):
            here = Path(folder)
            if any(part.startswith(".") for part in here.relative_to(site).parts):
                continue
            for name in files:
                uri = (here / name).relative_to(site).as_posix()
                if not name.startswith(".") and uri not in written:
                    (here / name).unlink(missing_ok=True)
                    removed.append(uri)
            for name in dirs:
                try:
                    (here / name).rmdir()  # only if empty now
                except OSError:
                    pass
    return removed


def roots(uris) -> set[str]:
    """The folders of the site that dipgen writes into: each generated file's first folder
    (``games``, ``private``), or its first two under ``assets`` (``assets/dipgen``, ``assets/maps``),
    which the theme and other plugins share."""
    roots = set()
    for uri in uris:
        parts = uri.split("/")
        n = 2 if parts[0] == "assets" else 1
        if len(parts) > n:
            roots.add("/".join(parts[:n]))
    return roots

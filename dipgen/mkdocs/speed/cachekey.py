"""The key that seals the build cache (`dipgen.mkdocs.speed.buildcache`): made once, beside the
site's mkdocs.yml (`KEY_FILE`), readable by its owner alone, never in git, never leaving the machine."""

from __future__ import annotations

import itertools
import logging
import os
from pathlib import Path

from dipgen.io.paths import display_path
from dipgen.usecases.cachefiles import KEY_FILE, git

log = logging.getLogger("mkdocs.plugins.dipgen")

_SERIAL = itertools.count()


def machine_key(base: Path) -> bytes:
    """The key that seals the cache beside `base`'s mkdocs.yml (`KEY_FILE`), made where there is
    none (or where the file is not one: a link, a file cut short), readable by its owner alone.
    OSError where it cannot be made (a read-only checkout)."""
    path = base / KEY_FILE
    for _ in range(2):
        try:
            return _read_key(path)
        except FileNotFoundError:
            try:
                key = _new_key(path, replace=False)
                _ignore_locally(base)
                return key
            except FileExistsError:  # another build made one meanwhile: that one
                continue
        except (OSError, ValueError) as e:  # a link (O_NOFOLLOW), a folder, a file cut short
            log.info("dipgen: %s cannot be read as a key (%s); a new one seals the cache from now on",
                     display_path(path), getattr(e, "strerror", None) or e)
            return _new_key(path, replace=True)
    raise OSError(f"{display_path(path)} comes and goes")


def _read_key(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as f:
        text = f.read(100)
    if len(text) != 65 or not text.endswith(b"\n") or not all(c in b"0123456789abcdef" for c in text[:64]):
        raise ValueError("not 64 hexadecimal digits")
    return bytes.fromhex(text[:64].decode("ascii"))


def _new_key(path: Path, replace: bool) -> bytes:
    """A new key written to `path` whole (a temporary file's second name, or renamed over what is
    there with `replace`); FileExistsError where another process made one first (without)."""
    key = os.urandom(32)
    tmp = f"{path}.{os.getpid()}-{next(_SERIAL)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(key.hex().encode() + b"\n")
        if replace:
            if os.path.isdir(path) and not os.path.islink(path):
                raise IsADirectoryError(f"{display_path(path)} is a folder")
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise
            except OSError:  # a file system without links
                os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return key


def _ignore_locally(base: Path) -> None:
    """A new key that git would not ignore (an archive whose .gitignore an older dipgen init wrote)
    is ignored in this clone alone: a line in the repository's info/exclude, which is never
    committed; the GM's .gitignore is hers. Nothing where there is no repository."""
    ignored = git(base, "check-ignore", "-q", KEY_FILE)
    prefix, exclude = git(base, "rev-parse", "--show-prefix"), git(base, "rev-parse", "--git-path", "info/exclude")
    if ignored is None or ignored.returncode != 1 or not prefix or prefix.returncode or not exclude \
            or exclude.returncode:
        return  # ignored already, or no repository
    path = base / exclude.stdout.decode("utf-8", "replace").strip()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        before = path.read_bytes() if path.exists() else b""
        with open(path, "ab") as f:
            f.write((b"\n" if before and not before.endswith(b"\n") else b"") + b"# the key that seals dipgen's build "
                    b"cache never leaves this machine\n/" + prefix.stdout.strip() + KEY_FILE.encode() + b"\n")
        log.info("dipgen: made %s; git ignores it in this clone (%s)", display_path(base / KEY_FILE),
                 display_path(path))
    except OSError as e:
        log.info("dipgen: made %s; add it to .gitignore (%s)", display_path(base / KEY_FILE), e.strerror or e)

"""Under plain `mkdocs serve`: Material's search documents written from the last build's file.

Material's index holds every page's text: 88 MB of JSON at 1,280 games. Written whole on each
edit (and read back whole to move its documents aside: `dipgen.mkdocs.search`), it made an edit's
cost grow with the archive. Here the layer writes the file itself (`write`), as Material would
write it, byte for byte: its head (Material's configuration) and each entry as Material's JSON has
it, comma-separated; but a withheld page's entries (`settled`), which are as the last build wrote
them, are copied from the last build's file (`os.copy_file_range`: the kernel copies, Python
neither reads nor serializes them), by the byte range that build recorded of them. A file that is
not the one the last build wrote (`Written`: its size, time and inode) is not copied from: its
entries are serialized again.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from dipgen.mkdocs.speed.internals import entries_json


@dataclass(frozen=True)
class Written:
    """A file as it was written: where, its size, time and inode."""

    path: Path
    size: int
    mtime_ns: int
    ino: int

    @classmethod
    def of(cls, path: Path, fd: int) -> Written:
        st = os.fstat(fd)
        return cls(path, st.st_size, st.st_mtime_ns, st.st_ino)

    def same(self) -> bool:
        """Whether the file is still as it was written."""
        try:
            st = os.stat(self.path)
        except OSError:
            return False
        return (st.st_size, st.st_mtime_ns, st.st_ino) == (self.size, self.mtime_ns, self.ino)


#: a run of the index's entries, ``entries[start:end]`` (one page's), and where the last file has
#: their JSON (offset, length), if it does
Piece = tuple[int, int, "tuple[int, int] | None"]


def write(path: Path, head: str, entries: list, pieces: list[Piece], last: Written | None,
          tail: str = "]}") -> tuple[list[tuple[int, int]], Written]:
    """Write `head`, every one of `entries` as Material's JSON has it (comma-separated) and `tail`
    to `path`; `pieces`, in order and apart, name runs of them that the file `last` wrote holds as
    they are (where it is still that file). Returns where each piece went (offset, length) and the
    file written."""
    source = last.path if last is not None and last.same() else None
    placed: list[tuple[int, int]] = []
    with open(path, "wb") as f, _Source(source) as src:
        out = _Out(f.fileno(), head.encode("utf-8"))
        at = 0
        for start, end, old in pieces:
            if start > at:  # entries of no piece (hand-written pages)
                out.text(entries_json(entries[at:start]))
            if old is not None and src is not None and end > start:
                placed.append(out.copy(src, *old))
            else:
                placed.append(out.text(entries_json(entries[start:end])))
            at = end
        out.text(entries_json(entries[at:]))
        out.close(tail.encode("utf-8"))
        return placed, Written.of(path, f.fileno())


class _Source:
    """The last build's file, open for reading (None where there is none to copy from)."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self.fd: int | None = None

    def __enter__(self) -> int | None:
        if self._path is not None:
            try:
                self.fd = os.open(self._path, os.O_RDONLY)
            except OSError:
                self.fd = None
        return self.fd

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)


class _Out:
    """The file being written: text gathered, ranges of the last file copied, a comma between parts."""

    def __init__(self, fd: int, head: bytes) -> None:
        self._fd = fd
        self._pending: list[bytes] = [head]
        self._pos = len(head)
        self._parts = 0  # the parts written: a comma before each after the first
        self._copy: tuple[int, int, int] | None = None  # a range not copied yet: source, offset, length

    def text(self, text: str) -> tuple[int, int]:
        if not text:
            return self._pos, 0
        self._flush_copy()
        self._comma()
        data = text.encode("utf-8")
        self._pending.append(data)
        self._pos += len(data)
        return self._pos - len(data), len(data)

    def copy(self, source: int, offset: int, length: int) -> tuple[int, int]:
        if not length:
            return self._pos, 0
        pending = self._copy
        if pending is not None and pending[0] == source and pending[1] + pending[2] + 1 == offset:
            self._copy = (source, pending[1], pending[2] + 1 + length)  # the comma between them too
            self._pos += 1 + length
            return self._pos - length, length
        self._flush_copy()
        self._comma()
        self._write()
        self._copy = (source, offset, length)
        self._pos += length
        return self._pos - length, length

    def _comma(self) -> None:
        if self._parts:
            self._pending.append(b",")
            self._pos += 1
        self._parts += 1

    def _write(self) -> None:
        data = b"".join(self._pending)
        self._pending = []
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]

    def _flush_copy(self) -> None:
        if self._copy is None:
            return
        self._write()
        source, offset, length = self._copy
        self._copy = None
        _copy_range(source, self._fd, offset, length)

    def close(self, tail: bytes) -> None:
        self._flush_copy()
        self._pending.append(tail)
        self._pos += len(tail)
        self._write()


def _copy_range(source: int, dest: int, offset: int, length: int) -> None:
    """`length` bytes of `source` from `offset` written at `dest`'s position, by the kernel where it can."""
    while length:
        try:
            n = os.copy_file_range(source, dest, length, offset)
        except OSError as e:
            if e.errno not in (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.EPERM):
                raise
            data = os.pread(source, length, offset)
            n = len(data)
            view = memoryview(data)
            while view:
                view = view[os.write(dest, view):]
        if n == 0:
            raise OSError(errno.EIO, "the last search index is shorter than it was written")
        offset += n
        length -= n

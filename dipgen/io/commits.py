"""When each file of a game folder was published: the time of the commit that added it, read from
git with one ``git log`` for the whole folder (never one per file).

A file not yet committed, a folder outside any repository, or no git at all: no time (the file
is left out). In a shallow clone (CI's checkout without its history) the oldest commit there
seems to add every file it holds: those times are not known either, and `Commits.shallow` says so.
Nor is the time of a commit dated where no date reaches (git takes any number of seconds a commit
gives, past the year 9999 too): `Commits.undated` names those files, for a warning.
The times reach the outputs only through the History and the view (`dipgen.view`), which decides
what a level may know of them; the build never reads the clock or a file's modification time.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

#: a commit's header line in the log: a NUL, then its hash, committer time (Unix) and parents
_FORMAT = "%x00%H %ct %P"


@dataclass(frozen=True)
class Commits:
    """file name (in the game folder) -> time (UTC) of the commit that added it, as it stands now."""

    added: dict[str, dt.datetime] = field(default_factory=dict)
    #: some files were added by the oldest commit of a shallow clone: their times are unknown
    shallow: bool = False
    #: file name -> the commit that added it, whose time no date can hold (past the year 9999, as
    #: git takes from whoever made the commit): its time is unknown, and the GM is told
    undated: dict[str, str] = field(default_factory=dict)

    def get(self, name: str) -> dt.datetime | None:
        return self.added.get(name)


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8", "replace")


def commit_times(folder: Path | str) -> Commits:
    """The times of the commits that added each file directly in `folder` (the newest such commit,
    for a file deleted and added again); renames count as adding the file under its new name."""
    return commit_times_of([Path(folder)])[str(Path(folder))]


def commit_times_of(folders: list[Path]) -> dict[str, Commits]:
    """`commit_times` of each of `folders` (by ``str(folder)``), from one ``git log`` of the folder
    they are all in (a site's games: one process, not one per game). A folder that is a repository
    of its own is read alone."""
    return CommitLog().of(folders)


class CommitLog:
    """`commit_times_of` for a process that asks again and again (`mkdocs serve`, at every rebuild):
    the whole log is read once; while the repository's HEAD stays (an edit not yet committed) it is
    not read again, and when HEAD moves forward (the GM's commit) only the commits since are. A HEAD
    that moved anywhere else (a reset, an amended commit, another branch) or a clone made shallow or
    whole again reads the whole log. `reads` says which each call read ("whole", "since" or "")."""

    def __init__(self) -> None:
        self._root: Path | None = None
        self._head = ""
        self._shallow = False
        self._table: _Table = {}
        self._given: tuple[tuple[str, ...], dict[str, Commits]] = ((), {})  # the folders asked, and their times
        self.reads: list[str] = []

    def of(self, folders: list[Path]) -> dict[str, Commits]:
        out: dict[str, Commits] = {str(f): Commits() for f in folders}
        present, root = _where(folders, out)
        if root is None:
            return out
        state = (_git(root, "rev-parse", "HEAD", "--is-shallow-repository") or "").split()
        if len(state) != 2:  # in no repository, or one without a commit
            return out
        head, shallow = state[0], state[1] == "true"
        same = root == self._root and shallow == self._shallow
        table: _Table | None
        if same and head == self._head:
            table, read = self._table, ""
        elif same and _git(root, "merge-base", "--is-ancestor", self._head, head) is not None and \
                (since := _read(root, f"{self._head}..{head}")) is not None:
            table, read = _merged(since, self._table), "since"
        else:
            table, read = _read(root, head), "whole"
        if table is None:
            return out
        self._root, self._head, self._shallow, self._table = root, head, shallow, table
        self.reads.append(read)
        asked = tuple(str(f) for f in present)
        if read or asked != self._given[0]:  # else the same times, the same objects (cheap to compare)
            self._given = (asked, _times(present, root, table, shallow))
        out.update(self._given[1])
        return out


#: what a log says of the files added directly in each folder (relative to the log's root, "" for
#: the root): file name -> the time of the newest commit that added it (None: no date holds it),
#: that commit, and whether it has no parent (the oldest commit of a shallow clone, perhaps)
_Table = dict[str, dict[str, tuple[dt.datetime | None, str, bool]]]


def _where(folders: list[Path], out: dict[str, Commits]) -> tuple[list[Path], Path | None]:
    """The folders that exist and are read together, and the folder they are all in (None: none
    is left); a folder that is a repository of its own is read alone, into `out`."""
    present = [f for f in folders if f.is_dir()]
    if len(present) > 1:  # a game that is a repository of its own (a submodule, say) is read alone
        own = [f for f in present if (f / ".git").exists()]
        out.update({str(f): commit_times_of([f])[str(f)] for f in own})
        present = [f for f in present if f not in own]
    if not present:
        return present, None
    return present, Path(os.path.commonpath([os.path.abspath(f) for f in present]))


def _read(root: Path, revisions: str) -> _Table | None:
    """What the log of `revisions` (``HEAD``, a commit, or ``A..B``) says of the files added under
    `root`; None where git cannot tell (no repository, no commit)."""
    log = _git(root, "log", "--no-renames", "--diff-filter=A", "--name-only", "--relative", "-z",
               f"--format={_FORMAT}", revisions, "--", ".")
    if log is None:
        return None
    table: _Table = {}
    for header, names in _commits(log):
        commit, seconds, *parents = header.split(" ")
        when, rootless = _time(seconds), not any(parents)
        for name in names:
            folder, _, file = name.rpartition("/")
            files = table.setdefault(folder, {})
            if file not in files:  # the newest add of it (the log goes from the newest commit)
                files[file] = (when, commit, rootless)
    return table


def _merged(newer: _Table, older: _Table) -> _Table:
    """The table of a log whose newest commits `newer` read and the rest `older`: each file as the
    newest add says, in the order the whole log would list them."""
    out: _Table = {}
    for folder in newer.keys() | older.keys():
        new, old = newer.get(folder, {}), older.get(folder, {})
        out[folder] = {**new, **{name: v for name, v in old.items() if name not in new}}
    return out


def _times(present: list[Path], root: Path, table: _Table, shallow: bool) -> dict[str, Commits]:
    """Each of `present` (folders under `root`) with the times `table` gives its files; in a
    `shallow` clone a file added by a commit without a parent has no known time."""
    out: dict[str, Commits] = {}
    for f in present:
        rel = os.path.relpath(os.path.abspath(f), root).replace(os.sep, "/")
        files = table.get("" if rel == "." else rel, {})
        unknown = {n for n, (_, _, rootless) in files.items() if rootless} if shallow else set()
        out[str(f)] = Commits({n: when for n, (when, _, _) in files.items() if when is not None and n not in unknown},
                              shallow=bool(unknown),
                              undated={n: c for n, (when, c, _) in files.items() if when is None and n not in unknown})
    return out


def _time(seconds: str) -> dt.datetime | None:
    """A commit's time (Unix seconds, as git gives it) in UTC; None where no date holds it (git
    takes any number: a year past 9999, or before 1)."""
    try:
        return dt.datetime.fromtimestamp(int(seconds), dt.timezone.utc)
    except (ValueError, OverflowError, OSError):
        return None


def _commits(log: str) -> list[tuple[str, list[str]]]:
    """(header, file names) of each commit of a ``git log -z --name-only --format=<_FORMAT>``: each
    commit is a NUL, its header, a NUL, a newline, and its file names, each ended by a NUL."""
    out: list[tuple[str, list[str]]] = []
    tokens = log.split("\0")
    i = 0
    while i < len(tokens):
        if tokens[i] == "" and i + 1 < len(tokens) and tokens[i + 1]:  # a commit starts
            header, names = tokens[i + 1], list[str]()
            i += 2
            while i < len(tokens) and tokens[i] != "":
                names.append(tokens[i][1:] if not names and tokens[i].startswith("\n") else tokens[i])
                i += 1
            out.append((header, names))
        else:
            i += 1
    return out

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
    out: dict[str, Commits] = {str(f): Commits() for f in folders}
    present = [f for f in folders if f.is_dir()]
    if len(present) > 1:  # a game that is a repository of its own (a submodule, say) is read alone
        own = [f for f in present if (f / ".git").exists()]
        out.update({str(f): commit_times_of([f])[str(f)] for f in own})
        present = [f for f in present if f not in own]
    if not present:
        return out
    root = Path(os.path.commonpath([os.path.abspath(f) for f in present]))
    log = _git(root, "log", "--no-renames", "--diff-filter=A", "--name-only", "--relative", "-z",
               f"--format={_FORMAT}", "--", ".")
    if log is None:  # in no repository
        return out
    rel = {str(f): os.path.relpath(os.path.abspath(f), root).replace(os.sep, "/") for f in present}
    where = {("" if r == "." else r): key for key, r in rel.items()}  # a file's folder in the log -> the folder
    added: dict[str, dict[str, dt.datetime | None]] = {key: {} for key in where.values()}
    undated: dict[str, dict[str, str]] = {key: {} for key in where.values()}
    rootless: dict[str, set[str]] = {key: set() for key in where.values()}  # added by a commit without parents
    for header, names in _commits(log):
        commit, seconds, *parents = header.split(" ")
        when = _time(seconds)
        for name in names:
            folder, _, file = name.rpartition("/")
            key = where.get(folder)
            if key is None or file in added[key]:  # not a file directly in a game folder; an older add of it
                continue
            added[key][file] = when
            if when is None:
                undated[key][file] = commit
            if not any(parents):
                rootless[key].add(file)
    shallow = any(rootless.values()) and \
        (_git(root, "rev-parse", "--is-shallow-repository") or "").strip() == "true"
    for key, files in added.items():
        unknown = rootless[key] if shallow else set()
        out[key] = Commits({n: t for n, t in files.items() if t is not None and n not in unknown},
                           shallow=bool(unknown), undated={n: c for n, c in undated[key].items() if n not in unknown})
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

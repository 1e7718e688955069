"""A game folder in a git repository, committed at chosen times: the feeds, the calendars and the
deadlines read each phase file's time from git (dipgen/io/commits.py)."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

UTC = dt.timezone.utc

#: two phase files of a standard game, as committed in the tests
SPRING = "orders:\n  France: [A Par - Bur, A Mar - Spa]\n  Germany: [A Mun - Ruh]\n"
FALL = "orders:\n  France: [A Bur - Bel, A Spa - Por]\n"


def git(root: Path, *args: str, when: dt.datetime | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "GM", "GIT_AUTHOR_EMAIL": "gm@example.org", "GIT_COMMITTER_NAME": "GM",
           "GIT_COMMITTER_EMAIL": "gm@example.org"}
    if when is not None:
        env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"] = when.strftime("%Y-%m-%dT%H:%M:%S+0000")
    return subprocess.run(["git", "-C", str(root), *args], env=env, check=True, capture_output=True,
                          text=True).stdout


def commit(root: Path, files: list[str], when: dt.datetime) -> None:
    git(root, "add", *files)
    git(root, "commit", "-q", "-m", f"add {' '.join(files)}", when=when)


def at(day: int, hour: int = 12) -> dt.datetime:
    return dt.datetime(2026, 3, day, hour, tzinfo=UTC)

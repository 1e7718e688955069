"""The build cache's two names beside a site's mkdocs.yml, in one place, and whether git tracks
them: the plugin (`dipgen.mkdocs.speed.buildcache`) keeps its cache there and refuses one that
git tracks; `dipgen check` says how to take it out of git; `dipgen init`'s .gitignore and
`dipgen publish-site` keep it out of the repository and the site."""

from __future__ import annotations

import subprocess
from pathlib import Path

from dipgen.core.errors import Problem

from dipgen.io.paths import display_path

#: the cache folder, beside mkdocs.yml
FOLDER = ".dipgen-cache"
#: the key that seals its entries, beside it (not in it: a folder copied or committed whole would bring it)
KEY_FILE = FOLDER + ".key"


def git(base: Path, *args: str) -> subprocess.CompletedProcess | None:
    """``git ARGS`` in `base` (read its return code); None where git cannot be run."""
    try:
        return subprocess.run(["git", *args], cwd=base, capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None


def committed(base: Path) -> list[str]:
    """Which of the cache folder and its key beside `base`'s mkdocs.yml git tracks (committed or
    staged); none where there is no git or no repository."""
    done = git(base, "ls-files", "-z", "--", FOLDER, KEY_FILE)
    files = done.stdout.decode("utf-8", "replace").split("\0") if done is not None and done.returncode == 0 else []
    return [name for name in (FOLDER, KEY_FILE) if any(f == name or f.startswith(name + "/") for f in files)]


def committed_problems(base: Path) -> list[Problem]:
    """`dipgen check`'s errors for a cache folder or key that git tracks beside `base`'s mkdocs.yml."""
    tracked, out = committed(base), []
    folder, key = display_path(base / FOLDER), display_path(base / KEY_FILE)
    if FOLDER in tracked:
        out.append(Problem(folder, None, "the build's cache is committed to git: the build would publish its pages "
                           "as they are, and anyone who can push could have written them (the build refuses it)",
                           f"'git rm -r --cached {folder}' and commit; {FOLDER}/ belongs in .gitignore",
                           code="cache-committed"))
    if KEY_FILE in tracked:
        out.append(Problem(key, None, "the key that seals the build's cache is committed to git: whoever reads the "
                           "repository can seal a cache the build would trust (the build refuses it)",
                           f"'git rm --cached {key}' and commit, then delete it and the cache ('rm -r {key} {folder}'):"
                           f" the next build makes a new key; {KEY_FILE} belongs in .gitignore",
                           code="cache-key-committed"))
    return out

"""`dipgen publish-site SITE --to OWNER/NAME`: push a built site to the public repository whose
GitHub Pages serve it, for an archive whose games stay in a private repository (the workflow
``dipgen init --site-repo`` writes runs it after `dipgen check`, `mkdocs build --strict` and
`dipgen leaks`).

RULING: the push replaces the publishing branch with one commit that has no parent, whose tree is
exactly the built site (and an empty ``.nojekyll``, so that Pages serves the files as they are),
and whose author, date and message are always the same. So the public repository holds what the
site shows now and nothing else: no earlier build lingers in its history (a build that showed too
much is gone with the next one, and no diff between builds points at what changed), the history
does not count or date the GM's builds, and a build that changes nothing public makes the same
commit, which git does not push at all. (The players' private pages are encrypted with fresh
randomness at every build, so where a game has them every push replaces all of them alike: which
page had news is not told.) Keeping the history would keep every earlier site, and a new commit
for each push whatever it changed.

The commit is made in a repository of its own, outside the archive, from the site's files alone
(`git hash-object --no-filters`): nothing of the games' repository (its objects, its history, its
games/, secrets.yml or .dipgen-cache/) can reach it, and no setting of the machine's git (filters,
line endings, signing) changes its bytes. A site that holds a link, a secrets file, a build cache or
a .git is refused before anything is pushed.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tempfile
from pathlib import Path

from dipgen.usecases.cachefiles import FOLDER as CACHE_FOLDER
from dipgen.usecases.workflows import DEPLOY_SECRET, SITE_REPO
from dipgen.core.errors import CommandError
from dipgen.io.paths import display_path

#: GitHub's SSH host key (docs.github.com, "GitHub's SSH key fingerprints"): the push trusts no other
GITHUB_HOST_KEY = "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
#: the commit's author and committer, date and message: the same for every build
IDENTITY = {"GIT_AUTHOR_NAME": "dipgen", "GIT_AUTHOR_EMAIL": "dipgen@users.noreply.github.com",
            "GIT_COMMITTER_NAME": "dipgen", "GIT_COMMITTER_EMAIL": "dipgen@users.noreply.github.com",
            "GIT_AUTHOR_DATE": "2000-01-01T00:00:00+00:00", "GIT_COMMITTER_DATE": "2000-01-01T00:00:00+00:00"}
MESSAGE = "The site, as dipgen built it\n"
#: names a site never publishes: the games' secrets, the build's cache, a repository
FORBIDDEN = {"secrets.yml", "secrets.yaml", CACHE_FOLDER, ".git"}
_UNSAFE_NAME = re.compile(r"[\x00-\x1f\x7f\\]")


class PublishError(CommandError):
    """Why nothing was pushed."""


def publish_site(site: Path, to: str, branch: str, key: str = "", key_env: str = DEPLOY_SECRET) -> tuple[str, int]:
    """Push `site` to `to`'s `branch` as one commit; (the commit, the number of files)."""
    if not re.fullmatch(r"[A-Za-z0-9._/-]+", branch) or branch.startswith(("-", "/")) or ".." in branch:
        raise PublishError(f"{branch!r} is not a branch name dipgen publishes to", code="bad-option")
    files = site_files(site)
    remote = to
    if SITE_REPO.fullmatch(to):
        remote = f"git@github.com:{to}.git"
        if not key.strip():
            raise PublishError(f"no deploy key: the secret {key_env} of this repository is not set (or is empty). "
                               f"Set it to the private half of {to}'s deploy key: gh secret set {key_env} < KEYFILE "
                               "(README, \"Hidden games\")", code="no-deploy-key")
    with tempfile.TemporaryDirectory(prefix="dipgen-publish-") as tmp:
        env = _git_env(Path(tmp), key)
        git = Path(tmp) / "repo.git"
        _git(env, "init", "--quiet", "--bare", str(git))
        env["GIT_DIR"] = str(git)
        commit = make_commit(env, files)
        pushed = subprocess.run(["git", "push", "--force", "--quiet", remote, f"{commit}:refs/heads/{branch}"],
                                env=env, capture_output=True, encoding="utf-8", errors="replace")
        if pushed.returncode != 0:
            raise PublishError(f"git push to {to} failed: {pushed.stderr.strip()}", code="git-failed")
    return commit, len(files)


def site_files(site: Path) -> list[tuple[str, Path]]:
    """(path in the tree, file) of every file of `site`, sorted; refuses what a site never holds."""
    if site.is_symlink() or not site.is_dir():
        raise PublishError(f"no built site at {display_path(site)}: build it first with 'mkdocs build'",
                           code="no-site")
    out: list[tuple[str, Path]] = []
    for folder, dirs, names in os.walk(site):
        here = Path(folder)
        for name in sorted(dirs + names):
            path = here / name
            rel = path.relative_to(site).as_posix()
            if name in FORBIDDEN or name.lower() in FORBIDDEN:
                raise PublishError(f"{display_path(path)}: a site never publishes {name}; nothing was pushed",
                                   code="not-publishable")
            if path.is_symlink():
                raise PublishError(f"{display_path(path)} is a link: a site is published as files only; "
                                   "nothing was pushed", code="not-publishable")
            if _UNSAFE_NAME.search(name):
                raise PublishError(f"{rel!r}: a file name with a control character; nothing was pushed",
                                   code="not-publishable")
            if name in names:
                if not path.is_file():
                    raise PublishError(f"{display_path(path)} is not a file; nothing was pushed",
                                       code="not-publishable")
                out.append((rel, path))
    if not out:
        raise PublishError(f"{display_path(site)} is empty: build the site first with 'mkdocs build'",
                           code="no-site")
    if ".nojekyll" not in {rel for rel, _ in out}:
        out.append((".nojekyll", Path(os.devnull)))
    return sorted(out)


def make_commit(env: dict[str, str], files: list[tuple[str, Path]]) -> str:
    """The commit of `files` (in the repository `env` names): one tree, no parent, fixed identity."""
    blobs = _git(env, "hash-object", "-w", "--no-filters", "--stdin-paths",
                 stdin="".join(f"{path}\n" for _, path in files)).split()
    index = "".join(f"100644 {blob}\t{rel}\0" for (rel, _), blob in zip(files, blobs, strict=True))
    env = {**env, "GIT_INDEX_FILE": str(Path(env["GIT_DIR"]) / "publish-index")}
    _git(env, "update-index", "--add", "-z", "--index-info", stdin=index)
    tree = _git(env, "write-tree").strip()
    return _git({**env, **IDENTITY}, "commit-tree", tree, stdin=MESSAGE).strip()


def _git_env(tmp: Path, key: str) -> dict[str, str]:
    """git's environment: none of the machine's or the user's settings, none of a repository's; SSH
    with the deploy key (written to a file of its own, 0600) and GitHub's host key alone."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    if key.strip():
        if not key.isascii():
            raise PublishError("the deploy key is not an OpenSSH private key (it holds characters other than ASCII)",
                               code="no-deploy-key")
        key_file, hosts = tmp / "deploy-key", tmp / "known_hosts"
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii", errors="strict") as f:
            f.write(key.strip().replace("\r\n", "\n") + "\n")  # a secret's last newline may be lost
        hosts.write_text(GITHUB_HOST_KEY + "\n", encoding="ascii")
        env["GIT_SSH_COMMAND"] = (f"ssh -i {shlex.quote(str(key_file))} -o IdentitiesOnly=yes -o BatchMode=yes "
                                  f"-o StrictHostKeyChecking=yes -o UserKnownHostsFile={shlex.quote(str(hosts))}")
    return env


def _git(env: dict[str, str], *args: str, stdin: str = "") -> str:
    done = subprocess.run(["git", *args], env=env, input=stdin, capture_output=True, encoding="utf-8",
                          errors="surrogateescape")
    if done.returncode != 0:
        raise PublishError(f"git {args[0]} failed: {done.stderr.strip()}", code="git-failed")
    return done.stdout

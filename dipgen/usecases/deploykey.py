"""The deploy key with which the games' (private) repository pushes the built site to the site's
(public) one: an Ed25519 pair in OpenSSH form, made by `dipgen init --site-repo` or, for a lost or
leaked key, by `dipgen deploy-key OWNER/NAME`.

RULING: the private half is written to a file of its own outside the archive (by default in
~/.ssh, mode 0600, never over an existing file), not printed: a key printed to the terminal stays
in its scrollback and in whatever log the session keeps, and a GM who must copy it by hand may
paste it into the wrong place. It is refused anywhere inside the archive, where one `git add .`
would publish it. Losing it costs little (make a new pair and replace the deploy key), so the
instructions say to delete the file once the secret is set.
"""

from __future__ import annotations

import os
from pathlib import Path

from dipgen.usecases.workflows import DEPLOY_SECRET, SITE_BRANCH
from dipgen.core.errors import CommandError
from dipgen.io.paths import display_path


def make_pair(comment: str) -> tuple[bytes, str]:
    """A new Ed25519 pair: (the private half in OpenSSH's PEM form, the public half as one line)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(Encoding.PEM, PrivateFormat.OpenSSH, NoEncryption())
    public = key.public_key().public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode("ascii")
    return private, f"{public} {comment}"


def default_key_file(site_repo: str) -> Path:
    owner, name = site_repo.split("/")
    return Path.home() / ".ssh" / f"dipgen-deploy-{owner}-{name}"


def key_file_problem(path: Path, archive: Path | None = None) -> CommandError | None:
    """Why the key cannot be written at `path` (None if it can): an existing file or link, a folder
    that is not one, or a place inside the archive."""
    for p in (path, path.with_name(path.name + ".pub")):
        if p.exists() or p.is_symlink():
            return CommandError(f"{display_path(p)} already exists; name another file with --key-file (nothing is "
                                "written over)", code="out-taken")
    parent = path.parent
    if parent.exists() and not parent.is_dir():
        return CommandError(f"{display_path(parent)} is a file, not a folder for the deploy key", code="bad-option")
    if archive is not None:
        top = Path(os.path.abspath(archive)).resolve()
        where = Path(os.path.abspath(parent)).resolve() if parent.exists() else Path(os.path.abspath(parent))
        if where == top or top in where.parents:
            return CommandError(f"{display_path(path)} is inside the archive, where a commit could publish the "
                                "private half of the deploy key; name a file outside it with --key-file",
                                code="bad-option")
    return None


def write_pair(path: Path, private: bytes, public: str) -> None:
    """The private half at `path` (0600, a new file, never through a link) and the public half
    beside it (.pub)."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(private)
    try:
        fd = os.open(path.with_name(path.name + ".pub"), flags, 0o644)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(public + "\n")
    except OSError:
        path.unlink()  # both halves or neither
        raise


def instructions(site_repo: str, path: Path, public: str) -> str:
    """Where each half of the key goes, step by step."""
    key, pub = _shown(path), _shown(path.with_name(path.name + ".pub"))
    return f"""\
The deploy key for {site_repo} (the private half: {key}; the public half: {pub}):
  1. On GitHub, in {site_repo} (a public repository): Settings > Deploy keys > Add deploy key,
     paste the public half below, tick "Allow write access", Add key. Or:
       gh repo deploy-key add {pub} --repo {site_repo} --allow-write --title dipgen
     {public}
  2. In your games' repository (private): Settings > Secrets and variables > Actions > New repository
     secret, named {DEPLOY_SECRET}, holding the whole private half. Or, in the archive's folder
     (gh takes the repository from it):
       gh secret set {DEPLOY_SECRET} < {key}
  3. Delete {key} once the secret is set (if it is lost, 'dipgen deploy-key {site_repo}' makes a new
     pair: replace both halves). Never commit it.
  4. In {site_repo}: Settings > Pages > Deploy from a branch: {SITE_BRANCH}, / (root), once the first
     push has made the branch."""


def _shown(path: Path) -> str:
    """`path` whole, as a shell takes it wherever the GM runs the commands (~ for her home)."""
    import shlex

    full, home = Path(os.path.abspath(path)), Path.home()
    if full == home or home in full.parents:
        return "~/" + shlex.quote(full.relative_to(home).as_posix())
    return shlex.quote(str(full))

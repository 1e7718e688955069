"""The GitHub Actions workflows `dipgen init` writes, and what `dipgen check` reads of an archive's.

Two workflows, both checking every game, building strictly and scanning the site for leaks before
anything is published:

- ``archive/pages.yml``: this repository publishes its own site on Pages (a public repository on
  GitHub Free; a private one needs a paid plan). dipgen's own repository uses it too.
- ``archive/site-repo.yml`` (``dipgen init --site-repo OWNER/NAME``): the games stay in a private
  repository, and `dipgen publish-site` pushes the built site to the public repository OWNER/NAME,
  whose Pages serve it from a branch (`dipgen.usecases.sitepush`).

Every action is pinned to the full commit of a release, the release named in a comment beside it
(`ACTIONS`, one place for both files): a tag can be moved, a commit cannot.
"""

from __future__ import annotations

import re
from pathlib import Path

from dipgen.core.errors import CommandError, Problem

from dipgen.io.paths import display_path

ARCHIVE = Path(__file__).with_name("archive")  # the templates of the archive's files

#: action -> (the commit of its release, the release). Each release runs on Node 24 (or is a
#: composite of actions that do): GitHub removes Node 20 from its runners in September 2026.
#: Read from the actions' own repositories (the tag's commit). actions/configure-pages is left out:
#: deploy-pages needs only the uploaded artifact and Pages set to "GitHub Actions".
ACTIONS = {
    "actions/checkout": ("3d3c42e5aac5ba805825da76410c181273ba90b1", "v7.0.1"),
    "actions/setup-python": ("5fda3b95a4ea91299a34e894583c3862153e4b97", "v7.0.0"),
    "actions/upload-pages-artifact": ("fc324d3547104276b827a68afc52ff2a11cc49c9", "v5.0.0"),
    "actions/deploy-pages": ("cd2ce8fcbc39b97be8ca5fce6e763baed58fa128", "v5.0.0"),
}
_USES = re.compile(r"@@USES ([\w./-]+)@@")
#: a GitHub repository as OWNER/NAME: an account's name, and a repository's (never . or ..)
SITE_REPO = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/(?!\.\.?$)[A-Za-z0-9._-]{1,100}")
#: the secret of the games' repository that holds the private half of the site repository's deploy key
DEPLOY_SECRET = "SITE_DEPLOY_KEY"
#: the branch of the site repository that its Pages serve
SITE_BRANCH = "gh-pages"
#: a line (and what follows it) by which a single-repository workflow says it publishes running hidden
#: games on purpose: a GM on a paid plan, whose repository is private; dipgen's own, whose games are examples
OWN_PAGES_MARK = "# dipgen: hidden games are published from this repository"


def _uses(match: re.Match[str]) -> str:
    commit, release = ACTIONS[match.group(1)]
    return f"{match.group(1)}@{commit} # {release}"


def render(template: str, install: str, site_repo: str = "") -> str:
    """A workflow from its template: the actions at their pinned commits, `install` the command that
    installs dipgen, `site_repo` (OWNER/NAME) the repository the site is pushed to."""
    if site_repo and not SITE_REPO.fullmatch(site_repo):
        raise CommandError(f"{site_repo!r} is not a GitHub repository; write it as OWNER/NAME, e.g. ann/club-site",
                           code="bad-option")
    text = (ARCHIVE / template).read_text(encoding="utf-8")
    text = _USES.sub(_uses, text).replace("@@INSTALL@@", install)
    return text.replace("@@SITE_REPO@@", site_repo).replace("@@SECRET@@", DEPLOY_SECRET) \
        .replace("@@BRANCH@@", SITE_BRANCH)


def pages_workflow(install: str, mark: str = "") -> str:
    """The single-repository workflow: this repository's own Pages; with `mark`, `OWN_PAGES_MARK`
    and it as a line of its own above the workflow's name."""
    text = render("pages.yml", install)
    return text.replace("\nname: ", f"\n{OWN_PAGES_MARK} {mark}\nname: ", 1) if mark else text


def site_repo_workflow(install: str, site_repo: str) -> str:
    """The two-repository workflow: the site pushed to `site_repo`'s publishing branch."""
    return render("site-repo.yml", install, site_repo)


def site_url(site_repo: str) -> str:
    """Where GitHub Pages serves `site_repo` (OWNER/NAME): a user's site at the root, a project's
    under its name."""
    owner, name = site_repo.split("/")
    host = f"{owner.lower()}.github.io"
    return f"https://{host}/" if name.lower() == host else f"https://{host}/{name}/"


def workflow_files(root: Path) -> list[Path]:
    """The workflows of the repository whose top folder is `root`."""
    folder = root / ".github" / "workflows"
    if folder.is_symlink() or not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".yml", ".yaml") and p.is_file())


def publishes_here(workflow: Path) -> bool:
    """Does `workflow` publish a site on this repository's own Pages (and not say the repository is
    private)? Read as text: a workflow that uses actions/deploy-pages."""
    try:
        text = workflow.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    marked = any(line.strip().startswith(OWN_PAGES_MARK) for line in text.splitlines())
    return bool(re.search(r"uses:\s*['\"]?actions/deploy-pages@", text)) and not marked


def archive_root(game: Path) -> Path | None:
    """The top folder of the repository a game folder is in: the nearest folder above it with
    workflows (.github/) or a .git (a folder, or a worktree's file); None if there is none."""
    here = Path(game).resolve()
    for folder in here.parents:
        if (folder / ".github").is_dir() or (folder / ".git").exists():
            return folder
    return None


def hidden_pages_warnings(running_hidden: list[Path]) -> list[Problem]:
    """A warning for each workflow that publishes this repository's own Pages while a hidden game
    (`running_hidden`, its folders) runs in it: the repository must then be private, which GitHub
    Free does not publish from."""
    out: list[Problem] = []
    seen: set[Path] = set()
    for game in running_hidden:
        root = archive_root(game)
        for workflow in workflow_files(root) if root is not None else []:
            if workflow in seen or not publishes_here(workflow):
                continue
            seen.add(workflow)
            out.append(Problem(
                display_path(workflow), None,
                f"{display_path(game)} is a hidden game that is running, and this workflow publishes the site "
                "from this repository's own Pages: the repository holds every order and must stay private "
                "until the game is revealed, and GitHub Free publishes Pages from public repositories only",
                "on a free account keep the games in a private repository and publish to a second, public one: "
                "'dipgen init NEW-FOLDER --site-repo OWNER/NAME' writes that workflow (README, \"Hidden games\"); "
                f"on a paid plan with this repository private, add the line '{OWN_PAGES_MARK} (private)' to the "
                "workflow",
                severity="warning", code="single-repository-pages"))
    return out

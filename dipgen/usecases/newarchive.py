"""The files of a GM's own archive, as `dipgen init` writes them (`dipgen.cli.init`): mkdocs.yml
(Material and the dipgen plugin, archive/mkdocs.yml), a home and an about page, an empty games/,
requirements.txt (dipgen as it made the archive, and the versions of its dependencies), .gitignore,
.pre-commit-config.yaml and the Pages workflow (`dipgen.usecases.workflows`).

Where CI gets dipgen from is read from how this copy was installed (its ``direct_url.json``,
PEP 610): a git URL at the same commit, a wheel file copied into the archive (``wheels/``), a web
address; from a package index, the same version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from dipgen import __version__
from dipgen.core.errors import CommandError
from dipgen.usecases import workflows
from dipgen.usecases.cachefiles import FOLDER as CACHE_FOLDER, KEY_FILE as CACHE_KEY_FILE
from dipgen.resources.folders import shipped
from dipgen.present.layout import CONFIG_FILE, GAMES_DIR, RULES_DIR

ARCHIVE = workflows.ARCHIVE  # the templates of the archive's files

#: the pre-commit hook, as .pre-commit-hooks.yaml gives it to other repositories
HOOK = {
    "id": "dipgen-check",
    "name": "dipgen check",
    "description": "Check the Diplomacy games whose files the commit touches (every game with --all-files)",
    "entry": "dipgen check",
    "language": "python",
    "files": "^games/",
    "verbose": True,  # warnings (a player's misorder) are printed even when the check passes
    "require_serial": True,  # one run for all the files: in parallel batches a game was checked (and printed) twice
}

#: the local hook's command (an archive whose dipgen came from a wheel): the dipgen on the PATH, else
#: the archive's venv's; where neither is (a git client started from a menu does not see the PATH a
#: shell sets), a message saying what to do instead of pre-commit's "Executable `dipgen` not found"
LOCAL_ENTRY = (
    "sh -c 'if command -v dipgen >/dev/null 2>&1; then exec dipgen check \"$@\"; fi; "
    "for d in .venv/bin/dipgen .venv/Scripts/dipgen.exe; do if [ -x \"$d\" ]; then exec \"$d\" check \"$@\"; fi; done; "
    "echo \"dipgen check: dipgen is not on this PATH nor in the .venv of this archive. "
    "A git client started from a menu does not see the PATH your shell sets: install dipgen with pipx "
    "(then pipx ensurepath, and log in again), "
    "or in this archive in .venv, or commit from a terminal where dipgen --version works.\" >&2; exit 1' dipgen-check")

GITIGNORE = f"""\
# A game's secrets are never committed: seeds and passphrases (dipgen secrets). CI gets them
# from the DIPGEN_SECRETS repository secret.
secrets.yml
# A deploy key's private half belongs in a repository secret, never in git (dipgen deploy-key)
dipgen-deploy-*
# What the builds make
/site/
/out/
.site.dipgen-building-*
.site.dipgen-old-*
# The build's cache of each game's pages (delete it at will; README, "Benchmarks")
/{CACHE_FOLDER}/
/{CACHE_KEY_FILE}
# Python
__pycache__/
.venv/
"""

HOME_TITLE = re.compile(r"^# .*$", re.M)
#: this repository is an archive too (its example games), built by the same files: its site's name,
#: and how its Pages workflow installs dipgen (from the checkout, as a wheel would install it)
REPO_NAME = "Diplomacy by e-mail"
REPO_INSTALL = "pip install -r requirements.txt ."
#: and why its workflow publishes running hidden games from the repository itself (`dipgen check` warns otherwise)
REPO_MARK = "(examples, public on purpose)"


@dataclass(frozen=True)
class Source:
    """Where CI installs dipgen from: a pip requirement, the file to copy into the archive for it
    (a wheel), the pre-commit repository and revision (for a git source), and a note for the GM."""

    requirement: str
    wheel: Path | None = None
    repo: str | None = None
    rev: str | None = None
    note: str = ""


def archive_files(name: str, source: Source, install: str = "pip install -r requirements.txt",
                  site_repo: str = "") -> dict[str, str]:
    """The archive's files by path, as text; with `site_repo` (OWNER/NAME), the workflow that pushes
    the site to that repository, and mkdocs.yml's site_url where its Pages serve it."""
    site = shipped("site_src")
    home = HOME_TITLE.sub(lambda m: f"# {_markdown_text(name)}", (site / "index.md").read_text(encoding="utf-8"),
                          count=1)
    workflow = workflows.site_repo_workflow(install, site_repo) if site_repo else pages_workflow(install)
    return {
        CONFIG_FILE: mkdocs_yml(name, workflows.site_url(site_repo) if site_repo else ""),
        "site_src/index.md": home,
        "site_src/about.md": (site / "about.md").read_text(encoding="utf-8"),
        f"{GAMES_DIR}/.gitkeep": "",
        "requirements.txt": requirements(source),
        ".gitignore": GITIGNORE,
        ".pre-commit-config.yaml": precommit_config(source),
        ".github/workflows/pages.yml": workflow,
    }


def _markdown_text(text: str) -> str:
    """One line of plain text, safe as a Markdown heading."""
    text = " ".join(text.split())
    return re.sub(r"([\\`*_{}\[\]<>()#+!|~])", r"\\\1", text)


def _yaml_text(text: str) -> str:
    import json
    return json.dumps(" ".join(text.split()), ensure_ascii=False)  # a JSON string is a YAML string


def mkdocs_yml(name: str, site_url: str = "") -> str:
    """The archive's configuration: the nav's Rules list every variant with a page of its own."""
    from dipgen.variants import VARIANTS, get_variant

    rules_dir = shipped("site_src") / RULES_DIR
    lines = []
    # the standard game first, the variants after it by name
    variants = sorted((get_variant(key) for key in VARIANTS), key=lambda v: (v.name != "standard", v.name))
    for variant in variants:
        page = variant.words.rules_page or variant.name
        if "#" not in page and (rules_dir / f"{page}.md").is_file():  # a section of another page is no entry
            lines.append(f"      - {_yaml_text(variant.words.title)}: rules/{page}.md")
    text = (ARCHIVE / "mkdocs.yml").read_text(encoding="utf-8")
    if site_url:
        text = text.replace("# site_url: https://<you>.github.io/<repository>/", f"site_url: {site_url}")
    return text.replace("@@SITE_NAME@@", _yaml_text(name)).replace("@@RULES@@", "\n".join(lines))


def pages_workflow(install: str, mark: str = "") -> str:
    """The single-repository Pages workflow, with `install` the command that installs dipgen (and
    `mark`: `dipgen.usecases.workflows.pages_workflow`)."""
    return workflows.pages_workflow(install, mark)


def precommit_config(source: Source) -> str:
    """The hook from dipgen's repository at the commit CI installs, if it came from git; otherwise
    the same hook run by the dipgen installed where she commits."""
    import json
    head = ("# Install pre-commit (pipx install pre-commit, or pip install pre-commit in your venv), then\n"
            "# 'pre-commit install' once, and every commit that touches games/ is checked by dipgen.\nrepos:\n")
    if source.repo and source.rev:
        return head + f"  - repo: {source.repo}\n    rev: {source.rev}\n    hooks:\n      - id: {HOOK['id']}\n"
    hook = {**HOOK, "entry": LOCAL_ENTRY, "language": "system"}
    body = "".join(f"        {k}: {json.dumps(v) if isinstance(v, str) else str(v).lower()}\n"
                   for k, v in hook.items() if k != "id")
    return head + f"  - repo: local  # the dipgen on your PATH (pipx, or the archive's venv)\n    hooks:\n" \
                  f"      - id: {HOOK['id']}\n{body}"


def requirements(source: Source) -> str:
    out = ["# What the Pages workflow installs (and 'pip install -r requirements.txt' on a new machine):",
           "# dipgen as it made this archive, and the versions of its dependencies it was made with."]
    if source.note:
        out.append(f"# NOTE: {source.note}")
    out.append(source.requirement)
    out.extend(f"{name}=={version}" for name, version in dependency_pins())
    return "\n".join(out) + "\n"


def install_source() -> Source:
    """Where this copy of dipgen was installed from (PEP 610's direct_url.json), as CI can install it."""
    import json
    from urllib.parse import unquote, urlsplit
    from importlib import metadata  # here, not at the top: every command builds the parser that lists init

    try:
        dist = metadata.distribution("dipgen")
        raw = dist.read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        dist, raw = None, None
    version = dist.version if dist is not None else __version__
    if not raw:
        return Source(f"dipgen=={version}")  # from a package index
    try:
        info = json.loads(raw)
        url = str(info["url"])
    except (ValueError, KeyError, TypeError):
        return Source(f"dipgen=={version}")
    vcs = info.get("vcs_info") or {}
    if vcs.get("vcs") == "git" and vcs.get("commit_id"):
        requested = str(vcs.get("requested_revision") or "")
        rev = requested if re.fullmatch(r"v?\d+(\.\d+)*", requested) else str(vcs["commit_id"])
        return Source(f"dipgen @ git+{url}@{vcs['commit_id']}", repo=url, rev=rev)
    parts = urlsplit(url)
    if "archive_info" in info and parts.scheme == "file":
        wheel = Path(unquote(parts.path))
        if wheel.suffix == ".whl" and wheel.is_file():
            return Source(f"./wheels/{wheel.name}", wheel=wheel)
        raise CommandError(f"dipgen was installed from {wheel}, which is no longer there to copy into the archive; "
                           "say what CI installs with --dipgen (a git URL at a tag, or a wheel's path)",
                           code="no-install-source")
    if "archive_info" in info and parts.scheme in ("http", "https"):
        return Source(f"dipgen @ {url}")
    return Source(f"dipgen=={version}", note=(
        f"this dipgen runs from a folder ({unquote(parts.path)}), which CI cannot install; replace the dipgen "
        "line of requirements.txt with a git URL at a tag or a wheel (or run 'dipgen init --dipgen SPEC')"))


def dependency_pins() -> list[tuple[str, str]]:
    """(name, version) of every package dipgen needs, directly or not, as installed here."""
    from importlib import metadata

    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    env = {"extra": ""}  # laid over this Python's own environment (`Marker.evaluate`)
    pins: dict[str, tuple[str, str]] = {}
    todo = ["dipgen"]
    while todo:
        try:
            requires = metadata.distribution(todo.pop()).requires or []
        except metadata.PackageNotFoundError:
            continue
        for line in requires:
            try:
                req = Requirement(line)
            except InvalidRequirement:
                continue
            key = canonicalize_name(req.name)
            if key in pins or key == "dipgen" or (req.marker is not None and not req.marker.evaluate(env)):
                continue
            try:
                dist = metadata.distribution(req.name)
            except metadata.PackageNotFoundError:
                continue
            pins[key] = (dist.metadata["Name"], dist.version)
            todo.append(req.name)
    return sorted(pins.values(), key=lambda p: p[0].lower())

"""The free path for hidden games: the workflows `dipgen init` writes (linted by actionlint, every
action pinned to a release's commit), `dipgen publish-site` pushing a real built site to a local
bare repository that stands in for the public site repository, the deploy key, `dipgen check`'s
warning about a hidden game published from its own repository, and init's refusal to write
through a link or half an archive."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dipgen.usecases import newarchive
from dipgen.usecases import sitepush, workflows
from dipgen.cli import main
from support import REPO, built_once
from support.codes import codes

#: the venv's own (requirements-dev.txt), or one on the PATH
ACTIONLINT = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")
SITE_REPO = "ann/club-site"


def run(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _init(tmp_path, monkeypatch, capsys, *extra: str, folder: str = "club") -> tuple[int, str, str]:
    monkeypatch.setattr(newarchive, "install_source", lambda: newarchive.Source("dipgen==0.1.0"))
    monkeypatch.chdir(tmp_path)
    return run(["init", folder, *extra], capsys)


def _tree(folder: Path) -> dict[str, str]:
    """Every entry under `folder` (links not followed): path -> 'dir', 'link' or the file's text."""
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        out[rel] = "link" if p.is_symlink() else "dir" if p.is_dir() else p.read_bytes().decode("utf-8", "replace")
    return out


# --------------------------------------------------------------------------- the workflows

def _workflows(tmp_path, monkeypatch, capsys) -> dict[str, str]:
    assert _init(tmp_path, monkeypatch, capsys, folder="single")[0] == 0
    assert _init(tmp_path, monkeypatch, capsys, "--site-repo", SITE_REPO, "--key-file",
                 str(tmp_path / "keys" / "deploy"), folder="double")[0] == 0
    return {"single": (tmp_path / "single/.github/workflows/pages.yml").read_text(encoding="utf-8"),
            "double": (tmp_path / "double/.github/workflows/pages.yml").read_text(encoding="utf-8"),
            "this repository": (REPO / ".github/workflows/pages.yml").read_text(encoding="utf-8")}


@pytest.mark.skipif(ACTIONLINT is None, reason="actionlint is not installed (requirements-dev.txt)")
def test_every_workflow_passes_actionlint_at_its_pinned_releases(tmp_path, monkeypatch, capsys):
    """actionlint on each workflow as written (pinned to commits), and on it with each commit replaced
    by the major version its comment names: actionlint then also knows each action's runtime, and
    says so of one GitHub removes (Node 20)."""
    for name, text in _workflows(tmp_path, monkeypatch, capsys).items():
        tags = re.sub(r"@[0-9a-f]{40} # (v\d+)[.\d]*", r"@\1", text)
        assert tags != text
        for kind, body in (("pinned", text), ("tags", tags)):
            path = tmp_path / (name.replace(' ', '-') + f"-{kind}" + ".yml")  # a workflow, not a game's file
            path.write_text(body, encoding="utf-8")
            done = subprocess.run([ACTIONLINT, "-no-color", str(path)], capture_output=True, text=True)
            assert done.returncode == 0, f"{name} ({kind}):\n{done.stdout}{done.stderr}"
    old = tmp_path / "old.yml"  # and it would say so: the release this workflow was once pinned to
    old.write_text(re.sub(r"actions/checkout@[0-9a-f]{40} # v[\d.]+", "actions/checkout@v4", text), encoding="utf-8")
    done = subprocess.run([ACTIONLINT, "-no-color", str(old)], capture_output=True, text=True)
    assert done.returncode == 1
    assert "node20" in done.stdout


def test_every_action_is_pinned_with_least_privilege_and_one_run_at_a_time(tmp_path, monkeypatch, capsys):
    texts = _workflows(tmp_path, monkeypatch, capsys)
    for name, text in texts.items():
        uses = re.findall(r"uses: (\S+)@(\S+)(?: # (\S+))?", text)
        assert uses, name
        for action, ref, release in uses:
            assert (ref, release) == workflows.ACTIONS[action], f"{name}: {action}"
            assert re.fullmatch(r"[0-9a-f]{40}", ref)
            assert re.fullmatch(r"v\d+\.\d+\.\d+", release)
        doc = yaml.safe_load(text)
        assert doc["permissions"] == {}, name  # nothing by default
        assert doc["concurrency"]["group"]
        assert doc["concurrency"]["cancel-in-progress"] is False
        granted = {job: spec["permissions"] for job, spec in doc["jobs"].items()}
        assert all(p.get("contents") in ("read", None) for p in granted.values()), granted  # none writes here
        steps = [s for spec in doc["jobs"].values() for s in spec["steps"]]
        runs = [s.get("run", "") for s in steps]
        assert any(".dipgen-cache" in r and "git ls-files" in r for r in runs[:2]), name  # refused first
        order = [next(i for i, r in enumerate(runs) if step in r)
                 for step in ("dipgen check games", "mkdocs build --strict", "dipgen leaks site")]
        assert order == sorted(order)
        checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
        assert checkout["with"]["persist-credentials"] is False
    single = yaml.safe_load(texts["single"])
    assert set(single["jobs"]["deploy"]["permissions"]) == {"pages", "id-token"}


def test_the_site_repo_workflow_pushes_with_the_deploy_key_after_every_check(tmp_path, monkeypatch, capsys):
    text = _workflows(tmp_path, monkeypatch, capsys)["double"]
    assert "actions/deploy-pages" not in text
    assert "pages: write" not in text
    doc = yaml.safe_load(text)
    steps = doc["jobs"]["publish"]["steps"]
    assert steps[-1]["run"] == f"dipgen publish-site site --to {SITE_REPO} --branch gh-pages --key-env SITE_DEPLOY_KEY"
    assert steps[-1]["env"] == {"SITE_DEPLOY_KEY": "${{ secrets.SITE_DEPLOY_KEY }}"}
    assert [s.get("run") for s in steps[-2:-1]] == ["dipgen leaks site"]
    assert "SITE_DEPLOY_KEY" not in yaml.safe_dump([s for s in steps[:-1]])  # no other step sees the key
    config = (tmp_path / "double" / "mkdocs.yml").read_text(encoding="utf-8")
    assert "\nsite_url: https://ann.github.io/club-site/\n" in config
    assert workflows.site_url("Ann/ann.github.io") == "https://ann.github.io/"
    code, out, err = _init(tmp_path, monkeypatch, capsys, "--site-repo", "ann/../x", folder="bad")
    assert code == 1
    assert codes(err) == ["bad-option"]
    assert not (tmp_path / "bad").exists()


# --------------------------------------------------------------------------- publish-site

@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """A built archive with a running hidden game, its secrets.yml (private pages) and the build's
    cache: everything a site must never carry is beside the site."""
    project = built_once(tmp_path_factory, examples=("quiet-frontier",))  # as tests/test_taskdip_browser.py's
    site = project / "site"
    assert (project / "games" / "quiet-frontier" / "secrets.yml").is_file()
    assert (project / ".dipgen-cache").is_dir()
    assert list((site / "private").glob("*.html"))
    return project, site


def _bare(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", str(path)], check=True)
    return path


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_pushed_tree_is_the_site_and_its_history_one_commit(archive, tmp_path, capsys):
    project, site = archive
    remote = _bare(tmp_path / "site-repo.git")
    code, out, err = run(["publish-site", str(site), "--to", str(remote)], capsys)
    assert code == 0, err
    commit = _git(remote, "rev-parse", "refs/heads/gh-pages").strip()
    assert _git(remote, "rev-list", "--all").split() == [commit]  # one commit, no parent
    assert _git(remote, "show", "-s", "--format=%an %ae %aI %cI %P", commit).split() == [
        "dipgen", "dipgen@users.noreply.github.com", "2000-01-01T00:00:00+00:00", "2000-01-01T00:00:00+00:00"]
    pushed = {}
    for line in _git(remote, "ls-tree", "-r", "-z", "--full-tree", commit).split("\0"):
        if line:
            meta, path = line.split("\t", 1)
            assert meta.split()[0] == "100644"
            pushed[path] = subprocess.run(["git", "--git-dir", str(remote), "cat-file", "blob", meta.split()[2]],
                                          check=True, capture_output=True).stdout
    assert pushed == {**_files(site), ".nojekyll": b""}  # exactly the site, byte for byte

    # nothing of games/, secrets.yml or the cache in any object the branch reaches (the cache's blobs
    # are the site's own files: its entries, each game's keys and card, are what must not be there)
    private = {**_files(project / "games"), **_files(project / ".dipgen-cache" / "games")}
    assert private
    assert any(name.endswith("secrets.yml") for name in private)
    reached = _git(remote, "rev-list", "--objects", "--all").split("\n")
    names = {line.partition(" ")[2] for line in reached if line}
    assert not {n for n in names if "secrets" in n or ".dipgen-cache" in n or n.endswith((".yml", ".yaml"))}
    blobs = set(pushed.values())
    assert not [name for name, data in private.items() if data in blobs and len(data) > 0]

    # the same site again makes the same commit: a push that changes nothing public leaves no trace
    assert run(["publish-site", str(site), "--to", str(remote)], capsys)[0] == 0
    assert _git(remote, "rev-list", "--all").split() == [commit]


def test_a_new_build_replaces_the_branch_and_keeps_nothing_of_the_last(archive, tmp_path, capsys):
    _, site = archive
    remote = _bare(tmp_path / "site-repo.git")
    first = tmp_path / "first"
    shutil.copytree(site, first)
    (first / "leaked.html").write_text("<p>shown by mistake</p>\n", encoding="utf-8")
    assert run(["publish-site", str(first), "--to", str(remote), "--branch", "main"], capsys)[0] == 0
    assert run(["publish-site", str(site), "--to", str(remote), "--branch", "main"], capsys)[0] == 0
    commits = _git(remote, "rev-list", "--all").split()
    assert len(commits) == 1
    assert "leaked.html" not in _git(remote, "ls-tree", "-r", "--name-only", commits[0])


@pytest.mark.parametrize("bad", ["secrets.yml", ".dipgen-cache", "link", ".git"])
def test_a_site_holding_what_no_site_publishes_is_refused(archive, tmp_path, capsys, bad):
    _, site = archive
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    target = copy / "games" / bad
    if bad == "link":
        target.symlink_to(tmp_path)
    elif bad == "secrets.yml":
        target.write_text("passphrases: {}\n", encoding="utf-8")
    else:
        target.mkdir()
        (target / "x").write_text("x", encoding="utf-8")
    remote = _bare(tmp_path / "site-repo.git")
    code, out, err = run(["publish-site", str(copy), "--to", str(remote)], capsys)
    assert code == 1
    assert codes(err) == ["not-publishable"]
    assert _git(remote, "for-each-ref") == ""


def test_a_github_target_without_the_deploy_key_is_refused_before_anything(archive, tmp_path, capsys, monkeypatch):
    _, site = archive
    monkeypatch.delenv("SITE_DEPLOY_KEY", raising=False)
    code, out, err = run(["publish-site", str(site), "--to", SITE_REPO], capsys)
    assert code == 1
    assert codes(err) == ["no-deploy-key"]
    assert "SITE_DEPLOY_KEY" in err  # the secret to set, by its name
    code, out, err = run(["publish-site", str(tmp_path / "none"), "--to", str(tmp_path)], capsys)
    assert code == 1
    assert codes(err) == ["no-site"]


def test_the_ssh_command_trusts_githubs_key_alone_and_keeps_the_key_private(tmp_path):
    env = sitepush._git_env(tmp_path, "-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----")
    key, hosts = tmp_path / "deploy-key", tmp_path / "known_hosts"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert key.read_text().endswith("KEY-----\n")
    assert hosts.read_text().split() == ["github.com", "ssh-ed25519", sitepush.GITHUB_HOST_KEY.split()[2]]
    assert "StrictHostKeyChecking=yes" in env["GIT_SSH_COMMAND"]
    assert str(hosts) in env["GIT_SSH_COMMAND"]
    assert env["GIT_CONFIG_GLOBAL"] == os.devnull
    assert not [k for k in env if k in ("GIT_DIR", "GIT_WORK_TREE")]


# --------------------------------------------------------------------------- the deploy key

def test_init_makes_the_deploy_key_outside_the_archive_and_says_where_each_half_goes(tmp_path, monkeypatch, capsys):
    key = tmp_path / "keys" / "club-deploy"
    code, out, err = _init(tmp_path, monkeypatch, capsys, "--site-repo", SITE_REPO, "--key-file", str(key))
    assert code == 0, err
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    public = key.with_name("club-deploy.pub").read_text(encoding="ascii")
    assert public.startswith("ssh-ed25519 ")
    assert key.read_text().startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    if shutil.which("ssh-keygen"):  # OpenSSH reads the pair as one
        derived = subprocess.run(["ssh-keygen", "-y", "-f", str(key)], check=True, capture_output=True, text=True)
        assert derived.stdout.split()[:2] == public.split()[:2]
    for where in ("Settings > Deploy keys", "Allow write access", "--allow-write", f"--repo {SITE_REPO}",
                  f"gh secret set SITE_DEPLOY_KEY < {key}", "Settings > Secrets and variables > Actions",
                  public.split()[1]):
        assert where in out, where
    archive = tmp_path / "club"
    assert "PRIVATE KEY" not in "".join(t for t in _tree(archive).values())

    inside = _init(tmp_path, monkeypatch, capsys, "--site-repo", SITE_REPO, "--key-file", "club2/deploy",
                   folder="club2")
    assert inside[0] == 1
    assert "inside the archive" in inside[2]
    assert not (tmp_path / "club2").exists()
    again = _init(tmp_path, monkeypatch, capsys, "--site-repo", SITE_REPO, "--key-file", str(key), folder="club3")
    assert again[0] == 1
    assert "already exists" in again[2]
    assert not (tmp_path / "club3").exists()


def test_a_lost_key_is_made_again_by_deploy_key(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["deploy-key", SITE_REPO, "--key-file", str(tmp_path / "k")], capsys)
    assert code == 0
    assert "SITE_DEPLOY_KEY" in out
    assert (tmp_path / "k.pub").is_file()
    assert run(["deploy-key", "not a repo"], capsys)[0] == 1


# --------------------------------------------------------------------------- init writes all or nothing

@pytest.mark.parametrize("case,code", [
    (".github is a file", "file-in-the-way"),
    (".github/workflows is a file", "file-in-the-way"),
    ("games is a file", "file-in-the-way"),
    ("site_src is a link", "link-in-the-way"),
    ("the folder is a link", "link-in-the-way"),
    ("games/.gitkeep is a dangling link", "link-in-the-way"),
    ("mkdocs.yml exists", "path-taken"),
    ("the folder is a link in a loop", "link-in-the-way"),
    ("the folder above it is a dangling link", "link-in-the-way"),
])
def test_init_checks_every_path_before_writing_any(tmp_path, monkeypatch, capsys, case, code):
    club, elsewhere = tmp_path / "club", tmp_path / "elsewhere"
    club.mkdir()
    elsewhere.mkdir()
    (elsewhere / "mine.txt").write_text("mine\n", encoding="utf-8")
    folder = "club"
    if case == ".github is a file":
        (club / ".github").write_text("x\n")
    elif case == ".github/workflows is a file":
        (club / ".github").mkdir()
        (club / ".github" / "workflows").write_text("x\n")
    elif case == "games is a file":
        (club / "games").write_text("x\n")
    elif case == "site_src is a link":
        (club / "site_src").symlink_to(elsewhere)
    elif case == "the folder is a link":
        (tmp_path / "alias").symlink_to(club)
        folder = "alias"
    elif case == "the folder is a link in a loop":
        (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
        (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
        folder = "loop1"
    elif case == "the folder above it is a dangling link":
        (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
        folder = "gone/club"
    elif case == "games/.gitkeep is a dangling link":
        (club / "games").mkdir()
        (club / "games" / ".gitkeep").symlink_to(tmp_path / "nowhere")
    else:
        (club / "mkdocs.yml").write_text("site_name: mine\n")
    before, outside = _tree(tmp_path / "club"), _tree(elsewhere)
    status, out, err = _init(tmp_path, monkeypatch, capsys, folder=folder)
    assert status == 1
    assert f"[{code}]" in err
    assert "nothing was written" in err
    assert "Traceback" not in err
    assert _tree(tmp_path / "club") == before
    assert _tree(elsewhere) == outside
    assert not (tmp_path / "nowhere").exists()


def test_init_removes_what_it_wrote_when_the_system_refuses_a_file_halfway(tmp_path, monkeypatch, capsys):
    from dipgen.usecases import newfiles

    real = os.open
    calls = []

    def failing(path, flags, mode=0o777, **kw):
        calls.append(path)
        if str(path).endswith("requirements.txt"):
            raise OSError(28, "No space left on device", str(path))
        return real(path, flags, mode, **kw)

    monkeypatch.setattr(newfiles.os, "open", failing)
    status, out, err = _init(tmp_path, monkeypatch, capsys)
    assert status == 1
    assert codes(err) == ["write-failed"]
    assert "No space left" in err  # the system's own words, passed on
    assert len(calls) > 2
    assert not (tmp_path / "club").exists()


# --------------------------------------------------------------------------- dipgen check's warning

def _hidden_archive(tmp_path, monkeypatch, capsys, *extra: str) -> Path:
    assert _init(tmp_path, monkeypatch, capsys, *extra)[0] == 0
    club = tmp_path / "club"
    shutil.copytree(REPO / "games" / "night-flights", club / "games" / "night-flights")  # running, hidden
    shutil.copytree(REPO / "games" / "winter-palace", club / "games" / "winter-palace")  # open
    monkeypatch.chdir(club)
    return club


def test_check_warns_of_a_running_hidden_game_published_from_its_own_repository(tmp_path, monkeypatch, capsys):
    club = _hidden_archive(tmp_path, monkeypatch, capsys)
    code, out, err = run(["check"], capsys)
    assert code == 0, err
    assert err.count("[single-repository-pages]") == 1, err
    assert ".github/workflows/pages.yml" in err
    assert "--site-repo" in err
    code, out, err = run(["check", "games/winter-palace"], capsys)  # an open game alone: nothing to hide
    assert "single-repository-pages" not in err
    workflow = club / ".github" / "workflows" / "pages.yml"
    workflow.write_text(f"{workflows.OWN_PAGES_MARK} (private, on a paid plan)\n" + workflow.read_text())
    assert "single-repository-pages" not in run(["check"], capsys)[2]


def test_check_is_quiet_where_the_site_goes_to_a_repository_of_its_own(tmp_path, monkeypatch, capsys):
    _hidden_archive(tmp_path, monkeypatch, capsys, "--site-repo", SITE_REPO, "--key-file", str(tmp_path / "k"))
    code, out, err = run(["check"], capsys)
    assert code == 0
    assert "single-repository-pages" not in err
    assert "night-flights: ok" in out

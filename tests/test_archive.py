"""A GM's own archive, and the site without the plugin: what dipgen ships (`dipgen.resources.folders`),
`dipgen init`, the dipgen-check hook, the package's rules pages, and `dipgen export`.

These run in the test's process and take seconds; tests/test_package.py does the same from a
wheel in a fresh venv, as a GM would, with ProperDocs, Zensical, pre-commit and a browser.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import posixpath
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from dipgen.core.errors import CommandError
from dipgen.usecases import newarchive
from support.codes import codes
from dipgen.cli import main
from dipgen.usecases import export_hook
from dipgen.usecases.export import HOOK, MARK, marked
from dipgen.present.site.page import SitePage
from dipgen.usecases.games import load_checked
from dipgen.usecases.publish import archive_files, editions, game_files, provided_pages, site_options
from dipgen.resources.folders import shipped
from dipgen.present.site.links import page_url
from support import REPO, make_project, mkdocs_command, write_game
from support.folders import ARCHIVE

SPRING = """\
orders:
  England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]
  France: [A Par - Bur, A Mar S A Par - Bur, F Bre - MAO]
press: |
  **Paris to Berlin:** see [the rules](../../rules/standard.md) and [the dice](../../draws.md).
"""


def run(args: list[str], capsys) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- what the package ships

def test_one_lookup_finds_the_maps_and_the_pages_beside_the_package_in_a_checkout():
    assert shipped("svg_templates") == REPO / "svg_templates"
    assert shipped("site_src") == REPO / "site_src"
    with pytest.raises(ValueError, match="ships no folder"):
        shipped("games")


def test_the_wheel_maps_both_folders_into_the_package():
    """setup.py lists them as packages, pyproject.toml maps them and ships every file in them (the
    wheel itself is built and installed by tests/test_package.py)."""
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    for name in ("svg_templates", "site_src"):
        assert f'"dipgen.{name}" = "{name}"' in pyproject
        assert f'"dipgen.{name}" = ["**/*"]' in pyproject
        assert f'"dipgen.{name}"' in (REPO / "setup.py").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- dipgen init

@pytest.fixture
def club(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(newarchive, "install_source", lambda: newarchive.Source("dipgen==0.1.0"))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["init", "club", "--name", "The *Club*"], capsys)
    assert code == 0, err
    monkeypatch.chdir(tmp_path / "club")
    return tmp_path / "club"


def test_init_makes_an_archive_that_checks_builds_and_publishes(club, capsys):
    files = {p.relative_to(club).as_posix() for p in club.rglob("*") if p.is_file()}
    assert files == {"mkdocs.yml", "site_src/index.md", "site_src/about.md", "games/.gitkeep", "requirements.txt",
                     ".gitignore", ".pre-commit-config.yaml", ".github/workflows/pages.yml"}
    config = yaml.load((club / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    assert config["site_name"] == "The *Club*"
    assert config["theme"]["name"] == "material"
    assert "dipgen" in [p if isinstance(p, str) else next(iter(p)) for p in config["plugins"]]
    assert (club / "site_src" / "index.md").read_text(encoding="utf-8").count("# The \\*Club\\*") == 1
    assert not (club / "site_src" / "rules").exists()  # the package's rules pages serve
    workflow = (club / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    for step in ("pip install -r requirements.txt", "dipgen check games", "mkdocs build --strict",
                 "dipgen leaks site", "actions/deploy-pages"):
        assert step in workflow
    assert (club / "requirements.txt").read_text(encoding="utf-8").splitlines()[2] == "dipgen==0.1.0"

    assert run(["new", "first", "--gm", "Ann"], capsys)[0] == 0
    write_game(club / "games" / "first", {"1901-spring.yml": SPRING})
    code, out, err = run(["check"], capsys)
    assert code == 0, err
    assert "games/first: ok, 1 phases played" in out, err
    result = mkdocs_command(club)
    assert result.returncode == 0, result.stderr
    site = club / "site"
    for page in ("games/first/1901-spring/index.html", "rules/standard/index.html", "rules/tir/index.html",
                 "draws/index.html", "about/index.html"):
        assert (site / page).is_file(), page
    game = (site / "games" / "first" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../rules/standard/">Rules: Standard Diplomacy' in game
    spring = (site / "games" / "first" / "1901-spring" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../../rules/standard/"' in spring
    assert 'href="../../../draws/"' in spring


def test_init_writes_over_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(newarchive, "install_source", lambda: newarchive.Source("dipgen==0.1.0"))
    (tmp_path / "club").mkdir()
    (tmp_path / "club" / "mkdocs.yml").write_text("site_name: mine\n", encoding="utf-8")
    code, out, err = run(["init", str(tmp_path / "club")], capsys)
    assert code == 1
    assert "mkdocs.yml: error: " in err
    assert "[path-taken]" in err
    assert "nothing was written" in err
    assert [p.name for p in (tmp_path / "club").iterdir()] == ["mkdocs.yml"]
    assert (tmp_path / "club" / "mkdocs.yml").read_text(encoding="utf-8") == "site_name: mine\n"


def test_the_gitignore_keeps_every_secrets_file_and_the_site_out(club):
    subprocess.run(["git", "init", "-q"], cwd=club, check=True)
    paths = ["games/a/secrets.yml", "games/deep/er/secrets.yml", "site/index.html", "out/mkdocs.yml",
             "games/a/game.yml", "site_src/index.md"]
    ignored = subprocess.run(["git", "check-ignore", *paths], cwd=club, capture_output=True, text=True).stdout.split()
    assert ignored == paths[:4]


def test_a_site_of_its_own_rules_page_wins_over_the_packages(club, capsys):
    (club / "site_src" / "rules").mkdir()
    (club / "site_src" / "rules" / "standard.md").write_text("# Our house rules\n\nNo stabbing on Sundays.\n")
    pages = provided_pages(club / "site_src")
    assert "rules/standard.md" not in pages
    assert "rules/stab.md" in pages
    assert "draws.md" in pages
    assert site_options(club / "site_src").rules["standard"] == "rules/standard.md"
    assert mkdocs_command(club).returncode == 0
    assert "No stabbing on Sundays" in (club / "site" / "rules" / "standard" / "index.html").read_text()


def test_this_repository_is_an_archive_built_by_the_same_files():
    """mkdocs.yml and the Pages workflow here are what dipgen init writes, but for the site's name and
    how the workflow installs dipgen (from this checkout); the hook is the one init configures."""
    assert (REPO / "mkdocs.yml").read_text(encoding="utf-8") == newarchive.mkdocs_yml(newarchive.REPO_NAME)
    assert (REPO / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8") == \
        newarchive.pages_workflow(newarchive.REPO_INSTALL, newarchive.REPO_MARK)
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hooks == [newarchive.HOOK]


def _dist(direct_url: dict | None, version: str = "0.1.0"):
    return SimpleNamespace(version=version, read_text=lambda name: json.dumps(direct_url) if direct_url else None)


def test_ci_installs_dipgen_as_this_copy_was_installed(tmp_path, monkeypatch):
    wheel = tmp_path / "dipgen-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    cases = [
        ({"url": "https://github.com/club/dipgen", "vcs_info": {"vcs": "git", "commit_id": "a" * 40,
                                                                "requested_revision": "v0.1.0"}},
         newarchive.Source(f"dipgen @ git+https://github.com/club/dipgen@{'a' * 40}",
                         repo="https://github.com/club/dipgen", rev="v0.1.0")),
        ({"url": wheel.as_uri(), "archive_info": {}}, newarchive.Source(f"./wheels/{wheel.name}", wheel=wheel)),
        ({"url": "https://example.org/dipgen-0.1.0-py3-none-any.whl", "archive_info": {}},
         newarchive.Source("dipgen @ https://example.org/dipgen-0.1.0-py3-none-any.whl")),
        (None, newarchive.Source("dipgen==0.1.0")),
    ]
    for direct, expected in cases:
        monkeypatch.setattr(importlib.metadata, "distribution", lambda name, d=direct: _dist(d))
        assert newarchive.install_source() == expected
    monkeypatch.setattr(importlib.metadata, "distribution",
                        lambda name: _dist({"url": "file:///home/ann/dipgen", "dir_info": {"editable": True}}))
    source = newarchive.install_source()
    assert source.requirement == "dipgen==0.1.0"
    assert "CI cannot install" in source.note
    wheel.unlink()
    monkeypatch.setattr(importlib.metadata, "distribution",
                        lambda name: _dist({"url": wheel.as_uri(), "archive_info": {}}))
    with pytest.raises(CommandError) as refused:
        newarchive.install_source()
    assert refused.value.code == "no-install-source"


def test_the_precommit_configuration_follows_the_source():
    remote = newarchive.precommit_config(newarchive.Source("x", repo="https://github.com/club/dipgen", rev="v0.1.0"))
    assert yaml.safe_load(remote)["repos"] == [{"repo": "https://github.com/club/dipgen", "rev": "v0.1.0",
                                                "hooks": [{"id": "dipgen-check"}]}]
    local = yaml.safe_load(newarchive.precommit_config(newarchive.Source("./wheels/dipgen.whl")))
    assert local["repos"] == [{"repo": "local", "hooks": [{**newarchive.HOOK, "entry": newarchive.LOCAL_ENTRY,
                                                          "language": "system"}]}]


def _hooked_archive(root: Path) -> Path:
    """An archive made by dipgen init from a wheel (its hook local), in git, with the tests' games."""
    files = newarchive.archive_files("Club", newarchive.Source("./wheels/dipgen.whl"))
    write_game(root, {".pre-commit-config.yaml": files[".pre-commit-config.yaml"]})
    _write_archive(root / "games")
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    return root


def _precommit(root: Path, path: str) -> subprocess.CompletedProcess:
    precommit = Path(sys.executable).parent / "pre-commit"
    if not precommit.exists():
        pytest.skip("pre-commit is not installed (pip install -r requirements-export.txt)")
    env = {"PATH": path, "HOME": str(root.parent), "PRE_COMMIT_HOME": str(root.parent / "pre-commit-cache")}
    return subprocess.run([str(precommit), "run", "--all-files"], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)


def test_the_local_hook_checks_each_game_once_with_the_dipgen_it_finds(tmp_path):
    """As a commit runs it: the hook is serial (in parallel batches a game whose files fell into
    two was checked and printed twice); dipgen from the PATH, else from the archive's .venv."""
    root = _hooked_archive(tmp_path / "club")
    bin_dir = str(Path(sys.executable).parent)
    for path in (f"{bin_dir}{os.pathsep}/usr/bin:/bin", "/usr/bin:/bin"):
        if path == "/usr/bin:/bin":  # a git client that does not see the venv: the archive's own .venv
            (root / ".venv" / "bin").mkdir(parents=True)
            (root / ".venv" / "bin" / "dipgen").symlink_to(Path(bin_dir) / "dipgen")
        result = _precommit(root, path)
        assert result.returncode == 0, result.stdout + result.stderr
        for slug in ARCHIVE:
            assert result.stdout.count(f"games/{slug}: ok") == 1, result.stdout


def test_the_local_hook_says_what_to_do_where_dipgen_is_missing(tmp_path):
    """A GUI git client's PATH, with no dipgen on it: a message saying so and what to do, not
    pre-commit's "Executable `dipgen` not found"."""
    root = _hooked_archive(tmp_path / "club")
    result = _precommit(root, "/usr/bin:/bin")
    assert result.returncode == 1
    assert "dipgen is not on this PATH" in result.stdout, result.stdout
    assert "pipx" in result.stdout, result.stdout
    assert "Executable" not in result.stdout


def test_requirements_pin_dipgen_and_what_it_runs_on():
    text = newarchive.requirements(newarchive.Source("./wheels/dipgen-0.1.0-py3-none-any.whl"))
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert lines[0] == "./wheels/dipgen-0.1.0-py3-none-any.whl"
    pinned = {line.split("==")[0].lower() for line in lines[1:]}
    assert {"mkdocs", "mkdocs-material", "jinja2", "nh3", "cryptography", "markupsafe"} <= pinned
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+==\S+", line) for line in lines[1:])


# --------------------------------------------------------------------------- dipgen check as a hook

def test_check_takes_the_files_a_commit_touches_as_their_games(tmp_path, monkeypatch, capsys):
    _write_archive(tmp_path / "games")
    (tmp_path / "games" / "README.md").write_text("not a game\n")
    (tmp_path / "games" / "bravo" / "notes").mkdir()
    (tmp_path / "games" / "bravo" / "notes" / "a.txt").write_text("x\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["check", "games/alpha/game.yml", "games/alpha/1901-spring.yml", "games/README.md",
                          "games/bravo/notes/a.txt"], capsys)
    assert code == 0, err
    assert [line.split(":")[0] for line in out.splitlines()] == ["games/alpha", "games/bravo"]
    write_game(tmp_path / "games" / "bravo", {"1901-spring.yml": "orders:\n  England: [F Lon - Nowhere]\n"})
    code, out, err = run(["check", "games/bravo/1901-spring.yml"], capsys)
    assert code == 1
    assert "games/bravo/1901-spring.yml:2: error" in err
    assert "[bad-order]" in err


# --------------------------------------------------------------------------- dipgen export

ATTR = re.compile(r'\b(href|src|data|data-board|data-overlay)="([^"]*)"')


def _resolve(base: str, url: str) -> str:
    path = url.split("#", 1)[0].split("?", 1)[0]
    return posixpath.normpath(posixpath.join(base, path)) + ("/" if path.endswith("/") else "")


@pytest.mark.parametrize("directory_urls", [True, False])
def test_every_generated_link_means_the_same_from_the_source_and_from_the_built_page(tmp_path, directory_urls):
    """Each generated page is built into the folder of its source file, so a relative URL in its raw
    HTML leads to the same place whether a generator rewrites it relative to the source (Zensical
    0.0.73) or leaves it (MkDocs); and it leads to a page or file the site has."""
    _write_archive(tmp_path / "games")
    docs = REPO / "site_src"
    options = site_options(docs, directory_urls=directory_urls)
    loaded = [load_checked(tmp_path / "games" / s) for s in ("alpha", "bravo", "charlie")]
    files: dict[str, str] = {}
    for game in loaded:
        files.update(game_files(game, options))
    files.update(archive_files([editions(g)[0] for g in loaded], options))
    pages = {**{u: u for u in files}, **{u: u for u in provided_pages(docs)},
             **{p.relative_to(docs).as_posix(): "" for p in docs.rglob("*.md")}}
    urls = {page_url(u, directory_urls): u for u in pages}
    checked = 0
    for uri, content in files.items():
        if not uri.endswith(".md"):
            continue
        assert uri.endswith("index.md"), uri
        built = page_url(uri, directory_urls)
        built_base = built if built.endswith("/") or not built else posixpath.dirname(built) + "/"
        for _, url in ATTR.findall(content):
            if re.match(r"[a-z]+:|#|/", url):
                continue
            from_built = _resolve(built_base.rstrip("/") or ".", url)
            from_source = _resolve(posixpath.dirname(uri) or ".", url)
            assert from_built == from_source, (uri, url)
            target = "" if from_built == "." else from_built.removeprefix("./")
            if target.endswith("index.html"):  # a folder's page, spelt out for a site without directory URLs
                target = target[:-len("index.html")]
            assert target in urls or target in files, (uri, url, target)
            checked += 1
    assert checked > 100


def test_export_writes_the_whole_tree_without_the_plugin(tmp_path, monkeypatch, capsys):
    project = make_project(tmp_path / "project", games=ARCHIVE)
    (project / "site_src" / "rules" / "tir.md").unlink()  # the package's serves instead
    monkeypatch.chdir(project)
    code, out, err = run(["export", "out"], capsys)
    assert code == 0, err
    tree = project / "out"
    config = yaml.load((tree / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    assert config["plugins"] == ["search"]
    assert config["docs_dir"] == "docs"
    assert config["theme"]["custom_dir"] == "overrides"
    assert (tree / "overrides" / "main.html").is_file()
    assert config["extra_css"] == ["assets/dipgen/dipgen.css"]
    assert config["nav"] == yaml.load((project / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)["nav"]
    docs = tree / "docs"
    home = (docs / "index.md").read_text(encoding="utf-8")
    assert "dipgen:games" not in home
    assert 'class="dg-card" href="games/alpha/"' in home
    assert (docs / "rules" / "tir.md").read_text() == (REPO / "site_src" / "rules" / "tir.md").read_text()
    # the generated files are the plugin's: the same producer, the same options
    options = site_options(project / "site_src",
                           site_name=yaml.safe_load((project / "mkdocs.yml").read_text())["site_name"])
    loaded = [load_checked(project / "games" / s) for s in ("alpha", "bravo", "charlie")]
    expected: dict[str, str] = {}
    for game in loaded:
        expected.update(game_files(game, options))
    expected.update(archive_files([editions(g)[0] for g in loaded], options))
    for uri, content in expected.items():  # a page's heading lines listed for the hook (export_hook)
        assert (docs / uri).read_text(encoding="utf-8") == (marked(content) if isinstance(content, SitePage)
                                                            else content), uri
    assert config["hooks"] == [HOOK]
    assert (tree / HOOK).read_text(encoding="utf-8") == Path(export_hook.__file__).read_text(encoding="utf-8")
    assert (tree / MARK).is_file()

    # a second export replaces the first; a folder that is not an export is never written over
    (docs / "stale.md").write_text("old\n")
    assert run(["export", "out"], capsys)[0] == 0
    assert not (docs / "stale.md").exists()
    (project / "site_src" / "about.md").write_text("# About\n\n<!-- dipgen:games -->\n")
    code, out, err = run(["export", "out"], capsys)
    assert code == 0
    assert "note: about.md has the games' cards" in err
    assert "note: index.md" not in err
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine\n")
    code, out, err = run(["export", str(tmp_path / "mine")], capsys)
    assert code == 1
    assert codes(err) == ["out-taken"]
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]
    code, out, err = run(["export", "site_src"], capsys)
    assert code == 1
    assert codes(err) == ["out-taken"]


def test_export_stops_on_a_broken_game_with_the_checks_messages(tmp_path, monkeypatch, capsys):
    project = make_project(tmp_path / "project", games=ARCHIVE)
    write_game(project / "games" / "alpha", {"1901-spring.yml": "orders:\n  England: [F Lon - Nowhere]\n"})
    monkeypatch.chdir(project)
    code, out, err = run(["export", "out"], capsys)
    assert code == 1
    assert "games/alpha/1901-spring.yml:2: error" in err
    assert "[bad-order]" in err
    assert "nothing was exported" in err
    assert not (project / "out").exists()
    assert not list(project.glob(".out.*"))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["export", "out"], capsys)
    assert code == 1
    assert codes(err) == ["no-site"]


def test_export_keeps_the_sites_own_settings(tmp_path, monkeypatch, capsys):
    """Tags MkDocs reads (!ENV, !!python/name:), comments, and the site's own theme folder over dipgen's."""
    project = make_project(tmp_path / "project", games=ARCHIVE)
    text = (project / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("site_dir: site", "site_dir: site\nsite_author: !ENV [AUTHOR, 'The GM']  # who runs it")
    text = text.replace("  name: material", "  name: material\n  custom_dir: theme")
    text += "hooks:\n  - my_hooks.py\n"
    text = text.replace("  - pymdownx.superfences\n", "  - pymdownx.superfences\n  - pymdownx.emoji:\n"
                        "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n")
    (project / "mkdocs.yml").write_text(text, encoding="utf-8")
    (project / "theme").mkdir()
    (project / "theme" / "main.html").write_text("{% extends 'base.html' %}\n")
    monkeypatch.chdir(project)
    code, out, err = run(["export", "out"], capsys)
    assert code == 0, err
    written = (project / "out" / "mkdocs.yml").read_text(encoding="utf-8")
    assert "site_author: !ENV [AUTHOR, 'The GM']  # who runs it" in written
    assert "emoji_generator: !!python/name:material.extensions.emoji.to_svg" in written
    assert re.search(r"plugins:\n  - search\n(?!  -)", written)
    assert yaml.load(written, Loader=yaml.BaseLoader)["hooks"] == ["my_hooks.py", HOOK]  # the site's own kept
    assert (project / "out" / "overrides" / "main.html").read_text() == "{% extends 'base.html' %}\n"
    assert (project / "out" / "overrides" / "partials" / "javascripts" / "base.html").is_file()


@pytest.mark.slow  # two whole-site builds, as commands
def test_mkdocs_builds_the_export_into_the_same_pages(tmp_path, monkeypatch, capsys):
    project = make_project(tmp_path / "project", games=ARCHIVE)
    assert mkdocs_command(project).returncode == 0
    monkeypatch.chdir(project)
    assert run(["export", "out"], capsys)[0] == 0
    result = mkdocs_command(project / "out")
    assert result.returncode == 0, result.stderr
    def pages(site: Path) -> set[str]:
        return {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    assert pages(project / "out" / "site") == pages(project / "site")
    season = "games/alpha/1901-fall/index.html"
    article = lambda site: re.search(r"<article.*</article>", (site / season).read_text(), re.S).group(0)  # noqa: E731
    assert article(project / "out" / "site") == article(project / "site")


def _write_archive(games: Path) -> None:
    """The tests' archive (a finished game, a running one, one not started) in folder `games`."""
    for slug, files in ARCHIVE.items():
        write_game(games / slug, files)

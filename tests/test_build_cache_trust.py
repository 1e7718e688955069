"""What the build cache (.dipgen-cache/, dipgen/mkdocs/speed/buildcache.py) may be trusted with.

A cache folder is bytes the build publishes without making them again, so nothing in it is used
unless this machine's builds wrote it: each entry is sealed with a key kept beside the folder
(never in git), and a folder or key that git tracks is refused outright (a pull request could
bring both). And a cache that works: its keys are made of canonical data only, so that a second
build in another process (another PYTHONHASHSEED) takes every game from it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dipgen.usecases import newarchive
from dipgen.mkdocs.speed import buildcache
from dipgen.present.site.card import CardStatus, GameCard
from dipgen.mkdocs.speed.buildcache import BuildCache, canonical
from dipgen.usecases.cachefiles import FOLDER, KEY_FILE
from dipgen.cli import main
from support import REPO, build, make_project, site_config, write_game
from support.folders import ARCHIVE

#: what a hostile pull request wants a game page to carry past the sanitiser
PAYLOAD = "<img src=x onerror=alert(document.domain)>"
SVG_PAYLOAD = "<script>alert(document.domain)</script>"


def _build(project: Path, strict: bool = False):
    """A build as `mkdocs build` makes one in a new process (a new plugin); not strict by default, so
    that the site is there to be read when a warning is said."""
    from mkdocs.config.defaults import MkDocsConfig

    MkDocsConfig.plugins.plugin_cache.pop("dipgen", None)
    config = site_config(project, strict=strict)
    build(config)
    return config.plugins["dipgen"]


def _site_text(project: Path) -> str:
    site = project / "site"
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(site.rglob("*")) if p.is_file())


def _git(folder: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="GM", GIT_AUTHOR_EMAIL="gm@example.org", GIT_COMMITTER_NAME="GM",
               GIT_COMMITTER_EMAIL="gm@example.org")
    return subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True, text=True, env=env).stdout


def _forge(project: Path, what: str, key: bytes | None) -> None:
    """What an attacker does to the cache: a page's (or a map's) blob rewritten with a payload, saved
    under the hash of its new bytes, and the game's entry made to name it; sealed again with `key`
    where the attacker has it, else with the seal left as it was."""
    entries = list((project / FOLDER / "games").iterdir())
    assert len(entries) == 1
    entry = entries[0]
    header, _, body = entry.read_bytes().partition(b"\n")
    data = json.loads(body)
    if what == "page":
        uri = next(u for u in data["files"] if u.endswith("/index.md") and u.count("/") == 2)
    else:
        uri = next(u for u in data["files"] if u.endswith(".svg"))
    blob = project / FOLDER / "blobs" / data["files"][uri][0]
    text = blob.read_text(encoding="utf-8")
    forged = (text + f"\n<p>{PAYLOAD}</p>\n" if what == "page" else text.replace("</svg>", SVG_PAYLOAD + "</svg>"))
    raw = forged.encode("utf-8")
    name = hashlib.sha256(raw).hexdigest()
    (project / FOLDER / "blobs" / name).write_bytes(raw)
    data["files"][uri] = [name, len(raw)]
    payload = json.dumps(data, ensure_ascii=False).encode("utf-8")
    entry.write_bytes(buildcache.sealed(key, entry.name, payload) if key is not None else header + b"\n" + payload)


def _published(project: Path) -> bool:
    text = _site_text(project)
    return PAYLOAD in text or SVG_PAYLOAD in text


def _warned(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and FOLDER in r.getMessage()]


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path / "p", games={"alpha": ARCHIVE["alpha"]})


@pytest.mark.slow  # whole-site builds
@pytest.mark.parametrize("what", ["page", "map"])
def test_a_forged_entry_without_the_key_is_not_published(project, caplog, what):
    _build(project)
    clean = _site_text(project)
    key = (project / KEY_FILE).read_bytes()
    assert len(key.strip()) == 64
    assert (project / KEY_FILE).stat().st_mode & 0o077 == 0  # the GM's eyes only
    _forge(project, what, None)
    caplog.set_level(logging.INFO)
    plugin = _build(project)
    assert not _published(project)
    assert _site_text(project) == clean
    assert plugin.stats["redone"] == 1  # made again from its files
    assert _warned(caplog)  # and the GM is told why
    caplog.clear()
    assert _build(project).stats["redone"] == 0
    assert not _warned(caplog)  # written anew, and sealed
    assert (project / KEY_FILE).read_bytes() == key


@pytest.mark.slow  # whole-site builds
def test_a_forged_entry_is_refused_under_strict_and_the_last_site_stays(project):
    from mkdocs.exceptions import Abort

    _build(project)
    clean = _site_text(project)
    _forge(project, "page", None)
    with pytest.raises(Abort):
        _build(project, strict=True)
    assert _site_text(project) == clean


@pytest.mark.slow  # whole-site builds
@pytest.mark.parametrize("with_key", [False, True], ids=["cache", "cache-and-key"])
def test_a_committed_cache_is_refused_by_check_and_by_the_build(tmp_path, project, caplog, capsys, monkeypatch,
                                                                with_key):
    """The pull request of an attacker: the cache folder force-added, with a page rewritten, and
    (with_key) the key that seals it. `dipgen check` refuses it with a code and the fix; the build,
    in the GM's folder and in a fresh clone (CI's), makes the game from its files and says why."""
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(project, "commit", "-q", "-m", "the games")
    _build(project)
    clean = _site_text(project)
    _forge(project, "page", bytes.fromhex((project / KEY_FILE).read_text(encoding="utf-8")) if with_key else None)
    _git(project, "add", "-f", FOLDER, *([KEY_FILE] if with_key else []))
    _git(project, "commit", "-q", "-m", "a helpful pull request")
    clone = tmp_path / "clone"
    _git(tmp_path, "clone", "-q", str(project), str(clone))
    for folder in (project, clone):
        monkeypatch.chdir(folder)
        code = main(["check", "games"])
        err = capsys.readouterr().err
        assert code == 1
        assert "[cache-committed]" in err
        assert "git rm -r --cached .dipgen-cache" in err
        assert ("[cache-key-committed]" in err) == with_key
        caplog.clear()
        caplog.set_level(logging.INFO)
        plugin = _build(folder)
        assert not _published(folder)
        assert plugin.stats["redone"] == 1
        assert _warned(caplog)
        assert _site_text(folder) == clean
    assert not (clone / KEY_FILE).exists() or with_key  # a refused folder gets no key beside it
    _git(clone, "rm", "-r", "-q", "--cached", FOLDER, *([KEY_FILE] if with_key else []))
    if with_key:  # a key git held is known to all: the fix deletes it, and the folder it sealed
        _git(clone, "clean", "-fdxq", "--", FOLDER, KEY_FILE)
    assert main(["check", "games"]) == 0, capsys.readouterr().err
    _build(clone)  # the forged entry, if still there, is not sealed with the clone's new key
    assert not _published(clone)
    caplog.clear()
    assert _build(clone).stats["redone"] == 0
    assert not _warned(caplog)


def test_the_gitignore_of_an_archive_and_of_this_repository_keep_the_cache_and_its_key_out(tmp_path, monkeypatch,
                                                                                            capsys):
    monkeypatch.setattr(newarchive, "install_source", lambda: newarchive.Source("dipgen==0.1.0"))
    assert main(["init", str(tmp_path / "club")]) == 0
    capsys.readouterr()
    paths = [f"{FOLDER}/games/x.json", f"{FOLDER}/blobs/ab", KEY_FILE]
    for root in (tmp_path / "club", REPO):
        if not (root / ".git").exists():
            _git(root, "init", "-q")
        ignored = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=root, capture_output=True,
                                 text=True).stdout.split()
        assert ignored == paths, root


@pytest.mark.slow  # whole-site builds
def test_a_new_key_is_kept_out_of_git_where_the_archives_gitignore_does_not_name_it(tmp_path):
    """An archive made by an older dipgen init ignores the folder but not the key: the key is then
    ignored in this clone alone (the repository's info/exclude), so that 'git add -A' leaves it out;
    the GM's .gitignore is not touched. Here in a folder inside the repository."""
    repo = tmp_path / "repo"
    project = make_project(repo / "site", games={"alpha": ARCHIVE["alpha"]})
    (repo / ".gitignore").write_text("/site/site/\n/site/.dipgen-cache/\n", encoding="utf-8")
    _git(repo, "init", "-q")
    _build(project)
    assert (project / KEY_FILE).is_file()
    _git(repo, "add", "-A")
    assert f"site/{KEY_FILE}" not in _git(repo, "ls-files")
    assert "site/games/alpha/game.yml" in _git(repo, "ls-files")
    assert (repo / ".gitignore").read_text(encoding="utf-8") == "/site/site/\n/site/.dipgen-cache/\n"
    exclude = (repo / ".git" / "info" / "exclude").read_text(encoding="utf-8")
    assert exclude.count(f"/site/{KEY_FILE}") == 1
    (project / KEY_FILE).unlink()
    _build(project)  # a new key, already ignored: not named twice
    assert (repo / ".git" / "info" / "exclude").read_text(encoding="utf-8") == exclude


@pytest.mark.slow  # whole-site builds
@pytest.mark.parametrize("how", ["link", "short"])
def test_a_key_that_cannot_be_read_as_one_is_replaced(project, caplog, how):
    """A key file that is not 64 hex digits (truncated, edited) or is a link is not used: a new one
    is made, so nothing sealed before is trusted."""
    _build(project)
    key = project / KEY_FILE
    if how == "link":
        key.unlink()
        key.symlink_to(project / "mkdocs.yml")
    else:
        key.write_bytes(key.read_bytes()[:20])
    caplog.set_level(logging.INFO)
    assert _build(project).stats["redone"] == 1
    assert not (project / KEY_FILE).is_symlink()
    assert re.fullmatch(rb"[0-9a-f]{64}\n", (project / KEY_FILE).read_bytes())
    assert _build(project).stats["redone"] == 0


# --------------------------------------------------------------------------- keys made of canonical data

def test_canonical_data_does_not_depend_on_set_order_or_on_repr():
    from dipgen.present.site.pages import SiteOptions

    one = SiteOptions(rules={"b": "rules/b.md", "a": "rules/a.md"}, provided=frozenset(["x.md", "rules/a.md"]))
    two = SiteOptions(rules={"a": "rules/a.md", "b": "rules/b.md"}, provided=frozenset(["rules/a.md", "x.md"]))
    assert canonical(one) == canonical(two)
    assert '"provided":["rules/a.md","x.md"]' in canonical(one)
    with pytest.raises(TypeError):
        canonical(object())  # no canonical form: never a repr, which may change from process to process


def _mkdocs(project: Path, seed: str) -> str:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONHASHSEED=seed)
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    found = re.search(r"dipgen: (\d+) game\(s\), (\d+) adjudicated afresh", done.stderr)
    assert found, done.stderr
    return found.group(2)


@pytest.mark.slow
def test_a_second_build_of_an_init_archive_in_another_process_takes_every_game_from_the_cache(tmp_path, monkeypatch,
                                                                                            capsys):
    """A `dipgen init` archive has no rules pages of its own (the package's serve: a set of them is
    part of the site's options); two builds in two processes with other hash seeds."""
    monkeypatch.setattr(newarchive, "install_source", lambda: newarchive.Source("dipgen==0.1.0"))
    club = tmp_path / "club"
    assert main(["init", str(club)]) == 0
    for slug, files in ARCHIVE.items():
        write_game(club / "games" / slug, files)
    capsys.readouterr()
    assert _mkdocs(club, "1") == "3"
    assert _mkdocs(club, "2") == "0"
    assert _mkdocs(club, "3") == "0"


def test_no_two_game_folders_hash_alike(tmp_path):
    """A game's files are hashed into its key each with its length first: a picture whose bytes
    hold a NUL and a file name is not the same folder as two files."""
    from dipgen.mkdocs.speed.buildcache import game_hash

    one = write_game(tmp_path / "one", {"a.png": b"X\0b.png\0Y"})
    two = write_game(tmp_path / "two", {"a.png": b"X", "b.png": b"Y"})
    assert game_hash(one) != game_hash(two)


def test_a_sealed_entry_moved_to_another_games_name_is_refused(tmp_path, caplog):
    """The seal covers the entry's name (the game folder it is for): one game's entry, sealed with
    the machine's own key, is not another game's."""
    from dipgen.present.site.page import SitePage

    key = b"k" * 32
    cache = BuildCache(tmp_path / FOLDER, key)
    card = GameCard(title="t", uri="games/a/index.md", variant="Standard", gm="G", players=(), years="—",
                    years_sort="0", status=CardStatus(kind="running", label="Running", sort_key="0"), deadline=None,
                    slug="a", finished=False, people=(), ended=None, latest="", feed=())
    one, two = tmp_path / "games" / "a", tmp_path / "games" / "b"
    cache.put(one, "k" * 64, {"games/a/index.md": SitePage.make("A", "<p>a</p>\n")}, card, ("b.svg", "<svg/>"), [])
    assert cache.get(one, "k" * 64) is not None
    entries = {p.name: p for p in (tmp_path / FOLDER / "games").iterdir()}
    [name] = entries
    other = cache._entry_path(two)
    other.write_bytes(entries[name].read_bytes())
    caplog.set_level(logging.WARNING)
    assert cache.get(two, "k" * 64) is None
    assert _warned(caplog)

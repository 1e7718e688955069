"""An example game may ship its secrets.yml on purpose (public demo secrets): both its
secrets.yml (``demo: true``) and its game.yml (``demo_secrets: true``) say so, its game page says
so with the passphrases, and `dipgen check` refuses any other secrets.yml that git would publish."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from dipgen.cli import main
from dipgen.usecases.games import load_checked
from dipgen.usecases.publish import editions
from dipgen.present.site.pages import SiteOptions, build_site
from support import build, make_project, write_game

DEMO = Path(__file__).resolve().parent.parent / "games" / "quiet-frontier"


def _copy(tmp_path, demo_secrets: bool = True, demo: bool = True) -> Path:
    folder = tmp_path / "games" / "quiet-frontier"
    shutil.copytree(DEMO, folder)
    changed = {}
    if not demo_secrets:
        changed["game.yml"] = (folder / "game.yml").read_text().replace("demo_secrets: true\n", "")
    if not demo:
        changed["secrets.yml"] = (folder / "secrets.yml").read_text().replace("demo: true\n", "")
    return write_game(folder, changed)


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True)


def test_the_demo_checks_clean(capsys):
    assert main(["check", str(DEMO)]) == 0


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_committed_real_secrets_file_is_refused(tmp_path, capsys):
    folder = _copy(tmp_path, demo_secrets=False, demo=False)
    _git(tmp_path, "init", "-q")
    assert main(["check", str(folder)]) == 0  # not in git: fine
    _git(tmp_path, "add", "-f", "games/quiet-frontier/secrets.yml")
    capsys.readouterr()
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr()
    assert "secrets.yml: error: secrets.yml is committed to git" in out.out + out.err


@pytest.mark.parametrize("demo_secrets,demo,message", [
    (False, True, "this secrets.yml says demo: true, but game.yml does not say demo_secrets: true"),
    (True, False, "demo_secrets: true, but the game has a secrets.yml that does not say demo: true"),
])
def test_both_files_mark_a_demo(tmp_path, capsys, demo_secrets, demo, message):
    folder = _copy(tmp_path, demo_secrets, demo)
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr()
    assert message in out.out + out.err


def test_demo_secrets_is_a_yes_or_no(tmp_path, capsys):
    folder = _copy(tmp_path)
    maybe = (folder / "game.yml").read_text().replace("demo_secrets: true", "demo_secrets: maybe")
    write_game(folder, {"game.yml": maybe})
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr()
    assert "game.yml:5: error: demo_secrets is true or false, not text" in out.out + out.err


def test_the_demo_game_page_says_its_secrets_are_public(tmp_path):
    site = build_site([editions(load_checked(DEMO))], SiteOptions())
    page = site["games/quiet-frontier/index.md"]
    assert "A demonstration game: its secrets are public" in page
    assert "Hanna Berg's private page</a>, passphrase <code>6z5wh-kmvtt-m7y8e-dm4hy</code>" in page
    assert '<a href="../../private/ed2b7c5d1366bf9e6c5db8b6ddbabadf.html">' in page
    from dipgen.usecases.games import Loaded, replay_folder

    plain = build_site([editions(Loaded(replay_folder(_copy(tmp_path, demo_secrets=False, demo=False))))],
                       SiteOptions())
    assert "demonstration game" not in plain["games/quiet-frontier/index.md"]
    assert "6z5wh" not in plain["games/quiet-frontier/index.md"]


@pytest.mark.parametrize("demo_secrets,demo", [(True, False), (False, True)])
def test_the_build_refuses_what_dipgen_check_refuses_and_publishes_no_passphrase(tmp_path, capsys, caplog,
                                                                                   demo_secrets, demo):
    """game.yml says demo_secrets: true but secrets.yml is a real game's (or the other way round):
    `dipgen check` refuses it, and so does `mkdocs build`, through the same check, with the same
    message; nothing is built, so no passphrase is published."""
    import logging

    from mkdocs.exceptions import Abort

    folder = _copy(tmp_path / "copy", demo_secrets, demo)
    project = make_project(tmp_path / "p", [folder.name], source=folder.parent)
    assert main(["check", str(project / "games")]) == 1
    said = capsys.readouterr().err
    message = next(line for line in said.splitlines() if "error:" in line)
    with caplog.at_level(logging.ERROR), pytest.raises(Abort):
        build(project)
    assert message in "\n".join(r.getMessage() for r in caplog.records)
    assert not (project / "site").exists()

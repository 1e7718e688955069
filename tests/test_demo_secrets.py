"""An example game may ship its secrets.yml on purpose (public demo secrets): both its
secrets.yml (``demo: true``) and its game.yml (``demo_secrets: true``) say so, its game page says
so with the passphrases, and `dipgen check` refuses any other secrets.yml that git would publish."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from dipgen.cli import main
from dipgen.history import replay_folder
from dipgen.site.pages import SiteOptions, build_site

DEMO = Path(__file__).resolve().parent.parent / "games" / "quiet-frontier"


def _copy(tmp_path, demo_secrets: bool = True, demo: bool = True) -> Path:
    folder = tmp_path / "games" / "quiet-frontier"
    shutil.copytree(DEMO, folder)
    if not demo_secrets:
        g = folder / "game.yml"
        g.write_text(g.read_text().replace("demo_secrets: true\n", ""))
    if not demo:
        s = folder / "secrets.yml"
        s.write_text(s.read_text().replace("demo: true\n", ""))
    return folder


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
    g = folder / "game.yml"
    g.write_text(g.read_text().replace("demo_secrets: true", "demo_secrets: maybe"))
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr()
    assert "game.yml:5: error: demo_secrets is true or false, not text" in out.out + out.err


def test_the_demo_game_page_says_its_secrets_are_public(tmp_path):
    site = build_site([replay_folder(DEMO)], SiteOptions())
    page = site["games/quiet-frontier/index.md"]
    assert "A demonstration game: its secrets are public" in page
    assert "Hanna Berg's private page</a>, passphrase <code>6z5wh-kmvtt-m7y8e-dm4hy</code>" in page
    assert '<a href="../../private/ed2b7c5d1366bf9e6c5db8b6ddbabadf.html">' in page
    plain = build_site([replay_folder(_copy(tmp_path, demo_secrets=False, demo=False))], SiteOptions())
    assert "demonstration game" not in plain["games/quiet-frontier/index.md"]
    assert "6z5wh" not in plain["games/quiet-frontier/index.md"]

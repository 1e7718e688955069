"""Inputs from outside the game files that once ended in a traceback: a commit dated past what a
date can hold (git takes any time it is given, and a pull request's commits keep theirs), and
the reader of dipgen's output going away (``dipgen secrets ... | head``)."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dipgen.cli import main
from dipgen.io.commits import commit_times
from support import GAMES, REPO, build, make_project
from support.folders import ALPHA

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(root: Path, *args: str, date: str = "@1700000000 +0000") -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="GM", GIT_AUTHOR_EMAIL="gm@example.org", GIT_COMMITTER_NAME="GM",
               GIT_COMMITTER_EMAIL="gm@example.org", GIT_COMMITTER_DATE=date, GIT_AUTHOR_DATE="@1700000000 +0000")
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env=env)


@pytest.mark.slow  # whole-site builds
@needs_git
@pytest.mark.parametrize("seconds", ["300000000000", "253402300800", "9223372036854775807"])
def test_a_commit_dated_past_the_year_9999_is_a_warning_naming_the_file(tmp_path, monkeypatch, capsys, caplog,
                                                                        seconds):
    project = make_project(tmp_path / "p", games={"alpha": ALPHA})
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(project, "commit", "-q", "-m", "the game")
    _git(project, "rm", "-q", "--cached", "games/alpha/1901-spring.yml")
    _git(project, "commit", "-q", "-m", "gone")
    _git(project, "add", "games/alpha/1901-spring.yml")
    _git(project, "commit", "-q", "-m", "from the future", date=f"@{seconds} +0000")
    times = commit_times(project / "games" / "alpha")
    assert "1901-spring.yml" not in times.added
    assert "game.yml" in times.added
    monkeypatch.chdir(project)
    assert main(["check", "games"]) == 0
    err = capsys.readouterr().err
    assert "games/alpha/1901-spring.yml: warning:" in err
    assert "[commit-date-out-of-range]" in err
    assert main(["adjudicate", "games/alpha"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert out
    caplog.set_level(logging.INFO)
    build(project)
    assert "commit-date-out-of-range" in caplog.text
    assert (project / "site" / "games" / "alpha" / "1901-spring" / "index.html").is_file()


@pytest.mark.slow  # whole-site builds
@needs_git
def test_the_last_second_a_date_holds_is_read(tmp_path):
    project = make_project(tmp_path / "p", games={"alpha": ALPHA})
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(project, "commit", "-q", "-m", "the game", date="@253402300799 +0000")  # 9999-12-31T23:59:59Z
    assert commit_times(project / "games" / "alpha").get("game.yml").year == 9999
    build(project)  # the feeds and calendars take it too


def _closed_pipe(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """`dipgen ARGS` writing into a pipe nobody reads any more (as `| head` leaves it once it has
    its lines): the pipe's reading end is closed before dipgen starts."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "dipgen.cli", *args], cwd=cwd, stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)


@pytest.mark.parametrize("args", [["secrets", "games/lamps-out"], ["check", "games"],
                                  ["adjudicate", "games/lamps-out", "--full"], ["--help"]])
def test_every_command_is_quiet_when_its_reader_goes_away(tmp_path, args):
    project = make_project(tmp_path / "p", ["lamps-out"])
    assert (GAMES / "lamps-out").is_dir()
    assert REPO.is_dir()
    done = _closed_pipe(*args, cwd=project)
    assert done.stderr == ""  # no traceback, no "Exception ignored" as the exit flushes stdout
    assert done.returncode == (0 if args == ["--help"] else 1)  # argparse's help says nothing of a write that failed

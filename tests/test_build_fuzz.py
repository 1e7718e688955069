"""No games folder breaks the site build: hostile game folders (tests/support/fuzz.py) built by
MkDocs in-process either build, or stop with MkDocs's Abort and a message naming the games;
never another exception, never a hang, and never an emptied or half-written site/."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from support.fuzz import FUZZ, games_trees, time_limit, write_games

pytestmark = pytest.mark.slow  # every example here is a whole MkDocs build

REPO = Path(__file__).resolve().parent.parent
LIMIT = 60  # seconds: a hang, not a slow build


class Hung(BaseException):
    """Not an Exception: nothing in the build may take it for a broken game and carry on."""


class Errors(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def files_of(site: Path) -> dict[str, tuple[int, int]]:
    return {p.relative_to(site).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns) for p in site.rglob("*")}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The site as in a checkout, without games; each example writes its own games/."""
    root = tmp_path_factory.mktemp("fuzz-build")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site_src", root / "site_src")
    return root


@FUZZ
@given(tree=games_trees(max_games=2))
def test_hostile_games_never_break_the_build_or_the_site(project, tree):
    games, site = project / "games", project / "site"
    shutil.rmtree(games, ignore_errors=True)
    write_games(games, tree)
    site.mkdir(exist_ok=True)
    (site / "MARKER").write_text("the last good build\n", encoding="utf-8")
    before = files_of(site)

    errors = Errors()
    logging.getLogger("mkdocs").addHandler(errors)
    try:
        with time_limit(LIMIT, Hung):
            build(load_config(str(project / "mkdocs.yml")))
    except Abort:
        assert errors.messages, "the build stopped without a word"
        assert all(str(games) in m or "'games/" in m for m in errors.messages), errors.messages
        assert files_of(site) == before  # not a file removed, added or written
    else:
        assert (site / "index.html").is_file()
        assert (site / "games" / "index.html").is_file()
    finally:
        logging.getLogger("mkdocs").removeHandler(errors)
    assert not [p.name for p in project.iterdir() if p.name.startswith(".site")]

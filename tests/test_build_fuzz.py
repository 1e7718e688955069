"""No games folder breaks the site build: hostile game folders (tests/fuzz_games.py) built by
MkDocs in-process either build, or stop with MkDocs's Abort and a message naming the games;
never another exception, never a hang, and never an emptied or half-written site/."""

from __future__ import annotations

import contextlib
import logging
import shutil
import signal
from pathlib import Path

import pytest
from hypothesis import assume, given
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

import dipgen.yamlio
from fuzz_games import FUZZ, Special, games_trees, write_games

REPO = Path(__file__).resolve().parent.parent
LIMIT = 60  # seconds: a hang, not a slow build


class Hung(BaseException):
    """Not an Exception: nothing in the build may take it for a broken game and carry on."""


@contextlib.contextmanager
def time_limit(seconds: int):
    def hung(signum, frame):
        raise Hung(f"the build did not finish within {seconds}s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


class Errors(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


#: The game reader of branch issue9-inputs refuses what it cannot read safely: a named pipe (it
#: would wait forever for a writer), nesting deep enough to crash libyaml, alias bombs (a few
#: lines that expand to gigabytes). Until that reader is in, such folders are left out here;
#: with it, every folder the strategy makes is built.
HARDENED = hasattr(dipgen.yamlio, "MAX_DEPTH")
#: deep(20000) as fuzz_games writes it, in flow style (its block style stops at 400 levels)
DEEPER_THAN_LIBYAML_TAKES = (b"[" * 5000, b"{a: " * 5000)


def needs_hardened_reader(tree) -> bool:
    contents = [c for spec in tree.values() for c in spec.values()]
    return any(c is Special.FIFO or isinstance(c, bytes) and (
        b'"lol"' in c or any(mark in c for mark in DEEPER_THAN_LIBYAML_TAKES))
        for c in contents)


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
    assume(HARDENED or not needs_hardened_reader(tree))
    games, site = project / "games", project / "site"
    shutil.rmtree(games, ignore_errors=True)
    write_games(games, tree)
    site.mkdir(exist_ok=True)
    (site / "MARKER").write_text("the last good build\n", encoding="utf-8")
    before = files_of(site)

    errors = Errors()
    logging.getLogger("mkdocs").addHandler(errors)
    try:
        with time_limit(LIMIT):
            build(load_config(str(project / "mkdocs.yml")))
    except Abort:
        assert errors.messages, "the build stopped without a word"
        assert all(str(games) in m or "'games/" in m for m in errors.messages), errors.messages
        assert files_of(site) == before  # not a file removed, added or written
    else:
        assert (site / "index.html").is_file() and (site / "games" / "index.html").is_file()
    finally:
        logging.getLogger("mkdocs").removeHandler(errors)
    assert not [p.name for p in project.iterdir() if p.name.startswith(".site")]

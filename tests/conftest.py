"""Fixtures every test module may take. What the tests share besides fixtures lives in the
support package (tests/support/), never in a test module."""

from pathlib import Path

import pytest

from dipgen.core.board import load_board
from support import GAME_YML, write_game


@pytest.fixture(scope="session")
def board():
    return load_board("standard")


@pytest.fixture
def make_game(tmp_path):
    """Write a standard game folder (seven players, `GAME_YML`) with the files given as
    {filename: yaml text} and return its path."""

    def make(files: dict[str, str], slug: str = "test-game") -> Path:
        return write_game(tmp_path / slug, {"game.yml": GAME_YML, **files})

    return make


@pytest.fixture(scope="module")
def browser():
    """Headless chromium for a browser test module (support/browser.py)."""
    from support.browser import chromium

    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def private_site(tmp_path_factory):
    """A built site of the running Stab! game `RUNNING` (lamps-out) with its secrets, served on
    127.0.0.1 for the browser tests of private pages: (url, its secrets, how many seasons England's
    calendar has, and how many of them have maps)."""
    from dipgen.adapters.cli import main
    from dipgen.io.gamefiles import load_game
    from dipgen.io.secretsfile import load_secrets
    from dipgen.view import game_view
    from support import build, load, make_project
    from support.browser import serve
    from support.private import RUNNING

    project = make_project(tmp_path_factory.mktemp("private-browser") / "p", [RUNNING])
    folder = project / "games" / RUNNING
    assert main(["secrets", str(folder)]) == 0
    secrets = load_secrets(folder / "secrets.yml", load_game(folder).variant.rules.powers())
    site = build(project)
    england = game_view(load(folder), "England")  # the seasons of England's calendar, and their maps
    with serve(site) as url:
        yield url, secrets, len(england.records), sum(not r.summary_only for r in england.records)

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

import textwrap
from pathlib import Path

import pytest

from dipgen.core.board import load_board

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def board():
    return load_board("standard")


@pytest.fixture
def make_game(tmp_path):
    """Write a game folder from {filename: yaml text} and return its path."""

    def make(files: dict[str, str], slug: str = "test-game") -> Path:
        return write_game(tmp_path / slug, {"game.yml": GAME_YML, **files})

    return make


def write_game(path: Path, files: dict[str, str]) -> Path:
    """Write a game folder at `path` from {filename: yaml text} (dedented) and return it."""
    path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (path / name).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


GAME_YML = """
title: Test Game
gm: Grace
players:
  Austria: Anna
  England: Ed
  France: Fran
  Germany: Gus
  Italy: Ida
  Russia: Rus
  Turkey: Tom
"""

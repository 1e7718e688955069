"""Where games are on disk: the game folders under a folder, the game a file belongs to, and
which files of a folder are named like phase files.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from dipgen.core.phase import Phase


def discover_games(root: Path | str) -> list[Path]:
    """Every game folder under `root`, sorted by name: every folder is a game (reading one that
    is not, say with game.yaml for game.yml, is an error that says so), except those whose name
    starts with a dot, which are hidden, like dot files, and skipped."""
    root = Path(root)
    if not root.is_dir():
        return []
    with os.scandir(root) as entries:  # each entry's kind from the listing: no `stat` a game (a rebuild lists them all)
        names = sorted(e.name for e in entries if not e.name.startswith(".") and _is_folder(e))
    return [root / name for name in names]


def _is_folder(entry: os.DirEntry) -> bool:
    """Whether a listed entry is a folder or a link to one; not a link that goes round in a loop or
    nowhere (as `Path.is_dir` answers)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def holds_games(path: Path | str) -> bool:
    """Whether a folder named on the command line is a folder of games rather than a game:
    it has game folders, and no file of a game of its own (game.yml, however spelt, or a
    phase file)."""
    path = Path(path)
    return path.is_dir() and bool(discover_games(path)) and not any(map(_game_file_name, path.iterdir()))


def game_of(file: Path | str) -> Path | None:
    """The game folder a file belongs to: the nearest folder above it that holds a game's file
    (game.yml, however spelt, or a phase file); None for a file of no game."""
    for folder in Path(file).parents:
        try:
            if any(map(_game_file_name, folder.iterdir())):
                return folder
        except OSError:
            return None
    return None


def _game_file_name(file: Path) -> bool:
    """A game's file, by its name (a folder so named too: reading the game then says what is wrong)."""
    return file.suffix.lower() in (".yml", ".yaml") and (file.stem.lower() == "game" or is_phase_name(file.stem))


def phase_files(path: Path | str) -> dict[Phase, Path]:
    """The files of a game folder named like phase files (the first of two for one phase)."""
    out: dict[Phase, Path] = {}
    try:
        files = sorted(Path(path).iterdir())
    except OSError:
        return out
    for file in files:
        if file.suffix.lower() in (".yml", ".yaml") and not file.name.startswith(".") and is_phase_name(file.stem):
            out.setdefault(Phase.from_slug(file.stem), file)
    return out


def is_phase_name(name: str) -> bool:
    try:
        Phase.from_slug(name)
        return True
    except ValueError:
        return False


def name_hint(stem: str) -> str:
    m = re.match(r"(\d{3,4})[-_ ]?([a-z]+)(?:[-_ ]?([a-z]+))?", stem.lower())
    if m:
        season = {"s": "spring", "sp": "spring", "spr": "spring", "f": "fall", "a": "fall", "autumn": "fall",
                  "aut": "fall", "fa": "fall", "w": "winter", "win": "winter"}.get(m.group(2), m.group(2))
        for candidate in ("spring", "fall", "winter"):
            if candidate.startswith(season[:2]):
                suffix = "-retreats" if m.group(3) and m.group(3).startswith("r") and candidate != "winter" else ""
                return f"did you mean {m.group(1)}-{candidate}{suffix}.yml?"
    return ("phase files are named 1901-spring.yml, 1901-spring-retreats.yml, 1901-fall.yml, "
            "1901-fall-retreats.yml, 1901-winter.yml")

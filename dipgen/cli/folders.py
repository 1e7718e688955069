"""The game folders a command line names (`dipgen check`, `dipgen leaks`)."""

from __future__ import annotations

from pathlib import Path

from dipgen.present.layout import GAMES_DIR


def named_games(paths: list[str]) -> list[Path]:
    """Game folders named on the command line; a folder of games stands for all of them, and a file
    for the game it belongs to (as a pre-commit hook names the files a commit touches), once."""
    from dipgen.io.folders import discover_games, game_of, holds_games

    out: list[Path] = []
    for p in map(Path, paths or [GAMES_DIR]):
        if p.is_file():  # a file of no game (games/README.md) stands for nothing
            found = game_of(p)
            out.extend([found] if found is not None and found not in out else [])
            continue
        # every folder in a folder of games is a game; load_game says what is wrong with one that is not
        out.extend(discover_games(p) if holds_games(p) else [p])
    return out

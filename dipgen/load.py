"""A game folder read, replayed and checked as `dipgen check` and the build check it: the
History, with its secrets file (if any) and its seed checked too."""

from __future__ import annotations

from pathlib import Path


def load_checked(path: Path):
    """The History of the game in `path`; GameError on anything the GM must fix."""
    from .game import SECRETS_FILE
    from .gameseed import check_seed
    from .history import replay_folder
    from .private import seat_keys
    from .secrets import load_secrets

    history = replay_folder(path)
    if (path / SECRETS_FILE).exists():  # checked too, so that a broken one never reaches the build
        load_secrets(path / SECRETS_FILE, seat_keys(history.game))
    check_seed(history)  # the seed of the draws matches its commitment, and is not published too early
    return history

"""A game folder read, replayed and checked as `dipgen check` and the build check it: the
History, with its secrets file (if any) and its seed checked too."""

from __future__ import annotations

import subprocess
from pathlib import Path


def load_checked(path: Path):
    """The History of the game in `path`; GameError on anything the GM must fix, with every
    independent problem at once: the game's files', and its secrets file's even when the game
    cannot be played (`GameError.partial`: the game as far as it could be read)."""
    from .errors import GameError
    from .gameseed import check_seed
    from .history import replay_folder
    from .private import seat_keys
    from .secrets import load_secrets, secrets_file

    history, problems = None, []
    try:
        history = replay_folder(path)
        game = history.game
    except GameError as e:
        game, problems = e.partial, list(e.problems)
    secrets, file = None, secrets_file(path)
    if file is not None:  # checked too, so that a broken one never reaches the build
        try:
            secrets = load_secrets(file, seat_keys(game) if game is not None else None)
        except GameError as e:
            problems.extend(e.problems)
    readable = file is None or secrets is not None  # else its problems are said, and not again below
    if game is not None and readable:
        problems.extend(demo_problems(game, secrets))
    if history is not None and readable:
        try:
            check_seed(history)  # the seed of the draws matches its commitment, and is not published too early
        except GameError as e:
            problems.extend(e.problems)
    if problems:  # the replay may have read secrets.yml too (a variant's draws): each problem once
        raise GameError(list(dict.fromkeys(problems)), partial=game)
    return history


def demo_problems(game, secrets) -> list:
    """A secrets file in git is public: only an example game may ship one, and then both its
    secrets.yml (``demo: true``) and its game.yml (``demo_secrets: true``, which makes the game
    page say so) mark it as a demonstration. Any other committed secrets.yml is an error."""
    from .errors import Problem, display_path
    from .game import SECRETS_FILE

    file = display_path(game.path / SECRETS_FILE)
    gfile = display_path(game.path / "game.yml")
    demo = secrets is not None and secrets.extra.get("demo") is True
    if game.demo_secrets and not demo:
        what = "has no secrets.yml" if secrets is None else "has a secrets.yml that does not say demo: true"
        return [Problem(gfile, game.lines.get("demo_secrets"), f"demo_secrets: true, but the game {what}",
                        "a real game keeps its secrets out of git: delete demo_secrets from game.yml")]
    if demo and not game.demo_secrets:
        return [Problem(file, None, "this secrets.yml says demo: true, but game.yml does not say demo_secrets: true",
                        "in an example game, add demo_secrets: true to game.yml (its page then says that its secrets "
                        "are public); in a real game, delete demo: true from secrets.yml")]
    if secrets is not None and not demo and in_git(game.path / SECRETS_FILE):
        return [Problem(file, None, "secrets.yml is committed to git: whoever reads the repository reads the game's "
                        "seed and every player's passphrase",
                        f"'git rm --cached {file}', then give every player a new passphrase ('dipgen secrets "
                        f"{display_path(game.path)} --new ...'); only an example game ships its secrets (demo: true)")]
    return []


def in_git(file: Path) -> bool:
    """Is `file` in git's index (committed or staged)? False where git is missing or no repository holds it."""
    try:
        done = subprocess.run(["git", "ls-files", "--error-unmatch", file.name], cwd=file.parent,
                              capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0

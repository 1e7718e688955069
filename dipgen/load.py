"""A game folder read, replayed and checked: the one path by which `dipgen check`, `mkdocs build`,
`mkdocs serve` and every other command take a game, so that they refuse the same things.

The game's ``secrets.yml`` is read here once, and what the rest needs of it is handed on: the seed
and the set-up's secret lots to the replay, the passphrases to the private pages, and, for an
example game that publishes its secrets on purpose (checked here), its demonstration secrets to
the public view.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import GameError, Problem, display_path
from .game import SECRETS_FILE, Game, load_game
from .gameseed import check_seed, seed_of
from .history import replay
from .private import page_uri
from .records import History
from .secrets import GameSecrets, load_secrets
from .view import DemoSecrets, revealed
from .view.seen import seen_record
from .visibility import PUBLIC


@dataclass
class Loaded:
    """A game as the build and the commands take it: its History, its secrets (None without a
    secrets.yml) and, for an example game that ships them on purpose, its demonstration secrets."""

    history: History
    secrets: GameSecrets | None = None
    demo: DemoSecrets | None = None

    def __repr__(self) -> str:  # never print a passphrase by accident
        return f"Loaded({self.history.info.slug})"


def read_game(path: Path) -> tuple[Game, GameSecrets | None]:
    """The game in `path` with its secrets.yml (if any), each read once; GameError on what is wrong
    (when phase files are broken, the phases before the first broken one are still played, so
    that their problems and warnings come with the rest)."""
    try:
        game = load_game(path)
    except GameError as e:
        if e.partial is None:
            raise
        try:
            earlier = replay(e.partial, seed_of(e.partial, _secrets(e.partial))).warnings
        except GameError as inner:
            earlier = inner.problems
        raise GameError(earlier + e.problems) from None
    return game, _secrets(game)


def _secrets(game: Game) -> GameSecrets | None:
    """The game's secrets.yml, read once; a file with passphrases needs a page_key (the private
    pages' addresses), one with only the seed or the lots does not."""
    file = game.path / SECRETS_FILE
    if not file.exists() and not file.is_symlink():
        return None
    secrets = load_secrets(file, game.seating.keys(), require_key=False)
    if secrets.passphrases and not secrets.page_key:
        raise GameError([Problem(display_path(file), None, "secrets.yml has passphrases but no page_key (the "
                                 "private pages' addresses)",
                                 f"run 'dipgen secrets {display_path(game.path)}' to add what is missing")])
    return secrets


def replay_folder(path: Path | str) -> History:
    """The History of the game in `path`, its secrets.yml read for the seed and the set-up's lots,
    without `load_checked`'s checks of what may be published (for tools and tests)."""
    game, secrets = read_game(Path(path))
    return replay(game, seed_of(game, secrets), secrets.extra if secrets is not None else None)


def load_checked(path: Path | str) -> Loaded:
    """The game in `path` read, replayed and checked as the build and `dipgen check` do; GameError
    on anything the GM must fix."""
    path = Path(path)
    game, secrets = read_game(path)
    problems = demo_problems(game, secrets)
    if problems:
        raise GameError(problems)
    history = replay(game, seed_of(game, secrets), secrets.extra if secrets is not None else None)
    check_seed(history, game)  # the seed of the draws is not published too early
    history.warnings.extend(unpublished_text(history))
    demo = None
    if game.demo_secrets and secrets is not None:
        demo = DemoSecrets({seat: (page_uri(secrets.page_key, game.slug, seat), phrase)
                            for seat, phrase in secrets.passphrases.items()})
    return Loaded(history, secrets, demo)


def unpublished_text(history: History) -> list[Problem]:
    """A warning for each phase file whose press and notes the public may not read while the game
    runs (by the variant's policy: a hidden game's retreat or winter file): the GM who wrote news
    there for everyone should move it."""
    if revealed(history):
        return []
    out = []
    for r in history.records:
        if not (r.press.strip() or r.notes.strip()):
            continue
        public = seen_record(history, r, PUBLIC)
        if not (public.press or public.notes):
            out.append(Problem(r.file or history.info.file, None,
                               f"the press and notes of {r.phase.name} stay unpublished until the game is revealed: "
                               "the public may not learn that this phase took place",
                               "put news for everyone in the next Spring or Fall file", severity="warning"))
    return out


def demo_problems(game: Game, secrets: GameSecrets | None) -> list[Problem]:
    """A secrets file in git is public: only an example game may ship one, and then both its
    secrets.yml (``demo: true``) and its game.yml (``demo_secrets: true``, which makes the game
    page say so) mark it as a demonstration. Any other committed secrets.yml is an error."""
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

"""A game folder read: its files and its ``secrets.yml``, each read once, with every problem of
their form found on the way (`read_files`). What the rest of dipgen needs of the secrets is
handed on from here: the seed and the set-up's lots to the replay, the passphrases to the private
pages. The replay and the checks that need it are `dipgen.usecases.games`'.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from dipgen.core.errors import GameError, Problem

from dipgen.io.paths import display_path
from dipgen.core.phase import Phase
from dipgen.io.commits import Commits, commit_times
from dipgen.io.addresses import example_only
from dipgen.io.folders import phase_files
from dipgen.io.gamefiles import load_game
from dipgen.io.secretsfile import SECRETS_FILE, GameSecrets, load_secrets, secrets_file
from dipgen.play.game import Game


@dataclass
class GameFiles:
    """What a game folder holds: the game as far as it could be read (None when game.yml itself
    is broken), its secrets (None without a secrets.yml, or when it cannot be read), every problem
    found, and the phase whose file's errors stop the play (None: none, or game.yml's)."""

    game: Game | None
    secrets: GameSecrets | None = None
    problems: list[Problem] = field(default_factory=list)
    stopped: Phase | None = None
    secrets_read: bool = True  # False: secrets.yml is there but could not be read (its problems say why)
    #: the times of the commits that added the folder's files (`dipgen.io.commits`)
    commits: Commits = field(default_factory=Commits)


def read_files(path: Path, commits: Commits | None = None) -> GameFiles:
    """The game in `path` and its secrets.yml, each read once; the secrets file is read even when
    the game's files are broken, so that its problems come with theirs. `commits`: the folder's
    commit times, if already read (one ``git log`` per folder); else they are read here."""
    out = GameFiles(None, commits=commit_times(path) if commits is None else commits)
    try:
        out.game = load_game(path)
    except GameError as e:
        out.game, out.problems, out.stopped = e.partial, list(e.problems), e.stopped
    if out.game is not None:
        with_times(out.game, out.commits)
    try:
        out.secrets = _secrets(path, out.game)
    except GameError as e:
        out.problems.extend(e.problems)
        out.secrets_read = False
    return out


def with_times(game: Game, commits: Commits) -> None:
    """Give the game's files the times of the commits that added them (None where git has none)."""
    game.created = commits.get("game.yml")
    for pf in game.phases.values():
        pf.committed = commits.get(pf.path.name)


def _secrets(path: Path, game: Game | None) -> GameSecrets | None:
    """The game's secrets.yml, read once (a link that loops or leads nowhere is read, and refused);
    a file with passphrases needs a page_key (the private pages' addresses), one with only the
    seed or the lots does not."""
    file = secrets_file(path)
    if file is None:
        return None
    players = list(dict.fromkeys(n for seat in game.seating.seats for n in seat.names())) if game is not None else None
    secrets = load_secrets(file, game.seating.keys() if game is not None else None, require_key=False,
                           players=players)
    if secrets.passphrases and not secrets.page_key:
        raise GameError([Problem(display_path(file), None, "secrets.yml has passphrases but no page_key (the "
                                 "private pages' addresses)",
                                 f"run 'dipgen secrets {display_path(path)}' to add what is missing",
                                 code="missing-key")])
    return secrets


def in_file_order(problems: list[Problem]) -> list[Problem]:
    """Problems as a compiler lists them: game.yml's first, then each phase file's in the order of
    play, each file's by line (the order found, where lines are equal); other files last."""
    def key(p: Problem):
        name = Path(p.file).name
        try:
            return (1, Phase.from_slug(Path(name).stem), p.line or 0)
        except ValueError:
            return (0 if name == "game.yml" else 2, name, p.line or 0)
    return sorted(problems, key=key)


def not_adjudicated(path, stopped: Phase | None) -> list[Problem]:
    """One note for the phase files after `stopped` (the phase whose errors stopped the play;
    None: game.yml's), which were read for their form only: nothing is said of them that
    follows from the earlier errors."""
    if stopped is None and not (Path(path) / "game.yml").is_file():
        return []  # no game to adjudicate: what is wrong says so
    later = [file for phase, file in sorted(phase_files(path).items()) if stopped is None or phase > stopped]
    if not later:
        return []
    if stopped is None:
        return [Problem(display_path(Path(path) / "game.yml"), None, f"the {len(later)} phase file(s) are not "
                        "adjudicated until the errors in game.yml are fixed", "their orders were checked only for "
                        "their form", severity="note", code="not-adjudicated")]
    after = f", nor the {len(later) - 1} phase file(s) after it" if len(later) > 1 else ""
    return [Problem(display_path(later[0]), None, f"not adjudicated{after}, until the errors in {stopped.name} are "
                    "fixed", "the orders were checked only for their form", severity="note", code="not-adjudicated")]


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
                        "a real game keeps its secrets out of git: delete demo_secrets from game.yml",
                        code="demo-secrets")]
    if demo and not game.demo_secrets:
        return [Problem(file, None, "this secrets.yml says demo: true, but game.yml does not say demo_secrets: true",
                        "in an example game, add demo_secrets: true to game.yml (its page then says that its secrets "
                        "are public); in a real game, delete demo: true from secrets.yml", code="demo-secrets")]
    if demo and secrets is not None and not example_only(secrets.addresses):
        return [Problem(file, secrets.addresses.lines.get(next(iter(secrets.addresses)), None), "this demonstration "
                        "secrets.yml, public on purpose, holds real e-mail addresses: whoever reads the repository "
                        "reads them", "in an example game use addresses at example.org (or example.com, .test); "
                        "a real game's secrets.yml says no demo: true and stays out of git", code="secrets-committed")]
    if secrets is not None and not demo and in_git(game.path / SECRETS_FILE):
        return [Problem(file, None, "secrets.yml is committed to git: whoever reads the repository reads the game's "
                        "seed and every player's passphrase",
                        f"'git rm --cached {file}', then give every player a new passphrase ('dipgen secrets "
                        f"{display_path(game.path)} --new ...'); only an example game ships its secrets (demo: true)",
                        code="secrets-committed")]
    return []


def in_git(file: Path) -> bool:
    """Is `file` in git's index (committed or staged)? False where git is missing or no repository holds it."""
    try:
        done = subprocess.run(["git", "ls-files", "--error-unmatch", file.name], cwd=file.parent,
                              capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0

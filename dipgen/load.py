"""A game folder read, replayed and checked: the one path by which `dipgen check`, `mkdocs build`,
`mkdocs serve` and every other command take a game, so that they refuse the same things.

The game's ``secrets.yml`` is read here once, and what the rest needs of it is handed on: the seed
and the set-up's secret lots to the replay, the passphrases to the private pages, and, for an
example game that publishes its secrets on purpose (checked here), its demonstration secrets to
the public view.

Every independent problem is reported at once, as compilers do: the game's files', its secrets
file's even when the game cannot be played, and, where a phase file's errors stop the play, one
note for the phases that follow rather than errors that follow from it.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import GameError, Problem, display_path
from .game import SECRETS_FILE, Game, load_game, phase_files
from .gameseed import check_seed, seed_of
from .history import replay
from .phase import Phase
from .private import page_uri
from .records import History
from .secrets import GameSecrets, load_secrets, secrets_file
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


def _secrets(path: Path, game: Game | None) -> GameSecrets | None:
    """The game's secrets.yml, read once (a link that loops or leads nowhere is read, and refused);
    a file with passphrases needs a page_key (the private pages' addresses), one with only the
    seed or the lots does not."""
    file = secrets_file(path)
    if file is None:
        return None
    secrets = load_secrets(file, game.seating.keys() if game is not None else None, require_key=False)
    if secrets.passphrases and not secrets.page_key:
        raise GameError([Problem(display_path(file), None, "secrets.yml has passphrases but no page_key (the "
                                 "private pages' addresses)",
                                 f"run 'dipgen secrets {display_path(path)}' to add what is missing")])
    return secrets


def _play(game: Game, secrets: GameSecrets | None) -> History:
    return replay(game, seed_of(game, secrets), secrets.extra if secrets is not None else None)


def read_game(path: Path) -> tuple[Game, GameSecrets | None]:
    """The game in `path` and its secrets.yml (if any), each read once. GameError with every
    independent problem: when phase files are broken, the phases before the first broken one are
    still played, so that their problems and warnings come with the rest, and the secrets file is
    checked even when the game cannot be played (`GameError.partial`: the game as far as it could
    be read)."""
    game, problems, stopped = None, [], None
    try:
        game = load_game(path)
    except GameError as e:
        game, problems, stopped = e.partial, list(e.problems), e.stopped
    secrets, secrets_ok = None, True
    try:
        secrets = _secrets(path, game)
    except GameError as e:
        problems.extend(e.problems)
        secrets_ok = False
    if not problems:
        return game, secrets
    earlier: list[Problem] = []
    if game is not None and secrets_ok:
        try:
            earlier = _play(game, secrets).warnings
        except GameError as inner:
            earlier, stopped = inner.problems, inner.stopped or stopped
    note = not_adjudicated(path, stopped) if game is None or stopped is not None else []
    raise GameError(in_file_order(earlier + problems) + note, partial=game, stopped=stopped) from None


def replay_folder(path: Path | str) -> History:
    """The History of the game in `path`, its secrets.yml read for the seed and the set-up's lots,
    without `load_checked`'s checks of what may be published (for tools and tests)."""
    path = Path(path)
    game, secrets = read_game(path)
    try:
        return _play(game, secrets)
    except GameError as e:
        note = not_adjudicated(path, e.stopped) if e.stopped is not None else []
        raise GameError(e.problems + note, partial=game, stopped=e.stopped) from None


def load_checked(path: Path | str) -> Loaded:
    """The game in `path` read, replayed and checked as the build and `dipgen check` do; GameError
    with every problem the GM must fix."""
    path = Path(path)
    game, secrets = read_game(path)
    problems = demo_problems(game, secrets)
    history = None
    try:
        history = _play(game, secrets)
        check_seed(history, game)  # the seed of the draws is not published too early
    except GameError as e:
        problems = e.problems + problems
        if e.stopped is not None:
            problems += not_adjudicated(path, e.stopped)
    if problems:
        raise GameError(list(dict.fromkeys(problems)), partial=game)
    history.warnings.extend(unpublished_text(history))
    demo = None
    if game.demo_secrets and secrets is not None:
        demo = DemoSecrets({seat: (page_uri(secrets.page_key, game.slug, seat), phrase)
                            for seat, phrase in secrets.passphrases.items()})
    return Loaded(history, secrets, demo)


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
                        "their form", severity="note")]
    after = f", nor the {len(later) - 1} phase file(s) after it" if len(later) > 1 else ""
    return [Problem(display_path(later[0]), None, f"not adjudicated{after}, until the errors in {stopped.name} are "
                    "fixed", "the orders were checked only for their form", severity="note")]


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

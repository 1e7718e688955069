"""A game as the build and every command take it: read (`dipgen.io.load`), replayed, and checked,
by one path, so that `dipgen check`, `mkdocs build` and `mkdocs serve` refuse the same things.

Every independent problem is reported at once, as compilers do: the game's files', its secrets
file's even when the game cannot be played, and, where a phase file's errors stop the play, one
note for the phases that follow rather than errors that follow from it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from dipgen.present.site.crypt import page_uri
from dipgen.core.errors import GameError, Problem
from dipgen.io.paths import display_path
from dipgen.io.commits import Commits, commit_times
from dipgen.io.acknowledge import acknowledge
from dipgen.io.load import demo_problems, in_file_order, not_adjudicated, read_files
from dipgen.io.secretsfile import SECRETS_FILE, GameSecrets
from dipgen.io.seed import game_draws, game_file, seed_of
from dipgen.play.game import Game
from dipgen.play.records import History
from dipgen.play.replay import replay
from dipgen.present.times import stale, utc_text
from dipgen.rules.visibility import PUBLIC, reveal_reached
from dipgen.view import DemoSecrets, revealed
from dipgen.view.seen import seen_record


@dataclass
class Loaded:
    """A game as the build and the commands take it: its History, its secrets (None without a
    secrets.yml) and, for an example game that ships them on purpose, its demonstration secrets."""

    history: History
    secrets: GameSecrets | None = None
    demo: DemoSecrets | None = None
    #: how many warnings the phase files acknowledge (`dipgen.io.acknowledge`), left out of its warnings
    acknowledged: int = 0

    def __repr__(self) -> str:  # never print a passphrase by accident
        return f"Loaded({self.history.info.slug})"


def _play(game: Game, secrets: GameSecrets | None) -> History:
    seed = seed_of(game, secrets)  # checked against the commitment, whether the variant draws or not
    draws = game_draws(game, seed) if game.variant.rules.makes_draws else None
    secret = game.variant.files.read_secret(secrets.extra if secrets is not None else None,
                                            display_path(game.path / SECRETS_FILE), game.seating.keys())
    return replay(game, draws, secret, seed)


def read_game(path: Path, commits: Commits | None = None) -> tuple[Game, GameSecrets | None]:
    """The game in `path` and its secrets.yml (if any), each read once. GameError with every
    independent problem: when phase files are broken, the phases before the first broken one are
    still played, so that their problems and warnings come with the rest, and the secrets file is
    checked even when the game cannot be played (`GameError.partial`: the game as far as it could
    be read). `commits`: the folder's commit times, if already read (`dipgen.io.commits`)."""
    files = read_files(path, commits)
    game, secrets, problems, stopped = files.game, files.secrets, files.problems, files.stopped
    if not problems:
        assert game is not None  # a folder read without a problem is a game
        return game, secrets
    earlier: list[Problem] = []
    if game is not None and files.secrets_read:
        try:
            played = _play(game, secrets)
            earlier = acknowledge(played.warnings, game.phases.values(),
                                  [r.phase for r in played.records if r.phase != stopped])[0]
        except GameError as inner:
            earlier, stopped = acknowledge(inner.problems, game.phases.values())[0], inner.stopped or stopped
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


def load_checked(path: Path | str, commits: Commits | None = None) -> Loaded:
    """The game in `path` read, replayed and checked as the build and `dipgen check` do; GameError
    with every problem the GM must fix. `commits`: the folder's commit times, if already read."""
    path = Path(path)
    commits = commit_times(path) if commits is None else commits
    game, secrets = read_game(path, commits)
    problems = demo_problems(game, secrets)
    history: History | None = None
    try:
        history = _play(game, secrets)
        check_seed(history, game)  # the seed of the draws is not published too early
    except GameError as e:
        problems = acknowledge(e.problems, game.phases.values())[0] + problems
        if e.stopped is not None:
            problems += not_adjudicated(path, e.stopped)
    if problems or history is None:
        raise GameError(list(dict.fromkeys(problems)), partial=game)
    warnings = (game.warnings + history.warnings + unpublished_text(history) + changed_text(history)
                + record_warnings(history) + time_warnings(history, commits))
    history.warnings[:], silenced = acknowledge(warnings, game.phases.values(), [r.phase for r in history.records])
    demo = None
    if game.demo_secrets and secrets is not None:
        demo = DemoSecrets({seat: (page_uri(secrets.page_key, game.slug, seat), phrase)
                            for seat, phrase in secrets.passphrases.items()})
    return Loaded(history, secrets, demo, silenced)


def check_seed(history: History, game: Game) -> None:
    """What only the replay tells: a seed published in game.yml while the game still runs."""
    if game.seed is not None and not reveal_reached(history):
        raise GameError([Problem(game_file(game), game.lines.get("seed"), "the seed is published in game.yml while "
                                 "the game runs: anyone who reads it can work out every draw to come",
                                 f"move it to {SECRETS_FILE} (seed: \"...\"), and publish it only when the game is "
                                 "over", code="seed-published-early")])


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
            out.append(Problem(r.source or history.info.file, None,
                               f"the press and notes of {r.phase.name} stay unpublished until the game is revealed: "
                               "the public may not learn that this phase took place",
                               "put news for everyone in the next Spring or Fall file", severity="warning",
                               code="unpublished-text"))
    return out


def changed_text(history: History) -> list[Problem]:
    """A warning for each thing the site leaves out of the press, notes or description as written (a
    script, a javascript: link: `dipgen.present.site.markup.removed`): the player's text is not
    published as she wrote it, and the GM should know."""
    from dipgen.present.site.markup import removed

    fields = [(history.info.file, "description", history.info.description)]
    fields += [(r.source or history.info.file, what, text) for r in history.records
               for what, text in (("press", r.press), ("notes", r.notes))]
    return [Problem(file, line, f"in the {what}: the site leaves out {gone}, so it is not published as written",
                    "fine if it was an attack or a slip; otherwise write it as the site allows (an https:// "
                    "link, or the text in `backticks`), and tell its writer", severity="warning", code="press-changed")
            for file, what, text in fields if text for line, gone in removed(text)]


def time_warnings(history: History, commits: Commits) -> list[Problem]:
    """A deadline in a game that is over (it is not shown), and the times git cannot give (a
    shallow clone: the seasons' feed entries then fall back on the times before them)."""
    out = []
    if history.finished and history.info.deadline is not None:
        out.append(Problem(history.info.file, history.info.lines.get("deadline"), "the game is over: its deadline "
                           "is not shown", "delete deadline from game.yml", severity="warning", code="deadline-over"))
    out.extend(stale_deadline(history, commits))
    if commits.shallow:
        out.append(Problem(history.info.file, None, "git holds only the latest commits of this repository (a "
                           "shallow clone): the times some phase files were published are unknown",
                           "fetch the whole history (in the Pages workflow, actions/checkout with fetch-depth: 0)",
                           severity="warning", code="shallow-clone"))
    for name, commit in sorted(commits.undated.items()):
        file = str(Path(history.info.file).with_name(name))
        out.append(Problem(file, None, f"the commit that added this file ({commit[:12]}) is dated past the year 9999 "
                           "(git takes whatever date a commit claims): its time is unknown, and the site shows none",
                           f"to date it anew, commit its removal ('git rm --cached {file}', then commit) and add it "
                           "again in a commit of its own", severity="warning", code="commit-date-out-of-range"))
    return out


def stale_deadline(history: History, commits: Commits, now: dt.datetime | None = None) -> list[Problem]:
    """A deadline that is an earlier phase's: it falls before the latest phase file was committed
    (or, that file not committed yet, before now: the pre-commit hook's case, in a folder git
    holds), so the GM moved the game on and not ``deadline:``. The site and the calendar no longer
    show it (`dipgen.present.times.current_deadline`); this says so to the GM."""
    deadline = history.info.deadline
    if deadline is None or history.finished or not history.records:
        return []
    last = history.records[-1]
    published = last.time
    if published is None and (history.info.created is not None or commits.added):
        published = now or dt.datetime.now(dt.timezone.utc)  # about to be committed
    if not stale(deadline, published):
        return []
    file = last.source or f"the {last.phase.name} file"
    waits = f"{history.next_phase.name}'s" if history.next_phase is not None else "the next phase's"
    return [Problem(history.info.file, history.info.lines.get("deadline"), f"the deadline, {utc_text(deadline)}, "
                    f"is before {file} was {'committed' if last.time else 'written'}: it is an earlier "
                    "phase's, and the site and the calendar no longer show it",
                    f"set deadline: to {waits} deadline (or delete the line)", severity="warning",
                    code="deadline-stale")]


def record_warnings(history: History) -> list[Problem]:
    """A hidden game over whose record cannot be published: it was committed to a seed (its record's
    salt) that the build does not have."""
    if history.chain is not None or not reveal_reached(history):
        return []
    return [Problem(history.info.file, history.info.lines.get("seed_sha256"), "the game is over, but the build "
                    "has no seed: its record (the chain of its phase files, salted with the seed) is not published",
                    f"copy the seed from {SECRETS_FILE} into game.yml as seed: \"...\" (allowed once the game is "
                    "over), or give the build its secrets.yml", severity="warning", code="record-needs-seed")]

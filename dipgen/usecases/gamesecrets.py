"""A hidden game's secrets as `dipgen secrets` makes them (`dipgen.cli.secrets`): the seed a game
needs and when it may still be made, its commitment written into game.yml, who plays which powers
at the start, and whether git would commit the secrets file."""

from __future__ import annotations

import os
from pathlib import Path

from dipgen.core.errors import GameError, Problem

from dipgen.io.paths import display_path


def start_seating(folder: Path):
    """Who plays which powers at the start, as the replay makes it: where the variant draws lots
    (Taskdip), drawn from the seed as soon as there is one. None where the game does not load yet
    (`dipgen check` says why)."""
    from dipgen.usecases.games import load_checked

    try:
        return load_checked(folder).history.start_seating
    except GameError:
        return None


def seed_to_make(game, path: Path, asked: bool) -> str | None:
    """A new seed, if the game needs one and has none; GameError if it is too late to make one."""
    from dipgen.io.seed import folder_has_phases

    from dipgen.io.secretsfile import generate_seed, load_secrets

    if not (asked or game.variant.rules.makes_draws):
        return _record_seed(game, path)
    if os.path.lexists(path) and load_secrets(path, game.seating.keys(), require_key=False).seed is not None:
        return None
    if folder_has_phases(game.path):
        what = ("game.yml commits to a seed that secrets.yml does not have" if game.seed_sha256
                else "the game has begun without a seed")
        raise GameError([Problem(display_path(path), None, f"{what}: a seed must be committed to before the first "
                                 "phase, and never changed after it",
                                 "restore the game's secrets.yml from your copy or the DIPGEN_SECRETS secret"
                                 if game.seed_sha256 else "a game that draws must be started again with its seed",
                                 code="seed-too-late")])
    return generate_seed()


def _record_seed(game, path: Path) -> str | None:
    """A seed for a hidden game that draws nothing: its record's salt (`dipgen.rules.chain`). Only for
    a game not yet begun and committed to nothing; never an error (one begun without a seed
    publishes its record at the reveal; a secrets.yml that cannot be read is reported as it is fixed)."""
    from dipgen.io.seed import folder_has_phases
    from dipgen.io.secretsfile import generate_seed, load_secrets

    if not game.variant.policy.hidden or game.seed_sha256 or folder_has_phases(game.path):
        return None
    try:
        if os.path.lexists(path) and load_secrets(path, game.seating.keys(), require_key=False).seed is not None:
            return None
    except GameError:
        return None
    return generate_seed()


def commit_seed(game, seed: bytes | None) -> Problem | str | None:
    """Write the commitment to `seed` into game.yml (before the first phase only): what was written
    (a line for the GM), or the Problem of a game begun without it (game.yml is left as it is)."""
    from dipgen.rules.draws import commitment
    from dipgen.io.seed import folder_has_phases
    from dipgen.io.secretsfile import set_key

    if seed is None:
        return None
    value = commitment(seed)
    if game.seed_sha256 and game.seed_sha256.lower() == value:
        return None
    file = game.path / "game.yml"
    if folder_has_phases(game.path):  # the passphrases are done; 'dipgen check' reports the seed as an error
        return Problem(display_path(file), game.lines.get("seed_sha256"),
                       "the seed in secrets.yml is not committed to in game.yml, and the game has begun: "
                       "a commitment may not change once a phase file exists, so game.yml is left as it is",
                       "restore the game's own secrets.yml; if the game draws nothing, delete its seed line",
                       code="seed-without-commitment")
    text = set_key(file, "seed_sha256", value, "commitment to the seed of the draws: never change it")
    file.write_bytes(text.encode("utf-8"))
    return (f"Wrote the commitment to the game's seed into {display_path(file)} (seed_sha256); commit it before "
            "the first phase.")


def tracked_warning(path: Path) -> str | None:
    """The warning to give where git would commit the secrets file (read-only git queries; no git,
    no warning)."""
    import subprocess  # here: every dipgen command builds the secrets command's parser, few run it

    from dipgen.io.load import in_git

    try:
        ignored = subprocess.run(["git", "check-ignore", "-q", path.name], cwd=path.parent,
                                 capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if in_git(path):
        return (f"WARNING: {display_path(path)} is committed to git: remove it from the repository "
                "(git rm --cached), then change every passphrase (--new) and the page key (--new-page-key).")
    if ignored.returncode == 1:  # 0: ignored; 128: not a git repository
        return f"WARNING: git does not ignore {display_path(path)}: add 'games/*/secrets.yml' to .gitignore."
    return None

"""A game's seed for its random draws (`dipgen.rules.draws`): where the build finds it, and its checks.

While a game runs, the seed is in ``secrets.yml`` (never committed; CI gets it from the
``DIPGEN_SECRETS`` repository secret). Once the game is over (or with ``reveal: now``) it is
published: the build puts it in the game's ``draws.json``, and the GM may copy it into game.yml
as ``seed:``, so that a public repository, which has no secrets.yml, still builds the game's
draws. Either way it must match the commitment, game.yml's ``seed_sha256``.
"""

from __future__ import annotations

from pathlib import Path

from dipgen.rules.draws import GameDraws, commitment
from dipgen.core.errors import GameError, Problem
from dipgen.io.paths import display_path
from dipgen.io.secretsfile import SECRETS_FILE
from dipgen.play.game import Game


def game_file(game: Game) -> str:
    return display_path(game.path / "game.yml")


def seed_of(game: Game, secrets=None) -> bytes | None:
    """The game's seed, from game.yml's ``seed:`` or its secrets (`dipgen.io.secretsfile.GameSecrets`, read
    once by `dipgen.io.load`), checked against the commitment; None if neither has one. Raises
    GameError (file, line, fix) for a seed that does not match."""
    gname = game_file(game)
    committed = game.seed_sha256.lower() if game.seed_sha256 else None
    if game.seed is not None:
        if committed and commitment(bytes.fromhex(game.seed)) != committed:
            raise GameError([Problem(gname, game.lines.get("seed"), "seed is not the seed of this game's commitment "
                                     f"(seed_sha256, line {game.lines.get('seed_sha256')})",
                                     f"copy the seed from the game's {SECRETS_FILE} exactly", code="seed-mismatch")])
        return bytes.fromhex(game.seed)
    if secrets is None or secrets.seed is None:
        return None
    name = display_path(secrets.path)
    if committed is None:
        raise GameError([Problem(name, secrets.seed_line, "a seed, but game.yml has no commitment to it (seed_sha256): "
                                 "nobody could check the draws made from it",
                                 f"before the first phase, run 'dipgen secrets {display_path(game.path)}' to write "
                                 "it into game.yml; if the game has begun and draws nothing, delete the seed line",
                                 code="seed-without-commitment")])
    if commitment(secrets.seed) != committed:
        raise GameError([Problem(name, secrets.seed_line, f"the seed does not match the commitment in {gname} "
                                 f"(seed_sha256, line {game.lines.get('seed_sha256')}): this is not the seed the "
                                 "game's draws are committed to",
                                 "restore this game's own secrets.yml (from your copy, or the DIPGEN_SECRETS "
                                 "secret); a new seed is allowed only before the first phase", code="seed-mismatch")])
    return secrets.seed


def _no_seed(game: Game) -> GameError:
    folder = display_path(game.path)
    if not game.seed_sha256:
        return GameError([Problem(game_file(game), None,
                                  f"{game.variant.words.title} makes random draws, but game.yml has "
                                  "no seed_sha256 (the commitment to the game's secret seed)",
                                  f"before the first phase, run 'dipgen secrets {folder}': it makes the seed in "
                                  f"{SECRETS_FILE} and writes its commitment into game.yml", code="no-seed")])
    return GameError([Problem(game_file(game), game.lines.get("seed_sha256"), "this game makes random draws, but "
                              f"the build has no seed: {folder}/{SECRETS_FILE} is missing or has no seed",
                              "the seed is in the GM's secrets.yml: in CI, give every game's secrets.yml in the "
                              "DIPGEN_SECRETS repository secret (README, 'Players' private pages'); once the game is "
                              "over, the GM may publish it in game.yml as seed: \"...\"", code="no-seed")])


def game_draws(game: Game, seed: bytes | None = None) -> GameDraws:
    """The game's source of draws (the replay makes each phase's with `GameDraws.phase`); without a
    seed, the first draw raises the GameError that says how to get one."""
    return GameDraws(game.seed_sha256.lower() if game.seed_sha256 else None, game.start, seed,
                     missing=lambda: _no_seed(game))


def folder_has_phases(path: Path) -> bool:
    """Whether any phase has been written (a commitment may no longer change)."""
    from dipgen.io.folders import is_phase_name

    return any(f.suffix.lower() in (".yml", ".yaml") and is_phase_name(f.stem) for f in Path(path).iterdir())

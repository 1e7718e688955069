"""`dipgen secrets`: make or complete a hidden game's secrets.yml, and list the players'
private pages with their passphrases for the GM to hand out."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from dipgen.core.errors import GameError, Problem, display_path

DESCRIPTION = (
    "Create games/<slug>/secrets.yml if it is missing, with a random page key and a passphrase for "
    "every power (about 99 bits each), or add what it lacks. An existing passphrase is never changed "
    "unless you name its power with --new; the file is edited in place, so your own comments in it stay. "
    "Then print, for you alone, each power's player, the address "
    "of her private page and her passphrase: send each player her own line privately. "
    "Never commit or publish secrets.yml (it is in .gitignore); give it to CI as a repository secret.")


def add_parser(sub) -> None:
    p = sub.add_parser("secrets", help="make a hidden game's passphrases and list its private pages",
                       description=DESCRIPTION)
    p.add_argument("game", help="the game folder, e.g. games/my-game")
    p.add_argument("--new", action="append", default=[], metavar="POWER",
                   help="give POWER a new passphrase (its old one stops working at the next build); repeatable")
    p.add_argument("--new-page-key", action="store_true",
                   help="a new page key: every private page moves to a new address (if the old ones leaked)")
    p.add_argument("--seed", action="store_true",
                   help="make the seed for random draws (lots, dice) even if the variant draws nothing; a variant "
                        "that draws gets one anyway, and so does a hidden one (its record is salted with it). Its "
                        "commitment goes into game.yml before the first phase")
    p.add_argument("--site-url", default="",
                   help="the published site's address, e.g. https://me.github.io/dip/, to print full links")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.io.secretsfile import SECRETS_FILE
    from dipgen.io.gamefiles import load_game
    from dipgen.core.names import did_you_mean
    from dipgen.core.crypt import page_uri
    from dipgen.io.secretsfile import PASSPHRASE_BITS, update_secrets

    folder = Path(args.game)
    try:
        game = load_game(folder)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    powers = game.seating.keys()  # the seats' keys: the powers, where each player plays one
    standard = game.seating.standard
    renew = []
    for name in args.new:
        match = next((p for p in powers if p.lower() == name.lower()), None)
        if match is None:
            what = "a power" if standard else "a player"
            print(f"error: {name!r} is not {what} of this game.{did_you_mean(name, powers)}", file=sys.stderr)
            return 1
        renew.append(match)
    path = folder / SECRETS_FILE
    try:
        new_seed = _seed_to_make(game, path, args.seed)
        update = update_secrets(path, powers, renew, game_name=display_path(folder),
                                renew_key=args.new_page_key, seed=new_seed)
        _commit(game, update.secrets.seed)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1

    name = display_path(path)
    if update.created:
        print(f"Created {name} with a passphrase for each power ({PASSPHRASE_BITS:.0f} bits each).")
    elif update.changed:
        news = [f"a new passphrase for {', '.join(update.added)}"] if update.added else []
        news += ["a new page key (every private page has a new address)"] if args.new_page_key else []
        print(f"Updated {name}: {' and '.join(news) or 'a page key'}; everything else is unchanged.")
    else:
        print(f"{name} is complete; nothing was changed.")
    if not game.variant.visibility.hidden:
        print(f"Note: {game.variant.words.title} is an open variant: its games have no private pages.")
    if update.secrets.extra.get("demo") is not True:  # an example game's demo secrets are public on purpose
        _warn_if_tracked(path)

    base = args.site_url.rstrip("/") + "/" if args.site_url else ""
    if standard:
        rows = [(p, game.player(p) or "—", base + page_uri(update.secrets.page_key, game.slug, p),
                 update.secrets.passphrases[p]) for p in powers]
    else:  # a seat per player: her key, and the powers she plays at the start (as the lots gave them)
        seating = _start_seating(folder) or game.seating
        rows = [(k, ", ".join(seating.powers_of(k, None)) or "—",
                 base + page_uri(update.secrets.page_key, game.slug, k), update.secrets.passphrases[k]) for k in powers]
    head = ("Power" if standard else "Player", "Player" if standard else "Powers",
            "Private page" if base else "Private page (under the site's address)", "Passphrase")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(4)]
    print()
    for row in [head, tuple("-" * w for w in widths), *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    print("\nThe pages appear at the next build while the game runs; once it is revealed they are gone.")
    return 0


def _start_seating(folder: Path):
    """Who plays which powers at the start, as the replay makes it: where the variant draws lots
    (Taskdip), drawn from the seed as soon as there is one. None where the game does not load yet
    (`dipgen check` says why)."""
    from dipgen.usecases.games import load_checked

    try:
        return load_checked(folder).history.start_seating
    except GameError:
        return None


def _seed_to_make(game, path: Path, asked: bool) -> str | None:
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

    if not game.variant.visibility.hidden or game.seed_sha256 or folder_has_phases(game.path):
        return None
    try:
        if os.path.lexists(path) and load_secrets(path, game.seating.keys(), require_key=False).seed is not None:
            return None
    except GameError:
        return None
    return generate_seed()


def _commit(game, seed: bytes | None) -> None:
    """Write the commitment to `seed` into game.yml (before the first phase only)."""
    from dipgen.rules.draws import commitment
    from dipgen.io.seed import folder_has_phases
    from dipgen.io.secretsfile import set_key

    if seed is None:
        return
    value = commitment(seed)
    if game.seed_sha256 and game.seed_sha256.lower() == value:
        return
    file = game.path / "game.yml"
    if folder_has_phases(game.path):  # the passphrases are done; 'dipgen check' reports the seed as an error
        print(Problem(display_path(file), game.lines.get("seed_sha256"),
                      "the seed in secrets.yml is not committed to in game.yml, and the game has begun: "
                      "a commitment may not change once a phase file exists, so game.yml is left as it is",
                      "restore the game's own secrets.yml; if the game draws nothing, delete its seed line",
                      code="seed-without-commitment"),
              file=sys.stderr)
        return
    text = set_key(file, "seed_sha256", value, "commitment to the seed of the draws: never change it")
    file.write_bytes(text.encode("utf-8"))
    print(f"Wrote the commitment to the game's seed into {display_path(file)} (seed_sha256); commit it before "
          "the first phase.")


def _warn_if_tracked(path: Path) -> None:
    """Say so if git would commit the file (read-only git queries; no git, no warning)."""
    import subprocess  # here: every dipgen command builds this one's parser, few run it

    from dipgen.io.load import in_git

    try:
        ignored = subprocess.run(["git", "check-ignore", "-q", path.name], cwd=path.parent,
                                 capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return
    if in_git(path):
        print(f"WARNING: {display_path(path)} is committed to git: remove it from the repository "
              "(git rm --cached), then change every passphrase (--new) and the page key (--new-page-key).",
              file=sys.stderr)
    elif ignored.returncode == 1:  # 0: ignored; 128: not a git repository
        print(f"WARNING: git does not ignore {display_path(path)}: add 'games/*/secrets.yml' to .gitignore.",
              file=sys.stderr)

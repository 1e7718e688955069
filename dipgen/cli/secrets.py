"""`dipgen secrets`: make or complete a hidden game's secrets.yml, and list the players'
private pages with their passphrases for the GM to hand out."""

from __future__ import annotations

import sys
from pathlib import Path

from dipgen.cli.say import fail
from dipgen.core.errors import GameError, Problem
from dipgen.io.paths import display_path
from dipgen.usecases.gamesecrets import commit_seed, seed_to_make, start_seating, tracked_warning

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
    from dipgen.present.site.crypt import page_uri
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
            return fail(f"{name!r} is not {what} of this game.{did_you_mean(name, powers)}", code="not-in-game")
        renew.append(match)
    path = folder / SECRETS_FILE
    try:
        new_seed = seed_to_make(game, path, args.seed)
        update = update_secrets(path, powers, renew, game_name=display_path(folder),
                                renew_key=args.new_page_key, seed=new_seed)
        said = commit_seed(game, update.secrets.seed)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1

    if isinstance(said, Problem):
        print(said, file=sys.stderr)
    elif said:
        print(said)
    name = display_path(path)
    if update.created:
        print(f"Created {name} with a passphrase for each power ({PASSPHRASE_BITS:.0f} bits each).")
    elif update.changed:
        news = [f"a new passphrase for {', '.join(update.added)}"] if update.added else []
        news += ["a new page key (every private page has a new address)"] if args.new_page_key else []
        print(f"Updated {name}: {' and '.join(news) or 'a page key'}; everything else is unchanged.")
    else:
        print(f"{name} is complete; nothing was changed.")
    if not game.variant.policy.hidden:
        print(f"Note: {game.variant.words.title} is an open variant: its games have no private pages.")
    if update.secrets.extra.get("demo") is not True:  # an example game's demo secrets are public on purpose
        warning = tracked_warning(path)
        if warning:
            print(warning, file=sys.stderr)

    base = args.site_url.rstrip("/") + "/" if args.site_url else ""
    if standard:
        rows = [(p, game.player(p) or "—", base + page_uri(update.secrets.page_key, game.slug, p),
                 update.secrets.passphrases[p]) for p in powers]
    else:  # a seat per player: her key, and the powers she plays at the start (as the lots gave them)
        seating = start_seating(folder) or game.seating
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

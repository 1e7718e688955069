"""`dipgen new SLUG`: a new game folder with a valid game.yml (`dipgen.usecases.newgame`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from dipgen.cli.say import fail, refused
from dipgen.core.errors import CommandError
from dipgen.io.paths import display_path
from dipgen.present.layout import GAMES_DIR


def add_parser(sub) -> None:
    p = sub.add_parser("new", help="start a new game folder with a valid game.yml",
                       description="Create games/<slug>/game.yml for a new game. Never overwrites an existing game.",
                       epilog=VARIANTS_LISTED, formatter_class=_NewHelp)
    p.add_argument("slug", help="the game's folder name: lower case letters, digits and dashes")
    p.add_argument("--variant", default="standard", help="the variant, one of those below (default: standard)")
    p.add_argument("--title", help="the game's title (default: from the slug)")
    p.add_argument("--gm", default="", help="the GM's name")
    p.add_argument("--dir", default=GAMES_DIR, help=f"the folder that holds the games (default: {GAMES_DIR})")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.usecases.newgame import create_game

    try:
        path = create_game(Path(args.dir), args.slug, args.variant, title=args.title, gm=args.gm)
    except CommandError as e:
        return refused(e)
    except ValueError as e:  # a variant dipgen does not have
        return fail(str(e), code="unknown-variant")
    print(f"created {display_path(path / 'game.yml')}; edit the players, then write "
          f"{display_path(path / '1901-spring.yml')}")
    return 0


class _NewHelp(argparse.HelpFormatter):
    """`dipgen new --help`, whose epilog lists the variants with their names: made only when the
    help is printed (each variant's package is imported for its name)."""

    def add_text(self, text: str | None) -> None:
        if text != VARIANTS_LISTED:
            return super().add_text(text)
        from dipgen.variants import get_variant, variant_names

        self.start_section("variants (--variant)")
        self.add_arguments([argparse.Action([], name, help=get_variant(name).words.title.replace("%", "%%"))
                            for name in variant_names()])
        self.end_section()


VARIANTS_LISTED = "(the variants)"

"""`dipgen export OUT`: the site as a plain source tree that ProperDocs or Zensical builds without
the dipgen plugin (`dipgen.usecases.export`)."""

from __future__ import annotations

import sys
from pathlib import Path

from dipgen.cli.say import fail, refused
from dipgen.core.errors import GameError
from dipgen.io.paths import display_path
from dipgen.present.layout import CONFIG_FILE

DESCRIPTION = (
    "Write the complete tree a static-site generator needs, with no dipgen plugin left in it: OUT/mkdocs.yml "
    "(the site's configuration less the plugin), OUT/docs/ (the hand-written pages, the rules pages, and every "
    "game's pages, maps, assets and private pages) and OUT/overrides/ (the theme folder). Then build it with "
    "'properdocs build -f mkdocs.yml' or 'zensical build' in OUT. OUT is replaced only if an earlier export "
    "wrote it. A broken game stops the export with the messages of 'dipgen check'.")


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="write the site as a plain tree for ProperDocs or Zensical, without the plugin",
                       description=DESCRIPTION)
    p.add_argument("out", help="the folder to write (a new one, or an earlier export)")
    p.add_argument("-f", "--config-file", default=CONFIG_FILE,
                   help=f"the site's configuration (default: {CONFIG_FILE})")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.usecases.export import ExportError, export, problems_text

    config = Path(args.config_file)
    if not config.is_file():
        return fail(f"no {display_path(config)} here: run 'dipgen export' in the archive's folder "
                    "(beside its mkdocs.yml), or give it with -f", code="no-site")
    try:
        done = export(config, Path(args.out))
    except GameError as e:
        print(problems_text(e), file=sys.stderr)
        return 1
    except ExportError as e:
        return refused(e)
    for uri in done.hidden:
        print(f"note: {uri} is generated from the games; the hand-written page of that name is exported instead",
              file=sys.stderr)
    for uri in done.cards:
        print(f"note: {uri} has the games' cards: their links hold under MkDocs and ProperDocs, but a generator "
              f"that reads raw HTML links from the page's source file (Zensical) builds {uri} into a folder of its "
              "own and misreads them; put the cards on an index.md page (the home page has them)", file=sys.stderr)
    print(f"exported {done.games} game(s), {done.files} files to {display_path(done.out)}; build it there with "
          "'properdocs build -f mkdocs.yml' or 'zensical build'")
    return 0

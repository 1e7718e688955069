"""`dipgen leaks`: scan a built site for any fact of a running hidden game its public view does not
show (`dipgen.usecases.leaks`)."""

from __future__ import annotations

import sys
from pathlib import Path

from dipgen.cli.folders import named_games
from dipgen.cli.say import fail
from dipgen.core.errors import GameError
from dipgen.present.layout import GAMES_DIR, PREFIX


def add_parser(sub) -> None:
    p = sub.add_parser("leaks", help="scan a built site for hidden information it must not show",
                       description="Read every file of a built site (pages, maps, search index, sitemap, file "
                                   "names) and report any fact of a running hidden game that its public view "
                                   "does not show: a unit's position, an order, a centre's owner. Exit status 1 "
                                   "on any leak.")
    p.add_argument("site", nargs="?", default="site", help="the built site (default: site)")
    p.add_argument("--games", default=GAMES_DIR, help=f"the games folder it was built from (default: {GAMES_DIR})")
    p.add_argument("--prefix", default=PREFIX, help=f"the site folder of the game pages (default: {PREFIX})")
    p.add_argument("--docs", default="site_src", help="the site's hand-written pages (default: site_src)")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.usecases.games import load_checked
    from dipgen.usecases.leaks import scan_site

    histories = []
    for path in named_games([args.games]):
        try:
            histories.append(load_checked(path).history)
        except GameError as e:
            print(e, file=sys.stderr)
            return 1
    if not Path(args.site).is_dir():
        return fail(f"no built site at {args.site}; build it first with 'mkdocs build'", code="no-site")
    leaks = scan_site(args.site, histories, prefix=args.prefix, docs_dir=args.docs)
    for leak in leaks:
        print(leak)
    hidden = sum(1 for h in histories if h.variant.policy.hidden)
    if leaks:
        print(f"{len(leaks)} leak(s) of hidden information in {args.site}", file=sys.stderr)
        return 1
    print(f"no leaks: {args.site} shows nothing of the {hidden} hidden game(s) that the public may not know")
    return 0

"""The pages across games (the players' pages and the hall of fame) of a big archive, against the
archive page of the same games.

    python bench/players.py [--games 160] [--repeat 7]

The example games' cards (`dipgen.present.site.pages.game_card`, each from its public view, as the
build cache keeps them) are copied until there are `--games` of them, each copy a game of its own
whose players are the example's with a number added (the number changes every 13 games and comes
back every fourth time, so that people play several games and meet again). Both sides are made
from those cards alone, as every build and every rebuild under `mkdocs serve` makes them (the
games themselves come from the cache: an edit re-reads one game, never the others).

The named baseline, measured in the same run: the archive page (`pages.archive_of`) of the same
cards, which every build has always made. Each figure is CPU time in this process, runs
interleaved (baseline, players, baseline, ...), the median of `--repeat`.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from dipgen.usecases.games import load_checked  # noqa: E402
from dipgen.usecases.publish import editions  # noqa: E402
from dipgen.io.folders import discover_games  # noqa: E402
from dipgen.present.site.fame import fame_files  # noqa: E402
from dipgen.present.site.card import GameCard  # noqa: E402
from dipgen.present.site.pages import SiteOptions, archive_of, game_card  # noqa: E402
from dipgen.present.site.players import player_files  # noqa: E402


def cards_of(n: int) -> list[GameCard]:
    """`n` cards made from the example games' (see the module)."""
    options = SiteOptions()
    base = [game_card(editions(load_checked(p))[0], options) for p in discover_games(REPO / "games")]
    out = []
    for i in range(n):
        card = base[i % len(base)]
        k = (i // len(base)) % 4
        people = tuple(dict(e, name=f"{e['name']} {k}" if k else e["name"]) for e in card.people)
        out.append(dataclasses.replace(card, title=f"{card.title} {i}", uri=f"games/g{i}/index.md", slug=f"g{i}",
                                       people=people))
    return out


def cpu(make) -> float:
    start = time.process_time()
    make()
    return time.process_time() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=160)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    cards = cards_of(args.games)
    options = SiteOptions()
    base, ours = [], []
    pages = 0
    for _ in range(args.repeat):
        base.append(cpu(lambda: archive_of(cards, options)))
        ours.append(cpu(lambda: player_files(cards) | fame_files(cards)))
    pages = len(player_files(cards)) + 1
    b, o = statistics.median(base), statistics.median(ours)
    print(f"{args.games} games, {pages} pages across games (players' pages, their index, the hall of fame)")
    print(f"baseline, the archive page of the same cards: {b * 1000:.1f} ms CPU (median of {args.repeat})")
    print(f"players' pages and hall of fame: {o * 1000:.1f} ms CPU, {o / b:.2f}x the baseline, "
          f"{o / pages * 1000:.2f} ms a page")


if __name__ == "__main__":
    main()

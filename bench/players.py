"""The pages across games (the players' pages, the hall of fame and the rating they show) of a big
archive, against the archive page of the same games.

    python bench/players.py [--games 160] [--repeat 7]

The example games' cards (`dipgen.present.site.pages.game_card`, each from its public view, as the
build cache keeps them) are copied until there are `--games` of them, each copy a game of its own
whose players are the example's with a number added (the number changes every 13 games and comes
back every fourth time, so that people play several games and meet again). Both sides are made
from those cards alone, as every build and every rebuild under `mkdocs serve` makes them (the
games themselves come from the cache: an edit re-reads one game, never the others).

The named baseline, measured in the same run: the archive page (`pages.archive_of`) of the same
cards, which every build has always made. Measured against it: every page across games
(`across.across_files`: the players' pages and the hall of fame, with the archive's rating), and the
rating alone (`rating.archive_rating`: the cards read, every finished game rated in order, the table
made). Each figure is CPU time in this process, runs interleaved (baseline, pages, rating,
baseline, ...), the median of `--repeat`. A one-edit rebuild under `mkdocs serve` makes these pages
again from the cached cards and the one edited game's new card: this is its cost.
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
from dipgen.present.site.across import across_files  # noqa: E402
from dipgen.present.site.fame import URI as FAME  # noqa: E402
from dipgen.present.site.card import GameCard  # noqa: E402
from dipgen.present.site.pages import SiteOptions, archive_of, game_card  # noqa: E402
from dipgen.present.site.rating import archive_rating  # noqa: E402


def cards_of(n: int) -> list[GameCard]:
    """`n` cards made from the example games' (see the module)."""
    options = SiteOptions()
    base = [game_card(editions(load_checked(p))[0], options) for p in discover_games(REPO / "games")]
    out = []
    for i in range(n):
        card = base[i % len(base)]
        k = (i // len(base)) % 4
        people = tuple(dataclasses.replace(e, name=f"{e.name} {k}" if k else e.name) for e in card.people)
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
    base, ours, rated = [], [], []
    for _ in range(args.repeat):
        base.append(cpu(lambda: archive_of(cards, options)))
        ours.append(cpu(lambda: across_files(cards, options)))
        rated.append(cpu(lambda: archive_rating(cards, {}, frozenset(), options.rating_games, FAME)))
    pages = len(across_files(cards, options))
    rating = archive_rating(cards, {}, frozenset(), options.rating_games, FAME)
    b, o, r = statistics.median(base), statistics.median(ours), statistics.median(rated)
    print(f"{args.games} games, {pages} pages across games (players' pages, their index, the hall of fame); "
          f"{sum(len(h) for h in rating.history.values())} ratings of {len(rating.history)} people, "
          f"{len(rating.rows)} on the table")
    print(f"baseline, the archive page of the same cards: {b * 1000:.1f} ms CPU (median of {args.repeat})")
    print(f"players' pages and hall of fame, with the rating: {o * 1000:.1f} ms CPU, {o / b:.2f}x the baseline, "
          f"{o / pages * 1000:.2f} ms a page")
    print(f"the rating alone: {r * 1000:.1f} ms CPU, {r / b:.2f}x the baseline")


if __name__ == "__main__":
    main()

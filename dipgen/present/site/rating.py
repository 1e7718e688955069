"""The archive's rating (`dipgen.rules.rating`) as the pages show it: the hall of fame's table,
a line on each player's page and a column of the players' index, all made from the games' cards.

`rating_input` is the one function that reads the cards for the rating: a finished game counts
when every player who sat to its end has a place (``people[].place``, `people.people_of`), which
the variants the hobby's scoring fits give (one player a power, ranked by the result); the others
(a duel, a game won by a pair of players, a game of secret tasks) and abandoned games are left
out. A running game has no place and counts for nothing: its hidden facts cannot reach a number.

Everybody rated counts in everybody's numbers (a private player's games move her opponents'
ratings as any game does); the tables show the people with at least ``rating_games`` rated games
(`dipgen.rules.rating.LEAST_GAMES` by default) who are not private.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from markupsafe import Markup

from dipgen.present.site.card import GameCard
from dipgen.present.site.people import person
from dipgen.present.svg.trend import rating_chart
from dipgen.rules.rating import RatedGame, Rater, Rating

#: why some variants' games are not rated (the hall of fame and the README say it)
UNRATED_REASON = ("their results do not rank players who each held one power of the board (a duel, a game won by "
                  "a pair of players, a game of secret tasks), so a win there is not a place on the same scale")


@dataclass(frozen=True)
class RatingInput:
    """What the cards give the rating: the rated games, and the variants of the finished games left
    out (their titles, in order) because their variant does not rank its players."""

    games: tuple[RatedGame, ...]
    unrated_variants: tuple[str, ...]


def rating_input(cards: Iterable[GameCard], aliases: Mapping[str, str]) -> RatingInput:
    """The rated games of the cards (see the module): each person's place after the alias table, the
    better place where two of her names sat in one game; the game ended at its latest season's time."""
    games, unrated = [], set()
    for card in cards:
        ended = card.ended
        if not card.finished or not ended or ended.kind == "abandoned":
            continue
        sitters = [e for e in card.people if e.to_end]
        placed = [(person(e.name, aliases), e.place) for e in sitters if e.place is not None]
        if not sitters or len(placed) < len(sitters):
            unrated.add(card.variant)
            continue
        best: dict[str, int] = {}
        for who, place in placed:
            best[who] = min(best.get(who, place), place)
        games.append(RatedGame(card.slug, card.latest, tuple(sorted(best.items()))))
    return RatingInput(tuple(games), tuple(sorted(unrated)))


@dataclass(frozen=True)
class RatingRow:
    """A shown player's rating: her place on the table, name, the numbers as the page writes them."""

    rank: int
    name: str
    rating: str
    mu: str
    sigma: str
    games: int


def number(value: float) -> str:
    """A rating's number as the pages write it: one decimal (``-0.0`` written ``0.0``)."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


@dataclass(frozen=True)
class ArchiveRating:
    """The rating of an archive: the table (shown players, best first), every rated person's rating
    history (for her own page), the least number of games shown, and the variants left out."""

    rows: tuple[RatingRow, ...]
    history: Mapping[str, list[Rating]]
    least: int
    unrated_variants: tuple[str, ...]
    #: the page the table is on (a site path)
    page: str
    #: each rated game's title, by its slug (her page's chart says the games by name)
    titles: Mapping[str, str]

    def row(self, name: str) -> RatingRow | None:
        """Her row of the table (None: not shown)."""
        return self._by_name.get(name)

    @cached_property
    def _by_name(self) -> dict[str, RatingRow]:
        return {r.name: r for r in self.rows}

    @cached_property
    def _sharing(self) -> Counter:
        """How many players share each place."""
        return Counter(r.rank for r in self.rows)

    def line(self, name: str) -> dict | None:
        """What her page says of her rating (None: she has no rated game): the numbers, and her place
        on the table or why she is not on it yet."""
        history = self.history.get(name)
        if not history:
            return None
        now, row = history[-1], self.row(name)
        games = f"{now.games} rated game{'s' * (now.games != 1)}"
        joint = "joint " if row and self._sharing[row.rank] > 1 else ""
        where = (f"{joint}{ordinal(row.rank)} of {len(self.rows)} on the archive's table, after {games}" if row else
                 f"after {games}; the table lists players from {self.least} rated games")
        words = "; ".join(f"after {self.titles.get(r.slug, r.slug)}: {number(r.ordinal)}" for r in history)
        chart = rating_chart([(r.mu, r.sigma) for r in history], "dg-rating-chart",
                             f"{name}'s rating after each rated game", f"The rating (μ − 3σ) {words}.")
        return dict(value=number(now.ordinal), mu=number(now.mu), sigma=number(now.sigma), where=where,
                    chart=Markup(chart))


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


#: the archive's rating as the last build rated it (`Rater`: under `mkdocs serve`, an edit rates again
#: only the games that ended after the one whose card changed)
_RATER = Rater()


def archive_rating(cards: Iterable[GameCard], aliases: Mapping[str, str], private: frozenset[str],
                   least: int, page: str) -> ArchiveRating:
    """The rating of the cards' games (see the module), its table on `page`; `least` below 1 counts as 1."""
    cards = list(cards)
    made = rating_input(cards, aliases)
    history = _RATER.rate(made.games)
    least = max(1, least)
    shown = sorted(((n, h[-1]) for n, h in history.items() if n not in private and h[-1].games >= least),
                   key=lambda t: (-round(t[1].ordinal, 1), t[0].lower(), t[0]))
    rows: list[RatingRow] = []
    rank = 0
    for i, (name, r) in enumerate(shown):
        if i == 0 or number(r.ordinal) != rows[-1].rating:
            rank = i + 1
        rows.append(RatingRow(rank, name, number(r.ordinal), number(r.mu), number(r.sigma), r.games))
    titles = {c.slug: c.title for c in cards}
    return ArchiveRating(tuple(rows), history, least, made.unrated_variants, page, titles)

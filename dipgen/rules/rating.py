"""A rating across an archive's finished games: OpenSkill's Plackett-Luce model (Weng and Lin, "A
Bayesian Approximation Method for Online Ranking", JMLR 12, 2011, Algorithm 4, through the
``openskill`` package), as a pure function: the games, each with every person's place, in; each
person's rating after each of her games out.

A rating is a belief about a player's skill: a mean ``mu`` and an uncertainty ``sigma`` (everybody
starts at 25 and 25/3). Each game moves the ratings of its players by how surprising its order
was: beating stronger players gains more, and a sure rating moves less than an unsure one. The
number a table sorts by is the conservative estimate ``mu - 3 sigma`` (`Rating.ordinal`): the
skill a player has with 99.7% confidence, 0 for a newcomer, growing as she plays and does well.

Why Plackett-Luce: a Diplomacy game is one ranking of up to seven players with ties (a draw's
members), which the model reads whole, where Elo and Glicko read pairs. TrueSkill's Python
implementation (``trueskill``) computes the same kind of belief by message passing but was last
released in 2018; ``openskill`` is kept (MIT, typed, released in 2026) and its update is a closed
formula that a test re-computes by hand.

Deterministic: the games are read in the order they ended (their ``ended`` stamps, ties broken by
their slugs), each game's players in the order of their names, with the model's parameters fixed
here rather than taken from the package's defaults; the same games give the same floating-point
numbers on every build.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: the model's parameters (the package's defaults, fixed here so that an upgrade cannot move them):
#: a newcomer's mean and uncertainty, the spread of one game's performance, the uncertainty added
#: before every game (so that a long-standing rating can still move), the least variance factor
MU, SIGMA, BETA, TAU, KAPPA = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0, 0.0001
#: how many standard deviations the shown rating lies below the mean
Z = 3.0
#: the site's default of how many rated games a player needs before the tables show her rating
#: (`dipgen.present.site.rating`): see the README, "The rating"
LEAST_GAMES = 3


@dataclass(frozen=True)
class RatedGame:
    """A finished game as the rating reads it: its folder name, when it ended (a stamp that sorts
    as the times do), and each person's place (1 the best; tied people share a place)."""

    slug: str
    ended: str
    places: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Rating:
    """A person's rating after a game (its slug): mean, uncertainty and her rated games so far."""

    slug: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative estimate of her skill: ``mu - 3 sigma``."""
        return self.mu - Z * self.sigma


def order(games: Iterable[RatedGame]) -> list[RatedGame]:
    """The games in the order they are rated: by the time they ended, then by slug."""
    return sorted(games, key=lambda g: (g.ended, g.slug))


def rate(games: Iterable[RatedGame]) -> dict[str, list[Rating]]:
    """Each person's rating after each of her games, oldest first (see the module). A game with
    fewer than two people changes nothing; a person named twice in one game is a ValueError."""
    return Rater().rate(games)


class Rater:
    """`rate`, keeping what each game gave between calls: the games are rated in order, each from the
    ratings the games before it left, so where a call's games in order begin as the last call's did,
    the ratings those first games gave are the same numbers, and only the games after them are rated
    again: under `mkdocs serve`, a game that ends after the others is rated alone (where the archive's
    games are thousands), and a result changed in an old game rates again the games that ended after
    it. The same games give the same numbers as `rate`, to the last bit (tested)."""

    def __init__(self) -> None:
        self._games: list[RatedGame] = []
        self._steps: list[tuple[tuple[str, Rating], ...]] = []  # what each of those games gave, in order

    def rate(self, games: Iterable[RatedGame]) -> dict[str, list[Rating]]:
        """`rate` of `games`."""
        ordered = order(games)
        same = 0
        for mine, last in zip(ordered, self._games, strict=False):  # (the common beginning)
            if mine != last:
                break
            same += 1
        steps = self._steps[:same]
        out: dict[str, list[Rating]] = {}
        for step in steps:
            for name, rating in step:
                out.setdefault(name, []).append(rating)
        model = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, kappa=KAPPA)
        for game in ordered[same:]:
            step = _rate_one(model, game, out)
            for name, rating in step:
                out.setdefault(name, []).append(rating)
            steps.append(step)
        self._games, self._steps = ordered, steps
        return out


def _rate_one(model: PlackettLuce, game: RatedGame, out: dict[str, list[Rating]]) -> tuple[tuple[str, Rating], ...]:
    """Each of the game's people's rating after it, from their ratings before it in `out` (see `rate`)."""
    people = sorted(game.places)
    names = [name for name, _ in people]
    if len(set(names)) != len(names):
        raise ValueError(f"game {game.slug!r} names a person twice: {names}")
    if len(people) < 2:
        return ()
    before = [out[n][-1] if n in out else None for n in names]
    teams = [[model.rating(mu=MU if b is None else b.mu, sigma=SIGMA if b is None else b.sigma)] for b in before]
    after = model.rate(teams, ranks=[float(place) for _, place in people])
    return tuple((name, Rating(game.slug, new.mu, new.sigma, 1 + (b.games if b else 0)))
                 for name, b, [new] in zip(names, before, after, strict=True))

"""The pages across the archive's games: the players' pages and the hall of fame, made from the
games' cards (`pages.game_card`) with one rating of the archive (`rating.archive_rating`) that both show."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from dipgen.present.site.card import GameCard
from dipgen.present.site.fame import URI as FAME_URI, fame_files
from dipgen.present.site.players import alias_table, person, player_files
from dipgen.present.site.rating import archive_rating


class Across(Protocol):
    """The site's options these pages read (fields of `dipgen.present.site.pages.SiteOptions`)."""

    @property
    def directory_urls(self) -> bool: ...
    @property
    def aliases(self) -> Mapping[str, str]: ...
    @property
    def private_players(self) -> frozenset[str]: ...
    @property
    def rating_games(self) -> int: ...


def across_files(cards: Iterable[GameCard], options: Across) -> dict[str, str]:
    """The players' index and pages and the hall of fame of the games' cards."""
    cards = list(cards)
    aliases = alias_table(options.aliases)
    private = frozenset(person(n, aliases) for n in options.private_players)
    rating = archive_rating(cards, aliases, private, options.rating_games, FAME_URI)
    out = player_files(cards, options.directory_urls, options.aliases, options.private_players, rating)
    out.update(fame_files(cards, options.directory_urls, options.aliases, options.private_players, rating))
    return out

"""Under `mkdocs serve`: the files of every game as one, merged again only where an edit needs it.

Each build hands MkDocs one mapping of every generated file, the games' files merged in the games'
order (`dipgen.mkdocs.output.first_wins`: a file two games make, their board's base map, is the
first game's, in the place it first comes). At 1,280 games that is some 340,000 files, merged on
every rebuild though an edit changes one game. `Merged` keeps the last merge: where this build's
games are the last build's, in the same order, and each game that changed makes files of the same
names as before, in the same order, the merge is the last one with the changed games' files put in
their places (but a file an earlier game makes too, which stays that game's); anything else (a game
added, removed or renamed, a phase added) is merged whole, as the plain build merges. Either way the
result is `first_wins`'s, entry for entry and in its order.

A game is the same as at the last build where its output is the same object (`Layers.cached`
hands back the last build's output of a game whose files and commits are as they were). What is
merged of each game is its files, or any other mapping by site path (`files_of`: the names of its
pages' files in the cache folder, say).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar

from dipgen.mkdocs.output import Output, first_wins

G = TypeVar("G", bound=Output)
V = TypeVar("V")


class Merged(Generic[G, V]):
    """`first_wins` of the games' files (or of what `files_of` gives of each game), remembered from
    one call to the next (see the module)."""

    def __init__(self, files_of: Callable[[G], Mapping[str, V]]) -> None:
        self._files_of = files_of
        self._games: list[G] = []
        self._merged: dict[str, V] = {}
        self._shared: set[str] = set()  # the names of the files two or more games make

    def __call__(self, games: Sequence[G]) -> dict[str, V]:
        """Every file of `games` as one, in a dict of the caller's own (it may change it)."""
        if not self._update(games):
            self._shared = set()
            self._merged = first_wins((self._files_of(game) for game in games), self._shared)
        self._games = list(games)
        return dict(self._merged)

    def _update(self, games: Sequence[G]) -> bool:
        """Put the changed games' files in place where the last merge allows it (see the module);
        False, with nothing changed, where it must be made whole."""
        if len(games) != len(self._games) or not self._games:
            return False
        changed = [i for i, (old, new) in enumerate(zip(self._games, games, strict=True)) if old is not new]
        if len(changed) > len(games) // 2:  # most of the archive: as quick made whole
            return False
        of = self._files_of
        files = [of(games[i]) for i in changed]
        if any(list(now) != list(of(self._games[i])) for i, now in zip(changed, files, strict=True)):  # names, in order
            return False
        for i, now in zip(changed, files, strict=True):
            # a file an earlier game makes too stays that game's (the first game makes it, mostly)
            earlier = [uri for uri in now.keys() & self._shared if any(uri in of(games[k]) for k in range(i))]
            kept = {uri: self._merged[uri] for uri in earlier}
            self._merged.update(now)
            self._merged.update(kept)
        return True

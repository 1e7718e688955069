"""Convoy routes: which fleets a route from one coast to another needs, whether a chain of
convoying fleets still joins them, and the chain an army went by.

Geometry only: which fleets convoy, and whether each still does, is the caller's to say.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from dipgen.core.board import Board

T = TypeVar("T")


class ConvoyRoutes:
    """The routes of one board, worked out once per question within a phase."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._needed: dict[tuple[str, str, frozenset[str]], frozenset[str]] = {}
        self._sea_adj: dict[frozenset[str], dict[str, frozenset[str]]] = {}

    def necessary_fleets(self, src: str, dst: str, seas: frozenset[str]) -> frozenset[str]:
        """The fleets (of those in `seas`) that lie on some route from src to dst with no
        shortcut (DATC 4.E.1, 6.G.19): empty when no route exists."""
        key = (src, dst, seas)
        found_before = self._needed.get(key)
        if found_before is not None:
            return found_before
        touches = self.board.fleet_touches
        adj = self._sea_adj.get(seas)
        if adj is None:  # the same fleets for most orders of a phase
            adj = self._sea_adj[seas] = {s: (seas & touches[s]) - {s} for s in seas}
        # every chain of fleets from src to dst, fleet by fleet (a list, not a recursive closure:
        # a closure that calls itself is a reference cycle, which only the collector frees)
        found: set[str] = set()
        paths = [[first] for first in seas if src in touches[first]]
        while paths:
            path = paths.pop()
            last = path[-1]
            if dst in touches[last]:
                found.update(path)
                continue
            for nxt in adj[last]:
                if nxt in path or src in touches[nxt]:
                    continue
                if any(nxt in adj[earlier] for earlier in path[:-1]):
                    continue  # a shortcut exists: this fleet would not be needed
                paths.append(path + [nxt])
        result = self._needed[key] = frozenset(found)
        return result

    def route_exists(self, src: str, dst: str, seas: Iterable[str], usable: Callable[[str], bool]) -> bool:
        """Is there a chain of the `seas` (each passing `usable`, asked lazily) from src to dst?"""
        touches = self.board.fleet_touches
        seen: set[str] = set()
        queue: deque[str] = deque()
        seas = tuple(seas)
        for s in seas:
            if src in touches.get(s, ()) and usable(s):
                seen.add(s)
                queue.append(s)
        while queue:
            s = queue.popleft()
            near = touches.get(s, ())
            if dst in near:
                return True
            for t in seas:
                if t not in seen and t in near and usable(t):
                    seen.add(t)
                    queue.append(t)
        return False


def shortest_chain(board: Board, src: str, dst: str, fleets: Mapping[str, T]) -> tuple[T, ...]:
    """The shortest chain of `fleets` (province -> fleet) from src to dst, adjacent link to link;
    among equals, the one whose provinces come first by id. () when they form no chain."""
    nb = board.neighbours
    order = sorted(fleets)
    frontier = [[f] for f in order if f in nb(src)]
    seen = {p[0] for p in frontier}
    while frontier:
        nxt = []
        for path in frontier:
            if dst in nb(path[-1]):
                return tuple(fleets[p] for p in path)
            for f in order:
                if f not in seen and f in nb(path[-1]):
                    seen.add(f)
                    nxt.append(path + [f])
        frontier = nxt
    return ()

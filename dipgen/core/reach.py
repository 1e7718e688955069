"""Where a unit of a kind can go on a board: the geometry every room reads (the engine to check
a move, the variants' rules, the renderer to draw a flight through the spaces it crosses).
Pure functions of the board and the unit's kind; no rules of battle.
"""

from __future__ import annotations

from dipgen.core.board import Board, province_of
from dipgen.core.units import AIR, LAND, SEA, UnitKind


def destinations(board: Board, kind: UnitKind, loc: str) -> list[str]:
    """Every location a unit of `kind` at `loc` can reach in one move (not by convoy): next to it
    on its terrain's graph, or, for kinds that move several spaces, within `kind.steps` of it
    (through any unit). A kind that may not end at sea is not given sea provinces."""
    if kind.steps == 1 and kind.terrain == LAND:
        return list(board.army_adj.get(province_of(loc), ()))
    if kind.steps == 1 and kind.terrain == SEA:
        return list(board.fleet_adj.get(loc, ()))
    start = province_of(loc)
    seen, frontier = {start}, [start]
    for _ in range(kind.steps):
        nxt = []
        for p in frontier:
            for q in (board.neighbours(p) if kind.terrain == AIR else board.army_adj.get(p, ())
                      if kind.terrain == LAND else {province_of(x) for x in board.fleet_adj.get(p, ())}):
                if q not in seen:
                    seen.add(q)
                    nxt.append(q)
        frontier = nxt
    seen.discard(start)
    return sorted(p for p in seen if kind.may_end_at_sea or not board.provinces[p].is_sea)


def route(board: Board, kind: UnitKind, src: str, dest: str) -> list[str]:
    """The provinces a unit of `kind` passes through on a move from province `src` to `dest`, both
    included: a shortest route on its terrain's graph (AIR: land and sea alike, through any unit),
    and among several the one whose spaces come first by their ids, read from the start. [src, dest]
    when they are neighbours or no route is found."""
    graph = (board.neighbours if kind.terrain == AIR else (lambda p: board.army_adj.get(p, ()))
             if kind.terrain == LAND else (lambda p: {province_of(x) for x in board.fleet_adj.get(p, ())}))
    before: dict[str, str | None] = {src: None}
    frontier = [src]
    while frontier and dest not in before:
        nxt = []
        for p in frontier:  # in the order found: breadth first over sorted neighbours keeps routes in order
            for q in sorted(graph(p)):
                if q not in before:
                    before[q] = p
                    nxt.append(q)
        frontier = nxt
    if dest not in before:
        return [src, dest]
    out, step = [dest], before[dest]
    while step is not None:
        out.append(step)
        step = before[step]
    return out[::-1]


def within(board: Board, prov: str, steps: int) -> set[str]:
    """Every province within `steps` spaces of `prov` over land and sea alike (not `prov` itself)."""
    seen, frontier = {prov}, [prov]
    for _ in range(steps):
        nxt = []
        for p in frontier:
            for q in board.neighbours(p):
                if q not in seen:
                    seen.add(q)
                    nxt.append(q)
        frontier = nxt
    seen.discard(prov)
    return seen


def reachable(board: Board, kind: UnitKind, loc: str, prov: str) -> bool:
    """Can a unit of `kind` at `loc` reach province `prov` in one move (coasts ignored)?"""
    if kind.steps == 1:
        if kind.terrain == LAND:
            return prov in board.army_reach.get(loc, ())
        if kind.terrain == SEA:
            return prov in board.fleet_touches.get(loc, ())
    return prov in destinations(board, kind, loc)
